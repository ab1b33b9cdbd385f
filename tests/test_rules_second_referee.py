"""The engine against a second referee written from the text alone (rules_reference):
random inputs, right and wrong, with undos, in every variant and 2 to 6 players. After
every input both take or refuse it alike and show the same ledger; no stone is made or
lost, no count goes below 0, and every match ends."""

from __future__ import annotations

import random

import pytest
from rules_reference import Refused, SecondReferee

from einhorn_table.rules import (
    EINHORN,
    WUERFELN,
    Bid,
    Call,
    Category,
    Counterparty,
    Input,
    Match,
    Roll,
    RuleViolation,
    Setup,
    StartRoll,
    TiebreakRoll,
    Topup,
    Undo,
    Variant,
)
from einhorn_table.rules.variants import variant_from_mapping

NAMES = ["Ana", "Ben", "Cem", "Dora", "Emil", "Fay"]
VARIANTS: list[Variant] = [
    EINHORN,
    WUERFELN,
    # Two pass stones, a deal of 4 and a winning Einhorn.
    variant_from_mapping({"name": "lucky", "base": "wuerfeln", "central_per_player": 12,
                          "start_bonus": 2, "pass_stone": 2, "deal": 4,
                          "payouts": {"einhorn": {"correct": "win"}}}),
    # A deal of 2 and a small central stash: the deal runs dry often.
    variant_from_mapping({"name": "lean", "base": "einhorn", "deal": 2,
                          "central_per_player": 3, "pass_stone": 3,
                          "payouts": {"unvermeidlich": {"silent": 0},
                                      "wunsch": {"silent": 3, "wrong": -7}}}),
]
CALLS: list[Category | None] = [*Category, None]
#: A match still going after this many inputs would be one that never ends.
MOST_INPUTS = 20_000


def _dice(chance: random.Random) -> tuple[int, int, int]:
    return (chance.randint(1, 6), chance.randint(1, 6), chance.randint(1, 6))


def _some_input(chance: random.Random, referee: SecondReferee) -> Input:
    """Mostly what the match waits for, from whoever owes it; now and then another
    player, another kind of input, too many stones, or an undo."""
    ledger = referee.ledger()
    actor = ledger["to_act"]
    who = actor if isinstance(actor, str) and chance.random() < 0.85 else \
        chance.choice(referee.names)
    stash = ledger["players"][referee.names.index(who)]["stash"]  # type: ignore[index]
    stones = chance.choice([0, 0, stash, chance.randint(0, stash), stash + 1])
    waiting = referee.waiting
    draw = chance.random()
    if draw < 0.04:
        return Undo()
    if draw < 0.08:
        waiting = chance.choice(["start_roll", "roll", "counterparty", "bid", "topup",
                                 "auction_tie"])
    if waiting == "topup" and chance.random() < 0.3:
        # The owner's call or roll closes the top-ups (5.8).
        if referee.unicorn is not None and chance.random() < 0.8:
            who = referee.names[referee.unicorn]
        waiting = "roll"
    if waiting == "start_roll":
        return StartRoll(player=who, dice=_dice(chance))
    if waiting == "roll":
        if chance.random() < 0.5:
            return Call(player=who, call=chance.choice(CALLS))
        return Roll(player=who, dice=_dice(chance))
    if waiting == "counterparty":
        return Counterparty(player=who, party=chance.choice([*referee.names, "central"]))
    if waiting == "bid":
        return Bid(player=who, stones=stones)
    if waiting == "topup":
        return Topup(player=who, stones=stones)
    return TiebreakRoll(player=who, dice=_dice(chance))


def _setup(chance: random.Random) -> Setup:
    variant = chance.choice(VARIANTS)
    players = chance.randint(2, 6)
    least = variant.deal * players + 1
    return Setup.for_variant(
        variant, NAMES[:players],
        games=chance.choice([None, 1, 2, 3]),
        target=chance.choice([None, None, chance.randint(5, 40)]),
        central=chance.choice([None, least, least + chance.randint(0, 30)]),
    )


def _engine_ledger(match: Match) -> dict[str, object]:
    ledger = match.ledger().to_json()
    return {key: ledger[key] for key in ("game", "central", "unicorn", "to_act", "awaiting",
                                         "players", "winner")}


def play_against_the_second_referee(seed: int) -> int:
    """One random match; returns how many inputs it took to end."""
    chance = random.Random(seed)
    setup = _setup(chance)
    match = Match(setup)
    referee = SecondReferee(setup)
    earlier: list[SecondReferee] = []
    total = referee.total()
    for count in range(1, MOST_INPUTS):
        item = _some_input(chance, referee)
        try:
            match.apply(item)
            engine_took = True
        except RuleViolation:
            engine_took = False
        if isinstance(item, Undo):
            referee_took = bool(earlier)
            if earlier:
                referee = earlier.pop()
        else:
            kept = referee.copy()
            try:
                referee.apply(item)
                referee_took = True
                earlier.append(kept)
            except Refused:
                referee_took = False
                referee = kept
        state = match.state
        agree = (engine_took == referee_took and _engine_ledger(match) == referee.ledger())
        if not agree or state.total_stones() != total or min(
                [state.central, *state.game_stones, *state.stash]) < 0:
            # The ledgers side by side, and the match file that led there.
            taken = f"the engine {'took' if engine_took else 'refused'} it, the text " \
                f"{'allows' if referee_took else 'forbids'} it"
            raise AssertionError(
                f"seed {seed}, input {count}: {item}; {taken}\nengine: "
                f"{_engine_ledger(match)}\ntext:   {referee.ledger()}\n"
                f"stones: {state.total_stones()} of {total}\n{match.notation()}")
        if match.over:
            return count
    raise AssertionError(f"seed {seed}: the match did not end after {MOST_INPUTS} inputs")


@pytest.mark.parametrize("first", range(0, 400, 50))
def test_the_engine_and_a_second_referee_agree_on_random_inputs(first: int) -> None:
    for seed in range(first, first + 50):
        play_against_the_second_referee(seed)
