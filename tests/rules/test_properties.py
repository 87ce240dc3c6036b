"""Hypothesis properties of the rules core (RULES.md sections 3-4)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from referee_station.rules import beats, classify, legal_moves, strength
from tests.rules.reference import reference_classify
from tests.rules.strategies import TWO_DECKS, plays


def _interpretations(cards, level):
    return {(p.kind.value, p.key, p.size) for p in classify(cards, level)}


@settings(max_examples=3000, deadline=None)
@given(plays())
def test_agrees_with_brute_force_reference(play) -> None:
    cards, level = play
    assert _interpretations(cards, level) == reference_classify(cards, level)


@settings(max_examples=500, deadline=None)
@given(plays(), st.randoms(use_true_random=False))
def test_order_of_cards_never_matters(play, rnd) -> None:
    cards, level = play
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert _interpretations(cards, level) == _interpretations(shuffled, level)


@settings(max_examples=1000, deadline=None)
@given(plays())
def test_substituted_interpretation_is_the_same_without_wilds(play) -> None:
    cards, level = play
    for interpretation in classify(cards, level):
        natural = interpretation.natural_cards()
        # with the wild cards replaced, read at a level whose wild card is not in the set
        other = next(r for r in "23456789TJQKA" if all(not (c.suit == "h" and c.rank == r) for c in natural))
        again = {(p.kind, p.key, p.size) for p in classify(list(natural), other)}
        assert (interpretation.kind, interpretation.key, interpretation.size) in again


@settings(max_examples=400, deadline=None)
@given(plays(), plays(), plays())
def test_beats_is_a_strict_order_within_comparable_groups(a, b, c) -> None:
    level = a[1]
    xs = [p for cards, _ in (a, b, c) for p in classify(cards, level)]
    for x in xs:
        assert not beats(x, x, level)  # irreflexive: equal keys do not beat (R-CMP-3)
        for y in xs:
            if beats(x, y, level):
                assert not beats(y, x, level)  # asymmetric
                assert strength(x, level) > strength(y, level)
                for z in xs:
                    if beats(y, z, level):
                        assert beats(x, z, level)  # transitive


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from("23456789TJQKA"))
def test_legal_moves_are_classified_as_themselves_and_beat(rnd, level) -> None:
    deck = list(TWO_DECKS)
    rnd.shuffle(deck)
    hand, other = deck[:27], deck[27:54]
    prev_moves = legal_moves(other, None, level)
    prev = rnd.choice(prev_moves) if rnd.random() < 0.7 else None
    moves = legal_moves(hand, prev, level)
    keys = [(m.kind, m.key, m.size) for m in moves]
    assert len(keys) == len(set(keys))
    for move in moves:
        assert all(hand.count(card) >= move.cards.count(card) for card in move.cards)
        assert (move.kind, move.key, move.size) in {(p.kind, p.key, p.size) for p in classify(move.cards, level)}
        assert beats(move, prev, level)
