"""The event takes a table's result straight from the hall's PostgreSQL register (issue 28): the
station's last ``match_end`` becomes the event's report, still to be signed by both sides."""

from __future__ import annotations

import pytest

from referee_station.cli import main
from referee_station.event.actions import ResultConfirmed, ResultReported, RoundPaired
from referee_station.event.model import EventActionError
from referee_station.event.pg_store import PgEventStore
from referee_station.event.planner import next_pairing
from referee_station.event.store import EventStore
from referee_station.hall.register import Register
from tests.hall.test_register import envelopes, one_deal_match

HALL = "ev"


def test_a_result_from_the_register(tmp_path, register: Register, register_dsn: str, capsys) -> None:
    register.store(HALL, envelopes("T03", "log1", one_deal_match({"EW": "1", "NS": "2"}, "N")))
    register.store(HALL, envelopes("T03", "log2", one_deal_match({"EW": "1", "NS": "2"}, "E")))
    pairs, db = tmp_path / "pairs.csv", tmp_path / "event.db"
    pairs.write_text("number,names\n1,A/B\n2,C/D\n", encoding="utf-8")
    assert main(["event", "new", str(db), "--name", "hall cup", "--at", "0"]) == 0
    assert main(["event", "pairs", str(db), "import", str(pairs), "--at", "1"]) == 0
    assert main(["event", "pair", str(db), "--at", "2"]) == 0
    argv = ["event", "result", str(db), "--round", "1", "--table", "1", "--register", register_dsn, "--hall", HALL]
    assert main([*argv, "--hall-table", "T03", "--at", "3"]) == 0
    with EventStore(db) as store:
        report = store.state.table(1, 1).reported
        assert (report.winner, report.gained) == ("EW", {"EW": 3, "NS": 0}), "the later match, swept by EW"
        assert report.source == f"register {HALL}/T03" and not store.state.table(1, 1).counts
    assert main([*argv, "--hall-table", "T09", "--at", "4"]) == 2
    assert f"register hall {HALL!r} table 'T09': no match_end record" in capsys.readouterr().err


def test_two_head_consoles_share_one_event_in_postgresql(register_dsn: str, tmp_path, capsys) -> None:
    """The second console catches up before each action: it cannot pair a round the first paired."""
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("number,names\n1,A/B\n2,C/D\n3,E/F\n4,G/H\n", encoding="utf-8")
    base = ["--event-name", "cup", "--by", "chief"]
    assert main(["event", "new", register_dsn, "--name", "hall cup", "--at", "0", *base]) == 0
    assert main(["event", "pairs", register_dsn, "import", str(pairs), "--at", "1", *base]) == 0
    with PgEventStore(register_dsn, "cup") as first, PgEventStore(register_dsn, "cup") as second:
        pairing = next_pairing(first.state)
        stale = next_pairing(second.state)
        first.record(RoundPaired(at=2.0, pairing=pairing))
        with pytest.raises(EventActionError, match="round 1 cannot be paired now; the next round is 2"):
            second.record(RoundPaired(at=2.5, pairing=stale))
        second.record(ResultReported(at=3.0, round=1, table=1, winner="NS", gained={"EW": 1, "NS": 2}))
        first.record(ResultConfirmed(at=4.0, round=1, table=1, side="EW"))
        assert first.state.table(1, 1).status == "awaiting NS"
    assert main(["event", "confirm", register_dsn, "--round", "1", "--table", "1", "--side", "NS", *base]) == 0
    assert "round 1 table 1: confirmed" in capsys.readouterr().out
    with PgEventStore(register_dsn, "cup") as again:
        assert [a.KIND for a in again.actions()] == [
            "created", "pairs_imported", "round_paired", "result_reported", "result_confirmed", "result_confirmed",
        ]  # fmt: skip
        assert again.state.scores(1)[2].points == 2
    assert main(["event", "standings", register_dsn, "--event-name", "other"]) == 2
    assert "no event 'other'" in capsys.readouterr().err
