"""A station that does nothing: with pull-ups an unplugged station reads as buttons let
go, the same as a player thinking. Where the table has waited a while for one player's
bid, top-up or choice, and that player has pressed nothing since it was asked, the
screen says whose it waits for and what to check (the plug; in the demo, the keys). Not
for the player to call and roll, nor while the table itself waits (the camera lost)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from table_helpers import chord, tap
from test_table_moments import AUCTION, START, roll_line, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.rules import Awaiting
from einhorn_table.screen.view_model import ScreenKind, ScreenView, build_view
from einhorn_table.table.events import CameraLost
from einhorn_table.table.still_waiting import STILL_WAITING_SECONDS

U, W, E, D = Button.UNVERMEIDLICH, Button.WUNSCH, Button.EINHORN, Button.DREIFALTIGKEIT
PLUG = "if your buttons do nothing, check your station's plug and cable."


def test_an_unplugged_station_in_the_auction_is_told_after_a_while_in_the_real_play(
    mock_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gpiozero")
    pytest.importorskip("pygame")
    from pin_table import PinTable, play_with_pins

    seen: dict[str, ScreenView] = {}
    silent: list[int] = []

    def script(table: PinTable) -> None:
        view = table.bots_until(lambda v: v.kind is ScreenKind.AUCTION)
        c = table.loop.controller
        quiet, *others = c.match.state.owing()
        silent.append(quiet)
        for seat in others:  # the others bid 0 at once; one station is unplugged
            table.tap(seat, E)
        seen["thinking"] = table.run_for(STILL_WAITING_SECONDS - 2)
        seen["waited"] = table.run_for(3.0)
        table.tap(quiet, W)  # the plug pushed in: a press
        seen["pressed"] = table.run_for(1.0)
        seen["pressed later"] = table.run_for(STILL_WAITING_SECONDS - 5)
        assert view.kind is ScreenKind.AUCTION

    assert play_with_pins(script, mock_factory, tmp_path, monkeypatch) == 0
    name = ("Ana", "Ben", "Cem")[silent[0]]
    assert seen["thinking"].kind is ScreenKind.AUCTION
    assert "Still waiting" not in seen["thinking"].notice
    assert seen["waited"].kind is ScreenKind.AUCTION
    assert seen["waited"].notice == f"Still waiting for {name}'s bid. {name}: {PLUG}"
    assert "Still waiting" not in seen["pressed"].notice
    assert "Still waiting" not in seen["pressed later"].notice


def test_the_owners_choice_and_two_players_top_ups_are_told_alike() -> None:
    c, _ = table([setup_line(["Ana", "Ben"]), *START[:2], roll_line("Ana", [1, 3, 5]),
                  roll_line("Ben", [2, 2, 3]), roll_line("Ana", [2, 2, 4])])
    assert build_view(c, 100.0).kind is ScreenKind.COUNTERPARTY
    assert build_view(c, 100.0 + STILL_WAITING_SECONDS - 1).notice == ""
    assert build_view(c, 100.0 + STILL_WAITING_SECONDS).notice == (
        f"Still waiting for Ana's choice of who pays or is paid. Ana: {PLUG}")
    call = '{"type": "call", "player": "Ana", "call": "einhorn"}'
    rounds = [call, roll_line("Ana", [2, 2, 3]), roll_line("Ben", [2, 2, 3]),
              roll_line("Cem", [2, 2, 3])]
    c, _ = table([setup_line(["Ana", "Ben", "Cem"]), *START, *rounds * 3, call,
                  roll_line("Ana", [2, 2, 3]), '{"type": "bid", "player": "Ana", "stones": 0}',
                  '{"type": "bid", "player": "Ben", "stones": 0}',
                  '{"type": "bid", "player": "Cem", "stones": 2}'])  # Cem owns the unicorn
    assert build_view(c, 10.0).kind is ScreenKind.TOPUP
    c.on_gesture(tap(2, E, 11.0))  # Cem tops up 0 and may call
    build_view(c, 11.0)
    assert build_view(c, 11.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Ana's and Ben's top-ups. If your buttons do nothing, check your "
        "station's plug and cable.")
    c.on_gesture(tap(1, W, 50.0))  # Ben counts one up: his station works
    assert build_view(c, 50.0 + STILL_WAITING_SECONDS - 1).notice == (
        f"Still waiting for Ana's top-up. Ana: {PLUG}")


def test_the_player_to_roll_and_a_table_without_its_camera_are_not_told() -> None:
    c, _ = table([setup_line(["Ana", "Ben", "Cem"]), *START])
    assert build_view(c, 1.0).kind is ScreenKind.TURN
    assert build_view(c, 1.0 + 10 * STILL_WAITING_SECONDS).notice == ""  # (thinking)
    c, _ = table(AUCTION)
    assert build_view(c, 1.0).kind is ScreenKind.AUCTION
    c.on_tray(CameraLost(2.0, "no frames"))
    assert build_view(c, 1.0 + 2 * STILL_WAITING_SECONDS).notice == ""


def test_the_demo_names_the_keys_instead_of_the_plug() -> None:
    from einhorn_table.cli.table_app import keys_check

    c, _ = table(AUCTION)
    c.controls_check = keys_check
    build_view(c, 1.0)
    c.on_gesture(tap(0, E, 2.0))  # Ana bids 0
    c.on_gesture(tap(2, E, 2.0))  # Cem too; Ben's keys do nothing
    build_view(c, 2.0)
    assert build_view(c, 2.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Ben's bid. Ben, your keys are Q W E R.")


def test_a_station_with_a_broken_ok_is_told_which_button_to_check_in_the_real_play(
    mock_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One player's Einhorn (OK) has a loose wire: + works, OK reaches no pin, so the bid
    is never handed in. Before, the notice waited for 30 s without any press (each try of
    + started it again) and then told the family to check the station's plug, which is
    fine: they were stuck. Now it names the button, 30 s after the first press, and
    stays however often + is tried again."""
    pytest.importorskip("gpiozero")
    pytest.importorskip("pygame")
    from pin_table import PinTable, play_with_pins

    seen: dict[str, ScreenView] = {}
    silent: list[int] = []

    def script(table: PinTable) -> None:
        table.bots_until(lambda v: v.kind is ScreenKind.AUCTION)
        c = table.loop.controller
        quiet, *others = c.match.state.owing()
        silent.append(quiet)
        for seat in others:
            table.tap(seat, E)
        for k in range(3):  # + three times, then OK (which does nothing: no edges)
            table.tap(quiet, W, after=2.0 + 2 * k)
        seen["counting"] = table.run_for(2.0 + STILL_WAITING_SECONDS - 3)
        seen["waited"] = table.run_for(4.0)  # (30 s after the first tap's release)
        table.tap(quiet, W)  # trying + again: it works
        seen["tried +"] = table.run_for(8.0)
        assert silent[0] in c.match.state.owing()

    assert play_with_pins(script, mock_factory, tmp_path, monkeypatch) == 0
    name = ("Ana", "Ben", "Cem")[silent[0]]
    assert seen["counting"].kind is ScreenKind.AUCTION
    assert "Still waiting" not in seen["counting"].notice
    told = (f"Still waiting for {name}'s bid. {name}: Einhorn (OK) hands in your bid; if "
            "it does nothing, check that button's wires.")
    assert seen["waited"].notice == told
    assert seen["tried +"].notice == told


