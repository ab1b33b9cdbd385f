"""Whole matches played by bots, and what a game designer wants to know of them."""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from einhorn_table.errors import EinhornError
from einhorn_table.rules.categories import Category
from einhorn_table.rules.engine import Awaiting, MatchState, Phase, TurnResult
from einhorn_table.rules.match import Match
from einhorn_table.rules.notation import Roll, Setup
from einhorn_table.simulation.bots import next_inputs
from einhorn_table.simulation.strategies import CALL_OPTIONS, Strategy

T = TypeVar("T")

#: A match that has not ended after this many inputs is stopped: never seen with the
#: shipped variants, but a house variant whose rolls move no stones never ends.
MAX_INPUTS = 200_000


class EndlessMatch(EinhornError):
    """A simulated match that does not end; the message says what to change."""


@dataclass(slots=True)
class MatchReport:
    """One simulated match."""

    seats: tuple[str, ...]
    winner: int
    starter: int
    #: The games played: not the game counter, which a match ended in the deal has
    #: moved on to a game that never began (RULES.md section 9).
    games: int
    turns_per_game: list[int]
    #: "turn" or "deal" if the central stash ran dry, else None.
    central_dry: str | None
    #: Per call option: (turns, net stones for the roller).
    earnings: dict[Category | None, list[int]]
    rolloff: bool
    turns: int
    #: Per game begun with a unicorn owner: the stones the owner gained in that game
    #: less the mean of what the other players gained (the unicorn's worth for a game).
    owner_edges: list[float] = field(default_factory=list)


def play_match(setup: Setup, strategies: Sequence[Strategy], rng: random.Random) -> MatchReport:
    """Play one match to its end with the given bots, seat by seat."""
    state = MatchState(setup)
    names = state.names
    turns_per_game = [0]
    earnings: dict[Category | None, list[int]] = {option: [0, 0] for option in CALL_OPTIONS}
    starter = -1
    central_dry: str | None = None
    rolloff = False
    inputs = 0
    owner_edges: list[float] = []
    # After an auction: the owner, and everybody's stones (stash and game stones).
    game_start: tuple[int, list[int]] | None = None
    apply = state.apply
    while state.awaiting is not Awaiting.NOTHING:
        for item in next_inputs(state, strategies, rng):
            game = state.game
            before = state.phase
            outcome = apply(item)
            inputs += 1
            if type(item) is Roll:
                while len(turns_per_game) < game:
                    turns_per_game.append(0)
                turns_per_game[game - 1] += 1
                if starter < 0:
                    starter = names.index(item.player)
            if type(outcome) is TurnResult:
                tally = earnings[outcome.call]
                tally[0] += 1
                tally[1] += _net(outcome)
            after = state.phase
            if after is before:
                continue
            if before in _AUCTION and after is Phase.TOPUP:  # won and dealt
                assert state.unicorn is not None
                game_start = (state.unicorn, _stones(state))
            elif game_start is not None and after in _GAME_OVER:
                owner_edges.append(owner_edge(*game_start, _stones(state)))
                game_start = None
            if after is Phase.OVER or after is Phase.ROLLOFF:
                rolloff = rolloff or after is Phase.ROLLOFF
                if before is Phase.AUCTION or before is Phase.AUCTION_TIE:
                    central_dry = "deal"
                elif before is not Phase.ROLLOFF and state.central == 0:
                    central_dry = "turn"
        if inputs > MAX_INPUTS:
            raise EndlessMatch(
                f"a simulated match of {state.variant.name} did not end after "
                f"{sum(turns_per_game):,} turns: a game ends only when a player has no "
                "game stones left or the central stash runs dry, and with these payouts "
                "and strategies the stones hardly move. Give the rolls amounts other "
                "than 0 in the house variant's [payouts], or choose other --strategies."
            )
    assert state.winner is not None
    return MatchReport(
        seats=tuple(s.name for s in strategies),
        winner=state.winner,
        starter=starter,
        games=state.games_played,
        turns_per_game=turns_per_game,
        central_dry=central_dry,
        earnings=earnings,
        rolloff=rolloff,
        turns=sum(turns_per_game),
        owner_edges=owner_edges,
    )


_AUCTION = (Phase.AUCTION, Phase.AUCTION_TIE)
#: The phases a game's last turn leads to.
_GAME_OVER = (Phase.AUCTION, Phase.OVER, Phase.ROLLOFF)


def _stones(state: MatchState) -> list[int]:
    return [stash + game for stash, game in zip(state.stash, state.game_stones, strict=True)]


def owner_edge(owner: int, before: list[int], after: list[int]) -> float:
    """What the owner gained over the mean of the other players' gains."""
    gains = [a - b for a, b in zip(after, before, strict=True)]
    rivals = gains[:owner] + gains[owner + 1:]
    return gains[owner] - statistics.fmean(rivals)


def _net(turn: TurnResult) -> int:
    """The stones the roller gained (or lost, negative) in one turn."""
    net = 0
    for transfer in turn.transfers:
        if transfer.payee == turn.player:
            net += transfer.stones
        elif transfer.payer == turn.player:
            net -= transfer.stones
    return net


