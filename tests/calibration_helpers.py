"""A synthetic table with any die size or light, as a frame source that rolls on request;
and a labelled photo set drawn by it."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

import cv2

from einhorn_table.ports import Frame
from einhorn_table.vision.synth import DICE_PALETTE, SynthFrame, SynthTable


class TableSource:
    """A frame source over any :class:`SynthTable` (small dice, dim light...), rolling on
    request like ``synth:`` does; frames are 1/fps apart on their own timeline."""

    simulated = True

    def __init__(self, table: SynthTable) -> None:
        self.table = table
        self.description = "synthetic test table"
        self._queue: deque[SynthFrame] = deque()
        self._index = 0

    def open(self) -> None:
        self.table.empty()

    def close(self) -> None:
        self._queue.clear()

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def frames_queued(self) -> int:
        return len(self._queue)

    def roll(
        self, values: Sequence[int] | None = None, *, player: int = 0, hand: bool = True,
        settle_frames: int = 15,
    ) -> tuple[int, ...]:
        frames = self.table.roll_sequence(None, player=player, hand=hand,
                                          settle_frames=settle_frames)
        self._queue.extend(frames)
        return tuple(d.value for d in frames[-1].dice if d.value is not None)

    def read(self) -> Frame | None:
        synth = self._queue.popleft() if self._queue else self.table.settled_frames(1)[0]
        frame = Frame(synth.image, self._index / self.table.fps, self._index)
        self._index += 1
        return frame


def write_labelled_set(folder: Path, table: SynthTable, photos: int) -> None:
    (folder / "images").mkdir(parents=True)
    lines = []
    for k in range(photos):
        frame = table.still([(k + i) % 6 + 1 for i in range(3)], colors=[DICE_PALETTE[0]] * 3)
        name = f"images/p{k:02d}.png"
        cv2.imwrite(str(folder / name), frame.image)
        dice = [{"value": d.value, "box": list(d.box)} for d in frame.dice]
        lines.append(json.dumps({"image": name, "dice": dice}))
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")
