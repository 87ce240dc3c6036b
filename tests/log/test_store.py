"""The SQLite store: WAL, one transaction per fed event, records back as they went in, migrations."""

import sqlite3

import pytest

from referee_station.log.store import SCHEMA_VERSION, EventStore, StoreError, is_sqlite
from referee_station.table.events import Countdown, DealStart, Flag, MatchStart, Pass, PlayCards, Tick

EVENTS = [
    MatchStart(0.0, {"EW": "Wang / Li", "NS": "张 / 陈"}),
    DealStart(1.5, "E"),
    PlayCards(3.25, "E", ("3s", "3d"), {"kind": "pair", "key": "3"}),
    Pass(4.0, "S"),
    Tick(5.0),
]
OUTPUTS = [
    Countdown(3.25, "N", "follow", 20.0, 23.25),
    Flag(4.0, 1, "S", "NS", "out_of_turn_pass", "R-PLAY-1", "warning", "S passed out of turn", "越序表态"),
]


def test_round_trip(tmp_path):
    path = tmp_path / "station.db"
    with EventStore(path) as store:
        for event in EVENTS[:2]:
            store.append("T1", event)
        store.append("T1", EVENTS[2], OUTPUTS[:1])
        store.append("T2", Tick(0.5))
        store.append("T1", EVENTS[3], OUTPUTS[1:])
        store.append("T1", EVENTS[4])
    with EventStore(path) as store:
        assert store.tables() == ["T1", "T2"]
        assert store.inputs("T1") == EVENTS
        assert store.records("T1") == [*EVENTS[:3], OUTPUTS[0], EVENTS[3], OUTPUTS[1], EVENTS[4]]
        assert [line for line, _ in store.rows("T2")] == [Tick(0.5).to_line()]
    assert is_sqlite(path)


def test_wal_and_schema_version(tmp_path):
    path = tmp_path / "station.db"
    EventStore(path).close()
    EventStore(path).close()  # reopening migrates nothing twice
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    columns = [row[1] for row in db.execute("PRAGMA table_info(records)")]
    assert columns == ["seq", "table_id", "t", "type", "is_input", "body"]
    db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer"):
        EventStore(path)


def test_a_failed_append_stores_nothing(tmp_path):
    with EventStore(tmp_path / "station.db") as store:
        store.append("T1", EVENTS[0])
        with pytest.raises(AttributeError):
            store.append("T1", EVENTS[1], [OUTPUTS[0], "not a record"])  # type: ignore[list-item]
        assert store.records("T1") == [EVENTS[0]]
        assert store.append_many("T1", [EVENTS[1], *OUTPUTS]) == 3
        assert store.records("T1") == [EVENTS[0], EVENTS[1], *OUTPUTS]
