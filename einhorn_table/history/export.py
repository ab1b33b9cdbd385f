"""A stored match for a spreadsheet: one CSV row per line, with the ledger after it."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

from einhorn_table.rules import (
    Bid,
    Call,
    Category,
    Counterparty,
    PlayerLedger,
    Roll,
    StartRoll,
    TiebreakRoll,
    Topup,
    Transfer,
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
    and stash after the line and the change of their stones by the line (see
    :data:`CSV_HEADER`). The first row is the setup line (seq 0), with the deal.

    ``game`` is the game a line belongs to (the turn that ends a game is in that game,
    not the next). The unicorn owner's turn takes two rows: the roll, with its call,
    and the counterparty, with the amount paid, its dice and call again. ``amount`` is
    what the player of the row received or paid in the turn, as the stones moved; the
    ``change`` columns count every stone (the deal, bids, the owner's counterparty,
    undos), so that each one adds up to that player's stones at the end.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names: tuple[str, ...] = ()
    in_force = "silent"  # the call in force before this line, as the ledger showed it
    held: dict[str, int] = {}  # each player's stones, game stones and stash, so far
    for seq, (_, match, outcome) in enumerate(replay_steps(lines)):
        ledger = match.ledger()
        if seq == 0:
            names = match.names
            header = CSV_HEADER.split(",")
            for name in names:
                header += [f"{name} game stones", f"{name} stash", f"{name} change"]
            writer.writerow(header)
            held = dict.fromkeys(names, 0)
            row = [str(seq), str(ledger.game), "setup", "", "", "", "", "", "", "",
                   str(ledger.central), "", "", "", ""]
            writer.writerow(row + _stones(ledger.players, held))
            continue
        item = match.record[-1]
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
            amount = str(_moved_to(outcome.player, outcome.transfers))
            dice = " ".join(str(d) for d in outcome.dice)
            category = outcome.category.value
            if outcome.game_over and not outcome.match_over:
                game -= 1  # the deal for the next game has begun
        in_force = ledger.call.value if ledger.call is not None else "silent"
        row = [str(seq), str(game), item.type, player, _named(call), dice, _named(category),
               amount, stones, party, str(ledger.central), ledger.unicorn or "",
               ledger.to_act or "", call, category]
        writer.writerow(row + _stones(ledger.players, held))
    return out.getvalue()


def _moved_to(player: str, transfers: Iterable[Transfer]) -> int:
    """The stones ``player`` received (positive) or paid (negative) in a turn: its
    amount as paid (a short payment as far as it went), a Dreifaltigkeit's sweep, and
    the stone that passes with the unicorn (``wuerfeln``)."""
    return sum(t.stones for t in transfers if t.payee == player) - sum(
        t.stones for t in transfers if t.payer == player)


def _stones(players: Iterable[PlayerLedger], held: dict[str, int]) -> list[str]:
    """Each player's game stones, stash and the change of their stones by this line
    (``held``: the stones before it, updated), as the columns after ``to_act``."""
    columns: list[str] = []
    for p in players:
        now = p.game_stones + p.stash
        columns += [str(p.game_stones), str(p.stash), str(now - held[p.name])]
        held[p.name] = now
    return columns
