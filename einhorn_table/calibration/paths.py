"""Where the calibration profile lives: the companion's state directory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from einhorn_table.history.paths import state_dir as history_state_dir

#: The profile's file name inside the state directory.
PROFILE_NAME = "calibration.toml"


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The state directory as the match history finds it (without ``--state-dir``):
    ``$EINHORN_STATE_DIR``, ``$STATE_DIRECTORY`` (systemd; its first entry), else
    ``$XDG_STATE_HOME/einhorn-table`` (``~/.local/state/einhorn-table``)."""
    return history_state_dir(None, os.environ if environ is None else environ, Path.home())


def default_profile_path(environ: Mapping[str, str] | None = None) -> Path:
    """The profile ``calibrate`` writes where there is no table's file (``demo`` and
    ``read`` take one with ``--profile``); ``play`` reads it where its table's file names
    none (see :func:`state_profile`)."""
    return state_dir(environ) / PROFILE_NAME


def state_profile(state: str | Path | None = None,
                  environ: Mapping[str, str] | None = None) -> Path | None:
    """The profile ``play`` reads where its table's file names none, and the doctor
    checks: ``calibration.toml`` in the state directory ``play`` keeps the match history
    in (``state``: its ``--state-dir``, else the table's file's ``state``), else in the
    environment's state directory (:func:`default_profile_path`, where ``calibrate``
    saves one without a table's file); None where neither exists."""
    places = [Path(state).expanduser() / PROFILE_NAME] if state else []
    places.append(default_profile_path(environ))
    return next((place for place in places if place.is_file()), None)


def unreadable_state_words(error: PermissionError, doing: str) -> tuple[str, str]:
    """Why a command run by this user could not look for the table's calibration
    (:func:`state_profile` met a folder only the table's service may read), and what
    to do: run it as the table's user; ``doing`` is the command's words ("doctor")."""
    from einhorn_table.words import command_name

    folder = Path(error.filename).parent if error.filename else "the state directory"
    return (f"this user may not look into {folder} for the table's calibration (only the "
            "table's service user may)",
            f"Run it as that user: sudo -u {SERVICE_USER} {command_name()} {doing}")


#: Where the table's systemd service keeps its state (systemd/einhorn-table.service:
#: StateDirectory=einhorn-table, StateDirectoryMode=0750), and the user it runs as.
SERVICE_STATE_DIR = Path("/var/lib/einhorn-table")
SERVICE_USER = "einhorn"


def kept_by_the_service(profile: Path, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``profile`` lies in the table's service's own state directory
    (:data:`SERVICE_STATE_DIR`, or systemd's ``$STATE_DIRECTORY`` where the service
    runs this): only the service's user may write there, so a command printed for the
    person at the terminal must not save a calibration there."""
    environ = os.environ if environ is None else environ
    folders = [SERVICE_STATE_DIR]
    if environ.get("STATE_DIRECTORY"):
        folders.append(Path(environ["STATE_DIRECTORY"].split(":")[0]))
    folder = profile.absolute().parent
    return any(os.path.realpath(folder) == os.path.realpath(place) for place in folders)
