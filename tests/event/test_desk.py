"""The head's event desk (issue 28): round announcements from the journal, a station's ``match_end``
taken as its table's report once, each side's ``sign`` as a confirmation of that report only, and
what does not fit kept as a problem naming the record, never raised to the hall's writer thread."""

from __future__ import annotations

import pytest

from referee_station.event.desk import EventDesk, hall_table
from referee_station.event.model import EventActionError
from referee_station.event.store import EventStore
from referee_station.hall.rounds import RoundCall, RoundCallError
from referee_station.hall.topics import Envelope, record_id
from referee_station.table.events import MatchEnd, Record, Sign
from tests.event.helpers import new_event


def envelope(table: str, log: str, seq: int, record: Record) -> Envelope:
    return Envelope(record_id(table, log, seq), table, log, seq, record.t, record.TYPE, record.IS_INPUT,
                    record.to_line(), 0.0)  # fmt: skip


def match_end(t: float, ew: int, ns: int) -> MatchEnd:
    winner = "EW" if ew > ns else "NS" if ns > ew else "draw"
    d = abs(ew - ns)
    small = {"EW": 13 + (d if winner == "EW" else -d), "NS": 13 + (d if winner == "NS" else -d)}
    return MatchEnd(t=t, winner=winner, levels={"EW": "5", "NS": "3"}, points={"EW": 2, "NS": 0},
                    level_diff_points=small, levels_gained={"EW": ew, "NS": ns}, levels_conceded={"EW": ns, "NS": ew},
                    reason="time called")  # fmt: skip


@pytest.fixture
def desk(tmp_path) -> EventDesk:
    store = EventStore(tmp_path / "event.db", create=True)
    for action in new_event(8, seed=3).journal:
        store.record(action)
    ticks = iter(range(100, 10_000))
    sent: list[RoundCall] = []
    desk = EventDesk(store, "chief", announce=sent.append, clock=lambda: float(next(ticks)))
    desk.sent = sent
    return desk


def test_rounds_are_announced_from_the_journal(desk: EventDesk) -> None:
    with pytest.raises(EventActionError, match="pair round 1 first"):
        desk.start_round()
    pairing = desk.pair_next().pairing
    start = desk.start_round(by="wang")
    called = desk.call_time()
    assert desk.sent == [start, called]
    assert start.round == 1 and start.called is None and start.limit_s == 3600 and start.max_deals == 9
    assert called.called is not None and called.clock.remaining(called.called) == 0
    assert [(t.table, t.number) for t in start.tables] == [(hall_table(t.number), t.number) for t in pairing.tables]
    first = pairing.tables[0]
    assert start.tables[0].sides == {"EW": desk.state.pairs[first.ew].label, "NS": desk.state.pairs[first.ns].label}
    assert RoundCall.decode(called.encode()) == called, "what the stations read is what was sent"
    kinds = [(a.KIND, a.by) for a in desk.journal.actions()[-3:]]
    assert kinds == [("round_paired", "chief"), ("round_started", "wang"), ("time_called", "chief")]


def test_station_records_become_reports_and_signatures(desk: EventDesk) -> None:
    desk.take(envelope("T01", "a", 9, match_end(50.0, 3, 1)))
    assert desk.problems == ["table T01 record T01:a:9 (match_end): no round is being played"]
    desk.pair_next()
    desk.start_round()
    early = envelope("T02", "b", 8, Sign(61.0, "NS"))
    desk.take(early)  # comes before its report (a resend overtook it): waits
    end = envelope("T02", "b", 7, match_end(60.0, 1, 4))
    desk.take(end)
    desk.take(end)  # delivered again: reported once
    desk.take(envelope("T02", "old", 3, Sign(62.0, "EW")))  # another log's signature: not this report's
    result = desk.state.table(1, 2)
    assert (result.reported.winner, result.reported.gained, result.status) == ("NS", {"EW": 1, "NS": 4}, "awaiting EW")
    desk.take(envelope("T02", "b", 9, Sign(63.0, "EW")))
    assert desk.state.table(1, 2).counts and desk.state.scores(1)[desk.state.table(1, 2).table.ns].small == 16
    confirmations = [a for a in desk.journal.actions() if a.KIND == "result_confirmed"]
    assert [(a.side, a.by) for a in confirmations] == [("NS", "T02 NS"), ("EW", "T02 EW")]
    desk.take(envelope("T09", "c", 1, match_end(70.0, 0, 0)))
    desk.take(envelope("T02", "b2", 1, match_end(80.0, 2, 2)))
    assert desk.problems[1:] == [
        "table T09 record T09:c:1 (match_end): table T09 plays no match in round 1",
        "table T02 record T02:b2:1 (match_end): round 1 table 2: the result already counts (confirmed);"
        " the head referee corrects it",
    ]
    desk.correct(1, 2, "draw", {"EW": 2, "NS": 2}, "both sides agree the last deal was misread", by="wang")
    assert desk.state.table(1, 2).status == "corrected"
    with pytest.raises(EventActionError, match="a correction needs a reason"):
        desk.correct(1, 2, "EW", {"EW": 2, "NS": 1}, " ", by="wang")


def test_a_round_message_that_is_not_one_is_named() -> None:
    with pytest.raises(RoundCallError, match="missing field 'called'"):
        RoundCall.decode(b'{"event":"x","round":1,"start":0,"limit_s":60,"max_deals":9,"tables":[]}')
    bad_table = b'{"event":"x","round":1,"start":0,"limit_s":60,"called":null,"max_deals":9,"tables":[{"table":"a/b"}]}'
    with pytest.raises(RoundCallError, match="table 'a/b' must be 1-64 of"):
        RoundCall.decode(bad_table)
    with pytest.raises(RoundCallError, match="field 'round' must be a whole number"):
        RoundCall.decode(b'{"event":"x","round":0,"start":0,"limit_s":60,"called":null,"max_deals":9,"tables":[]}')
