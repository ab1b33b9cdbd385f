"""``synth:seed=3,players=4``: the synthetic table as a camera, rolling virtual dice when asked.

With ``mount=1`` the camera is set up as the mount guide says (table around the tray,
seen from about as high as the picture is wide, large dice); by default it looks from
far above at a tray filling the picture.

Until :meth:`SynthSource.roll` is called it shows the empty tray; after it,
:meth:`read` returns that roll's frames (the hand coming in, the dice tumbling,
the dice coming to rest) and then the settled dice, again and again, until the
next roll or :meth:`SynthSource.clear`. Frames come at the table's frame rate on
the clock passed in, like a camera's (a fake clock makes that instant), and like a
camera's they go on while nobody reads them: read slower than that (a slow computer's
screen, a roll being read), it shows the frame due by the clock, those between never
drawn, so a roll's throw lasts its own seconds on the clock at every frame rate.
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
    from einhorn_table.vision.synth.planned import PlannedFrame


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
        #: The frames of rolls and clears still to come, planned (drawn when shown).
        self._queue: deque[PlannedFrame] = deque()
        #: The camera's frame shown last, or passed unseen before a throw (None: none
        #: since it was opened).
        self._shown: int | None = None
        #: The truth about the frame :meth:`read` returned last (dice, phase, hand).
        self.last: SynthFrame | None = None

    def _open(self) -> None:
        from einhorn_table.vision.synth import SynthTable, ViewOptions, mount_guide_view

        view: ViewOptions = mount_guide_view(self.size) if self.mount else {}
        self._table = SynthTable(self.seed, size=self.size, players=self.players, fps=self.fps,
                                 **view)
        self._queue.clear()
        self._pacer = Pacer(self._clock, self.fps)
        self._shown = None

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

        The roll's frames come after any frames still queued, from the next frame due.
        """
        frames = self.table.roll_plan(
            values, player=player, hand=hand, settle_frames=settle_frames
        )
        self._enqueue(frames)
        return frames[-1].values

    def clear(self, *, player: int = 0) -> None:
        """A hand picks the dice up: the tray is empty after the queued frames."""
        self._enqueue(self.table.clear_plan(player=player))

    def _enqueue(self, frames: list[PlannedFrame]) -> None:
        """``frames`` to come from the next frame due. Those due since the frame shown
        last, unread, went by before this throw: they are taken from what was queued
        then (or the dice lying as they were), never from ``frames``."""
        due = self._pacer.due_now()
        if due is not None and self._shown is not None and due > self._shown:
            for _ in range(min(due - self._shown, len(self._queue))):
                self._queue.popleft()  # (due before the throw, while nobody read)
            self._shown = due
        self._queue.extend(frames)

    @property
    def frames_queued(self) -> int:
        """Frames of rolls or clears not yet shown (nor skipped)."""
        return len(self._queue)

    def _read(self) -> Frame | None:
        index = self._pacer.next_frame(self._shown)
        skipped = 0 if self._shown is None else index - self._shown - 1
        for _ in range(min(skipped, len(self._queue))):
            self._queue.popleft()  # (due while the reader was busy: never seen)
        planned = self._queue.popleft() if self._queue else self.table.settled_plan(1)[0]
        synth = self.table.draw(planned)
        self._shown = index
        self.last = synth
        return Frame(image=synth.image.copy(), timestamp=index / self.fps, index=index)

    def _close(self) -> None:
        self._queue.clear()
        self._table = None
