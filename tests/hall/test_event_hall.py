"""The event run over the hall (issue 28): a Swiss event (24 pairs, 4 rounds, 12 stations under
``-m slow``; 8 pairs, 3 rounds, 4 stations in CI) on the real Mosquitto and PostgreSQL, with headless
stations (the orchestrator over seeded simulated matches, each logging in SQLite and linked to the
hall). Per round the head pairs, starts the clock and calls time over the retained round topic; each
station finishes the deal in progress and starts no new one (R-MATCH-1); its ``match_end`` and both
sides' ``sign`` go straight into the event's journal in PostgreSQL. Every pairing is valid and the
standings equal a computation by hand from the stations' own logs."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import networkx as nx
import pytest

from referee_station.event.actions import Created, PairsImported
from referee_station.event.desk import EventDesk, hall_table
from referee_station.event.pg_store import PgEventStore
from referee_station.event.rules import EventRules
from referee_station.event.standings import lots, standings
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate
from referee_station.station.orchestrator import Station
from referee_station.station.round_gate import RoundGate
from referee_station.station.setup import MatchSetup
from referee_station.table.events import (
    OTHER_SIDE,
    Clear,
    DealEnd,
    DealStart,
    MatchEnd,
    MatchStart,
    Sign,
    Tick,
    TimeCall,
    parse_line,
)
from tests.event.helpers import pairs
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import wait_for

DEALS = 2
"""Deals the simulator plays at each table; the head's call ends every match within its first or second."""


def least_spread(points: dict[int, int], met: set[frozenset[int]]) -> int:
    """The least sum of squared point differences over the pairings without a rematch (a matching of
    its own here, on nothing but points and who met whom)."""
    graph = nx.Graph()
    for a, b in combinations(sorted(points), 2):
        if frozenset((a, b)) not in met:
            graph.add_edge(a, b, weight=-((points[a] - points[b]) ** 2))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert len(matching) == len(points) // 2
    return sum((points[a] - points[b]) ** 2 for a, b in matching)


