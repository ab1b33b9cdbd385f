"""The installer's path as the docs write it: every command they quote parses, the
example table's file loads (its commented lines too) and seats stations the pin map has,
and the guide says how to start a service that gave up again."""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path
from types import ModuleType

import pytest

from einhorn_table.cli import build_parser
from einhorn_table.stations.pin_map import default_pin_map_path, load_pin_map
from einhorn_table.table.config import load_config

PROJECT = Path(__file__).resolve().parents[1]
#: What a parent with a Raspberry Pi reads, from the SD card to the table at boot.
GUIDES = ("README.md", "docs/install.md", "hardware/README.md", "hardware/camera-mount.md",
          "docs/history.md", "systemd/einhorn-table.service", "docs/table.example.toml")
COMMANDS = ("demo", "play", "replay", "history", "simulate", "read", "calibrate", "doctor",
            "record")
#: ``einhorn-table COMMAND ...`` or ``./start COMMAND ...``, up to the end of its quote.
QUOTED = re.compile(r"(?:einhorn-table|\./start) +((?:" + "|".join(COMMANDS)
                    + r")\b[^`\n|;&)\"]*)")
SMOKE = re.compile(r"hardware/smoke\.py((?: +--?[a-z][^`\n|;&)]*)?)")


def quoted(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """(guide, command line) for each command the guides quote in `code` or a sh block."""
    found = []
    for guide in GUIDES:
        text = (PROJECT / guide).read_text(encoding="utf-8")
        spans = re.findall(r"`([^`\n]+)`", text) + re.findall(r"```sh\n(.*?)```", text, re.S)
        spans += [line for line in text.splitlines() if line.startswith("#")]
        for span in spans:
            for line in span.splitlines():
                found += [(guide, match.group(1)) for match in pattern.finditer(line)]
    return found


def words(command: str) -> list[str]:
    """The command's arguments, without its comment, ``[optional]`` brackets and ``...``."""
    plain = command.replace("[", "").replace("]", "").rstrip(".,:")
    return [word for word in shlex.split(plain, comments=True) if word != "..."]


def load_smoke() -> ModuleType:
    spec = importlib.util.spec_from_file_location("smoke", PROJECT / "hardware" / "smoke.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guides_quote_the_commands_an_installer_types() -> None:
    commands = {words(command)[0] for _, command in quoted(QUOTED)}
    assert {"doctor", "calibrate", "play", "history"} <= commands
    assert len(quoted(SMOKE)) >= 3


@pytest.mark.parametrize(("guide", "command"), [
    pytest.param(guide, command, id=f"{guide}: {command.strip()[:50]}")
    for guide, command in quoted(QUOTED)])
def test_every_command_the_guides_quote_parses(guide: str, command: str) -> None:
    argv = words(command)
    if argv == ["history"]:  # (the command's name alone, in the README's table)
        argv += ["list"]
    build_parser().parse_args(argv)  # (an unknown option exits: the test fails)


def test_every_smoke_test_line_the_guides_quote_parses() -> None:
    parser = load_smoke().build_parser()
    for _, command in quoted(SMOKE):
        parser.parse_args(words(command))


def test_a_misspelt_option_in_a_guide_would_be_caught() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(words("doctor --pin-map hardware/pins.toml"))
    with pytest.raises(SystemExit):
        load_smoke().build_parser().parse_args(words("--players 7"))


def test_the_example_table_file_loads_as_it_is(tmp_path: Path) -> None:
    example = tmp_path / "table.toml"
    example.write_text((PROJECT / "docs" / "table.example.toml").read_text(encoding="utf-8"),
                       encoding="utf-8")
    config = load_config(example)
    assert [p.name for p in config.players] == ["Ana", "Ben", "Cem"]
    assert config.camera == "picamera2" and config.fullscreen
    # Its players sit at stations the project's pin map has (hardware/pins.toml).
    assert load_pin_map(default_pin_map_path()).lacking(config.stations) is None


def test_every_key_the_example_shows_commented_out_is_one_the_table_reads(
        tmp_path: Path) -> None:
    """Removing the ``#`` before a key line, as the guide tells the installer to do for
    ``calibration``, gives a file that loads, with each path taken from its folder."""
    text = (PROJECT / "docs" / "table.example.toml").read_text(encoding="utf-8")
    shown = re.findall(r"^# ([a-z_]+) = ", text, re.M)
    assert set(shown) == {"calibration", "pins", "state", "rotate"}
    uncommented = re.sub(r"^# ([a-z_]+ = )", r"\1", text, flags=re.M)
    (tmp_path / "table.toml").write_text(uncommented, encoding="utf-8")
    config = load_config(tmp_path / "table.toml")
    assert config.calibration == tmp_path / "calibration.toml"
    assert config.pins == tmp_path / "hardware" / "pins.toml"
    assert config.state == Path("/var/lib/einhorn-table")
    assert config.rotate == 90


def test_the_guide_says_how_to_start_a_service_that_gave_up() -> None:
    """After StartLimitBurst failed starts systemd refuses every start, a manual one
    too, until StartLimitIntervalSec has passed: the guide's fix needs reset-failed."""
    guide = (PROJECT / "docs" / "install.md").read_text(encoding="utf-8")
    gave_up = guide[guide.index("service gives up"):]
    advice = gave_up[:gave_up.index("\n- ")]
    assert "sudo systemctl reset-failed einhorn-table" in advice
    assert advice.index("reset-failed") < advice.index("systemctl restart")
