"""``einhorn-table history``: the matches kept, one told turn by turn, exports, imports, stats."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from einhorn_table.cli.arguments import whole_number
from einhorn_table.errors import EinhornError
from einhorn_table.folders import why_not_writable
from einhorn_table.history.access import Refusal, refusal, refused_words
from einhorn_table.history.errors import (
    HistoryError,
    StoreFull,
    StoreNotReadable,
    StoreReadOnly,
    StoreRefused,
    UnknownMatch,
)
from einhorn_table.history.export import is_spreadsheet_export, match_csv
from einhorn_table.history.narrate import narrate
from einhorn_table.history.paths import DATABASE, PHOTOS, state_dir
from einhorn_table.history.state_lock import PLAY, held_by
from einhorn_table.history.stats import format_statistics, gather
from einhorn_table.history.store import MatchStore
from einhorn_table.history.view import NOT_FINISHED, closing_line, history_line
from einhorn_table.rules import NotationError, RuleViolation, replay
from einhorn_table.text_files import write_text_whole
from einhorn_table.words import command_name, shown_width


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "history",
        help="the matches kept: list, show, export, import, practice, stats",
        description="Every match played at the table is kept in the state directory "
        "(--state-dir, else EINHORN_STATE_DIR, systemd's STATE_DIRECTORY, "
        "$XDG_STATE_HOME/einhorn-table or ~/.local/state/einhorn-table).",
    )
    parser.add_argument("--state-dir", default=None, help="where the history is kept")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    listing = actions.add_parser("list", help="the matches, newest first")
    listing.add_argument("--limit", type=whole_number(1), default=20, help="how many (default 20)")
    listing.add_argument("--all", action="store_true", help="every match")
    _state_dir_also_here(listing)
    listing.set_defaults(handler=_naming_the_folder(run_list))

    show = actions.add_parser("show", help="one match, turn by turn")
    show.add_argument("match_id", metavar="ID")
    _state_dir_also_here(show)
    show.set_defaults(handler=_naming_the_folder(run_show))

    export = actions.add_parser("export", help="one match as match notation or CSV")
    export.add_argument("match_id", metavar="ID")
    export.add_argument("--format", choices=("notation", "csv"), default="notation")
    export.add_argument("--output", "-o", default=None, help="a file (default: print it)")
    _state_dir_also_here(export)
    export.set_defaults(handler=_naming_the_folder(run_export))

    importing = actions.add_parser("import", help="keep match files from another table")
    importing.add_argument("files", nargs="+", metavar="FILE")
    _state_dir_also_here(importing)
    importing.set_defaults(handler=_naming_the_folder(run_import))

    practice = actions.add_parser(
        "practice", help="mark a match as practice, left out of the stats (--undo: count it)",
        description="A practice match (a teaching game, a try of the table) is kept and "
        "listed, but left out of the statistics. --undo counts it again.")
    practice.add_argument("match_id", metavar="ID")
    practice.add_argument("--undo", action="store_true",
                          help="count the match in the statistics again")
    _state_dir_also_here(practice)
    practice.set_defaults(handler=_naming_the_folder(run_practice))

    stats = actions.add_parser("stats", help="players, calls, the unicorn, the dice")
    stats.add_argument("--player", default=None, help="only this player's figures")
    stats.add_argument("--charts", default=None, metavar="DIR",
                       help="also write PNG charts into DIR (needs matplotlib)")
    _state_dir_also_here(stats)
    stats.set_defaults(handler=_naming_the_folder(run_stats))


def history_command(args: argparse.Namespace, folder: Path | None = None) -> str:
    """The history's command as the person runs the companion, with the folder they
    named (--state-dir): the commands a message gives then look in the same history.
    ``folder``: named whether or not they did (a command to run as another user, whose
    own state directory is elsewhere)."""
    words = f"{command_name()} history"
    named = folder if folder is not None else args.state_dir
    if named is not None:
        words += f" --state-dir {shlex.quote(str(named))}"
    return words


def _naming_the_folder(handler: Callable[[argparse.Namespace], int]
                       ) -> Callable[[argparse.Namespace], int]:
    """``handler``, whose errors' commands (`einhorn-table history list` shows the
    matches kept...) name the folder given with --state-dir; a match not kept in the
    person's own history is looked for in the service's too (see :func:`_service_note`)."""
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except HistoryError as error:
            plain = f"`{command_name()} history "
            said = str(error)
            if args.state_dir is not None and plain in said \
                    and history_command(args) not in said:
                said = said.replace(plain, f"`{history_command(args)} ")
            note = _service_note(args) if isinstance(error, UnknownMatch) else None
            if note is not None:  # (a match kept in the service's history, maybe)
                said = f"{said}. {note}"
            if said == str(error):
                raise  # (no folder named, no command given, or given with the folder)
            raise type(error)(said) from None
    return run


def _state_dir_also_here(action: argparse.ArgumentParser) -> None:
    """--state-dir after the action too (`history list --state-dir DIR`), as play and the
    demo take it after their names."""
    action.add_argument("--state-dir", default=argparse.SUPPRESS, help="where the history "
                        "is kept (as before the action)")


def open_store(args: argparse.Namespace, *, reading: bool = True,
               changing: bool = False) -> MatchStore:
    """The history in the state directory; only ``import`` (``reading=False``) makes one
    where there is none: looking at a folder without one (a typo, another user's home)
    says so instead of leaving an empty history there. ``changing``: a history there
    already, opened to be written (``practice``). A folder or history file the user may
    not read, or (for ``practice`` and ``import``) not change, is refused with which of
    them it is, why, and what to do: the same command as the table's service's user,
    for the service's own folder."""
    folder = state_dir(args.state_dir, os.environ, Path.home())
    writing = changing or not reading
    refused = refusal(folder, writing=writing)
    if refused is not None:
        raise _refused(args, folder, refused)
    there = (folder / DATABASE).is_file()
    if (reading or changing) and not there:
        raise HistoryError(f"no match history in {folder}. {_where_else(args, folder)}")
    if reading and not changing:  # (no write access needed: a copied folder, a card
        # mounted read-only)
        return MatchStore.for_reading(folder, now=lambda: datetime.now(UTC))
    return MatchStore(folder, now=lambda: datetime.now(UTC))


def _refused(args: argparse.Namespace, folder: Path,
             refused: Refusal) -> StoreNotReadable | StoreRefused:
    """What is said where this user may not read (or change) the history in ``folder``:
    :class:`StoreNotReadable` where even reading is refused."""
    from einhorn_table.calibration.paths import SERVICE_USER, kept_by_the_service

    service = (_service_words(args, folder)
               if kept_by_the_service(folder / DATABASE) else None)
    again = f"{history_command(args, folder)} {_action_words(args, service=False)}"
    words = refused_words(refused, folder, as_another=again, service_user=SERVICE_USER,
                          service=service)
    return StoreNotReadable(words) if refused.reading else StoreRefused(words)


def _where_else(args: argparse.Namespace, folder: Path) -> str:
    """Where the person's matches may be, when ``folder`` (chosen for them) keeps none:
    the table's service's history where this computer has one, with the command that
    reads it."""
    from einhorn_table.calibration.paths import SERVICE_STATE_DIR, SERVICE_USER

    if _service_history_elsewhere(args, folder):
        return ("The table's service keeps its matches in its own folder, "
                f"{SERVICE_STATE_DIR}, which only its user {SERVICE_USER} may read: "
                f"`{_as_the_service(args)}`.")
    return ("Name the folder the table keeps it in with --state-dir (the Pi's service keeps "
            f"it in {SERVICE_STATE_DIR}: read it as the service's user, sudo -u "
            f"{SERVICE_USER}); a demo keeps its own, in its --state-dir.")


def _service_history_elsewhere(args: argparse.Namespace, folder: Path) -> bool:
    """Whether this computer's table service keeps a history of its own, other than
    ``folder``, which the person did not choose (no --state-dir, no EINHORN_STATE_DIR):
    their matches at the table are there, not in their own ~/.local/state."""
    from einhorn_table.calibration.paths import SERVICE_STATE_DIR

    if args.state_dir is not None or os.environ.get("EINHORN_STATE_DIR"):
        return False
    try:
        return (SERVICE_STATE_DIR.is_dir()
                and not os.path.samefile(SERVICE_STATE_DIR, folder))
    except OSError:  # (``folder`` is not there)
        return True


def _service_note(args: argparse.Namespace) -> str | None:
    """Where the history read (chosen for the person: their own ~/.local/state) is not
    the table's service's, which this computer has: which one was read, and the command
    that reads the service's, where the matches played at the table are."""
    folder = state_dir(args.state_dir, os.environ, Path.home())
    if not _service_history_elsewhere(args, folder):
        return None
    from einhorn_table.calibration.paths import SERVICE_STATE_DIR

    return (f"This is the history in {folder}, of the table run by hand; the table's "
            f"service keeps its own in {SERVICE_STATE_DIR}: `{_as_the_service(args)}`.")


def _as_the_service(args: argparse.Namespace, folder: Path | None = None) -> str:
    """This history command as the table's service's user, in ``folder`` (None: the
    service's own folder)."""
    from einhorn_table.calibration.paths import SERVICE_STATE_DIR, SERVICE_USER

    return (f"sudo -u {SERVICE_USER} {command_name()} history --state-dir "
            f"{shlex.quote(str(folder or SERVICE_STATE_DIR))} {_action_words(args)}")


def _not_done(error: StoreReadOnly, args: argparse.Namespace, undone: str) -> StoreReadOnly:
    """``error`` of a ``practice`` or ``import`` (``undone``: what was not done): as it
    said which part of the history refused, else (SQLite refused to write) why."""
    if isinstance(error, StoreNotReadable | StoreRefused):
        return type(error)(f"{undone}: {error}")
    return _not_writable(args, undone)


def _not_writable(args: argparse.Namespace, undone: str) -> StoreReadOnly:
    """What ``practice`` and ``import`` say where SQLite would not write the history: not
    the table's "restart the table" (which does not help), but which part of it refused
    and who may write it."""
    folder = state_dir(args.state_dir, os.environ, Path.home())
    refused = refusal(folder, writing=True)
    if refused is not None:
        return StoreRefused(f"{undone}: {_refused(args, folder, refused)}")
    from einhorn_table.calibration.paths import kept_by_the_service

    if kept_by_the_service(folder / DATABASE):
        return StoreReadOnly(f"{undone}: you may not write {folder}. "
                             f"{_service_words(args, folder)}")
    why = why_not_writable(folder)
    if why is not None:
        return StoreReadOnly(f"{undone}: you may not write {folder}: {why}. Make it "
                             "writable, or name another folder with --state-dir.")
    quoted = shlex.quote(str(folder))
    return StoreReadOnly(
        f"{undone}: you may not write {folder}. It belongs to another user, or lies on a "
        f"card mounted read-only: run the command as the user it belongs to (`ls -ld "
        f"{quoted}` names them), or mount the card so that it may be written.")


def _service_words(args: argparse.Namespace, folder: Path) -> str:
    """What to do in the table's service's own folder, which only its user may read and
    change: the same command as that user (as ``doctor`` is run there)."""
    from einhorn_table.calibration.paths import SERVICE_USER

    copies = _copies_for_the_service(args) if args.action == "import" else ""
    command = copies + _as_the_service(args, folder)
    files = (", with the files copied where that user may read them (/tmp)"
             if copies else "")
    return (f"It is the table's service's folder, which only its user {SERVICE_USER} "
            f"may read and change: run the command as that user{files}: `{command}`")


def _copies_for_the_service(args: argparse.Namespace) -> str:
    """``cp`` of the files ``import`` was given to /tmp, where the service's user may read
    them (a home folder is the person's own on Raspberry Pi OS), ending in `` && ``; ""
    where all of them lie there already."""
    away = [os.path.abspath(file) for file in args.files
            if _readable_copy(file) != os.path.abspath(file)]
    return f"cp -- {shlex.join(away)} {SHARED_FOLDER}/ && " if away else ""


#: Where a file is put for the table's service's user to read it.
SHARED_FOLDER = "/tmp"


def _readable_copy(file: str) -> str:
    """Where the service's user reads ``file`` from: itself in /tmp, else its copy there."""
    path = os.path.abspath(file)
    if os.path.dirname(path) == SHARED_FOLDER:
        return path
    return os.path.join(SHARED_FOLDER, os.path.basename(path))


def _action_words(args: argparse.Namespace, *, service: bool = True) -> str:
    """The history's action as it was given (``practice 12 --undo``), for a command to
    run again as another user. An export goes to the file through the shell
    (``> FILE``), which the person at the terminal writes, not that user. An import
    takes the files from /tmp for the table's service's user (``service``), else
    where they lie (named in full)."""
    match args.action:
        case "list":
            return "list --all" if args.all else "list" if args.limit == 20 else \
                f"list --limit {args.limit}"
        case "show":
            return f"show {shlex.quote(args.match_id)}"
        case "export":
            words = f"export {shlex.quote(args.match_id)}"
            words += " --format csv" if args.format == "csv" else ""
            return words + (f" > {shlex.quote(args.output)}" if args.output else "")
        case "import" if service:  # (from /tmp: that user may not read the person's home)
            return "import " + shlex.join(_readable_copy(file) for file in args.files)
        case "import":
            return "import " + shlex.join(os.path.abspath(file) for file in args.files)
        case "practice":
            return f"practice {shlex.quote(args.match_id)}" + (" --undo" if args.undo else "")
        case _:
            words = "stats"
            if args.player is not None:
                words += f" --player {shlex.quote(args.player)}"
            if args.charts is not None:
                words += f" --charts {shlex.quote(os.path.abspath(args.charts))}"
            return words


def run_list(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        rows = store.matches(limit=None if args.all else args.limit)
        total = store.count()
    note = _service_note(args)
    if not rows:
        print(f"No matches kept yet in {store.path}." + (f" {note}" if note else ""))
        return 0
    now = _played_now(store.state_dir)
    lines = [history_line(row) for row in rows]
    if now is not None:  # ("not finished (practice)": "being played now (practice)")
        lines = [replace(x, state=x.state.replace(NOT_FINISHED, BEING_PLAYED))
                 if x.match_id == now[0] else x for x in lines]
    header = ("id", "date", "players", "variant", "winner", "games", "state")
    table = [header, *[(x.match_id, x.date, x.players, x.variant, x.winner, x.games, x.state)
                       for x in lines]]
    sys.stdout.write(_aligned(table))
    if len(rows) < total:
        print(f"({len(rows)} of {total} matches; --all shows every one)")
    if note is not None:
        print(note)
    return 0


def _aligned(table: Sequence[Sequence[str]]) -> str:
    """The rows as lines, each cell padded to its column's width in a terminal. A column
    of plain ASCII (most) is padded by one format string for the whole line; only a
    cell with other letters is measured, once: `list --all` over a club's thousands of
    matches answers at once."""
    fields = []
    columns: list[Sequence[str]] = []
    for column in zip(*table, strict=True):
        if "".join(column).isascii():
            fields.append(f"{{:<{max(map(len, column))}}}")
            columns.append(column)
            continue
        shown = [len(cell) if cell.isascii() else shown_width(cell) for cell in column]
        width = max(shown)
        fields.append("{}")
        columns.append([cell + " " * (width - n) for cell, n in zip(column, shown, strict=True)])
    line = "  ".join(fields).format
    return "".join([line(*row).rstrip() + "\n" for row in zip(*columns, strict=True)])


#: The state ``history list`` gives the match the table (or a demo) plays right now.
BEING_PLAYED = "being played now"


def _played_now(state: Path) -> tuple[str, str] | None:
    """The match played in ``state`` right now, as its lock file says, and by what:
    ("7", "on the table") or ("2", "in a demo"); None where none is (or it cannot be
    told)."""
    holder = held_by(state)
    if holder is None or not holder.match:
        return None
    return holder.match, "on the table" if holder.program == PLAY else "in a demo"


def run_show(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        row = store.get(args.match_id)
        lines = store.lines(args.match_id)
    line = history_line(row)
    print(f"Match {row.match_id}, {line.date}: {line.state}")
    try:
        print("\n".join(narrate(lines)))
        # (A finished match's story ends with its own last line: only one that did not
        # finish is replayed again for its stashes as it stopped.)
        now = _played_now(store.state_dir)
        played_by = now[1] if now is not None and now[0] == row.match_id else None
        closing = None if row.state == "finished" else closing_line(
            row, replay(lines).ledger(), played_by=played_by, begun=len(lines) > 1)
    except RuleViolation as error:
        raise HistoryError(f"match {row.match_id} does not replay ({error})") from None
    if closing is not None:
        print(closing)
    return 0


def run_export(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        lines = store.export_lines(args.match_id)
        row = store.get(args.match_id)
    text = "".join(line + "\n" for line in lines) if args.format == "notation" else \
        match_csv(lines)
    now = _played_now(store.state_dir)
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_whole(Path(args.output), text)
        print(f"match {args.match_id} written to {args.output}")
    if now is not None and now[0] == row.match_id:  # (on stderr: the file stays whole)
        print(f"match {row.match_id} is being played now {now[1]}: this file holds it as "
              "far as it went, and is kept as abandoned where it is imported; export it "
              "again once the match is over", file=sys.stderr)
    return 0


def write_whole(path: Path, text: str) -> None:
    """Write an exported match to ``path`` whole or not at all (see
    :func:`~einhorn_table.text_files.write_text_whole`)."""
    try:
        write_text_whole(path, text)
    except OSError as error:
        plain = not path.exists() or path.is_file()
        raise HistoryError(f"cannot write {path} ({error.strerror})"
                           + ("; nothing was written there" if plain else "")) from None


def _disk_full(args: argparse.Namespace, undone: str) -> StoreFull:
    """What ``practice`` and ``import`` say on a full disk: not the table's "restart the
    table; it will offer to continue the match", but what to free and to run the
    command again."""
    folder = state_dir(args.state_dir, os.environ, Path.home())
    return StoreFull(
        f"{undone}: the disk holding {folder} is full; the history is as it was. Free some "
        f"space (old roll photos in {folder / PHOTOS}, files you no longer need; `df -h "
        f"{shlex.quote(str(folder))}` shows the space left), then run the command again.")


def run_import(args: argparse.Namespace) -> int:
    try:
        store = open_store(args, reading=False)
    except StoreReadOnly as error:
        raise _not_done(error, args, "nothing was imported") from None
    except StoreFull:
        raise _disk_full(args, "nothing was imported") from None
    with store:
        return _import_files(args, store)


def _import_files(args: argparse.Namespace, store: MatchStore) -> int:
    status = 0
    for number, path in enumerate(args.files):
        try:
            data = Path(path).read_bytes()
            if is_spreadsheet_export(data):
                print(f"{path}: this is a match exported for a spreadsheet (--format "
                      "csv), which cannot be imported; on the table that played the match, "
                      "export it as match notation (`einhorn-table history export ID -o "
                      "FILE`, the default format) and import that",
                      file=sys.stderr)
                status = 1
                continue
            text = _match_text(data)
            imported = store.import_notation(text.splitlines())
        except OSError as error:
            print(f"{path}: cannot read this file ({error.strerror}); nothing imported",
                  file=sys.stderr)
            status = 1
            continue
        except UnicodeDecodeError:
            print(f"{path}: this is not a text file of match notation; nothing imported",
                  file=sys.stderr)
            status = 1
            continue
        except RuleViolation as error:
            print(f"{path}: {error}; nothing of this file was imported"
                  f"{_cut_short(text, error)}", file=sys.stderr)
            status = 1
            continue
        except (StoreReadOnly, StoreFull) as error:
            rest = "nothing was imported" if number == 0 else \
                f"{path} and the files after it were not imported"
            if isinstance(error, StoreFull):
                raise _disk_full(args, rest) from None
            raise _not_writable(args, rest) from None
        except EinhornError as error:
            print(f"{path}: {error}", file=sys.stderr)
            status = 1
            continue
        row = store.get(imported.match_id)
        how = (f"completed match {imported.match_id}, whose first "
               f"{imported.held_lines} lines were kept already" if imported.held_lines
               else f"imported as match {imported.match_id}")
        print(f"{path}: {how} ({row.state}, {', '.join(row.players)})")
    return status


def _match_text(data: bytes) -> str:
    """A match file's text (Notepad's byte-order mark left out). A file cut short in the
    middle of a letter of two bytes or more ("ë" in "Zoë") is read up to that letter, so
    that the import says it was cut short rather than that it is no text file."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if error.end != len(data) or error.reason != "unexpected end of data":
            raise
        return data[: error.start].decode("utf-8-sig")


def _cut_short(text: str, error: RuleViolation) -> str:
    """What to do, when the line refused is the file's last and has no end: the file was
    cut short while it was written or copied (a full stick, a pulled plug)."""
    if (not isinstance(error, NotationError) or text.endswith("\n")
            or error.line != len(text.splitlines())):
        return ""
    return (". The file stops in the middle of that line: it was cut short while it was "
            "written or copied. Export or copy it again; or delete that last line to import "
            "the rest (a match cut short is kept as abandoned, its rolls counted)")


def run_practice(args: argparse.Namespace) -> int:
    try:
        with open_store(args, changing=True) as store:
            changed = store.set_practice(args.match_id, not args.undo)
    except (StoreReadOnly, StoreFull) as error:
        undone = f"match {args.match_id} was not " + (
            "counted again" if args.undo else "marked practice")
        if isinstance(error, StoreFull):
            raise _disk_full(args, undone) from None
        raise _not_done(error, args, undone) from None
    again = f"`{history_command(args)} practice {args.match_id}"
    if args.undo:
        print(f"match {args.match_id} counts in the statistics again" if changed else
              f"match {args.match_id} is not practice; it counts in the statistics already")
    elif changed:
        print(f"match {args.match_id} is practice now: kept, but left out of the statistics "
              f"({again} --undo` counts it again)")
    else:
        print(f"match {args.match_id} is practice already ({again} --undo` counts it again)")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        stats = gather(store, args.player)
        unknown = (args.player is not None and not stats.players
                   and not any(c.made for c in stats.calls)
                   and not stats.abandoned and not stats.playing)
        known = [name for (name,) in store.query(
            "SELECT DISTINCT nfc(name) FROM totals_players ORDER BY 1", ())] if unknown else []
        # (not "`history list` shows who played" of a history that keeps no match)
        none_kept = f"the history in {store.state_dir} keeps no matches yet" \
            if unknown and store.count() == 0 else ""
    if unknown:
        typed = unicodedata.normalize("NFC", args.player).casefold()
        alike = [name for name in known if name.casefold() == typed]
        hint = (f"did you mean {alike[0]!r}?" if alike
                else f"the players kept are {', '.join(known[:12])}"
                + (f" and {len(known) - 12} more" if len(known) > 12 else "") if known
                else none_kept or f"`{history_command(args)} list` shows who played")
        note = _service_note(args)
        raise HistoryError(f"no matches of a player called {args.player!r} are kept; {hint}"
                           + (f". {note}" if note else ""))
    print(format_statistics(stats))
    if args.charts:
        from einhorn_table.history.charts import chart_names, stand_in_words, write_charts

        names = chart_names(stats)
        for path in write_charts(stats, Path(args.charts), names):
            print(f"chart written: {path}")
        told = stand_in_words(names)
        if told is not None:
            print(told)
    note = _service_note(args)
    if note is not None:
        print(note)
    return 0
