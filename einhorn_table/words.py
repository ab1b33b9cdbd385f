"""Counts said as words: "1 station", "6 stations"."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``noun`` for one, else ``many`` (``noun`` + "s" unless given)."""
    return noun if count == 1 else many or f"{noun}s"


def joined(names: Sequence[str]) -> str:
    """Names as said: "Ana", "Ana and Ben", "Ana, Ben and Cem"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def counted(count: int, noun: str, many: str | None = None) -> str:
    """The count and its noun: ``counted(1, "match", "matches")`` is "1 match"."""
    return f"{count} {plural(count, noun, many)}"
