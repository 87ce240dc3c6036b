"""The event takes a table's result straight from the hall's PostgreSQL register (issue 28): the
station's last ``match_end`` becomes the event's report, still to be signed by both sides."""

from __future__ import annotations

from referee_station.cli import main
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
