"""A stored match told turn by turn, in words (``history show``)."""

from __future__ import annotations

from collections.abc import Iterable

from einhorn_table.rules import (
    CENTRAL,
    WIN,
    AuctionResult,
    Awaiting,
    Category,
    Input,
    Match,
    MatchEnd,
    Phase,
    StartRoll,
    TiebreakRoll,
    Topup,
    TurnResult,
    Undo,
    categorize,
    match_end,
    replay_steps,
)
from einhorn_table.standings import dry_while_dealing, most_stones, reached_target
from einhorn_table.words import counted, input_words, joined, party_words


def _dice(dice: Iterable[int]) -> str:
    return " ".join(str(d) for d in dice)


def describe_turn(result: TurnResult) -> str:
    """E.g. "Ana called Einhorn, rolled 1 3 5 = Einhorn: +5 from the central stash"."""
    called = f"called {result.call.label}" if result.call is not None else "stayed silent"
    text = f"{result.player} {called}, rolled {_dice(result.dice)} = {result.category.label}"
    if result.amount == WIN:
        won = sum(t.stones for t in result.transfers if t.payee == result.player)
        text += f": called and rolled, {result.player} takes every game stone (+{won})"
    elif result.owner_einhorn:
        text += f": {result.player} owns the unicorn, so nothing happens"
    else:
        moves = []
        for k, t in enumerate(result.transfers):
            # 4.7: a payer who holds less than the amount pays all they hold.
            short = (f" ({t.stones + result.short_by} due, all "
                     f"{'it' if t.payer == CENTRAL else t.payer} had)"
                     if k == 0 and result.short_by else "")
            # A non-owner settles with the central stash (4.6); a stone from a player
            # in the turn the unicorn passes is the pass stone (wuerfeln, 4.8).
            if t.payee == result.player and t.payer != CENTRAL and result.unicorn_to:
                moves.append(f"+{t.stones} from {t.payer} for the unicorn")
            elif t.payee == result.player:
                moves.append(f"+{t.stones} from {party_words(t.payer)}{short}")
            elif t.payer == result.player:
                moves.append(f"-{t.stones} to {party_words(t.payee)}{short}")
        text += ": " + (", ".join(moves) if moves else "no stones move")
    if result.unicorn_to is not None:
        text += f"; {result.unicorn_to} takes the unicorn"
    return text


def _describe_roll(item: StartRoll | TiebreakRoll) -> str:
    if isinstance(item, StartRoll):
        return f"{item.player} rolled {_dice(item.dice)} for the start (sum {sum(item.dice)})"
    return f"{item.player} rolled the tie-break: {_dice(item.dice)} (sum {sum(item.dice)})"


def _describe_topups(topups: list[Topup]) -> str:
    """One line for a game's top-ups, e.g. "Top-ups from the stashes: Ana 2, Cem 1"."""
    moved = [f"{t.player} {t.stones}" for t in topups if t.stones]
    return ("Top-ups from the stashes: " + ", ".join(moved) if moved
            else "Nobody topped up from their stash")


def narrate(lines: Iterable[str]) -> list[str]:
    """The match turn by turn: one line of words per turn, auction, game end and more."""
    out: list[str] = []
    match: Match | None = None
    announced = False
    topups: list[Topup] = []  # a game's top-ups, told in one line once they are done
    last_input: Input | None = None  # the last input in force: what an undo withdraws
    phase = Phase.START
    for _, step, outcome in replay_steps(lines):
        if match is None:
            match = step
            ledger = match.ledger()
            target = f", to {counted(ledger.target, 'stone')}" if ledger.target else ""
            out.append(f"{joined(match.names)} play {ledger.variant}, "
                       f"{counted(ledger.games, 'game')}{target}; central stash {ledger.central}")
            continue
        item = match.record[-1]
        game = match.ledger().game
        withdrawn, last_input = last_input, match.inputs[-1] if match.inputs else None
        # A tiebreak_roll breaks an auction's tie, or a tie for the match (RULES.md 6).
        rolloff, phase = phase is Phase.ROLLOFF, match.state.phase
        if isinstance(item, Topup):
            topups.append(item)
            continue
        if topups:
            out.append(f"  {_describe_topups(topups)}")
            topups = []
        if isinstance(item, Undo):
            assert withdrawn is not None  # the rules refuse an undo with nothing to undo
            out.append(f"  Undo: {input_words(withdrawn)} was withdrawn")
            announced = announced and match.over
            continue
        if isinstance(outcome, TurnResult):
            game_of_turn = game if not outcome.game_over or outcome.match_over else game - 1
            out.append(f"Game {game_of_turn} · {describe_turn(outcome)}")
            if outcome.game_over:
                stashes = ", ".join(f"{p.name} {p.stash}" for p in match.ledger().players)
                out.append(f"  Game {game_of_turn} over. Stashes: {stashes}")
        elif isinstance(outcome, AuctionResult):
            bids = ", ".join(f"{name} {stones}" for name, stones in outcome.bids)
            if outcome.winner is not None:
                out.append(f"Auction for game {game} · bids {bids}: "
                           f"{outcome.winner} takes the unicorn")
            else:
                out.append(f"Auction for game {game} · bids {bids}: a tie between "
                           f"{joined(outcome.tied)}, who roll for it")
        elif isinstance(item, TiebreakRoll) and rolloff:
            einhorn = categorize(item.dice) is Category.EINHORN
            out.append(f"  {item.player} rolled {_dice(item.dice)} for the match: "
                       + ("an Einhorn" if einhorn else "no Einhorn"))
        elif isinstance(item, StartRoll | TiebreakRoll):
            out.append(f"  {_describe_roll(item)}")
            ledger = match.ledger()
            if isinstance(item, StartRoll) and ledger.awaiting is Awaiting.ROLL:
                out.append(f"  {ledger.to_act} starts")
            # The roll that breaks an auction's tie (a tie for the match ends it).
            if (isinstance(item, TiebreakRoll) and not match.over
                    and ledger.awaiting is not Awaiting.TIEBREAK_ROLL):
                out.append(f"  {ledger.unicorn} takes the unicorn")
        if phase is Phase.ROLLOFF and not rolloff:
            out.append(f"  {joined(most_stones(match.ledger()))} tied for the most stones: "
                       "they roll until one rolls an Einhorn")
        if match.over and not announced:
            announced = True
            ledger = match.ledger()
            end = match_end(ledger)
            dry = (f"the central stash ran dry while dealing for game {ledger.game}"
                   if dry_while_dealing(ledger) else "the central stash is empty")
            why = (f" ({dry})" if end is MatchEnd.CENTRAL_EMPTY
                   else f" ({joined(reached_target(ledger))} reached {ledger.target})"
                   if end is MatchEnd.TARGET_REACHED
                   else "")
            if ledger.winner is not None:
                best = ledger.player(ledger.winner).stash
                tie = (" (the first to roll an Einhorn)" if len(most_stones(ledger)) > 1
                       else "")
                out.append(f"Match over{why}: {ledger.winner} wins with {best} stones{tie}")
    if topups:
        out.append(f"  {_describe_topups(topups)}")
    return out
