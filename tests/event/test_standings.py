"""The ranking order (R-MATCH-3): for any results, a pair stands above another exactly when it
has more points, or equal points and more 小分, … , and the event's lot decides the rest."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from referee_station.event.standings import lots, standings
from tests.event.helpers import new_event, pair_round, play


def better(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool | None:
    """R-MATCH-3 written out rule by rule: True if a ranks above b, None when all four are equal."""
    points_a, small_a, gained_a, conceded_a = a
    points_b, small_b, gained_b, conceded_b = b
    if points_a != points_b:
        return points_a > points_b
    if small_a != small_b:
        return small_a > small_b
    if gained_a != gained_b:
        return gained_a > gained_b
    if conceded_a != conceded_b:
        return conceded_a < conceded_b
    return None


RESULT = st.tuples(st.sampled_from(["EW", "NS", "draw"]), st.integers(0, 13), st.integers(0, 13))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(1, 3), st.data())
def test_the_standings_follow_r_match_3_for_any_results(n, rounds, data):
    state = new_event(n, seed=data.draw(st.integers(0, 99)))
    for round_no in range(1, rounds + 1):
        pairing = pair_round(state)
        for table in pairing.tables:
            winner, a, b = data.draw(RESULT)
            high, low = max(a, b), min(a, b)
            gained = {"EW": a, "NS": a} if winner == "draw" else {winner: high, "NS" if winner == "EW" else "EW": low}
            play(state, round_no, table.number, winner, gained)
    table = standings(state)
    assert [s.place for s in table] == list(range(1, n + 1))
    lot = lots(state)
    for upper, lower in itertools.pairwise(table):
        a = (upper.totals.points, upper.totals.small, upper.totals.gained, upper.totals.conceded)
        b = (lower.totals.points, lower.totals.small, lower.totals.gained, lower.totals.conceded)
        verdict = better(a, b)
        assert verdict is not False, f"{upper.pair.number} above {lower.pair.number} against R-MATCH-3"
        if verdict is None:
            assert lot[upper.pair.number] < lot[lower.pair.number] and upper.by_lot and lower.by_lot


def test_each_tie_break_in_turn():
    """The later criteria decide only where the earlier ones tie."""
    state = new_event(8, seed=3)
    pair_round(state)
    play(state, 1, 1, "EW", {"EW": 6, "NS": 1})  # 1: 2 pts, 18 small
    play(state, 1, 2, "EW", {"EW": 4, "NS": 1})  # 3: 2 pts, 16 small, gained 4
    play(state, 1, 3, "EW", {"EW": 5, "NS": 2})  # 5: 2 pts, 16 small, gained 5
    play(state, 1, 4, "draw", {"EW": 2, "NS": 2})  # 7, 8: 1 pt
    order = [s.pair.number for s in standings(state)]
    assert order[:3] == [1, 5, 3]
    assert set(order[3:5]) == {7, 8}
    # 4 and 6 lost by 3 (10 small); 4 gained 1, 6 gained 2, so 6 first; 2 lost by 5 (8 small)
    assert order[5:] == [6, 4, 2]
