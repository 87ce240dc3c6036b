"""Load benchmark of the hall (issue 8): simulated tables at real pace into one head console.

    python -m benchmarks.hall [--tables 200] [--seconds 60] [--workers 4] [--seed 1]
    python -m benchmarks.hall --sweep 200,300,400,500 --seconds 30

Each table is a real station: ``TableStation`` (referee + SQLite log, one durable commit per
event) wrapped by ``LinkedStation`` (``StationLink``: QoS 1, retained status, last will, outbox),
fed the seeded simulator's match (``referee_station.sim.simulate``) at the pace of its table clock:
human action times and a ``tick`` each silent second, as a live table sends them. Stations run in
``--workers`` processes (more when there are over 100 tables a process); the head console
(``HeadConsole`` + ``Register``) runs in this process, against a private Mosquitto and PostgreSQL
on 127.0.0.1.

Printed per load: records, records/s, end-to-end latency (the station's log commit to the
register commit at the head, every record) p50/p99/max and p99 of its bus part (to the head's
MQTT client), records lost (in a station's log but not
in the register after the run), copies dropped, and how late the feeding ran (pace check). The
target: no loss and p99 <= 100 ms for 200 tables; ``--sweep`` finds the largest load that keeps it.
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

from referee_station.hall.auth import new_password, station_user, write_broker_files
from referee_station.hall.broker import LocalMosquitto
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.localpg import LocalPostgres
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate

HALL = "bench"
TARGET_P99_S = 0.100
DRAIN_S = 120.0
TABLES_PER_WORKER = 100
"""paho waits with select(), which cannot watch a file descriptor numbered 1024 or more; a table
takes about 7 (socket, wake-up pair, SQLite log, WAL and shm files), so a process keeps ~100
(a real station runs one table)."""


@dataclass(frozen=True)
class WorkerSpec:
    """One station process: its tables, where the broker is, how long to play."""

    tables: list[tuple[int, str, str]]
    """(index, table, password)"""
    broker: str
    seconds: float
    seed: int
    directory: str


@dataclass(frozen=True)
class WorkerReport:
    records: dict[str, int]
    """Records in each table's log at the end."""
    unacked: int
    lag: list[float]
    """Seconds each event was submitted after its due time."""


def station_worker(spec: WorkerSpec, barrier: mp.synchronize.Barrier, reports: mp.Queue) -> None:
    base = BrokerURL.parse(spec.broker)
    tables, stores, scripts = [], [], []
    for index, table, password in spec.tables:
        path = Path(spec.directory) / f"{table}.sqlite"
        store = EventStore(path)
        link = StationLink(base.with_login(station_user(table), password), HALL, table, path).start()
        tables.append((table, LinkedStation(TableStation(store, table), link, clock=time.monotonic)))
        stores.append(store)
        deals = 1 + int(spec.seconds // 240)
        phase = random.Random(spec.seed * 100_003 + index).uniform(0.0, 1.0)
        events = [e for e in simulate(spec.seed * 100_003 + index, deals=deals).events if e.t <= spec.seconds]
        scripts.append((phase, events))
    for _, linked in tables:
        linked.link.wait_connected(60)
    barrier.wait()
    start = time.time()
    due = [(start + phase + events[0].t, i, 0) for i, (phase, events) in enumerate(scripts) if events]
    heapq.heapify(due)
    lag: list[float] = []
    while due:
        at, i, k = heapq.heappop(due)
        wait = at - time.time()
        if wait > 0:
            time.sleep(wait)
        lag.append(max(0.0, time.time() - at))
        phase, events = scripts[i]
        tables[i][1].submit(events[k])
        if k + 1 < len(events):
            heapq.heappush(due, (start + phase + events[k + 1].t, i, k + 1))
    deadline = time.monotonic() + DRAIN_S
    for _, linked in tables:
        linked.link.wait_acked(max(0.1, deadline - time.monotonic()))
    unacked = sum(linked.link.outbox.unacked() for _, linked in tables)
    counts = {table: sum(1 for _ in store.lines(table)) for (table, _), store in zip(tables, stores, strict=True)}
    for (_, linked), store in zip(tables, stores, strict=True):
        linked.close()
        store.close()
    reports.put(WorkerReport(counts, unacked, lag))


@dataclass(frozen=True)
class LoadResult:
    tables: int
    seconds: float
    records: int
    stored: int
    lost: int
    copies: int
    unacked: int
    p50_ms: float
    p99_ms: float
    bus_p99_ms: float
    max_ms: float
    lag_p99_ms: float

    def line(self) -> str:
        ok = "ok" if self.lost == 0 and self.p99_ms <= TARGET_P99_S * 1000 else "MISSED"
        return (
            f"| {self.tables} | {self.seconds:.0f} s | {self.records} | {self.records / self.seconds:.0f}/s "
            f"| {self.p50_ms:.1f} ms | {self.p99_ms:.1f} ms | {self.bus_p99_ms:.1f} ms | {self.max_ms:.0f} ms "
            f"| {self.lost} | {self.copies} | {self.lag_p99_ms:.1f} ms | {os.getloadavg()[0]:.1f} | {ok} |"
        )


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1] if len(values) > 1 else 0.0


