"""Pinning a benchmark to one core, so that "on one core" is what it measures.

The whole process is held to the first core it may use: every thread already
running (such as a maths library's pool, started on import) and every thread
started later. Libraries that size their thread pools themselves (OpenCV) are
still to be told to use one thread. Where the system cannot pin (not Linux),
the benchmark still runs and says so.
"""

from __future__ import annotations

import os
from pathlib import Path


def pin_to_one_core() -> str:
    """Pin this process to one core; say which, for the benchmark's heading."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned to a core (this system cannot)"
    core = min(os.sched_getaffinity(0))
    tasks = Path("/proc/self/task")
    threads = [int(t.name) for t in tasks.iterdir()] if tasks.is_dir() else [0]
    for thread in threads:
        try:
            os.sched_setaffinity(thread, {core})
        except OSError:  # the thread ended meanwhile
            continue
    return f"pinned to core {core}"
