"""``einhorn-table replay FILE... [--json]``: the ledger after each match file."""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import sys
from typing import Any

from einhorn_table.parsing import loads_json
from einhorn_table.rules import Awaiting, Ledger, RuleViolation, replay
from einhorn_table.standings import ending_words, tie_words
from einhorn_table.text_files import is_picture
from einhorn_table.words import command_name, counted, pad, shown_width

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


def is_ledger_text(text: str) -> bool:
    """Whether a file's ``text`` holds ledgers (RULES.md section 9), such as a golden
    ``.expected`` file's."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        obj = loads_json(first)
    except json.JSONDecodeError:
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


#: Picture files' name endings, for a folder of them (``record`` writes .png).
PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp",
                    ".heic")


def cut_short_words(text: str, error: RuleViolation) -> str:
    """Where the line refused is the file's last and ends without a line break, how it
    came to be cut short and what to do ("" otherwise): a copy made while the table was
    still writing, or a card pulled out before the file was whole."""
    lines = text.splitlines()
    if error.line is None or error.line != len(lines) or text.endswith(("\n", "\r")):
        return ""
    try:
        loads_json(lines[-1])
        return ""  # (whole, and refused for what it says)
    except ValueError:
        pass
    return ("; the file ends in the middle of this line: it was cut short (copied while "
            "the table was writing it, or taken out too early). Copy the match file again, "
            "or delete this last line to replay the moves before it")


def picture_words(path: str) -> str:
    """Why a photo is not replayed, and what reads one."""
    command = command_name()
    return (f"{path}: a photo, not a match file: replay takes match files (text, .jsonl: "
            "a setup line, then a line per move, RULES.md section 8, as "
            f"'{command} history export ID' writes them); to read the dice in this photo, "
            f"run {command} read {shlex.quote(path)}")


def picture_folder_words(path: str) -> str:
    """What a folder of pictures (camera frames ``record`` saved, or photos) is for,
    where it was given to replay; "" for any other folder."""
    try:
        names = os.listdir(path)
    except OSError:
        return ""
    suffixes = [os.path.splitext(name)[1].lower() for name in names]
    pictures = [suffix for suffix in suffixes if suffix in PICTURE_SUFFIXES]
    if not pictures or ".jsonl" in suffixes:
        return ""
    command, whole = command_name(), os.path.abspath(path)
    folder = shlex.quote(path.rstrip(os.sep) or os.sep)
    most = max(set(pictures), key=pictures.count)
    return (f"{path}: a folder of pictures, not match files. Camera frames that "
            f"'{command} record' saved play as the table's camera: camera = "
            f"{json.dumps('dir:' + whole, ensure_ascii=False)} in table.toml, or --source "
            f"{shlex.quote('dir:' + whole)} for the doctor and calibrate. Replay takes match "
            "files (text, .jsonl, RULES.md section 8); to read the dice in these pictures, "
            f"run {command} read {folder}/*{most}")


def run(args: argparse.Namespace) -> int:
    status = 0
    shown = 0
    skipped = 0
    for path in args.files:
        if os.path.isdir(path):
            refused = picture_folder_words(path) or (
                f"{path}: is a folder; name the match files in it (e.g. "
                f"{os.path.join(path, '*.jsonl')})")
            print(refused, file=sys.stderr)
            status = 1
            continue
        # Read once, then decide: a pipe (/dev/stdin, <(...)) gives its text only once.
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            print(f"{path}: cannot read this file ({error.strerror})", file=sys.stderr)
            status = 1
            continue
        if is_picture(data[:16], path):
            print(picture_words(path), file=sys.stderr)
            status = 1
            continue
        try:
            text = data.decode("utf-8-sig")  # with or without the mark Windows editors put first
        except UnicodeDecodeError:
            print(f"{path}: not UTF-8 text, so not a match file as the companion writes "
                  "them; if it is one, open it in a text editor and save it with the "
                  "encoding UTF-8", file=sys.stderr)
            status = 1
            continue
        if is_ledger_text(text):
            print(skipped_words(path, args.files), file=sys.stderr)
            skipped += 1
            continue
        try:
            # newline=None: line ends read as open() reads them (\r\n and \r too)
            match = replay(io.StringIO(text, newline=None))
        except RuleViolation as error:
            print(f"{path}: {error}{cut_short_words(text, error)}", file=sys.stderr)
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
