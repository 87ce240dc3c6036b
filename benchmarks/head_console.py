"""Benchmark of the head referee's console (issue #23): does one window keep up with a hall?

    python -m benchmarks.head_console [--tables 200] [--seconds 60] [--workers 4] [--violations 0.1]
                                      [--warmup 300] [--seed 1] [--nice 10]

``--tables`` headless stations (``TableStation`` + ``StationLink``, as ``run --broker`` wires them),
each fed its own seeded simulated match at the pace of its table clock, in ``--workers``
processes at a lower CPU priority (``--nice``, 10; in a hall they are other machines), publishing
to a private Mosquitto on 127.0.0.1; each flag's camera frame (a 320×240
JPEG) is published too, as the station orchestrator does. Every table first plays a random
``--warmup`` table-seconds at once, so flags come from the first second of the measurement; the
clock starts when the head has followed that warm-up. The head console (``HeadApp``: register
writer, ``HallFeed``, the real window 1600×1000, offscreen) runs in this process, its PostgreSQL
private too.

Printed: records and flags in the measured ``--seconds``; flag-to-screen latency (the station's log
commit of the flag to the first paint of the alert list showing it) p50 / p99 / max, target p99 ≤
500 ms, and its stages, each from the same commit: the head's MQTT client (every record), the
head's viewer thread taking the flag's record, the feed's update ready, the update landed in the
models by the GUI pump; the register commit (every record), which the screen no longer waits for;
the GUI thread's busy share (its CPU time over the wall time, painting included), target < 50 %;
and the load average beside them.
"""

from __future__ import annotations

import argparse
import heapq
import multiprocessing as mp
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.stats import percentile

DRAIN_S = 60.0
TABLES_PER_WORKER = 100
"""paho's select() cannot watch descriptors over 1024; a table takes about 7 (``benchmarks.hall``)."""
HALL = "bench"


@dataclass(frozen=True)
class Spec:
    tables: list[tuple[int, str, str]]
    """(index, table, password)"""
    broker: str
    seconds: float
    warmup: float
    violations: float
    seed: int
    directory: str
    nice: int


