"""One program at a time in a state directory: the table (``play``) or a demo.

Two programs keeping one match history would each take the other's match for one left
unfinished, and write its inputs in between. The one playing holds the lock file
:data:`STATE_LOCK` there with ``flock``: the kernel lets go of it when the process
ends in any way (a crash, ``kill -9``, a power cut), so a lock file left behind never
keeps the table from starting again. The file only says who holds it, for the words
(and ``history list`` and ``show``, which match is being played right now).

The ``history`` commands do not take it: the table holds it all the time it runs (the
Pi's service, all day), and an import or a practice mark is one SQLite transaction
that looks at what is kept and writes in one go, which the table's inputs wait for
and take turns with (see ``MatchStore.import_notation``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from einhorn_table.errors import EinhornError
from einhorn_table.history.paths import CHOOSE_TABLE_STATE

#: The lock file in a state directory, held by the program that plays there.
STATE_LOCK = "playing.lock"
#: The programs that take it, as the lock file names them.
PLAY = "play"
DEMO = "demo"


class StateInUse(EinhornError):
    """Another program (the table, or a demo) plays in the state directory."""


@dataclass(frozen=True)
class Holder:
    """Who holds a state directory, as its lock file says (what it does not say: "")."""

    program: str
    process: str = ""
    since: str = ""
    match: str = ""

    def words(self) -> str:
        """"process 4242, since 16:05, match 7"."""
        said = [("process", self.process), ("since", self.since), ("match", self.match)]
        return ", ".join(f"{name} {value}" for name, value in said if value)


def read_holder(lock: Path) -> Holder:
    """What the lock file says: ``PROGRAM PROCESS SINCE [MATCH]``."""
    try:
        said = lock.read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        said = []
    program, process, since, match = [*said, "", "", "", ""][:4]
    return Holder(program or DEMO, process, since, match)


def held_by(state: Path) -> Holder | None:
    """Who plays in ``state`` now; None where nobody does (or it cannot be told: no
    ``flock``, a folder this user may not look into, whose own words come later)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - the companion runs on Linux and macOS
        return None
    lock = state / STATE_LOCK
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return read_holder(lock)
    except OSError:  # (a network folder that locks nothing)
        return None
    finally:
        os.close(fd)
    return None


def refuse_if_held(state: Path, program: str) -> None:
    """Stop ``program`` with :class:`StateInUse` where another program plays in ``state``
    now: looked at before a window opens (the demo), so that the words come at once;
    :func:`holding` still decides, for two programs starting at the same moment."""
    if (holder := held_by(state)) is not None:
        raise StateInUse(in_use_words(state, holder, program))


def _open_lock(state: Path) -> tuple[int, bool] | None:
    """The lock file, opened to write who holds it where this user may (True), else to
    lock it only; None where it cannot be opened at all (no folder can be made there,
    or none looked into: the history says why, in its own words)."""
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    lock = state / STATE_LOCK
    try:
        return os.open(lock, os.O_RDWR | os.O_CREAT, 0o644), True
    except OSError:
        pass
    try:
        return os.open(lock, os.O_RDONLY), False
    except OSError:
        return None


@contextlib.contextmanager
def holding(state: Path, program: str,
            wall: Callable[[], datetime]) -> Iterator[Callable[[str], None]]:
    """Hold ``state`` for ``program`` (:data:`PLAY` or :data:`DEMO`) while it plays;
    yields what writes the match played into the lock file. Another program holding it
    stops this one with :class:`StateInUse`, saying which and what to do; where it
    cannot be held (no ``flock``, a network folder), the program plays all the same."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - the companion runs on Linux and macOS
        yield lambda match_id: None
        return
    opened = _open_lock(state)
    if opened is None:
        yield lambda match_id: None
        return
    fd, writable = opened
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = read_holder(state / STATE_LOCK)
            raise StateInUse(in_use_words(state, holder, program)) from None
        except OSError:  # (a network folder that locks nothing)
            pass
        since = wall().astimezone().strftime("%H:%M")

        def note(match_id: str) -> None:
            # (Words only: a full card that takes none leaves them as they were, and the
            # table plays all the same, the lock held; the history says what is full.)
            said = f"{program} {os.getpid()} {since} {match_id}\n".encode()
            if writable:
                with contextlib.suppress(OSError):
                    os.pwrite(fd, said, 0)
                    os.ftruncate(fd, len(said))

        note("")
        yield note
    finally:
        os.close(fd)  # (lets go of the lock)


def in_use_words(state: Path, holder: Holder, program: str) -> str:
    """Why ``program`` does not start in ``state``, which ``holder`` plays in, and what
    to do instead."""
    who = holder.words()
    said = f" ({who})" if who else ""
    if program == DEMO and holder.program == DEMO:
        return (f"another demo is playing in {state}{said}, and two demos cannot share "
                "one: this one would take that match for one left unfinished. Finish it or "
                "press ESC in its window first, or give this demo a state directory of its "
                f"own: add --state-dir {free_folder(state)}")
    if program == DEMO:
        return (f"the table (einhorn-table play) is playing in {state}{said}, and a demo "
                "cannot share its state directory: it would take the table's match for one "
                "left unfinished. Give the demo a state directory of its own: add "
                f"--state-dir {free_folder(state)}")
    if holder.program == DEMO:
        return (f"a demo is playing in {state}{said}, and the table cannot share its state "
                "directory: it would take the demo's match for one left unfinished. Finish "
                "the demo or press ESC in its window first, or give the table a state "
                f"directory of its own ({CHOOSE_TABLE_STATE})")
    return (f"the table is already playing in {state}{said}, and two tables cannot keep "
            "one match history. Where the table's service runs it, stop the service "
            "first (sudo systemctl stop einhorn-table); else close the other table's window "
            "or press Ctrl+C where it was started. Then start this one again.")


def free_folder(state: Path) -> Path:
    """A state directory beside ``state`` that does not exist yet: ``einhorn-state-2``."""
    if state.name in ("", ".."):  # (".", "..": named as the folder they are)
        state = Path(os.path.abspath(state))
    if not state.name:  # (the root folder: one in it)
        state = state / "einhorn-state"
    number = 2
    while (other := state.with_name(f"{state.name}-{number}")).exists():
        number += 1
    return other
