"""Clocks: the real monotonic one, and a fake one that tests move by hand."""

from __future__ import annotations

import time
from dataclasses import dataclass


class SystemClock:
    """The computer's monotonic clock (``time.monotonic``)."""

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


@dataclass
class FakeClock:
    """A clock that only moves when told to: ``advance``, ``set``, or ``sleep``."""

    now: float = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.advance(max(0.0, seconds))

    def advance(self, seconds: float) -> float:
        """Move on by ``seconds`` (never backwards); returns the new time."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self.now += seconds
        return self.now

    def set(self, when: float) -> None:
        """Jump to ``when`` (not earlier than now)."""
        if when < self.now:
            raise ValueError(f"a clock cannot go back from {self.now} to {when}")
        self.now = when
