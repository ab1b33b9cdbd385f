"""``opencv:0`` (a USB webcam) and ``file:roll.mp4`` (a video file), through cv2.VideoCapture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from einhorn_table.adapters.source_base import BaseSource, Pacer, SourceError
from einhorn_table.ports import Clock, Frame


class WebcamSource(BaseSource):
    """A USB webcam; timestamps come from ``clock`` when each frame arrives."""

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
                "user is in the 'video' group; or try another number (opencv:1)."
            )
        if self._size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self._size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self._size[1])
        if self._fps is not None:
            capture.set(cv2.CAP_PROP_FPS, self._fps)
        self._capture = capture

    def _read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok or image is None:
            raise SourceError(
                f"Webcam {self.number} stopped sending pictures. Check its cable and "
                "power (a USB hub with its own power helps), then start again."
            )
        return Frame(image=image, timestamp=self._clock.monotonic(), index=self.frames_read)

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


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

        if not self.path.is_file():
            raise SourceError(
                f"The video file {self.path} does not exist. Check the path after 'file:'."
            )
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
