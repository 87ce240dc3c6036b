"""``referee-station simulate``: write a seeded simulated match log and the truth of its violations.

    referee-station simulate --seed 7 --deals 20 --violations 0.05 -o match.jsonl --truth truth.jsonl

The log holds input events only (EVENTS.md); ``replay LOG --auto-confirm`` should flag exactly the
truth file's violations. A one-line summary goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from referee_station.log.jsonl import write_records
from referee_station.sim.match import simulate
from referee_station.sim.violations import PENALTY


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("simulate", help="simulate a seeded match with bots and injected violations")
    parser.add_argument("--seed", type=int, default=1, help="random seed (the same seed writes the same bytes)")
    parser.add_argument("--deals", type=int, default=20, help="match length in deals (R-MATCH-1; ends early past A)")
    parser.add_argument("--violations", type=float, default=0.0, help="chance per action of one injected violation")
    parser.add_argument("--only", help=f"inject only these comma-separated forms ({', '.join(PENALTY)}); default all")
    parser.add_argument("-o", "--output", help="the log (JSON Lines); stdout when left out")
    parser.add_argument("--truth", help="where to write the injected violations (JSON Lines: t, seat, offence)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.deals < 1 or not 0.0 <= args.violations <= 1.0:
        print("referee-station simulate: --deals must be >= 1 and --violations within 0..1", file=sys.stderr)
        return 2
    only = frozenset(args.only.split(",")) if args.only else None
    if only is not None and only - set(PENALTY):
        print(f"referee-station simulate: unknown forms {', '.join(sorted(only - set(PENALTY)))}", file=sys.stderr)
        return 2
    result = simulate(args.seed, args.deals, args.violations, only)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            write_records(f, result.events)
    else:
        write_records(sys.stdout, result.events)
    if args.truth:
        with open(args.truth, "w", encoding="utf-8") as f:
            for item in result.truth:
                f.write(json.dumps(item.to_json(), ensure_ascii=False) + "\n")
    levels = " ".join(f"{side} {level}" for side, level in result.levels.items())
    print(
        f"simulated {result.deals} deals, {len(result.events)} events, {len(result.truth)} violations; levels {levels}",
        file=sys.stderr,
    )
    return 0
