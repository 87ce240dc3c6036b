"""Hypothesis properties of the rules core (RULES.md sections 3-4)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee_station.rules import Kind, beats, classify, legal_moves, parse_cards, strength
from tests.rules.reference import reference_classify
from tests.rules.strategies import TWO_DECKS, plays


def _interpretations(cards, level):
    return {(p.kind.value, p.key, p.size) for p in classify(cards, level)}


EVERY_PATTERN = [
    # (cards, level): every kind of R-PAT, natural, with one wild card and with two (level 7: 7h is wild)
    ("9c", "7"),
    ("7h", "7"),
    ("9c 9d", "7"),
    ("9c 7h", "7"),
    ("SJ SJ", "7"),
    ("3c 3d 4s 4h 5c 5d", "7"),
    ("3c 3d 4s 7h 5c 5d", "7"),
    ("3c 7h 4s 7h 5c 5d", "7"),
    ("Kc Kd Ks", "7"),
    ("Kc Kd 7h", "7"),
    ("Qc Qd Qs Kc Kd Ks", "7"),
    ("Qc Qd 7h Kc Kd Ks", "7"),
    ("Qc 7h 7h Kc Kd Ks", "7"),
    ("3s 3d Ts Td 7h", "7"),
    ("Qc Qd Qs 4c 4d", "7"),
    ("Qc Qd 7h 4c 7h", "7"),
    ("As 2d 3c 4h 5s", "7"),
    ("Ts Jd Qc Kh As", "7"),
    ("9s Td 7h Qc Kh", "7"),
    ("9s 7h 7h Qc Kh", "7"),
    ("4s 5s 6s 7s 8s", "7"),
    ("4s 5s 6s 7h 8s", "7"),
    ("4s 7h 6s 7h 8s", "7"),
    ("Tc Jc Qc Kc Ac", "7"),
    ("8c 8d 8s 8h", "7"),
    ("8c 8d 8s 7h", "7"),
    ("8c 8d 7h 7h 8s 8h", "7"),
    ("5c 5d 5s 5h 5c 5d 5s 5h 7h 7h", "7"),
    ("SJ SJ BJ BJ", "7"),
    ("2h 2h 2c 2c 2d", "2"),
]
"""Plays that between them show every pattern, with and without wild cards, where a run wraps at A, and
where the wild cards fill a run's gaps or make a bomb: the reference check CI runs every time."""


@pytest.mark.parametrize(("cards", "level"), EVERY_PATTERN)
def test_agrees_with_brute_force_reference_on_every_pattern(cards, level) -> None:
    play = parse_cards(cards)
    assert _interpretations(play, level) == reference_classify(play, level)


def test_the_ci_plays_cover_every_pattern() -> None:
    kinds = {p.kind for cards, level in EVERY_PATTERN for p in classify(parse_cards(cards), level)}
    assert kinds == set(Kind)


@settings(max_examples=150, deadline=None)
@given(plays())
def test_agrees_with_brute_force_reference_sampled(play) -> None:
    cards, level = play
    assert _interpretations(cards, level) == reference_classify(cards, level)


@pytest.mark.slow
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
