"""The event's journal in SQLite (one event per file), the single place its state comes from.

An action is checked against the replayed state before it is appended, in one transaction, so a
refused action leaves nothing behind and a stored journal always replays. Schema (version 1)::

    journal(seq INTEGER PRIMARY KEY, at REAL, kind TEXT, by TEXT, body TEXT)
    schema_version(version INTEGER)
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Protocol

from referee_station.event.actions import Action, JournalError, action_from_json
from referee_station.event.model import EventState

SCHEMA_VERSION = 1


class EventStoreError(RuntimeError):
    """The file is not an event journal this code can read (the message names it)."""


class Journal(Protocol):
    """What the commands need of a journal, in SQLite (:class:`EventStore`) or PostgreSQL."""

    state: EventState

    def actions(self) -> list[Action]: ...

    def record(self, action: Action) -> None: ...

    def close(self) -> None: ...


def encode(action: Action) -> str:
    """An action's journal body: its JSON, keys sorted, Chinese kept readable."""
    return json.dumps(action.to_json(), ensure_ascii=False, sort_keys=True)


def decode(body: str, where: str) -> Action:
    """Read a journal body back; ``where`` names the entry in the error."""
    try:
        return action_from_json(json.loads(body))
    except (json.JSONDecodeError, JournalError) as err:
        raise EventStoreError(f"{where}: {err}") from err


class EventStore:
    """Append-only journal of one event; :meth:`record` is the only writer."""

    def __init__(self, path: str | Path, create: bool = False) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise EventStoreError(f"{self.path}: no such event file (create one with event new)")
        try:
            # the head's EventDesk records from its GUI and register threads, one at a time (its lock)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, at REAL NOT NULL,"
                " kind TEXT NOT NULL, by TEXT NOT NULL, body TEXT NOT NULL)"
            )
            version = self._db.execute("SELECT max(version) FROM schema_version").fetchone()[0]
        except sqlite3.DatabaseError as err:
            raise EventStoreError(f"{self.path}: not an event journal ({err})") from err
        if version is None:
            self._db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
        elif version > SCHEMA_VERSION:
            raise EventStoreError(f"{self.path}: schema version {version} is newer than this code's {SCHEMA_VERSION}")
        self.state = EventState.replay(self.actions())

    def actions(self) -> list[Action]:
        rows = self._db.execute("SELECT seq, body FROM journal ORDER BY seq")
        return [decode(body, f"{self.path}: journal entry {seq}") for seq, body in rows]

    def record(self, action: Action) -> None:
        """Apply ``action`` to the state (raising, and storing nothing, if it does not fit), then store it."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self.state.apply(action)
            row = (action.at, action.KIND, action.by, encode(action))
            self._db.execute("INSERT INTO journal (at, kind, by, body) VALUES (?, ?, ?, ?)", row)
        except BaseException:
            self._db.execute("ROLLBACK")
            self.state = EventState.replay(self.actions())
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
