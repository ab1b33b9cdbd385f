"""Counts said as words."""

from __future__ import annotations

from pathlib import Path

import pytest

from einhorn_table.words import counted, plural


def test_one_is_singular_and_any_other_count_plural() -> None:
    assert counted(1, "station") == "1 station"
    assert counted(0, "station") == "0 stations"
    assert counted(6, "station") == "6 stations"
    assert counted(1, "match", "matches") == "1 match"
    assert counted(2, "match", "matches") == "2 matches"
    assert plural(3, "key") == "keys" and plural(1, "key") == "key"


def test_names_are_padded_by_the_columns_they_take() -> None:
    """李娜 takes four columns, Zoë typed as e and a separate mark three: tables of
    names line up in a terminal."""
    from unicodedata import normalize

    from einhorn_table.words import pad, shown_width

    assert shown_width("李娜") == 4
    assert shown_width(normalize("NFD", "Zoë")) == shown_width("Zoë") == 3
    assert [pad(name, 6) + "|" for name in ("Ana", "李娜", normalize("NFD", "Zoë"))] == [
        "Ana   |", "李娜  |", normalize("NFD", "Zoë") + "   |"]
    assert pad("Dorothea", 6) == "Dorothea"


def test_the_command_is_named_as_the_person_ran_it(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from einhorn_table.words import command_name

    script = tmp_path / ".venv" / "bin" / "einhorn-table"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    # ./start says how it was run; else the path the command was typed as; else its name.
    assert command_name({"EINHORN_COMMAND": "./start"}, str(script)) == "./start"
    assert command_name({}, str(script)) == str(script)
    assert command_name({}, "/usr/lib/python3/einhorn_table/__main__.py") == "einhorn-table"
    # On the PATH (a venv activated), the bare name is what to type.
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")
    assert command_name({}, str(script)) == "einhorn-table"


def test_a_command_in_a_folder_with_spaces_is_quoted_to_paste(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex
    import subprocess

    from einhorn_table.words import command_name

    script = tmp_path / "My Games" / "einhorn" / ".venv" / "bin" / "einhorn-table"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\necho ran\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    start = tmp_path / "My Games" / "einhorn" / "start"
    assert shlex.split(f"{command_name({}, str(script))} doctor") == [str(script), "doctor"]
    by_start = command_name({"EINHORN_COMMAND": str(start)}, str(script))
    assert shlex.split(f"{by_start} doctor") == [str(start), "doctor"]
    pasted = subprocess.run(f"{command_name({}, str(script))} doctor", shell=True,
                            capture_output=True, text=True, check=False)
    assert pasted.stdout == "ran\n"
