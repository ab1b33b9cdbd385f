"""The red banner's words when the match cannot be saved, for the family at the table.

The history's own message (the file's path, --state-dir, EINHORN_STATE_DIR) is for
the installer and goes to the journal; the banner says, in two lines at 800x480 as
the camera-lost banner does, what happened, that nothing saved is lost, that play
has stopped, and what to do. What happened is the recorder's :class:`SaveKind` (from
the history's error, never guessed from its words).
"""

from __future__ import annotations

from dataclasses import dataclass

from einhorn_table.table.recorder import SaveKind


@dataclass(frozen=True)
class SaveTrouble:
    """Why the match could not be saved, and what the family does about it."""

    what: str  # "Match not saved: <what>."
    then: str  # what to do, ending with the restart that goes on with the match


FULL = SaveTrouble("the SD card is full", "Free some space, then restart the table to go on.")
READ_ONLY = SaveTrouble("the SD card is read-only",
                        "Restart the Pi to go on; if it comes back, replace the card.")
UNKNOWN = SaveTrouble("writing failed",
                      "Restart the table to go on; the journal says why.")

_TROUBLES = {SaveKind.FULL: FULL, SaveKind.READ_ONLY: READ_ONLY, SaveKind.OTHER: UNKNOWN}


def save_trouble(kind: SaveKind) -> SaveTrouble:
    """What went wrong and what to do, for the recorder's kind of failure."""
    return _TROUBLES[kind]


def save_banner(kind: SaveKind, camera_lost: bool = False) -> str:
    """The banner for a match that could not be saved (``kind``: the recorder's). It
    stands for the camera-lost banner too: no throw is taken until the restart."""
    trouble = save_trouble(kind)
    words = (f"Match not saved: {trouble.what}. Play is stopped; the match so far is safe. "
             f"{trouble.then}")
    return f"{words} Check the camera cable too." if camera_lost else words
