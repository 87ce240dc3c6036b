"""``referee-station station --headless``: a rendered whole match read by the real camera pipeline and
refereed from its setup alone (deals, tribute and return from the camera, passes inferred) gives the
same results as replaying the simulator's own log."""

from __future__ import annotations

import json

import pytest

from referee_station.cli import main
from referee_station.log.jsonl import read_jsonl
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.table.events import DealEnd, DealStart, Exchange, MatchEnd, Return, Tribute
from referee_station.table.referee import TableReferee


def results(records):
    """deal_end and match_end outputs without their times (the camera times a play by its landing)."""
    out = []
    for record in records:
        if isinstance(record, (DealEnd, MatchEnd)):
            body = record.to_json()
            out.append((body.pop("t"), json.dumps(body, sort_keys=True)))
    return out


def replayed(log):
    records, errors = read_jsonl(log)
    assert not errors
    referee = TableReferee()
    return [out for r in records if r.record.IS_INPUT for out in referee.feed(r.record)]


@pytest.mark.timeout(1200)  # rendering and reading 5,800 frames: about 3 minutes on two quiet cores
def test_a_whole_match_from_its_setup_gives_the_simulators_results(whole_match, tmp_path, capsys):
    log, video, setup = whole_match
    out = tmp_path / "station.jsonl"
    code = main(["station", "--headless", "--video", str(video), "--setup", str(setup), "--log", str(out), "-q"])
    printed = capsys.readouterr()
    assert code == 0, printed.out  # no flag: the match had no violation
    records, errors = read_jsonl(out)
    assert not errors
    got, want = results(r.record for r in records), results(replayed(log))
    assert [body for _, body in got] == [body for _, body in want] and len(want) == 3  # two deals and the match
    assert all(abs(a - b) < 0.5 for (a, _), (b, _) in zip(got, want, strict=True))
    inputs = [r.record for r in records if r.record.IS_INPUT]
    assert sum(isinstance(e, DealStart) for e in inputs) == 2  # nobody typed a deal
    assert [type(e) for e in inputs if isinstance(e, Exchange)] == [Tribute, Tribute, Return, Return]
    assert "RESULT  match ends: winner" in printed.out


@pytest.mark.timeout(600)
def test_a_restarted_station_resumes_its_table_clock_from_the_log(opening, tmp_path, capsys):
    """The station is stopped and started again on the same SQLite log: the second run's events come
    after the first's on the table clock, and nothing is flagged for time going backwards."""
    _, video, setup = opening
    db = tmp_path / "T1.sqlite"
    args = ["station", "--headless", "--video", str(video), "--setup", str(setup), "--log", str(db), "-q"]
    assert main(args) in (0, 1)
    with EventStore(db) as store:
        first = TableStation.open(store, "T1").referee.now
    assert first > 150.0
    assert main(args) in (0, 1)
    with EventStore(db) as store:
        rows = [line for line, is_input in store.rows("T1") if is_input]
    times = [json.loads(line)["t"] for line in rows]
    assert times == sorted(times) and times[-1] > first + 150.0
    assert "time went backwards" not in capsys.readouterr().out
