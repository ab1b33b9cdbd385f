"""What the screen shows, as plain values: built from the controller and the time.

Pure (no pygame): :func:`build_view` decides which screen it is, what each
player's card says, where stones are flying and which buttons mean what, and the
renderer only draws it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from einhorn_table.rules import (
    CENTRAL,
    WIN,
    AuctionResult,
    Awaiting,
    Bid,
    Category,
    Ledger,
    MatchState,
    Phase,
    Roll,
    StartRoll,
    TiebreakRoll,
    TurnResult,
    categorize,
)
from einhorn_table.screen.banner import save_banner
from einhorn_table.screen.stone_flight import gone_and_landed
from einhorn_table.standings import ending_words, tie_words
from einhorn_table.stations.gesture_table import Context, HelpLine, help_lines, help_title
from einhorn_table.stations.gestures import GestureTiming
from einhorn_table.table.controller import PendingRoll, Seat, TableController
from einhorn_table.table.doubt import DoubtKind, alike_seats, dice_owners
from einhorn_table.table.together import told_apart
from einhorn_table.words import counted, joined, number_word

if TYPE_CHECKING:
    from einhorn_table.history.view import HistorySummary
    from einhorn_table.ports import Image

RESULT_SECONDS = 3.5
GAME_END_SECONDS = 8.0
REVEAL_SECONDS = 5.0
FLOW_SECONDS = 1.4

#: Okabe-Ito colours (told apart by most colour-blind players), one per seat.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (204, 121, 167),
    (213, 94, 0),
)


class Marker(StrEnum):
    """The second cue beside the colour: every seat has its own shape."""

    CIRCLE = "circle"
    SQUARE = "square"
    TRIANGLE = "triangle"
    DIAMOND = "diamond"
    STAR = "star"
    HEXAGON = "hexagon"


class ScreenKind(StrEnum):
    START_ROLLS = "start_rolls"
    TURN = "turn"
    RESULT = "result"
    DOUBT = "doubt"
    COUNTERPARTY = "counterparty"
    AUCTION = "auction"
    TOPUP = "topup"
    GAME_END = "game_end"
    FINAL = "final"
    HISTORY = "history"
    RESUME = "resume"


@dataclass(frozen=True)
class PlayerCard:
    name: str
    colour: tuple[int, int, int]
    marker: Marker
    game_stones: int
    stash: int
    active: bool  # it is this player's move (or one of theirs owing)
    unicorn: bool
    status: str  # a short word under the numbers: "done", "rolled 14", "+2"
    #: The colour of the player's dice (RGB), shown as a small die on the card.
    dice_colour: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class DieView:
    value: int | None
    box: tuple[float, float, float, float] | None  # in the photo's pixels
    sure: bool
    #: The die's body colour (RGB) as read, to draw it like the real one.
    colour: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Flow:
    """Stones flying: from a slot to a slot (-1 is the central stash, else a seat)."""

    source: int
    target: int
    stones: int
    progress: float  # 0..1


@dataclass(frozen=True)
class ButtonHint:
    sign: str  # "-", "+", "OK", "X"
    category: Category
    does: str  # what it does now; "" when nothing


@dataclass(frozen=True)
class ScreenView:
    kind: ScreenKind
    game: int
    games: int
    central: int
    unicorn: int | None
    players: tuple[PlayerCard, ...]
    title: str
    subtitle: str = ""
    focus: int | None = None  # the seat the title speaks to
    call: Category | None = None
    call_locked: bool = False
    dice: tuple[DieView, ...] = ()
    photo: Image | None = None
    #: Where the reader saw dice in the photo, when they are not shown as ``dice``.
    photo_dice: tuple[DieView, ...] = ()
    category: Category | None = None
    lines: tuple[str, ...] = ()
    flows: tuple[Flow, ...] = ()
    choices: tuple[str, ...] = ()
    chosen: int = 0
    entry: tuple[int, ...] = ()
    #: The colour the dice entered by hand are drawn in (None: white).
    entry_colour: tuple[int, int, int] | None = None
    entry_position: int = 0
    number: int | None = None
    buttons: tuple[ButtonHint, ...] = ()
    help_title: str = ""
    help: tuple[HelpLine, ...] = ()
    #: The help's last line: how to close it (the demo names the keys).
    help_close: str = "Middle two buttons together: close this help"
    banner: str = ""
    notice: str = ""
    chart: tuple[tuple[int, ...], ...] = ()
    winner: int | None = None
    #: The match history, on the history screen.
    archive: HistorySummary | None = None
    #: The seats whose buttons the strip tells, where other players' buttons do something
    #: else (the top-ups with the owner calling); empty: everyone the moment asks.
    buttons_for: tuple[int, ...] = ()
    #: The unicorn owner, done with their top-up and calling while the others still top
    #: up: the top-up screen shows their buttons as the categories, the call lit.
    caller: int | None = None
    #: How far a hold of OK at the final standings has come (0 to 1: it counts at 1);
    #: None: nobody holds it.
    held: float | None = None


_SHORT: dict[Context, tuple[str, str, str, str]] = {
    Context.CALL: ("call it", "call it", "call it", "call it"),
    Context.COUNTERPARTY: ("back", "next", "settle", ""),
    Context.BID: ("less", "more", "done", "from 0"),
    Context.TOPUP: ("less", "more", "done", "to 0"),
    Context.CONFIRM_DICE: ("", "", "yes", "no"),
    Context.ENTER_DICE: ("lower", "higher", "next die", "back"),
    Context.FINAL: ("", "history", "hold: new match, same players", ""),
    Context.HISTORY: ("", "back", "", "back"),
    Context.RESUME: ("", "history", "go on", "new match"),
}
SIGNS = ("-", "+", "OK", "X")


def button_hints(context: Context) -> tuple[ButtonHint, ...]:
    words = _SHORT.get(context)
    if words is None:
        return ()
    return tuple(
        ButtonHint(sign, category, word)
        for sign, category, word in zip(SIGNS, _CATEGORY_ORDER, words, strict=True)
    )


def entry_hints(position: int) -> tuple[ButtonHint, ...]:
    """The buttons while dice are entered by hand, at die ``position`` (0..2): OK on the
    third die enters the roll, ✗ on the first leaves for a new throw."""
    less, more, ok, no = button_hints(Context.ENTER_DICE)
    return (less, more, replace(ok, does="done" if position >= 2 else ok.does),
            replace(no, does="roll again" if position == 0 else no.does))


_CATEGORY_ORDER = (Category.UNVERMEIDLICH, Category.WUNSCH, Category.EINHORN,
                   Category.DREIFALTIGKEIT)


def player_cards(ledger: Ledger, seats: Sequence[Seat], unicorn: int | None, active: set[int],
                 status: dict[int, str]) -> tuple[PlayerCard, ...]:
    """A card per player: colour and shape of the seat, stones, stash, what they do."""
    return tuple(
        PlayerCard(
            p.name, SEAT_COLOURS[i % 6], list(Marker)[i % 6], p.game_stones, p.stash,
            i in active, unicorn == i, status.get(i, ""), seats[i].dice_colour,
        )
        for i, p in enumerate(ledger.players)
    )


def in_flight(players: tuple[PlayerCard, ...], central: int, flows: Sequence[Flow],
              ) -> tuple[tuple[PlayerCard, ...], int]:
    """The cards' game stones and the central stash as the stones ``flows`` fly (to the
    ledger's figures once they all landed): a payer's number goes down as its stones
    leave, a payee's goes up as they land."""
    change = {k: 0 for k in range(-1, len(players))}
    for flow in flows:
        gone, landed = gone_and_landed(flow.stones, flow.progress)
        change[flow.source] += flow.stones - gone  # not left yet
        change[flow.target] -= flow.stones - landed  # not landed yet
    cards = tuple(replace(card, game_stones=card.game_stones + change[k])
                  if change[k] else card for k, card in enumerate(players))
    return cards, central + change[-1]


