"""TableStation: every fed event persisted with its outputs; a restart rebuilds the same state."""

import sqlite3

import pytest

from referee_station.log.station import ReplayMismatch, TableStation
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate
from referee_station.table.events import Pass


@pytest.fixture(scope="module")
def events():
    return simulate(21, 1, 0.03).events[:400]


def test_submit_stores_inputs_and_outputs_and_open_rebuilds(tmp_path, events):
    path = tmp_path / "station.db"
    with EventStore(path) as store:
        station = TableStation(store, "T1", auto_confirm=True)
        expected = []
        for event in events:
            expected += [event.to_line()] + [out.to_line() for out in station.submit(event)]
        assert [line for line, _ in store.rows("T1")] == expected
        snapshot = station.referee.snapshot()
    with EventStore(path) as store:
        rebuilt = TableStation.open(store, "T1", auto_confirm=True)
        assert rebuilt.inputs == len(events)
        assert rebuilt.referee.snapshot() == snapshot
        # the rebuilt station goes on exactly like the original
        assert rebuilt.submit(Pass(events[-1].t + 0.5, "E")) == station.referee.feed(Pass(events[-1].t + 0.5, "E"))


def test_open_refuses_a_log_whose_outputs_changed(tmp_path, events):
    path = tmp_path / "station.db"
    with EventStore(path) as store:
        station = TableStation(store, "T1", auto_confirm=True)
        for event in events:
            station.submit(event)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM records WHERE seq = (SELECT max(seq) FROM records WHERE is_input = 0)")
    db.commit()
    db.close()
    with EventStore(path) as store, pytest.raises(ReplayMismatch, match="first difference"):
        TableStation.open(store, "T1", auto_confirm=True)
    with EventStore(path) as store, pytest.raises(ReplayMismatch):
        TableStation.open(store, "T1", auto_confirm=False)  # other settings, other outputs
