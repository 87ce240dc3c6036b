"""Simple, sensible Guandan bots on ``legal_moves``: lead low, follow with the cheapest play that
beats, keep bombs and wild cards, leave a trick the partner is winning.

They need not play well; they must play legally and look like people, so that the referee sees
realistic tricks (all patterns, bombs late in a deal, 接风) and every move can be checked with the
rules core. Randomness comes only from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from referee_station.rules import Card, Play, beats, classify, legal_moves, single_order

BOMB_RANK_COUNT = 4
"""Four cards of one rank are a bomb (R-PAT-9): following with some of them breaks it."""


@dataclass(frozen=True)
class TrickView:
    """What a bot sees of the table when it is to act."""

    level: str
    last: Play | None
    """The play to beat, ``None`` when leading."""
    partner_winning: bool
    """The last play of the trick is the partner's."""
    threat: int
    """Cards left in the hand of the opponent who played last (27 when leading or partner winning)."""


def _breaks_something(play: Play, hand: list[Card], level: str) -> bool:
    """Uses a wild card, or cards of a rank the hand holds as a bomb, without being a bomb itself."""
    if play.is_bomb:
        return False
    if any(card.is_wild(level) for card in play.cards):
        return True
    counts = Counter(card.rank for card in hand if not card.is_joker)
    return any(counts[card.rank] >= BOMB_RANK_COUNT for card in play.cards if not card.is_joker)


def _whole_hand(hand: list[Card], last: Play | None, level: str) -> Play | None:
    """The play that empties the hand, when the whole hand is one pattern that may be played now."""
    for play in reversed(classify(hand, level)):
        if last is None or beats(play, last, level):
            return play
    return None


def choose_lead(hand: list[Card], level: str, rng: random.Random) -> Play:
    """Lead low: the lowest-keyed play that breaks no bomb and uses no wild card, preferring
    longer patterns for the same key; bombs only when nothing else is left."""
    out = _whole_hand(hand, None, level)
    if out is not None:
        return out
    moves = legal_moves(hand, None, level)
    plain = [m for m in moves if not m.is_bomb and not _breaks_something(m, hand, level)]
    pool = plain or [m for m in moves if not m.is_bomb] or moves
    lowest = min(_low_card(m, level) for m in pool)
    candidates = [m for m in pool if _low_card(m, level) == lowest]
    candidates.sort(key=lambda m: -m.size)
    longest = [m for m in candidates if m.size == candidates[0].size]
    return rng.choice(longest)


def _low_card(play: Play, level: str) -> int:
    return min(single_order(card, level) for card in play.natural_cards())


def choose_follow(hand: list[Card], view: TrickView, rng: random.Random) -> Play | None:
    """Follow with the cheapest beating play, or pass (``None``).

    Go out whenever the whole hand beats the trick. Leave a trick the partner is winning. Bomb only
    when the opponent who played last is about to go out (6 cards or fewer) or our own hand is short.
    """
    assert view.last is not None
    level = view.level
    out = _whole_hand(hand, view.last, level)
    if out is not None:
        return out
    if view.partner_winning:
        return None
    moves = legal_moves(hand, view.last, level)
    plain = [m for m in moves if not m.is_bomb]
    cheap = [m for m in plain if not _breaks_something(m, hand, level)]
    if cheap:
        return cheap[0]
    if plain and rng.random() < 0.3:
        return plain[0]
    bombs = [m for m in moves if m.is_bomb]
    if bombs and (view.threat <= 6 or len(hand) <= 8):
        return bombs[0]
    return None


def choose_return(options: list[Card], level: str, rng: random.Random) -> Card:
    """A low card to give back: one of the two lowest returnable cards."""
    options = sorted(options, key=lambda c: (single_order(c, level), c.index))
    return rng.choice(options[:2])
