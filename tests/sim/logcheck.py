"""Walk a simulated log with the rules core alone: two decks dealt 27 each (R-CARD-1), and every
play a legal pattern that beats the trick (R-PAT, R-CMP, R-PLAY-1). Whether the cards were in the
player's hand after tribute and return is the referee's check (``hand_mismatch``), run separately."""

from __future__ import annotations

from collections import Counter

from referee_station.rules import DECK, Play, choose
from referee_station.table.events import Clear, DealStart, PlayCards, Record

TWO_DECKS = Counter(dict.fromkeys(DECK, 2))


def check_clean_log(events: list[Record], deal_levels: list[str]) -> int:
    """For a log without injected violations; returns the number of plays checked."""
    plays = 0
    deal = -1
    level = "2"
    prev: Play | None = None
    for event in events:
        if isinstance(event, DealStart):
            deal += 1
            level = deal_levels[deal]
            assert event.hands is not None
            assert all(len(cards) == 27 for cards in event.hands.values())
            assert sum((Counter(cards) for cards in event.hands.values()), Counter()) == TWO_DECKS
            prev = None
        elif isinstance(event, Clear) and event.TYPE == "clear":
            prev = None
        elif isinstance(event, PlayCards):
            prev = choose(event.cards, level, prev, event.declared)  # raises if illegal or not beating
            plays += 1
    return plays
