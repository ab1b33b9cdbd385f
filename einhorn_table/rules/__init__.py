"""The rules of Einhorn, exactly as RULES.md states them. Standard library only.

>>> from einhorn_table.rules import replay
>>> match = replay(['{"v": 1, "type": "setup", "variant": "einhorn", "players": ["Ana", "Ben"]}'])
>>> match.ledger().awaiting.value, match.ledger().to_act
('start_roll', 'Ana')
"""

from einhorn_table.rules.categories import (
    ALL_ROLLS,
    PROBABILITY,
    ROLL_COUNTS,
    Category,
    Dice,
    categorize,
    check_dice,
)
from einhorn_table.rules.engine import (
    AuctionResult,
    Awaiting,
    MatchState,
    Outcome,
    Phase,
    Transfer,
    TurnResult,
)
from einhorn_table.rules.errors import NotationError, RulesError, RuleViolation, VariantError
from einhorn_table.rules.match import (
    Ledger,
    Match,
    MatchEnd,
    PlayerLedger,
    match_end,
    replay,
    replay_file,
    replay_steps,
)
from einhorn_table.rules.notation import (
    CENTRAL,
    Bid,
    Call,
    Counterparty,
    Input,
    Roll,
    Setup,
    StartRoll,
    TiebreakRoll,
    Topup,
    Undo,
    format_input,
    format_match,
    parse_line,
)
from einhorn_table.rules.variants import (
    EINHORN,
    VARIANTS,
    WIN,
    WUERFELN,
    Payout,
    Variant,
    get_variant,
    load_variant,
)

__all__ = [
    "ALL_ROLLS",
    "CENTRAL",
    "EINHORN",
    "PROBABILITY",
    "ROLL_COUNTS",
    "VARIANTS",
    "WIN",
    "WUERFELN",
    "AuctionResult",
    "Awaiting",
    "Bid",
    "Call",
    "Category",
    "Counterparty",
    "Dice",
    "Input",
    "Ledger",
    "Match",
    "MatchEnd",
    "MatchState",
    "NotationError",
    "Outcome",
    "Payout",
    "Phase",
    "PlayerLedger",
    "Roll",
    "RuleViolation",
    "RulesError",
    "Setup",
    "StartRoll",
    "TiebreakRoll",
    "Topup",
    "Transfer",
    "TurnResult",
    "Undo",
    "Variant",
    "VariantError",
    "categorize",
    "check_dice",
    "format_input",
    "format_match",
    "get_variant",
    "load_variant",
    "match_end",
    "parse_line",
    "replay",
    "replay_file",
    "replay_steps",
]
