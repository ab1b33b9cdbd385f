"""Review 8 of the history: the spreadsheet export adds up to the ledger, a tie is said
as names are said everywhere, and the dice test as a game club uses it."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter

import pytest
from conftest import GOLDEN, needs_golden

from einhorn_table.history.export import match_csv
from einhorn_table.history.fairness import MIN_ROLLS, SLIGHT_ROLLS, SURE_ROLLS, judge
from einhorn_table.history.narrate import narrate

# --- the CSV export adds up to the ledger ------------------------------------------------------


def _rows(name: str) -> list[dict[str, str]]:
    lines = (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return list(csv.DictReader(io.StringIO(match_csv(lines))))


def _final(name: str) -> dict[str, int]:
    last = (GOLDEN / f"{name}.expected.jsonl").read_text(encoding="utf-8").splitlines()[-1]
    return {p["name"]: p["game_stones"] + p["stash"] for p in json.loads(last)["players"]}


@needs_golden
def test_the_amount_of_a_wuerfeln_roll_that_takes_the_unicorn_counts_the_passing_stone() -> None:
    """golden wuerfeln-pass-stone: Ana rolls Einhorn silent (-2 to the central stash),
    takes the unicorn from Ben and with it 1 stone of his: she lost 1, not 2, and Ben
    the stone he passed, as the ledger says (Ana's stash 5, Ben's 0)."""
    rows = _rows("wuerfeln-pass-stone")
    last = rows[-1]
    assert (last["player"], last["category_code"], last["amount"]) == ("Ana", "einhorn", "-1")
    assert (last["Ana change"], last["Ben change"]) == ("-1", "-1")
    assert (last["Ana stash"], last["Ben stash"]) == ("5", "0")


@needs_golden
@pytest.mark.parametrize("name", ["wuerfeln-pass-stone", "full-match-wuerfeln-5p",
                                  "full-match-einhorn-4p", "topup", "undo", "short-payment",
                                  "owner-takes-short", "owner-pays-player",
                                  "dreifaltigkeit-win", "auction-tie", "central-dry-in-deal",
                                  "target-reached", "rolloff-won"])
def test_each_players_changes_add_up_to_their_stones_at_the_end(name: str) -> None:
    """A parent adding up a player's column in a spreadsheet gets the ledger's stash:
    the deal, the turns, the stone passing with the unicorn, the owner's counterparty,
    bids and undos are all in it."""
    rows = _rows(name)
    final = _final(name)
    assert rows[0]["type"] == "setup"
    for player, stones in final.items():
        assert sum(int(r[f"{player} change"]) for r in rows) == stones, player
        assert int(rows[-1][f"{player} game stones"]) + int(rows[-1][f"{player} stash"]) \
            == stones


@needs_golden
def test_the_amounts_of_the_turns_are_the_stones_the_roller_got_or_paid() -> None:
    """Where no stones of another player move in a turn, the row's amount is the change
    of the roller's stones: a short payment as far as it went, the passing stone in."""
    for name in ("full-match-wuerfeln-5p", "short-payment", "wuerfeln-pass-stone"):
        rows = _rows(name)
        turns = [r for r in rows if r["amount"] and r["type"] == "roll"]
        assert turns, name
        for r in turns:
            assert r["amount"] == r[f"{r['player']} change"], (name, r["seq"])


# --- a tie said as names are said ----------------------------------------------------------------


def test_a_tie_at_the_auction_names_the_players_as_the_table_says_them() -> None:
    lines = [
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["さくら", "Zoë", "Cem"],'
        ' "games": 2}',
        '{"type": "start_roll", "player": "さくら", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Zoë", "dice": [1, 1, 2]}',
        '{"type": "start_roll", "player": "Cem", "dice": [1, 1, 3]}',
        '{"type": "call", "player": "さくら", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "さくら", "dice": [4, 4, 4]}',
        '{"type": "bid", "player": "さくら", "stones": 0}',
        '{"type": "bid", "player": "Zoë", "stones": 0}',
        '{"type": "bid", "player": "Cem", "stones": 0}',
    ]
    words = narrate(lines)
    assert words[0].startswith("さくら, Zoë and Cem play einhorn, 2 games")
    assert "Auction for game 2 · bids さくら 0, Zoë 0, Cem 0: a tie between さくら, Zoë and " \
        "Cem, who roll for it" in words
    two = narrate([lines[0].replace(', "Cem"', ""), *lines[1:3], *lines[4:8]])
    assert "Auction for game 2 · bids さくら 0, Zoë 0: a tie between さくら and Zoë, who " \
        "roll for it" in two


