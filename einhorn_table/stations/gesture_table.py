"""What each gesture means, as data: the table the screen shows and docs/buttons.md prints.

The four buttons of a station carry two labels each: the roll category they
call, and a small sign for everything else the match asks::

    [ Das Unvermeidliche ]  [ Wunsch ]  [ Einhorn ]  [ Dreifaltigkeit ]
             −                  +           OK              ✗

While a player makes their call the buttons are the categories; whenever the
screen asks that player something (a counterparty, a bid, a top-up, the dice)
they are − + OK ✗. Two chords work everywhere: the outer two buttons together
undo the last input, the middle two show the help for the moment. At the final
standings, holding OK starts the next match with the same players. While the
camera is lost, the player to roll holds OK to enter the dice they threw by hand
(a hold means nothing else while a player calls or rolls).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from einhorn_table.ports import Button, Gesture, GestureKind


class Context(StrEnum):
    """What the match is waiting for from a player."""

    CALL = "call"
    ROLL = "roll"
    COUNTERPARTY = "counterparty"
    BID = "bid"
    TOPUP = "topup"
    CONFIRM_DICE = "confirm_dice"
    ENTER_DICE = "enter_dice"
    WAIT = "wait"
    FINAL = "final"
    HISTORY = "history"
    RESUME = "resume"

    @property
    def heading(self) -> str:
        """The line the screen shows above this context's help."""
        return _TITLES[self]


_TITLES = {
    Context.CALL: "Your turn: make your call, then roll",
    Context.ROLL: "Your roll: throw your three dice into the tray",
    Context.COUNTERPARTY: "You own the unicorn: choose who pays or is paid",
    Context.BID: "Auction: bid for the unicorn, secretly",
    Context.TOPUP: "Top-up: move stones from your stash to your game stones",
    Context.CONFIRM_DICE: "Are these the dice?",
    Context.ENTER_DICE: "Enter the three dice by hand",
    Context.WAIT: "Not your turn",
    Context.FINAL: "The match is over",
    Context.HISTORY: "The match history",
    Context.RESUME: "A match was interrupted: go on with it?",
}


#: The help's title spoken to the player who asked, "{name}" their name: one sentence
#: (not a name and a heading run together, "Ben: Your turn: ...").
_SPOKEN = {
    Context.CALL: "{name}, it's your turn: make your call, then roll",
    Context.ROLL: "{name}, it's your roll: throw your three dice into the tray",
    Context.COUNTERPARTY: "{name}, you own the unicorn: choose who pays or is paid",
    Context.BID: "{name}, bid for the unicorn, secretly",
    Context.TOPUP: "{name}, move stones from your stash to your game stones",
    Context.CONFIRM_DICE: "{name}, are these your dice?",
    Context.ENTER_DICE: "{name}, enter your three dice by hand",
    Context.WAIT: "{name}, it's not your turn yet",
    Context.FINAL: "{name}, the match is over",
    Context.HISTORY: "{name}, this is the match history",
    Context.RESUME: "{name}, a match was interrupted: go on with it?",
}


def help_title(context: Context, name: str | None) -> str:
    """The help's title for the player ``name`` who asked for it in ``context``, said to
    them ("Ben, it's your turn: make your call, then roll"); the plain heading where it is
    not known who asked (None)."""
    if not name:
        return context.heading
    return _SPOKEN[context].format(name=name)


class Action(StrEnum):
    CALL = "call"  # call the button's category (the same again takes the call back)
    LESS = "less"  # previous choice, fewer stones, a lower die
    MORE = "more"  # next choice, more stones, a higher die
    OK = "ok"
    NO = "no"
    UNDO = "undo"
    HELP = "help"
    HISTORY = "history"  # show (or close) the match history screen
    NEXT_MATCH = "next_match"  # after the final standings: a new match, the same players
    ENTER_BY_HAND = "enter_by_hand"  # the camera is lost: enter the dice thrown by hand


@dataclass(frozen=True)
class Intent:
    """What a gesture asks for; ``amount`` for LESS/MORE, ``button`` for CALL."""

    action: Action
    amount: int = 1
    button: Button | None = None


