"""The statistics as PNG charts for a family: matplotlib, an optional extra (``charts``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from einhorn_table.history.errors import HistoryError
from einhorn_table.history.fairness import ALPHA, SURE_ROLLS, WATCH, FairnessVerdict
from einhorn_table.history.stats import Statistics

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

    plt.rcParams.update({"font.size": 13, "axes.titlesize": 16, "axes.titleweight": "bold",
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def write_charts(stats: Statistics, folder: Path) -> list[Path]:
    """Write the three charts into ``folder``; returns their paths."""
    plt = _pyplot()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        why = "a file has that name" if isinstance(error, FileExistsError) else error.strerror
        raise HistoryError(f"cannot make the chart folder {folder} ({why}); name a folder "
                           "you may write to with --charts") from None
    written = [
        _stash_chart(plt, stats, folder / STASH_CHART),
        _calls_chart(plt, stats, folder / CALLS_CHART),
        _faces_chart(plt, stats, folder / FACES_CHART),
    ]
    return written


def _save(plt: Any, fig: Any, path: Path) -> Path:
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    try:
        fig.savefig(path, dpi=110)
    except OSError as error:
        raise HistoryError(f"cannot write the chart {path} ({error.strerror})") from None
    finally:
        plt.close(fig)
    return path


#: The stash chart draws at most this many players' lines (those who played most):
#: a club's year of twenty players is a tangle no one can follow.
MOST_LINES = 8


def _stash_chart(plt: Any, stats: Statistics, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(11, 5.5))
    drawn = sorted(stats.players, key=lambda p: -p.matches)[:MOST_LINES]
    for p in stats.players:
        if p not in drawn:
            continue
        games = range(1, len(p.stash_by_game) + 1)
        ax.plot(games, p.stash_by_game, marker="o", linewidth=2.5,
                label=f"{p.name} (won {p.wins} of {p.matches})")
    ax.set_title("Stones in each player's stash after each game")
    ax.set_xlabel("after game")
    ax.set_ylabel("stones in the stash")
    note = "Each point: the average over the matches that reached that game."
    if len(drawn) < len(stats.players):
        note += (f" The {len(drawn)} players with the most matches; "
                 "stats --player NAME --charts DIR draws anyone else.")
    fig.text(0.01, 0.01, note, fontsize=10, color="#555555")
    longest = max((len(p.stash_by_game) for p in drawn), default=1)
    ax.set_xticks(range(1, longest + 1))
    ax.grid(axis="y", alpha=0.3)
    if stats.players:  # (beside the lines, not over them)
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    else:
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
        note = f"{c.came_true} of {c.made}" if c.made else "never called"
        ax.annotate(note, (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    xytext=(0, 4), textcoords="offset points", ha="center", fontsize=11)
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel("% of calls")
    ax.set_ylim(0, max([*rates, *odds, 10]) * 1.2)
    ax.set_title("How often each call came true")
    ax.legend(frameon=False, loc="upper right")
    return _save(plt, fig, path)


def _faces_chart(plt: Any, stats: Statistics, path: Path) -> Path:
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
        ax.set_title(f"{d.dice}\n{_short_verdict(d)}", fontsize=12)
        ax.set_xlabel("face")
        ax.set_ylabel("% of dice")
    fig.suptitle("Dice faces: are the dice fair?", fontsize=16, fontweight="bold")
    fig.text(0.5, 0.01, "dashed line: a fair die (1 in 6)   green: no sign of bias   "
             "amber: not sure yet   red: a face comes up too often or too rarely   "
             "grey: too few rolls to tell", ha="center", fontsize=9, color="#555555")
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
        return f"too few rolls to tell ({d.rolls})"
    if d.p_value >= WATCH and d.rolls < SURE_ROLLS:
        return f"no strong bias ({d.rolls} rolls)"
    if d.p_value >= WATCH:
        return f"no sign of bias ({d.rolls} rolls)"
    if d.p_value >= ALPHA:
        return f"no clear sign of bias yet ({d.rolls} rolls)"
    assert d.odd_face is not None
    how = "too often" if d.faces[d.odd_face - 1] * 6 > sum(d.faces) else "too rarely"
    p = "p < 0.001" if d.p_value < 0.001 else f"p = {d.p_value:.3f}"
    return f"face {d.odd_face} {how} ({p})"
