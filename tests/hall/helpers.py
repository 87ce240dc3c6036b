"""A station for hall tests: a referee whose records land in a SQLite log of the documented schema.

``LogStation`` stands in for ``referee_station.log``'s ``TableStation(store, table_id, config)``
(branch ``sim``): ``submit(event)`` feeds the referee and appends the event and its outputs to
``records(seq, table_id, t, type, is_input, body)`` in one transaction, as EventStore does.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee_station.hall.linked import LinkedStation
from referee_station.table.events import Record, parse_record
from referee_station.table.referee import TableReferee
from tests.table.helpers import Table

_RECORDS = (
    "CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL, t REAL NOT NULL,"
    " type TEXT NOT NULL, is_input INTEGER NOT NULL, body TEXT NOT NULL)"
)


class LogStation:
    """One table's referee and its SQLite log."""

    def __init__(self, path: Path, table_id: str) -> None:
        self.path = path
        self.table_id = table_id
        self.referee = TableReferee(auto_confirm=False)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_RECORDS)

    def submit(self, event: Record) -> list[Record]:
        outputs = self.referee.feed(event)
        rows = [(self.table_id, r.t, r.TYPE, int(r.IS_INPUT), r.to_line()) for r in (event, *outputs)]
        self._db.execute("BEGIN IMMEDIATE")
        self._db.executemany("INSERT INTO records (table_id, t, type, is_input, body) VALUES (?, ?, ?, ?, ?)", rows)
        self._db.execute("COMMIT")
        return outputs

    def lines(self) -> list[str]:
        return [body for (body,) in self._db.execute("SELECT body FROM records WHERE table_id = ? ORDER BY seq",
                                                     (self.table_id,))]  # fmt: skip

    def close(self) -> None:
        self._db.close()


class Recorder:
    """A station without a log file: keeps the records in a list (for register tests)."""

    def __init__(self, auto_confirm: bool = True) -> None:
        self.referee = TableReferee(auto_confirm=auto_confirm)
        self.records: list[Record] = []

    def submit(self, event: Record) -> list[Record]:
        outputs = self.referee.feed(event)
        self.records += [event, *outputs]
        return outputs


class StationTable(Table):
    """The scenario helper of tests/table, feeding through a station (and its link)."""

    def __init__(
        self,
        station: LogStation | Recorder | LinkedStation,
        after: Callable[[], None] = lambda: None,
        referee: TableReferee | None = None,
        **match: Any,
    ) -> None:
        self.station = station
        self.after = after
        super().__init__(auto_confirm=False, **match)
        self.referee = referee or station.referee  # a LinkedStation's is its station's

    def feed(self, line: dict[str, Any], advance: float | None = None) -> list[dict[str, Any]]:
        self.t += self.step if advance is None else advance
        out = [o.to_json() for o in self.station.submit(parse_record({"t": self.t, **line}))]
        self.outputs += out
        self.after()
        return out


def wait_for(condition: Callable[[], bool], timeout: float = 15.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