#: The sign each button carries besides its category.
SIGNS = MappingProxyType(
    {
        Button.UNVERMEIDLICH: "−",
        Button.WUNSCH: "+",
        Button.EINHORN: "OK",
        Button.DREIFALTIGKEIT: "✗",
    }
)

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
EVERYWHERE = tuple(Context)
#: Where the table has a match to undo inputs of (not on the history and resume screens).
IN_A_MATCH = tuple(c for c in Context if c not in (Context.HISTORY, Context.RESUME))
UNDO_CHORD = (U, D)
HELP_CHORD = (W, E)
#: How long after the input that ended a match a hold of OK may start the next one: the
#: final standings are seen first (the ending roll shows for a few seconds, then they).
NEXT_MATCH_AFTER_SECONDS = 10.0


def button_words(button: Button) -> str:
    """How the help names a button: its label with its sign, e.g. "Dreifaltigkeit (✗)"."""
    return f"{button.label} ({SIGNS[button]})"


@dataclass(frozen=True)
class Rule:
    """One line of the gesture table: in these contexts, this gesture means this."""

    contexts: tuple[Context, ...]
    kind: GestureKind
    buttons: tuple[Button, ...]  # empty for "any one button" (the call taps)
    intent: Intent
    help: str

    @property
    def gesture_text(self) -> str:
        if not self.buttons:
            return "tap a category"
        names = " + ".join(button_words(b) for b in self.buttons)
        return {
            GestureKind.TAP: f"tap {names}",
            GestureKind.LONG: f"hold {names}",
            GestureKind.CHORD: f"press {names} together",
        }[self.kind]


def _number_rules(context: Context, what: str, ok: str, no: str) -> tuple[Rule, ...]:
    c = (context,)
    return (
        Rule(c, GestureKind.TAP, (W,), Intent(Action.MORE), f"one {what} more"),
        Rule(c, GestureKind.TAP, (U,), Intent(Action.LESS), f"one {what} less"),
        Rule(c, GestureKind.LONG, (W,), Intent(Action.MORE, 5), f"five {what}s more"),
        Rule(c, GestureKind.LONG, (U,), Intent(Action.LESS, 5), f"five {what}s less"),
        Rule(c, GestureKind.TAP, (E,), Intent(Action.OK), ok),
        Rule(c, GestureKind.TAP, (D,), Intent(Action.NO), no),
    )


