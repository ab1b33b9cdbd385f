"""``einhorn-table doctor``: checks what an installer needs, with what to do for each failure."""
