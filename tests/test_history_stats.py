"""Statistics, the dice test, the words of `show`, CSV, the view model and the charts."""

from __future__ import annotations

import csv
import io
import math
import random
import sys
from pathlib import Path

import pytest
from conftest import GOLDEN, needs_golden
from history_helpers import PLAYERS, bot_match, open_store

from einhorn_table.history import HistoryError, MatchStore
from einhorn_table.history.charts import write_charts
from einhorn_table.history.export import match_csv
from einhorn_table.history.fairness import ALPHA, MIN_ROLLS, SURE_ROLLS, chi_square_sf, judge
from einhorn_table.history.narrate import narrate
from einhorn_table.history.stats import Statistics, format_statistics, gather, unicorn_stats
from einhorn_table.history.summary import summarize
from einhorn_table.history.view import history_summary
from einhorn_table.rules import (
    PROBABILITY,
    AuctionResult,
    Category,
    Match,
    Roll,
    Setup,
    StartRoll,
    TurnResult,
    replay,
)


@pytest.mark.parametrize(("x", "df", "p"), [
    (11.0705, 5, 0.05), (15.0863, 5, 0.01), (20.515, 5, 0.001), (1.6103, 5, 0.90),
    (3.8415, 1, 0.05), (5.9915, 2, 0.05), (7.8147, 3, 0.05), (9.4877, 4, 0.05),
    (18.307, 10, 0.05),
])
def test_chi_square_tail_matches_the_tables(x: float, df: int, p: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_chi_square_tail_agrees_with_a_numeric_integral() -> None:
    # df = 5: density x^(3/2) e^(-x/2) / (2^(5/2) Gamma(5/2)); integrate from x to 80.
    def density(t: float) -> float:
        return t ** 1.5 * math.exp(-t / 2) / (2 ** 2.5 * math.gamma(2.5))

    for x in (0.5, 3.0, 7.0, 12.0):
        steps = 20000
        h = (80 - x) / steps
        area = sum(density(x + (i + 0.5) * h) for i in range(steps)) * h
        assert chi_square_sf(x, 5) == pytest.approx(area, rel=1e-6)


def test_fair_dice_show_no_bias_and_loaded_dice_are_named() -> None:
    rng = random.Random(1)
    fair = [0] * 6
    for _ in range(600 * 3):
        fair[rng.randrange(6)] += 1
    verdict = judge("red", 600, fair)
    assert not verdict.biased and verdict.verdict.startswith("no sign of bias in 600 rolls")
    loaded = [0] * 6
    for _ in range(600 * 3):
        loaded[5 if rng.random() < 0.25 else rng.randrange(6)] += 1
    verdict = judge("blue", 600, loaded)
    assert verdict.biased and verdict.p_value is not None and verdict.p_value < ALPHA
    assert verdict.verdict.startswith("face 6 comes up too often: p < 0.001 (600 rolls)")
    # Between 0.01 and 0.05: not called bias, but not "no sign" beside a small p either.
    doubtful = judge("green", 600, [330, 270, 300, 300, 330, 270])  # chi-square 12
    assert not doubtful.biased and doubtful.p_value == pytest.approx(0.0348, abs=1e-4)
    assert doubtful.verdict == "no clear sign of bias yet in 600 rolls (p = 0.035)"
    assert doubtful.advice == "keep playing with them: another 300 rolls will tell"
    # (Far too uneven for fair dice in 600 rolls: no more "roll another 300 times".)
    assert verdict.advice is not None and "play with another set of dice" in verdict.advice
    few = judge("green", 30, [15] * 6)
    assert few.p_value is None and few.verdict.startswith("too few rolls to tell (30")
    assert MIN_ROLLS > 30


def test_few_rolls_that_look_fair_are_not_called_fair() -> None:
    """At 120 rolls a die whose 6 comes up twice as often passes most times: the verdict
    says no bias shows yet, and how many rolls it takes to tell."""
    even = judge("red", 120, [60] * 6)
    assert not even.biased and even.verdict == "no bias shows yet in 120 rolls (p = 1.00)"
    assert even.advice == ("too few rolls to be sure: a face twice as likely as it should "
                           f"be shows by about {SURE_ROLLS} rolls, a smaller bias by about "
                           "1000")
    assert judge("red", SURE_ROLLS, [SURE_ROLLS // 2] * 6).verdict.startswith("no sign of bias")
    # Near the line, p keeps three decimals: not "no clear sign ... (p = 0.01)".
    near = judge("red", 120, [45, 45, 75, 75, 60, 60])
    assert near.p_value is not None and ALPHA <= near.p_value < 0.0105
    assert near.verdict == f"no clear sign of bias yet in 120 rolls (p = {near.p_value:.3f})"


def _store_matches(store: MatchStore, seeds: list[int], practice: bool = False) -> list[Match]:
    played = []
    for seed in seeds:
        match = bot_match(seed)
        recorder = store.begin(match.setup, practice=practice)
        for item in match.record:
            recorder.append(item)
        played.append(match)
    return played


def test_player_figures_and_calls_add_up_to_the_matches(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    played = _store_matches(store, [1, 2, 3])
    _store_matches(store, [4], practice=True)
    stats = gather(store)
    assert stats.matches == 3
    wins = {name: sum(m.ledger().winner == name for m in played) for name in PLAYERS}
    assert {p.name: p.wins for p in stats.players} == wins
    for p in stats.players:
        finals = [m.ledger().player(p.name).stash for m in played]
        assert p.average_stash == pytest.approx(sum(finals) / 3)
        assert p.stash_by_game[-1] >= 0 and p.matches == 3
    # Calls, counted straight from the outcomes of the three matches.
    made = {c: 0 for c in Category}
    true = {c: 0 for c in Category}
    for match in played:
        check = Match(match.setup)
        for item in match.inputs:
            outcome = check.apply(item)
            if isinstance(outcome, TurnResult) and outcome.call is not None:
                made[outcome.call] += 1
                true[outcome.call] += outcome.call is outcome.category
    for c in stats.calls:
        assert (c.made, c.came_true, c.odds) == (made[c.call], true[c.call], PROBABILITY[c.call])
    ana = gather(store, "Ana")
    assert [p.name for p in ana.players] == ["Ana"]
    assert sum(c.made for c in ana.calls) < sum(c.made for c in stats.calls)


def test_unicorn_worth_counts_bids_and_gains(tmp_path: Path) -> None:
    match = bot_match(11)
    summary = summarize(match)
    check = Match(match.setup)
    bought = []
    for item in match.inputs:
        outcome = check.apply(item)
        # (An auction whose deal ends the match is no spell: nobody played with it.)
        if isinstance(outcome, AuctionResult) and outcome.winner is not None \
                and not check.over:
            bought.append(dict(outcome.bids)[outcome.winner])
    auctions = [u for u in summary.unicorn if u.how == "auction"]
    assert [u.bid for u in auctions][: len(bought)] == bought
    assert all(u.bid == 0 for u in summary.unicorn if u.how == "roll")
    assert any(u.gained != 0 for u in summary.unicorn)


@needs_golden
def test_owner_takes_from_player_counts_the_owners_gain() -> None:
    match = replay((GOLDEN / "owner-takes-from-player.jsonl").read_text().splitlines())
    summary = summarize(match)
    ben = [u for u in summary.unicorn if u.player == "Ben"]
    # Ben took it with an Einhorn, then won 2 from Ana and 4 more (short) with 5 5 5.
    assert ben and ben[0].how == "roll" and ben[0].gained == 6


def test_practice_and_calibration_rolls_are_left_out_of_the_dice(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    recorder = store.begin(Setup(players=("Ana", "Ben"), games=1))
    recorder.append(StartRoll(player="Ana", dice=(6, 6, 5), extra={"dice_color": "red"}))
    recorder.append(StartRoll(player="Ben", dice=(1, 1, 2), extra={"color": [0, 0, 255]}))
    recorder.append(Roll(player="Ana", dice=(6, 6, 6), extra={"practice": True}))
    recorder.append(Roll(player="Ben", dice=(1, 1, 1), extra={"calibration": True}))
    store.abandon(recorder.match_id)
    dice = {d.dice: d for d in gather(store).dice}
    assert set(dice) == {"red", "#0000ff"}
    assert dice["red"].rolls == 1 and dice["red"].faces == (0, 0, 0, 0, 1, 2)
    assert dice["#0000ff"].rolls == 1 and dice["#0000ff"].faces == (2, 1, 0, 0, 0, 0)


def test_show_tells_the_match_turn_by_turn(tmp_path: Path) -> None:
    lines = [
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 2}',
        '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
        '{"type": "call", "player": "Ana", "call": "einhorn"}',
        '{"type": "roll", "player": "Ana", "dice": [1, 3, 5]}',
        '{"type": "roll", "player": "Ben", "dice": [2, 2, 3]}',
    ]
    words = narrate(lines)
    assert "Ana starts" in "\n".join(words)
    assert ("Game 1 · Ana called Einhorn, rolled 1 3 5 = Einhorn: +5 from the central stash; "
            "Ana takes the unicorn") in words
    assert "Game 1 · Ben stayed silent, rolled 2 2 3 = Wunsch: -1 to the central stash" in words


def test_show_says_why_a_match_ended_before_its_games_were_played() -> None:
    start = [
        '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
        '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "Ana", "dice": [4, 4, 4]}',
    ]
    setup = '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"]'
    # Ana's stash after game 1: her 7 game stones and Ben's 6.
    reached = narrate([setup + ', "games": 10, "target": 13}', *start])
    assert "Match over (Ana reached 13): Ana wins with 13 stones" in reached
    played = narrate([setup + ', "games": 1}', *start])
    assert "Match over: Ana wins with 13 stones" in played
    # 13 stones: the deal and Ana's starting stone empty it; her silent Einhorn gets 0.
    dry = narrate([setup + ', "central": 13}', *start[:2],
                   '{"type": "roll", "player": "Ana", "dice": [1, 3, 5]}'])
    assert "Match over (the central stash is empty): Ana wins with 7 stones" in dry
    assert ("Game 1 · Ana stayed silent, rolled 1 3 5 = Einhorn: +0 from the central stash "
            "(1 due, all it had); Ana takes the unicorn") in dry


def test_show_says_who_won_the_auction_s_tie_break() -> None:
    lines = [
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 2}',
        '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
        '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "Ana", "dice": [4, 4, 4]}',
        '{"type": "bid", "player": "Ana", "stones": 0}',
        '{"type": "bid", "player": "Ben", "stones": 0}',
        '{"type": "tiebreak_roll", "player": "Ana", "dice": [2, 2, 1]}',
        '{"type": "tiebreak_roll", "player": "Ben", "dice": [6, 5, 3]}',
    ]
    words = narrate(lines)
    tie = words.index("Auction for game 2 · bids Ana 0, Ben 0: a tie between Ana and Ben, "
                      "who roll for it")
    assert words[tie + 1:tie + 4] == [
        "  Ana rolled the tie-break: 2 2 1 (sum 5)",
        "  Ben rolled the tie-break: 6 5 3 (sum 14)",
        "  Ben takes the unicorn",
    ]


def test_show_tells_a_game_s_top_ups_in_one_line() -> None:
    game_one = [
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 3}',
        '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
        '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "Ana", "dice": [4, 4, 4]}',
        '{"type": "bid", "player": "Ana", "stones": 1}',
        '{"type": "bid", "player": "Ben", "stones": 0}',
    ]
    words = narrate([*game_one,
                     '{"type": "topup", "player": "Ben", "stones": 0}',
                     '{"type": "topup", "player": "Ana", "stones": 2}',
                     '{"type": "roll", "player": "Ana", "dice": [2, 2, 3]}',
                     '{"type": "counterparty", "player": "Ana", "party": "central"}'])
    won = words.index("Auction for game 2 · bids Ana 1, Ben 0: Ana takes the unicorn")
    assert words[won + 1] == "  Top-ups from the stashes: Ana 2"
    assert words[won + 2].startswith("Game 2 · Ana stayed silent, rolled 2 2 3")
    assert not any("topped up" in line for line in words)
    # Top-ups of 0 may be left out (RULES.md section 8): the owner's roll closes them.
    quiet = narrate([*game_one, '{"type": "topup", "player": "Ben", "stones": 0}',
                     '{"type": "roll", "player": "Ana", "dice": [2, 2, 3]}'])
    assert quiet[quiet.index("Auction for game 2 · bids Ana 1, Ben 0: Ana takes the unicorn")
                 + 1] == "  Nobody topped up from their stash"


def test_csv_has_a_row_per_line_with_the_ledger(tmp_path: Path) -> None:
    match = bot_match(7)
    lines = match.notation().splitlines()
    rows = list(csv.DictReader(io.StringIO(match_csv(lines))))
    assert len(rows) == len(lines)  # (the setup line too: the deal)
    assert rows[0]["type"] == "setup"
    last = match.ledger()
    assert rows[-1]["central"] == str(last.central)
    for p in last.players:
        assert rows[-1][f"{p.name} stash"] == str(p.stash)
    assert {r["type"] for r in rows} >= {"start_roll", "roll", "bid"}


@needs_golden
def test_csv_puts_a_game_s_last_turn_in_that_game_and_the_owner_s_turn_together() -> None:
    """golden topup: Ana owns the unicorn and ends game 1 by a roll she then settles
    with Ben; the rows of that turn belong to game 1 and say what was called and rolled."""
    lines = (GOLDEN / "topup.jsonl").read_text().splitlines()
    rows = list(csv.DictReader(io.StringIO(match_csv(lines))))
    roll, settle, bid = rows[8:11]
    assert (roll["type"], roll["game"], roll["call_code"], roll["dice"], roll["amount"]) == \
        ("roll", "1", "dreifaltigkeit", "3 6 4", "")
    assert (settle["type"], settle["game"], settle["call_code"], settle["dice"],
            settle["category_code"], settle["amount"], settle["party"]) == \
        ("counterparty", "1", "dreifaltigkeit", "3 6 4", "unvermeidlich", "-1", "Ben")
    # (the turn's amount was -2; Ana had 1 stone left and paid it, as the ledger says)
    assert (settle["Ana change"], settle["Ben change"]) == ("-1", "1")
    assert (settle["call"], settle["category"]) == ("Dreifaltigkeit", "Das Unvermeidliche")
    assert (bid["type"], bid["game"]) == ("bid", "2")
    # The games only go up.
    games = [int(r["game"]) for r in rows]
    assert games == sorted(games)


def test_view_model_lists_latest_matches_and_leaders(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    played = _store_matches(store, [1, 2])
    view = history_summary(store)
    assert view.title == "2 matches kept"
    assert [m.match_id for m in view.matches] == ["2", "1"]
    assert view.matches[0].winner == played[1].ledger().winner
    assert sum(leader.wins for leader in view.leaders) == 2
    assert all("dice" in line for line in view.dice)
    words = format_statistics(gather(store))
    assert "Calls" in words and "2 finished matches" in words


def test_one_match_is_a_match_in_the_statistics_and_on_the_history_screen(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    _store_matches(store, [1])
    assert "Statistics: 1 finished match (practice left out)" in format_statistics(gather(store))
    assert history_summary(store).title == "1 match kept"


def test_the_unicorn_s_worth_says_won_at_auction_and_counts_in_words() -> None:
    # An auction won on a tie-break of 0 bids is won, not bought.
    stats = Statistics(None, 1, (), (), unicorn_stats([("auction", 1, 0, 3),
                                                       ("einhorn", 2, 0, -1)]), ())
    words = format_statistics(stats)
    assert "won at auction: 1 time, paid 0.0 on average, gained +3.0 on average" in words
    assert "taken with an Einhorn roll: 2 times, gained -0.5 on average" in words


def test_the_unicorn_s_net_adds_up_from_the_figures_shown() -> None:
    # Paid 29/6 = 4.83 and gained 7/6 = 1.17 a time: shown 4.8 and +1.2, so net -3.6.
    stats = Statistics(None, 1, (), (), unicorn_stats([("auction", 6, 29, 7)]), ())
    words = format_statistics(stats)
    assert "paid 4.8 on average, gained +1.2 on average (net -3.6)" in words


def test_charts_are_png_files(tmp_path: Path) -> None:
    store = open_store(tmp_path / "state")
    _store_matches(store, [1, 2])
    paths = write_charts(gather(store), tmp_path / "charts")
    assert len(paths) == 3
    for path in paths:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_charts_without_matplotlib_say_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    store = open_store(tmp_path / "state")
    # The command for the Python that runs the companion (./start's .venv, say).
    with pytest.raises(HistoryError) as refused:
        write_charts(gather(store), tmp_path / "charts")
    assert f"Install it with: {sys.executable} -m pip install 'matplotlib>=3.8'" in \
        str(refused.value)


def test_running_totals_equal_totals_rebuilt_from_the_summaries(tmp_path: Path) -> None:
    from einhorn_table.history.totals import TABLES, rebuild_totals

    store = open_store(tmp_path)
    _store_matches(store, [1, 2, 3])
    _store_matches(store, [4], practice=True)
    store.import_notation(bot_match(5).notation().splitlines())
    partial = bot_match(6)
    recorder = store.begin(partial.setup)
    for item in partial.record[:80]:
        recorder.append(item)
    store.abandon(recorder.match_id)

    def snapshot() -> dict[str, list[tuple[object, ...]]]:
        return {t: sorted(store.query(f"SELECT * FROM {t}")) for t in TABLES}

    running = snapshot()
    with store.transaction("rebuild") as conn:
        rebuild_totals(conn)
    assert snapshot() == running
    assert running["totals_players"] and running["totals_unicorn"]
    # Four finished, counted matches (the practice one left out; abandoned ones have no winner).
    assert sum(row[1] for row in running["totals_players"]) == 4 * len(PLAYERS)
    assert gather(store).matches == 4


def test_a_borderline_bias_names_its_p_value() -> None:
    # 300 rolls, 900 dice: 198 sixes against 150 expected; chi-square 18.44, p = 0.0024.
    verdict = judge("white", 300, [140, 140, 140, 141, 141, 198])
    assert verdict.p_value is not None and 0.001 < verdict.p_value < ALPHA
    assert verdict.verdict == f"face 6 comes up too often: p = {verdict.p_value:.3f} (300 rolls)"
    assert verdict.p_value == pytest.approx(0.00244, abs=5e-5)
    rare = judge("white", 300, [159, 159, 159, 159, 159, 105])
    assert rare.verdict.startswith("face 6 comes up too rarely")


@needs_golden
def test_show_tells_the_roll_off_for_a_tie_by_einhorn_not_by_sum() -> None:
    # Ben's 3 6 3 has the higher sum; Cem's 4 6 1 is an Einhorn and wins (RULES.md 6).
    words = narrate((GOLDEN / "rolloff-won.jsonl").read_text().splitlines())
    assert words[-4:] == [
        "  Ben and Cem tied for the most stones: they roll until one rolls an Einhorn",
        "  Ben rolled 3 6 3 for the match: no Einhorn",
        "  Cem rolled 4 6 1 for the match: an Einhorn",
        "Match over: Cem wins with 5 stones (the first to roll an Einhorn)",
    ]


def test_show_says_what_an_undo_withdrew() -> None:
    words = narrate([
        '{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"], "games": 2}',
        '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
        '{"type": "call", "player": "Ana", "call": "einhorn"}',
        '{"type": "roll", "player": "Ana", "dice": [1, 3, 5]}',
        '{"type": "undo"}',
        '{"type": "undo"}',
        '{"type": "roll", "player": "Ana", "dice": [1, 3, 5]}',
    ])
    assert words[-3:] == [
        "  Undo: Ana's roll 1 3 5 was withdrawn",
        "  Undo: Ana's call Einhorn was withdrawn",
        "Game 1 · Ana stayed silent, rolled 1 3 5 = Einhorn: +1 from the central stash; "
        "Ana takes the unicorn",
    ]


@needs_golden
def test_show_says_whether_the_central_stash_ran_dry_in_a_turn_or_in_the_deal() -> None:
    deal = narrate((GOLDEN / "central-dry-in-deal.jsonl").read_text().splitlines())
    assert deal[-1] == ("Match over (the central stash ran dry while dealing for game 2): "
                        "Dora wins with 25 stones")
    turn = narrate((GOLDEN / "central-dry-in-turn.jsonl").read_text().splitlines())
    assert turn[-1] == "Match over (the central stash is empty): Ben wins with 8 stones"



@pytest.mark.parametrize(("ana_bids", "tie_break"), [(2, []), (0, [
    '{"type": "tiebreak_roll", "player": "Ana", "dice": [6, 6, 6]}',
    '{"type": "tiebreak_roll", "player": "Ben", "dice": [1, 1, 2]}'])],
    ids=["won outright", "won on a tie-break"])
def test_an_auction_whose_deal_ends_the_match_is_no_spell_either_way(
        ana_bids: int, tie_break: list[str]) -> None:
    """20 stones: 7 are left after the deal and Ana's starting stone; Ana wins game 1,
    wins the unicorn (bidding 2, or on a tie at 0), and the deal for game 2 runs dry:
    the match is over before anybody plays with the unicorn."""
    lines = [
        '{"v": 1, "type": "setup", "players": ["Ana", "Ben"], "central": 20}',
        '{"type": "start_roll", "player": "Ana", "dice": [6, 6, 5]}',
        '{"type": "start_roll", "player": "Ben", "dice": [1, 1, 2]}',
        '{"type": "call", "player": "Ana", "call": "dreifaltigkeit"}',
        '{"type": "roll", "player": "Ana", "dice": [4, 4, 4]}',
        f'{{"type": "bid", "player": "Ana", "stones": {ana_bids}}}',
        '{"type": "bid", "player": "Ben", "stones": 0}',
        *tie_break,
    ]
    match = replay(lines)
    assert match.over and match.ledger().games_played == 1
    assert summarize(match).unicorn == ()