def after_roll(before: Ledger, result: TurnResult) -> Ledger:
    """The ledger as a roll left it: the ledger ``before`` it with the engine's stones and
    unicorn as the roll left them (a game's end banks the game stones and takes the
    unicorn back only after)."""
    left = result.left
    return replace(
        before, central=left.central, unicorn=left.unicorn,
        players=tuple(replace(p, game_stones=stones)
                      for p, stones in zip(before.players, left.game_stones, strict=True)))


def build_view(controller: TableController, now: float) -> ScreenView:
    """The screen for ``controller`` at clock time ``now``."""
    c = controller
    ledger = c.match.ledger()
    state = c.match.state
    names = c.names
    awaiting = ledger.awaiting
    owing = set(state.owing())
    last = c.last
    age = now - last.time if last is not None else 1e9
    status = _statuses(c)
    unicorn = state.unicorn

    def cards(active: set[int]) -> tuple[PlayerCard, ...]:
        return player_cards(ledger, c.seats, unicorn, active, status)

    base = {
        "game": ledger.game,
        "games": ledger.games,
        "central": ledger.central,
        "unicorn": unicorn,
        "banner": _banner(c),
        "notice": c.notice_at(now),
    }
    # Stones fly only over the screen that says what they pay (the roll's result, the
    # bids revealed): where that screen gave way early (the next roller called, a hand
    # lifted the dice out), they have landed; the cards already show where they lie.
    flows = _flows(c, age)
    if c.help is not None and c.help.shown(now):
        base["help_title"] = help_title(c.help.context, names[c.help.player])
        base["help"] = help_lines(c.help.context,  # type: ignore[assignment]
                                  c.camera_lost is not None)
    to_act = state.to_act

    if c.shown_history is not None:
        return ScreenView(ScreenKind.HISTORY, players=cards(set()), title="Match history",
                          archive=c.shown_history.summary,
                          buttons=button_hints(Context.HISTORY), **base)  # type: ignore[arg-type]
    shown_roll = last is not None and (
        isinstance(last.item, Roll | StartRoll | TiebreakRoll)
        or isinstance(last.outcome, TurnResult)
    )
    # The roll (or the auction) that ended the match is shown first, as any other.
    ending_shown = (shown_roll and age < RESULT_SECONDS) or (
        last is not None and isinstance(last.outcome, AuctionResult) and age < REVEAL_SECONDS)
    if awaiting is Awaiting.NOTHING and not ending_shown:
        winner = names.index(ledger.winner) if ledger.winner else None
        held = _next_match_hold(c, now)
        return ScreenView(ScreenKind.FINAL, players=cards(set()), title="Final standings",
                          subtitle=f"{ledger.winner} wins!" if ledger.winner else "",
                          lines=tuple(filter(None, [ending_words(ledger), tie_words(ledger)])),
                          chart=tuple(c.history), winner=winner,
                          buttons=button_hints(Context.FINAL) if c.archive else (),
                          held=held, **base)  # type: ignore[arg-type]
    if c.pending is not None:
        pending = c.pending
        roller = pending.roller
        dice = tuple(DieView(d.value, d.box, d.value is not None, d.color)
                     for d in pending.reading.dice)
        message = pending.doubt.message
        if pending.doubt.kind is DoubtKind.COLOUR:
            colours = c.seat_colours
            seen = dice_owners(pending.reading, colours)
            mine = alike_seats(colours, roller)
            owners = sorted(o for o in seen if o is not None and o not in mine)
            whose = joined([f"{names[o]}'s" for o in owners]) if owners else ""
            message = f"These look like {whose or 'other'} dice, not {names[roller]}'s"
        entering = c.entry is not None
        context = Context.ENTER_DICE if entering else Context.CONFIRM_DICE
        # One sentence said to the roller, as the help's title says it (a name and a
        # colon before the question read as a label); short enough for the chairs.
        title = (f"{names[roller]}, enter your dice" if entering
                 else f"{names[roller]}, are these your dice?")
        return ScreenView(
            ScreenKind.DOUBT, players=cards({roller}), title=title, focus=roller,
            subtitle=message + pending.doubt.again,
            dice=dice, photo=pending.photo,
            entry=tuple(c.entry.values) if c.entry else (),
            entry_colour=_entry_colour(c, pending),
            entry_position=c.entry.position if c.entry else 0,
            buttons=entry_hints(c.entry.position) if c.entry else button_hints(context),
            **base,  # type: ignore[arg-type]
        )
    ended = c.game_ended_at
    if ended is not None and awaiting is Awaiting.BID and \
            RESULT_SECONDS <= now - ended < GAME_END_SECONDS:
        # The counter says the game that is over (the next one's comes with its auction).
        # The cards say only the stones: nobody is to act yet (the auction's "to bid"
        # and its frames come with its own screen).
        banked = player_cards(ledger, c.seats, unicorn, set(), {})
        banking, lines = _game_end_lines(c)
        return ScreenView(ScreenKind.GAME_END, players=banked,
                          title=f"Game {ledger.game - 1} is over",
                          subtitle=banking, chart=tuple(c.history), lines=lines,
                          **{**base, "game": ledger.game - 1})  # type: ignore[arg-type]
    if awaiting is Awaiting.COUNTERPARTY and to_act is not None:
        rolled = _roll_to_settle(c)
        return ScreenView(
            ScreenKind.COUNTERPARTY, players=cards({to_act}), focus=to_act,
            title=_counterparty_title(names[to_act], state.pending_amount or 0),
            subtitle=_counterparty_subtitle(state, to_act),
            dice=_rollers_dice(c, rolled),
            photo=getattr(rolled, "photo", None),
            category=_category_of(rolled),
            choices=tuple("Central" if p == CENTRAL else p for p in c.parties()),
            chosen=c.cursor % len(c.parties()),
            buttons=button_hints(Context.COUNTERPARTY), **base,  # type: ignore[arg-type]
        )
    # The roll's result gives way to the next turn once its roller calls or the dice
    # move (a call pressed, then nothing seen for seconds, was taken for a lost press).
    if shown_roll and last is not None and _turn_begun(c, last.time):
        shown_roll = False
    if shown_roll and last is not None and age < RESULT_SECONDS and last.together:
        rolls = (*last.together, (_player(last), tuple(getattr(last.item, "dice", ()))))
        # Three names at most in the title (six long ones would not fit): the lines
        # name everyone.
        who = joined([name for name, _ in rolls]) if len(rolls) <= 3 else \
            f"{len(rolls)} players"
        players, central = in_flight(cards(set()), ledger.central, flows)
        return ScreenView(
            ScreenKind.RESULT, players=players,
            title=f"{who} rolled together",
            photo=last.photo, lines=(*(
                f"{name}: {' '.join(map(str, dice))} = {sum(dice)}" for name, dice in rolls),
                *_round_lines(c)),
            flows=flows, **{**base, "central": central},  # type: ignore[arg-type]
        )
    if shown_roll and last is not None and age < RESULT_SECONDS:
        rolloff = _in_rolloff(c)
        # Who starts and an auction's tie go by the sum: a category there means nothing.
        by_sum = isinstance(last.item, StartRoll | TiebreakRoll) and not rolloff
        # The counter says the game the roll was in: the roll that ends a game said
        # "Game over" under the next game's number.
        game = last.before.game if isinstance(last.outcome, TurnResult) else ledger.game
        # Each card's number (and the central stash's) changes as its stones land.
        players, central = in_flight(cards(set()), ledger.central, flows)
        result_base = {**base, "central": central}
        if isinstance(last.outcome, TurnResult) and last.outcome.game_over:
            # The cards as this roll left them: the game's end (game stones into each
            # stash, the unicorn back, "to bid") comes with its own screen after.
            # Their numbers, too, follow the stones.
            left = after_roll(last.before, last.outcome)
            owner = names.index(left.unicorn) if left.unicorn is not None else None
            players, central = in_flight(player_cards(left, c.seats, owner, set(), {}),
                                         left.central, flows)
            result_base.update(central=central, unicorn=owner)
        return ScreenView(
            ScreenKind.RESULT, players=players, focus=names.index(_player(last)),
            title=_result_title(last, rolloff), dice=_rollers_dice(c, last),
            photo=last.photo,
            photo_dice=_seen(last), category=None if by_sum else _category_of(last),
            lines=_result_lines(last) + _round_lines(c), flows=flows,
            **{**result_base, "game": game},  # type: ignore[arg-type]
        )
    if last is not None and isinstance(last.outcome, AuctionResult) and age < REVEAL_SECONDS:
        result = last.outcome
        lines = tuple(f"{name}: {stones}" for name, stones in result.bids)
        title = (f"{result.winner} takes the unicorn" if result.winner
                 else f"Tie: {_who_rolls(names, [names.index(n) for n in result.tied], 3)}"
                 " for it")
        # The reveal shows the bids only; the top-up's markers come with its own screen.
        revealed = player_cards(ledger, c.seats, unicorn, set(), {})
        return ScreenView(ScreenKind.AUCTION, players=revealed, title=title,
                          subtitle="The bids, all paid to the central stash", lines=lines,
                          flows=flows, **base)  # type: ignore[arg-type]
    if awaiting is Awaiting.BID:
        return ScreenView(
            ScreenKind.AUCTION, players=cards(owing), title="Auction: bid for the unicorn",
            subtitle="Everyone at once, secretly. Count your + presses.",
            buttons=button_hints(Context.BID), **base,  # type: ignore[arg-type]
        )
    if awaiting is Awaiting.TOPUP:
        focus = min(owing) if owing else None
        subtitle = "Everyone at once; OK when done. The unicorn owner then rolls."
        caller = unicorn if unicorn is not None and unicorn not in owing else None
        if caller is not None:
            # The owner, done with their own top-up, may call already: their buttons
            # are the categories now, and the strip tells only the others'.
            called = c.call_draft.label if c.call_draft is not None else "no call yet"
            subtitle = (f"{joined([names[i] for i in sorted(owing)])}: top up, OK when "
                        f"done. Then {names[caller]} rolls ({called}).")
        return ScreenView(
            ScreenKind.TOPUP, players=cards(owing), focus=focus,
            title="Top-up: stash to game stones", subtitle=subtitle,
            call=c.call_draft, call_locked=c.call_locked, caller=caller,
            buttons=button_hints(Context.TOPUP),
            buttons_for=tuple(sorted(owing)) if caller is not None else (),
            **base,  # type: ignore[arg-type]
        )
    if awaiting in (Awaiting.START_ROLL, Awaiting.TIEBREAK_ROLL):
        tie = _tie_before(c)
        title, sub = _start_rolls_words(c, tie)
        nxt = f"Next: {names[to_act]}" if to_act is not None else ""
        if c.throws_at_once and state.phase is not Phase.ROLLOFF and len(owing) > 1 \
                and told_apart([c.seat_colours[i] for i in sorted(owing)]) is not None:
            nxt = f"One by one or all together. {nxt}"
        # The last roll of these rolls, as read (its sum is on the roller's card too);
        # none of the round before a tie: who rolls again and why, in its place.
        rolled = last.item if last is not None else None
        fresh = tie is None or len(owing) < len(state.contenders)
        shown = isinstance(rolled, StartRoll | TiebreakRoll) and fresh
        said: tuple[str, ...] = ()
        if isinstance(rolled, StartRoll | TiebreakRoll) and shown:
            said = (_start_roll_words(rolled, state.phase),)
        elif tie is not None:
            said = (tie.words(names),)
        return ScreenView(ScreenKind.START_ROLLS, players=cards(owing), title=title,
                          subtitle=f"{sub}. {nxt}", focus=to_act,
                          dice=_rollers_dice(c, last) if shown else (),
                          lines=said,
                          **base)  # type: ignore[arg-type]
    # A turn waiting for the call and the roll.
    assert to_act is not None
    locked = c.call_locked
    sub = ("Call a category, or stay silent, then roll" if not locked else
           # (Dice thrown before an undo are no throw of this turn: they lock nothing
           # once they lie still.)
           "Dice moving from before the undo: wait until they lie still"
           if c.moving_since_before_undo else
           "Dice moving: call locked" if c.tray_busy else
           "Call locked (the dice were thrown once this turn): roll again")
    return ScreenView(
        ScreenKind.TURN, players=cards({to_act}), focus=to_act,
        title=f"{names[to_act]}'s turn", subtitle=sub, call=c.call_draft, call_locked=locked,
        **base,  # type: ignore[arg-type]
    )


