"""Benchmark of the referee console (issue #7): does it keep up with a hall of live tables?

    python -m benchmarks.console [--tables 8] [--seconds 180] [--speed 1] [--violations 0.1] [--seed 1]
                                 [--no-devices] [--camera]

The real console (window 1600×1000, every view, offscreen unless a display is set) over
``--tables`` simulated tables played at ``--speed`` times real time, their referees in the engine
thread, their passes and reports pressed on emulated seat units (pseudo-terminals) and heard by the
real driver, as in the demo; with ``--camera`` every table is also seen through its rendered camera
and read by the card reader at 5 fps, in the engine thread, as in the demo. Measured on the GUI
thread: its CPU time over the wall time (``time.thread_time``; painting included), and for every flag
the seconds from the referee raising it to the first paint of the alert list showing it (targets:
busy < 50 %, p99 ≤ 200 ms). Also how far behind its due time each update landed (with the camera
this includes the tracker's wait for the cards to lie still). ``--violations`` is higher than a real
hall's so the latency has enough samples.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from benchmarks.stats import percentile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--violations", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-devices", dest="devices", action="store_false", help="feed passes and reports straight")
    parser.add_argument(
        "--camera", action="store_true", help="every table seen through its rendered camera and the card reader (5 fps)"
    )
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from referee_station.console.qt.app import ConsoleApp
    from referee_station.station.live.feed import LiveTable
    from referee_station.station.live.simulated import simulated_tables
    from referee_station.station.live.update import TABLE_SOURCES

    qt = QApplication([])
    tables = simulated_tables(args.tables, args.seed, deals=20, violations=args.violations)
    live = [LiveTable(t.name, t.events) for t in tables]
    if args.camera:
        from referee_station.station.live.camera import CameraTable
        from referee_station.vision.reader import CardReader

        read = CardReader.from_onnx().read
        cameras = [CameraTable(t.name, t.events, read, design="tigullio", fps=5.0) for t in tables]
        live = [LiveTable(c.name, c.others, c) for c in cameras]
    app = ConsoleApp(live, args.speed, devices=args.devices)
    lags: list[float] = []
    land = app.apply

    def apply(updates: list) -> None:
        now = time.monotonic()
        lags.extend(now - (app.hall.start + u.event.t / args.speed) for u in updates if u.who in TABLE_SOURCES)
        land(updates)

    app.engine.updates.disconnect(land)
    app.engine.updates.connect(apply)
    cpu0, wall0 = time.thread_time(), time.monotonic()
    app.start()
    QTimer.singleShot(int(args.seconds * 1000), qt.quit)
    qt.exec()
    cpu, wall = time.thread_time() - cpu0, time.monotonic() - wall0
    app.stop()
    latencies = app.window.alerts.latencies
    via = "seat units emulated on ptys" if args.devices else "no devices"
    via += ", camera + card reader at 5 fps" if args.camera else ""
    print(
        f"{args.tables} tables at {args.speed:g}× ({via}) for {wall:.0f} s: {len(lags)} updates, {len(latencies)} flags"
    )
    print("| measure | value | target |")
    print("|---|---|---|")
    print(f"| GUI thread busy (CPU / wall) | {100 * cpu / wall:.1f} % | < 50 % |")
    if latencies:
        print(
            f"| flag-to-screen latency, median / p99 / max | {1000 * statistics.median(latencies):.0f} / "
            f"{1000 * percentile(latencies, 0.99):.0f} / {1000 * max(latencies):.0f} ms | p99 ≤ 200 ms |"
        )
    print(f"| update landed after its due time, p99 | {1000 * percentile(lags, 0.99):.0f} ms | |")


if __name__ == "__main__":
    main()
