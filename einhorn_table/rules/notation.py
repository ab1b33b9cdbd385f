"""The match notation, version 1 (RULES.md section 8): one JSON object a line.

``parse_line`` turns a line into an input, ``format_input`` turns an input back
into its line. The written form is canonical (fixed key order, the separators
of Python's ``json.dumps``), so a canonical file round-trips byte for byte and
any file round-trips to equal inputs. Keys the engine does not know (a time,
a photo, the reader's confidence) are kept in ``extra`` and written back.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from einhorn_table.parsing import loads_json
from einhorn_table.rules.categories import Category, Dice, check_dice
from einhorn_table.rules.errors import NotationError, RuleViolation, VariantError
from einhorn_table.rules.variants import (
    Variant,
    get_variant,
    payouts_from_mapping,
    payouts_to_mapping,
)

VERSION = 1
CENTRAL = "central"


@dataclass(frozen=True, slots=True)
class Input:
    """One line of a match file."""

    type: ClassVar[str] = ""
    extra: Mapping[str, Any] = field(default_factory=dict, kw_only=True)


@dataclass(frozen=True, slots=True)
class Setup(Input):
    """The first line: who plays, which variant, what was agreed."""

    type: ClassVar[str] = "setup"
    players: tuple[str, ...]
    variant: str = "einhorn"
    games: int | None = None
    target: int | None = None
    central: int | None = None
    start_bonus: int | None = None
    pass_stone: int | None = None
    deal: int | None = None
    payouts: Mapping[str, Any] | None = None
    #: The name of a house variant whose changes the fields above carry.
    house: str | None = None

    def resolve(self) -> tuple[Variant, int, int | None, int]:
        """The variant in force, the number of games, the target and the central stash."""
        try:
            base = get_variant(self.variant)
        except VariantError as error:
            raise NotationError(str(error), rule="2") from None
        changes: dict[str, Any] = {}
        if self.payouts is not None:
            try:
                changes["payouts"] = payouts_from_mapping(self.payouts, base.payouts)
            except VariantError as error:
                raise NotationError(str(error), rule="8") from None
        if self.start_bonus is not None:
            changes["start_bonus"] = self.start_bonus
        if self.pass_stone is not None:
            changes["pass_stone"] = self.pass_stone
        if self.deal is not None:
            changes["deal"] = self.deal
        if self.house is not None:
            changes["name"] = self.house
        variant = replace(base, **changes) if changes else base
        games = self.games if self.games is not None else variant.games
        target = self.target if self.target is not None else variant.target
        central = self.central if self.central is not None else variant.central_for(
            len(self.players)
        )
        return variant, games, target, central

    @classmethod
    def for_variant(
        cls, variant: Variant, players: Iterable[str], *, games: int | None = None,
        target: int | None = None, central: int | None = None,
    ) -> Setup:
        """The setup line for a match of ``variant``, a house variant included.

        A house variant is written as its shipped base plus every value it
        changes, so the match file replays on a table that never saw the house file.
        """
        names = tuple(_same_name(name) for name in players)
        # The match file does not carry a house variant's player range: check it here.
        variant.check_players(len(names))
        base = get_variant(variant.base or variant.name)
        if variant == base:
            return cls(players=names, variant=variant.name, games=games, target=target,
                       central=central)
        return cls(
            players=names,
            variant=base.name,
            house=variant.name,
            games=games if games is not None else variant.games,
            target=target if target is not None else variant.target,
            central=central if central is not None else variant.central_for(len(names)),
            start_bonus=variant.start_bonus,
            pass_stone=variant.pass_stone,
            deal=variant.deal,
            payouts=payouts_to_mapping(variant.payouts),
        )


@dataclass(frozen=True, slots=True)
class PlayerInput(Input):
    player: str


@dataclass(frozen=True, slots=True)
class StartRoll(PlayerInput):
    type: ClassVar[str] = "start_roll"
    dice: Dice


@dataclass(frozen=True, slots=True)
class Call(PlayerInput):
    type: ClassVar[str] = "call"
    call: Category | None


@dataclass(frozen=True, slots=True)
class Roll(PlayerInput):
    type: ClassVar[str] = "roll"
    dice: Dice


@dataclass(frozen=True, slots=True)
class Counterparty(PlayerInput):
    type: ClassVar[str] = "counterparty"
    party: str


@dataclass(frozen=True, slots=True)
class Bid(PlayerInput):
    type: ClassVar[str] = "bid"
    stones: int


@dataclass(frozen=True, slots=True)
class Topup(PlayerInput):
    type: ClassVar[str] = "topup"
    stones: int


@dataclass(frozen=True, slots=True)
class TiebreakRoll(PlayerInput):
    type: ClassVar[str] = "tiebreak_roll"
    dice: Dice


@dataclass(frozen=True, slots=True)
class Undo(Input):
    type: ClassVar[str] = "undo"


INPUT_TYPES: dict[str, type[Input]] = {
    cls.type: cls
    for cls in (Setup, StartRoll, Call, Roll, Counterparty, Bid, Topup, TiebreakRoll, Undo)
}

# The keys each type owns, in the order they are written.
_SETUP_KEYS = ("v", "type", "house", "variant", "players", "games", "target", "central",
               "start_bonus", "pass_stone", "deal", "payouts")
_KEYS: dict[str, tuple[str, ...]] = {
    "setup": _SETUP_KEYS,
    "start_roll": ("type", "player", "dice"),
    "call": ("type", "player", "call"),
    "roll": ("type", "player", "dice"),
    "counterparty": ("type", "player", "party"),
    "bid": ("type", "player", "stones"),
    "topup": ("type", "player", "stones"),
    "tiebreak_roll": ("type", "player", "dice"),
    "undo": ("type",),
}


# --- reading ---------------------------------------------------------------


def _whole(obj: Mapping[str, Any], key: str, *, minimum: int, optional: bool = False) -> Any:
    if key not in obj or (optional and obj[key] is None):
        if optional:
            return None
        raise NotationError(f'a {obj.get("type")} line needs "{key}"')
    value = obj[key]
    if type(value) is not int:
        raise NotationError(f'"{key}" must be a whole number, not {value!r}')
    if value < minimum:
        raise NotationError(f'"{key}" must be at least {minimum}, not {value}')
    return value


def _player(obj: Mapping[str, Any]) -> str:
    name = obj.get("player")
    if not isinstance(name, str) or not name:
        raise NotationError(f'a {obj["type"]} line needs "player": the name of a player')
    return _same_name(name)


def _same_name(name: str) -> str:
    """A name in one form however its accents were typed (a letter with its mark, or
    the letter and then the mark), so every line names the setup's player alike."""
    return unicodedata.normalize("NFC", name)


