"""The hall register in PostgreSQL (psycopg 3): every record of every table, table statuses,
referees and the rulings issued from the head console.

Writes are idempotent: a record is keyed by its message id and inserted ``ON CONFLICT (id) DO
NOTHING``, so a station's resend, a broker's duplicate delivery or a head restart that sees the
same messages again never stores a record twice. One connection, used under a lock, because the
head's writer thread and its console thread both use it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from referee_station.hall.evidence import Evidence
from referee_station.hall.migrations import MIGRATIONS, SCHEMA_VERSION
from referee_station.hall.topics import Envelope, Quarantined, RulingCommand

_MIGRATION_LOCK = 0x6775616E  # pg_advisory_xact_lock key ("guan")


class RegisterError(RuntimeError):
    """The database cannot be this code's register (a newer schema, or unreachable)."""


@dataclass(frozen=True)
class RefereeRow:
    name: str
    salt: bytes
    hash: bytes
    iterations: int


class Register:
    """A hall's register; ``Register(dsn)`` connects and brings the schema up to date."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._lock = threading.Lock()
        self._conn = self._connect()
        try:
            self.version = self._migrate()
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        try:
            return psycopg.connect(self._dsn)
        except psycopg.OperationalError as err:
            raise RegisterError(f"cannot reach the register: {err}") from err

    @property
    def backend_pid(self) -> int:
        """The server process of this register's session (what an operator would terminate)."""
        return int(self._conn.info.backend_pid)

    def reconnect(self) -> None:
        """After a lost connection (the server restarted); quiet if it is still down."""
        with self._lock:
            self._conn.close()
            try:
                self._conn = self._connect()
            except RegisterError:
                return

    def _migrate(self) -> int:
        with self._lock, self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())"
            )
            row = self._conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
            current = int(row[0]) if row else 0
            if current > SCHEMA_VERSION:
                raise RegisterError(f"register schema {current} is newer than this code's {SCHEMA_VERSION}")
            for step in range(current + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[step]:
                    self._conn.execute(statement)
                self._conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (step,))
        return SCHEMA_VERSION

    def store(self, hall: str, envelopes: Sequence[Envelope]) -> int:
        """Insert the records (one transaction); returns how many were new. Copies are ignored."""
        if not envelopes:
            return 0
        rows = [
            (e.id, hall, e.table, e.log, e.seq, e.t, e.type, int(e.is_input), e.body, e.cause, e.sent_at)
            for e in envelopes
        ]
        causes = [(e.id, e.cause) for e in envelopes if e.cause]
        with self._lock, self._conn.transaction(), self._conn.cursor() as cur:
            cur.execute(
                "INSERT INTO records (id, hall, table_id, log, seq, t, type, is_input, body, cause, sent_at)"
                " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[],"
                " %s::float8[], %s::text[], %s::int[], %s::text[], %s::text[], %s::float8[])"
                " ON CONFLICT (id) DO NOTHING",
                [list(column) for column in zip(*rows, strict=True)],
            )
            stored = cur.rowcount
            if causes:
                cur.executemany("UPDATE rulings SET applied_record = %s WHERE id = %s", causes)
        return stored

    def quarantine(self, hall: str, alarms: Sequence[Quarantined]) -> None:
        """Keep messages the head refused, for the referee to inspect (and for evidence)."""
        if not alarms:
            return
        with self._lock, self._conn.transaction(), self._conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO quarantine (hall, table_id, topic, reason, payload) VALUES (%s, %s, %s, %s, %s)",
                [(hall, a.table, a.topic, a.reason, a.payload) for a in alarms],
            )

    def quarantined(self, hall: str, table: str | None = None) -> list[tuple[str, str, str, bytes]]:
        """(table_id, topic, reason, payload) of the refused messages, oldest first."""
        sql = "SELECT table_id, topic, reason, payload FROM quarantine WHERE hall = %s"
        params: list[Any] = [hall]
        if table is not None:
            sql += " AND table_id = %s"
            params.append(table)
        return [(t, top, r, bytes(p)) for t, top, r, p in self._query(sql + " ORDER BY id", params)]

    def set_status(self, hall: str, table: str, state: str, body: str) -> None:
        with self._lock, self._conn.transaction():
            self._conn.execute(
                "INSERT INTO table_status (hall, table_id, state, body) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (hall, table_id) DO UPDATE SET state = excluded.state, body = excluded.body,"
                " updated_at = clock_timestamp()",
                (hall, table, state, body),
            )

    def statuses(self, hall: str) -> dict[str, str]:
        return dict(self._query("SELECT table_id, state FROM table_status WHERE hall = %s", (hall,)))

    def add_referee(self, row: RefereeRow) -> None:
        """Add a referee or replace the password of one."""
        with self._lock, self._conn.transaction():
            self._conn.execute(
                "INSERT INTO referees (name, salt, hash, iterations) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (name) DO UPDATE SET salt = excluded.salt, hash = excluded.hash,"
                " iterations = excluded.iterations",
                (row.name, row.salt, row.hash, row.iterations),
            )

    def referee(self, name: str) -> RefereeRow | None:
        rows = self._query("SELECT name, salt, hash, iterations FROM referees WHERE name = %s", (name,))
        return RefereeRow(rows[0][0], bytes(rows[0][1]), bytes(rows[0][2]), rows[0][3]) if rows else None

    def add_ruling(self, hall: str, table: str, command: RulingCommand) -> None:
        """Audit: which referee ruled (settled, reversed) what, before the command is sent."""
        c = command
        with self._lock, self._conn.transaction():
            self._conn.execute(
                "INSERT INTO rulings (id, hall, table_id, flag, decision, stop_next, referee, correction)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
                (c.id, hall, table, c.flag, c.decision, c.stop_next, c.referee, c.correction),
            )

    def unapplied_rulings(self, hall: str, table: str) -> list[RulingCommand]:
        """Rulings sent to a table whose ``ruling`` record has not come back, oldest first."""
        rows = self._query(
            "SELECT id, flag, decision, referee, stop_next, extract(epoch FROM issued_at), correction FROM rulings"
            " WHERE hall = %s AND table_id = %s AND applied_record IS NULL ORDER BY issued_at",
            (hall, table),
        )
        return [RulingCommand(i, flag, kind, who, stop, float(at), fix) for i, flag, kind, who, stop, at, fix in rows]

    def ruling_applied(self, command_id: str) -> str | None:
        """The record id the station logged for a ruling command, once it has arrived."""
        rows = self._query("SELECT applied_record FROM rulings WHERE id = %s", (command_id,))
        return rows[0][0] if rows else None

    def records(self, hall: str, table: str | None = None, types: Sequence[str] = ()) -> list[tuple[Any, ...]]:
        """(id, table_id, log, seq, type, body, stored_at) in log order, for reports and tests."""
        sql = "SELECT id, table_id, log, seq, type, body, stored_at FROM records WHERE hall = %s"
        params: list[Any] = [hall]
        if table is not None:
            sql += " AND table_id = %s"
            params.append(table)
        if types:
            sql += " AND type = ANY(%s)"
            params.append(list(types))
        return self._query(sql + " ORDER BY table_id, log, seq", params)

    def envelopes(self, hall: str) -> list[Envelope]:
        """Every stored record of the hall as it came off the bus, in log order: what a head console
        that starts mid-event replays to show the tables, alerts, registers and sheets so far."""
        rows = self._query(
            "SELECT id, table_id, log, seq, t, type, is_input, body, sent_at, cause FROM records WHERE hall = %s"
            " ORDER BY table_id, log, seq",
            (hall,),
        )
        return [
            Envelope(i, table, log, seq, t, kind, bool(is_input), body, sent_at, cause)
            for i, table, log, seq, t, kind, is_input, body, sent_at, cause in rows
        ]

    def store_evidence(self, hall: str, evidence: Evidence) -> bool:
        """Keep a flag's camera frame; False for a copy already stored (the first one stays)."""
        with self._lock, self._conn.transaction(), self._conn.cursor() as cur:
            cur.execute(
                "INSERT INTO evidence (hall, table_id, log, flag, t, jpeg, sent_at) VALUES (%s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (hall, table_id, log, flag) DO NOTHING",
                (hall, evidence.table, evidence.log, evidence.flag, evidence.t, evidence.jpeg, evidence.sent_at),
            )
            return cur.rowcount == 1

    def evidence(self, hall: str) -> list[Evidence]:
        """Every flag's frame in the hall, oldest first."""
        rows = self._query(
            "SELECT table_id, log, flag, t, jpeg, sent_at FROM evidence WHERE hall = %s ORDER BY stored_at", (hall,)
        )
        return [Evidence(table, log, flag, t, bytes(jpeg), sent_at) for table, log, flag, t, jpeg, sent_at in rows]

    def ruling_referee(self, command_id: str) -> str | None:
        """Who issued a ruling command (the audit of the head console)."""
        rows = self._query("SELECT referee FROM rulings WHERE id = %s", (command_id,))
        return str(rows[0][0]) if rows else None

    def _query(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self._lock, self._conn.transaction():
            return self._conn.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Register:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
