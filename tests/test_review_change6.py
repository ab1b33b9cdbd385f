"""Review of the installer, calibration, doctor and history changes (ef9580c..26f0511):
a die of one set lying darker than the others at the colour roll, the doctor keeping
the view in a calibration it runs as root over, and roll photos saved in a folder that
cannot be locked (a folder two tables share over the network)."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import pytest
from test_calibration_review3 import PLACES, at_the_colours
from test_calibration_steps import NO, OK, tap
from test_installer_review3 import FULL_VIEW, _old_pi_calibration

from einhorn_table.calibration import camera_view
from einhorn_table.calibration.camera_view import keep_view
from einhorn_table.calibration.flow import Step
from einhorn_table.calibration.profile import ProfileError, load_profile
from einhorn_table.history.photos import PhotoShelf
from einhorn_table.vision.synth import DICE_PALETTE, SynthTable

RGB = tuple[int, int, int]
WHITE, RED, GREEN, BLACK = DICE_PALETTE[0], DICE_PALETTE[1], DICE_PALETTE[3], DICE_PALETTE[5]

# ---------------------------------------------------------------- one set, one die darker


@pytest.mark.parametrize("seed", [1, 2])
def test_a_set_with_a_die_leaning_on_the_wall_is_one_colour(seed: int) -> None:
    """Anna's green die that came to rest leaning on the tray's wall shows a side face,
    half as bright as the two lying flat. The colour roll was refused as "Not all one
    colour", telling her to take out a die that is not hers: all three were."""
    table = SynthTable(seed, players=2)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    for frame in table.roll_sequence([None, 2, 5], colors=[GREEN] * 3, player=0,
                                     settle_frames=20):
        show(frame.image, 1)
    show(table.settled_frames(1)[0].image, 30)
    registration = flow.s.registration
    assert registration is not None and len(registration.reading.dice) == 3
    assert not registration.mixed
    assert flow.view().screen == "colours-1"
    tap(flow, OK)
    assert [p.name for p in flow.s.players] == ["Anna"]
    red, green, blue = flow.s.players[0].colour
    assert green > 100 and red < 60 and blue < 100


def test_a_white_die_left_in_beside_black_ones_is_still_pointed_out() -> None:
    """White beside black differs in brightness alone, far more than a shadow makes."""
    left_in_is_pointed_out(WHITE, BLACK)


def left_in_is_pointed_out(anna: RGB, ben: RGB) -> None:
    """Anna registers her dice (``anna``); one of them is left in the tray at Ben's
    colour roll, beside two of his (``ben``): it is outlined, and the roll refused."""
    table = SynthTable(5, players=2)
    flow, show = at_the_colours(table, ("Anna", "Ben"))
    show(table.still([2, 4, 6], colors=[anna] * 3, positions=PLACES[:3]).image, 60)
    tap(flow, OK)  # Anna's colour
    assert [p.name for p in flow.s.players] == ["Anna"]
    show(table.still([2, 1, 3], colors=[anna, ben, ben], positions=PLACES[:3]).image, 60)
    view = flow.view()
    assert view.screen == "colours-2-mixed"
    assert view.lines[1].startswith("Anna's die (outlined in red) is still in the tray")
    assert [b.good for b in view.boxes] == [False, True, True]
    tap(flow, OK)  # refused
    assert [p.name for p in flow.s.players] == ["Anna"] and flow.step is Step.COLOURS
    tap(flow, NO)


# ---------------------------------------------------------------- the doctor as root


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_the_view_kept_by_the_doctor_run_with_sudo_leaves_the_file_to_its_owner(
    tmp_path: Path
) -> None:
    """The service's calibration (user einhorn, readable by it alone, UMask=0027): the
    doctor run with sudo wrote it anew as root's, and the table could no longer read it."""
    path, _ = _old_pi_calibration(tmp_path)
    os.chown(path, 4242, 4343)
    path.chmod(0o640)
    keep_view(path, FULL_VIEW)
    info = path.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (4242, 4343, 0o640)
    assert load_profile(path).view.told == FULL_VIEW


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_any_file_written_anew_by_root_stays_its_owners(tmp_path: Path) -> None:
    """A calibration saved over with `sudo ... calibrate`, an export written with sudo:
    the file stays its owner's, with its permissions."""
    from einhorn_table.text_files import write_text_whole

    path = tmp_path / "calibration.toml"
    path.write_text("version = 1\n", encoding="utf-8")
    os.chown(path, 4242, 4343)
    path.chmod(0o640)
    write_text_whole(path, "version = 2\n")
    info = path.stat()
    assert (info.st_uid, info.st_gid, info.st_mode & 0o777) == (4242, 4343, 0o640)
    assert path.read_text(encoding="utf-8") == "version = 2\n"


def test_another_user_s_calibration_is_left_as_it_was_and_says_whose_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written anew, the file would become this user's, out of reach of its owner."""
    path, _ = _old_pi_calibration(tmp_path)
    before = path.read_text(encoding="utf-8")
    owner = path.stat().st_uid
    monkeypatch.setattr(camera_view.os, "geteuid", lambda: owner + 1 if owner else 1)
    with pytest.raises(ProfileError, match=r"could not be written \(it belongs to the user "
                                           r"\S+: run the doctor as that user\)"):
        keep_view(path, FULL_VIEW)
    assert path.read_text(encoding="utf-8") == before


def test_a_calibration_saved_with_windows_line_ends_keeps_them(tmp_path: Path) -> None:
    path, _ = _old_pi_calibration(tmp_path)
    made = path.read_text(encoding="utf-8").replace("\n[view]\n", "\n")
    path.write_bytes(("# measured on Sunday\n" + made).replace("\n", "\r\n").encode())
    keep_view(path, FULL_VIEW)
    kept = path.read_bytes()
    assert kept.startswith(b"# measured on Sunday\r\n")
    assert kept.count(b"\n") == kept.count(b"\r\n")
    assert load_profile(path).view.told == FULL_VIEW


# ---------------------------------------------------------------- a folder not locked


def test_photos_are_saved_in_a_folder_that_cannot_be_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A photo folder on NFS, where two tables can share one, takes no lock on a folder
    (EBADF): every roll's photo was lost, the table saying so at every roll. A ``.part``
    there may be the other table's photo being written: it stays."""
    def no_lock(fd: int, operation: int) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(fcntl, "flock", no_lock)
    shelf = PhotoShelf(tmp_path / "photos")
    shelf.folder.mkdir()
    writing = shelf.folder / "000002-00007.jpg.part"
    writing.write_bytes(b"\xff\xd8" * 10)
    saved = shelf.save("000001-00003.jpg", b"\xff\xd8" * 100)
    assert saved.read_bytes() == b"\xff\xd8" * 100
    assert writing.exists()
