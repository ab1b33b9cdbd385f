"""``synth:seed=3,players=4``: the synthetic table as a camera, rolling virtual dice when asked.

With ``mount=1`` the camera is set up as the mount guide says (table around the tray,
seen from about as high as the picture is wide, large dice); by default it looks from
far above at a tray filling the picture.

Until :meth:`SynthSource.roll` is called it shows the empty tray; after it,
:meth:`read` returns that roll's frames (the hand coming in, the dice tumbling,
the dice coming to rest) and then the settled dice, again and again, until the
next roll or :meth:`SynthSource.clear`. Frames come at the table's frame rate on
the clock passed in, like a camera's (a fake clock makes that instant).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

from einhorn_table.adapters.source_base import BaseSource, Pacer
from einhorn_table.ports import Clock, Frame
from einhorn_table.words import counted

if TYPE_CHECKING:
    from einhorn_table.vision.synth import SynthFrame, SynthTable


class SynthSource(BaseSource):
    """A virtual camera over a virtual dice tray (``vision.synth.SynthTable``)."""

    simulated = True

    def __init__(
        self,
        clock: Clock,
        *,
        seed: int = 0,
        players: int = 1,
        size: tuple[int, int] = (640, 480),
        fps: float = 30.0,
        mount: bool = False,
    ) -> None:
        super().__init__()
        self.seed = seed
        self.players = players
        self.size = size
        self.fps = fps
        self.mount = mount
        view = ", the mount guide's view" if mount else ""
        self.description = (
            f"synthetic table (seed {seed}, {counted(players, 'player')}, {fps:g} fps{view})"
        )
        self._clock = clock
        self._pacer = Pacer(clock, fps)
        self._table: SynthTable | None = None
        self._queue: deque[SynthFrame] = deque()
        #: The truth about the frame :meth:`read` returned last (dice, phase, hand).
        self.last: SynthFrame | None = None

    def _open(self) -> None:
        from einhorn_table.vision.synth import SynthTable, ViewOptions, mount_guide_view

        view: ViewOptions = mount_guide_view(self.size) if self.mount else {}
        self._table = SynthTable(self.seed, size=self.size, players=self.players, fps=self.fps,
                                 **view)
        self._queue.clear()
        self._pacer = Pacer(self._clock, self.fps)

    @property
    def table(self) -> SynthTable:
        if self._table is None:
            raise RuntimeError(f"{self.description}: open() it first")
        return self._table

    def roll(
        self,
        values: Sequence[int] | None = None,
        *,
        player: int = 0,
        hand: bool = True,
        settle_frames: int = 15,
    ) -> tuple[int, ...]:
        """Throw three dice (``values``, or random from the seed); returns the faces thrown.

        The roll's frames come from the next reads, after any frames still queued.
        """
        frames = self.table.roll_sequence(
            values, player=player, hand=hand, settle_frames=settle_frames
        )
        self._queue.extend(frames)
        return tuple(d.value for d in frames[-1].dice if d.value is not None)

    def clear(self, *, player: int = 0) -> None:
        """A hand picks the dice up: the tray is empty after the queued frames."""
        self._queue.extend(self.table.clear_sequence(player=player))

    @property
    def frames_queued(self) -> int:
        """Frames of rolls or clears not yet read."""
        return len(self._queue)

    def _read(self) -> Frame | None:
        self._pacer.wait_for(self.frames_read)
        synth = self._queue.popleft() if self._queue else self.table.settled_frames(1)[0]
        self.last = synth
        return Frame(
            image=synth.image.copy(),
            timestamp=self.frames_read / self.fps,
            index=self.frames_read,
        )

    def _close(self) -> None:
        self._queue.clear()
        self._table = None