@dataclass(slots=True)
class Summary:
    """What N simulated matches showed."""

    matches: int = 0
    turns: int = 0
    turns_per_game: list[int] = field(default_factory=list)
    games_per_match: list[int] = field(default_factory=list)
    starter_wins: int = 0
    players: int = 0
    seats: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    dry_in_turn: int = 0
    dry_in_deal: int = 0
    rolloffs: int = 0
    earnings: dict[Category | None, list[int]] = field(
        default_factory=lambda: {option: [0, 0] for option in CALL_OPTIONS}
    )
    owner_edges: list[float] = field(default_factory=list)

    def add(self, report: MatchReport) -> None:
        self.matches += 1
        self.turns += report.turns
        self.turns_per_game.extend(t for t in report.turns_per_game if t)
        self.games_per_match.append(report.games)
        self.starter_wins += report.winner == report.starter
        self.players = len(report.seats)
        self.seats.update(report.seats)
        self.wins[report.seats[report.winner]] += 1
        self.dry_in_turn += report.central_dry == "turn"
        self.dry_in_deal += report.central_dry == "deal"
        self.rolloffs += report.rolloff
        for option, (turns, stones) in report.earnings.items():
            self.earnings[option][0] += turns
            self.earnings[option][1] += stones
        self.owner_edges.extend(report.owner_edges)

    def unicorn_worth(self) -> float | None:
        """The stones a game begun as the unicorn owner gained over the mean rival."""
        return statistics.fmean(self.owner_edges) if self.owner_edges else None


def simulate(
    setup: Setup,
    strategies: Sequence[Strategy],
    matches: int,
    seed: int,
) -> Summary:
    """Play ``matches`` matches; the strategies move one seat on after every match.

    Seeded: the same arguments always give the same summary.
    """
    rng = random.Random(seed)
    summary = Summary()
    for index in range(matches):
        summary.add(play_match(setup, seating(strategies, len(setup.players), index), rng))
    return summary


def seating(strategies: Sequence[T], seats: int, match: int) -> list[T]:
    """Who sits where in match number ``match`` (from 0).

    As many strategies as seats, or more seats: the strategies in their order round the
    table from the seat ``match`` places on, as many times over as the seats take.
    Fewer seats than strategies: each block of as many matches as there are strategies
    seats one line-up moved on a seat a match (every strategy in every seat once), and
    the blocks go through every line-up in turn, so that every strategy meets every
    other, in either order (four strategies at two seats: 3 blocks, the 12 pairings),
    not only its neighbours in the list (silent never met odds).
    """
    count = len(strategies)
    block, shift = divmod(match, count)
    if seats >= count:
        order = list(range(seats))
    else:  # line-ups beginning with the first strategy, one a block
        rest = list(range(1, count))
        order = [0, *_arrangement(rest, seats - 1, block % math.perm(count - 1, seats - 1))]
    return [strategies[(shift + position) % count] for position in order]


def _arrangement(items: list[int], length: int, index: int) -> list[int]:
    """The ``index``-th (from 0) of the ``length``-long arrangements of ``items``, in
    the order itertools.permutations gives them (counted, not listed: there may be
    millions)."""
    pool, chosen = list(items), []
    for position in range(length):
        choice, index = divmod(index, math.perm(len(pool) - 1, length - position - 1))
        chosen.append(pool.pop(choice))
    return chosen


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    - "


def format_summary(summary: Summary, title: str) -> str:
    """The summary as the table ``einhorn-table simulate`` prints."""
    tpg = summary.turns_per_game
    gpm = summary.games_per_match
    m = summary.matches
    lines = [title, ""]
    if tpg:
        p90 = statistics.quantiles(tpg, n=10)[-1] if len(tpg) > 1 else tpg[0]
        lines.append(
            f"turns per game         median {statistics.median(tpg):g}, mean "
            f"{statistics.fmean(tpg):.1f}, 90th percentile {p90:g}"
        )
    lines.append(
        f"games per match        median {statistics.median(gpm):g}, mean "
        f"{statistics.fmean(gpm):.2f}"
    )
    lines.append(
        f"central stash ran dry  {percent(summary.dry_in_turn + summary.dry_in_deal, m)} of "
        f"matches ({percent(summary.dry_in_turn, m).strip()} in a turn, "
        f"{percent(summary.dry_in_deal, m).strip()} while dealing)"
    )
    lines.append(
        f"starting player won    {percent(summary.starter_wins, m)} of matches "
        f"(a fair share is {100 / summary.players if summary.players else 0:.1f} %)"
    )
    lines.append(f"roll-off for the win   {percent(summary.rolloffs, m)} of matches")
    worth = summary.unicorn_worth()
    if worth is not None:
        lines.append(
            f"the unicorn's worth    {worth:+.2f} stones a game over the mean rival "
            f"(the owner at the start of {len(summary.owner_edges)} games)"
        )
    lines.append("")
    lines.append("strategy   seats    wins   wins per seat")
    for name in summary.seats:
        seats, wins = summary.seats[name], summary.wins[name]
        lines.append(f"{name:<9} {seats:>6} {wins:>7}   {percent(wins, seats)}")
    lines.append("")
    lines.append("call              turns   stones per turn")
    for option, (turns, stones) in summary.earnings.items():
        label = "silent" if option is None else option.value
        mean = f"{stones / turns:+.3f}" if turns else "-"
        lines.append(f"{label:<15} {turns:>7}   {mean:>15}")
    return "\n".join(lines)


def play_recorded(
    setup: Setup, strategies: Sequence[Strategy], rng: random.Random
) -> Match:
    """Play one match with bots and keep every line, as the table's match file would."""
    match = Match(setup)
    while not match.over:
        for item in next_inputs(match.state, strategies, rng):
            match.apply(item)
    return match
