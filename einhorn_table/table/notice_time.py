"""How long a notice stays on the screen: long enough to be read aloud to a child.

A short notice ("Not now: nothing to undo yet.") stays ``NOTICE_SECONDS``; a longer
one a second to look up plus its letters at a slow reading-aloud pace (some two words
a second), up to ``NOTICE_MOST_SECONDS``. Before, every notice left after four seconds:
three lines at 800x480 ("The camera is back. The dice it found in the tray are not
read as a roll ...") were gone before the second was read out.
"""

from __future__ import annotations

#: How long a short notice stays on the screen, in seconds (the least any stays).
NOTICE_SECONDS = 4.0
#: The longest a notice stays, in seconds, however long it is (it would stand over the
#: moments after the one it speaks of).
NOTICE_MOST_SECONDS = 15.0
#: Letters (spaces and signs too) read aloud in a second, slowly enough for a child to
#: follow: some two words a second.
LETTERS_PER_SECOND = 12.0
#: The time to look up at the screen and find the notice, in seconds.
LOOK_UP_SECONDS = 1.0


def notice_seconds(text: str) -> float:
    """How long a notice saying ``text`` stays on the screen, in seconds."""
    reading = LOOK_UP_SECONDS + len(text.strip()) / LETTERS_PER_SECOND
    return min(NOTICE_MOST_SECONDS, max(NOTICE_SECONDS, reading))


def notice_shown(text: str, said: float, now: float) -> bool:
    """Whether a notice saying ``text``, said at ``said``, is still on the screen at
    ``now`` (nothing else having taken it away)."""
    return now - said < notice_seconds(text)
