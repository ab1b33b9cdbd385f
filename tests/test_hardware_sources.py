"""Frame sources: source strings, the dir: replay end to end, the recorder, webcam errors."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from einhorn_table.adapters.clock import FakeClock
from einhorn_table.adapters.dir_source import DirSource
from einhorn_table.adapters.recorder import FrameRecorder, record
from einhorn_table.adapters.replay_source import ReplaySource
from einhorn_table.adapters.source_base import SourceError
from einhorn_table.adapters.source_spec import SourceSpec, parse_source
from einhorn_table.adapters.sources import create_source
from einhorn_table.ports import FrameSource


def write_frames(folder: Path, count: int, names: list[str] | None = None) -> list[np.ndarray]:
    folder.mkdir(parents=True, exist_ok=True)
    images = []
    for n in range(count):
        image = np.zeros((48, 64, 3), np.uint8)
        image[:, :, 0] = 10 * n  # blue channel tells the frames apart
        image[5:10, 5:10] = (0, 0, 255)  # a red mark: BGR order survives
        name = names[n] if names else f"frame{n}.png"
        assert cv2.imwrite(str(folder / name), image)
        images.append(image)
    return images


@pytest.mark.parametrize(
    ("text", "kind", "argument", "options"),
    [
        ("picamera2", "picamera2", None, {}),
        ("picamera2:1", "picamera2", "1", {}),
        ("picamera2:width=640,height=480", "picamera2", None, {"width": 640, "height": 480}),
        ("opencv:0", "opencv", "0", {}),
        ("2", "opencv", "2", {}),
        ("file:roll.mp4", "file", "roll.mp4", {}),
        ("dir:frames/,fps=10,loop=1", "dir", "frames/", {"fps": 10.0, "loop": True}),
        ("synth:seed=3,players=4", "synth", None, {"seed": 3, "players": 4}),
        ("synth", "synth", None, {}),
        ("synth:seed=3,mount=1", "synth", None, {"seed": 3, "mount": True}),
    ],
)
def test_source_strings(
    text: str, kind: str, argument: str | None, options: dict[str, object]
) -> None:
    spec = parse_source(text)
    assert spec == SourceSpec(kind, argument, options)
    assert parse_source(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "No camera source given"),
        ("dir:", "needs the path of a folder"),
        ("dir:frames,speed=2", r"its options are: fps, loop"),
        ("opencv:front", "not a camera number"),
        ("synth:three", "takes only options"),
        ("synth:mount=high", r"mount=\"high\".*must be 0 or 1.*mount=1"),
        ("opencv:0,fps=0", "must be more than 0"),
        ("no/such/thing.mp4", "neither a camera source nor an existing file"),
    ],
)
def test_bad_source_strings_say_what_works(text: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        parse_source(text)


def test_a_bare_folder_or_file_means_dir_or_file(tmp_path: Path) -> None:
    (tmp_path / "clip.mp4").write_bytes(b"")
    assert parse_source(str(tmp_path)).kind == "dir"
    assert parse_source(str(tmp_path / "clip.mp4")).kind == "file"


def test_dir_source_replays_pictures_in_name_order(tmp_path: Path) -> None:
    names = ["frame10.png", "frame2.png", "frame1.png"]  # natural order: 1, 2, 10
    images = write_frames(tmp_path / "rec", 3, names)
    (tmp_path / "rec" / "notes.txt").write_text("not a picture")
    with create_source(f"dir:{tmp_path / 'rec'}", clock=FakeClock()) as source:
        assert isinstance(source, FrameSource) and source.simulated
        frames = [source.read() for _ in range(4)]
    assert frames[3] is None
    by_name = dict(zip(names, images, strict=True))
    for frame, name in zip(frames[:3], ["frame1.png", "frame2.png", "frame10.png"], strict=True):
        assert frame is not None
        assert np.array_equal(frame.image, by_name[name])
        assert frame.small is None
    assert [f.index for f in frames[:3] if f] == [0, 1, 2]
    assert frames[1] is not None and frames[1].size == (64, 48)


def test_dir_source_paces_to_fps_on_the_clock_and_loops(tmp_path: Path) -> None:
    write_frames(tmp_path, 2)
    clock = FakeClock(50.0)
    source = DirSource(tmp_path, clock, fps=10, loop=True)
    with source:
        stamps = []
        for _ in range(5):
            frame = source.read()
            assert frame is not None
            stamps += [frame.timestamp, clock.monotonic()]
    assert stamps == pytest.approx([0.0, 50.0, 0.1, 50.1, 0.2, 50.2, 0.3, 50.3, 0.4, 50.4])


def test_dir_source_errors_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        create_source(f"dir:{tmp_path / 'missing'}").open()
    with pytest.raises(SourceError, match="holds no pictures"):
        create_source(f"dir:{tmp_path}").open()
    (tmp_path / "000.png").write_bytes(b"not really a png")
    with create_source(f"dir:{tmp_path}") as source, pytest.raises(
        SourceError, match="could not be read as a picture"
    ):
        source.read()


def test_recorder_writes_a_folder_that_dir_replays(tmp_path: Path) -> None:
    images = write_frames(tmp_path / "in", 3)
    with create_source(f"dir:{tmp_path / 'in'}") as source:
        assert record(source, tmp_path / "out", count=10) == 3
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "000000.png",
        "000001.png",
        "000002.png",
    ]
    with create_source(f"dir:{tmp_path / 'out'}") as replay:
        for image in images:
            frame = replay.read()
            assert frame is not None and np.array_equal(frame.image, image)
    with pytest.raises(SourceError, match="already holds pictures"):
        FrameRecorder(tmp_path / "out")


def test_video_file_source_reads_frames_then_ends(tmp_path: Path) -> None:
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for n in range(4):
        writer.write(np.full((48, 64, 3), 40 * n, np.uint8))
    writer.release()
    with create_source(f"file:{path}") as source:
        frames = []
        while (frame := source.read()) is not None:
            frames.append(frame)
    assert len(frames) == 4
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.05, 0.1, 0.15])
    assert abs(int(frames[3].image.mean()) - 120) < 10


def test_missing_video_file_and_webcam_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        create_source(f"file:{tmp_path / 'nope.mp4'}").open()
    source = create_source("opencv:63")
    with pytest.raises(SourceError, match="No webcam answered as number 63"):
        source.open()


def test_a_missing_webcam_leaves_only_our_message_not_opencvs_warnings(
        capfd: pytest.CaptureFixture[str]) -> None:
    # The table tries again every 2 s: OpenCV's own warnings would fill the journal.
    capfd.readouterr()
    with pytest.raises(SourceError):
        create_source("opencv:63").open()
    assert "WARN" not in capfd.readouterr().err


def test_reading_before_opening_is_a_programming_error(tmp_path: Path) -> None:
    write_frames(tmp_path, 1)
    with pytest.raises(RuntimeError, match="open"):
        create_source(f"dir:{tmp_path}").read()


def test_record_command_saves_frames_that_dir_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from einhorn_table.cli import record as record_cli

    parser = argparse.ArgumentParser()
    record_cli.register(parser.add_subparsers())
    folder = tmp_path / "table-problem"
    args = parser.parse_args(
        ["record", str(folder), "--source", "synth:width=96,height=72,fps=200", "--seconds", "0.2"]
    )
    assert args.handler(args) == 0
    said = capsys.readouterr().out
    # The frames replay at the rate they came (the source's 200 a second, or what this
    # machine managed), not at a fixed 30.
    found = re.search(rf'camera = "dir:{re.escape(str(folder))},fps=(\d+)" in table.toml', said)
    assert found is not None and 60 <= int(found.group(1)) <= 250, said
    assert f"--source dir:{folder},fps={found.group(1)}" in said
    with create_source(f"dir:{folder}") as replay:
        frames = list(iter(replay.read, None))
    assert len(frames) >= 3 and frames[0].size == (96, 72)


def test_frames_in_memory_play_back_in_order_on_their_own_times_then_stop() -> None:
    images = [np.full((4, 6, 3), n, np.uint8) for n in range(3)]
    with ReplaySource(images, [0.5, 0.6, 0.8]) as source:
        frames = [source.read() for _ in range(3)]
        assert [(int(f.image[0, 0, 0]), f.timestamp) for f in frames if f] == [
            (0, 0.5), (1, 0.6), (2, 0.8)]
        with pytest.raises(SourceError, match="all 3 frames were read"):
            source.read()
    with pytest.raises(SourceError, match="3 frames but 2 timestamps"):
        ReplaySource(images, [0.0, 1.0])


def test_the_recorder_says_when_its_folder_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(SourceError, match=r"cannot make the folder .* for the recording"):
        FrameRecorder(blocker / "frames")
