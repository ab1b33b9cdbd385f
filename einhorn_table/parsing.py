"""JSON and TOML parsing that fails as a decode error on any input.

The standard parsers recurse into nested lists and tables, so a line such as
``[[[[...]]]]`` nested a hundred thousand deep raises ``RecursionError`` instead of
their own decode error; every caller already explains a decode error to the person
who wrote the file, so these turn the one into the other. Standard library only: the
rules engine uses them.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

TOO_DEEP = "its brackets are nested too deeply"


def loads_json(text: str) -> Any:
    """``json.loads``, raising ``json.JSONDecodeError`` for input nested too deeply."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError(TOO_DEEP, text, 0) from None


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, raising ``tomllib.TOMLDecodeError`` for input nested too deeply."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(TOO_DEEP) from None
