"""Counts said as words."""

from __future__ import annotations

from einhorn_table.words import counted, plural


def test_one_is_singular_and_any_other_count_plural() -> None:
    assert counted(1, "station") == "1 station"
    assert counted(0, "station") == "0 stations"
    assert counted(6, "station") == "6 stations"
    assert counted(1, "match", "matches") == "1 match"
    assert counted(2, "match", "matches") == "2 matches"
    assert plural(3, "key") == "keys" and plural(1, "key") == "key"