def test_a_broken_ok_is_told_for_top_ups_and_the_owners_choice_beside_a_silent_station(
) -> None:
    c, _ = table([setup_line(["Ana", "Ben"]), *START[:2], roll_line("Ana", [1, 3, 5]),
                  roll_line("Ben", [2, 2, 3]), roll_line("Ana", [2, 2, 4])])
    assert build_view(c, 100.0).kind is ScreenKind.COUNTERPARTY
    c.on_gesture(tap(0, W, 101.0))  # Ana steps to Ben; OK does nothing
    c.on_gesture(tap(0, W, 120.0))  # (and on: the waiting is not started again)
    assert build_view(c, 101.0 + STILL_WAITING_SECONDS - 1).notice == ""
    assert build_view(c, 101.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Ana's choice of who pays or is paid. Ana: Einhorn (OK) settles "
        "with the one shown; if it does nothing, check that button's wires.")
    call = '{"type": "call", "player": "Ana", "call": "einhorn"}'
    rounds = [call, roll_line("Ana", [2, 2, 3]), roll_line("Ben", [2, 2, 3]),
              roll_line("Cem", [2, 2, 3])]
    c, _ = table([setup_line(["Ana", "Ben", "Cem"]), *START, *rounds * 3, call,
                  roll_line("Ana", [2, 2, 3]), '{"type": "bid", "player": "Ana", "stones": 0}',
                  '{"type": "bid", "player": "Ben", "stones": 0}',
                  '{"type": "bid", "player": "Cem", "stones": 2}'])  # Cem owns the unicorn
    assert build_view(c, 10.0).kind is ScreenKind.TOPUP
    c.on_gesture(tap(2, E, 11.0))  # Cem tops up 0 and may call
    build_view(c, 11.0)
    c.on_gesture(tap(1, W, 12.0))  # Ben counts one up; his OK does nothing
    assert build_view(c, 12.0 + STILL_WAITING_SECONDS).notice == (
        f"Still waiting for Ana's and Ben's top-ups. Ana: {PLUG} Ben: Einhorn (OK) ends "
        "your top-up; if it does nothing, check that button's wires.")