def run_load(pg: LocalPostgres, tables: int, seconds: float, workers: int, seed: int) -> LoadResult:
    workers = max(workers, -(-tables // TABLES_PER_WORKER))
    with tempfile.TemporaryDirectory(prefix="hall-bench-") as tmp:
        names = [f"T{n:03d}" for n in range(1, tables + 1)]
        passwords = {name: new_password() for name in names}
        head_password = new_password()
        passwd, acl = write_broker_files(Path(tmp) / "broker", HALL, passwords, head_password)
        dsn = pg.database(f"bench_{tables}_{int(time.time())}")
        with LocalMosquitto(passwd, acl) as broker, Register(dsn) as register:
            head = HeadConsole(BrokerURL.parse(broker.url("head", head_password)), HALL, register).start()
            head.wait_connected(30)
            ctx = mp.get_context("spawn")
            barrier = ctx.Barrier(workers + 1)
            reports: mp.Queue = ctx.Queue()
            plain = f"mqtt://127.0.0.1:{broker.port}"
            specs = [
                WorkerSpec(
                    [(i, names[i], passwords[names[i]]) for i in range(w, tables, workers)], plain, seconds, seed, tmp
                )
                for w in range(workers)
            ]
            procs = [ctx.Process(target=station_worker, args=(spec, barrier, reports)) for spec in specs]
            for proc in procs:
                proc.start()
            barrier.wait()
            got = [reports.get(timeout=seconds + DRAIN_S + 300) for _ in procs]
            for proc in procs:
                proc.join()
            head.close()
            counts = {table: n for report in got for table, n in report.records.items()}
            stored = dict.fromkeys(names, 0)
            for row in register.records(HALL):
                stored[row[1]] += 1
        lost = sum(max(0, counts[t] - stored[t]) for t in names)
        latencies = list(head.stats.latencies)
        lag = [x for report in got for x in report.lag]
        return LoadResult(
            tables=tables,
            seconds=seconds,
            records=sum(counts.values()),
            stored=sum(stored.values()),
            lost=lost,
            copies=head.stats.duplicates,
            unacked=sum(report.unacked for report in got),
            p50_ms=percentile(latencies, 0.5) * 1000,
            p99_ms=percentile(latencies, 0.99) * 1000,
            bus_p99_ms=percentile(list(head.stats.arrivals), 0.99) * 1000,
            max_ms=max(latencies, default=0.0) * 1000,
            lag_p99_ms=percentile(lag, 0.99) * 1000,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sweep", help="table counts to try in turn, e.g. 200,300,400,500")
    args = parser.parse_args()
    loads = [int(n) for n in args.sweep.split(",")] if args.sweep else [args.tables]
    print(f"hall benchmark: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, seed {args.seed}")
    print(
        "| tables | run | records | rate | p50 | p99 | p99 to the head | max | lost | copies | feed lag p99 | load |"
        " p99 <= 100 ms, no loss |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    best = 0
    with LocalPostgres() as pg:
        for tables in loads:
            result = run_load(pg, tables, args.seconds, args.workers, args.seed)
            print(result.line(), flush=True)
            if result.lost == 0 and result.p99_ms <= TARGET_P99_S * 1000:
                best = max(best, tables)
    print(f"largest load keeping p99 <= 100 ms with no loss: {best} tables (load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
