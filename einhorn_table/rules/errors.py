"""Errors of the rules engine: precise, and each a ``ValueError`` as well."""

from __future__ import annotations

from einhorn_table.errors import EinhornError


class RulesError(EinhornError, ValueError):
    """Base of every error the rules engine raises."""


class RuleViolation(RulesError):
    """An input the rules do not allow at this point; nothing was changed.

    ``rule`` is the section of RULES.md that forbids it (e.g. ``"4.1"``);
    ``line`` is the line of the match file, when the input came from one.
    """

    def __init__(self, reason: str, *, rule: str, line: int | None = None) -> None:
        self.reason = reason
        self.rule = rule
        self.line = line
        super().__init__(self._text())

    def _text(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}refused: {self.reason} (RULES.md section {self.rule})"

    def at_line(self, line: int) -> RuleViolation:
        """The same refusal, naming the line of the match file it came from."""
        return type(self)(self.reason, rule=self.rule, line=line)


class NotationError(RuleViolation):
    """A line of a match file that is not valid match notation (RULES.md section 8)."""

    def __init__(self, reason: str, *, rule: str = "8", line: int | None = None) -> None:
        super().__init__(reason, rule=rule, line=line)


class VariantError(RulesError):
    """A house-variant file that cannot be used; the message names the key."""
