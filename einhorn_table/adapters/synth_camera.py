"""The synthetic table as a camera: a :class:`FrameSource` whose dice are thrown by code.

Built on :class:`einhorn_table.vision.synth.table.SynthTable`. :meth:`SynthCamera.throw`
queues a whole roll (hand, tumbling dice, dice at rest); between rolls the camera
keeps showing the tray as it lies. Frames are stamped with the clock passed in,
so a fake clock makes a match run as fast as the computer can draw.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Self

from einhorn_table.ports import Clock, Frame
from einhorn_table.vision.synth.table import SynthFrame, SynthTable

if TYPE_CHECKING:
    from einhorn_table.ports import Image


class SynthCamera:
    """A frame source over a :class:`SynthTable` (see the module's description)."""

    simulated = True

    def __init__(
        self,
        clock: Clock,
        *,
        players: int,
        seed: int = 0,
        size: tuple[int, int] = (320, 240),
        fps: float = 30.0,
        dice_colours: Sequence[tuple[int, int, int]] | None = None,
    ) -> None:
        self.table = SynthTable(seed, size=size, players=players, dice_colors=dice_colours,
                                fps=fps, noise=1.5)
        self.description = f"synthetic table {size[0]}x{size[1]}, seed {seed}"
        self._clock = clock
        self._queue: deque[SynthFrame] = deque()
        self._still: SynthFrame | None = None
        self._index = 0
        self.open_ = False

    @property
    def colours(self) -> tuple[tuple[int, int, int], ...]:
        """Each player's dice colour (RGB)."""
        return self.table.player_colors

    @property
    def busy(self) -> bool:
        """A thrown roll is still being shown."""
        return bool(self._queue)

    def throw(
        self,
        player: int,
        dice: Sequence[int] | None = None,
        colours: Sequence[tuple[int, int, int]] | None = None,
    ) -> None:
        """Queue a roll by ``player`` (random dice when ``dice`` is None); ``colours``
        gives the dice other bodies than the player's (someone took the wrong dice)."""
        frames = self.table.roll_sequence(list(dice) if dice is not None else None,
                                          player=player, settle_frames=2, colors=colours)
        self._queue.extend(frames)
        self._still = None

    def open(self) -> None:
        self.open_ = True

    def read(self) -> Frame | None:
        if self._queue:
            synth = self._queue.popleft()
        else:
            if self._still is None:
                self._still = self.table.render(self.table.layout)
            synth = self._still
        image: Image = synth.image
        frame = Frame(image, self._clock.monotonic(), self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self.open_ = False

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
