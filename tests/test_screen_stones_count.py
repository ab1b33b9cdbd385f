"""A card's number follows its stones: on a roll's result the payee's number goes up as
its stones land (not before they fly), the payer's down as they leave, and once they all
landed the cards show the ledger's figures."""

from __future__ import annotations

from table_helpers import RED, tap
from test_screen_stones_land import SHOWN, _anas_einhorn
from test_table_moments import START, roll, setup_line, table

from einhorn_table.ports import Button
from einhorn_table.screen.stone_flight import gone_and_landed
from einhorn_table.screen.view_model import (
    FLOW_SECONDS,
    Flow,
    Marker,
    PlayerCard,
    ScreenKind,
    build_view,
    in_flight,
)


def test_the_payees_number_goes_up_as_its_stones_land() -> None:
    c = _anas_einhorn()  # "Central pays Ana 5"
    ledger = c.match.ledger()
    after, central_after = ledger.players[0].game_stones, ledger.central
    frames = [build_view(c, SHOWN + t) for t in (0.0, 0.3, 0.6, 0.9, 1.1, 1.3, FLOW_SECONDS)]
    assert all(v.kind is ScreenKind.RESULT for v in frames)
    anas = [v.players[0].game_stones for v in frames]
    # In the air, her stones are not on her card yet; they count in as they land.
    assert anas[0] == anas[1] == anas[2] == after - 5
    assert anas == sorted(anas) and len(set(anas)) > 2
    assert anas[-1] == after
    # The central stash's number goes down as the stones leave it.
    assert frames[0].central == central_after + 5
    assert frames[2].central == central_after
    # Once landed, the figures are the ledger's, and stay so.
    late = build_view(c, SHOWN + FLOW_SECONDS + 1)
    assert late.players[0].game_stones == after and late.central == central_after


def test_a_payer_keeps_its_stones_until_they_leave() -> None:
    seats = (("Ana", Marker.CIRCLE, 3), ("Ben", Marker.SQUARE, 12))
    cards = tuple(PlayerCard(name, (0, 0, 0), marker, stones, 0, False, False, "")
                  for name, marker, stones in seats)
    pays = (Flow(0, 1, 5, 0.0),)  # Ana pays Ben 5: the cards hold the figures after it
    before, central = in_flight(cards, 20, pays)
    assert [p.game_stones for p in before] == [8, 7] and central == 20
    landed, _ = in_flight(cards, 20, (Flow(0, 1, 5, 1.0),))
    assert [p.game_stones for p in landed] == [3, 12]


def test_more_stones_than_drawn_count_in_to_the_last() -> None:
    assert gone_and_landed(20, 0.0) == (0, 0)
    assert gone_and_landed(20, 1.0) == (20, 20)
    gone, landed = gone_and_landed(20, 0.8)
    assert 0 < landed < 20 == gone


def test_the_roll_that_ends_a_game_counts_its_stones_in_as_they_land() -> None:
    c, _ = table([setup_line(["Ana", "Ben"]), *START[:2]])
    c.on_gesture(tap(0, Button.DREIFALTIGKEIT, 1.0))
    roll(c, [4, 4, 4], RED, t=2.0)  # read at 3.0: Ben pays Ana his 6, the game is over
    frames = [build_view(c, 3.0 + t) for t in (0.0, 0.3, 0.6, 0.9, 1.1, 1.3, FLOW_SECONDS)]
    assert all(v.kind is ScreenKind.RESULT and v.lines[-1] == "Game over" for v in frames)
    anas = [v.players[0].game_stones for v in frames]
    bens = [v.players[1].game_stones for v in frames]
    # Before, Ana's card showed the 13 and Ben's the 0 before a stone had left him.
    assert (anas[0], bens[0]) == (7, 6)
    assert anas == sorted(anas) and len(set(anas)) > 2 and anas[-1] == 13
    assert bens == sorted(bens, reverse=True) and bens[2:] == [0] * 5
    # Still the cards as the roll left them: the game stones go into the stashes after.
    assert all(p.stash == 0 for v in frames for p in v.players)
