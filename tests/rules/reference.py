"""A brute-force reference for ``classify``: the definition of R-PAT-11 spelled out literally.

Every wild card is replaced by every non-joker card in turn, and each substituted set is classified
by a plain reading of the pattern table that knows nothing about wild cards. Slow, obvious, and
independent of the counting code it checks.
"""

from __future__ import annotations

import itertools
from collections import Counter

from referee_station.rules import DECK, Card

NON_JOKERS = [card for card in DECK if not card.is_joker]
RANK_OF = {
    1: "A",
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "T",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}

Interpretation = tuple[str, str | None, int]


def natural_patterns(cards: list[Card]) -> set[Interpretation]:
    """The patterns of a set of cards read literally, with no wild cards (RULES.md section 3)."""
    n = len(cards)
    values = Counter(card.value for card in cards)
    jokers = any(card.is_joker for card in cards)
    found: set[Interpretation] = set()
    if n == 1:
        found.add(("single", cards[0].rank, 1))
    if n == 2 and len(values) == 1:
        found.add(("pair", cards[0].rank, 2))
    if n == 3 and len(values) == 1 and not jokers:
        found.add(("triple", cards[0].rank, 3))
    if 4 <= n <= 10 and len(values) == 1 and not jokers:
        found.add(("bomb", cards[0].rank, n))
    if n == 4 and Counter(card.code for card in cards) == Counter({"SJ": 2, "BJ": 2}):
        found.add(("joker_bomb", None, 4))
    if n == 5 and sorted(values.values()) == [2, 3]:
        triple = next(v for v, c in values.items() if c == 3)
        if triple < 16:
            found.add(("full_house", RANK_OF[triple], 5))
    if not jokers:
        for ace in (14, 1):
            seq = Counter(ace if card.value == 14 else card.value for card in cards)
            ranks = sorted(seq)
            consecutive = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
            if not consecutive:
                continue
            top = RANK_OF[14 if ranks[-1] == 14 else ranks[-1]]
            counts = set(seq.values())
            if n == 5 and len(ranks) == 5:
                flush = len({card.suit for card in cards}) == 1
                found.add(("straight_flush" if flush else "straight", top, 5))
            if n == 6 and len(ranks) == 3 and counts == {2}:
                found.add(("tube", top, 6))
            if n == 6 and len(ranks) == 2 and counts == {3}:
                found.add(("plate", top, 6))
    return found


def reference_classify(cards: list[Card], level: str) -> set[Interpretation]:
    """Every interpretation by trying every substitution of the wild cards (R-PAT-11)."""
    wild = [i for i, card in enumerate(cards) if card.suit == "h" and card.rank == level]
    if len(wild) == len(cards) and len(cards) <= 2:
        return {("single" if len(cards) == 1 else "pair", level, len(cards))}
    found: set[Interpretation] = set()
    for choice in itertools.product(NON_JOKERS, repeat=len(wild)):
        substituted = list(cards)
        for position, card in zip(wild, choice, strict=True):
            substituted[position] = card
        found |= natural_patterns(substituted)
    return found
