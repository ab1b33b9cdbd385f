"""Making the folders a command writes into (recordings, drawings, screenshots)."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import tempfile
from pathlib import Path

from einhorn_table.errors import EinhornError


class FolderError(EinhornError):
    """A folder to write into cannot be made; the message says which and why."""


def make_folder(folder: Path, purpose: str) -> Path:
    """``folder``, made where it is missing; a plain error where it cannot be (a file of
    that name, no permission, a read-only disk)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FolderError(f"{folder} is a file, not a folder for {purpose}: name a folder") \
            from None
    except OSError as error:
        raise FolderError(f"cannot make the folder {folder} for {purpose} "
                          f"({error.strerror}): name a folder you may write to") from None
    return folder


def cannot_write_in(folder: Path) -> str | None:
    """Why no file can be saved in ``folder``, found by trying: its missing folders are
    made and a file is written in it, then all of it is taken away again; None where it
    worked. (Permissions alone do not tell: root passes them all, yet writes nothing on
    a read-only card, in /proc or in a network folder that refuses root.)"""
    failed = _write_trial(folder)
    if failed is None:
        return None
    place, error, making = failed
    if making:
        return f"the folder {place} cannot be made ({error.strerror or error})"
    return f"nothing can be written in {place} ({error.strerror or error})"


def why_not_writable(folder: Path) -> str | None:
    """Why this user can keep nothing in ``folder`` (tried as :func:`cannot_write_in`
    does), in words for the person who chose it: "the disk is read-only: ...", "it
    belongs to another user: ..."; None where a file can be written there."""
    failed = _write_trial(folder)
    if failed is None:
        return None
    place, error, making = failed
    # (The folder the trial could not make a file or folder in.)
    parent = place.parent if making else place
    if error.errno == errno.EROFS:
        return (f"the disk is read-only: {parent} lies on a disk (an SD card, a USB stick) "
                "mounted so that nothing can be written on it")
    if error.errno in (errno.EACCES, errno.EPERM):
        owner, me = owner_name(parent), this_user()
        if owner is not None and me is not None and owner != me:
            return (f"it belongs to another user: {parent} is {owner}'s, and this user "
                    f"({me}) may not write in it")
        return (f"this user may not write in {parent}: its permissions forbid it "
                f"(`ls -ld {shlex.quote(str(parent))}` shows them)")
    if making:
        return f"the folder {place} cannot be made ({error.strerror or error})"
    return f"nothing can be written in {place} ({error.strerror or error})"


def _write_trial(folder: Path) -> tuple[Path, OSError, bool] | None:
    """Try to keep a file in ``folder`` (making its missing folders), then take all of
    it away again: None where it worked, else the folder that could not be made (True)
    or written in (False), with the system's error."""
    missing: list[Path] = []
    place = folder
    while not place.exists() and not place.is_symlink() and place != place.parent:
        missing.append(place)
        place = place.parent
    made: list[Path] = []
    try:
        for part in reversed(missing):
            try:
                part.mkdir()
            except OSError as error:
                return part, error, True
            made.append(part)
        try:
            handle, trial = tempfile.mkstemp(prefix=".einhorn-trial-", dir=folder)
        except OSError as error:
            return folder, error, False
        os.close(handle)
        os.unlink(trial)
        return None
    finally:
        for part in reversed(made):
            with contextlib.suppress(OSError):  # (something else wrote there meanwhile)
                part.rmdir()


def owner_name(path: Path) -> str | None:
    """The name of the user ``path`` belongs to (None where it cannot be looked at)."""
    try:
        return _user_name(path.stat().st_uid)
    except OSError:
        return None


def this_user() -> str | None:
    """The name of the user running this (None where the system has no users' numbers)."""
    geteuid = getattr(os, "geteuid", None)
    return None if geteuid is None else _user_name(geteuid())


def _user_name(uid: int) -> str:
    """A user's name (their number where the system has no name for it)."""
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)
