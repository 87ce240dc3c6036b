"""``referee-station hall``: the head referee's console for a hall of many tables, and its chores.

    referee-station hall [serve] --broker mqtt://head@host:1883 --db postgresql://… [--hall NAME]
    referee-station hall console --broker URL --db DSN [--hall NAME] [--lang zh|en]   # the window
    referee-station hall referee --db DSN --name NAME          # add a referee (password on stdin)
    referee-station hall export --db DSN [--round N] [--out results.csv]
    referee-station hall broker-files --dir DIR --tables T01,T02,… [--hall NAME]

``serve`` subscribes to the hall, keeps the PostgreSQL register, prints every flag, penalty and
result as it is stored and every quarantined message as ``ALARM <table>: <why>``, and reads
commands on stdin: ``login NAME`` (then the password),
``rule TABLE FLAG confirm|dismiss [stop]``, ``assign TABLE EW_NAME NS_NAME`` (the sides a
station's setup is filled with), ``tables``, ``logout``, ``quit``. No ruling is sent
before a referee has logged in. ``console`` is the same head in the console's window (tiles,
one alert queue, evidence frames, login, registers and record sheets; docs/head-console.md);
``serve`` stays for scripts. Exit codes: 0 fine, 2 bad input, an unreachable server or no
``[hall]`` extra (paho-mqtt and psycopg are imported only here, when the command runs).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from referee_station.hall.topics import check_name

if TYPE_CHECKING:
    from referee_station.hall.auth import Session
    from referee_station.hall.topics import Envelope, Quarantined

SHOWN = frozenset({"flag", "penalty", "deal_end", "match_end", "ruling"})
"""Records printed as they arrive; the rest (plays, ticks, clocks) only go to the register."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("hall", help="the head referee's console for many tables (MQTT + PostgreSQL)")
    actions = ("serve", "console", "referee", "export", "broker-files")
    parser.add_argument("action", nargs="?", default="serve", choices=actions)
    parser.add_argument("--broker", help="mqtt://head@host:port or mqtts://…?ca=FILE (serve, console)")
    parser.add_argument("--db", help="the register: postgresql://user@host:port/db")
    parser.add_argument("--hall", default="hall", help="the hall's name in topics (default: hall)")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="the console's language (console)")
    parser.add_argument(
        "--event",
        help="the event this hall plays: its journal, an SQLite file or postgresql://… "
        "(console: the event tab, the round clock to the stations, results into the journal)",
    )
    parser.add_argument("--event-name", help="with a postgresql:// --event: which event (console)")
    parser.add_argument("--referee", help="the head referee starting and calling rounds (console; default: head)")
    parser.add_argument("--name", help="referee name (referee)")
    parser.add_argument("--round", type=int, help="only this round (export)")
    parser.add_argument("--out", type=Path, help="CSV file (export; default stdout)")
    parser.add_argument("--dir", type=Path, help="where to write passwd, acl, stations.csv (broker-files)")
    parser.add_argument("--tables", help="table names, comma separated (broker-files)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from referee_station.hall.register import RegisterError

    try:
        check_name(args.hall, "hall")
        if args.action == "broker-files":
            return broker_files(args)
        if not args.db:
            raise ValueError("--db is required")
        if args.action == "referee":
            return add_referee(args, sys.stdin)
        if args.action == "export":
            return export(args)
        if not args.broker:
            raise ValueError("--broker is required")
        if args.action == "console":
            return console(args)
        return serve(args, sys.stdin, sys.stdout)
    except (ValueError, RegisterError) as err:
        print(f"referee-station hall: {err}", file=sys.stderr)
        return 2


def broker_files(args: argparse.Namespace) -> int:
    from referee_station.hall.auth import HEAD_USER, new_password, station_user, write_broker_files
    from referee_station.hall.broker import hall_conf_lines

    if not args.dir or not args.tables:
        raise ValueError("broker-files needs --dir and --tables")
    tables = [check_name(t.strip(), "table") for t in args.tables.split(",") if t.strip()]
    passwords = {table: new_password() for table in tables}
    head = new_password()
    passwd, acl = write_broker_files(args.dir, args.hall, passwords, head)
    conf = args.dir / "mosquitto-hall.conf"
    lines = hall_conf_lines(passwd.resolve(), acl.resolve(), [["listener 1883"]])
    conf.write_text("# a hall broker's access settings; repeat the line after 'listener' under every listener\n"
                    + "\n".join(lines) + "\n")  # fmt: skip
    credentials = args.dir / "stations.csv"
    with credentials.open("w") as out:
        out.write("table,user,password\n")
        out.write(f",{HEAD_USER},{head}\n")
        out.writelines(f"{t},{station_user(t)},{p}\n" for t, p in passwords.items())
    credentials.chmod(0o600)
    print(f"wrote {passwd}, {acl}, {conf} (include it in mosquitto.conf) and {credentials} (keep it secret)"
          f" for {len(tables)} tables")  # fmt: skip
    return 0


def read_password(stdin: TextIO, prompt: str) -> str:
    return getpass.getpass(prompt) if stdin.isatty() else stdin.readline().rstrip("\n")


def add_referee(args: argparse.Namespace, stdin: TextIO) -> int:
    from referee_station.hall.auth import hash_referee
    from referee_station.hall.register import Register

    if not args.name:
        raise ValueError("referee needs --name")
    password = read_password(stdin, f"password for {args.name}: ")
    if len(password) < 6:
        raise ValueError("a referee password has at least 6 characters")
    with Register(args.db) as register:
        register.add_referee(hash_referee(args.name, password))
    print(f"referee {args.name} can log in on the head console")
    return 0


def export(args: argparse.Namespace) -> int:
    from referee_station.hall.register import Register
    from referee_station.hall.results import match_results, write_csv

    with Register(args.db) as register:
        results = match_results(register, args.hall)
    if args.out:
        with args.out.open("w", newline="") as out:
            count = write_csv(results, out, args.round)
        print(f"{count} matches written to {args.out}", file=sys.stderr)
    else:
        write_csv(results, sys.stdout, args.round)
    return 0


def describe(envelope: Envelope) -> str:
    """One line for the head referee: table, type and the record's own fields."""
    body = json.loads(envelope.body)
    fields = " ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in body.items() if k not in ("t", "type"))
    return f"{envelope.table} {body['type']} t={body['t']} {fields}"


def console(args: argparse.Namespace) -> int:
    from referee_station.hall.broker_url import BrokerURL, BrokerURLError

    try:
        url = BrokerURL.parse(args.broker)
    except BrokerURLError as err:
        raise ValueError(str(err)) from err
    from referee_station.console.qt.head_app import run_head_console  # Qt only for the window

    if not args.event:
        return run_head_console(url, args.hall, args.db, args.lang)
    from referee_station.commands.event import open_journal
    from referee_station.event.desk import EventDesk
    from referee_station.event.store import EventStoreError

    try:
        journal = open_journal(args.event, args.event_name)
    except EventStoreError as err:
        raise ValueError(f"--event: {err}") from err
    with journal:
        return run_head_console(url, args.hall, args.db, args.lang, EventDesk(journal, args.referee or "head"))


def serve(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    from referee_station.hall.auth import LoginError
    from referee_station.hall.broker_url import BrokerURL, BrokerURLError
    from referee_station.hall.register import Register
    from referee_station.hall.subscriber import HeadConsole
    from referee_station.hall.topics import TopicError

    try:
        url = BrokerURL.parse(args.broker)
    except BrokerURLError as err:
        raise ValueError(str(err)) from err

    def show(envelope: Envelope) -> None:
        if envelope.type in SHOWN:
            print(describe(envelope), file=stdout, flush=True)

    def alarm(quarantined: Quarantined) -> None:
        print(f"ALARM {quarantined.table}: {quarantined.reason}", file=stdout, flush=True)

    with (
        Register(args.db) as register,
        HeadConsole(url, args.hall, register, on_record=show, on_alarm=alarm) as head,
    ):
        if not head.wait_connected(10):
            print(f"referee-station hall: no answer from {url} ({head.refused or 'timeout'})", file=sys.stderr)
            return 2
        print(f"hall {args.hall}: subscribed at {url}; register schema {register.version}", file=stdout, flush=True)
        session: Session | None = None
        for line in stdin:
            words = line.split()
            if not words:
                continue
            try:
                if words[0] == "quit":
                    break
                if words[0] == "login" and len(words) == 2:
                    session = head.login(words[1], read_password(stdin, "password: "))
                    print(f"logged in: {session.referee}", file=stdout, flush=True)
                elif words[0] == "logout" and session is not None:
                    head.logout(session)
                    session = None
                elif words[0] == "rule" and len(words) in (4, 5):
                    stop = len(words) == 5 and words[4] == "stop"
                    command = head.rule(session, words[1], int(words[2]), words[3], stop_next=stop)
                    print(f"ruling {command.id} sent to {words[1]} by {command.referee}", file=stdout, flush=True)
                elif words[0] == "assign" and len(words) == 4:
                    head.assign(words[1], {"EW": words[2], "NS": words[3]})
                    print(f"assigned {words[1]}: EW {words[2]}, NS {words[3]}", file=stdout, flush=True)
                elif words[0] == "tables":
                    for table in sorted(head.statuses.keys() | head.alarms.keys()):
                        alarms = len(head.alarms.get(table, ()))
                        state = head.statuses.get(table, "unknown")
                        print(f"{table} {state}" + (f" {alarms} alarms" if alarms else ""), file=stdout, flush=True)
                else:
                    print("commands: login NAME | rule TABLE FLAG confirm|dismiss [stop] | assign TABLE EW NS | "
                          "tables | logout | quit", file=stdout, flush=True)  # fmt: skip
            except (LoginError, ValueError, TopicError) as err:
                print(f"refused: {err}", file=stdout, flush=True)
    return 0
