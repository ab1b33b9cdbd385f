"""The table's file refuses values of the wrong shape or kind by key, with what was
written and a good line; play refuses a player seated at a station the pin map lacks."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("gpiozero")
pytest.importorskip("pygame")

from gpiozero.pins.mock import MockFactory
from table_helpers import players_toml

from einhorn_table.cli import main
from einhorn_table.table.config import ConfigError, load_config
from einhorn_table.table.loop import TableLoop

PLAYERS = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"))


def refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: ")
    return message.removeprefix(f"{path}: ")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('player = ["Ana", "Ben"]\n',
         'player 1 is "Ana", not a table: each player is a [[player]] table with '
         'name = "..." and station = N (see docs/table.example.toml)'),
        ('[player]\nname = "Ana"\n',
         "[player] with one pair of brackets is a single table; write [[player]] above "
         "each player"),
        ('player = "Ana"\n', 'player = "Ana" does not seat anyone: each player is a '
                             "[[player]] table"),
        (players_toml(("Ana", 1, "red")), "1 player found; list 2 to 6 players"),
        ("games = 3\n", "0 players found; list 2 to 6 players"),
        ('screen = "big"\n' + PLAYERS,
         '[screen] must be a table: a line [screen] with width = 800, height = 480 and '
         'fullscreen = true below it (see docs/table.example.toml), not screen = "big"'),
        ("[[screen]]\nwidth = 800\n" + PLAYERS, "[screen] must be a table"),
    ],
)
def test_a_wrong_shape_says_what_shape_is_expected(
        tmp_path: Path, text: str, words: str) -> None:
    message = refusal(tmp_path, text)
    assert words in message
    assert "unknown key" not in message  # not a string's letters taken for keys


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('state = ["a"]', 'state must be a folder\'s path in quotes '
                          '(e.g. state = "/var/lib/einhorn-table"), not ["a"]'),
        ("state = 2024-05-01", "state must be a folder's path in quotes"),
        ("calibration = 3", "calibration must be the calibration file's path in quotes "
                            '(e.g. calibration = "calibration.toml"), not 3'),
        ("pins = 1.5", 'pins must be the pin map\'s path in quotes '
                       '(e.g. pins = "hardware/pins.toml"), not 1.5'),
        ("camera = 0", 'camera must be a camera source in quotes (e.g. camera = "picamera2" '
                       'or camera = "opencv:0"), not 0'),
        ('camera = ""', 'camera must be a camera source in quotes'),
        ('variant = ["einhorn"]', "variant must be a variant's name or a house variant's file "
                                  'in quotes (e.g. variant = "einhorn"), not ["einhorn"]'),
        ("games = 10.0", "games must be a whole number of 1 or more (e.g. games = 10), "
                         "not 10.0"),
        ("games = true", "games must be a whole number of 1 or more (e.g. games = 10), "
                         "not true"),
        ("[screen]\nwidth = 800.0", "[screen] width must be a whole number of 320 or more "
                                    "(e.g. width = 800), not 800.0"),
        ('[screen]\nheight = "480"', '[screen] height must be a whole number of 240 or more '
                                     '(e.g. height = 480), not "480"'),
        ("[screen]\nfullscreen = 1", "[screen] fullscreen must be true or false "
                                     "(e.g. fullscreen = true), not 1"),
    ],
)
def test_a_top_level_or_screen_value_of_the_wrong_kind_is_refused(
        tmp_path: Path, line: str, words: str) -> None:
    # A [screen] table goes after the players (TOML puts every key after it into it).
    text = f"{PLAYERS}\n{line}\n" if line.startswith("[") else f"{line}\n{PLAYERS}"
    assert words in refusal(tmp_path, text)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("station = 1", "station = true", "player 1 (Ana): station must be a whole number "
                                          "from 1 to 6 (e.g. station = 1), not true"),
        ("station = 1", "station = 1.0", "player 1 (Ana): station must be a whole number "
                                         "from 1 to 6 (e.g. station = 1), not 1.0"),
        ("station = 2", 'station = "2"', "player 2 (Ben): station must be a whole number "
                                         'from 1 to 6 (e.g. station = 2), not "2"'),
        ("station = 2", "station = 7", "not 7"),
        ('name = "Ana"', 'name = ["Ana"]', 'player 1: name must be the player\'s name in '
                                           'quotes (e.g. name = "Ana"), not ["Ana"]'),
        ('name = "Ana"', 'name = "  "', "player 1: name must be the player's name"),
        ('name = "Ana"', "", 'player 1 needs a name (e.g. name = "Ana")'),
        ('dice = "red"', "dice = [true, 0, 0]",
         "player 2 (Ben): dice must be a colour name in quotes or [r, g, b], three whole "
         'numbers from 0 to 255 (e.g. dice = "red" or dice = [196, 28, 36]), '
         "not [true, 0, 0]"),
        ('dice = "red"', "dice = 3", "player 2 (Ben): dice must be a colour name"),
        ('dice = "red"', "dice = [255, 0, 256]", "not [255, 0, 256]"),
    ],
)
def test_a_players_value_of_the_wrong_kind_is_refused(
        tmp_path: Path, old: str, new: str, words: str) -> None:
    assert words in refusal(tmp_path, PLAYERS.replace(old, new, 1))


def test_players_sharing_a_station_are_named_with_the_station(tmp_path: Path) -> None:
    two = players_toml(("Ana", 1, "white"), ("Ben", 2, "red"), ("Cem", 2, "blue"))
    assert refusal(tmp_path, two) == (
        "Ben and Cem both sit at station 2; give each player a station of their own")
    three = players_toml(("Ana", 4, "white"), ("Ben", 4, "red"), ("Cem", 4, "blue"))
    assert refusal(tmp_path, three).startswith("Ana, Ben and Cem all sit at station 4;")


def test_the_right_kinds_still_load(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('variant = "einhorn"\ngames = 5\ncamera = "opencv:0"\n'
                    'calibration = "cal.toml"\npins = "/etc/pins.toml"\nstate = "kept"\n'
                    + players_toml(("Ana", 4, "white"), ("Ben", 2, "red"))
                    + "\n[screen]\nwidth = 1024\nheight = 600\nfullscreen = false\n",
                    encoding="utf-8")
    config = load_config(path)
    assert (config.variant, config.games, config.camera) == ("einhorn", 5, "opencv:0")
    assert config.calibration == tmp_path / "cal.toml" and config.state == tmp_path / "kept"
    assert config.pins == Path("/etc/pins.toml")
    assert config.size == (1024, 600) and config.fullscreen is False
    assert [(p.name, p.station) for p in config.players] == [("Ana", 4), ("Ben", 2)]
    assert type(config.players[0].station) is int
    assert config.stations == {3, 1} and config.stations.names == {3: "Ana", 1: "Ben"}


def test_play_refuses_a_player_at_a_station_the_pin_map_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: MockFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("EINHORN_STATE_DIR", str(tmp_path / "state"))
    # Were it to start, the match would run a few frames and end (not hang the test).
    monkeypatch.setattr(TableLoop, "run", lambda self, done, max_steps=None: None)
    pins = tmp_path / "pins.toml"
    pins.write_text("version = 1\n" + "".join(
        f"[[station]]\nplayer = {n}\nunvermeidlich = {u}\nwunsch = {w}\neinhorn = {e}\n"
        f"dreifaltigkeit = {d}\n"
        for n, u, w, e, d in ((1, 4, 17, 27, 22), (2, 5, 6, 13, 19), (4, 23, 24, 25, 12))),
        encoding="utf-8")
    table = tmp_path / "table.toml"
    table.write_text('games = 3\ncamera = "synth:seed=3,players=3"\npins = "pins.toml"\n'
                     "[screen]\nwidth = 400\nheight = 240\nfullscreen = false\n"
                     + players_toml(("Ana", 1, "white"), ("Ben", 2, "red"), ("Cem", 3, "blue")),
                     encoding="utf-8")
    assert main(["play", str(table), "--new"]) == 1
    err = capsys.readouterr().err
    assert f"Cem's station 3 is not in {pins} (3 stations: 1, 2, 4)" in err
    assert "Give each player a station the pin map has" in err
    assert "match 1 started" not in err


def test_a_huge_or_deeply_nested_value_is_shown_cut_short(tmp_path: Path) -> None:
    deep = "[" * 100 + "]" * 100
    message = refusal(tmp_path, f"state = {deep}\n{PLAYERS}")
    assert message.endswith("not [[[[...]]]]")
    many = "[" + ", ".join(str(n) for n in range(10_000)) + "]"
    message = refusal(tmp_path, f"state = {many}\n{PLAYERS}")
    assert message.endswith("not [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ...]")
