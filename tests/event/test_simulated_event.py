"""A 24-pair, 4-round Swiss event whose every match is a real simulated match refereed by the
table referee: its ``match_end`` goes into the event through the same intake a station's log
does, both sides sign, and the standings equal a computation by hand from the match_end records."""

from __future__ import annotations

from collections import Counter

from referee_station.event.actions import ResultConfirmed
from referee_station.event.intake import last_match_end, report_from_match_end
from referee_station.event.standings import lots, standings
from referee_station.sim.match import simulate
from referee_station.table.events import MatchEnd
from referee_station.table.referee import TableReferee
from tests.event.helpers import new_event, pair_round

PAIRS, ROUNDS, DEALS = 24, 4, 2


def floaters(points: dict[int, int]) -> int:
    """The fewest tables across score groups: one below every group whose top part is odd."""
    groups = Counter(points.values())
    above = 0
    crossing = 0
    for score in sorted(groups, reverse=True)[:-1]:
        above += groups[score]
        crossing += above % 2
    return crossing


def referee_match(seed: int) -> MatchEnd:
    """A seeded simulated match of a few deals and the referee's result for it."""
    referee = TableReferee(auto_confirm=True)
    outputs = [out for event in simulate(seed, deals=DEALS).events for out in referee.feed(event)]
    return last_match_end(outputs, f"simulated match {seed}")


def test_a_simulated_event_ranks_as_a_hand_computation():
    state = new_event(PAIRS, seed=2026)
    by_hand: dict[int, list[int]] = {p: [0, 0, 0, 0] for p in range(1, PAIRS + 1)}  # points, small, gained, conceded
    seed = 0
    for round_no in range(1, ROUNDS + 1):
        pairing = pair_round(state, at=round_no * 4000.0)
        assert pairing.rematches == () and pairing.bye is None
        seen = [p for t in pairing.tables for p in t.pairs]
        assert sorted(seen) == list(range(1, PAIRS + 1)), "every pair at exactly one table"
        points_before = {p: v[0] for p, v in by_hand.items()}
        crossing = sum(points_before[t.ew] != points_before[t.ns] for t in pairing.tables)
        assert crossing == floaters(points_before), "score groups: a pair goes down only from an odd group"
        for table in pairing.tables:
            seed += 1
            end = referee_match(seed)
            state.apply(report_from_match_end(end, round_no, table.number, round_no * 4000.0 + 3600, "T", "sim"))
            for side in ("NS", "EW"):
                state.apply(ResultConfirmed(at=round_no * 4000.0 + 3700, round=round_no, table=table.number, side=side))
            for side, pair in (("EW", table.ew), ("NS", table.ns)):
                other = "NS" if side == "EW" else "EW"
                d = abs(end.levels_gained["EW"] - end.levels_gained["NS"])
                small = 13 if end.winner == "draw" else 13 + d if end.winner == side else 13 - d
                assert small == end.level_diff_points[side], "the station used the same default 26-point table"
                hand = by_hand[pair]
                hand[0] += {"draw": 1, side: 2}.get(end.winner, 0)
                hand[1] += min(26, max(0, small))
                hand[2] += end.levels_gained[side]
                hand[3] += end.levels_gained[other]
    met = [frozenset(t.pairs) for r in state.rounds for t in r.pairing.tables]
    assert len(met) == len(set(met)) == PAIRS // 2 * ROUNDS, "no two pairs met twice"
    lot = lots(state)
    expected = sorted(by_hand, key=lambda p: (-by_hand[p][0], -by_hand[p][1], -by_hand[p][2], by_hand[p][3], lot[p]))
    table = standings(state)
    assert [s.pair.number for s in table] == expected
    for s in table:
        assert [s.totals.points, s.totals.small, s.totals.gained, s.totals.conceded] == by_hand[s.pair.number]
        assert s.played == ROUNDS
    assert len({s.totals.points for s in table}) > 3, "the results spread the field"
