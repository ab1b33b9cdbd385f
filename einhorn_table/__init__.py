"""Einhorn Table: a referee for the dice game Einhorn that sits beside the real table."""

__version__ = "0.1.0"


def main() -> int:
    """The ``einhorn-table`` command, as its console script starts it (pyproject.toml's
    ``[project.scripts]``). Nothing is imported before this point, so that Ctrl-C while
    Python still imports the command (argparse, then OpenCV or pygame) stops it quietly
    with status 130, as Ctrl-C does later (:func:`einhorn_table.cli.main`), instead of
    a screenful of traceback."""
    try:
        from einhorn_table.cli import main as command
    except KeyboardInterrupt:
        return 130
    return command()
