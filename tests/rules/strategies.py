"""Hypothesis strategies for sets of cards drawn from two decks."""

from __future__ import annotations

from hypothesis import strategies as st

from referee_station.rules import DECK, RANKS, Card

TWO_DECKS = [card for card in DECK for _ in range(2)]
levels = st.sampled_from(RANKS)


@st.composite
def plays(draw: st.DrawFn, min_size: int = 1, max_size: int = 10) -> tuple[list[Card], str]:
    """A level and 1-10 cards from two decks, biased towards patterns: few ranks, some wilds."""
    level = draw(levels)
    size = draw(st.integers(min_size, max_size))
    wild = Card(level + "h")
    n_wild = draw(st.integers(0, min(2, size)))
    pool = [c for c in TWO_DECKS if c is not wild]
    if draw(st.booleans()):  # concentrate on a few neighbouring ranks so patterns occur
        low = draw(st.integers(0, 10))
        near = {RANKS[i] for i in range(low, min(low + 3, 13))} | {"A"}
        pool = [c for c in pool if c.rank in near] or pool
    naturals = draw(
        st.lists(st.sampled_from(range(len(pool))), min_size=size - n_wild, max_size=size - n_wild, unique=True)
    )
    cards = [pool[i] for i in naturals] + [wild] * n_wild
    return draw(st.permutations(cards)), level
