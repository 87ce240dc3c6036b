"""The pairing (seed 003 三, 八.1): property tests over any score history against a brute force
over every possible pairing, and the fixed cases a referee checks by eye."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee_station.event.pairing import (
    BYE,
    Pairing,
    PairingError,
    SwissCost,
    Table,
    bye_counts,
    first_round,
    in_order,
    knockout,
    meetings,
    swiss,
    swiss_cost,
)


def all_matchings(nodes: list[int]):
    """Every perfect matching of an even list of nodes."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for tail in all_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def as_tuple(cost: SwissCost) -> tuple[int, int, int, int]:
    return (cost.repeat_byes, cost.rematches, cost.point_spread, cost.rank_spread)


@st.composite
def histories(draw):
    """Pairs 1…n (2…9), points, some already-played matches and byes: any score history."""
    n = draw(st.integers(2, 9))
    numbers = draw(st.permutations(list(range(1, n + 1))))
    points = {p: draw(st.integers(0, 8)) for p in numbers}
    possible = [frozenset((a, b)) for a in numbers for b in numbers if a < b]
    met = frozenset(draw(st.lists(st.sampled_from(possible), max_size=len(possible))) if possible else [])
    byes = {p: draw(st.integers(0, 2)) for p in numbers} if n % 2 else {}
    ranked = sorted(numbers, key=lambda p: (-points[p], numbers.index(p)))
    return ranked, points, met, byes


def check_invariants(pairing: Pairing, ranked: list[int]) -> None:
    seen = [p for t in pairing.tables for p in t.pairs] + ([pairing.bye] if pairing.bye is not None else [])
    assert sorted(seen) == sorted(ranked), "every pair plays exactly once or has the bye"
    assert (pairing.bye is not None) == (len(ranked) % 2 == 1)
    assert all(t.ew < t.ns for t in pairing.tables), "the lower number sits East-West (seed 003 八.1)"
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))


@settings(max_examples=150, deadline=None)
@given(histories())
def test_swiss_is_the_best_pairing_there_is(history):
    """No pair twice in a round; a rematch only when every pairing has one; no second bye when
    avoidable; within that, the score groups kept as tightly as any pairing can (brute force)."""
    ranked, points, met, byes = history
    pairing = swiss(2, ranked, points, met, byes)
    check_invariants(pairing, ranked)
    chosen = [t.pairs for t in pairing.tables] + ([(pairing.bye, BYE)] if pairing.bye is not None else [])
    nodes = [*ranked, BYE] if len(ranked) % 2 else list(ranked)
    best = min(as_tuple(swiss_cost(m, ranked, points, met, byes)) for m in all_matchings(nodes))
    got = as_tuple(swiss_cost(chosen, ranked, points, met, byes))
    assert got[:3] == best[:3]
    assert got == best
    assert len(pairing.rematches) == best[1], "rematches reported are exactly the unavoidable ones"
    assert set(pairing.rematches) == {(t.ew, t.ns) for t in pairing.tables if frozenset(t.pairs) in met}
    assert pairing.repeat_bye == (best[0] > 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 12), st.integers(0, 10**6))
def test_an_event_of_random_results_never_pairs_again_while_it_can_be_avoided(n, seed):
    """Rounds of random results: with fewer rounds than pairs-1, nobody meets twice and no pair
    has two byes before every pair has had one."""
    rng = random.Random(seed)
    rounds: list[Pairing] = [first_round(list(range(1, n + 1)), True, rng)]
    points = dict.fromkeys(range(1, n + 1), 0)
    for round_no in range(2, min(n, 6)):
        for t in rounds[-1].tables:
            winner = rng.choice((*t.pairs, None))
            for p in t.pairs:
                points[p] += 1 if winner is None else 2 if winner == p else 0
        if rounds[-1].bye is not None:
            points[rounds[-1].bye] += 2
        ranked = sorted(points, key=lambda p: (-points[p], p))
        rounds.append(swiss(round_no, ranked, points, meetings(rounds), bye_counts(rounds)))
        check_invariants(rounds[-1], ranked)
    matches = [frozenset(t.pairs) for r in rounds for t in r.tables]
    assert len(matches) == len(set(matches)) or any(r.rematches for r in rounds)
    byes = bye_counts(rounds)
    assert max(byes.values(), default=0) <= 1 or len(byes) == n


def test_score_groups_pair_within_themselves_and_an_odd_group_sends_its_last_down():
    ranked = [1, 2, 3, 4, 5, 6, 7, 8]
    points = {1: 4, 2: 4, 3: 4, 4: 2, 5: 2, 6: 2, 7: 0, 8: 0}
    pairing = swiss(3, ranked, points, frozenset(), {})
    assert pairing.tables == (Table(1, 1, 2), Table(2, 3, 4), Table(3, 5, 6), Table(4, 7, 8))


def test_a_rematch_is_avoided_by_the_next_opponent_in_the_group():
    points = dict.fromkeys([1, 2, 3, 4], 2)
    pairing = swiss(2, [1, 2, 3, 4], points, frozenset({frozenset((1, 2))}), {})
    assert pairing.tables == (Table(1, 1, 3), Table(2, 2, 4))
    assert pairing.rematches == ()


def test_a_rematch_that_no_pairing_avoids_is_reported():
    """Four pairs after three rounds have all met: round 4 must repeat one match."""
    met = frozenset(frozenset(m) for m in [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)])
    pairing = swiss(4, [1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 2), met, {})
    assert len(pairing.rematches) == 2
    assert set(pairing.rematches) == {t.pairs for t in pairing.tables}


def test_the_bye_goes_to_the_last_placed_pair_without_one():
    ranked = [1, 2, 3, 4, 5]
    points = {1: 4, 2: 2, 3: 2, 4: 0, 5: 0}
    assert swiss(2, ranked, points, frozenset(), {}).bye == 5
    assert swiss(2, ranked, points, frozenset(), {5: 1}).bye == 4


def test_round_one_by_sign_in_order_and_drawn_reproducibly():
    assert in_order(1, [4, 2, 7, 1, 3]).tables == (Table(1, 2, 4), Table(2, 1, 7))
    assert in_order(1, [4, 2, 7, 1, 3]).bye == 3
    drawn = first_round(list(range(1, 25)), True, random.Random("7/draw"))
    assert drawn == first_round(list(range(1, 25)), True, random.Random("7/draw"))
    assert drawn != first_round(list(range(1, 25)), False, random.Random("7/draw"))


def test_knockout_pairs_survivors_in_order_and_rotates_the_bye():
    pairing = knockout(2, [1, 8, 4, 5, 3], {})
    assert pairing.tables == (Table(1, 1, 8), Table(2, 4, 5))
    assert pairing.bye == 3
    assert knockout(3, [1, 8, 3], {3: 1}).bye == 8


@pytest.mark.parametrize("order", [[1], [1, 1, 2], [0, 1]])
def test_a_round_of_too_few_or_repeated_pairs_is_refused(order):
    with pytest.raises(PairingError):
        in_order(1, order)
