"""The extra keys of a roll line that the history reads (RULES.md section 8 allows extras).

On ``start_roll``, ``roll`` and ``tiebreak_roll`` lines:

- ``"dice_color"``: a name for the set of dice thrown, e.g. ``"red"``.
- ``"color"``: the dice colour the camera saw, ``[r, g, b]`` (0-255); used as
  ``#rrggbb`` when there is no ``dice_color``.
- ``"practice": true``: a practice throw; left out of the dice statistics.
- ``"calibration": true``: a throw while calibrating the camera; left out too.
- ``"photo"``: the roll's photo, relative to the state directory
  (``photos/12-00034.jpg``), written by :meth:`MatchRecorder.save_photo`.

Dice are grouped for the fairness test by ``dice_color``, else ``color``, else
the player's name (each player throws their own dice).

On the ``setup`` line:

- ``"started"``: when the match began, ISO 8601 with its offset
  (``"2026-11-27T19:30:00+01:00"``), written by the history that kept it; a match
  imported on another table keeps that date.
- ``"practice": true``: a practice match, written by ``history export``; ``history
  import`` keeps the match as practice (left out of all statistics) and keeps the
  mark in the history's ``practice`` column, not in the line.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

DICE_COLOR = "dice_color"
COLOR = "color"
PRACTICE = "practice"
CALIBRATION = "calibration"
PHOTO = "photo"
STARTED = "started"


def dice_group(player: str, extra: Mapping[str, Any]) -> str:
    """Which dice a roll was thrown with, as the statistics name them."""
    name = extra.get(DICE_COLOR)
    if isinstance(name, str) and name:
        return name
    rgb = extra.get(COLOR)
    if (
        isinstance(rgb, list | tuple)
        and len(rgb) == 3
        and all(type(c) is int and 0 <= c <= 255 for c in rgb)
    ):
        return "#{:02x}{:02x}{:02x}".format(*rgb)
    return f"{player}'s dice"


def started_at(extra: Mapping[str, Any], now: datetime) -> datetime | None:
    """When a setup line says its match began: None when it does not say, or says
    something that is not a date and time with its offset, or a moment after ``now``."""
    text = extra.get(STARTED)
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None or moment > now:
        return None
    return moment


def counts_for_dice(extra: Mapping[str, Any]) -> bool:
    """Whether a roll belongs in the dice statistics (not practice, not calibration)."""
    return extra.get(PRACTICE) is not True and extra.get(CALIBRATION) is not True