class SimTable:
    """One table's station for one round: a fresh log, linked to the hall, bound to the round's clock,
    fed a seeded simulated match (its ticks and clears left out, to keep the bus small)."""

    def __init__(self, hall: Hall, number: int, seed: int, path: Path) -> None:
        self.name = hall_table(number)
        self.store = EventStore(path)
        self.logged = TableStation(self.store, self.name, auto_confirm=True)
        self.link = StationLink(BrokerURL.parse(hall.station_url(self.name)), HALL, self.name, path).start()
        self.gate = RoundGate(self.link, self.name)
        match = [e for e in simulate(seed, deals=DEALS).events if not isinstance(e, (MatchStart, Tick, Clear))]
        self.starts = [e.t for e in match if isinstance(e, DealStart)]
        self.match = match
        self.station: Station | None = None
        self.records: list = []
        """The station's log, read when it closes."""

    def set_up(self) -> None:
        """The match setup from the round's announcement: the pairs' names as the sides."""
        seats = self.gate.seats
        assert seats is not None
        setup = MatchSetup(seats.sides, leader="E")
        sink = LinkedStation(self.logged, self.link, clock=lambda: 0.0)
        self.station = Station(self.logged.referee, sink, setup=setup, others=self.match, round_gate=self.gate)

    def call_point(self, kind: int) -> float:
        """Where the head's call finds this table: mid deal 1, between deals 1 and 2, or mid deal 2."""
        if kind == 1:
            return self.starts[1] - 0.01
        first, last = (0.0, self.starts[1]) if kind == 0 else (self.starts[1], float("inf"))
        plays = [e.t for e in self.match if first < e.t < last]
        return plays[len(plays) // 2]

    def close(self) -> None:
        self.records = [parse_line(line) for line in self.store.lines(self.name)]
        self.link.close()
        self.store.close()


def play_round(desk: EventDesk, hall: Hall, round_no: int, tmp_path: Path) -> dict[int, SimTable]:
    """Pair, start, let every table play to its call point, call time, finish, sign; the tables after."""
    pairing = desk.pair_next().pairing
    desk.start_round()
    tables = {t.number: SimTable(hall, t.number, 100 * round_no + t.number, tmp_path / f"r{round_no}-{t.number}.db")
              for t in pairing.tables}  # fmt: skip
    try:
        wait_for(lambda: all(t.gate.seats is not None for t in tables.values()), what="the round at every station")
        for number, table in tables.items():
            table.set_up()
            table.station.idle(table.call_point((number + round_no) % 3))
        desk.call_time()
        wait_for(lambda: all(t.gate.call.called is not None for t in tables.values()), what="the call everywhere")
        for table in tables.values():
            table.station.idle(table.station.now)  # the call is fed at the station's own time
            table.station.finish(table.match[-1].t)
            for side in ("NS", "EW"):
                table.station.enter(Sign(table.station.now + 5, side), f"{side} captain")
            table.station.idle(table.station.now)
        for table in tables.values():
            assert table.link.wait_acked(30), f"{table.name}: the log reached the register"
        wait_for(lambda: desk.current().complete, timeout=30, what=f"every result of round {round_no} signed")
    finally:
        for table in tables.values():
            table.close()
    return tables


def check_the_call(table: SimTable) -> MatchEnd:
    """R-MATCH-1 at one table: the deal in progress at the call was the last; its match_end follows."""
    records = table.records
    call = next(i for i, r in enumerate(records) if isinstance(r, TimeCall))
    started = sum(isinstance(r, DealStart) for r in records[:call])
    after = records[call:]
    assert not any(isinstance(r, DealStart) for r in after), f"{table.name}: no deal starts after the call"
    (end,) = [r for r in records if isinstance(r, MatchEnd)]
    assert end.reason == "time called" and end.t >= records[call].t
    assert sum(isinstance(r, DealEnd) for r in records) == started, f"{table.name}: the deal in progress ended"
    if started < DEALS:
        assert table.gate.held, f"{table.name}: the simulator's next deal was held back"
    assert sorted(r.side for r in records if isinstance(r, Sign)) == ["EW", "NS"]
    return end


def tally(by_hand: dict[int, list[int]], ew: int, ns: int, end: MatchEnd) -> None:
    """Add one match to the pairs' points, 小分 (13 ± d, R-MATCH-2a), 得分 and 失分 by hand."""
    d = abs(end.levels_gained["EW"] - end.levels_gained["NS"])
    for side, pair in (("EW", ew), ("NS", ns)):
        small = 13 if end.winner == "draw" else 13 + d if end.winner == side else 13 - d
        hand = by_hand[pair]
        hand[0] += {"draw": 1, side: 2}.get(end.winner, 0)
        hand[1] += small
        hand[2] += end.levels_gained[side]
        hand[3] += end.levels_gained[OTHER_SIDE[side]]


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    ("pairs_count", "rounds"),
    [(8, 3), pytest.param(24, 4, marks=pytest.mark.slow, id="24-pairs-12-stations")],
)
def test_an_event_over_the_hall(hall: Hall, register_dsn: str, tmp_path: Path, pairs_count: int, rounds: int) -> None:
    """CI plays 8 pairs on 4 stations for 3 rounds; ``-m slow`` the issue's 24 pairs on 12 for 4."""
    with (
        Register(register_dsn) as register,
        PgEventStore(register_dsn, "hall-cup", create=True) as journal,
    ):
        journal.record(Created(at=0.0, by="chief", name="hall cup", seed=28, rules=EventRules(rounds=rounds)))
        journal.record(PairsImported(at=1.0, by="chief", pairs=pairs(pairs_count)))
        desk = EventDesk(journal, "chief")
        with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register, on_record=desk.take) as head:
            assert head.wait_connected(10)
            desk.announce = head.publish_round
            by_hand = {p: [0, 0, 0, 0] for p in range(1, pairs_count + 1)}  # points, small, gained, conceded
            for round_no in range(1, rounds + 1):
                points = {p: v[0] for p, v in by_hand.items()}
                met = {frozenset(t.pairs) for r in desk.state.rounds for t in r.pairing.tables}
                tables = play_round(desk, hall, round_no, tmp_path)
                pairing = desk.state.rounds[-1].pairing
                assert pairing.rematches == () and pairing.bye is None
                assert sorted(p for t in pairing.tables for p in t.pairs) == list(range(1, pairs_count + 1))
                assert all(t.ew < t.ns for t in pairing.tables), "the lower pair number sits East-West"
                spread = sum((points[t.ew] - points[t.ns]) ** 2 for t in pairing.tables)
                assert spread == least_spread(points, met), "score groups: as close in points as no rematch allows"
                for t in pairing.tables:
                    tally(by_hand, t.ew, t.ns, check_the_call(tables[t.number]))
                    assert desk.state.table(round_no, t.number).status == "confirmed"
            assert desk.problems == [], "every station record fitted the event"
            assert head.stats.quarantined == 0
        met = [frozenset(t.pairs) for r in desk.state.rounds for t in r.pairing.tables]
        tables = pairs_count // 2
        assert len(met) == len(set(met)) == tables * rounds, "no two pairs met twice"
        lot = lots(desk.state)
        order = sorted(by_hand, key=lambda p: (-by_hand[p][0], -by_hand[p][1], -by_hand[p][2], by_hand[p][3], lot[p]))
        table = standings(desk.state)
        assert [s.pair.number for s in table] == order
        assert all([s.totals.points, s.totals.small, s.totals.gained, s.totals.conceded] == by_hand[s.pair.number]
                   for s in table)  # fmt: skip
        assert len({s.totals.points for s in table}) >= 3, "the results spread the field"
        kinds = [a.KIND for a in journal.actions()]
        assert kinds.count("result_reported") == tables * rounds
        assert kinds.count("result_confirmed") == 2 * tables * rounds
        assert kinds.count("time_called") == kinds.count("round_started") == rounds