def _turn_begun(c: TableController, shown: float) -> bool:
    """Whether the player to roll next began since the roll shown at ``shown``: called,
    or dice moved in the tray (only where a call or a roll is awaited: a game's end and
    the auction come after their own screens)."""
    if c.match.state.awaiting not in (Awaiting.ROLL, Awaiting.START_ROLL,
                                      Awaiting.TIEBREAK_ROLL):
        return False
    return any(t is not None and t > shown for t in (c.called_at, c.moved_at))


def _banner(c: TableController) -> str:
    if c.halted:  # (in the family's words; the history's own message is for the journal)
        return save_banner(c.halted.kind, camera_lost=c.camera_lost is not None)
    if c.camera_lost:
        if c.pending is not None and c.pending.by_hand:
            return ""  # the entry's own title says it (a banner would hide it)
        # What to do first, in two lines above the call tiles at 800x480; the reason's
        # start after, and the whole reason (an installer's instructions, say) goes to
        # the journal.
        return ("Camera lost: check its cable. To go on without it, throw, then hold OK "
                f"(Einhorn) to enter your dice. ({_first_sentence(c.camera_lost)})")
    return ""


#: The most characters of the reason the camera-lost banner shows (two lines in all).
REASON_CHARS = 32


def _first_sentence(text: str, limit: int = REASON_CHARS) -> str:
    """"The library is missing. On the Pi run..." -> "The library is missing."; cut
    short with "…" past ``limit`` characters."""
    first = text.split(". ", 1)[0].strip().rstrip(".")
    first = first[:1].upper() + first[1:] + "."
    if len(first) > limit:
        first = first[:limit - 1].rstrip() + "…"
    return first


