"""The numbers the companion tells a family, checked against independent working:
the dice verdict that ends in a conclusion, the unicorn's spells, the odds line of
``simulate``."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest
from history_helpers import bot_match

from einhorn_table.cli import main
from einhorn_table.history.fairness import SURE_ROLLS, UNFAIR, judge
from einhorn_table.history.summary import summarize
from einhorn_table.rules import Match, TurnResult, replay
from einhorn_table.rules.engine import Awaiting

# --- the dice: a loaded set is told so, not "roll more" for ever --------------------------


def _faces(rng: random.Random, rolls: int, loaded: bool) -> list[int]:
    """Faces of ``rolls`` throws of three dice; with ``loaded`` the first die shows 6 in
    1 throw of 3 (the other faces alike)."""
    faces = [0] * 6
    for _ in range(rolls):
        for die in range(3):
            if loaded and die == 0:
                face = 6 if rng.random() < 1 / 3 else rng.randint(1, 5)
            else:
                face = rng.randint(1, 6)
            faces[face - 1] += 1
    return faces


def test_a_set_far_too_uneven_after_enough_rolls_is_called_likely_unfair() -> None:
    """One die of the set shows 6 in 1 throw of 3: by 600 rolls nearly every such set is
    told it is likely unfair and to play with another, not to roll another 300 times
    (which it would be told again after every match, for ever)."""
    rng = random.Random(9)
    verdicts = [judge("red", 600, _faces(rng, 600, loaded=True)) for _ in range(200)]
    unfair = [v for v in verdicts if v.words.endswith(": likely unfair")]
    assert len(unfair) >= 0.9 * len(verdicts), len(unfair)
    for v in unfair:
        assert v.biased and v.p_value is not None and v.p_value < UNFAIR
        assert v.advice is not None and "another set of dice" in v.advice
        assert "600 rolls" in v.advice and "roll these another" not in v.advice
    # Too few rolls to be sure: even far too uneven, only "roll more".
    few = judge("red", SURE_ROLLS - 1, [130, 130, 130, 130, 130, 247])
    assert few.p_value is not None and few.p_value < UNFAIR
    assert few.words.endswith("roll more to be sure") and "another 300" in str(few.advice)
    # p between UNFAIR and 0.01, with many rolls: still "roll more".
    unsure = judge("white", 3000, [1470] * 5 + [1650])
    assert unsure.p_value is not None and UNFAIR < unsure.p_value < 0.01
    assert unsure.words.endswith("roll more to be sure")


def test_fair_sets_looked_at_after_every_match_are_seldom_called_unfair() -> None:
    """Fair sets, judged every 30 rolls from 300 to 3000 (a season at the table): about
    1 in 70 is ever called likely unfair."""
    rng = random.Random(11)
    sets, called = 300, 0
    for _ in range(sets):
        faces = [0] * 6
        for rolls in range(30, 3001, 30):
            for face in rng.choices(range(6), k=90):
                faces[face] += 1
            if rolls >= SURE_ROLLS and judge("blue", rolls, faces).words.endswith("unfair"):
                called += 1
                break
    assert called <= 0.04 * sets, called


# --- the unicorn: a spell is a time its owner played with it --------------------------------


def test_an_einhorn_roll_that_ends_the_game_is_no_spell_of_owning_the_unicorn() -> None:
    """Ben's wrong call on an Einhorn costs his last stones: he takes the unicorn (rule
    4.8), the game ends, and it returns at once. Not a spell "taken with an Einhorn roll,
    gained +0": nobody played with it (as for an auction whose deal ends the match)."""
    match = replay([
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], '
        '"games": 1, "central": 67}',
        '{"type": "start_roll", "player": "Ana", "dice": [6, 2, 2]}',
        '{"type": "start_roll", "player": "Ben", "dice": [2, 4, 5]}',
        '{"type": "call", "player": "Ben", "call": "einhorn"}',
        '{"type": "roll", "player": "Ben", "dice": [4, 1, 1]}',
        '{"type": "roll", "player": "Ana", "dice": [2, 4, 1]}',
        '{"type": "call", "player": "Ben", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "Ben", "dice": [3, 2, 5]}',
        '{"type": "roll", "player": "Ana", "dice": [3, 5, 5]}',
        '{"type": "call", "player": "Ben", "call": "unvermeidlich"}',
        '{"type": "roll", "player": "Ben", "dice": [4, 2, 6]}',
    ])
    assert match.over and match.ledger().player("Ben").stash == 0
    assert summarize(match).unicorn == ()