def test_the_demo_names_the_key_that_hands_it_in() -> None:
    from einhorn_table.cli.table_app import keys_check, keys_hands_in_check

    c, _ = table(AUCTION)
    c.controls_check = keys_check
    c.button_check = keys_hands_in_check
    build_view(c, 1.0)
    c.on_gesture(tap(0, E, 2.0))  # Ana bids 0
    c.on_gesture(tap(1, W, 2.0))  # Ben and Cem count up, and never press done
    c.on_gesture(tap(2, W, 3.0))
    assert build_view(c, 2.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Ben's bid. Ben: key E hands in your bid.")
    assert build_view(c, 3.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Ben's and Cem's bids. The key that hands in your bid: Ben E, "
        "Cem D.")


def test_presses_before_another_players_bid_still_show_the_station_works() -> None:
    """Cem counts up, then Ana and Ben hand in their bids (each asks the rest again): his
    + worked, so it is his OK to check, not his plug."""
    c, _ = table(AUCTION)
    build_view(c, 1.0)
    c.on_gesture(tap(2, W, 2.0))  # Cem counts up twice; his OK reaches no pin
    c.on_gesture(tap(2, W, 3.0))
    c.on_gesture(tap(0, E, 5.0))  # Ana and Ben bid 0
    build_view(c, 5.0)
    c.on_gesture(tap(1, E, 6.0))
    assert build_view(c, 6.0 + STILL_WAITING_SECONDS - 1).notice == ""
    assert build_view(c, 6.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Cem's bid. Cem: Einhorn (OK) hands in your bid; if it does "
        "nothing, check that button's wires.")


def test_presses_since_the_auction_began_count_though_no_screen_was_built_between() -> None:
    """The owner's choice opens the auction; Ana counts up at once (a notice may hold
    the screen then), the others bid: her + worked, so it is her OK to check."""
    c, _ = table(AUCTION[:-1])
    build_view(c, 1.0)
    c.on_gesture(tap(1, E, 1.0))  # Ben, the owner, settles with the central stash
    assert c.awaiting is Awaiting.BID
    c.on_gesture(tap(0, W, 2.0))  # Ana counts up; her OK reaches no pin
    c.on_gesture(tap(1, E, 4.0))  # Ben and Cem bid 0
    c.on_gesture(tap(2, E, 5.0))
    assert build_view(c, 5.0 + STILL_WAITING_SECONDS).notice == (
        "Still waiting for Ana's bid. Ana: Einhorn (OK) hands in your bid; if it does "
        "nothing, check that button's wires.")


def test_the_press_that_opened_the_auction_does_not_count_as_a_try_at_a_bid() -> None:
    c, _ = table(AUCTION[:-1])
    c.on_gesture(tap(1, E, 1.0))  # Ben, the owner, settles (his OK works), then nothing
    c.on_gesture(tap(0, E, 2.0))  # Ana and Cem bid 0
    c.on_gesture(tap(2, E, 3.0))
    assert build_view(c, 3.0 + STILL_WAITING_SECONDS).notice == (
        f"Still waiting for Ben's bid. Ben: {PLUG}")


def test_a_bid_undone_does_not_blame_the_ok_that_handed_it_in() -> None:
    """Ben's OK handed in his bid; Ana's undo takes it back and he thinks again: his OK
    worked, so the screen does not tell him to check its wires."""
    c, _ = table(AUCTION)
    build_view(c, 10.0)
    c.on_gesture(tap(1, E, 11.0))  # Ben bids 0: his OK works
    c.on_gesture(chord(0, U, D, 12.0))  # Ana undoes: Ben's bid is taken back
    assert c.match.state.owing() == (0, 1, 2)
    c.on_gesture(tap(0, E, 13.0))  # Ana and Cem bid 0
    c.on_gesture(tap(2, E, 13.5))
    assert build_view(c, 13.5 + STILL_WAITING_SECONDS).notice == (
        f"Still waiting for Ben's bid. Ben: {PLUG}")