def _statuses(c: TableController) -> dict[int, str]:
    state = c.match.state
    awaiting = state.awaiting
    out: dict[int, str] = {}
    if awaiting is Awaiting.BID:
        for i in range(len(c.names)):
            out[i] = "done" if state.has_bid(i) else ("bidding" if i in c.drafts else "to bid")
    elif awaiting is Awaiting.TOPUP:
        owing = state.owing()
        for i in range(len(c.names)):
            out[i] = f"+{c.drafts.get(i, 0)} ?" if i in owing else "ready"
    elif awaiting in (Awaiting.START_ROLL, Awaiting.TIEBREAK_ROLL):
        to_roll = set(state.owing())
        for item in reversed(c.match.inputs):
            if not isinstance(item, StartRoll | TiebreakRoll):
                break
            i = c.names.index(item.player)
            if state.phase is Phase.ROLLOFF:  # only an Einhorn counts (section 6)
                out.setdefault(i, "no Einhorn")
            elif i not in to_roll:  # (who rolls again shows no sum of the round before)
                out.setdefault(i, f"rolled {sum(item.dice)}")
    return out


@dataclass(frozen=True)
class _KeptRoll:
    """A roll known only from the match's inputs (no photo, no reading)."""

    item: Roll


def _roll_to_settle(c: TableController) -> object:
    """The unicorn owner's roll whose counterparty is asked for: as shown, or, after a
    restart or an undone choice, the match's last roll."""
    last = c.last
    if last is not None and isinstance(last.item, Roll):
        return last
    rolls = [item for item in c.match.inputs if isinstance(item, Roll)]
    return _KeptRoll(rolls[-1]) if rolls else None


