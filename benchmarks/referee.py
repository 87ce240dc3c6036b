"""Benchmark of the referee, the log and replay (issue 3).

    python -m benchmarks.referee [--deals 1000] [--deals-per-match 4] [--violations 0.01] [--seed 1]

1. Simulates ``--deals`` deals (matches of ``--deals-per-match``, one seed each, injected violations)
   and replays them, as ``replay --json --auto-confirm`` does: parse each JSON line, feed the referee,
   write each output as a JSON line. Target: >= 20,000 events/s. The referee's ``feed`` alone is
   timed too.
2. Rebuilds a table from a 10,000-event SQLite log (``TableStation.open``: read, parse, replay,
   compare with the stored outputs). Target: <= 1 s.
3. Acknowledged appends per second (WAL, synchronous=FULL: one durable commit per fed event).
Seeded; prints the figures.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate
from referee_station.table.events import parse_line
from referee_station.table.referee import TableReferee


def simulate_logs(deals: int, per_match: int, rate: float, seed: int) -> tuple[list[list[str]], int, int]:
    logs, played, injected, n = [], 0, 0, 0
    while played < deals:
        result = simulate(seed + n, min(per_match, deals - played), rate)
        logs.append([event.to_line() for event in result.events])
        played += result.deals
        injected += len(result.truth)
        n += 1
    return logs, played, injected


def replay_throughput(logs: list[list[str]]) -> tuple[int, int, float, float]:
    """Events, outputs, seconds end to end (parse, feed, write), seconds in ``feed`` only."""
    events = outputs = 0
    start = time.perf_counter()
    for lines in logs:
        referee = TableReferee(auto_confirm=True)
        for line in lines:
            for out in referee.feed(parse_line(line)):
                out.to_line()
                outputs += 1
        events += len(lines)
    total = time.perf_counter() - start
    parsed = [[parse_line(line) for line in lines] for lines in logs]
    start = time.perf_counter()
    for records in parsed:
        referee = TableReferee(auto_confirm=True)
        for record in records:
            referee.feed(record)
    return events, outputs, total, time.perf_counter() - start


def long_match(size: int, seed: int) -> list[str]:
    """The first ``size`` lines of the first seeded clean match that long (one table, one match:
    a side usually passes A within 8-16 deals, so not every match is)."""
    while True:
        events = simulate(seed, 60, 0.0).events
        if len(events) >= size:
            return [event.to_line() for event in events[:size]]
        seed += 1


def rebuild_time(lines: list[str], folder: Path) -> tuple[int, float]:
    """Store a table's log as the station would (inputs and their outputs), then time ``open``."""
    referee = TableReferee(auto_confirm=True)
    records = []
    for line in lines:
        event = parse_line(line)
        records += [event, *referee.feed(event)]
    with EventStore(folder / "rebuild.db") as store:
        store.append_many("T1", records)
    with EventStore(folder / "rebuild.db") as store:
        start = time.perf_counter()
        station = TableStation.open(store, "T1", auto_confirm=True)
        return station.inputs, time.perf_counter() - start


def append_rate(lines: list[str], folder: Path) -> float:
    """Durable acknowledged submits per second through :class:`TableStation`."""
    events = [parse_line(line) for line in lines]
    with EventStore(folder / "append.db") as store:
        station = TableStation(store, "T1", auto_confirm=True)
        start = time.perf_counter()
        for event in events:
            station.submit(event)
        return len(events) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--deals-per-match", type=int, default=4)
    parser.add_argument("--violations", type=float, default=0.01)
    parser.add_argument("--rebuild-events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    start = time.perf_counter()
    logs, deals, injected = simulate_logs(args.deals, args.deals_per_match, args.violations, args.seed)
    sim_s = time.perf_counter() - start
    events, outputs, total_s, feed_s = replay_throughput(logs)
    long_log = long_match(args.rebuild_events, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        rebuilt, rebuild_s = rebuild_time(long_log, Path(tmp))
        appends = append_rate(long_log[:500], Path(tmp))

    print(f"simulated {deals} deals in {len(logs)} matches: {events:,} events, {injected} violations, {sim_s:.1f} s")
    print("| measure | value | target |")
    print("|---|---|---|")
    print(
        f"| replay, parse + feed + write ({events:,} events, {outputs:,} outputs) | {events / total_s:,.0f} events/s"
        " | >= 20,000 events/s |"
    )
    print(f"| referee `feed` alone | {events / feed_s:,.0f} events/s | |")
    print(f"| rebuild a table from a {rebuilt:,}-event SQLite log (`TableStation.open`) | {rebuild_s:.2f} s | <= 1 s |")
    print(f"| acknowledged submits (WAL, synchronous=FULL) | {appends:,.0f} events/s | |")
    print(f"| simulator | {deals / sim_s:,.1f} deals/s | |")


if __name__ == "__main__":
    main()
