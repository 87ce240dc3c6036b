"""Benchmark of the table hardware link (issue 4), the real driver against the emulator on a pty.

    python -m benchmarks.devices [--commands 2000] [--presses 200] [--seed 1] [--drift-ppm 80] [--process]

- Round trip of a command and its acknowledgement over the pty (target p99 <= 5 ms), measured two
  ways: on the wire (the link thread writes the frame ... reads the hub's ack) and as the caller
  sees it (``TableDevices.show()`` from the call to its return: two more thread hand-offs, through
  the queue to the link thread and back through the future).
- Press timestamp error after clock sync: the table time the driver gives a pass press minus the
  true time of the press, with the hub's clock offset by hours and drifting (``--drift-ppm``);
  target |error| <= 10 ms. Presses come at random intervals over several seconds of sync.

By default the emulator runs in this process (its own thread; same interpreter lock); ``--process``
runs ``referee-station emulate-devices`` as a separate process, like real hardware, for the round
trip only (the true press times are not observable from outside). Seeded; prints p50 / p99 / max.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.stats import percentile
from referee_station.devices.emulator import Emulator
from referee_station.devices.table_devices import Press, TableDevices


def report(name: str, values_ms: list[float], target: str) -> None:
    print(
        f"{name:<44} n={len(values_ms):>5}  p50 {statistics.median(values_ms):7.3f} ms"
        f"  p99 {percentile(values_ms, 0.99):7.3f} ms  max {max(values_ms):7.3f} ms  ({target})"
    )


def round_trips(devices: TableDevices, count: int, rnd: random.Random) -> list[float]:
    times = []
    for i in range(count):
        start = time.perf_counter()
        devices.show(i % 1000)
        times.append((time.perf_counter() - start) * 1e3)
        time.sleep(rnd.uniform(0, 0.002))
    return times


def press_errors(
    emulator: Emulator, devices: TableDevices, events: list[Press], count: int, rnd: random.Random
) -> list[float]:
    """Seats press in turn at random 20-60 ms intervals (a seat's presses stay outside its 30 ms debounce)."""
    origin = time.monotonic() - devices.table_clock()
    truth = []
    for i in range(count):
        time.sleep(rnd.uniform(0.02, 0.06))
        truth.append(emulator.press_pass("ESWN"[i % 4]) - origin)
    deadline = time.monotonic() + 5.0
    while len(events) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    if len(events) != count:
        raise SystemExit(f"{count} presses, {len(events)} events: events lost")
    return [abs(event.t - t) * 1e3 for event, t in zip(events, truth, strict=True)]


def in_process(args: argparse.Namespace) -> None:
    rnd = random.Random(args.seed)
    events: list[Press] = []
    lock = threading.Lock()

    def on_event(event: Press) -> None:
        with lock:
            events.append(event)

    origin = time.monotonic()
    with (
        Emulator(clock_offset=3 * 3600.0, drift_ppm=args.drift_ppm, seed=args.seed) as emulator,
        TableDevices(emulator.port, lambda: time.monotonic() - origin, on_event) as devices,
    ):
        if not devices.wait_connected(5.0):
            raise SystemExit(f"no connection: {devices.status_detail}")
        calls = round_trips(devices, args.commands, rnd)
        report("command + ack on the wire, in-process", [t * 1e3 for t in devices.round_trips()], "p99 <= 5 ms")
        report("show() call to return, in-process", calls, "what the caller waits")
        errors = press_errors(emulator, devices, events, args.presses, rnd)
        report(f"press time error, drift {args.drift_ppm:g} ppm", errors, "max <= 10 ms")
        stats = devices.stats
        print(
            f"clock error bound ±{devices.clock_error * 1e3:.3f} ms; retransmits {stats.retransmits},"
            f" bad CRC {stats.bad_crc}, garbage bytes {stats.garbage_bytes}, duplicates {stats.duplicates}"
        )


def separate_process(args: argparse.Namespace) -> None:
    rnd = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "ttyBENCH"
        command = [sys.executable, "-m", "referee_station.cli", "emulate-devices", "--link", str(link)]
        command += ["--seed", str(args.seed), "--drift-ppm", str(args.drift_ppm)]
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=os.environ)
        try:
            deadline = time.monotonic() + 10.0
            while not link.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            with TableDevices(str(link), time.monotonic, lambda event: None) as devices:
                if not devices.wait_connected(5.0):
                    raise SystemExit(f"no connection: {devices.status_detail}")
                calls = round_trips(devices, args.commands, rnd)
                wire = [t * 1e3 for t in devices.round_trips()]
                report("command + ack on the wire, 2 processes", wire, "p99 <= 5 ms")
                report("show() call to return, 2 processes", calls, "what the caller waits")
        finally:
            proc.terminate()
            proc.wait(timeout=5.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drift-ppm", type=float, default=80.0)
    parser.add_argument("--process", action="store_true", help="also time round trips to a separate emulator process")
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"seed {args.seed}; {os.cpu_count()} CPUs, load average {load} (round-trip tails follow the load)")
    in_process(args)
    if args.process:
        separate_process(args)


if __name__ == "__main__":
    main()
