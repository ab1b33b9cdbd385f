"""Einhorn Table: a referee for the dice game Einhorn that sits beside the real table."""

__version__ = "0.1.0"
