"""Writing the few TOML shapes a profile holds (the standard library only reads TOML)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

#: A value a profile writes: a scalar, or a (nested) list of scalars.
TomlValue = bool | int | float | str | Sequence["TomlValue"]


def toml_key(key: str) -> str:
    """A bare key when TOML allows one, else a quoted one."""
    if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        return key
    return toml_string(key)


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, but TOML also bars a raw DEL."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(value: TomlValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    return "[" + ", ".join(toml_value(item) for item in value) + "]"


def toml_document(
    top: Mapping[str, TomlValue],
    tables: Mapping[str, Mapping[str, TomlValue]],
    comments: Mapping[str, str] | None = None,
) -> str:
    """Top-level keys, then one ``[table]`` per entry (empty tables too), with an
    optional comment line above each table."""
    comments = comments or {}
    lines = [f"{toml_key(k)} = {toml_value(v)}" for k, v in top.items()]
    for name, table in tables.items():
        lines.append("")
        if name in comments:
            lines.append(f"# {comments[name]}")
        lines.append(f"[{toml_key(name)}]")
        lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"
