"""A settings file or match line nested absurdly deep is refused like any other bad file,
with the file's own advice, never a RecursionError traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from einhorn_table.calibration.profile import load_profile
from einhorn_table.errors import EinhornError
from einhorn_table.rules import NotationError, parse_line
from einhorn_table.rules.variants import load_variant
from einhorn_table.stations.pin_map import load_pin_map
from einhorn_table.table.config import load_config

DEPTH = 100_000
DEEP_LIST = "[" * DEPTH + "]" * DEPTH


def test_a_match_line_nested_too_deep_is_refused_as_not_json() -> None:
    with pytest.raises(NotationError, match=r"not JSON .*nested too deeply") as caught:
        parse_line(DEEP_LIST, line=7)
    assert caught.value.line == 7


@pytest.mark.parametrize(
    ("loader", "advice"),
    [(load_config, "not valid TOML"), (load_pin_map, "fix that line"),
     (load_variant, "not valid TOML"), (load_profile, "calibrate")],
    ids=["table file", "pin map", "house variant", "calibration profile"],
)
def test_a_settings_file_nested_too_deep_is_refused_with_advice(
    tmp_path: Path, loader: Callable[[Path], Any], advice: str
) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(f"a = {DEEP_LIST}\n", encoding="utf-8")
    with pytest.raises(EinhornError, match="nested too deeply") as caught:
        loader(path)
    assert advice in str(caught.value)
