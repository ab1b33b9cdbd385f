"""Where the calibration profile lives: the companion's state directory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: The profile's file name inside the state directory.
PROFILE_NAME = "calibration.toml"


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$STATE_DIRECTORY`` (systemd; its first entry), ``$EINHORN_STATE_DIR``, else
    ``$XDG_STATE_HOME/einhorn-table`` (``~/.local/state/einhorn-table``)."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    if env.get("EINHORN_STATE_DIR"):
        return Path(env["EINHORN_STATE_DIR"])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "einhorn-table"


def default_profile_path(environ: Mapping[str, str] | None = None) -> Path:
    """The profile ``play``, ``demo`` and ``read`` use when no ``--profile`` is given."""
    return state_dir(environ) / PROFILE_NAME
