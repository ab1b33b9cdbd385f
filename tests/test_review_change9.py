"""The ninth review of a session's change (the install, the history, the calibration):
an empty tray of a red felt or seen by a noisy camera refused as holding something (its
wall all round the outline taken for a thing), the calibration and the doctor opening a
4K television at a size other than play's, Esc leaving the calibration without a word,
a calibration saved by Notepad losing its first bytes, and the history's commands that
did not work as printed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_calibration_review5 import at_the_empty_tray, show, with_a_hand
from test_calibration_steps import OK, tap
from test_history_review5 import _as_the_pi_user, _lock, kept  # noqa: F401
from test_installer_review3 import FULL_VIEW, _old_pi_calibration

from einhorn_table.calibration.camera_view import keep_view
from einhorn_table.calibration.clear_tray import things_in_tray
from einhorn_table.calibration.eyes import CameraEyes
from einhorn_table.calibration.flow import Step
from einhorn_table.calibration.profile import ProfileError, load_profile
from einhorn_table.cli import main
from einhorn_table.vision.synth import SynthTable
from einhorn_table.vision.synth.seen_otherwise import relit

# ------------------------------------------------------------------ the empty tray


@pytest.mark.parametrize(("kwargs", "seed", "light"), [
    ({"tray_color": (120, 30, 30)}, 0, None),  # a red felt: its wall all round the line
    ({"tray_color": (120, 30, 30)}, 3, "warmer lamp"),
    ({"noise": 15.0}, 4, None),  # a cheap camera in a dim room
    ({"tray_color": (30, 30, 30)}, 0, "lamp at one side"),  # a strip of lit wall
    ({"tray_color": (30, 30, 30)}, 1, "brighter by 15 %"),
])
def test_an_empty_tray_is_not_refused_for_its_walls(
        kwargs: dict[str, Any], seed: int, light: str | None) -> None:
    """Before, OK at the empty-tray step said "Something is in the tray" with the whole
    tray outlined in red, every time: the wall inside the outline, all round it, was one
    thing; a parent could only press ✗, and the whole floor was kept as a 'mark'."""
    table = SynthTable(seed, **kwargs)
    empty = table.empty().image
    corners = CameraEyes().find_tray(empty)
    assert corners is not None
    seen = empty if light is None else relit(empty, light)
    assert things_in_tray(seen, corners) == ()
    assert things_in_tray(with_a_hand(table, 0), corners)  # a hand still is a thing


def test_ok_takes_the_picture_of_an_empty_red_tray() -> None:
    table = SynthTable(0, tray_color=(120, 30, 30))
    flow, t = at_the_empty_tray(table)
    show(flow, t, table.empty().image, 3)
    tap(flow, OK)
    assert flow.step is Step.COLOURS and flow.reference is not None
    assert not flow.s.stains


# ------------------------------------------------------------------ the screen's size


def _a_4k_television(monkeypatch: pytest.MonkeyPatch, driver: str) -> list[tuple[int, int]]:
    import pygame

    asked: list[tuple[int, int]] = []

    def set_mode(size: tuple[int, int], flags: int = 0) -> Any:
        asked.append(tuple(size))
        return pygame.Surface((3840, 2160) if tuple(size) == (0, 0) else size)

    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(3840, 2160)])
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: driver)
    return asked


def test_the_calibration_opens_a_4k_television_as_play_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Play asks a 3840x2160 television for 1920x1080; the calibration asked for the
    television's own size and drew four times the pixels in software on the Pi."""
    from einhorn_table.cli.calibrate import open_screen

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    asked = _a_4k_television(monkeypatch, "dummy")
    try:
        assert open_screen((800, 480), True).get_size() == (1920, 1080)
    finally:
        import pygame

        pygame.quit()
    assert asked == [(1920, 1080)]


def test_the_doctor_opens_a_4k_television_as_play_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from einhorn_table.doctor import screen_check

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame

    asked = _a_4k_television(monkeypatch, "kmsdrm")
    monkeypatch.setattr(pygame.display, "flip", lambda: None)
    driver, size = screen_check._open_screen("dummy")
    assert driver == "kmsdrm" and asked == [(1920, 1080)] and size == (1920, 1080)


# ------------------------------------------------------------------ Esc in the calibration