def _player(shown: object) -> str:
    outcome = getattr(shown, "outcome", None)
    if isinstance(outcome, TurnResult):
        return outcome.player
    item = getattr(shown, "item", None)
    return str(getattr(item, "player", ""))


@dataclass(frozen=True)
class TiedRound:
    """The round of starting (or an auction's tie-break) rolls before this one, which
    ended in a tie: the seats tied for the highest sum, and that sum."""

    seats: tuple[int, ...]
    total: int

    def words(self, names: Sequence[str]) -> str:
        """"Ana and Ben both rolled 14" (why they roll again); four or more are counted,
        not named ("All six rolled 14", "Four players rolled 14"): their cards are framed,
        and six names in a line would be drawn too small to read from the chairs."""
        count = len(self.seats)
        if count > 3:
            if count == len(names):
                return f"All {number_word(count)} rolled {self.total}"
            return f"{number_word(count).capitalize()} players rolled {self.total}"
        every = "both" if count == 2 else "all"
        return f"{joined([names[i] for i in self.seats])} {every} rolled {self.total}"


def _who_rolls(names: Sequence[str], seats: Sequence[int], most: int | None = None) -> str:
    """Who rolls, said as short as it reads: "Ana and Ben roll", "Ana, Ben and Cem roll";
    everyone at a table of four or more "everyone rolls" (not six names in a row); more
    than ``most`` (where given: a title) counted, "five players roll"."""
    if len(seats) > 3 and len(seats) == len(names):
        return "everyone rolls"
    if most is not None and len(seats) > most:
        return f"{number_word(len(seats))} players roll"
    return f"{joined([names[i] for i in seats])} roll"


