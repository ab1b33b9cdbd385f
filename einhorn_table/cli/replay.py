"""``einhorn-table replay FILE... [--json]``: the ledger after each match file."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from einhorn_table.parsing import loads_json
from einhorn_table.rules import Awaiting, Ledger, RuleViolation, replay_file
from einhorn_table.standings import ending_words, tie_words
from einhorn_table.words import counted, pad, shown_width

_WAITING = {
    Awaiting.START_ROLL: "{} to roll for the start",
    Awaiting.ROLL: "{} to roll",
    Awaiting.COUNTERPARTY: "{} to choose who pays or is paid",
    Awaiting.BID: "{} to bid for the unicorn",
    Awaiting.TOPUP: "{} to top up from their stash",
    Awaiting.TIEBREAK_ROLL: "{} to roll the tie-break",
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="referee a recorded match file and show its ledger",
        description="Replay match files (RULES.md section 8) and print the ledger after the "
        "last line of each. A line the rules refuse is reported on stderr with its line "
        "number, and the exit status is 1. A file of ledgers (a golden .expected.jsonl) is "
        "skipped with a note; where every file named is one, nothing is replayed and the "
        "exit status is 1.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="match files (.jsonl)")
    parser.add_argument("--json", action="store_true", help="one JSON ledger a line")
    parser.set_defaults(handler=run)


def format_ledger(ledger: Ledger, title: str) -> str:
    """The ledger as a small table a person can read."""
    over = ledger.winner is not None
    # A match may end in the deal of its next game (RULES.md 5.6): count the games played.
    progress = (f"over after {ledger.games_played} of {counted(ledger.games, 'game')}" if over
                else f"game {ledger.game} of {ledger.games}")
    lines = [f"{title}  ({ledger.variant}, {progress})"]
    width = max(len("player"), *(shown_width(p.name) for p in ledger.players))
    lines.append(f"  {'player':<{width}}  game stones  stash")
    for p in ledger.players:
        marks = []
        if p.name == ledger.unicorn:
            marks.append("unicorn")
        if p.name == ledger.winner:
            marks.append("WINNER")
        note = f"  <- {', '.join(marks)}" if marks else ""
        lines.append(f"  {pad(p.name, width)}  {p.game_stones:>11}  {p.stash:>5}{note}")
    lines.append(f"  central stash: {ledger.central}")
    if ledger.winner is not None:
        best = ledger.player(ledger.winner).stash
        lines.append(f"  match over: {ledger.winner} wins with {best} stones")
        lines.extend(f"  {words}" for words in (ending_words(ledger), tie_words(ledger)) if words)
    else:
        waiting = _WAITING[ledger.awaiting].format(ledger.to_act)
        call = f" (called {ledger.call.label})" if ledger.call is not None else ""
        lines.append(f"  next: {waiting}{call}")
    return "\n".join(lines)


def is_ledger_file(path: str) -> bool:
    """Whether ``path`` holds ledgers (RULES.md section 9), such as a golden ``.expected`` file."""
    try:
        with open(path, encoding="utf-8") as handle:
            first = next((line for line in handle if line.strip()), "")
        obj = loads_json(first)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(obj, dict) and "type" not in obj and {"awaiting", "players"} <= set(obj)


def skipped_words(path: str, named: list[str]) -> str:
    """Why a file of ledgers is not replayed, and what to replay instead: a golden
    ``NAME.expected.jsonl``'s match ``NAME.jsonl`` beside it, unless it is ``named``
    too (``replay golden/*.jsonl``)."""
    words = f"{path}: skipped: a file of ledgers (RULES.md section 9), not a match"
    suffix = ".expected.jsonl"
    match = path[: -len(suffix)] + ".jsonl" if path.endswith(suffix) else ""
    if match and os.path.abspath(match) in {os.path.abspath(name) for name in named}:
        return words
    if match and os.path.isfile(match):
        return f"{words}; replay its match, {match}"
    return f"{words}; replay the match file (setup line first) it was made from"


def run(args: argparse.Namespace) -> int:
    status = 0
    shown = 0
    skipped = 0
    for path in args.files:
        if is_ledger_file(path):
            print(skipped_words(path, args.files), file=sys.stderr)
            skipped += 1
            continue
        try:
            match = replay_file(path)
        except RuleViolation as error:
            print(f"{path}: {error}", file=sys.stderr)
            status = 1
            continue
        except IsADirectoryError:
            print(f"{path}: is a folder; name the match files in it (e.g. "
                  f"{os.path.join(path, '*.jsonl')})", file=sys.stderr)
            status = 1
            continue
        except OSError as error:
            print(f"{path}: cannot read this file ({error.strerror})", file=sys.stderr)
            status = 1
            continue
        except UnicodeDecodeError:
            print(f"{path}: not UTF-8 text, so not a match file as the companion writes "
                  "them; if it is one, open it in a text editor and save it with the "
                  "encoding UTF-8", file=sys.stderr)
            status = 1
            continue
        ledger = match.ledger()
        if args.json:
            print(json.dumps(ledger.to_json(), ensure_ascii=False))
        else:
            if shown:  # a blank line between ledgers, none above the first
                print()
            print(format_ledger(ledger, path))
        shown += 1
        sys.stdout.flush()
    if skipped and not shown and not status:
        # Nothing on stdout: said, and not taken for success by a script.
        print(f"nothing replayed: {'the file named is' if skipped == 1 else 'every file named is'}"
              " a file of ledgers, not a match", file=sys.stderr)
        return 1
    return status
