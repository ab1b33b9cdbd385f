"""Where the companion keeps its state: the history database and the roll photos."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

APP = "einhorn-table"
DATABASE = "history.sqlite3"
PHOTOS = "photos"

#: How a command's user chooses another state directory, in the messages that say to
#: (a full or read-only card): each command as it takes one. ``history`` (the default):
CHOOSE_STATE = "with --state-dir or EINHORN_STATE_DIR"
#: ``play`` (the table):
CHOOSE_TABLE_STATE = "with --state-dir, or `state` in the table file, or EINHORN_STATE_DIR"
#: ``demo``, which keeps its own history and reads no EINHORN_STATE_DIR:
CHOOSE_DEMO_STATE = "with the demo's --state-dir"


def state_dir(explicit: str | Path | None, environ: Mapping[str, str], home: Path) -> Path:
    """The state directory, first of: ``--state-dir``, ``EINHORN_STATE_DIR``,
    systemd's ``STATE_DIRECTORY`` (its first entry), ``$XDG_STATE_HOME/einhorn-table``,
    ``~/.local/state/einhorn-table``."""
    if explicit:
        return Path(explicit).expanduser()
    if environ.get("EINHORN_STATE_DIR"):
        return Path(environ["EINHORN_STATE_DIR"]).expanduser()
    if environ.get("STATE_DIRECTORY"):
        # systemd may list several directories, separated by colons.
        return Path(environ["STATE_DIRECTORY"].split(":")[0])
    if environ.get("XDG_STATE_HOME"):
        return Path(environ["XDG_STATE_HOME"]) / APP
    return home / ".local" / "state" / APP
