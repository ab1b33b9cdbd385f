"""The table's configuration file for ``einhorn-table play``."""

from __future__ import annotations

from pathlib import Path

import pytest

from einhorn_table.table.config import ConfigError, load_config

GOOD = """
variant = "einhorn"
games = 8
camera = "opencv:0"
[screen]
width = 1024
height = 600
fullscreen = false
[[player]]
name = "Ana"
station = 3
dice = "red"
[[player]]
name = "Ben"
dice = [10, 20, 30]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_a_good_config(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert [p.name for p in config.players] == ["Ana", "Ben"]
    assert config.players[0].station == 3 and config.players[1].station == 2
    assert config.players[0].dice == (196, 28, 36) and config.players[1].dice == (10, 20, 30)
    assert config.size == (1024, 600) and not config.fullscreen and config.games == 8


def test_a_file_saved_by_a_windows_editor_with_its_mark_first_is_read(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace("Ana", "J\u00fcrgen").encode("utf-8"))
    assert load_config(path).players[0].name == "J\u00fcrgen"


def test_a_file_not_saved_as_utf8_says_how_to_save_it(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(GOOD.replace("Ana", "J\u00fcrgen").encode("latin-1"))
    with pytest.raises(ConfigError, match="is not saved as UTF-8 text: open it in a text editor"):
        load_config(path)


def test_a_missing_table_file_gives_the_command_that_makes_it(tmp_path: Path) -> None:
    missing = tmp_path / "table.toml"
    with pytest.raises(ConfigError) as raised:
        load_config(missing)
    assert f"cp docs/table.example.toml {missing}" in str(raised.value)
    assert "docs/install.md step 6" in str(raised.value)


def test_one_name_typed_two_ways_is_two_players_of_one_name(tmp_path: Path) -> None:
    text = GOOD.replace('name = "Ana"', 'name = "Zo\u00eb"').replace('name = "Ben"',
                                                                    'name = "Zoe\u0308"')
    with pytest.raises(ConfigError, match="2 players are named Zo\u00eb"):
        load_config(write(tmp_path, text))


def test_a_folder_named_as_the_table_file_is_refused_plainly(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder, not the table's file"):
        load_config(tmp_path)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (GOOD + "\ncolour = 3\n", "colour"),
        (GOOD.replace("fullscreen", "fulscreen"), "fulscreen"),
        (GOOD.replace('dice = "red"', 'dice = "red"\nhandicap = 2'), "handicap"),
    ],
)
def test_unknown_keys_are_refused_by_name(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_config(write(tmp_path, text))


def test_a_shared_station_is_refused(tmp_path: Path) -> None:
    text = GOOD.replace('name = "Ben"', 'name = "Ben"\nstation = 3')
    with pytest.raises(ConfigError, match="Ana and Ben both sit at station 3; give each "
                       "player a station of their own"):
        load_config(write(tmp_path, text))


def test_an_unknown_dice_colour_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="turquoise"):
        load_config(write(tmp_path, GOOD.replace('"red"', '"turquoise"')))


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("games = 8", 'games = "ten"',
         'games must be a whole number of 1 or more (e.g. games = 10), not "ten"'),
        ("games = 8", "games = 0",
         "games must be a whole number of 1 or more (e.g. games = 10), not 0"),
        ("width = 1024", 'width = "big"', "[screen] width must be a whole number of 320"),
        ("height = 600", "height = 100", "[screen] height must be a whole number of 240"),
        ("fullscreen = false", 'fullscreen = "no"', "fullscreen must be true or false"),
        ('name = "Ben"', 'name = "Ana"',
         "2 players are named Ana; give each player a name of their own"),
    ],
)
def test_a_wrong_value_is_refused_naming_the_file_and_the_key(
        tmp_path: Path, old: str, new: str, words: str) -> None:
    path = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value).startswith(f"{path}: ") and words in str(refused.value)


def test_a_house_variant_file_is_found_beside_the_table_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD.replace('"einhorn"', '"family.toml"')))
    assert config.variant == str(tmp_path / "family.toml")
    assert load_config(write(tmp_path, GOOD)).variant == "einhorn"