def _capital(words: str) -> str:
    """``words`` with "everyone" at the start capitalised (a name is left as typed)."""
    return "Everyone" + words[len("everyone"):] if words.startswith("everyone") else words


def _tie_before(c: TableController) -> TiedRound | None:
    """The tied round before this round of starting or auction tie-break rolls (RULES.md
    3.3, 5.5: only the tied players roll again); None in a first round."""
    state = c.match.state
    if state.phase not in (Phase.START, Phase.AUCTION_TIE):
        return None
    rolls: list[StartRoll | TiebreakRoll] = []
    for item in reversed(c.match.inputs):
        if not isinstance(item, StartRoll | TiebreakRoll):
            break
        rolls.insert(0, item)
    this_round = len(state.contenders) - len(state.owing())
    before = rolls[:len(rolls) - this_round]
    sums = {c.names.index(item.player): sum(item.dice) for item in before}
    if any(i not in sums for i in state.contenders):
        return None
    totals = {sums[i] for i in state.contenders}
    if len(totals) != 1:
        return None
    return TiedRound(state.contenders, totals.pop())


def _start_rolls_words(c: TableController, tie: TiedRound | None) -> tuple[str, str]:
    """The title and the subtitle's start while players roll for who starts, for an
    auction's tie or in the winner's roll-off."""
    state = c.match.state
    names = c.names
    who = _capital(_who_rolls(names, state.contenders))
    if state.phase is Phase.ROLLOFF:
        return "Roll-off", f"{who} in turn until one rolls an Einhorn"
    again = " again" if tie is not None else ""
    if state.phase is Phase.AUCTION_TIE:
        title = "Who takes the unicorn? " + (f"Tie on {tie.total}" if tie else "Tied bids")
        return title, f"{who}{again}; highest sum takes it"
    if tie is None:
        return "Who starts? Everyone rolls", "Highest sum starts"
    return f"Who starts? Tie on {tie.total}", f"{who} again; highest sum starts"


def _start_roll_words(rolled: StartRoll | TiebreakRoll, phase: Phase) -> str:
    """Whose the last starting or tie-break roll was and what of it counts: its sum,
    or, in the winner's roll-off (6), only that it was no Einhorn (one ends the match)."""
    if phase is Phase.ROLLOFF:
        return f"{rolled.player} rolled no Einhorn"
    return f"{rolled.player} rolled {sum(rolled.dice)}"


def _dice_colour(c: TableController, shown: object) -> tuple[int, int, int] | None:
    """The registered dice colour of whoever rolled ``shown`` (None: none given): the
    dice are drawn in it, which tells whose dice were read where several players' lie
    in the tray (who starts)."""
    name = _player(shown)
    if name not in c.names:
        return None
    return c.seats[c.names.index(name)].dice_colour


def _entry_colour(c: TableController, pending: PendingRoll) -> tuple[int, int, int] | None:
    """The colour of the dice the roller enters by hand: their own dice's, as the roll's
    result will draw them (the question before showed the dice in the colour read);
    without one registered, the colour read, so the dice keep theirs (None: none read)."""
    own = c.seats[pending.roller].dice_colour
    if own is not None:
        return own
    return next((die.color for die in pending.reading.dice), None)


def _rollers_dice(c: TableController, shown: object) -> tuple[DieView, ...]:
    """The dice of the roll ``shown``, in the colour of whoever rolled them."""
    return _dice_of(shown, _dice_colour(c, shown))


def _dice_of(shown: object, colour: tuple[int, int, int] | None = None,
             ) -> tuple[DieView, ...]:
    """The dice of the roll ``shown`` as the match took them, in ``colour`` (None:
    white)."""
    reading = getattr(shown, "reading", None)
    item = getattr(shown, "item", None)
    outcome = getattr(shown, "outcome", None)
    values = tuple(outcome.dice if isinstance(outcome, TurnResult) else getattr(item, "dice", ()))
    boxes: list[tuple[float, float, float, float] | None] = [None] * len(values)
    if reading is not None and len(reading.dice) == len(values):
        boxes = [d.box for d in reading.dice]
    return tuple(DieView(v, b, True, colour) for v, b in zip(values, boxes, strict=True))


