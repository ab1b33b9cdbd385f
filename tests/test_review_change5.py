"""Review 5 of the session's change to the table: a starting roll thrown, in its own
colour, while another player's dice were entered by hand counts for its thrower; the
command ``demo --continue`` offers when there is nothing to go on with keeps the
options given (the variant, the games)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from table_helpers import BLUE, MemoryRecorder, controller, reading
from test_controller_review4 import enter, hold_ok, rolls

from einhorn_table.cli import build_parser
from einhorn_table.cli.demo import new_match_command
from einhorn_table.rules import Awaiting
from einhorn_table.table.controller import Seat, TableController
from einhorn_table.table.events import CameraBack, CameraLost, MotionStarted, Settled


def camera_back_while_ana_enters() -> tuple[TableController, MemoryRecorder]:
    """The starting rolls, the camera lost: Ana holds OK and enters her dice; the camera
    comes back meanwhile, and Ben throws his (blue) dice while she finishes."""
    c, r = controller()
    assert c.awaiting is Awaiting.START_ROLL
    c.on_tray(CameraLost(1.0, "camera stopped sending frames"))
    c.on_gesture(hold_ok(0, 2.0))
    c.on_tray(CameraBack(3.0))
    c.on_tray(MotionStarted(5.0))  # Ben throws his starting roll
    enter(c, 0, (6, 6, 5), 5.2)
    assert rolls(r) == [("Ana", (6, 6, 5))]
    return c, r


def test_a_starting_roll_in_its_own_colour_counts_while_another_is_entered() -> None:
    c, r = camera_back_while_ana_enters()
    c.on_tray(Settled(6.0, reading([2, 3, 4], BLUE)))
    assert rolls(r) == [("Ana", (6, 6, 5)), ("Ben", (2, 3, 4))], "Ben threw in his turn"
    assert c.awaiting is Awaiting.ROLL and c.match.ledger().to_act == "Ana"
    assert c.notice is None or "do not count" not in c.notice.text


def test_dice_that_could_be_those_entered_still_do_not_count() -> None:
    c, r = camera_back_while_ana_enters()
    c.seats = [Seat(s.name) for s in c.seats]  # the family's one set of dice
    c.on_tray(Settled(6.0, reading([6, 6, 5])))  # (Ana's own dice, moved by her hand)
    assert rolls(r) == [("Ana", (6, 6, 5))]
    assert c.awaiting is Awaiting.START_ROLL and c.pending is None


# ---------------------------------------------------------------- the demo's commands


def demo_args(*words: str) -> argparse.Namespace:
    return build_parser().parse_args(["demo", *words])


@pytest.mark.parametrize(("given", "kept"), [
    (["--variant", "wuerfeln", "--games", "3"], "--variant wuerfeln --games 3"),
    (["--strategy", "random", "--seed", "7"], "--strategy random --seed 7"),
    (["--size", "1024x600", "--fullscreen"], "--size 1024x600"),
    (["--mount", "--fast"], "--mount --fast"),
])
def test_the_new_match_command_keeps_the_options_given(
        given: list[str], kept: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # (At a window: without one, people at the keyboard are refused, and the command
    # has bots play every seat, test_review_change10.)
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    args = demo_args("--continue", "--players", "2", *given)
    command = new_match_command(args)
    assert f"demo --players 2 {kept}" in command
    assert "--continue" not in command
    assert all(word in command.split() for word in given)


def test_the_new_match_command_keeps_a_state_dir_and_profile(tmp_path: Path) -> None:
    profile = tmp_path / "my table.toml"
    args = demo_args("--continue", "--state-dir", str(tmp_path), "--profile", str(profile))
    command = new_match_command(args)
    assert f"--state-dir {tmp_path}" in command
    assert f"--profile '{profile}'" in command  # (quoted for the shell)
