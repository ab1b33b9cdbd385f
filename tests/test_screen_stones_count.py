"""A card's number follows its stones: on a roll's result the payee's number goes up as
its stones land (not before they fly), the payer's down as they leave, and once they all
landed the cards show the ledger's figures."""

from __future__ import annotations

from test_screen_stones_land import SHOWN, _anas_einhorn

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
