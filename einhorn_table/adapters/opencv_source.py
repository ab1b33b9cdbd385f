"""``opencv:0`` (a USB webcam) and ``file:roll.mp4`` (a video file), through cv2.VideoCapture."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from einhorn_table.adapters.source_base import BaseSource, Pacer, SourceError
from einhorn_table.ports import Clock, Frame

#: The table's own files that a camera source may be pointed at by mistake: what each
#: is instead of a video (a match file holds the calls of a match, not its pictures).
NOT_VIDEOS = {".jsonl": "match", ".json": "match", ".toml": "settings"}


def not_a_video(path: Path) -> str | None:
    """What ``path`` is where it is one of the table's own files, not a video, and
    what to give instead; None for any other file."""
    from einhorn_table.words import command_name

    kind = NOT_VIDEOS.get(path.suffix.lower())
    if kind is None:
        return None
    camera = ("The camera's source is a video (file:roll.mp4) or a folder of pictures "
              f"that {command_name()} record saved (dir:FOLDER).")
    if kind == "match":
        return (f"{path} is a match file (the calls of a match, no pictures): see its "
                f"ledger with {command_name()} replay {path}. {camera}")
    return (f"{path} is a settings file (the table's file or a calibration), not a "
            f"video: the doctor takes it with --table or --profile. {camera}")


#: What OpenCV reads for how much FFmpeg (which reads video files for it) prints, and
#: what asks OpenCV for all of FFmpeg's words.
FFMPEG_LOG_LEVEL = "OPENCV_FFMPEG_LOGLEVEL"
FFMPEG_DEBUG = "OPENCV_FFMPEG_DEBUG"
#: FFmpeg's AV_LOG_QUIET: nothing.
FFMPEG_QUIET = "-8"


@contextmanager
def ffmpeg_quiet() -> Iterator[None]:
    """FFmpeg says nothing while OpenCV opens a video file meanwhile: a file that is no
    video would print its own lines (``[mjpeg @ 0x...] No JPEG data found in image``)
    before the table's message that says what to give instead. (OpenCV reads the level
    as it opens its first video, some versions at each opening; it lasts as FFmpeg reads
    the file. Only video files are read through FFmpeg here, and each failure to read one
    is told in the table's words.) Not where the person asked for FFmpeg's words
    (OPENCV_FFMPEG_LOGLEVEL or OPENCV_FFMPEG_DEBUG set); the setting is taken away again
    after the opening, so no program started later inherits it."""
    if FFMPEG_LOG_LEVEL in os.environ or FFMPEG_DEBUG in os.environ:
        yield
        return
    os.environ[FFMPEG_LOG_LEVEL] = FFMPEG_QUIET
    try:
        yield
    finally:
        os.environ.pop(FFMPEG_LOG_LEVEL, None)


#: Pictures whose width-to-height differs by more than this share are of another shape.
SHAPE_TOLERANCE = 0.02
#: Pictures of another shape in a row that a webcam opened again may send before it is
#: refused (the first ones some send as they start).
ODD_PICTURES_SKIPPED = 5


class WebcamSource(BaseSource):
    """A USB webcam; timestamps come from ``clock`` when each frame arrives.

    Opened again (the table does so every few seconds after it stopped sending, until
    it is plugged back in), it is asked for the size of the pictures the table had been
    reading; pictures of another shape after that are refused, saying so (the tray's
    outline would no longer fit them), rather than misread. A few odd pictures first
    (many webcams send one or two of another size as they start) are skipped.
    """

    def __init__(
        self,
        number: int,
        clock: Clock,
        *,
        size: tuple[int, int] | None = None,
        fps: float | None = None,
    ) -> None:
        super().__init__()
        self.number = number
        self.description = f"USB webcam {number} (OpenCV)"
        self._clock = clock
        self._size = size
        self._fps = fps
        self._capture: Any = None
        #: The size of the last picture it sent, (width, height): the one the table
        #: has been reading.
        self._last: tuple[int, int] | None = None
        #: The size the pictures must have the shape of since it was opened again.
        self._expected: tuple[int, int] | None = None

    def _open(self) -> None:
        import cv2
        from cv2.utils import logging as cv_logging

        # OpenCV's own warning for a missing webcam would fill the journal at every
        # retry (every 2 s); the error below says what to do.
        level = cv_logging.getLogLevel()
        cv_logging.setLogLevel(cv_logging.LOG_LEVEL_ERROR)
        try:
            capture = cv2.VideoCapture(self.number)
        finally:
            cv_logging.setLogLevel(level)
        if not capture.isOpened():
            capture.release()
            raise SourceError(
                f"No webcam answered as number {self.number}. Check that it is plugged "
                "in (ls /dev/video*), that no other program uses it, and that your "
                "user is in the 'video' group; or try another number "
                f"(opencv:{1 if self.number == 0 else 0})."
            )
        self._expected = self._last
        size = self._size or self._expected
        if size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if self._fps is not None:
            capture.set(cv2.CAP_PROP_FPS, self._fps)
        self._capture = capture

    def _read(self) -> Frame | None:
        expected = self._expected
        for _ in range(ODD_PICTURES_SKIPPED + 1):
            ok, image = self._capture.read()
            if not ok or image is None:
                raise SourceError(
                    f"Webcam {self.number} stopped sending pictures. Check its cable and "
                    "power (a USB hub with its own power helps), then start again."
                )
            height, width = image.shape[:2]
            if expected is None or not _other_shape((width, height), expected):
                self._last = (width, height)
                return Frame(image=image, timestamp=self._clock.monotonic(),
                             index=self.frames_read)
        then_w, then_h = expected or (width, height)
        raise SourceError(
            f"Webcam {self.number} now sends {width}x{height} pictures, not "
            f"{then_w}x{then_h} as before: another webcam, or one set otherwise. "
            "Plug the webcam the table started with back in, or start the table "
            "again (and check it with the doctor)."
        )

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def _other_shape(size: tuple[int, int], then: tuple[int, int]) -> bool:
    """Whether a picture of ``size`` has another width-to-height than one of ``then``
    (a picture of the same shape, larger or smaller, the tray reader scales to)."""
    return abs((size[0] / size[1]) / (then[0] / then[1]) - 1) > SHAPE_TOLERANCE


class VideoFileSource(BaseSource):
    """A video file, frame by frame; timestamps follow the file's own frame rate."""

    simulated = True

    def __init__(
        self, path: Path, clock: Clock, *, fps: float | None = None, loop: bool = False
    ) -> None:
        super().__init__()
        self.path = path
        self.description = f"video file {path}"
        self._clock = clock
        self._pace_fps = fps
        self._loop = loop
        self._pacer = Pacer(clock, fps)
        self._capture: Any = None
        self._file_fps = 30.0

    def _open(self) -> None:
        import cv2

        if self.path.is_dir():
            raise SourceError(
                f"{self.path} is a folder, not a video file: a folder of pictures goes "
                f"after 'dir:' (dir:{self.path})."
            )
        if not self.path.is_file():
            raise SourceError(
                f"The video file {self.path} does not exist. Check the path after 'file:'."
            )
        mistaken = not_a_video(self.path)
        if mistaken is not None:
            raise SourceError(mistaken)
        with ffmpeg_quiet():
            capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise SourceError(
                f"{self.path} could not be opened as a video. Convert it to MP4 (H.264) "
                "or save its frames as pictures and use 'dir:' instead."
            )
        reported = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self._file_fps = reported if reported > 0 else 30.0
        self._capture = capture

    def _read(self) -> Frame | None:
        import cv2

        self._pacer.wait_for(self.frames_read)
        ok, image = self._capture.read()
        if not ok and self._loop and self.frames_read > 0:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._capture.read()
        if not ok or image is None:
            return None
        fps = self._pace_fps or self._file_fps
        return Frame(image=image, timestamp=self.frames_read / fps, index=self.frames_read)

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
