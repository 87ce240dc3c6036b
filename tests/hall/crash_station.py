"""A station in a process of its own, for tests that kill it (``SIGKILL``: no clean close, no
retained "offline" of its own, nothing flushed): its link, its SQLite log and the kernel closing its
socket are all the hall gets, as after a real crash.

    python -m tests.hall.crash_station LOG HALL TABLE BROKER_URL [--seed N] [--events K]

Feeds the first ``K`` events of the simulator's seeded one-deal match (0: none, a restart), publishes
a camera frame for each flag, prints ``ready <flags>`` and then waits to be killed.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

import numpy as np

from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.evidence import frame_jpeg
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate
from referee_station.table.events import Flag


def picture(flag: int) -> bytes:
    """A frame the test can recognise: its grey level is ``40 * flag`` (capped)."""
    return frame_jpeg(np.full((120, 160, 3), min(250, 40 * flag), np.uint8))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("hall")
    parser.add_argument("table")
    parser.add_argument("broker")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--events", type=int, default=0)
    args = parser.parse_args()
    store = EventStore(Path(args.log))
    station = TableStation.open(store, args.table)
    link = StationLink(BrokerURL.parse(args.broker), args.hall, args.table, Path(args.log)).start()
    linked = LinkedStation(station, link, clock=lambda: 0.0)
    flags = []
    for event in simulate(args.seed, deals=1, violations=0.1).events[: args.events]:
        for out in linked.submit(event):
            if isinstance(out, Flag):
                link.publish_evidence(out.id, out.t, picture(out.id))
                flags.append(out.id)
    print("ready", " ".join(map(str, flags)), flush=True)
    threading.Event().wait()  # until killed


if __name__ == "__main__":
    sys.exit(main())
