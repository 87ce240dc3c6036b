"""The station process of the crash test: resume a table from its SQLite log (``TableStation.open``),
submit the rest of a JSON Lines log's input events, print each acknowledged count at once.

    python -m tests.log.station_writer DB LOG TABLE
"""

import sys

from referee_station.log.jsonl import read_jsonl
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore


def main(db: str, log: str, table: str) -> None:
    records, _ = read_jsonl(log)
    with EventStore(db) as store:
        station = TableStation.open(store, table, auto_confirm=True)
        for item in records[station.inputs :]:
            station.submit(item.record)
            print(station.inputs, flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
