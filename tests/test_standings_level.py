"""The end of a match where players reach its target together or end level: every line
said of it names them all (the final screen, the terminal's standings, ``replay``), and
the players the roll-off did not rank share their place (RULES.md 5.3 and 6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from screen_helpers import MakeDrawing, text_drawing
from table_helpers import MemoryRecorder

from einhorn_table.cli.replay import format_ledger
from einhorn_table.cli.table_app import standings_text
from einhorn_table.rules import (
    WUERFELN,
    Call,
    Category,
    Match,
    MatchEnd,
    Roll,
    Setup,
    StartRoll,
    TiebreakRoll,
    match_end,
)
from einhorn_table.screen.view_model import ScreenKind, build_view
from einhorn_table.standings import ending_words, final_places, reached_target, tie_words
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.words import shown_width

NO_EINHORN = (2, 2, 5)
EINHORN = (1, 3, 5)
Dice = tuple[int, int, int]


def rounds(moves: dict[str, str], count: int) -> list[tuple[str, str]]:
    """``count`` rounds of turns, each player moving as ``moves`` says."""
    return [(name, how) for _ in range(count) for name, how in moves.items()]


def played(names: tuple[str, ...], turns: list[tuple[str, str]],
           rolloff: list[tuple[str, Dice]], *, target: int | None = 12,
           central: int | None = None) -> Match:
    """A wuerfeln match the first player starts, played turn by turn through the rules:
    "up" calls Wunsch and rolls it (+1 from the central stash), "down" rolls Das
    Unvermeidliche silent (-1), "stay" rolls Wunsch silent (0); then the roll-off."""
    match = Match(Setup.for_variant(WUERFELN, names, target=target, central=central))
    match.apply(StartRoll(player=names[0], dice=(6, 6, 6)))
    for name in names[1:]:
        match.apply(StartRoll(player=name, dice=(1, 1, 2)))
    for name, how in turns:
        assert match.ledger().to_act == name
        if how == "up":
            match.apply(Call(player=name, call=Category.WUNSCH))
        match.apply(Roll(player=name, dice=(1, 2, 3) if how == "down" else (2, 2, 3)))
    for name, dice in rolloff:
        match.apply(TiebreakRoll(player=name, dice=dice))
    assert match.over
    return match


def two_level_at_the_target() -> Match:
    """Ana and Ben reach 12 in the same game, level; nobody rolls an Einhorn in the
    roll-off's first round, Ben does in its second."""
    return played(("Ana", "Ben", "Cem"), rounds({"Ana": "up", "Ben": "up", "Cem": "down"}, 6),
                  [("Ana", NO_EINHORN), ("Ben", NO_EINHORN), ("Ana", NO_EINHORN),
                   ("Ben", EINHORN)])


def three_level_at_the_target() -> Match:
    return played(("Ana", "Ben", "Cem", "Dan"),
                  rounds({"Ana": "up", "Ben": "up", "Cem": "up", "Dan": "down"}, 6),
                  [("Ana", NO_EINHORN), ("Ben", NO_EINHORN), ("Cem", EINHORN)])


def four_level_when_the_central_stash_runs_dry() -> Match:
    # 28 stones: 24 dealt, then each player's +1 empties it at Dan's turn.
    names = ("Ana", "Ben", "Cem", "Dan")
    return played(names, rounds(dict.fromkeys(names, "up"), 1),
                  [("Ana", NO_EINHORN), ("Ben", NO_EINHORN), ("Cem", NO_EINHORN),
                   ("Dan", NO_EINHORN), ("Ana", NO_EINHORN), ("Ben", EINHORN)],
                  target=None, central=28)


def one_past_the_target_one_on_it() -> Match:
    """Ana ends on 13 and Ben on 12: both reached the target of 12 in the last game."""
    turns = rounds({"Ana": "up", "Ben": "up", "Cem": "down"}, 5)
    turns += [("Ana", "up"), ("Ben", "up"), ("Cem", "stay"),
              ("Ana", "up"), ("Ben", "stay"), ("Cem", "down")]
    return played(("Ana", "Ben", "Cem"), turns, [])


# ---------------------------------------------------------------- why the match ended


def test_the_end_names_everyone_who_reached_the_target_together() -> None:
    # "The match ended when Ana reached 12 stones": Ben, level with her, went unnamed.
    two = two_level_at_the_target().ledger()
    assert match_end(two) is MatchEnd.TARGET_REACHED
    assert [p.stash for p in two.players] == [12, 12, 0] and two.winner == "Ben"
    assert reached_target(two) == ["Ana", "Ben"]
    assert ending_words(two) == "The match ended when Ana and Ben reached 12 stones."
    assert tie_words(two) == "Ana and Ben tied on 12 stones; Ben rolled an Einhorn first."
    three = three_level_at_the_target().ledger()
    assert [p.stash for p in three.players] == [12, 12, 12, 0] and three.winner == "Cem"
    assert ending_words(three) == "The match ended when Ana, Ben and Cem reached 12 stones."
    assert tie_words(three) == "Ana, Ben and Cem tied on 12 stones; Cem rolled an Einhorn first."
    # Not level: Ana passed the target, Ben reached it, in the same game.
    ahead = one_past_the_target_one_on_it().ledger()
    assert [p.stash for p in ahead.players] == [13, 12, 0] and ahead.winner == "Ana"
    assert ending_words(ahead) == "The match ended when Ana and Ben reached 12 stones."
    assert tie_words(ahead) == ""


