"""``referee-station emulate-devices``: one table's timer and seat units, emulated on a pseudo-terminal.

Prints the port path on the first line of stdout (flushed, so a demo or a test can read it and open
it), then one line for everything the hardware does (presses, countdowns shown, beeps, unplugs). The
hardware is driven by a script file (``--script``) and then by commands typed on stdin; the command
language is in ``referee_station.devices.emulator``. It runs until ``quit``, Ctrl-C or SIGTERM (or the end of the script
with ``--exit-after-script``). The port path is a symlink that survives ``unplug``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from types import FrameType

from referee_station.devices.emulator import Emulator


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "emulate-devices", help="emulate a table's timer and seat units on a pseudo-terminal (prints the port path)"
    )
    parser.add_argument("--table", default="T1", help="table name, used in the port name and serial numbers")
    parser.add_argument("--link", help="path of the port symlink (default: a fresh temporary directory)")
    parser.add_argument("--script", help="file of emulator commands to run first (pass E, report S 8, wait 0.5, ...)")
    parser.add_argument("--exit-after-script", action="store_true", help="stop at the end of the script")
    parser.add_argument("--clock-offset", type=float, default=5000.0, help="the hub clock's reading at start, s (>= 0)")
    parser.add_argument("--drift-ppm", type=float, default=40.0, help="hub clock rate error, parts per million")
    parser.add_argument("--seed", type=int, default=0, help="seed of serial numbers and noise")
    parser.set_defaults(func=run)


def _log(line: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def run(args: argparse.Namespace) -> int:
    try:
        emulator = Emulator(
            link=args.link,
            table=args.table,
            clock_offset=args.clock_offset,
            drift_ppm=args.drift_ppm,
            seed=args.seed,
            log=_log,
        )
    except ValueError as err:
        print(f"referee-station emulate-devices: {err}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _terminate)
    try:
        print(emulator.start(), flush=True)
        if args.script:
            try:
                with open(args.script, encoding="utf-8") as script:
                    going = emulator.run_script(script)
            except OSError as err:
                print(f"referee-station emulate-devices: {err}", file=sys.stderr)
                return 2
            if not going or args.exit_after_script:
                return 0
        if not emulator.run_script(sys.stdin):
            return 0
        _log("stdin closed; serving until Ctrl-C")
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        emulator.close()
