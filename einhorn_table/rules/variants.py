"""Variants: a payout table plus a few switches (RULES.md section 2).

Two variants ship (``einhorn``, ``wuerfeln``); a house variant is read from a
TOML file that starts from one of them and changes what it names::

    name = "grandma"          # how the screen and the history call it
    base = "einhorn"          # the shipped variant it starts from
    games = 8
    central_per_player = 20   # or: central = 60 (a fixed number of stones)
    start_bonus = 1
    pass_stone = 0
    target = 40               # end the match when a stash reaches 40

    [payouts.einhorn]         # row = rolled category; columns as below
    correct = 6
    wrong = -4
    silent = 1

    [payouts.dreifaltigkeit]
    correct = "win"           # takes every other player's game stones

Every key not listed here is refused, naming the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal

from einhorn_table.parsing import loads_toml
from einhorn_table.rules.categories import Category
from einhorn_table.rules.errors import RuleViolation, VariantError
from einhorn_table.toml_mistakes import toml_mistake_words, value_shapes

#: The payout cell that means "takes all game stones of every other player and the game ends".
WIN: Final = "win"

Amount = int | Literal["win"]
Column = Literal["correct", "wrong", "silent"]
COLUMNS: tuple[Column, ...] = ("correct", "wrong", "silent")


@dataclass(frozen=True, slots=True)
class Payout:
    """One row of a payout table: what the roller gets for the rolled category."""

    correct: Amount
    wrong: int
    silent: int

    def amount(self, column: Column) -> Amount:
        if column == "correct":
            return self.correct
        return self.wrong if column == "wrong" else self.silent


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything in which two ways of playing Einhorn differ."""

    name: str
    payouts: Mapping[Category, Payout]
    #: The central stash at setup: a fixed number, or so many stones per player.
    central: int | None = None
    central_per_player: int | None = None
    #: Extra stones the starting player takes from the central stash (game 1).
    start_bonus: int = 0
    #: Stones a new unicorn owner takes from the old owner's game stones.
    pass_stone: int = 0
    #: Game stones each player takes from the central stash at each deal.
    deal: int = 6
    games: int = 10
    #: End the match between games once a stash holds this many stones.
    target: int | None = None
    min_players: int = 2
    max_players: int = 6
    #: The shipped variant this one starts from (itself, for a shipped one).
    base: str = ""
    notes: tuple[str, ...] = field(default=())

    def check_players(self, count: int) -> None:
        """Refuse a match of ``count`` players outside this variant's range."""
        if not self.min_players <= count <= self.max_players:
            wanted = (f"{self.min_players}" if self.min_players == self.max_players
                      else f"{self.min_players} to {self.max_players}")
            raise RuleViolation(f"{self.name} is played by {wanted} players, not {count}",
                                rule="2")

    def central_for(self, players: int) -> int:
        """The central stash at setup for so many players."""
        if self.central is not None:
            return self.central
        assert self.central_per_player is not None
        return self.central_per_player * players

    def payout(self, rolled: Category, called: Category | None) -> Amount:
        """The amount of RULES.md 4.3: the row is what was rolled, never what was called."""
        row = self.payouts[rolled]
        if called is None:
            return row.silent
        return row.correct if called is rolled else row.wrong


def _table(rows: dict[Category, tuple[Amount, int, int]]) -> dict[Category, Payout]:
    return {cat: Payout(*cells) for cat, cells in rows.items()}


EINHORN = Variant(
    name="einhorn",
    base="einhorn",
    payouts=_table(
        {
            Category.UNVERMEIDLICH: (2, -2, -1),
            Category.WUNSCH: (2, -2, -1),
            Category.EINHORN: (5, -5, 1),
            Category.DREIFALTIGKEIT: (WIN, 1, 5),
        }
    ),
    central_per_player=25,
    start_bonus=1,
    pass_stone=0,
    games=10,
    notes=("the published rule book",),
)

