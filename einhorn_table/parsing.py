"""JSON and TOML parsing that fails as a decode error on any input.

The standard parsers recurse into nested lists and tables, so a line such as
``[[[[...]]]]`` nested a hundred thousand deep raises ``RecursionError`` instead of
their own decode error; and a number of more digits than Python converts (4300 by
default) raises a plain ``ValueError``. Every caller already explains a decode error
to the person who wrote the file, so these turn the others into one. Standard library
only: the rules engine uses them.
"""

from __future__ import annotations

import json
import sys
import tomllib
from typing import Any

TOO_DEEP = "its brackets are nested too deeply"


def too_long() -> str:
    """The decode error's words for a number with more digits than Python reads."""
    return f"it holds a number longer than {sys.get_int_max_str_digits()} digits"


def loads_json(text: str) -> Any:
    """``json.loads``, raising ``json.JSONDecodeError`` for input nested too deeply or
    holding a number too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(TOO_DEEP, text, 0) from None
    except ValueError:  # (only the limit on an integer's digits raises this)
        raise json.JSONDecodeError(too_long(), text, 0) from None


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, raising ``tomllib.TOMLDecodeError`` for input nested too deeply
    or holding a number too long to read."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise tomllib.TOMLDecodeError(TOO_DEEP) from None
    except ValueError:  # (only the limit on an integer's digits raises this)
        raise tomllib.TOMLDecodeError(too_long()) from None
