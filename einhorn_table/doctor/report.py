"""Check results and the plain report the doctor prints."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from einhorn_table.words import counted


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"
    SKIP = "skip"


@dataclass(frozen=True)
class CheckResult:
    """One line of the report.

    ``detail`` says what was found; ``todo`` what to do about it (for a failure
    or a warning). ``essential`` failures make the doctor exit 1; ``simulated``
    marks a check passed by a stand-in (synthetic camera, keyboard, no screen).
    """

    name: str
    status: Status
    detail: str
    todo: str = ""
    essential: bool = True
    simulated: bool = False


WIDTH = 100
NAME_WIDTH = 12


def render(
    machine_line: str, results: Sequence[CheckResult], *, title: str = "Einhorn Table doctor"
) -> str:
    """The report: the machine, one block per check, and the verdict."""
    lines = [title, *textwrap.wrap(machine_line, WIDTH), ""]
    indent = " " * (2 + 5 + 1 + NAME_WIDTH + 1)
    for result in results:
        tag = f"  {result.status.value:<5} {result.name:<{NAME_WIDTH}} "
        detail = result.detail + ("  [simulated]" if result.simulated else "")
        lines += textwrap.wrap(
            detail, WIDTH, initial_indent=tag, subsequent_indent=indent
        ) or [tag.rstrip()]
        if result.todo and result.status in (Status.FAIL, Status.WARN):
            lines += textwrap.wrap(
                result.todo,
                WIDTH,
                initial_indent=indent + "what to do: ",
                subsequent_indent=indent + "            ",
                break_on_hyphens=False,  # (a command to type, einhorn-table, kept whole)
            )
    lines += ["", *textwrap.wrap(verdict(results), WIDTH)]
    return "\n".join(lines) + "\n"


def failed(results: Sequence[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.status is Status.FAIL and r.essential]


def verdict(results: Sequence[CheckResult]) -> str:
    bad = failed(results)
    warnings = sum(r.status is Status.WARN for r in results)
    simulated = [r.name for r in results if r.simulated and r.status is Status.OK]
    notes = []
    if warnings:
        notes.append(f"{counted(warnings, 'warning')} above")
    if simulated:
        notes.append(f"simulated here: {', '.join(simulated)}")
    tail = f" ({'; '.join(notes)})" if notes else ""
    if bad:
        names = ", ".join(r.name for r in bad)
        return f"NOT READY: {counted(len(bad), 'essential check')} failed: {names}{tail}."
    return f"All essential checks passed{tail}."


def exit_status(results: Sequence[CheckResult]) -> int:
    """0 when every essential check passed, else 1."""
    return 1 if failed(results) else 0
