"""``referee-station station``: the referee console for one live table (or, ``--headless``, the same
station without a window, publishing to the hall).

    referee-station station --camera 0 --resolution 1920x1080 --devices /dev/ttyUSB0 --deck event.deck \\
        --log T07.sqlite --table T07 [--broker mqtt://station-T07@hall:1883]
    referee-station station --headless --video match.mp4 --setup setup.json --log T07.jsonl

The window asks for the match setup (the sides, the rules, the levels, the first leader) and then
referees the whole match: deals start at the first play after the previous result, tribute and return
cards laid in the giver's play area are read as such, passes and reports come from the seat units
(without ``--devices`` passes are inferred from who plays next and reports are left to the floor
referee). ``--setup FILE`` gives the setup as JSON (``{"sides": {"EW": …, "NS": …}, "rules": {…},
"leader": "E"}``): the window shows it to check, a headless station starts with it.
Exit codes: 0 ran to the end, 1 flags were raised (headless), 2 bad input (source, setup, calibration).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import ExitStack

from referee_station.commands.run import add_source_arguments, summary
from referee_station.log.station import ReplayMismatch
from referee_station.station.loop import drive
from referee_station.station.setup import MatchSetup, SetupError
from referee_station.station.timeline import TerminalTimeline
from referee_station.station.wiring import open_station
from referee_station.vision.calibrate import CalibrationError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("station", help="the referee console for one live table (camera, seat units)")
    add_source_arguments(parser)
    parser.add_argument("--setup", help="the match setup as JSON (sides, rules, levels, leader)")
    parser.add_argument("--headless", action="store_true", help="no window: referee and publish, print the timeline")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="console language (default zh)")
    parser.add_argument("--referee", default="referee", help="name the audit trail gives the console's rulings")
    parser.add_argument("-q", "--quiet", action="store_true", help="headless: print flags and results only")
    parser.set_defaults(func=run, truth_reader=None, seed=0)


def run(args: argparse.Namespace) -> int:
    try:
        setup = MatchSetup.load(args.setup) if args.setup else None
    except SetupError as err:
        print(f"referee-station station: {err}", file=sys.stderr)
        return 2
    if args.headless:
        if setup is None:
            print(
                "referee-station station: --headless needs --setup FILE (no one is there to fill it in)",
                file=sys.stderr,
            )
            return 2
        return headless(args, setup)
    from referee_station.console.qt.station_app import run_station_console

    return run_station_console(args, setup)


def headless(args: argparse.Namespace, setup: MatchSetup) -> int:
    timeline = TerminalTimeline(sys.stdout, quiet=args.quiet)
    with ExitStack() as stack:
        try:
            opened = open_station(stack, args, setup=setup)
        except (CalibrationError, ReplayMismatch, OSError, ValueError) as err:
            print(f"referee-station station: {err}", file=sys.stderr)
            return 2
        cpu, wall = time.process_time(), time.perf_counter()
        drive(opened.station, opened.frames, timeline)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(json.dumps(summary(opened, timeline, wall, cpu)), file=sys.stderr)
    return 1 if timeline.flags else 0
