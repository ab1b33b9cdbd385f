"""What to tell the person who mistyped a line of a settings file they write by hand
(the table's file, a house variant): the line as written there, what the TOML reader
found wrong with it, and how that file writes its values. Standard library only: the
rules engine uses it for house variants."""

from __future__ import annotations

import re
import tomllib

_WHERE = re.compile(r"\(at line (\d+), column \d+\)")


def value_shapes(text: str, number: str, yes_no: str | None = None) -> str:
    """How a file writes its values, each shown by a good line of that file: ``text``
    (in double quotes), ``number`` and, where the file has any, ``yes_no``."""
    if yes_no is None:
        return f"Write text in double quotes ({text}) and numbers as they are ({number})."
    return (f"Write text in double quotes ({text}), yes and no as true or false in small "
            f"letters ({yes_no}), and numbers as they are ({number}).")


def toml_mistake_words(error: tomllib.TOMLDecodeError, text: str, shapes: str) -> str:
    """What the TOML reader found wrong in ``text``, with the line it found it on as
    written there, and ``shapes`` (see :func:`value_shapes`): the file's writer is no
    programmer. Follows "<file> is not valid TOML"."""
    found = _WHERE.search(str(error))
    lines = text.splitlines()
    if found is None or not 1 <= int(found[1]) <= len(lines):
        return f"({error}). {shapes}"
    number = int(found[1])
    why = str(error)[:found.start()].strip()
    if why == "Illegal character '\\n'":  # (the line ends within a text)
        why = "a closing double quote is missing"
    return f"at line {number}: {lines[number - 1].strip()} ({why}). {shapes}"
