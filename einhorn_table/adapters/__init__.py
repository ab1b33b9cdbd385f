"""Implementations of the ports (``einhorn_table.ports``).

Each adapter imports its third-party library (picamera2, cv2, gpiozero,
pygame) inside itself, so that importing this package costs nothing and a
missing library is reported, with what to do, only when that adapter is used.
"""
