"""Rule edges that the golden matches do not reach."""

from __future__ import annotations

from einhorn_table.rules import (
    EINHORN,
    WUERFELN,
    Awaiting,
    Bid,
    Call,
    Category,
    Counterparty,
    Match,
    MatchEnd,
    Roll,
    Setup,
    StartRoll,
    TiebreakRoll,
    Topup,
    TurnResult,
    Variant,
    match_end,
)


def started(
    variant: Variant = EINHORN,
    players: tuple[str, ...] = ("Ana", "Ben"),
    *,
    central: int | None = None,
    games: int | None = None,
    target: int | None = None,
) -> Match:
    """A match in which Ana won the starting roll."""
    match = Match(
        Setup.for_variant(variant, players, central=central, games=games, target=target)
    )
    match.apply(StartRoll(player="Ana", dice=(6, 6, 6)))
    for name in players[1:]:
        match.apply(StartRoll(player=name, dice=(1, 1, 2)))
    return match


def test_a_later_call_replaces_the_earlier_and_null_cancels() -> None:
    match = started()
    match.apply(Call(player="Ana", call=Category.EINHORN))
    match.apply(Call(player="Ana", call=Category.WUNSCH))
    assert match.ledger().call is Category.WUNSCH
    match.apply(Call(player="Ana", call=None))
    outcome = match.apply(Roll(player="Ana", dice=(1, 3, 5)))  # silent Einhorn: +1
    assert isinstance(outcome, TurnResult) and outcome.call is None and outcome.amount == 1
    assert match.ledger().player("Ana").game_stones == 6 + 1 + 1


def test_the_call_does_not_carry_over_to_the_next_turn() -> None:
    match = started()
    match.apply(Call(player="Ana", call=Category.WUNSCH))
    match.apply(Roll(player="Ana", dice=(2, 2, 5)))
    assert match.ledger().call is None and match.ledger().to_act == "Ben"


def test_short_payment_from_the_central_stash() -> None:
    # Central 13 - 12 dealt - 1 bonus = 0: a silent Einhorn (+1) is paid nothing.
    match = started(central=13)
    assert match.ledger().central == 0
    outcome = match.apply(Roll(player="Ana", dice=(1, 3, 5)))
    assert isinstance(outcome, TurnResult) and outcome.transfers[0].stones == 0
    assert outcome.short_by == 1
    assert outcome.match_over and match.ledger().winner == "Ana"
    assert match_end(match.ledger()) is MatchEnd.CENTRAL_EMPTY


def _dreifaltigkeit_called_and_rolled(match: Match) -> None:
    """Ana takes every other player's game stones and the game ends (4.4)."""
    match.apply(Call(player="Ana", call=Category.DREIFALTIGKEIT))
    match.apply(Roll(player="Ana", dice=(4, 4, 4)))


def test_why_a_match_ended_is_its_games_its_target_or_its_central_stash() -> None:
    match = started(games=2)
    assert match_end(match.ledger()) is None
    _dreifaltigkeit_called_and_rolled(match)  # game 1 over, game 2 to come
    ledger = match.ledger()
    assert not match.over and match_end(ledger) is None and ledger.game == 2

    last = started(games=1)
    _dreifaltigkeit_called_and_rolled(last)
    assert last.over and match_end(last.ledger()) is MatchEnd.GAMES_PLAYED

    # Ana's stash after game 1: 7 of her own + Ben's 6 = 13; a target of 13 ends it.
    reached = started(games=10, target=13)
    _dreifaltigkeit_called_and_rolled(reached)
    ledger = reached.ledger()
    assert reached.over and ledger.game == 1 and ledger.player("Ana").stash == 13
    assert match_end(ledger) is MatchEnd.TARGET_REACHED and ledger.target == 13

    # 20 stones: 7 left after the deal and the starting stone, too few to deal game 2.
    dry = started(games=10, central=20)
    _dreifaltigkeit_called_and_rolled(dry)
    dry.apply(Bid(player="Ana", stones=0))
    dry.apply(Bid(player="Ben", stones=0))
    dry.apply(TiebreakRoll(player="Ana", dice=(6, 6, 6)))
    dry.apply(TiebreakRoll(player="Ben", dice=(1, 1, 2)))
    ledger = dry.ledger()
    assert dry.over and match_end(ledger) is MatchEnd.CENTRAL_EMPTY
    assert ledger.game == 2 and ledger.games_played == 1
    assert last.ledger().games_played == reached.ledger().games_played == 1

    short = started(games=10, target=14)
    _dreifaltigkeit_called_and_rolled(short)
    assert not short.over and match_end(short.ledger()) is None


def test_pass_stone_needs_an_owner_with_stones() -> None:
    match = started(WUERFELN)
    # Ana (no bonus in wuerfeln: 6) calls wrong and rolls Einhorn: -5, takes the unicorn.
    match.apply(Call(player="Ana", call=Category.WUNSCH))
    match.apply(Roll(player="Ana", dice=(2, 4, 6)))
    assert match.ledger().unicorn == "Ana" and match.ledger().player("Ana").game_stones == 1
    # Ben calls Einhorn and rolls it (+5); the unicorn passes; Ana pays her last stone.
    match.apply(Call(player="Ben", call=Category.EINHORN))
    outcome = match.apply(Roll(player="Ben", dice=(6, 4, 1)))
    assert isinstance(outcome, TurnResult)
    assert outcome.unicorn_to == "Ben"
    assert [(t.payer, t.payee, t.stones) for t in outcome.transfers] == [
        ("central", "Ben", 5), ("Ana", "Ben", 1)
    ]
    assert outcome.game_over  # Ana has no game stones left


