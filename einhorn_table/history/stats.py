"""The statistics of stored matches: pure functions over the summaries the store keeps.

Practice matches are left out of everything; a player's matches and wins count
finished matches; calls, dice and the unicorn count abandoned matches too (their
rolls happened). See :mod:`einhorn_table.history.extras` for the roll extras read.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from einhorn_table.history.fairness import ALPHA, FairnessVerdict, judge
from einhorn_table.history.store import MatchStore
from einhorn_table.rules import PROBABILITY, Category
from einhorn_table.words import counted, pad, shown_width


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    matches: int
    wins: int
    #: Average stash at the end of a match.
    average_stash: float
    #: Average stash after game 1, 2, ... (over the matches that reached that game).
    stash_by_game: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class CallStats:
    call: Category
    made: int
    came_true: int
    #: The chance of the category in a roll of fair dice (RULES.md section 1).
    odds: float

    @property
    def rate(self) -> float | None:
        return self.came_true / self.made if self.made else None


@dataclass(frozen=True, slots=True)
class UnicornStats:
    """Spells of owning the unicorn, by how it was got ("auction" or "roll")."""

    how: str
    spells: int
    paid: int
    gained: int

    @property
    def average_paid(self) -> float:
        return self.paid / self.spells if self.spells else 0.0

    @property
    def average_gained(self) -> float:
        return self.gained / self.spells if self.spells else 0.0


@dataclass(frozen=True, slots=True)
class Statistics:
    player: str | None
    matches: int
    players: tuple[PlayerStats, ...]
    calls: tuple[CallStats, ...]
    unicorn: tuple[UnicornStats, ...]
    dice: tuple[FairnessVerdict, ...]
    #: Matches (not practice) abandoned before their end: their calls and dice count.
    abandoned: int = 0
    #: Matches still being played: they count once they end.
    playing: int = 0


# --- pure: rows in, figures out ------------------------------------------------


def player_stats(
    players: Sequence[tuple[str, int, int, int]], stash: Sequence[tuple[str, int, int, int]]
) -> tuple[PlayerStats, ...]:
    """From (name, matches, wins, sum of final stashes) and
    (name, game, sum of stashes after that game, matches that reached it) rows."""
    curves: dict[str, dict[int, float]] = {}
    for name, game, total, reached in stash:
        curves.setdefault(name, {})[game] = total / reached
    result = []
    for name, matches, wins, total in players:
        curve = curves.get(name, {})
        result.append(PlayerStats(name, matches, wins, total / matches if matches else 0.0,
                                  tuple(curve[g] for g in sorted(curve))))
    return tuple(sorted(result, key=lambda p: (-p.wins, -p.average_stash, p.name)))


def call_stats(rows: Sequence[tuple[str, int, int]]) -> tuple[CallStats, ...]:
    """From (call, made, came true) rows; every category is listed, made or not."""
    made = {Category(call): (m, t) for call, m, t in rows}
    return tuple(
        CallStats(cat, *made.get(cat, (0, 0)), odds=PROBABILITY[cat]) for cat in Category
    )


def unicorn_stats(rows: Sequence[tuple[str, int, int, int]]) -> tuple[UnicornStats, ...]:
    """From (how, spells, paid, gained) rows."""
    return tuple(UnicornStats(how, n, paid, gained) for how, n, paid, gained in sorted(rows))


def dice_fairness(rows: Sequence[Sequence[Any]]) -> tuple[FairnessVerdict, ...]:
    """From (dice, rolls, f1..f6) rows: a verdict per set of dice."""
    return tuple(judge(row[0], int(row[1]), [int(v) for v in row[2:8]]) for row in rows)


# --- reading the store ------------------------------------------------------------


def gather(store: MatchStore, player: str | None = None) -> Statistics:
    """The statistics of every (non-practice) match in ``store``, or of one player.

    Reads the running totals (:mod:`einhorn_table.history.totals`): a few hundred
    rows, however many matches are kept. A name typed in either Unicode form ("Zoë"
    as one letter, or as "e" and its dots) is one player: the store's ``nfc``
    function makes them one.
    """
    def where(column: str) -> str:
        return "" if player is None else f" WHERE nfc({column}) = ?"

    params: tuple[str, ...] = () if player is None else (unicodedata.normalize("NFC", player),)
    players = store.query("SELECT nfc(name), sum(matches), sum(wins), sum(stash) "
                          "FROM totals_players" + where("name") + " GROUP BY nfc(name)", params)
    # (Over every match kept: a name of plain ASCII is compared as it is, at once.)
    played_by = "" if player is None else \
        " AND EXISTS (SELECT 1 FROM json_each(matches.players) WHERE value = ?1 " \
        "OR (value GLOB '*[^ -~]*' AND nfc(value) = ?1))"
    states = dict(store.query("SELECT state, count(*) FROM matches WHERE practice = 0"
                              + played_by + " GROUP BY state", params))
    matches = states.get("finished", 0)
    stash = store.query("SELECT nfc(name), game, sum(stash), sum(matches) FROM totals_stash"
                        + where("name") + " GROUP BY nfc(name), game", params)
    calls = store.query("SELECT call, sum(made), sum(came_true) FROM totals_calls"
                        + where("player") + " GROUP BY call", params)
    unicorn = store.query("SELECT how, sum(spells), sum(paid), sum(gained) FROM totals_unicorn"
                          + where("player") + " GROUP BY how", params)
    faces = store.query(
        "SELECT nfc(dice), sum(rolls), sum(f1), sum(f2), sum(f3), sum(f4), sum(f5), sum(f6) "
        "FROM totals_faces" + where("player") + " GROUP BY nfc(dice) ORDER BY nfc(dice)",
        params)
    return Statistics(player, int(matches), player_stats(players, stash), call_stats(calls),
                      unicorn_stats(unicorn), dice_fairness(faces),
                      abandoned=int(states.get("abandoned", 0)),
                      playing=int(states.get("playing", 0)))


# --- words ---------------------------------------------------------------------


def format_statistics(stats: Statistics) -> str:
    """The statistics as a few small tables a family can read."""
    who = f" for {stats.player}" if stats.player else ""
    finished = counted(stats.matches, "finished match", "finished matches")
    out = [f"Statistics{who}: {finished} (practice left out)"]
    also = []
    if stats.abandoned:
        also.append(f"{stats.abandoned} abandoned before the end (their calls and dice count)")
    if stats.playing:
        also.append(f"{stats.playing} still being played (counted once "
                    f"{'it ends' if stats.playing == 1 else 'they end'})")
    if also:
        out.append(f"  Also kept: {'; '.join(also)}")
    out.append("")
    if stats.players:
        width = max(6, *(shown_width(p.name) for p in stats.players))
        out.append(f"  {'player':<{width}}  matches  wins  win rate  avg stash  "
                   "stash after games 1, 2, 3 ...")
        for p in stats.players:
            curve = " ".join(f"{v:.0f}" for v in p.stash_by_game[:10])
            out.append(f"  {pad(p.name, width)}  {p.matches:>7}  {p.wins:>4}  "
                       f"{p.wins / p.matches:>8.0%}  {p.average_stash:>9.1f}  {curve}")
        out.append("")
    out.append("  Calls: how often they came true, against the odds of fair dice")
    out.append(f"  {'call':<18}  {'made':>6}  {'came true':>9}  {'rate':>6}  {'odds':>6}")
    for c in stats.calls:
        rate = "-" if c.rate is None else f"{c.rate:.1%}"
        out.append(f"  {c.call.label:<18}  {c.made:>6}  {c.came_true:>9}  {rate:>6}  "
                   f"{c.odds:>6.1%}")
    out.append("")
    out.append("  The unicorn's worth: stones its owner gained while owning it")
    if not stats.unicorn and stats.playing and not stats.matches and not stats.abandoned:
        out.append("  (none counted yet: a match being played counts once it ends)")
    elif not stats.unicorn:
        out.append(f"  ({stats.player} has not owned the unicorn yet)" if stats.player
                   else "  (nobody has owned the unicorn yet)")
    for u in stats.unicorn:
        got = "won at auction" if u.how == "auction" else "taken with an Einhorn roll"
        # The net from the figures as shown, so that the line adds up.
        cost, gain = round(u.average_paid, 1), round(u.average_gained, 1)
        paid = f", paid {cost:.1f} on average" if u.how == "auction" else ""
        out.append(f"  {got}: {counted(u.spells, 'time')}{paid}, gained {gain:+.1f} "
                   f"on average (net {gain - cost:+.1f})")
    out.append("")
    out.append("  Dice: are they fair? (chi-square test of the faces; practice and "
               "calibration rolls left out)")
    if any(d.p_value is not None for d in stats.dice):
        out.append(f"  (p: the chance that fair dice come out this uneven or more; "
                   f"below {ALPHA} counts as a sign of bias)")
    if not stats.dice:
        out.append("  (no rolls yet)" if not stats.playing else
                   "  (no rolls counted yet: a match being played counts once it ends)")
    for d in stats.dice:
        counts = " ".join(f"{f}:{n}" for f, n in enumerate(d.faces, start=1))
        out.append(f"  {d.dice}: {d.verdict}    [{counts}]")
        if d.advice:
            out.append(f"    ({d.advice})")
    return "\n".join(out)
