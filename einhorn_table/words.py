"""Counts and inputs said as words: "1 station", "6 stations", "Ben's roll 3 5 1"."""

from __future__ import annotations

import os
import shutil
import sys
import unicodedata
from collections.abc import Mapping, Sequence

from einhorn_table import rules


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``noun`` for one, else ``many`` (``noun`` + "s" unless given)."""
    return noun if count == 1 else many or f"{noun}s"


def joined(names: Sequence[str]) -> str:
    """Names as said: "Ana", "Ana and Ben", "Ana, Ben and Cem"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve")


def number_word(count: int) -> str:
    """A small count as a word ("six"), as said at the table; digits past twelve."""
    return _NUMBERS[count] if 0 <= count < len(_NUMBERS) else str(count)


def counted(count: int, noun: str, many: str | None = None) -> str:
    """The count and its noun: ``counted(1, "match", "matches")`` is "1 match"."""
    return f"{count} {plural(count, noun, many)}"


def shown_width(text: str) -> int:
    """How many columns ``text`` takes in a terminal: Chinese, Japanese and Korean
    letters take two, accents typed as a separate mark none."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) == "Cf" else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` with spaces after it up to ``width`` columns, for tables of names."""
    return text + " " * max(0, width - shown_width(text))


def party_words(name: str) -> str:
    """A player's name, or "the central stash" for ``central``."""
    return "the central stash" if name == rules.CENTRAL else name


def input_words(item: rules.Input) -> str:
    """An input as a person names it, e.g. when it is undone: "Ben's roll 3 5 1"."""
    who = f"{getattr(item, 'player', '')}'s"
    if isinstance(item, rules.Roll | rules.StartRoll | rules.TiebreakRoll):
        return f"{who} roll {' '.join(str(d) for d in item.dice)}"
    if isinstance(item, rules.Call):
        return f"{who} call {item.call.label if item.call else '(silent)'}"
    if isinstance(item, rules.Counterparty):
        return f"{who} choice of {party_words(item.party)}"
    if isinstance(item, rules.Bid):
        return f"{who} bid of {item.stones}"
    if isinstance(item, rules.Topup):
        return f"{who} top-up of {item.stones}"
    return "the last input"


def command_name(environ: Mapping[str, str] | None = None,
                 argv0: str | None = None) -> str:
    """How the person at the terminal runs the companion, for "type this next" lines:
    what ./start said it is (``./start``: the command in its .venv is on no PATH),
    else the path the command was run by when it was run by one
    (``.venv/bin/einhorn-table``, as the install guide does), else ``einhorn-table``;
    quoted for the shell where its path has spaces (a folder "My Games")."""
    import shlex

    given = (os.environ if environ is None else environ).get("EINHORN_COMMAND", "").strip()
    if given:
        return shlex.quote(given)
    ran = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(ran) != "einhorn-table" or os.sep not in ran:
        return "einhorn-table"
    on_path = shutil.which("einhorn-table")
    try:
        same = on_path is not None and os.path.samefile(on_path, ran)
    except OSError:  # (the file run is gone: its .venv made anew meanwhile)
        same = False
    return "einhorn-table" if same else shlex.quote(ran)
