"""``referee-station event`` end to end on a real SQLite journal: a station's log feeds the
result, both sides confirm, the head corrects, lateness forfeits, and every refusal exits 2
with a message naming what was wrong and stores nothing."""

from __future__ import annotations

import csv

from referee_station.cli import main
from referee_station.event.store import EventStore
from referee_station.log.jsonl import write_jsonl
from referee_station.log.store import EventStore as LogStore
from referee_station.sim.match import simulate
from referee_station.table.referee import TableReferee

PAIRS = (
    "number,names,unit\n1,张三/李四,工会一组\n2,王五/赵六,工会二组\n3,Ann/Bob,工会一组\n4,Cy/Di,工会三组\n"
    "5,Ed/Flo,工会二组\n"
)


def station_log(seed: int):
    """A refereed simulated match: inputs each followed by the referee's outputs, as a station logs."""
    referee = TableReferee(auto_confirm=True)
    return [r for event in simulate(seed, deals=2).events for r in (event, *referee.feed(event))]


def run(*argv: str) -> int:
    return main(["event", *argv])


def test_an_event_from_the_command_line(tmp_path, capsys):
    db, pairs = tmp_path / "event.db", tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    assert run("new", str(db), "--name", "教工赛", "--seed", "5", "--at", "0", "--by", "chief") == 0
    assert run("pairs", str(db), "import", str(pairs), "--at", "1") == 0
    assert run("pair", str(db), "--round", "1", "--at", "2") == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "1\t1\t张三 / 李四 (工会一组)\t2\t王五 / 赵六 (工会二组)",
        "2\t3\tAnn / Bob (工会一组)\t4\tCy / Di (工会三组)",
        "轮空 bye\t5\tEd / Flo (工会二组)\t\t",
    ]
    assert run("start", str(db), "--round", "1", "--at", "100") == 0
    assert run("may-deal", str(db), "--round", "1", "--deals", "3", "--at", "200") == 0
    assert run("call", str(db), "--round", "1", "--at", "3000", "--by", "chief") == 0
    assert run("may-deal", str(db), "--round", "1", "--deals", "3", "--at", "3001") == 1
    assert "R-MATCH-1" in capsys.readouterr().out

    jsonl, station_db = tmp_path / "t1.jsonl", tmp_path / "station.db"
    write_jsonl(jsonl, station_log(11))
    with LogStore(station_db) as log:
        log.append_many("T2", station_log(12))
    assert run("result", str(db), "--round", "1", "--table", "1", "--log", str(jsonl), "--at", "3600") == 0
    assert run("result", str(db), "--round", "1", "--table", "2", "--log", str(station_db), "--at", "3601") == 0
    assert run("pair", str(db), "--at", "3700") == 2
    assert "round 1 is not complete" in capsys.readouterr().err
    for table in ("1", "2"):
        for side in ("EW", "NS"):
            assert run("confirm", str(db), "--round", "1", "--table", table, "--side", side, "--at", "3650") == 0
    assert run("correct", str(db), "--round", "1", "--table", "2", "--winner", "NS", "--gained", "1:4",
               "--reason", "score sheet shows NS ahead", "--by", "chief", "--at", "3660") == 0  # fmt: skip

    standings = tmp_path / "standings.csv"
    assert run("export", str(db), "standings", "-o", str(standings), "--at", "3700") == 0
    rows = list(csv.reader(standings.read_text(encoding="utf-8").splitlines()))
    assert rows[0][0] == "名次 place" and len(rows) == 6
    by_pair = {row[1]: row for row in rows[1:]}
    assert by_pair["4"][4:8] == ["2", "16", "4", "1"], "the correction counts: NS won 4 levels to 1"
    assert by_pair["5"][4:6] == ["2", "17"], "the bye scores 2 and 17 (seed 003 十一.3)"
    capsys.readouterr()
    assert run("audit", str(db)) == 0
    audit = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[2] for line in audit][-3:] == ["result_confirmed", "result_confirmed", "result_corrected"]
    assert "chief" in audit[-1] and "score sheet shows NS ahead" in audit[-1]


def test_lateness_and_refusals(tmp_path, capsys):
    db, pairs = tmp_path / "event.db", tmp_path / "pairs.csv"
    pairs.write_text(PAIRS.replace("5,Ed/Flo,工会二组\n", ""), encoding="utf-8")
    assert run("new", str(db), "--name", "e", "--at", "0") == 0
    assert run("new", str(db), "--name", "again", "--at", "0") == 2
    assert "already exists" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("number,names\n1,A/B\n1,C/D\n", encoding="utf-8")
    assert run("pairs", str(db), "import", str(bad)) == 2
    assert f"{bad}:3: pair number 1 already" in capsys.readouterr().err
    assert run("pairs", str(db), "import", str(pairs), "--at", "1") == 0
    assert run("pair", str(db), "--at", "2") == 0
    assert run("start", str(db), "--round", "1", "--at", "1000") == 0
    assert run("forfeit", str(db), "--round", "1", "--pair", "4", "--seated-at", "1600", "--at", "1600") == 0
    assert "forfeits from 15" in capsys.readouterr().out
    assert run("forfeit", str(db), "--round", "1", "--pair", "3", "--not-seated", "--at", "1500") == 0
    assert "pair 3: not seated 8.3 min after the start; forfeits from 15" in capsys.readouterr().out
    assert run("forfeit", str(db), "--round", "1", "--pair", "4", "--seated-at", "1900", "--at", "1900") == 0
    assert "pair 4 forfeits round 1" in capsys.readouterr().out
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"t": 0, "type": "match", "sides": {"EW": "a", "NS": "b"}}\n', encoding="utf-8")
    assert run("result", str(db), "--round", "1", "--table", "1", "--log", str(empty)) == 2
    assert f"{empty}: no match_end record" in capsys.readouterr().err
    assert run("result", str(db), "--round", "1", "--table", "1", "--winner", "EW", "--gained", "5-2") == 2
    assert "--gained '5-2'" in capsys.readouterr().err
    with EventStore(db) as store:
        before = len(store.actions())
    assert run("confirm", str(db), "--round", "2", "--table", "1", "--side", "EW") == 2
    assert "round 2 is not paired yet" in capsys.readouterr().err
    with EventStore(db) as store:
        assert len(store.actions()) == before
    assert run("standings", str(tmp_path / "nothing.db")) == 2
    assert "no such event file" in capsys.readouterr().err
