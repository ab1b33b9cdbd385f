"""The one error root of Einhorn Table.

Every error the companion raises on purpose derives from :class:`EinhornError`;
its message is written for the person in front of the table (a player or the
installer): it says what happened and what to do about it.
"""


class EinhornError(Exception):
    """Something a player or installer must know about; the message says what to do."""