def _seen(shown: object) -> tuple[DieView, ...]:
    """The dice the reader saw, only for zooming into the photo (no values shown)."""
    reading = getattr(shown, "reading", None)
    if reading is None:
        return ()
    seen = tuple(DieView(None, d.box, True) for d in reading.dice if d.value is not None)
    return seen if len(seen) == 3 else ()  # a poor reading: show the whole tray


def _category_of(shown: object) -> Category | None:
    outcome = getattr(shown, "outcome", None)
    if isinstance(outcome, TurnResult):
        return outcome.category
    dice = getattr(getattr(shown, "item", None), "dice", None)
    return categorize(dice) if dice else None


def _counterparty_subtitle(state: MatchState, owner: int) -> str:
    """The choice, and whose payment will be short (rule 4.7: all they hold); the other
    player named where there is only one (two at the table)."""
    amount = state.pending_amount or 0
    held = state.game_stones[owner]
    others = [name for i, name in enumerate(state.names) if i != owner]
    one = others[0] if len(others) == 1 else ""
    if 0 < state.central <= amount:
        # 4.9: a central stash run dry ends the match, which the owner may want or not.
        only = "only " if state.central < amount else ""
        return (f"The central stash holds {only}{state.central}: taking from it empties "
                f"it and ends the match. Or {one or 'one other player'}")
    if amount < 0 and held < -amount:
        return (f"The central stash or {one or 'a player'}: {state.names[owner]} holds "
                f"only {held} and pays that")
    short = [i for i in range(len(state.names))
             if i != owner and state.game_stones[i] < amount]
    if len(short) == 1:
        (i,) = short
        who = f"{one}, who" if one else f"a player: {state.names[i]}"
        return (f"The central stash or {who} holds only {state.game_stones[i]} and would "
                "pay that")
    if short:
        return (f"The central stash or a player: {joined([state.names[i] for i in short])} "
                "hold fewer and would pay what they hold")
    return f"The central stash, or {one or 'one other player'}"


def _counterparty_title(name: str, amount: int) -> str:
    if amount > 0:
        return f"{name} gets {amount}: from whom?"
    return f"{name} pays {-amount}: to whom?"


def _in_rolloff(c: TableController) -> bool:
    """Whether the last tie-break roll was one of the winner's roll-off (RULES.md
    section 6: only an Einhorn counts there): the roll-off goes on, or an Einhorn
    ended it."""
    state = c.match.state
    if state.phase is Phase.ROLLOFF:
        return True
    last = c.last
    if state.phase is not Phase.OVER or last is None or not isinstance(last.item, TiebreakRoll):
        return False
    # Tie-break rolls after bids break an auction's tie; after a turn, the winner's.
    before = next((i for i in reversed(c.match.inputs) if not isinstance(i, TiebreakRoll)),
                  None)
    return not isinstance(before, Bid)


def _result_title(shown: object, rolloff: bool = False) -> str:
    item = getattr(shown, "item", None)
    name = _player(shown)
    if isinstance(item, TiebreakRoll) and rolloff:
        einhorn = categorize(item.dice) is Category.EINHORN
        return f"{name} rolled {'an Einhorn!' if einhorn else 'no Einhorn'}"
    if isinstance(item, StartRoll | TiebreakRoll):
        return f"{name} rolled {sum(item.dice)}"
    return f"{name} rolled"


def _result_lines(shown: object) -> tuple[str, ...]:
    outcome = getattr(shown, "outcome", None)
    if not isinstance(outcome, TurnResult):
        return ()
    called = "silent" if outcome.call is None else f"called {outcome.call.label}"
    right = ""
    if outcome.call is not None:
        right = " - right!" if outcome.call is outcome.category else " - wrong"
    lines = [called + right]
    if outcome.owner_einhorn:
        lines.append("Unicorn owner rolls Einhorn: nothing happens")
    if outcome.amount == WIN:
        # 4.4: one line, not one per player (six players' lines would not fit).
        total = sum(t.stones for t in outcome.transfers)
        lines.append(f"{outcome.player} takes everyone's game stones: {total}")
    for k, t in enumerate(() if outcome.amount == WIN else outcome.transfers):
        payer = "Central" if t.payer == CENTRAL else t.payer
        payee = "Central" if t.payee == CENTRAL else t.payee
        if k == 0 and outcome.short_by:  # 4.7: nobody pays more than they hold
            due = t.stones + outcome.short_by
            who = "it" if t.payer == CENTRAL else payer
            lines.append(f"{payer} pays {payee} {t.stones} of {due} (all {who} had)")
        else:
            lines.append(f"{payer} pays {payee} {t.stones}")
    if not outcome.transfers and not outcome.owner_einhorn:
        lines.append("No stones move")
    if outcome.unicorn_to:
        lines.append(f"{outcome.unicorn_to} takes the unicorn")
    if outcome.match_over:
        lines.append("The match is over")
    elif outcome.game_over:
        lines.append("Game over")
    return tuple(lines)