# --- the dice test as a game club uses it ----------------------------------------------------


def _set_of_three(rng: random.Random, rolls: int, loaded: int = 0,
                  six: float = 1 / 3) -> list[int]:
    """The faces of ``rolls`` throws of three dice, the first ``loaded`` of them showing 6
    with the chance ``six`` (the other faces alike), the rest fair."""
    faces = [0] * 6
    for _ in range(rolls):
        for die in range(3):
            if die < loaded:
                face = 6 if rng.random() < six else rng.randint(1, 5)
            else:
                face = rng.randint(1, 6)
            faces[face - 1] += 1
    return faces


@pytest.mark.parametrize("rolls", [MIN_ROLLS, 150, 400])
def test_fair_dice_are_called_fair_95_times_in_100_at_the_5_percent_level(rolls: int) -> None:
    """The test's size, from seeded fair sets: p < 0.05 in about 5% of them (the usual
    line), called biased (p < 0.01) in about 1%."""
    rng = random.Random(rolls)
    sets = 1500
    verdicts = [judge("white", rolls, _set_of_three(rng, rolls)) for _ in range(sets)]
    below = Counter(v.p_value is not None and v.p_value < 0.05 for v in verdicts)[True]
    assert 0.035 <= below / sets <= 0.065, below
    biased = sum(v.biased for v in verdicts)
    assert biased / sets <= 0.02, biased
    assert all(v.p_value is not None for v in verdicts)


def test_one_die_loaded_a_third_toward_6_is_found_with_enough_rolls() -> None:
    """One die of the set shows 6 in 1 throw of 3: the verdict names face 6 as coming up
    too often in 4 sets of 5 by 300 rolls and nearly always by 600, as the docs say.
    (Now and then another face is named: the one furthest from its share in the rolls.)"""
    rng = random.Random(3)
    found = {}
    for rolls in (120, 300, 600):
        verdicts = [judge("red", rolls, _set_of_three(rng, rolls, loaded=1))
                    for _ in range(300)]
        named = [v for v in verdicts if v.verdict.startswith("face 6 comes up too often")]
        assert all(v.biased for v in named)
        found[rolls] = len(named) / len(verdicts)
        if rolls < SURE_ROLLS:
            # Missed more often than not: what the others are told must not sound fair.
            missed = [v for v in verdicts if not v.biased]
            assert all("bias shows yet" in v.verdict or "no clear sign" in v.verdict
                       for v in missed)
            assert all(v.advice is not None and str(SURE_ROLLS) in v.advice for v in missed)
    assert found[120] < 0.5 and found[300] >= 0.75 and found[600] >= 0.97, found
    # A whole set loaded so shows in the fewest rolls the test takes.
    whole = [judge("red", MIN_ROLLS, _set_of_three(rng, MIN_ROLLS, loaded=3))
             for _ in range(100)]
    assert sum(v.biased and v.odd_face == 6 for v in whole) >= 90


def test_no_sign_of_bias_says_what_it_would_take_to_see_a_small_one() -> None:
    """300 rolls find a die twice off; one only a little off (a 6 in 4 throws) mostly
    passes them: the verdict says how many rolls that takes."""
    rng = random.Random(4)
    slight = [judge("red", SURE_ROLLS, _set_of_three(rng, SURE_ROLLS, loaded=1, six=0.25))
              for _ in range(200)]
    assert sum(v.biased for v in slight) / len(slight) < 0.3
    passed = [v for v in slight if not v.biased and v.p_value is not None
              and v.p_value >= 0.05]
    assert passed and all(v.verdict.startswith("no sign of bias in 300 rolls") for v in passed)
    assert all(v.advice is not None and f"about {SLIGHT_ROLLS} rolls" in v.advice
               for v in passed)
    assert judge("red", SLIGHT_ROLLS, [SLIGHT_ROLLS // 2] * 6).advice is None