def test_esc_in_the_calibration_says_nothing_was_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Esc (or Ctrl+C) ended the calibration with exit code 130 and not a word: the
    parent did not know whether anything was kept, nor how to start again."""
    import einhorn_table.cli.calibrate as calibrate

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    frames = iter(range(1000))
    monkeypatch.setattr(calibrate, "escaped", lambda controls: next(frames) == 20)
    out = tmp_path / "calibration.toml"
    status = main(["calibrate", "--source", "synth:seed=5", "--players", "1",
                   "--rolls", "1", "--autopilot", "--out", str(out)])
    assert status == 130 and not out.exists()
    said = capsys.readouterr().err
    assert said.startswith("einhorn-table: calibration stopped before it was saved: nothing "
                           "was saved")
    assert "Run the same command again" in said


# ------------------------------------------------------------------ keeping the view


def test_keeping_the_view_keeps_a_byte_order_mark(tmp_path: Path) -> None:
    """A calibration saved by Notepad (with UTF-8's byte-order mark) lost its first
    bytes when the doctor kept the view in it: nothing but the view may change."""
    path, _ = _old_pi_calibration(tmp_path)
    before = b"\xef\xbb\xbf" + path.read_bytes()
    path.write_bytes(before)
    keep_view(path, FULL_VIEW)
    after = path.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf")
    assert after == before.replace(b"[view]\n",
                                   b'[view]\ncamera = "imx708"\nmode = [2304, 1296]\n')
    assert load_profile(path).view.told == FULL_VIEW


# ------------------------------------------------------------------ the history's commands


def test_a_spreadsheet_export_is_sent_back_to_the_table_that_played_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "match.csv"
    sheet.write_text("seq,game,type,player,call,dice,category,amount,stones,party,central,"
                     "unicorn,to_act\n", encoding="utf-8")
    assert main(["history", "--state-dir", str(tmp_path / "club"), "import",
                 str(sheet)]) == 1
    said = capsys.readouterr().err
    assert ("on the table that played the match, export it as match notation "
            "(`einhorn-table history export ID -o FILE`" in said)
    assert "--state-dir" not in said


def test_import_into_the_service_s_history_copies_the_files_where_its_user_reads_them(
        kept: Path, tmp_path: Path) -> None:  # noqa: F811
    """The command given read the files from the person's home, which the service's
    user may not read on Raspberry Pi OS: pasted, it said Permission denied."""
    _lock(kept)
    brought = _as_the_pi_user(["history", "--state-dir", str(kept), "import",
                               str(tmp_path / "Sunday match.jsonl"), "/tmp/ready.jsonl"],
                              STATE_DIRECTORY=str(kept))
    assert brought.returncode == 1 and "nothing was imported" in brought.stderr
    assert (f"`cp -- '{tmp_path / 'Sunday match.jsonl'}' /tmp/ && sudo -u einhorn "
            f"einhorn-table history --state-dir {kept} import '/tmp/Sunday match.jsonl' "
            "/tmp/ready.jsonl`") in brought.stderr


def test_corners_the_parent_moved_at_step_1_are_not_taken_for_the_tray_moved() -> None:
    # The eyes found the outline a little off the floor and the parent moved all four
    # corners: every OK at the empty tray then said "The tray has moved" (the tray found
    # again where the eyes found it at step 1, not where the parent put the corners), and
    # X ("find the tray again") led back to the same outline.
    table = SynthTable(3, players=1)
    flow, t = at_the_empty_tray(table)
    found = flow.s.corners
    assert found is not None and flow.s.found_corners == found
    flow.s.corners = tuple((x + 14.0, y + 10.0) for x, y in found)  # type: ignore[assignment]
    show(flow, t, table.empty().image, 3)
    tap(flow, OK)
    assert not flow.s.tray_moved and flow.step is Step.COLOURS


def test_a_wrong_value_that_holds_the_word_calibrate_still_gets_what_to_do(
        tmp_path: Path) -> None:
    # Whether the advice was added went by the word "calibrate" in the message, which
    # a value quoted in it could hold: the advice was dropped for this version.
    path = tmp_path / "calibration.toml"
    path.write_text('version = "calibrated-1"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as refused:
        load_profile(path)
    assert f"correct it in {path}, or make the profile again" in str(refused.value)