def test_replay_and_the_terminal_say_who_reached_the_target_together() -> None:
    ledger = three_level_at_the_target().ledger()
    said = "The match ended when Ana, Ben and Cem reached 12 stones."
    assert said in standings_text(ledger).splitlines()
    assert f"  {said}" in format_ledger(ledger, "match.jsonl").splitlines()
    # The history's account of the match names them too, not "a stash".
    from einhorn_table.history.narrate import narrate
    from einhorn_table.rules.notation import format_match

    match = three_level_at_the_target()
    told = narrate(format_match([match.setup, *match.inputs]).splitlines())
    assert ("Match over (Ana, Ben and Cem reached 12): Cem wins with 12 stones (the first "
            "to roll an Einhorn)") in told


# ---------------------------------------------------------------- the places


def test_players_level_behind_the_roll_off_s_winner_share_their_place() -> None:
    # "2. Ana 12, 3. Ben 12": Ben placed behind Ana, though only Cem's Einhorn counted.
    assert standings_text(three_level_at_the_target().ledger()).splitlines()[1:6] == [
        "1. Cem          12 stones",
        "2. Ana          12 stones",
        "2. Ben          12 stones",
        "4. Dan           0 stones",
        "Winner: Cem",
    ]
    assert standings_text(four_level_when_the_central_stash_runs_dry().ledger()
                          ).splitlines()[1:8] == [
        "1. Ben           7 stones",
        "2. Ana           7 stones",
        "2. Cem           7 stones",
        "2. Dan           7 stones",
        "Winner: Ben",
        "The match ended when the central stash ran dry.",
        "Ana, Ben, Cem and Dan tied on 7 stones; Ben rolled an Einhorn first.",
    ]
    # Level lower down shares a place too; nobody level: one place each.
    assert final_places([5, 0, 0], 0) == [(1, 0), (2, 1), (2, 2)]
    assert final_places([9, 5, 9, 1], 2) == [(1, 2), (2, 0), (3, 1), (4, 3)]
    assert final_places([3, 5, 4], 1) == [(1, 1), (2, 2), (3, 0)]
    assert final_places([4, 4], None) == [(1, 0), (1, 1)]


@pytest.fixture
def drawing(monkeypatch: pytest.MonkeyPatch) -> Iterator[MakeDrawing]:
    yield text_drawing(monkeypatch, "size")


def test_the_final_screen_gives_level_players_one_place_and_names_them(
        drawing: Any) -> None:
    match = three_level_at_the_target()
    colours = [(200, 30, 40), (30, 60, 200), (240, 240, 240), (30, 30, 30)]
    seats = [Seat(name, colours[i]) for i, name in enumerate(match.names)]
    view = build_view(TableController(match, MemoryRecorder(), seats), 1e9)
    assert view.kind is ScreenKind.FINAL
    assert view.lines == ("The match ended when Ana, Ben and Cem reached 12 stones.",
                          "Ana, Ben and Cem tied on 12 stones; Cem rolled an Einhorn first.")
    renderer, texts = drawing((800, 480))
    renderer.draw(view)
    left = renderer.s(10) + renderer.s(74)
    names = sorted((rect.top, words) for words, _, rect in texts
                   if rect.left == left and words in match.names)
    places = sorted((rect.top, words) for words, _, rect in texts
                    if words in {f"{k}." for k in range(1, 5)})
    assert [words for _, words in names] == ["Cem", "Ana", "Ben", "Dan"]
    assert [words for _, words in places] == ["1.", "2.", "2.", "4."]


def test_the_terminal_s_standings_keep_their_columns_for_any_name() -> None:
    # "1. 美咲           12 stones" stood two columns right of "2. Benedikt      6 stones":
    # the names were padded by letters, not by the columns a terminal gives them.
    names = ("美咲", "Benedikt", "Maximilian-Alexander")
    match = played(names, rounds(dict(zip(names, ["up", "stay", "down"], strict=True)), 6),
                   [])
    rows = standings_text(match.ledger()).splitlines()[1:4]
    assert [row.split()[1] for row in rows] == list(names)
    ends = {shown_width(row[:row.index(" stone")]) for row in rows}
    assert len(ends) == 1, rows
