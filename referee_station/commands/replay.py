"""``referee-station replay LOG``: feed a log's input events to a fresh referee, print its outputs.

With ``--json`` one JSON object a line and nothing else on stdout (EVENTS.md); without, a readable
timeline with Chinese and English offence names (routine countdowns only with ``--countdowns``:
a deal starts a hundred clocks, the 读秒 grace ones are the ones a referee looks at). Malformed
lines are reported on stderr with their line number and skipped; they never stop the replay.
Exit codes: 0 replayed, 1 replayed but some lines were skipped, 2 the log cannot be read.
"""

from __future__ import annotations

import argparse
import sys

from referee_station.core import Clock
from referee_station.log.replay import LogNotFound, load, replay
from referee_station.log.timeline import timeline_line
from referee_station.table.config import RulesConfig
from referee_station.table.events import Countdown, EventError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="replay a table log (JSON Lines or SQLite) through a fresh referee")
    parser.add_argument("log", help="a .jsonl log or the station's SQLite database")
    parser.add_argument("--json", action="store_true", help="outputs as JSON lines, nothing else on stdout")
    parser.add_argument("--auto-confirm", action="store_true", help="treat every flag as confirmed when raised")
    parser.add_argument("--table", help="the table id, when the database holds several tables")
    parser.add_argument("--config", help="a JSON rules file (RulesConfig fields, variants)")
    parser.add_argument(
        "--countdowns", action="store_true", help="timeline: also list routine clocks (--json always has them)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = RulesConfig.load(args.config) if args.config else None
        loaded = load(args.log, args.table)
    except (LogNotFound, EventError, OSError, ValueError) as err:
        print(f"referee-station replay: {err}", file=sys.stderr)
        return 2
    for error in loaded.errors:
        print(f"{args.log}:{error.line}: skipped: {error.message}", file=sys.stderr)
    out = sys.stdout
    for line, output in replay(loaded.inputs, config, auto_confirm=args.auto_confirm):
        if args.json:
            out.write(output.to_line() + "\n")
        elif args.countdowns or not isinstance(output, Countdown) or output.action is Clock.GRACE:
            out.write(timeline_line(line, output) + "\n")
    return 1 if loaded.errors else 0
