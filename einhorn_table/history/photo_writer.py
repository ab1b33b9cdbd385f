"""Roll photos written off the table's main loop: one background thread, a bounded queue.

Encoding a camera frame as a JPEG, writing it with ``fsync``, listing the folder and
deleting the oldest photos takes 100 ms and more on a Raspberry Pi's SD card; done on
the table's loop, the screen and the buttons freeze meanwhile. A :class:`PhotoWriter`
takes the frame and its name at once and does all that on its own thread, onto the
same :class:`~einhorn_table.history.photos.PhotoShelf` (the same files, the same
pruning, the same locking).

A photo that cannot be kept where that can be told at once is reported by a
:class:`~einhorn_table.history.errors.HistoryError` from ``submit``, which the table
takes as "this roll has no photo" and goes on: the photo folder cannot be made (a
file has its name), or the queue is full (a card so slow that photos pile up: the
photo is left out rather than the table made to wait).

A write that fails on the thread (a full card, an I/O error) cannot be told to the
roll it belongs to, which is stored already: it is kept, and :meth:`PhotoWriter.failures`
hands each such failure over once (the table writes it to its journal). The photos
after it are written as usual: each is tried, and only those the card refuses are
lost. The roll of the photo that failed names it all the same, as a roll names a
photo deleted later to keep to the space limit.

``flush`` waits until every photo handed over is written (the table's normal stop:
:meth:`MatchRecorder.close` and :meth:`MatchStore.close` call it), so none is lost.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from einhorn_table.history.errors import HistoryError
from einhorn_table.history.photos import PhotoShelf, encode_jpeg

#: How many photos may wait to be written: about a minute of rolls.
DEFAULT_CAPACITY = 8
#: How long the table's stop waits for the photos still to be written, at most: the
#: few waiting take a second or two; a card that stopped answering is not waited for
#: past the service's watchdog (20 s) and stop timeout (10 s).
FLUSH_SECONDS = 8.0


@dataclass(frozen=True, slots=True)
class PhotoJob:
    """One photo to write: its file name on the shelf and the camera frame (which the
    table never changes once taken: the screen shows the same frame)."""

    name: str
    frame: Any


def not_saved(name: str, error: OSError) -> HistoryError:
    """The words for a photo the card did not take (the same whether written here or
    on the loop)."""
    why = error.strerror or str(error)
    return HistoryError(f"could not save the roll photo {name} ({why}); "
                        "the match goes on without it")


class PhotoWriter:
    """Writes roll photos onto ``shelf`` on one background thread; see the module."""

    def __init__(self, shelf: PhotoShelf, *, encode: Callable[[Any], bytes] = encode_jpeg,
                 capacity: int = DEFAULT_CAPACITY) -> None:
        self.shelf = shelf
        self.encode = encode
        self.capacity = capacity
        self._jobs: deque[PhotoJob] = deque()
        self._busy = 0  # jobs taken off the queue and not yet written
        self._finished = 0  # jobs done (written or failed), ever
        #: ``_finished`` when a wait for the card ran out: a later wait does not wait
        #: again unless a photo was done since (the table's stop waits once, not once
        #: for the match and again for the history, past the service's stop timeout).
        self._stuck_at: int | None = None
        #: Writes that failed on the thread, not yet handed over by :meth:`failures`.
        self._failures: list[HistoryError] = []
        self._closed = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def submit(self, name: str, frame: Any) -> None:
        """Hand over a photo to write as ``name``; returns at once. Raises HistoryError,
        and keeps nothing of this photo, where it will not be kept (see the module)."""
        with self._changed:
            if self._closed:
                raise HistoryError(f"the roll photo {name} came after the history was "
                                   "closed; the match goes on without it")
            if len(self._jobs) >= self.capacity:
                raise HistoryError(
                    f"the roll photo {name} was left out: {len(self._jobs)} photos are "
                    "still waiting to be written (a slow SD card?). The match goes on; "
                    "a faster card keeps every photo.")
        try:  # (one look at a folder the card has cached: microseconds, not a write)
            self.shelf.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise not_saved(name, error) from None
        with self._changed:
            self._jobs.append(PhotoJob(name, frame))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="roll-photos",
                                                daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def failures(self) -> list[HistoryError]:
        """The photos whose write failed on the thread since the last call, in the
        order they were handed over; each failure is handed over once."""
        with self._changed:
            failures, self._failures = self._failures, []
            return failures

    def pending(self) -> int:
        """How many photos are handed over and not written yet."""
        with self._changed:
            return len(self._jobs) + self._busy

    def flush(self, timeout: float | None = FLUSH_SECONDS) -> bool:
        """Wait until every photo handed over is written (or could not be); False if
        ``timeout`` seconds passed first."""
        with self._changed:
            if self._stuck_at is not None and self._stuck_at == self._finished:
                timeout = 0.0  # (still stuck where the last wait gave up)
            done = self._changed.wait_for(lambda: not self._jobs and not self._busy, timeout)
            self._stuck_at = None if done else self._finished
            return done

    def close(self, timeout: float | None = FLUSH_SECONDS) -> bool:
        """Write what is handed over, then stop the thread; False if ``timeout`` passed
        with photos still unwritten (a card that stopped answering)."""
        done = self.flush(timeout)
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None and done:
            thread.join(timeout)
        return done

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._jobs or self._closed)
                if not self._jobs:
                    return  # closed, and nothing left to write
                job = self._jobs.popleft()
                self._busy += 1
            failure = self._write(job)
            with self._changed:
                self._busy -= 1
                self._finished += 1
                if failure is not None:
                    self._failures.append(failure)
                self._changed.notify_all()

    def _write(self, job: PhotoJob) -> HistoryError | None:
        try:
            self.shelf.save(job.name, self.encode(job.frame))
        except OSError as error:
            return not_saved(job.name, error)
        except HistoryError as error:
            return error
        except Exception as error:  # (the thread must go on writing the next photos)
            return HistoryError(f"could not save the roll photo {job.name} ({error}); "
                                "the match goes on without it")
        return None