def station_worker(spec: Spec, ready: mp.Queue, start: mp.synchronize.Event, done: mp.Queue) -> None:
    """Some tables of the hall: warm-up at once, then the paced run; flags' frames published. At
    ``--nice`` 10 by default: in a hall the stations are other machines, here they share the head's
    cores and should not take its CPU (they still load the broker)."""
    os.nice(spec.nice)
    import numpy as np

    from referee_station.hall.auth import station_user
    from referee_station.hall.broker_url import BrokerURL
    from referee_station.hall.evidence import frame_jpeg
    from referee_station.hall.linked import LinkedStation
    from referee_station.hall.publisher import StationLink
    from referee_station.log.station import TableStation
    from referee_station.log.store import EventStore
    from referee_station.sim.match import simulate
    from referee_station.table.events import Flag

    jpeg = frame_jpeg(np.random.default_rng(spec.seed).integers(0, 255, (240, 320, 3), dtype=np.uint8))
    base = BrokerURL.parse(spec.broker)
    stations, scripts = [], []
    for index, table, password in spec.tables:
        path = Path(spec.directory) / f"{table}.sqlite"
        station = TableStation(EventStore(path), table)  # the log's schema first: the link reads it
        link = StationLink(base.with_login(station_user(table), password), HALL, table, path).start()
        stations.append(LinkedStation(station, link, time.monotonic))
        rng = random.Random(spec.seed * 100_003 + index)
        offset = rng.uniform(0.0, spec.warmup)
        events = simulate(spec.seed * 100_003 + index, deals=3, violations=spec.violations).events
        scripts.append((offset, [e for e in events if e.t <= offset + spec.seconds]))

    def submit(i: int, k: int) -> None:
        linked = stations[i]
        for out in linked.submit(scripts[i][1][k]):
            if isinstance(out, Flag):
                linked.link.publish_evidence(out.id, out.t, jpeg)

    def logged() -> int:
        return sum(sum(1 for _ in linked.station.store.lines(linked.station.table_id)) for linked in stations)

    for linked in stations:
        linked.link.wait_connected(60)
    warm = [0] * len(scripts)
    for i, (offset, events) in enumerate(scripts):
        while warm[i] < len(events) and events[warm[i]].t < offset:
            submit(i, warm[i])
            warm[i] += 1
    ready.put(logged())
    start.wait()
    began = time.time()
    due = []
    for i, (offset, events) in enumerate(scripts):
        if warm[i] < len(events):
            due.append((began + events[warm[i]].t - offset, i, warm[i]))
    heapq.heapify(due)
    while due:
        at, i, k = heapq.heappop(due)
        if (wait := at - time.time()) > 0:
            time.sleep(wait)
        submit(i, k)
        offset, events = scripts[i]
        if k + 1 < len(events):
            heapq.heappush(due, (began + events[k + 1].t - offset, i, k + 1))
    deadline = time.monotonic() + DRAIN_S
    for linked in stations:
        linked.link.wait_acked(max(0.1, deadline - time.monotonic()))
    total = logged()
    for linked in stations:
        linked.close()
        linked.station.store.close()
    done.put(total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--violations", type=float, default=0.1)
    parser.add_argument("--warmup", type=float, default=300.0, help="table seconds each table plays before the clock")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nice", type=int, default=0, help="the station processes' niceness (default 0)")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from referee_station.console.qt.head_app import HeadApp
    from referee_station.hall.auth import new_password, write_broker_files
    from referee_station.hall.broker import LocalMosquitto
    from referee_station.hall.broker_url import BrokerURL
    from referee_station.hall.localpg import LocalPostgres
    from referee_station.hall.register import Register

    qt = QApplication([])
    workers = max(args.workers, -(-args.tables // TABLES_PER_WORKER))
    names = [f"T{n:03d}" for n in range(1, args.tables + 1)]
    passwords = {name: new_password() for name in names}
    head_password = new_password()
    with tempfile.TemporaryDirectory(prefix="head-bench-") as tmp, LocalPostgres() as pg:
        passwd, acl = write_broker_files(Path(tmp) / "broker", HALL, passwords, head_password)
        with LocalMosquitto(passwd, acl) as broker, Register(pg.database("head_bench")) as register:
            app = HeadApp(BrokerURL.parse(broker.url("head", head_password)), HALL, register)
            stages = Stages(app)
            app.start()
            app.head.wait_connected(30)
            ctx = mp.get_context("spawn")
            ready: mp.Queue = ctx.Queue()
            done: mp.Queue = ctx.Queue()
            start = ctx.Event()
            plain = f"mqtt://127.0.0.1:{broker.port}"
            specs = [
                Spec([(i, names[i], passwords[names[i]]) for i in range(w, args.tables, workers)], plain,
                     args.seconds, args.warmup, args.violations, args.seed, tmp, args.nice)
                for w in range(workers)
            ]  # fmt: skip
            procs = [ctx.Process(target=station_worker, args=(spec, ready, start, done)) for spec in specs]
            for proc in procs:
                proc.start()
            warm = 0
            for _ in procs:  # the Qt loop keeps running while the stations warm up
                while ready.empty():
                    qt.processEvents()
                    time.sleep(0.01)
                warm += ready.get()
            while sum(app.feed.followed.values()) < warm:
                qt.processEvents()
                time.sleep(0.01)
            qt.processEvents()
            warm_flags = len(app.window.alerts.latencies)
            app.window.alerts.latencies.clear()
            stages.clear()
            stored0 = app.head.stats.stored
            bus0, commit0 = len(app.head.stats.arrivals), len(app.head.stats.latencies)
            cpu0, wall0 = time.thread_time(), time.monotonic()
            start.set()
            QTimer.singleShot(int(args.seconds * 1000), qt.quit)
            qt.exec()
            cpu, wall = time.thread_time() - cpu0, time.monotonic() - wall0
            latencies = list(app.window.alerts.latencies)
            records = app.head.stats.stored - stored0
            bus = list(app.head.stats.arrivals)[bus0:]
            commits = list(app.head.stats.latencies)[commit0:]
            totals = [done.get(timeout=DRAIN_S + 120) for _ in procs]
            for proc in procs:
                proc.join()
            app.stop()
            stored = len(register.records(HALL))
    load = os.getloadavg()
    print(f"head console benchmark: {args.tables} stations in {workers} processes at nice {args.nice}, "
          f"{os.cpu_count()} CPUs, "
          f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}, seed {args.seed}")  # fmt: skip
    print(f"warm-up: {warm} records, {warm_flags} flags on screen; measured {wall:.0f} s: {records} records "
          f"({records / wall:.0f}/s), {len(latencies)} flags; register: {stored} of {sum(totals)} logged")  # fmt: skip
    print("| measure | value | target |")
    print("|---|---|---|")
    print(f"| GUI thread busy (CPU / wall) | {100 * cpu / wall:.1f} % | < 50 % |")
    if latencies:
        print(
            f"| flag-to-screen latency, median / p99 / max | {1000 * statistics.median(latencies):.0f} / "
            f"{1000 * percentile(latencies, 0.99):.0f} / {1000 * max(latencies):.0f} ms | p99 ≤ 500 ms |"
        )
    for name, values in (
        ("to the head's MQTT client (every record)", bus),
        ("to the viewer thread taking the flag", stages.viewed),
        ("to the feed's update ready", stages.fed),
        ("to the models (GUI pump)", stages.landed),
        ("to the register commit (every record; not waited for)", commits),
    ):
        if values:
            print(f"| of which {name}, p50 / p99 | {1000 * percentile(values, 0.5):.0f} / "
                  f"{1000 * percentile(values, 0.99):.0f} ms | |")  # fmt: skip


class Stages:
    """Where a flag's time goes on its way to the screen, each stage measured from the station's
    commit (``sent_at``), for flags only: the head's viewer hook wrapped, the alert queue watched."""

    def __init__(self, app) -> None:
        self.viewed: list[float] = []
        self.fed: list[float] = []
        self.landed: list[float] = []
        record = app.head.on_received

        def timed(envelope) -> None:
            flag = envelope.type == "flag"
            if flag:
                self.viewed.append(time.time() - envelope.sent_at)
            record(envelope)
            if flag:
                self.fed.append(time.time() - envelope.sent_at)

        app.head.on_received = timed
        app.model.alerts.added.connect(lambda alert: self.landed.append(time.monotonic() - alert.raised))

    def clear(self) -> None:
        for values in (self.viewed, self.fed, self.landed):
            values.clear()


if __name__ == "__main__":
    main()
