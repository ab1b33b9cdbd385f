"""What the statistics keep of one match, worked out once when it finishes (pure)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from einhorn_table.history.extras import counts_for_dice, dice_group
from einhorn_table.rules import (
    AuctionResult,
    Category,
    Match,
    Roll,
    StartRoll,
    TiebreakRoll,
    Transfer,
    TurnResult,
)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    seat: int
    name: str
    stash: int
    won: bool
    #: The player's stash after each game that ended.
    stash_by_game: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CallSummary:
    player: str
    call: Category
    made: int
    came_true: int


@dataclass(frozen=True, slots=True)
class FaceSummary:
    dice: str
    player: str
    rolls: int
    #: How often each face 1..6 showed.
    faces: tuple[int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class UnicornHolding:
    """One spell of owning the unicorn: how it was got, what it cost, what it brought."""

    player: str
    how: str  # "auction" or "roll"
    bid: int
    #: Stones the owner gained (net) from the turns played while owning it.
    gained: int


@dataclass(frozen=True, slots=True)
class MatchSummary:
    winner: str | None
    games: int
    players: tuple[PlayerSummary, ...]
    calls: tuple[CallSummary, ...]
    faces: tuple[FaceSummary, ...]
    unicorn: tuple[UnicornHolding, ...]


@dataclass(slots=True)
class _Spell:
    player: str
    how: str
    bid: int
    gained: int = 0
    turns: int = 0

    def holding(self) -> UnicornHolding:
        return UnicornHolding(self.player, self.how, self.bid, self.gained)

    @property
    def counts(self) -> bool:
        """A spell with no turn played is none: an auction whose deal ran the central
        stash dry ended the match before any turn (whether the unicorn was won outright
        or on a tie-break), and an Einhorn roll that ended its game (the roller's wrong
        call cost their last stones, or the central stash ran dry) took the unicorn only
        for it to return at once. Counted, such spells would drag "gained on average"
        towards 0 and add to the times the unicorn was owned."""
        return self.turns > 0


def _net(transfers: tuple[Transfer, ...], name: str) -> int:
    """What ``name`` gained (negative: lost) by ``transfers``."""
    return sum(t.stones for t in transfers if t.payee == name) - sum(
        t.stones for t in transfers if t.payer == name
    )


def summarize(match: Match) -> MatchSummary:
    """Replay the inputs in force of ``match`` and keep what the statistics need."""
    replayed = Match(match.setup)
    names = replayed.names
    stash_by_game: list[list[int]] = [[] for _ in names]
    calls: Counter[tuple[str, Category]] = Counter()
    true_calls: Counter[tuple[str, Category]] = Counter()
    faces: dict[tuple[str, str], list[int]] = {}
    holdings: list[UnicornHolding] = []
    spell: _Spell | None = None
    # The bids of an auction that tied, until a tie-break roll settles it.
    tied_bids: dict[str, int] | None = None

    for item in match.inputs:
        outcome = replayed.apply(item)
        if isinstance(item, Roll | StartRoll | TiebreakRoll) and counts_for_dice(item.extra):
            tally = faces.setdefault((dice_group(item.player, item.extra), item.player), [0] * 7)
            tally[0] += 1
            for face in item.dice:
                tally[face] += 1
        if isinstance(outcome, TurnResult):
            if outcome.call is not None:
                calls[outcome.player, outcome.call] += 1
                if outcome.call is outcome.category:
                    true_calls[outcome.player, outcome.call] += 1
            if spell is not None:
                spell.gained += _net(outcome.transfers, spell.player)
                spell.turns += 1
            if outcome.unicorn_to is not None:
                if spell is not None and spell.counts:
                    holdings.append(spell.holding())
                spell = _Spell(outcome.unicorn_to, "roll", 0)
            if outcome.game_over:
                if spell is not None and spell.counts:
                    holdings.append(spell.holding())
                spell = None
                for seat, p in enumerate(replayed.ledger().players):
                    stash_by_game[seat].append(p.stash)
        elif isinstance(outcome, AuctionResult):
            if outcome.winner is not None:
                spell = _Spell(outcome.winner, "auction", dict(outcome.bids)[outcome.winner])
            else:
                tied_bids = dict(outcome.bids)
        elif tied_bids is not None and replayed.state.unicorn is not None:
            owner = names[replayed.state.unicorn]
            spell = _Spell(owner, "auction", tied_bids[owner])
            tied_bids = None
    if spell is not None and spell.counts:
        holdings.append(spell.holding())
    ledger = replayed.ledger()
    players = tuple(
        PlayerSummary(seat, p.name, p.stash, p.name == ledger.winner, tuple(stash_by_game[seat]))
        for seat, p in enumerate(ledger.players)
    )
    call_rows = tuple(
        CallSummary(player, call, made, true_calls[player, call])
        for (player, call), made in sorted(calls.items())
    )
    face_rows = tuple(
        FaceSummary(dice, player, t[0], (t[1], t[2], t[3], t[4], t[5], t[6]))
        for (dice, player), t in sorted(faces.items())
    )
    games = max((len(s) for s in stash_by_game), default=0)
    return MatchSummary(ledger.winner, games, players, call_rows, face_rows, tuple(holdings))
