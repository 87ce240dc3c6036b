"""``referee-station log export|import``: move a table's log between the station's SQLite database
and the JSON Lines of EVENTS.md (the exchange format: archives, the hall, bug reports).

    referee-station log export station.db --table T1 -o t1.jsonl
    referee-station log import t1.jsonl station.db --table T1 [--replay]

``import`` stores the lines as they are; with ``--replay`` it stores the input events each followed
by the outputs a fresh referee gives them, the form ``TableStation.open`` resumes from. Malformed
lines are reported with their number and skipped (exit 1); an unreadable file exits 2.
"""

from __future__ import annotations

import argparse
import sys

from referee_station.log.jsonl import read_jsonl
from referee_station.log.replay import LogNotFound
from referee_station.log.store import EventStore, is_sqlite
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Record


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("log", help="export a table's SQLite log as JSON Lines, or import one")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", help="write one table's records as JSON Lines")
    export.add_argument("db", help="the station's SQLite database")
    export.add_argument("--table", help="the table id (needed when the database holds several)")
    export.add_argument("-o", "--output", help="the .jsonl file; stdout when left out")
    export.set_defaults(func=run_export)
    imp = actions.add_parser("import", help="append a JSON Lines log to a table of the database")
    imp.add_argument("log", help="the .jsonl log")
    imp.add_argument("db", help="the station's SQLite database (created if missing)")
    imp.add_argument("--table", required=True, help="the table id to store the records under")
    imp.add_argument("--replay", action="store_true", help="store the inputs with freshly computed outputs")
    imp.add_argument("--auto-confirm", action="store_true", help="with --replay: every flag confirmed when raised")
    imp.set_defaults(func=run_import)


def run_export(args: argparse.Namespace) -> int:
    try:
        if not is_sqlite(args.db):
            raise LogNotFound(f"{args.db} is not an SQLite database")
        with EventStore(args.db) as store:
            tables = store.tables()
            table = args.table or (tables[0] if len(tables) == 1 else None)
            if table not in tables:
                raise LogNotFound(f"{args.db} holds tables {', '.join(tables) or '(none)'}; name one with --table")
            lines = list(store.lines(table))
    except (LogNotFound, OSError) as err:
        print(f"referee-station log export: {err}", file=sys.stderr)
        return 2
    text = "".join(line + "\n" for line in lines)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def run_import(args: argparse.Namespace) -> int:
    try:
        records, errors = read_jsonl(args.log)
    except OSError as err:
        print(f"referee-station log import: cannot read {args.log}: {err.strerror}", file=sys.stderr)
        return 2
    for error in errors:
        print(f"{args.log}:{error.line}: skipped: {error.message}", file=sys.stderr)
    chosen: list[Record] = [item.record for item in records]
    if args.replay:
        referee = CorrectingReferee(auto_confirm=args.auto_confirm)
        chosen = [out for record in chosen if record.IS_INPUT for out in (record, *referee.feed(record))]
    with EventStore(args.db) as store:
        count = store.append_many(args.table, chosen)
    print(f"imported {count} records into table {args.table}", file=sys.stderr)
    return 1 if errors else 0