#: Every gesture rule, in the order the help shows them.
RULES: tuple[Rule, ...] = (
    Rule(
        (Context.CALL,),
        GestureKind.TAP,
        (),
        Intent(Action.CALL),
        "call it; tap another to change your call, the same one again to take it back "
        "(no call = silent). The call is locked when the dice start moving",
    ),
    # (A hold is no tap: holding Einhorn never calls it. Only while the camera is lost
    # does the hold do anything here; the tray reads the dice otherwise.)
    Rule((Context.CALL, Context.ROLL), GestureKind.LONG, (E,), Intent(Action.ENTER_BY_HAND),
         "only while the camera is lost: throw your dice, then hold OK to enter what they "
         "show by hand (your call is locked then)"),
    Rule((Context.COUNTERPARTY,), GestureKind.TAP, (W,), Intent(Action.MORE),
         "next: the central stash, then each other player in turn"),
    Rule((Context.COUNTERPARTY,), GestureKind.TAP, (U,), Intent(Action.LESS), "previous"),
    Rule((Context.COUNTERPARTY,), GestureKind.TAP, (E,), Intent(Action.OK),
         "settle with the one shown"),
    *_number_rules(Context.BID, "stone", "done: your bid is in (the screen never shows it)",
                   "start again from 0 if you lost count"),
    *_number_rules(Context.TOPUP, "stone", "done (0 is fine)", "back to 0"),
    Rule((Context.CONFIRM_DICE,), GestureKind.TAP, (E,), Intent(Action.OK),
         "yes, the screen shows the dice on the table"),
    Rule((Context.CONFIRM_DICE,), GestureKind.TAP, (D,), Intent(Action.NO),
         "no: enter the dice by hand"),
    Rule((Context.ENTER_DICE,), GestureKind.TAP, (W,), Intent(Action.MORE),
         "the marked die one higher (after 6 comes 1)"),
    Rule((Context.ENTER_DICE,), GestureKind.TAP, (U,), Intent(Action.LESS),
         "the marked die one lower (before 1 comes 6)"),
    Rule((Context.ENTER_DICE,), GestureKind.TAP, (E,), Intent(Action.OK),
         "this die is right: on to the next (after the third: done)"),
    Rule((Context.ENTER_DICE,), GestureKind.TAP, (D,), Intent(Action.NO),
         "back one die; on the first die: leave, and roll again"),
    Rule((Context.FINAL,), GestureKind.TAP, (W,), Intent(Action.HISTORY),
         "show the match history: the latest matches, who wins most, the dice"),
    Rule((Context.FINAL,), GestureKind.LONG, (E,), Intent(Action.NEXT_MATCH),
         "start a new match with the same players (once the match has been over for "
         f"{NEXT_MATCH_AFTER_SECONDS:g} seconds); this one stays in the history"),
    Rule((Context.RESUME,), GestureKind.TAP, (E,), Intent(Action.OK),
         "yes: go on with the match exactly where it stood"),
    Rule((Context.RESUME,), GestureKind.TAP, (D,), Intent(Action.NO),
         "no: keep it as abandoned and start a new match"),
    Rule((Context.RESUME,), GestureKind.TAP, (W,), Intent(Action.HISTORY),
         "show the match history"),
    Rule((Context.HISTORY,), GestureKind.TAP, (D,), Intent(Action.NO), "back"),
    Rule((Context.HISTORY,), GestureKind.TAP, (W,), Intent(Action.HISTORY), "back"),
    Rule(IN_A_MATCH, GestureKind.CHORD, UNDO_CHORD, Intent(Action.UNDO),
         "undo the last input at the table (a wrong button, a misread roll)"),
    Rule(EVERYWHERE, GestureKind.CHORD, HELP_CHORD, Intent(Action.HELP),
         "show this help on the screen"),
)  # fmt: skip


def intent_for(context: Context, gesture: Gesture) -> Intent | None:
    """What ``gesture`` means in ``context``; ``None`` if nothing (the screen may show help)."""
    for rule in RULES:
        if context not in rule.contexts or rule.kind is not gesture.kind:
            continue
        if not rule.buttons and gesture.kind is GestureKind.TAP:
            return Intent(rule.intent.action, rule.intent.amount, gesture.button)
        if rule.buttons == gesture.buttons:
            return rule.intent
    return None


@dataclass(frozen=True)
class HelpLine:
    gesture: str
    does: str
    #: Whether the gesture does anything only while the camera is lost (the hold of OK
    #: that enters the dice by hand): the screen's help shows it only then.
    camera_lost_only: bool = False


def _help(context: Context) -> tuple[HelpLine, ...]:
    return tuple(HelpLine(r.gesture_text, r.help, r.intent.action is Action.ENTER_BY_HAND)
                 for r in RULES if context in r.contexts)


#: Per context, the help lines the screen shows (gesture, what it does).
GESTURES: MappingProxyType[Context, tuple[HelpLine, ...]] = MappingProxyType(
    {context: _help(context) for context in Context}
)


def help_lines(context: Context, camera_lost: bool) -> tuple[HelpLine, ...]:
    """The help the screen shows in ``context``: what works now (the hold of OK that
    enters dice by hand only while the camera is lost)."""
    return tuple(line for line in GESTURES[context]
                 if camera_lost or not line.camera_lost_only)


def help_markdown() -> str:
    """The gesture table as Markdown (docs/buttons.md holds exactly this)."""
    lines: list[str] = []
    for context in Context:
        lines += [f"### {context.heading} (`{context.value}`)", ""]
        lines += ["| gesture | does |", "|---|---|"]
        lines += [f"| {line.gesture} | {line.does} |" for line in GESTURES[context]]
        lines.append("")
    return "\n".join(lines)
