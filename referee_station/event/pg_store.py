"""The event's journal in the hall's PostgreSQL (psycopg 3, the ``[hall]`` extra), for a hall
where several head consoles work on one event; same interface as the SQLite ``EventStore``.

An action is appended under a per-event advisory lock, after the state has caught up with every
entry another console appended meanwhile, so two consoles can never both confirm or both pair
against a stale state. The connection is in autocommit mode, so each ``transaction()`` block is
a real transaction. Its own tables, versioned apart from the register's migrations::

    event_journal(event TEXT, seq BIGINT, at DOUBLE PRECISION, kind TEXT, by TEXT, body TEXT,
                  PRIMARY KEY (event, seq))
    event_schema(version INTEGER)
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import psycopg

from referee_station.event.actions import Action
from referee_station.event.model import EventState
from referee_station.event.store import EventStoreError, decode, encode

SCHEMA_VERSION = 1
_SCHEMA_LOCK = 0x6576656E  # pg_advisory_xact_lock key ("even")


class PgEventStore:
    """One event's journal in PostgreSQL; :meth:`record` is the only writer."""

    def __init__(self, dsn: str, event: str, create: bool = False) -> None:
        self.event = event
        try:
            self._conn: psycopg.Connection[tuple[Any, ...]] = psycopg.connect(dsn, autocommit=True)
        except psycopg.OperationalError as err:
            raise EventStoreError(f"cannot reach the event database: {err}") from err
        try:
            self._migrate()
            if not create and not self._rows(0):
                raise EventStoreError(f"no event {event!r} in the database (create one with event new)")
            self.seq = 0
            self.state = EventState()
            self._catch_up()
        except BaseException:
            self._conn.close()
            raise

    def _migrate(self) -> None:
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            self._conn.execute("CREATE TABLE IF NOT EXISTS event_schema (version INTEGER NOT NULL)")
            row = self._conn.execute("SELECT max(version) FROM event_schema").fetchone()
            version = row[0] if row else None
            if version is not None and version > SCHEMA_VERSION:
                raise EventStoreError(f"event schema {version} is newer than this code's {SCHEMA_VERSION}")
            if version is None:
                self._conn.execute(
                    "CREATE TABLE event_journal (event TEXT NOT NULL, seq BIGINT NOT NULL,"
                    " at DOUBLE PRECISION NOT NULL, kind TEXT NOT NULL, by TEXT NOT NULL, body TEXT NOT NULL,"
                    " PRIMARY KEY (event, seq))"
                )
                self._conn.execute("INSERT INTO event_schema VALUES (%s)", (SCHEMA_VERSION,))

    def _rows(self, after: int) -> list[tuple[int, str]]:
        sql = "SELECT seq, body FROM event_journal WHERE event = %s AND seq > %s ORDER BY seq"
        return self._conn.execute(sql, (self.event, after)).fetchall()

    def _catch_up(self) -> None:
        """Apply the entries appended since this store last read (by another console, too)."""
        for seq, body in self._rows(self.seq):
            self.state.apply(decode(body, f"event {self.event!r} entry {seq}"))
            self.seq = seq

    def actions(self) -> list[Action]:
        with self._conn.transaction():
            return [decode(body, f"event {self.event!r} entry {seq}") for seq, body in self._rows(0)]

    def record(self, action: Action) -> None:
        """Apply ``action`` to the caught-up state (raising, and storing nothing, if it does not fit)."""
        try:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (self.event,))
                self._catch_up()
                self.state.apply(action)
                self._conn.execute(
                    "INSERT INTO event_journal (event, seq, at, kind, by, body) VALUES (%s, %s, %s, %s, %s, %s)",
                    (self.event, self.seq + 1, action.at, action.KIND, action.by, encode(action)),
                )
                self.seq += 1
        except BaseException:
            self.seq, self.state = 0, EventState()
            with self._conn.transaction():
                self._catch_up()
            raise

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> PgEventStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