def _dice(obj: Mapping[str, Any]) -> Dice:
    dice = obj.get("dice")
    if not isinstance(dice, list):
        raise NotationError(f'a {obj["type"]} line needs "dice": three numbers 1 to 6')
    return check_dice(dice)


def input_from_json(obj: object) -> Input:
    """Build the input a parsed JSON object stands for; refuse anything malformed."""
    if not isinstance(obj, dict):
        raise NotationError("each line must be one JSON object {...}")
    kind = obj.get("type")
    if kind is None:
        raise NotationError('this line has no "type"; each line of a match says what it is, '
                            'e.g. {"type": "roll", ...}')
    if not isinstance(kind, str) or kind not in _KEYS:
        known = ", ".join(_KEYS)
        raise NotationError(f"unknown line type {kind!r}; the types are {known}")
    extra = {k: v for k, v in obj.items() if k not in _KEYS[kind]}
    if kind == "setup":
        version = obj.get("v")
        if type(version) is not int or version != VERSION:
            raise NotationError(
                f"this file is notation version {version!r}; this companion reads version "
                f'{VERSION} (the setup line starts {{"v": 1, ...}})'
            )
        players = obj.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise NotationError('the setup needs "players": a list of names in seat order')
        variant = obj.get("variant", "einhorn")
        if not isinstance(variant, str):
            raise NotationError('"variant" must be a name such as "einhorn"')
        house = obj.get("house")
        if house is not None and not isinstance(house, str):
            raise NotationError('"house" must be the name of a house variant')
        payouts = obj.get("payouts")
        if payouts is not None and not isinstance(payouts, dict):
            raise NotationError('"payouts" must be a table of categories')
        return Setup(
            players=tuple(_same_name(p) for p in players),
            variant=variant,
            games=_whole(obj, "games", minimum=1, optional=True),
            target=_whole(obj, "target", minimum=1, optional=True),
            central=_whole(obj, "central", minimum=1, optional=True),
            start_bonus=_whole(obj, "start_bonus", minimum=0, optional=True),
            pass_stone=_whole(obj, "pass_stone", minimum=0, optional=True),
            deal=_whole(obj, "deal", minimum=1, optional=True),
            payouts=payouts,
            house=house,
            extra=extra,
        )
    if kind == "undo":
        return Undo(extra=extra)
    player = _player(obj)
    if kind in ("start_roll", "roll", "tiebreak_roll"):
        return INPUT_TYPES[kind](player=player, dice=_dice(obj), extra=extra)  # type: ignore[call-arg]
    if kind == "call":
        if "call" not in obj:
            raise NotationError('a call line needs "call": a category, or null for silent',
                                rule="4.1")
        called = obj.get("call")
        if called is None:
            return Call(player=player, call=None, extra=extra)
        try:
            category = Category(called)
        except ValueError:
            names = ", ".join(c.value for c in Category)
            raise NotationError(
                f"{called!r} is not a call; call one of {names}, or null for silent", rule="4.1"
            ) from None
        return Call(player=player, call=category, extra=extra)
    if kind == "counterparty":
        party = obj.get("party")
        if not isinstance(party, str) or not party:
            raise NotationError('a counterparty line needs "party": "central" or a player')
        return Counterparty(player=player, party=_same_name(party), extra=extra)
    stones = _whole(obj, "stones", minimum=0)
    return INPUT_TYPES[kind](player=player, stones=stones, extra=extra)  # type: ignore[call-arg]