def test_owner_einhorn_moves_nothing_whatever_was_called() -> None:
    match = started()
    match.apply(Roll(player="Ana", dice=(1, 3, 6)))  # Ana takes the unicorn (+1)
    match.apply(Roll(player="Ben", dice=(2, 3, 3)))
    before = match.ledger()
    match.apply(Call(player="Ana", call=Category.EINHORN))
    outcome = match.apply(Roll(player="Ana", dice=(2, 4, 6)))
    assert isinstance(outcome, TurnResult) and outcome.owner_einhorn and outcome.transfers == ()
    after = match.ledger()
    assert after.players == before.players and after.central == before.central
    assert after.unicorn == "Ana" and after.to_act == "Ben"


def test_owner_with_a_zero_amount_needs_no_counterparty() -> None:
    match = started(WUERFELN)
    match.apply(Roll(player="Ana", dice=(1, 3, 5)))  # Ana takes the unicorn
    match.apply(Roll(player="Ben", dice=(2, 3, 3)))
    match.apply(Roll(player="Ana", dice=(2, 2, 5)))  # silent Wunsch: 0 in wuerfeln
    assert match.ledger().awaiting is Awaiting.ROLL and match.ledger().to_act == "Ben"


def test_owner_can_take_from_the_central_stash() -> None:
    match = started()
    match.apply(Roll(player="Ana", dice=(1, 3, 6)))
    match.apply(Roll(player="Ben", dice=(2, 3, 3)))
    central = match.ledger().central
    match.apply(Roll(player="Ana", dice=(5, 5, 5)))  # silent Dreifaltigkeit: +5
    assert match.ledger().awaiting is Awaiting.COUNTERPARTY
    match.apply(Counterparty(player="Ana", party="central"))
    assert match.ledger().central == central - 5


def test_owner_dreifaltigkeit_win_needs_no_counterparty() -> None:
    match = started()
    match.apply(Roll(player="Ana", dice=(1, 3, 6)))
    match.apply(Roll(player="Ben", dice=(2, 3, 3)))
    match.apply(Call(player="Ana", call=Category.DREIFALTIGKEIT))
    outcome = match.apply(Roll(player="Ana", dice=(2, 2, 2)))
    assert isinstance(outcome, TurnResult) and outcome.amount == "win" and outcome.game_over
    assert match.ledger().awaiting is Awaiting.BID and match.ledger().game == 2


def test_exactly_enough_to_deal_starts_the_game_with_an_empty_central_stash() -> None:
    # 2 players, central 13: after game 1 (Ana wins everything) the central holds 0 + bids.
    match = started(central=25, games=3)
    match.apply(Call(player="Ana", call=Category.DREIFALTIGKEIT))
    match.apply(Roll(player="Ana", dice=(3, 3, 3)))  # WIN: Ana 13 stash, central 12
    assert match.ledger().central == 12
    match.apply(Bid(player="Ana", stones=0))
    match.apply(Bid(player="Ben", stones=0))
    assert match.ledger().awaiting.value == "tiebreak_roll"
    match.apply(TiebreakRoll(player="Ana", dice=(6, 6, 6)))
    match.apply(TiebreakRoll(player="Ben", dice=(1, 1, 1)))
    ledger = match.ledger()
    assert ledger.central == 0 and ledger.awaiting is Awaiting.TOPUP
    assert [p.game_stones for p in ledger.players] == [6, 6]
    # The owner pays into the empty stash: the game goes on.
    match.apply(Topup(player="Ana", stones=0))
    match.apply(Topup(player="Ben", stones=0))
    match.apply(Roll(player="Ana", dice=(1, 2, 3)))  # silent Unvermeidlich: -1
    assert match.ledger().awaiting is Awaiting.COUNTERPARTY
    match.apply(Counterparty(player="Ana", party="central"))
    assert match.ledger().central == 1 and match.ledger().winner is None


def test_topups_move_stash_into_play() -> None:
    match = started(games=2)
    match.apply(Call(player="Ana", call=Category.DREIFALTIGKEIT))
    match.apply(Roll(player="Ana", dice=(4, 4, 4)))
    match.apply(Bid(player="Ben", stones=0))
    match.apply(Bid(player="Ana", stones=3))  # bids in any order; Ana wins, pays 3
    ledger = match.ledger()
    assert ledger.unicorn == "Ana" and ledger.player("Ana").stash == 10
    match.apply(Topup(player="Ana", stones=4))
    assert match.ledger().player("Ana").game_stones == 10
    assert match.ledger().to_act == "Ben" and match.ledger().awaiting is Awaiting.TOPUP
    match.apply(Call(player="Ana", call=Category.WUNSCH))  # the owner's call closes top-ups
    assert match.ledger().awaiting is Awaiting.ROLL and match.ledger().call is Category.WUNSCH
