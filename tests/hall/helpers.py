"""Stations for hall tests: the real ``TableStation`` on its own SQLite log, a recorder without a
file, and the table-scenario helper of tests/table feeding either."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee_station.hall.linked import LinkedStation
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.table.events import Record, parse_record
from referee_station.table.referee import TableReferee
from tests.table.helpers import Table


class LogStation(TableStation):
    """A ``TableStation`` on its own ``EventStore`` file, with the reads the tests compare against."""

    def __init__(self, path: Path, table_id: str) -> None:
        super().__init__(EventStore(path), table_id)

    def lines(self) -> list[str]:
        return list(self.store.lines(self.table_id))

    def close(self) -> None:
        self.store.close()


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
