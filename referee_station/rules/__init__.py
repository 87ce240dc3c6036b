"""The Guandan rules core (RULES.md sections 1-4): cards, patterns, comparison, legal moves.

Pure functions and immutable values: no I/O, no clock, no global randomness.

    >>> from referee_station.rules import classify, beats
    >>> [(p.kind.value, p.key) for p in classify("3s 3d Th Td 7h", "7")]
    [('full_house', '3'), ('full_house', 'T')]
    >>> beats(classify("4s 4d", "7")[0], classify("3c 3h", "7")[0], "7")
    True
"""

from referee_station.rules.cards import DECK, RANKS, SUITS, Card, parse_cards, parse_level, single_order
from referee_station.rules.compare import Declaration, beats, choose, follow_reading, lead_readings
from referee_station.rules.errors import (
    DeclarationError,
    DoesNotBeatError,
    DuplicateCardError,
    IllegalPatternError,
    InvalidCardError,
    InvalidLevelError,
    RulesError,
)
from referee_station.rules.moves import legal_moves
from referee_station.rules.patterns import KIND_NAMES, KIND_RULE, Kind, Play, classify, strength

__all__ = [
    "DECK",
    "KIND_NAMES",
    "KIND_RULE",
    "RANKS",
    "SUITS",
    "Card",
    "Declaration",
    "DeclarationError",
    "DoesNotBeatError",
    "DuplicateCardError",
    "IllegalPatternError",
    "InvalidCardError",
    "InvalidLevelError",
    "Kind",
    "Play",
    "RulesError",
    "beats",
    "choose",
    "classify",
    "follow_reading",
    "lead_readings",
    "legal_moves",
    "parse_cards",
    "parse_level",
    "single_order",
    "strength",
]
