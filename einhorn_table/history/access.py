"""Which part of a history this user may not read or change (its folder, its file, the
files SQLite keeps beside it) and why: another user's, root's after a run with sudo,
its own permissions, a disk mounted read-only."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from einhorn_table.folders import owner_name, this_user
from einhorn_table.history.paths import DATABASE

#: The files SQLite keeps beside the history while it is open (WAL journal), which a
#: program that changes the history must write too.
BESIDE = ("-wal", "-shm")


@dataclass(frozen=True)
class Refusal:
    """What stops this user: ``path`` (the folder or one of the history's files), whether
    it is the folder, whether even reading it is refused (else only changing it), its
    owner's and this user's names (None where they cannot be told), and whether it lies
    on a disk mounted read-only; ``changing``: whether the command would change the
    history (a copy of it is then no help)."""

    path: Path
    is_folder: bool
    reading: bool
    owner: str | None
    me: str | None
    read_only_disk: bool = False
    #: Whether the command would change the history (``practice``, ``import``).
    changing: bool = False

    @property
    def owned_by_another(self) -> bool:
        return self.owner is not None and self.me is not None and self.owner != self.me


def refusal(folder: Path, *, writing: bool) -> Refusal | None:
    """The first part of the history in ``folder`` that this user may not read (or, with
    ``writing``, change), folder first; None where nothing refuses (or no history is
    there: what is missing is told elsewhere)."""
    me = this_user()
    try:
        if not folder.is_dir():
            return None
    except PermissionError:  # (a folder above it may not be passed through: the first
        # without x for this user, not one it may pass through but not list)
        above = next((part for part in reversed(folder.absolute().parents)
                      if not os.access(part, os.X_OK)), folder)
        return Refusal(above, True, True, owner_name(above), me, changing=writing)
    if not os.access(folder, os.R_OK | os.X_OK):
        return Refusal(folder, True, True, owner_name(folder), me, changing=writing)
    file = folder / DATABASE
    if not file.is_file():
        return None
    if not os.access(file, os.R_OK):
        return Refusal(file, False, True, owner_name(file), me, changing=writing)
    if not writing:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return Refusal(folder, True, False, owner_name(folder), me, _read_only_disk(folder),
                       changing=True)
    for part in (file, *(Path(f"{file}{end}") for end in BESIDE)):
        if part.exists() and not os.access(part, os.R_OK | os.W_OK):
            return Refusal(part, False, not os.access(part, os.R_OK), owner_name(part), me,
                           _read_only_disk(part), changing=True)
    return None


def _read_only_disk(path: Path) -> bool:
    """Whether ``path`` lies on a disk mounted read-only (False where it cannot be told)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def refused_words(refused: Refusal, folder: Path, *, as_another: str,
                  service_user: str, service: str | None = None) -> str:
    """What the person is told: which part of the history in ``folder`` they may not
    read or change, why, and what to do. ``as_another``: the command again, to run as
    another user (after ``sudo -u USER``); ``service``: what to do where ``folder`` is
    the table's service's own (run as ``service_user``), None elsewhere."""
    path = refused.path
    if refused.is_folder:
        what = f"the history's folder {path}" if path == folder else \
            f"the folder {path}, which holds the history's folder"
    elif path.name == DATABASE:
        what = f"the history file {path}"
    else:
        what = f"{path}, which SQLite keeps beside the history file"
    verb = "read" if refused.reading else "write in" if refused.is_folder else "change"
    said = f"you may not {verb} {what}"
    quoted = shlex.quote(str(path))
    if refused.read_only_disk and not refused.reading:
        return (f"{said}: it lies on a disk (an SD card, a USB stick) mounted read-only. Mount "
                "it so that it may be written, or copy the whole folder somewhere you may "
                "write and name that copy with --state-dir.")
    above = refused.is_folder and path != folder  # (a folder above the history's)
    if refused.owner == "root" and refused.me not in (None, "root") and not above:
        # (made by a command run with sudo: given back, it is theirs to read and change;
        # not a folder above it, root's own, which the history given back leaves shut)
        rightful = service_user if service is not None else refused.me
        return (f"{said}: it belongs to root, not to {'the service' if service else 'you'} "
                f"({rightful}), most likely since einhorn-table was run with sudo. Give the "
                f"history back: `sudo chown -R {rightful}: {shlex.quote(str(folder))}`, then "
                "run the command again.")
    if service is not None:
        return f"{said}. {service}"
    if refused.owned_by_another:
        copy = ("" if refused.changing else ", or ask them to copy the whole folder for you "
                "and name that copy with --state-dir")
        return (f"{said}: it belongs to {refused.owner}, not to you ({refused.me}). Run the "
                f"command as {refused.owner}: `sudo -u {refused.owner} {as_another}`{copy}.")
    mode = "u+rwx" if refused.is_folder else "u+rw"
    whose = "even you, its owner," if refused.owner is not None else "you"
    return (f"{said}: its permissions forbid {whose} to {verb} it (`ls -ld "
            f"{quoted}` shows them). `chmod {mode} {quoted}` gives them back.")