@pytest.mark.parametrize("seed", range(1, 9))
def test_every_spell_of_owning_the_unicorn_had_turns_and_adds_up(seed: int) -> None:
    """Worked out turn by turn from the outcomes: a spell begins with an auction won or an
    Einhorn roll taken, ends when the unicorn passes or the game ends, and counts only if
    a turn was played in it; its gain is the owner's stones won less lost in those turns."""
    match = bot_match(seed)
    check = Match(match.setup)
    spells: list[tuple[str, str, int]] = []
    owner: list[str | int] | None = None  # [name, how, gained, turns]
    for item in match.inputs:
        before = check.ledger().unicorn
        outcome = check.apply(item)
        if isinstance(outcome, TurnResult):
            if owner is not None:
                name = str(owner[0])
                owner[2] = int(owner[2]) + sum(
                    t.stones if t.payee == name else -t.stones
                    for t in outcome.transfers if name in (t.payee, t.payer))
                owner[3] = int(owner[3]) + 1
            if outcome.unicorn_to is not None or outcome.game_over:
                if owner is not None and int(owner[3]) > 0:
                    spells.append((str(owner[0]), str(owner[1]), int(owner[2])))
                owner = None
                if outcome.unicorn_to is not None and not outcome.game_over:
                    owner = [outcome.unicorn_to, "roll", 0, 0]
        elif before is None and check.ledger().unicorn is not None \
                and check.state.awaiting is not Awaiting.NOTHING:
            owner = [str(check.ledger().unicorn), "auction", 0, 0]
    got = [(u.player, u.how, u.gained) for u in summarize(match).unicorn]
    assert got == spells
    assert all(u.how == "auction" or u.bid == 0 for u in summarize(match).unicorn)


# --- simulate: what each call is worth, worked out from the 216 rolls ------------------------


def _category(dice: tuple[int, int, int]) -> str:
    """RULES.md section 1, worked out here again (not the engine's code)."""
    values = sorted(set(dice))
    if len(values) == 1:
        return "dreifaltigkeit"
    if len(values) == 2:
        return "wunsch"
    return "unvermeidlich" if values[1] - values[0] == 1 or values[2] - values[1] == 1 \
        else "einhorn"


def _hand_odds(table: dict[str, tuple[int | str, int, int]], owner: bool
               ) -> dict[str, tuple[float, float]]:
    """Per call (and "silent"): the mean stones and the chance of a WIN over the 216 rolls;
    the unicorn owner's Einhorn moves nothing (4.5)."""
    result = {}
    for called in ("silent", *table):
        stones = win = 0.0
        for dice in itertools.product(range(1, 7), repeat=3):
            rolled = _category(dice)
            if owner and rolled == "einhorn":
                continue
            correct, wrong, silent = table[rolled]
            amount = silent if called == "silent" else correct if called == rolled else wrong
            if amount == "win":
                win += 1 / 216
            else:
                stones += int(amount) / 216
        result[called] = (stones, win)
    return result


EINHORN = {"unvermeidlich": (2, -2, -1), "wunsch": (2, -2, -1), "einhorn": (5, -5, 1),
           "dreifaltigkeit": ("win", 1, 5)}
WUERFELN = {"unvermeidlich": (1, -1, -1), "wunsch": (1, -1, 0), "einhorn": (5, -5, -2),
            "dreifaltigkeit": (9, 3, 6)}
GRANDMA = {**EINHORN, "wunsch": ("win", -2, -1), "einhorn": (6, -4, 1)}
GRANDMA_TOML = """name = "grandma"
base = "einhorn"
[payouts.wunsch]
correct = "win"
[payouts.einhorn]
correct = 6
wrong = -4
silent = 1
"""


@pytest.mark.parametrize(("variant", "table"), [("einhorn", EINHORN), ("wuerfeln", WUERFELN),
                                                ("grandma", GRANDMA)])
def test_simulate_prints_each_calls_odds_for_players_with_and_without_the_unicorn(
        variant: str, table: dict[str, tuple[int | str, int, int]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The measured stones per call mix the owner's turns (whose Einhorn costs nothing)
    with everybody else's, and count a WIN at the stones it took: the odds printed below
    them give both columns, and how often a call WINs instead of counting a WIN as 0."""
    if variant == "grandma":
        (tmp_path / "grandma.toml").write_text(GRANDMA_TOML, encoding="utf-8")
        variant = str(tmp_path / "grandma.toml")
    assert main(["simulate", "--matches", "1", "--variant", variant]) == 0
    out = capsys.readouterr().out
    odds = out[out.index("stones per turn expected with fair dice"):].splitlines()
    assert odds[1].split() == ["call", "without", "the", "unicorn", "the", "unicorn's", "owner"]
    rows = {line.split()[0]: line for line in odds[2:7]}
    players, owners = _hand_odds(table, owner=False), _hand_odds(table, owner=True)
    for called in ("silent", *table):
        cells = []
        for stones, win in (players[called], owners[called]):
            cells.append(f"{stones:+.3f}" + (f", WIN {100 * win:.1f} %" if win else ""))
        assert re.sub(r"\s+", " ", rows[called]).strip() == f"{called} {cells[0]} {cells[1]}"
    assert ("a WIN takes every other player's game stones" in out) == (variant != "wuerfeln")
