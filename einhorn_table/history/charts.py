"""The statistics as PNG charts for a family: matplotlib, an optional extra (``charts``)."""

from __future__ import annotations

import itertools
import logging
import os
import string
import sys
import textwrap
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from einhorn_table.history.errors import HistoryError
from einhorn_table.history.fairness import (
    ALPHA,
    MIN_ROLLS,
    SURE_ROLLS,
    WATCH,
    FairnessVerdict,
    faces_off,
)
from einhorn_table.history.stats import Statistics
from einhorn_table.words import joined

STASH_CHART = "stash-over-games.png"
CALLS_CHART = "calls-vs-odds.png"
FACES_CHART = "dice-faces.png"


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise HistoryError(
            "charts need matplotlib, which is not installed here. Install it with: "
            f"{sys.executable} -m pip install 'matplotlib>=3.8' (or leave out --charts)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # (A font found for 王芳 may have no bold, for a title: matplotlib draws its regular
    # and need not say so in the terminal, "findfont: Failed to find font weight bold".)
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)

    plt.rcParams.update({"font.size": 13, "axes.titlesize": 16, "axes.titleweight": "bold",
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


@dataclass(frozen=True, slots=True)
class ChartNames:
    """How the charts write the players' and dice's names: each as it is, drawn with
    matplotlib's font, or with a font installed here that has its letters (美咲, ქეთი);
    a name no font here can draw is written as a stand-in ("player A"), which the
    terminal tells (:attr:`stand_ins`), rather than as boxes no one tells apart."""

    #: The fonts' families, matplotlib's own first: its font.family while drawing.
    families: tuple[str, ...] = ()
    #: Each name no font here can draw, and what the charts write instead.
    stand_ins: dict[str, str] = field(default_factory=dict)
    #: Of each stand-in's name, the letters no font here has ("王芳" of "王芳's dice";
    #: "🦄" of "Papa 🦄"): what a font to install must have. A name not here: all of its
    #: letters but ASCII's.
    missing: dict[str, str] = field(default_factory=dict)

    def shown(self, name: str) -> str:
        return self.stand_ins.get(name, name)


def write_charts(stats: Statistics, folder: Path,
                 names: ChartNames | None = None) -> list[Path]:
    """Write the three charts into ``folder``; returns their paths. ``names``: how to
    write the names (:func:`chart_names`, worked out here when not given)."""
    plt = _pyplot()
    if names is None:
        names = chart_names(stats)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        why = "a file has that name" if isinstance(error, FileExistsError) else error.strerror
        raise HistoryError(f"cannot make the chart folder {folder} ({why}); name a folder "
                           "you may write to with --charts") from None
    with plt.rc_context({"font.family": list(names.families)} if names.families else {}):
        written = [
            _stash_chart(plt, stats, folder / STASH_CHART, names),
            _calls_chart(plt, stats, folder / CALLS_CHART),
            _faces_chart(plt, stats, folder / FACES_CHART, names),
        ]
    return written


def chart_names(stats: Statistics) -> ChartNames:
    """How the charts of ``stats`` write its names (see :class:`ChartNames`): the fonts
    the screen would draw them with (:mod:`einhorn_table.screen.fonts`), where
    matplotlib's own lacks their letters."""
    _pyplot()
    from matplotlib import font_manager

    default = font_manager.findfont(font_manager.FontProperties())
    players = [p.name for p in stats.players]
    texts = [*players, *(d.dice for d in stats.dice)]
    lacking = {text: _letters(text) - _charmap(default) for text in texts}
    if not any(lacking.values()):
        return ChartNames()
    used: list[str] = []
    stand_ins: dict[str, str] = {}
    missing: dict[str, str] = {}
    fallbacks = _fallback_fonts()  # (fontconfig asked once, only where a name needs it)
    for text, letters in lacking.items():
        if not letters:
            continue
        path = next((path for path in [*used, *fallbacks] if letters <= _charmap(path)),
                    None)
        if path is None:
            stand_ins[text] = _stand_in(text, players, stand_ins, texts)
            missing[text] = "".join(chr(letter) for letter in sorted(letters))
        elif path not in used:
            used.append(path)
    families = []
    for path in used:
        font_manager.fontManager.addfont(path)
        families.append(font_manager.FontProperties(fname=path).get_name())
    base = font_manager.FontProperties(fname=default).get_name()
    return ChartNames((base, *families) if families else (), stand_ins, missing)


def _letters(text: str) -> set[int]:
    """The letters of ``text`` a font must have (not spaces or invisible marks)."""
    return {ord(c) for c in text if c.isprintable() and not c.isspace()}


@cache
def _charmap(path: str) -> frozenset[int]:
    """The letters the font file ``path`` has."""
    from matplotlib import ft2font

    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):  # (a font file FreeType cannot read)
        return frozenset()


def _fallback_fonts() -> tuple[str, ...]:
    """The fonts the screen tries for letters its own lacks (CJK first), as installed
    here: none where pygame or fontconfig is missing."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame

        from einhorn_table.screen.fonts import installed_fallbacks
    except ImportError:
        return ()
    return installed_fallbacks(pygame)


def _stand_in(text: str, players: Sequence[str], taken: dict[str, str],
              names: Sequence[str]) -> str:
    """What the charts write for a name no font here can draw: "player A" (the next
    letter no other stand-in and no name of ``names`` is), or a player's dice as that
    player's stand-in's ("player A's dice")."""
    for player in players:
        if text == f"{player}'s dice" and player in taken:
            return f"{taken[player]}'s dice"
    kind = "player" if text in players else "dice"
    used = {*taken.values(), *names}
    return next(shown for number in itertools.count()
                if (shown := f"{kind} {_label(number)}") not in used)


def _label(number: int) -> str:
    """A, B, ... Z, AA, AB ...: the ``number``-th stand-in's letter (from 0)."""
    letters = string.ascii_uppercase
    return letters[number] if number < 26 else _label(number // 26 - 1) + letters[number % 26]


def stand_in_words(names: ChartNames) -> str | None:
    """What the terminal says of the stand-ins the charts wrote, if any."""
    if not names.stand_ins:
        return None
    told = ", ".join(f"{shown} = {name}" for name, shown in names.stand_ins.items()
                     if not shown.endswith("'s dice"))  # ("player A's dice" tells itself)
    return (f"No font on this machine has the letters of some names, so the charts write "
            f"them as: {told}. {install_hint(names)}").rstrip()


#: The fonts that have the letters the charts may lack, by the Debian (Raspberry Pi OS)
#: package that installs them: Chinese, Japanese and Korean; most other scripts
#: (Devanagari, Bengali, Thai...: GNU FreeSans, one of the fonts the charts look for).
CJK_FONTS = "fonts-noto-cjk"
OTHER_FONTS = "fonts-freefont-ttf"


def _stand_in_notes(drawn: Sequence[str], names: ChartNames) -> list[str]:
    """A chart's notes on the ``drawn`` names it shows as stand-ins, with how to see
    them; none where it shows none."""
    standing_in = sorted(names.stand_ins[n] for n in drawn if n in names.stand_ins)
    if not standing_in:
        return []
    return [f"{', '.join(standing_in)}: names no font on this machine can draw (the "
            "command that wrote the chart said whose).", install_hint(names)]


def install_hint(names: ChartNames) -> str:
    """How to see the names the charts wrote as stand-ins (the terminal and the charts
    themselves say it: a family looks at the pictures, not only at the terminal).

    Only the letters no font here has count (:attr:`ChartNames.missing`: "王芳's dice"
    needs no font for "'s dice"), and a symbol no font here has, an emoji above all
    ("Papa 🦄"), is in none of the fonts the charts look for: no package is named for
    it, which would change nothing."""
    def odd(name: str) -> set[str]:
        return {c for c in names.missing.get(name, name) if _letters(c) and not c.isascii()}

    def symbolic(letter: str) -> bool:
        return unicodedata.category(letter).startswith("S")

    letters = [c for name in names.stand_ins for c in odd(name) if not symbolic(c)]
    packages = [package for package, needed in (
        (CJK_FONTS, any(_is_cjk(c) for c in letters)),
        (OTHER_FONTS, not all(_is_cjk(c) for c in letters))) if needed and letters]
    # (Named by their stand-ins: the charts cannot draw the symbol itself.)
    kept = sorted(shown for name, shown in names.stand_ins.items()
                  if not shown.endswith("'s dice") and any(map(symbolic, odd(name))))
    said = []
    if packages:
        said.append("To see the names themselves, install a font that has them (on "
                    f"Raspberry Pi OS: sudo apt install {' '.join(packages)}) and write "
                    "the charts again.")
    if kept:
        one = len(kept) == 1
        said.append(f"The name{'' if one else 's'} of {joined(kept)} "
                    f"{'has' if one else 'have'} an emoji or another symbol that no font "
                    "the charts use has: "
                    f"{'it stays ' + repr(kept[0]) if one else 'they stay so'}, whatever "
                    "is installed.")
    return " ".join(said)


def _is_cjk(letter: str) -> bool:
    """Whether ``letter`` is Chinese, Japanese or Korean (fonts-noto-cjk has it)."""
    return unicodedata.name(letter, "").startswith(
        ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"))


def _save(plt: Any, fig: Any, path: Path) -> Path:
    """Write ``fig`` as ``path``, with room below for its notes, of one line or more."""
    notes = max((text.get_text().count("\n") + 1 for text in fig.texts), default=1)
    fig.tight_layout(rect=(0, 0.04 * notes, 1, 1))
    try:
        fig.savefig(path, dpi=110)
    except OSError as error:
        raise HistoryError(f"cannot write the chart {path} ({error.strerror})") from None
    finally:
        plt.close(fig)
    return path


def _wrapped(fig: Any, notes: Sequence[str], size: float) -> str:
    """``notes`` as lines that fit across ``fig`` in letters of ``size`` points."""
    width = max(20, int(fig.get_figwidth() * 72 / (size * 0.56)))
    return "\n".join(textwrap.fill(note, width, break_on_hyphens=False) for note in notes
                     if note)


#: The stash chart draws at most this many players' lines (those who played most):
#: a club's year of twenty players is a tangle no one can follow.
MOST_LINES = 8


def _stash_chart(plt: Any, stats: Statistics, path: Path, names: ChartNames) -> Path:
    fig, ax = plt.subplots(figsize=(11, 5.5))
    drawn = sorted(stats.players, key=lambda p: -p.matches)[:MOST_LINES]
    for p in stats.players:
        if p not in drawn:
            continue
        games = range(1, len(p.stash_by_game) + 1)
        ax.plot(games, p.stash_by_game, marker="o", linewidth=2.5,
                label=f"{names.shown(p.name)} (won {p.wins} of {p.matches})")
    ax.set_title("Stones in each player's stash after each game")
    ax.set_xlabel("after game")
    ax.set_ylabel("stones in the stash")
    note = ("Each point: the average over the matches that reached that game."
            if stats.players else "")
    if len(drawn) < len(stats.players):
        note += (f" The {len(drawn)} players with the most matches; "
                 "stats --player NAME --charts DIR draws anyone else.")
    notes = [note]
    notes += _stand_in_notes([p.name for p in drawn], names)
    fig.text(0.01, 0.01, _wrapped(fig, notes, 10), fontsize=10, color="#555555")
    longest = max((len(p.stash_by_game) for p in drawn), default=1)
    ax.set_xticks(range(1, longest + 1))
    ax.grid(axis="y", alpha=0.3)
    if stats.players:  # (beside the lines, not over them)
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:  # (no axes of tenths of a stone around nothing)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.text(0.5, 0.5, "no finished matches yet", ha="center", transform=ax.transAxes)
    return _save(plt, fig, path)


def _calls_chart(plt: Any, stats: Statistics, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(9, 5.5))
    labels = [c.call.label.replace("Das ", "") for c in stats.calls]
    xs = range(len(labels))
    width = 0.38
    rates = [100 * (c.rate or 0) for c in stats.calls]
    odds = [100 * c.odds for c in stats.calls]
    bars = ax.bar([x - width / 2 for x in xs], rates, width, color="#3b7dd8",
                  label="came true at this table")
    ax.bar([x + width / 2 for x in xs], odds, width, color="#c8c8c8",
           label="chance with fair dice")
    for bar, c in zip(bars, stats.calls, strict=True):
        # ("never called" on two lines: on one it ran into the grey bar beside it.)
        note = f"{c.came_true} of {c.made}" if c.made else "never\ncalled"
        ax.annotate(note, (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    xytext=(0, 4), textcoords="offset points", ha="center", fontsize=11)
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel("% of calls")
    ax.set_ylim(0, max([*rates, *odds, 10]) * 1.2)
    ax.set_title("How often each call came true")
    ax.legend(frameon=False, loc="upper right")
    return _save(plt, fig, path)


def _faces_chart(plt: Any, stats: Statistics, path: Path, names: ChartNames) -> Path:
    dice = stats.dice
    count = max(1, len(dice))
    cols = 2 if count == 4 else min(3, count)
    lines = (count + cols - 1) // cols
    fig, axes = plt.subplots(lines, cols, figsize=(4.4 * cols, 4.2 * lines), squeeze=False)
    for ax in axes.flat[len(dice):]:
        ax.axis("off")
    if not dice:
        axes[0][0].text(0.5, 0.5, "no rolls yet", ha="center")
    for ax, d in zip(axes.flat, dice, strict=False):
        total = sum(d.faces)
        share = [100 * n / total if total else 0 for n in d.faces]
        colour = _verdict_colour(d)
        ax.bar(range(1, 7), share, color=colour)
        ax.axhline(100 / 6, color="black", linestyle="--", linewidth=1.2, label="fair: 16.7%")
        ax.set_xticks(range(1, 7))
        ax.set_ylim(0, max([*share, 100 / 6]) * 1.3)
        ax.set_title(f"{names.shown(d.dice)}\n{_short_verdict(d)}", fontsize=12)
        ax.set_xlabel("face")
        ax.set_ylabel("% of dice")
    fig.suptitle("Dice faces: are the dice fair?", fontsize=16, fontweight="bold")
    notes = ["dashed line: a fair die (1 in 6)   green: no sign of bias   amber: not sure "
             "yet   red: a face comes up too often or too rarely   grey: too few rolls to tell"]
    notes += _stand_in_notes([d.dice for d in dice], names)
    fig.text(0.5, 0.01, _wrapped(fig, notes, 9), ha="center", fontsize=9, color="#555555")
    return _save(plt, fig, path)


def _verdict_colour(d: FairnessVerdict) -> str:
    """A panel's bars: grey, green, amber or red, as the legend says."""
    if d.p_value is None:
        return "#9a9a9a"
    if d.p_value < ALPHA:
        return "#d84b3b"
    if d.p_value < WATCH or d.rolls < SURE_ROLLS:
        return "#e0a030"
    return "#3b9d5a"


def _short_verdict(d: FairnessVerdict) -> str:
    """A panel's second title line: the verdict in a few words."""
    if d.p_value is None:
        return f"too few rolls to tell ({d.rolls} rolls; needs {MIN_ROLLS})"
    if d.p_value >= WATCH and d.rolls < SURE_ROLLS:
        return f"no bias shows yet ({d.rolls} rolls)"
    if d.p_value >= WATCH:
        return f"no sign of bias ({d.rolls} rolls)"
    if d.p_value >= ALPHA:
        return f"no clear sign of bias yet ({d.rolls} rolls)"
    p = "p < 0.001" if d.p_value < 0.001 else f"p = {d.p_value:.3f}"
    off = faces_off(d.faces, d.odd_faces, verb=False)
    # Two faces and more on a tie: p on a line of its own, not cut off at the panel's edge.
    return f"{off} ({p})" if len(off) <= 24 else f"{off}\n({p})"
