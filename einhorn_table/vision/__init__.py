"""Reading dice from camera frames: pure functions on numpy images."""
