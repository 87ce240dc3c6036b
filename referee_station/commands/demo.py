"""``referee-station demo``: the station's main job — live simulated tables, refereed as they play.

Each table plays its own seeded match (``referee_station.sim``), or replays a recorded log
(``--log``), timed at ``--speed`` times real time. Each table is seen through its overhead camera:
the match is rendered as video (card artwork ``--design``, calibration markers), and the station's
camera pipeline reads the plays and clears with the shipped card reader (or a registered ``--deck``);
the referee judges what the camera read (``--no-camera``: the simulator's plays go straight in). The
camera costs CPU: on a two-core machine four tables at 5 frames per second keep up to about 4×
real time; faster, the hall runs as fast as the reader goes. Passes and reports go through each table's seat
units, emulated on a pseudo-terminal and heard by the real driver (``devices``), when the demo is
paced at up to 10× (``--no-devices`` to leave them out). With a display the referee console opens over
the live hall; without one (or with ``--headless``) the flags, ladder steps and results print as
a live timeline, every flag confirmed automatically. Exit codes: 0 done, 2 bad input (artwork, deck, log).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from referee_station.station.live.feed import LiveTable, jsonl_feed
from referee_station.table.events import Record

MAX_DEVICE_SPEED = 10.0
"""Above this the emulated seat units are left out: the hub debounces a button for 30 ms, so at
higher speeds two presses of one seat can fall inside it, and presses wait for the wire."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="live simulated tables refereed in the console (or the terminal)")
    parser.add_argument("--tables", type=int, default=4, help="number of tables (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of table 1; table i plays seed + i - 1")
    parser.add_argument("--deals", type=int, default=8, help="deals per match (default 8)")
    parser.add_argument("--speed", type=float, default=1.0, help="times real time (default 1; 0: as fast as possible)")
    parser.add_argument("--violations", type=float, default=0.01, help="chance of a violation per action (0.01)")
    parser.add_argument("--log", type=Path, action="append", help="replay a recorded table log instead (repeatable)")
    parser.add_argument(
        "--no-devices",
        dest="devices",
        action="store_false",
        help="feed passes and reports straight to the referee, not through the emulated seat units",
    )
    parser.add_argument(
        "--no-camera",
        dest="camera",
        action="store_false",
        help="feed the simulator's plays straight to the referee, not through the rendered camera and card reader",
    )
    parser.add_argument("--fps", type=float, default=5.0, help="camera frames per second of table time (default 5)")
    parser.add_argument("--design", default="anglo", help="card artwork the camera shows (default anglo)")
    parser.add_argument("--deck", type=Path, help="deck profile from register-deck (default: the generic card reader)")
    parser.add_argument("--headless", action="store_true", help="terminal timeline even when a display is there")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="console language (default zh)")
    parser.add_argument("--referee", default="referee", help="name the audit trail gives the console's rulings")
    parser.set_defaults(func=run)


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def feeds_of(args: argparse.Namespace) -> list[tuple[str, list[Record]]]:
    if args.log:
        return [(f"T{i + 1}", list(jsonl_feed(path))) for i, path in enumerate(args.log)]
    from referee_station.station.live.simulated import simulated_tables

    return [(t.name, t.events) for t in simulated_tables(args.tables, args.seed, args.deals, args.violations)]


def tables_of(args: argparse.Namespace) -> list[LiveTable]:
    """Every table's inputs, through the rendered camera and the card reader unless ``--no-camera``."""
    feeds = feeds_of(args)
    if not args.camera:
        return [LiveTable(name, events) for name, events in feeds]
    from referee_station.deck.mismatch import WatchedReader
    from referee_station.deck.profile import DeckProfile, reader_for
    from referee_station.render.drawn import DRAWN_DESIGN, install_drawn_design
    from referee_station.station.live.camera import CameraTable

    if args.design == DRAWN_DESIGN:
        install_drawn_design()
    deck = DeckProfile.load(args.deck) if args.deck else None
    reader = reader_for(deck)  # one reader for every table: they take turns in one thread
    tables = []
    for i, (name, events) in enumerate(feeds):
        read, watch = reader.read, None
        if deck is not None:  # each table's own deck check: a wrong profile is reported, not used silently
            watched = WatchedReader(reader, deck.meta.design, deck.meta.mismatch_below, deck.meta.mismatch_on)
            read, watch = watched, watched.news
        camera = CameraTable(name, events, read, design=args.design, fps=args.fps, seed=args.seed + i, watch=watch)
        tables.append(LiveTable(name, camera.others, camera))
    return tables


def run(args: argparse.Namespace) -> int:
    try:
        tables = tables_of(args)
    except (OSError, ValueError) as err:  # a missing artwork or deck file, a bad profile, no markers seen
        print(f"referee-station demo: {err}", file=sys.stderr)
        return 2
    devices = args.devices and 0 < args.speed <= MAX_DEVICE_SPEED
    if args.headless or not has_display():
        from referee_station.console.headless import run_headless

        run_headless(tables, args.speed, devices=devices)
        return 0
    from referee_station.console.qt.app import run_console

    return run_console(tables, args.speed, args.lang, args.referee, devices=devices)