def _round_lines(c: TableController) -> tuple[str, ...]:
    """After the roll that closed a round of starting rolls or of an auction's tie-break:
    who starts, who takes the unicorn, or who rolls again (a tie); after the roll that
    ended the match in a tie for the most stones, who rolls off."""
    last = c.last
    state = c.match.state
    names = c.names
    if last is not None and isinstance(last.outcome, TurnResult) and last.outcome.match_over \
            and state.phase is Phase.ROLLOFF:
        # The roll that ended the match in a tie for the most stones: why the players
        # roll on (the roll-off's own screen comes only once this one has gone).
        best = state.stash[state.contenders[0]]
        return (f"Tie on {best} stones: {_who_rolls(names, state.contenders)} in turn "
                "until one rolls an Einhorn",)
    if last is None or not isinstance(last.item, StartRoll | TiebreakRoll):
        return ()
    if state.phase in (Phase.START, Phase.AUCTION_TIE):
        contenders = state.contenders
        if len(state.owing()) == len(contenders):  # a new round: they tied
            return (f"Tie: {_who_rolls(names, contenders)} again",)
        return ()
    if isinstance(last.item, StartRoll) and state.to_act is not None:
        # The einhorn rule book's extra stone for the starter (3.3), said: their card
        # shows one more than everyone else's.
        bonus = _start_bonus(c)
        takes = f" and takes {counted(bonus, 'stone')} from the central stash" if bonus else ""
        given = state.variant.start_bonus
        if 0 < bonus < given:  # the central stash held fewer (as a short payment says it)
            takes = f" and takes {bonus} of {given} stones from the central stash (all it had)"
        return (f"{names[state.to_act]} starts{takes}",)
    if isinstance(last.item, TiebreakRoll) and last.before.unicorn is None \
            and state.unicorn is not None:
        return (f"{names[state.unicorn]} takes the unicorn",)
    return ()


def _start_bonus(c: TableController) -> int:
    """The stones the player to start took from the central stash with the starting roll
    shown last (0 in a variant without, or where no roll has closed the round)."""
    last = c.last
    starter = c.match.state.to_act
    if last is None or not isinstance(last.item, StartRoll) or starter is None:
        return 0
    now = c.match.ledger().players[starter].game_stones
    return max(0, now - last.before.players[starter].game_stones)


def _next_match_hold(c: TableController, now: float) -> float | None:
    """How far the hold of OK at the final standings has come to count (0 to 1, its
    ring), or None: nobody holds it, or the hold counts too early to be taken (the
    table then says "hold again in N seconds": no ring fills for that)."""
    if c.ok_held is None:
        return None
    long_press = GestureTiming().long_press
    opens = c.next_match_opens_at()
    since = c.ok_held[1]
    if opens is not None and since + long_press < opens:
        return None
    return max(0.0, min(1.0, (now - since) / long_press))


def _game_end_lines(c: TableController) -> tuple[str, tuple[str, ...]]:
    """The game end's subtitle and lines: what each player moves into their stash ("Ben
    +8": the game stones the last roll left them; their cards show the stashes), or,
    where that roll is no longer the last input (a bid taken at once, where the bids
    open with the game's end), what each stash holds now ("Ben's stash: 8")."""
    last = c.last
    if last is not None and isinstance(last.outcome, TurnResult) and last.outcome.game_over:
        return "Game stones go into each stash", tuple(
            f"{name} +{stones}"
            for name, stones in zip(c.names, last.outcome.left.game_stones, strict=True))
    return "The game stones went into the stashes", tuple(
        f"{p.name}'s stash: {p.stash}" for p in c.match.ledger().players)


def _flows(c: TableController, age: float) -> tuple[Flow, ...]:
    last = c.last
    if last is None or age >= FLOW_SECONDS + 0.4:
        return ()
    names = c.names
    moves: list[tuple[str, str, int]] = []
    outcome = last.outcome
    if isinstance(outcome, TurnResult):
        moves = [(t.payer, t.payee, t.stones) for t in outcome.transfers]
    elif isinstance(outcome, AuctionResult):
        moves = [(name, CENTRAL, stones) for name, stones in outcome.bids]
    elif isinstance(last.item, StartRoll) and c.match.state.to_act is not None:
        moves = [(CENTRAL, names[c.match.state.to_act], _start_bonus(c))]

    def slot(name: str) -> int:
        return -1 if name == CENTRAL else names.index(name)

    progress = max(0.0, min(1.0, age / FLOW_SECONDS))
    return tuple(Flow(slot(a), slot(b), n, progress) for a, b, n in moves if n > 0)
