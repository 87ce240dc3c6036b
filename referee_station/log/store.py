"""The table's event log in SQLite: every input event and every output, append-only.

Why SQLite in WAL mode with ``synchronous=FULL``: a commit returns only once the write-ahead log is on
disk, so a station killed at any moment (power cut, ``kill -9``) loses nothing it already
acknowledged, and a reader (the console, ``replay``) never blocks the writer.

One fed input event and the outputs it produced are appended in one transaction: after a crash the log
holds either both or neither, so replaying the stored inputs regenerates exactly the stored outputs.

Schema (version 1; the hall mirrors it in PostgreSQL, so changes go through ``_MIGRATIONS``)::

    records(seq INTEGER PRIMARY KEY, table_id TEXT, t REAL, type TEXT, is_input INTEGER, body TEXT)
    schema_version(version INTEGER)

``body`` is the record's EVENTS.md JSON line, the single source of truth; ``t``, ``type`` and
``is_input`` are copies kept for queries.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType

from referee_station.table.events import Record, parse_line

SCHEMA_VERSION = 1
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE records (seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL, t REAL NOT NULL,"
        " type TEXT NOT NULL, is_input INTEGER NOT NULL, body TEXT NOT NULL)",
        "CREATE INDEX records_table ON records (table_id, seq)",
    ),
}
"""Statements that bring the schema from version ``n - 1`` to ``n``."""

SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(RuntimeError):
    """The database is not an event log this code can read (e.g. a newer schema)."""


def is_sqlite(path: str | Path) -> bool:
    """Whether ``path`` is an SQLite database (by its 16-byte header), not a JSON Lines file."""
    with open(path, "rb") as f:
        return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC


class EventStore:
    """An append-only SQLite log of one or many tables' records.

    ``append`` is the only writer and commits before returning; the readers return parsed
    :class:`~referee_station.table.events.Record` values in the order they were appended.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._migrate()

    def _version(self) -> int:
        exists = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone()
        return (self._db.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0) if exists else 0

    def _migrate(self) -> None:
        """Bring the schema up to date; a current database is only read, so a reader opening it
        never takes the write lock from the station."""
        if self._version() == SCHEMA_VERSION:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = self._version()
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {version} is newer than this station's {SCHEMA_VERSION}")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[step]:
                    self._db.execute(statement)
                self._db.execute("INSERT INTO schema_version (version) VALUES (?)", (step,))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def append(self, table_id: str, event: Record, outputs: Iterable[Record] = ()) -> int:
        """Store one input event and the outputs it produced in one transaction; returns the event's seq.

        Returns only after the commit is durable (WAL, synchronous=FULL): that is "acknowledged".
        """
        rows = [(table_id, r.t, r.TYPE, int(r.IS_INPUT), r.to_line()) for r in (event, *outputs)]
        self._db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self._db.execute(
                "INSERT INTO records (table_id, t, type, is_input, body) VALUES (?, ?, ?, ?, ?)", rows[0]
            )
            seq = int(cursor.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO records (table_id, t, type, is_input, body) VALUES (?, ?, ?, ?, ?)", rows[1:]
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return seq

    def append_many(self, table_id: str, records: Iterable[Record]) -> int:
        """Import already-decided records (inputs and outputs, as in an exported log) in one transaction."""
        rows = [(table_id, r.t, r.TYPE, int(r.IS_INPUT), r.to_line()) for r in records]
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany("INSERT INTO records (table_id, t, type, is_input, body) VALUES (?, ?, ?, ?, ?)", rows)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return len(rows)

    def tables(self) -> list[str]:
        """The table ids in the log, in order of their first record."""
        rows = self._db.execute("SELECT table_id FROM records GROUP BY table_id ORDER BY min(seq)").fetchall()
        return [row[0] for row in rows]

    def lines(self, table_id: str, *, inputs_only: bool = False) -> Iterator[str]:
        """The stored JSON lines of one table, in append order."""
        sql = "SELECT body FROM records WHERE table_id = ?" + (" AND is_input = 1" if inputs_only else "")
        for (body,) in self._db.execute(sql + " ORDER BY seq", (table_id,)):
            yield body

    def rows(self, table_id: str) -> Iterator[tuple[str, bool]]:
        """Each stored JSON line of one table with whether it is an input event, in append order."""
        sql = "SELECT body, is_input FROM records WHERE table_id = ? ORDER BY seq"
        for body, is_input in self._db.execute(sql, (table_id,)):
            yield body, bool(is_input)

    def records(self, table_id: str) -> list[Record]:
        """Every stored record (inputs and outputs) of one table, in append order."""
        return [parse_line(body) for body in self.lines(table_id)]

    def inputs(self, table_id: str) -> list[Record]:
        """The stored input events of one table, in append order: what a replay feeds."""
        return [parse_line(body) for body in self.lines(table_id, inputs_only=True)]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
