"""``referee-station watch-devices PORT``: the station's driver on a table's hardware, by hand.

Opens ``PORT`` (a device path, the emulator's pty, ``socket://host:port``...) with
``devices.TableDevices`` and prints each seat-unit event as an EVENTS.md JSON line on stdout (``t``
counts from the start of the command), so its output is a table-log fragment: in press order, each
line printed half a second after its press (``referee_station.devices.order``: a retransmitted press can arrive after
a later one). Status changes and the link's counters go to stderr for the operator. Commands typed
on stdin drive the timer::

    countdown E follow 20 [GRACE]   start E's countdown: 20 s from now (R-TIME-2), then the grace
    stop | show TEXT | beep [N]     stop the countdown, show a text or number, beep N times
    stats                           print the link's counters (garbage, bad CRC, retransmits...)
    quit

It runs until ``quit``, ``--seconds``, Ctrl-C or SIGTERM; the end of stdin is not the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
import time

from referee_station.devices import DeviceError, LinkStatus, TableDevices
from referee_station.devices.order import PressOrder
from referee_station.devices.table_devices import DEFAULT_GRACE, Press
from referee_station.table.events import Countdown

TICK_S = 0.05
"""How often held events are checked for release."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("watch-devices", help="print a table's pass/report events, drive its timer by hand")
    parser.add_argument("port", help="serial port: a device path, a pty from emulate-devices, socket://host:port")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds")
    parser.add_argument("--grace", type=float, default=DEFAULT_GRACE, help="grace countdown in s (R-TIME-3)")
    parser.set_defaults(func=run)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _event(event: Press) -> None:
    print(json.dumps(event.to_json(), ensure_ascii=False), flush=True)


def _status(status: LinkStatus, detail: str) -> None:
    _say(f"devices {status.value}: {detail}")


def command(devices: TableDevices, line: str) -> bool:
    """Carry out one typed command; False for ``quit``. Errors are reported, not raised."""
    words = line.split()
    if not words:
        return True
    name, args = words[0].lower(), words[1:]
    try:
        if name == "countdown" and len(args) in (3, 4):
            limit, now = float(args[2]), devices.table_clock()
            out = Countdown(now, args[0].upper(), args[1], limit, now + limit)
            devices.send_countdown(out, float(args[3]) if len(args) == 4 else None)
        elif name == "stop" and not args:
            devices.stop()
        elif name == "show" and args:
            devices.show(" ".join(args))
        elif name == "beep" and len(args) <= 1:
            devices.beep(int(args[0]) if args else 1)
        elif name == "stats" and not args:
            _say(str(devices.stats))
        elif name == "quit" and not args:
            return False
        else:
            _say(f"unknown command {line.strip()!r}")
            return True
        if name != "stats":
            _say(f"ok: {line.strip()}")
    except (DeviceError, ValueError) as err:
        _say(f"failed: {line.strip()}: {err}")
    return True


def run(args: argparse.Namespace) -> int:
    origin = time.monotonic()
    finished = threading.Event()

    def read_commands(devices: TableDevices) -> None:
        for line in sys.stdin:
            if not command(devices, line):
                finished.set()
                return

    def clock() -> float:
        return time.monotonic() - origin

    signal.signal(signal.SIGTERM, lambda signum, frame: finished.set())
    order = PressOrder(_event)
    with TableDevices(args.port, clock, order.add, _status, grace=args.grace) as devices:
        threading.Thread(target=read_commands, args=(devices,), name="watch-devices stdin", daemon=True).start()
        end = float("inf") if args.seconds is None else args.seconds
        with contextlib.suppress(KeyboardInterrupt):
            while not finished.wait(TICK_S) and clock() < end:
                order.release(clock())
        _say(f"devices stats: {devices.stats}")
    order.drain()
    if order.late:
        _say(f"{order.late} events came too late to be put in press order")
    return 0
