"""A stored match for a spreadsheet: one CSV row per line, with the ledger after it."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

from einhorn_table.rules import (
    WIN,
    Bid,
    Call,
    Category,
    Counterparty,
    Roll,
    StartRoll,
    TiebreakRoll,
    Topup,
    TurnResult,
    categorize,
    replay_steps,
)

#: The first columns of the CSV export (each player's two columns follow). ``call`` and
#: ``category`` are in the rule book's words ("Das Unvermeidliche", "silent"), as the
#: screens say them; ``call_code`` and ``category_code`` are the notation's names
#: ("unvermeidlich", "silent"), which stay the same for a script or a formula.
CSV_HEADER = ("seq,game,type,player,call,dice,category,amount,stones,party,central,unicorn,"
              "to_act,call_code,category_code")
#: The columns every export began with, also before the code columns: what ``import``
#: knows a spreadsheet export by.
_FIRST_COLUMNS = CSV_HEADER.split(",")[:13]

#: What a spreadsheet puts between the columns when it saves a CSV file again: a comma,
#: a semicolon (Excel and LibreOffice where the decimal point is a comma, as in German)
#: or a tab (Excel's "Unicode text").
_SEPARATORS = re.compile(r"[,;\t]")


def is_spreadsheet_export(data: bytes) -> bool:
    """Whether a file begins with the header of a ``--format csv`` export, also as a
    spreadsheet saved it again: semicolons or tabs between the columns, the columns
    quoted, in UTF-8 (with Excel's byte-order mark or without), UTF-16 or Windows'
    own letters (the header is plain ASCII in all of them)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data[:8192].decode("utf-16", errors="replace")
    else:
        text = data[:4096].decode("utf-8-sig", errors="replace")
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    columns = [column.strip().strip('"').strip() for column in _SEPARATORS.split(first)]
    return columns[: len(_FIRST_COLUMNS)] == _FIRST_COLUMNS


def _named(code: str) -> str:
    """A call's or category's notation name as the rule book and the screens say it."""
    return Category(code).label if code in Category.__members__.values() else code


def match_csv(lines: Iterable[str]) -> str:
    """Columns: seq, game, type, player, call, dice, category, amount, stones, party,
    central, unicorn, to_act, call_code, category_code, then each player's game stones
    and stash after the line (see :data:`CSV_HEADER`).

    ``game`` is the game a line belongs to (the turn that ends a game is in that game,
    not the next). The unicorn owner's turn takes two rows: the roll, with its call,
    and the counterparty, with the amount paid, its dice and call again.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names: tuple[str, ...] = ()
    in_force = "silent"  # the call in force before this line, as the ledger showed it
    for seq, (_, match, outcome) in enumerate(replay_steps(lines)):
        if seq == 0:
            names = match.names
            header = CSV_HEADER.split(",")
            for name in names:
                header += [f"{name} game stones", f"{name} stash"]
            writer.writerow(header)
            continue
        item = match.record[-1]
        ledger = match.ledger()
        player = getattr(item, "player", "")
        call = dice = category = amount = stones = party = ""
        if isinstance(item, Call):
            call = item.call.value if item.call else "silent"
        if isinstance(item, Roll | StartRoll | TiebreakRoll):
            dice = " ".join(str(d) for d in item.dice)
            category = categorize(item.dice).value
        if isinstance(item, Roll):
            call = in_force
        if isinstance(item, Bid | Topup):
            stones = str(item.stones)
        if isinstance(item, Counterparty):
            party = item.party
        game = ledger.game
        if isinstance(outcome, TurnResult):
            call = outcome.call.value if outcome.call else "silent"
            amount = "win" if outcome.amount == WIN else str(outcome.amount)
            dice = " ".join(str(d) for d in outcome.dice)
            category = outcome.category.value
            if outcome.game_over and not outcome.match_over:
                game -= 1  # the deal for the next game has begun
        in_force = ledger.call.value if ledger.call is not None else "silent"
        row = [str(seq), str(game), item.type, player, _named(call), dice, _named(category),
               amount, stones, party, str(ledger.central), ledger.unicorn or "",
               ledger.to_act or "", call, category]
        for p in ledger.players:
            row += [str(p.game_stones), str(p.stash)]
        writer.writerow(row)
    return out.getvalue()