WUERFELN = Variant(
    name="wuerfeln",
    base="wuerfeln",
    payouts=_table(
        {
            Category.UNVERMEIDLICH: (1, -1, -1),
            Category.WUNSCH: (1, -1, 0),
            Category.EINHORN: (5, -5, -2),
            Category.DREIFALTIGKEIT: (9, 3, 6),
        }
    ),
    central=50,
    start_bonus=0,
    pass_stone=1,
    games=10,
    notes=('the first draft, "Würfeln ist Einstellungssache"',),
)

#: The shipped variants, by name.
VARIANTS: dict[str, Variant] = {v.name: v for v in (EINHORN, WUERFELN)}


def get_variant(name: str) -> Variant:
    """A shipped variant by name, or a message listing the names there are."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(
            f"there is no variant called {name!r}; the shipped variants are {known} "
            "(a house variant is read from its TOML file)"
        ) from None


# --- house variants -------------------------------------------------------

#: How a house variant's file writes its values, for the person who mistyped one.
VALUE_SHAPES = value_shapes('name = "grandma", correct = "win"', "games = 8, wrong = -4")

_INT_KEYS = ("central", "central_per_player", "start_bonus", "pass_stone", "deal", "games",
             "target", "min_players", "max_players")
_TOP_KEYS = frozenset({"name", "base", "payouts", *_INT_KEYS})


def _int(value: object, key: str, *, minimum: int) -> int:
    if type(value) is not int:
        raise VariantError(f"{key} must be a whole number, not {value!r}")
    if value < minimum:
        raise VariantError(f"{key} must be at least {minimum}, not {value}")
    return value


def payouts_from_mapping(
    data: object, base: Mapping[Category, Payout], *, where: str = "payouts"
) -> dict[Category, Payout]:
    """Read a payout table (TOML or the notation's ``payouts``) over ``base``.

    ``data`` maps category names to ``{correct, wrong, silent}``; cells left
    out keep the base's value. ``"win"`` is allowed in the ``correct`` column.
    """
    if not isinstance(data, Mapping):
        raise VariantError(f"{where} must be a table of categories, not {data!r}")
    table = dict(base)
    for cat_name, row in data.items():
        try:
            category = Category(cat_name)
        except ValueError:
            names = ", ".join(c.value for c in Category)
            raise VariantError(
                f"{where}.{cat_name} is not a category; use one of {names}"
            ) from None
        if not isinstance(row, Mapping):
            raise VariantError(f"{where}.{cat_name} must be a table with correct, wrong, silent")
        cells: dict[str, Amount] = {
            "correct": table[category].correct,
            "wrong": table[category].wrong,
            "silent": table[category].silent,
        }
        for column, value in row.items():
            key = f"{where}.{cat_name}.{column}"
            if column not in cells:
                raise VariantError(f"{key} is not a column; use correct, wrong or silent")
            if column == "correct" and value == WIN:
                cells[column] = WIN
            elif type(value) is int:
                cells[column] = value
            else:
                allowed = 'a whole number or "win"' if column == "correct" else "a whole number"
                raise VariantError(f"{key} must be {allowed}, not {value!r}")
        wrong, silent = cells["wrong"], cells["silent"]
        assert isinstance(wrong, int) and isinstance(silent, int)
        table[category] = Payout(cells["correct"], wrong, silent)
    if all(cell == 0 for row in table.values() for cell in (row.correct, row.wrong, row.silent)):
        raise VariantError(
            f"{where}: every roll pays 0, so no stones ever move and no game would end (a "
            "game ends when a player's game stones or the central stash run out); give "
            "some rolls an amount other than 0"
        )
    return table


def variant_from_mapping(data: Mapping[str, Any], *, source: str = "house variant") -> Variant:
    """Build a house variant from parsed TOML; every problem names its key."""
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        known = ", ".join(sorted(_TOP_KEYS))
        raise VariantError(f"{source}: unknown key {unknown[0]!r}; the keys are {known}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise VariantError(f'{source}: name must be given, e.g. name = "grandma"')
    if name.strip().casefold() in VARIANTS:
        # Its matches would be shown, kept and counted as the shipped variant's.
        raise VariantError(
            f'{source}: name = "{name.strip()}" is the name of a variant that ships with '
            'the companion; give your house variant a name of its own, e.g. name = "grandma"'
        )
    base_name = data.get("base", "einhorn")
    if not isinstance(base_name, str) or base_name not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise VariantError(f"{source}: base must be one of {known}, not {base_name!r}")
    base = VARIANTS[base_name]
    changes: dict[str, Any] = {"name": name.strip(), "base": base_name, "notes": (source,)}
    minimums = {"central": 1, "central_per_player": 1, "deal": 1, "games": 1, "target": 1,
                "min_players": 2, "max_players": 2}
    for key in _INT_KEYS:
        if key in data:
            changes[key] = _int(data[key], f"{source}: {key}", minimum=minimums.get(key, 0))
    if "central" in changes and "central_per_player" in changes:
        raise VariantError(f"{source}: give central or central_per_player, not both")
    if "central" in changes:
        changes["central_per_player"] = None
    elif "central_per_player" in changes:
        changes["central"] = None
    if "payouts" in data:
        changes["payouts"] = payouts_from_mapping(
            data["payouts"], base.payouts, where=f"{source}: payouts"
        )
    variant = replace(base, **changes)
    if variant.max_players > 6 or variant.min_players > variant.max_players:
        raise VariantError(
            f"{source}: min_players and max_players must satisfy 2 <= min <= max <= 6"
        )
    smallest = variant.central_for(variant.max_players) if variant.central is not None else None
    if smallest is not None and smallest <= variant.deal * variant.max_players:
        raise VariantError(
            f"{source}: central must be more than {variant.deal} stones per player "
            f"({variant.deal * variant.max_players} for {variant.max_players} players): give "
            "a bigger central, or set max_players to the most players who will play it"
        )
    if variant.central_per_player is not None and variant.central_per_player <= variant.deal:
        raise VariantError(
            f"{source}: central_per_player must be more than deal ({variant.deal})"
        )
    return variant


def load_variant(path: str | Path) -> Variant:
    """Read a house variant from a TOML file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # (-sig: as some Windows editors save)
    except IsADirectoryError:
        raise VariantError(_folder_words(path)) from None
    except UnicodeDecodeError:
        raise VariantError(f"{path} is not saved as UTF-8 text: open it in a text editor "
                           "and save it with the encoding UTF-8") from None
    except OSError as error:
        raise VariantError(f"cannot read the house variant {path}: {error.strerror}") from None
    try:
        data = loads_toml(text)
    except tomllib.TOMLDecodeError as error:
        raise VariantError(f"{path} is not valid TOML "
                           f"{toml_mistake_words(error, text, VALUE_SHAPES)}") from None
    return variant_from_mapping(data, source=str(path))


def _folder_words(path: Path) -> str:
    """What to say where a folder was given for a house variant's file."""
    try:
        files = sorted(file.name for file in path.glob("*.toml") if file.is_file())
    except OSError:
        files = []
    held = ""
    if files:
        more = f" and {len(files) - 3} more" if len(files) > 3 else ""
        held = f" (this folder holds {', '.join(files[:3])}{more})"
    known = ", ".join(sorted(VARIANTS))
    return (f"{path} is a folder, not a house variant: name the house variant's TOML file "
            f"itself{held}, or a shipped variant: {known}")


def find_variant(name_or_file: str) -> Variant:
    """A shipped variant by its name, or a house variant from its TOML file."""
    if name_or_file in VARIANTS or not (name_or_file.endswith(".toml")
                                        or Path(name_or_file).exists()):
        return get_variant(name_or_file)
    return load_variant(name_or_file)


def payouts_to_mapping(payouts: Mapping[Category, Payout]) -> dict[str, dict[str, Amount]]:
    """The payout table as plain data (for the notation's ``payouts``)."""
    return {
        cat.value: {"correct": row.correct, "wrong": row.wrong, "silent": row.silent}
        for cat, row in payouts.items()
    }
