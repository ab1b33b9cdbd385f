"""The undo chord at the table: what it takes back, and what the screen says of it.

In order: another player's undo just after one taken counts as the same one (two players
who saw the same slip press at once); else the question about a roll goes (the misread
roll is no input yet: the input before it stays, and its roller throws again); else the
caller's own call not yet locked by a throw is taken back (the wrong button just pressed,
not the roll before it, which was someone else's); else the match's last input, and
where that is a bid of an auction already revealed, the whole auction. Dice that started
moving before an undo are no throw of the turn it gave back. Where the player who pressed
it is not the one whose input went, the screen names them ("Ana undid Cem's roll 3 3 2"):
at a table of six, a child's chord by mistake is seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from einhorn_table.rules import Awaiting, Bid, Category, Input, Undo
from einhorn_table.words import input_words

#: How soon after one player's undo another player's undo counts as the same one (two
#: players who saw the same slip press at once); the same player may press again at once.
UNDO_ECHO_SECONDS = 1.5


@dataclass(frozen=True)
class UndoDone:
    """An undo taken: whose, when, and what it took back in words ("Ana's roll 2 2 3")."""

    player: int
    time: float
    what: str
    #: The name of whoever pressed it, where the screen named them ("Ana undid ...": the
    #: input was another's); None: it said "Undone: ...".
    by: str | None = None


def echo_of(last: UndoDone | None, player: int, time: float) -> UndoDone | None:
    """The undo that ``player``'s undo at ``time`` repeats: ``last``, where another player
    took it less than ``UNDO_ECHO_SECONDS`` before (the same slip: it is undone once);
    None: this undo is one of its own."""
    if last is not None and last.player != player and time - last.time < UNDO_ECHO_SECONDS:
        return last
    return None


def undone_words(what: str, by: str | None = None) -> str:
    """How the screen starts to say that ``what`` was undone: "Undone: Ana's roll 2 2 3";
    where ``by``, the name of the player who pressed it, is given (the input was another
    player's), who did: "Ben undid Ana's roll 2 2 3"."""
    return f"{by} undid {what}" if by else f"Undone: {what}"


def presser_named(presser: str, owner: str | None) -> str | None:
    """The name the undo's words give its presser: ``presser`` where the input taken back
    is not theirs (``owner``: whose it is; None: nobody's alone, the auction), else None."""
    return None if owner == presser else presser


def undone_once_words(echo: UndoDone, names: Sequence[str], player: int,
                      told: str | None) -> tuple[str, bool]:
    """What the screen says to ``player``, whose undo repeats ``echo`` (another's), given
    ``told``, the notice said as ``echo`` was taken (None: none, or another since). The
    words, and True where they stand in for ``told``, what the table asked after the undo
    kept (who rolls again); False: a notice of their own, saying how to go back further."""
    both = f"Undone once ({names[echo.player]} and {names[player]} both asked): "
    said = undone_words(echo.what, echo.by)
    if told is not None and told.startswith(said) and told != said:
        # (What the table asks after it, who rolls again: it stays.)
        return both + echo.what + told.removeprefix(said), True
    return f"{both}{echo.what}. To go back further, undo again.", False


def question_words(by_hand: bool) -> str:
    """What undoing the question about a roll takes back, in words: the dice entered by
    hand (``by_hand``, the camera lost) or the dice as read."""
    return "the dice entry" if by_hand else "the dice as read"


def own_call_words(name: str, call: Category) -> str:
    """What undoing ``name``'s own ``call``, not yet locked by a throw, takes back."""
    return f"{name}'s call of {call.label}"


def call_undone_words(what: str) -> str:
    """What the screen says once the caller's own call (``what``) is taken back."""
    return f"{undone_words(what)} (silent now). Tap a category to call again, or roll."


@dataclass(frozen=True)
class LastInputUndo:
    """Undoing the match's last input, ``withdrawn`` (None: none), while it awaits
    ``awaiting``. Bids revealed (the auction was over) cannot be made secret again:
    undoing the last one takes back the whole auction, and everybody bids again."""

    withdrawn: Input | None
    awaiting: Awaiting

    @classmethod
    def of(cls, inputs: Sequence[Input], awaiting: Awaiting) -> LastInputUndo:
        """Undoing the last of the match's ``inputs`` in force."""
        return cls(inputs[-1] if inputs else None, awaiting)

    @property
    def revealed(self) -> bool:
        """Whether it takes back the whole auction (the bids were seen)."""
        return isinstance(self.withdrawn, Bid) and self.awaiting is not Awaiting.BID

    @property
    def what(self) -> str:
        """What it takes back, in words. A bid is secret until every bid is in: whose,
        not how many."""
        withdrawn = self.withdrawn
        if self.revealed:
            return "the auction"
        if isinstance(withdrawn, Bid):
            return f"{withdrawn.player}'s bid"
        return input_words(withdrawn) if withdrawn is not None else "the last input"

    @property
    def owner(self) -> str | None:
        """Whose input it takes back (a name); None: nobody's alone (the auction, or no
        input)."""
        if self.revealed or self.withdrawn is None:
            return None
        player = getattr(self.withdrawn, "player", None)
        return player if isinstance(player, str) else None

    def said(self, by: str | None = None) -> str | None:
        """What the screen says once it is undone, as the cards change (``by``: the name
        of the player who pressed it, said where the input was another's, see
        :func:`presser_named`); None: nothing."""
        if self.revealed:
            return (f"{undone_words('the auction', by)}. The bids were seen, so everybody "
                    "bids again")
        if self.withdrawn is not None:
            return undone_words(self.what, by)
        return None


def undone_since(record: Sequence[Input], recorded: int) -> bool:
    """Whether an undo was taken since the match had recorded ``recorded`` lines of
    ``record``: dice moving since before it were thrown for a turn it took back."""
    return any(isinstance(item, Undo) for item in record[recorded:])
