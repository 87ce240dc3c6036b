"""``referee-station event``: run an event (比赛) from one SQLite journal file.

    referee-station event new EVENT.db --name NAME [--seed 7] [--system swiss|knockout] [--first-round drawn]
                                       [--rounds 4] [--rules rules.json] [--diff-table table.csv]
    referee-station event pairs EVENT.db import pairs.csv        # number,names,unit (names: A / B)
    referee-station event pair EVENT.db [--round N]              # pair the next round and print it
    referee-station event start|call EVENT.db --round N [--at T] # the round clock (R-MATCH-1)
    referee-station event may-deal EVENT.db --round N --deals K --at T   # exit 0 yes, 1 no
    referee-station event result EVENT.db --round N --table T (--log LOG [--log-table ID] | --winner EW --gained 5:2)
    referee-station event confirm EVENT.db --round N --table T --side EW|NS
    referee-station event correct EVENT.db --round N --table T --winner NS --gained 3:6 --reason TEXT
    referee-station event forfeit EVENT.db --round N --pair P (--reason TEXT | --seated-at T)
    referee-station event standings EVENT.db [--through N]
    referee-station event audit EVENT.db
    referee-station event export EVENT.db pairings|scoresheets|standings [--round N] -o FILE.csv|FILE.pdf

Every change is one journal entry with its time (``--at``, seconds; the wall clock when left out)
and who made it (``--by``). Exit codes: 0 done, 1 a finding (no new deal, a rematch no pairing
avoids), 2 bad input or an action the event refuses (nothing is recorded then).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from referee_station.event import sheets
from referee_station.event.actions import (
    Created,
    Forfeited,
    PairsImported,
    ResultConfirmed,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    RoundStarted,
    TimeCalled,
)
from referee_station.event.intake import IntakeError, last_match_end, report_from_match_end
from referee_station.event.model import EventActionError, EventState
from referee_station.event.pairing import Pairing, PairingError
from referee_station.event.pairs import PairsError, read_pairs_file
from referee_station.event.planner import next_pairing
from referee_station.event.rules import EventConfigError, EventRules, forfeits_by_lateness
from referee_station.event.scoring import DiffTable
from referee_station.event.store import EventStore, EventStoreError, Journal
from referee_station.hall.clock import may_start_deal
from referee_station.log.jsonl import read_jsonl
from referee_station.log.store import EventStore as LogStore
from referee_station.log.store import is_sqlite
from referee_station.table.events import MatchEnd

if TYPE_CHECKING:
    from referee_station.event.pg_store import PgEventStore

PROG = "referee-station event"
REFUSED = (EventActionError, EventConfigError, EventStoreError, PairsError, PairingError, IntakeError, ValueError)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("event", help="the event: pairs, rounds, Swiss pairing, results, standings")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    def action(name: str, help: str, func) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help)
        sub.add_argument("event", help="the event's journal: an SQLite file, or a hall's postgresql://… database")
        sub.add_argument("--event-name", help="with a postgresql:// database: which event")
        sub.add_argument("--at", type=float, help="when, in seconds on the event's clock (default: now)")
        sub.add_argument("--by", default="", help="who does it (the journal's audit)")
        sub.set_defaults(func=lambda args: _run(func, args))
        return sub

    new = action("new", "create an event file", run_new)
    new.add_argument("--name", required=True)
    new.add_argument("--seed", type=int, default=1, help="seeds the round-1 draw and the lot (R-MATCH-3)")
    new.add_argument("--system", choices=("swiss", "knockout"))
    new.add_argument("--first-round", choices=("sign_in", "drawn"))
    new.add_argument("--rounds", type=int)
    new.add_argument("--rules", type=Path, help="a JSON object of event rules (see docs/event.md)")
    new.add_argument("--diff-table", type=Path, help="the official 26-point table: difference,winner,loser rows")
    pairs = action("pairs", "import the pairs from CSV (number,names,unit)", run_pairs)
    pairs.add_argument("verb", choices=("import",))
    pairs.add_argument("csv", type=Path)
    pair = action("pair", "pair the next round (Swiss or knockout) and print it", run_pair)
    pair.add_argument("--round", type=int, help="the round to pair; must be the next one")
    for name, help in (("start", "start a round's clock"), ("call", "call time: no new deal starts (R-MATCH-1)")):
        action(name, help, run_clock).add_argument("--round", type=int, required=True)
    deal = action("may-deal", "may a new deal start now? (R-MATCH-1; exit 0 yes, 1 no)", run_may_deal)
    deal.add_argument("--round", type=int, required=True)
    deal.add_argument("--deals", type=int, required=True, help="deals already started at the table")
    result = action("result", "report a table's result (from the station's log, or by hand)", run_result)
    _table_args(result)
    result.add_argument("--log", type=Path, help="the station's log: JSON Lines or its SQLite database")
    result.add_argument("--log-table", help="the table id inside a station database holding several")
    result.add_argument("--register", help="the hall's register, postgresql://… (with --hall-table)")
    result.add_argument("--hall", default="hall", help="the hall's name in the register (default: hall)")
    result.add_argument("--hall-table", help="the station's table id in the register, e.g. T03")
    _score_args(result)
    confirm = action("confirm", "one side signs the score sheet (seed 003 十三)", run_confirm)
    _table_args(confirm)
    confirm.add_argument("--side", choices=("EW", "NS"), required=True)
    correct = action("correct", "the head referee corrects a result, with a reason", run_correct)
    _table_args(correct)
    _score_args(correct)
    correct.add_argument("--reason", required=True)
    forfeit = action("forfeit", "a pair forfeits (seed 003 十一.3: 15 minutes late)", run_forfeit)
    forfeit.add_argument("--round", type=int, required=True)
    forfeit.add_argument("--pair", type=int, required=True)
    forfeit.add_argument("--reason", help="why (required unless the round clock decides: --seated-at, --not-seated)")
    seated = forfeit.add_mutually_exclusive_group()
    seated.add_argument("--seated-at", type=float, help="when the pair sat down: forfeits only if that was too late")
    seated.add_argument("--not-seated", action="store_true", help="not seated at --at: forfeits only if too late")
    standings = action("standings", "print the standings (R-MATCH-3)", run_standings)
    standings.add_argument("--through", type=int, help="after this round (default: all)")
    action("audit", "print the journal: every change, when and by whom", run_audit)
    export = action("export", "write pairings, score sheets or standings as CSV or PDF", run_export)
    export.add_argument("what", choices=("pairings", "scoresheets", "standings"))
    export.add_argument("--round", type=int, help="the round; standings after it (default: the last paired)")
    export.add_argument("-o", "--output", type=Path, required=True, help="FILE.csv or FILE.pdf")


def _table_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--round", type=int, required=True)
    parser.add_argument("--table", type=int, required=True)


def _score_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--winner", choices=("EW", "NS", "draw"))
    parser.add_argument("--gained", help="levels gained EW:NS (得分), e.g. 5:2")


def _gained(text: str | None) -> dict[str, int]:
    if text is None:
        raise ValueError("--gained EW:NS is needed (levels gained, e.g. 5:2)")
    try:
        ew, ns = (int(v) for v in text.split(":"))
    except ValueError:
        raise ValueError(f"--gained {text!r}: expected two whole numbers EW:NS, e.g. 5:2") from None
    return {"EW": ew, "NS": ns}


def _run(func, args: argparse.Namespace) -> int:
    at = args.at if args.at is not None else time.time()
    try:
        with _open(args) as store:
            return func(store, args, at)
    except REFUSED as err:
        print(f"{PROG} {args.action}: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"{PROG} {args.action}: {err.filename or args.event}: {err.strerror}", file=sys.stderr)
        return 2


def _open(args: argparse.Namespace) -> EventStore | PgEventStore:
    return open_journal(args.event, args.event_name, create=args.action == "new")


def open_journal(where: str, name: str | None, create: bool = False) -> EventStore | PgEventStore:
    """The SQLite journal file, or an event in PostgreSQL (psycopg, the [hall] extra, imported only then)."""
    if not where.startswith(("postgresql://", "postgres://")):
        return EventStore(where, create=create)
    if not name:
        raise ValueError("a postgresql:// database holds many events: name one with --event-name")
    from referee_station.event.pg_store import PgEventStore

    return PgEventStore(where, name, create=create)


def run_new(store: Journal, args: argparse.Namespace, at: float) -> int:
    try:
        settings = json.loads(args.rules.read_text(encoding="utf-8")) if args.rules else {}
    except json.JSONDecodeError as err:
        raise EventConfigError(f"{args.rules}:{err.lineno}: not JSON: {err.msg}") from err
    if not isinstance(settings, dict):
        raise EventConfigError(f"{args.rules}: expected a JSON object of event rules")
    for name in ("system", "first_round", "rounds"):
        if getattr(args, name) is not None:
            settings[name] = getattr(args, name)
    if args.diff_table:
        table = DiffTable.from_csv(args.diff_table.read_text(encoding="utf-8"), str(args.diff_table))
        settings["diff_table"] = table.to_json()
    store.record(Created(at=at, by=args.by, name=args.name, seed=args.seed, rules=EventRules.from_json(settings)))
    print(f"event {args.name!r} created", file=sys.stderr)
    return 0


def run_pairs(store: Journal, args: argparse.Namespace, at: float) -> int:
    pairs = read_pairs_file(args.csv)
    store.record(PairsImported(at=at, by=args.by, pairs=tuple(pairs), source=str(args.csv)))
    print(f"{len(pairs)} pairs imported from {args.csv}", file=sys.stderr)
    return 0


def print_pairing(state: EventState, pairing: Pairing) -> None:
    for row in sheets.pairing_rows(state, pairing.round):
        print("\t".join(row))
    for a, b in pairing.rematches:
        print(f"rematch: pairs {a} and {b} meet again; no pairing of round {pairing.round} avoids it", file=sys.stderr)


def run_pair(store: Journal, args: argparse.Namespace, at: float) -> int:
    upcoming = len(store.state.rounds) + 1
    if args.round is not None and args.round != upcoming:
        raise EventActionError(f"round {args.round} cannot be paired now; the next round is {upcoming}")
    pairing = next_pairing(store.state)
    store.record(RoundPaired(at=at, by=args.by, pairing=pairing))
    print_pairing(store.state, pairing)
    return 1 if pairing.rematches else 0


def run_clock(store: Journal, args: argparse.Namespace, at: float) -> int:
    kind = RoundStarted if args.action == "start" else TimeCalled
    store.record(kind(at=at, by=args.by, round=args.round))
    return 0


def run_may_deal(store: Journal, args: argparse.Namespace, at: float) -> int:
    clock = store.state.round(args.round).clock
    if clock is None:
        raise EventActionError(f"round {args.round} has not started (event start)")
    decision = may_start_deal(clock, at, args.deals, store.state.rules.max_deals)
    print(("yes: " if decision else "no: ") + decision.reason)
    return 0 if decision else 1


def run_result(store: Journal, args: argparse.Namespace, at: float) -> int:
    if args.log is not None:
        end = last_match_end(_log_records(args.log, args.log_table), str(args.log))
        report = report_from_match_end(end, args.round, args.table, at, args.by, str(args.log))
    elif args.register is not None:
        if not args.hall_table:
            raise ValueError("--register needs --hall-table (the station's table id)")
        report = report_from_match_end(_register_end(args), args.round, args.table, at, args.by,
                                       f"register {args.hall}/{args.hall_table}")  # fmt: skip
    else:
        if args.winner is None:
            raise ValueError("give --log (the station's log), --register with --hall-table, or --winner and --gained")
        report = ResultReported(at=at, by=args.by, round=args.round, table=args.table, winner=args.winner,
                                gained=_gained(args.gained), source="manual")  # fmt: skip
    store.record(report)
    scores = store.state.table(args.round, args.table)
    print(f"round {args.round} table {args.table}: {report.winner}, levels gained {report.gained}; {scores.status}")
    return 0


def _register_end(args: argparse.Namespace) -> MatchEnd:
    """psycopg (the [hall] extra) is imported only here."""
    from referee_station.event.register_intake import register_match_end
    from referee_station.hall.register import Register, RegisterError

    try:
        with Register(args.register) as register:
            return register_match_end(register, args.hall, args.hall_table)
    except RegisterError as err:
        raise IntakeError(str(err)) from err


def _log_records(path: Path, table: str | None):
    if is_sqlite(path):
        with LogStore(path) as log:
            tables = log.tables()
            chosen = table or (tables[0] if len(tables) == 1 else None)
            if chosen not in tables:
                raise IntakeError(f"{path} holds tables {', '.join(tables) or '(none)'}; name one with --log-table")
            return log.records(chosen)
    records, errors = read_jsonl(path)
    for error in errors:
        print(f"{path}:{error.line}: skipped: {error.message}", file=sys.stderr)
    return [item.record for item in records]


def run_confirm(store: Journal, args: argparse.Namespace, at: float) -> int:
    store.record(ResultConfirmed(at=at, by=args.by, round=args.round, table=args.table, side=args.side))
    print(f"round {args.round} table {args.table}: {store.state.table(args.round, args.table).status}")
    return 0


def run_correct(store: Journal, args: argparse.Namespace, at: float) -> int:
    if args.winner is None:
        raise ValueError("--winner is needed for a correction")
    correction = ResultCorrected(at=at, by=args.by, round=args.round, table=args.table, winner=args.winner,
                                 gained=_gained(args.gained), reason=args.reason)  # fmt: skip
    store.record(correction)
    later = [r.pairing.round for r in store.state.rounds[args.round :] if r.clock is not None]
    if later:
        print(f"note: round {later[0]} has started; seed 004 11.5 corrects earlier rounds only exceptionally,"
              " and the published pairings stay (11.4)", file=sys.stderr)  # fmt: skip
    print(f"round {args.round} table {args.table}: corrected to {args.winner} {args.gained} ({args.reason})")
    return 0


def run_forfeit(store: Journal, args: argparse.Namespace, at: float) -> int:
    reason = args.reason
    if args.seated_at is not None or args.not_seated:
        clock = store.state.round(args.round).clock
        if clock is None:
            raise EventActionError(f"round {args.round} has not started; lateness needs its clock")
        seated = "seated" if args.seated_at is not None else "not seated"
        minutes = ((args.seated_at if args.seated_at is not None else at) - clock.start) / 60
        if not forfeits_by_lateness(clock, args.seated_at, at, store.state.rules):
            limit = store.state.rules.late_forfeit_minutes
            print(f"pair {args.pair}: {seated} {minutes:.1f} min after the start; forfeits from {limit:g} (seed 003)")
            return 0
        reason = reason or f"{seated} {minutes:.1f} minutes after the start (seed 003 十一.3)"
    store.record(Forfeited(at=at, by=args.by, round=args.round, pair=args.pair, reason=reason or ""))
    print(f"pair {args.pair} forfeits round {args.round}: {reason}")
    return 0


def run_standings(store: Journal, args: argparse.Namespace, at: float) -> int:
    print("\t".join(sheets.STANDINGS_HEADER))
    for row in sheets.standings_rows(store.state, args.through):
        print("\t".join(row))
    return 0


def run_audit(store: Journal, args: argparse.Namespace, at: float) -> int:
    for number, action in enumerate(store.actions(), start=1):
        body = {k: v for k, v in action.to_json().items() if k not in ("kind", "at", "by")}
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(action.at))
        print(f"{number}\t{stamp}Z\t{action.KIND}\t{action.by or '-'}\t{json.dumps(body, ensure_ascii=False)}")
    return 0


def run_export(store: Journal, args: argparse.Namespace, at: float) -> int:
    state = store.state
    round_no = args.round or len(state.rounds)
    if args.what != "standings":
        state.round(round_no)
    suffix = args.output.suffix.lower()
    if suffix not in (".csv", ".pdf"):
        raise ValueError(f"{args.output}: the output must end in .csv or .pdf")
    if suffix == ".pdf":
        _export_pdf(state, args.what, round_no, args.output)
    else:
        with args.output.open("w", encoding="utf-8", newline="") as out:
            if args.what == "pairings":
                sheets.write_csv(out, sheets.PAIRING_HEADER, sheets.pairing_rows(state, round_no))
            elif args.what == "standings":
                sheets.write_csv(out, sheets.STANDINGS_HEADER, sheets.standings_rows(state, round_no))
            else:
                sheets.write_csv(out, sheets.SCORE_HEADER, sheets.score_rows(state, round_no))
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _export_pdf(state: EventState, what: str, round_no: int, path: Path) -> None:
    """Qt is imported only here: the event core and its other commands run without it."""
    from PySide6.QtWidgets import QApplication

    from referee_station.console.qt.event_pdf import html_pdf

    _app = QApplication.instance() or QApplication([])
    if what == "pairings":
        pages = [sheets.pairing_html(state, round_no)]
    elif what == "standings":
        pages = [sheets.standings_html(state, round_no)]
    else:
        pages = sheets.score_sheets_html(state, round_no)
    html_pdf(pages, path, f"{state.created.name if state.created else ''} {what}")
