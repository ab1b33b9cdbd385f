"""The rules of Einhorn, exactly as RULES.md states them. Standard library only."""

from einhorn_table.rules.categories import (
    ALL_ROLLS,
    PROBABILITY,
    ROLL_COUNTS,
    Category,
    Dice,
    categorize,
    check_dice,
)
from einhorn_table.rules.errors import NotationError, RulesError, RuleViolation, VariantError

__all__ = [
    "ALL_ROLLS",
    "PROBABILITY",
    "ROLL_COUNTS",
    "Category",
    "Dice",
    "NotationError",
    "RuleViolation",
    "RulesError",
    "VariantError",
    "categorize",
    "check_dice",
]