def _check_text(obj: object) -> None:
    """Refuse text that is not Unicode (a lone ``\\ud800`` escape): it could never be
    printed or written back to a match file."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise NotationError("this line holds an escape such as \\ud800 that is not a "
                            "character; write names as plain text") from None


def parse_line(text: str, line: int | None = None) -> Input:
    """One line of a match file as an input; errors name ``line``."""
    try:
        obj = loads_json(text)
    except json.JSONDecodeError as error:
        raise NotationError(f"this line is not JSON ({error.msg})", line=line) from None
    try:
        _check_text(obj)
        return input_from_json(obj)
    except RuleViolation as error:
        raise error.at_line(line) if line is not None else error from None


def iter_lines(lines: Iterable[str]) -> Iterator[tuple[int, Input]]:
    """The inputs of a match file with their line numbers; blank lines are skipped."""
    for number, text in enumerate(lines, start=1):
        if text.strip():
            yield number, parse_line(text, number)


# --- writing ---------------------------------------------------------------


def input_to_json(item: Input) -> dict[str, Any]:
    """The JSON object of an input, keys in canonical order, extras last."""
    obj: dict[str, Any] = {}
    for key in _KEYS[item.type]:
        if key == "v":
            obj["v"] = VERSION
        elif key == "type":
            obj["type"] = item.type
        else:
            value = getattr(item, key)
            if isinstance(item, Setup) and value is None and key != "variant":
                continue
            if key == "players" or key == "dice":
                value = list(value)
            elif key == "call":
                value = None if value is None else value.value
            elif key == "payouts":
                value = dict(value)
            obj[key] = value
    for key, value in item.extra.items():
        obj.setdefault(key, value)
    return obj


def format_input(item: Input) -> str:
    """The input as one line of notation (no newline)."""
    return json.dumps(input_to_json(item), ensure_ascii=False)


def format_match(items: Iterable[Input]) -> str:
    """A whole match file."""
    return "".join(format_input(item) + "\n" for item in items)
