"""The dice verdict in a family's words: no p-value on the screen, ties named in full."""

from __future__ import annotations

import re
from pathlib import Path

from history_helpers import bot_match, open_store

from einhorn_table.history.charts import _short_verdict
from einhorn_table.history.fairness import judge
from einhorn_table.history.stats import format_statistics, gather
from einhorn_table.history.view import history_summary

P_VALUE = re.compile(r"\bp [=<] ")


def test_the_history_screen_says_the_dice_verdict_without_a_p_value(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    for seed in (1, 2, 3):
        match = bot_match(seed)
        recorder = store.begin(match.setup)
        for item in match.record:
            recorder.append(item)
    stats = gather(store)
    tested = [d for d in stats.dice if d.p_value is not None]
    assert tested, "the bot matches should give some set of dice enough rolls to test"
    screen = history_summary(store).dice
    assert screen == tuple(f"{d.dice}: {d.words}" for d in stats.dice)
    assert not any(P_VALUE.search(line) for line in screen)
    for d in tested:  # the same verdict, the p-value left out
        assert P_VALUE.search(d.verdict)
        assert d.biased or d.verdict.startswith(d.words)
    # The terminal keeps p for a game club, and says once what it is.
    words = format_statistics(gather(store))
    assert words.count("(p: the chance that fair dice come out this uneven or more; "
                       "below 0.01 counts as a sign of bias)") == 1
    assert all(f"{d.dice}: {d.verdict}" in words for d in stats.dice)


def test_the_screen_words_for_each_verdict() -> None:
    assert judge("red", 120, [60] * 6).words == "no bias shows yet in 120 rolls"
    assert judge("red", 600, [300] * 6).words == "no sign of bias in 600 rolls"
    assert (judge("green", 600, [330, 270, 300, 300, 330, 270]).words
            == "no clear sign of bias yet in 600 rolls")
    loaded = judge("white", 300, [140, 140, 140, 141, 141, 198])
    assert loaded.biased
    assert loaded.words == "face 6 too often: roll more to be sure"
    assert judge("red", 30, [15] * 6).words == "too few rolls to tell (30; needs 60)"


def test_faces_equally_far_from_their_share_are_all_named() -> None:
    # 1400 dice, 233.3 each: faces 5 and 6 both 66.7 over their share.
    both = judge("blue", 466, [200, 200, 200, 200, 300, 300])
    assert both.biased and both.odd_faces == (5, 6) and both.odd_face == 5
    assert both.verdict.startswith("faces 5 and 6 come up too often: p < 0.001")
    # (466 rolls and p < 0.001: enough to say so, test_numbers_review.py.)
    assert both.words == "faces 5 and 6 too often: likely unfair"
    assert _short_verdict(both) == "faces 5 and 6 too often (p < 0.001)"
    # One face as far over as another is under: both named, and the one that comes up
    # too often is the odd face (what a family looks for in a loaded die), not face 1.
    over_under = judge("red", 200, [50, 100, 100, 100, 100, 150])
    assert over_under.odd_faces == (1, 6) and over_under.odd_face == 6
    assert over_under.verdict.startswith("face 6 comes up too often, face 1 too rarely: p <")
    assert _short_verdict(over_under) == "face 6 too often, face 1 too rarely\n(p < 0.001)"
    rare = judge("red", 200, [50, 50, 125, 125, 125, 125])
    assert rare.odd_faces == (1, 2) and rare.odd_face == 1
    assert rare.verdict.startswith("faces 1 and 2 come up too rarely")
    # Every face exactly its share: no face is odd.
    even = judge("red", 120, [60] * 6)
    assert even.odd_faces == () and even.odd_face is None
