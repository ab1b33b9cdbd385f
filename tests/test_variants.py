"""Variants are data: the two shipped ones, and house variants from TOML files."""

from __future__ import annotations

from pathlib import Path

import pytest

from einhorn_table.rules import (
    EINHORN,
    WIN,
    WUERFELN,
    Category,
    Match,
    Roll,
    RuleViolation,
    Setup,
    StartRoll,
    VariantError,
    get_variant,
    load_variant,
    replay,
)


def test_einhorn_table_is_the_rule_book() -> None:
    v = EINHORN
    assert v.payout(Category.UNVERMEIDLICH, Category.UNVERMEIDLICH) == 2
    assert v.payout(Category.UNVERMEIDLICH, Category.EINHORN) == -2
    assert v.payout(Category.UNVERMEIDLICH, None) == -1
    assert v.payout(Category.EINHORN, None) == 1
    assert v.payout(Category.DREIFALTIGKEIT, Category.DREIFALTIGKEIT) == WIN
    assert v.payout(Category.DREIFALTIGKEIT, Category.WUNSCH) == 1
    assert v.central_for(4) == 100 and v.start_bonus == 1 and v.pass_stone == 0


def test_wuerfeln_table_is_the_first_draft() -> None:
    v = WUERFELN
    assert v.payout(Category.WUNSCH, None) == 0
    assert v.payout(Category.EINHORN, None) == -2
    assert v.payout(Category.DREIFALTIGKEIT, Category.DREIFALTIGKEIT) == 9
    assert v.central_for(6) == 50 and v.start_bonus == 0 and v.pass_stone == 1


def test_a_wrong_call_pays_the_wrong_amount_of_the_rolled_row() -> None:
    # Called Einhorn (row -5 if wrong) but rolled Wunsch: the Wunsch row decides.
    assert EINHORN.payout(Category.WUNSCH, Category.EINHORN) == -2


def test_unknown_variant_lists_the_known_ones() -> None:
    with pytest.raises(VariantError, match="einhorn, wuerfeln"):
        get_variant("kniffel")


HOUSE = """
name = "grandma"
base = "einhorn"
games = 3
central_per_player = 20
pass_stone = 1
target = 30

[payouts.einhorn]
correct = 7
silent = 2

[payouts.wunsch]
correct = "win"
"""


def test_house_variant_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "grandma.toml"
    path.write_text(HOUSE)
    v = load_variant(path)
    assert v.name == "grandma" and v.base == "einhorn"
    assert v.payout(Category.EINHORN, Category.EINHORN) == 7
    assert v.payout(Category.EINHORN, None) == 2
    assert v.payout(Category.EINHORN, Category.WUNSCH) == -5  # kept from the base
    assert v.payout(Category.WUNSCH, Category.WUNSCH) == WIN
    assert (v.games, v.central_for(3), v.pass_stone, v.target, v.start_bonus) == (3, 60, 1, 30, 1)


def test_a_house_variant_s_players_are_checked_where_the_match_is_set_up(
        tmp_path: Path) -> None:
    # The match file carries no player range, so Setup.for_variant checks it.
    path = tmp_path / "duel.toml"
    path.write_text('name = "duel"\nbase = "einhorn"\nmax_players = 2\n')
    duel = load_variant(path)
    assert Setup.for_variant(duel, ["Ana", "Ben"]).house == "duel"
    with pytest.raises(RuleViolation, match="duel is played by 2 players, not 3"):
        Setup.for_variant(duel, ["Ana", "Ben", "Cem"])


def test_a_house_match_file_replays_without_the_house_file(tmp_path: Path) -> None:
    path = tmp_path / "grandma.toml"
    path.write_text(HOUSE)
    setup = Setup.for_variant(load_variant(path), ["Ana", "Ben"])
    match = Match(setup)
    match.apply(StartRoll(player="Ana", dice=(6, 6, 6)))
    match.apply(StartRoll(player="Ben", dice=(1, 1, 1)))
    match.apply(Roll(player="Ana", dice=(1, 3, 5)))  # silent Einhorn: +2 in this house
    text = match.notation()
    assert '"house": "grandma"' in text
    again = replay(text.splitlines())
    assert again.ledger() == match.ledger()
    assert again.ledger().player("Ana").game_stones == 6 + 1 + 2
    assert again.ledger().variant == "grandma"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('name = "x"\ncolour = "red"', "colour"),
        ('name = "x"\ngames = "ten"', "games"),
        ('name = "x"\ngames = 0', "games"),
        ('name = "x"\nbase = "kniffel"', "base"),
        ('games = 3', "name"),
        ('name = "x"\n[payouts.pasch]\ncorrect = 1', "payouts.pasch"),
        ('name = "x"\n[payouts.wunsch]\nright = 1', "payouts.wunsch.right"),
        ('name = "x"\n[payouts.wunsch]\nwrong = "win"', "payouts.wunsch.wrong"),
        ('name = "x"\n[payouts.wunsch]\ncorrect = 1.5', "payouts.wunsch.correct"),
        ('name = "x"\ncentral = 10', "central"),
        ('name = "x"\ncentral = 80\ncentral_per_player = 20', "central"),
        ('name = "x"\nmax_players = 7', "max_players"),
        ('name = "x"\n' + "".join(f"[payouts.{c.value}]\ncorrect = 0\nwrong = 0\nsilent = 0\n"
                                   for c in Category), "every roll pays 0"),
    ],
)
def test_bad_house_files_name_the_key(tmp_path: Path, text: str, key: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert key in str(caught.value)
    assert str(path) in str(caught.value)


def test_house_file_that_is_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = ")
    with pytest.raises(VariantError, match="not valid TOML"):
        load_variant(path)


def test_missing_house_file(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="cannot read"):
        load_variant(tmp_path / "nope.toml")


def test_a_house_variant_not_saved_as_utf8_or_a_folder_is_refused_plainly(
        tmp_path: Path) -> None:
    path = tmp_path / "oma.toml"
    path.write_bytes('name = "Omas R\u00e4tsel"\nbase = "einhorn"\n'.encode("latin-1"))
    with pytest.raises(VariantError, match="is not saved as UTF-8 text"):
        load_variant(path)
    with pytest.raises(VariantError, match="is a folder, not a house variant"):
        load_variant(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + 'name = "Omas R\u00e4tsel"\nbase = "einhorn"\n'.encode())
    assert load_variant(path).name == "Omas R\u00e4tsel"
