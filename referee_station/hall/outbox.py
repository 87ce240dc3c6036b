"""The station's send state, kept in its own SQLite log next to the records (EventStore's file).

Why in the log file: the log already holds every record durably before the referee's outputs are
acted on, so it is the buffer. The outbox only remembers which records the head has confirmed as
stored in the register (``hall_acked``) and which ruling commands from the head were applied
(``hall_inbox``). Whatever is not acked is sent again after a reconnect: a broker down, the network
cut or the station restarted loses nothing, and the receivers drop the copies by id. A flag's camera
frame (``hall.evidence``) waits here too (``hall_frames``) until the head confirms it is stored, so a
station that crashes before it could send a frame sends it after its restart.

Tables (the station's ``records`` table is EventStore's, read only here)::

    hall_link(key TEXT PRIMARY KEY, value TEXT)               -- 'log': this file's id on the bus
    hall_acked(table_id TEXT, seq INTEGER, PRIMARY KEY (table_id, seq))
    hall_inbox(id TEXT PRIMARY KEY, table_id TEXT, seq INTEGER)  -- ruling command -> its record
    hall_frames(table_id TEXT, flag INTEGER, t REAL, jpeg BLOB, at REAL,
                PRIMARY KEY (table_id, flag))                   -- flags' frames not confirmed yet

The connection is shared by the station's thread and the MQTT network thread, so every use holds
``_lock``. Acks are written with ``synchronous=NORMAL``: an ack lost in a power cut only means one
more resend, which the register ignores.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS hall_link (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hall_acked (table_id TEXT NOT NULL, seq INTEGER NOT NULL,"
    " PRIMARY KEY (table_id, seq)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS hall_inbox (id TEXT PRIMARY KEY, table_id TEXT NOT NULL, seq INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hall_frames (table_id TEXT NOT NULL, flag INTEGER NOT NULL, t REAL NOT NULL,"
    " jpeg BLOB NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, flag))",
)


@dataclass(frozen=True)
class Pending:
    """A stored record the head has not confirmed yet."""

    seq: int
    t: float
    type: str
    is_input: bool
    body: str
    cause: str | None
    """The ruling command this record applied, if any."""


@dataclass(frozen=True)
class PendingFrame:
    """A flag's camera frame the head has not confirmed yet; ``at`` is the station's wall clock when
    it was taken (the evidence's ``sent_at``)."""

    flag: int
    t: float
    jpeg: bytes
    at: float


class Outbox:
    """The unconfirmed records of one table in a station's SQLite log, and the rulings applied."""

    def __init__(self, path: str | Path, table_id: str) -> None:
        self.table_id = table_id
        self._lock = threading.Lock()
        self._db = sqlite3.connect(Path(path), isolation_level=None, check_same_thread=False, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        with self._lock:
            for statement in _SCHEMA:
                self._db.execute(statement)
            self._db.execute("INSERT OR IGNORE INTO hall_link (key, value) VALUES ('log', ?)", (secrets.token_hex(4),))
            (self.log,) = self._db.execute("SELECT value FROM hall_link WHERE key = 'log'").fetchone()

    def pending(self, after: int = 0, limit: int = 1000) -> list[Pending]:
        """Unconfirmed records with ``seq > after``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT r.seq, r.t, r.type, r.is_input, r.body, i.id FROM records r"
                " LEFT JOIN hall_inbox i ON i.table_id = r.table_id AND i.seq = r.seq"
                " WHERE r.table_id = ? AND r.seq > ? AND NOT EXISTS"
                " (SELECT 1 FROM hall_acked a WHERE a.table_id = r.table_id AND a.seq = r.seq)"
                " ORDER BY r.seq LIMIT ?",
                (self.table_id, after, limit),
            ).fetchall()
        return [Pending(seq, t, kind, bool(is_input), body, cause) for seq, t, kind, is_input, body, cause in rows]

    def pending_of(self, seqs: Iterable[int]) -> list[Pending]:
        """Those of ``seqs`` still unconfirmed, oldest first (what a resend sends)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT r.seq, r.t, r.type, r.is_input, r.body, i.id FROM records r"
                " LEFT JOIN hall_inbox i ON i.table_id = r.table_id AND i.seq = r.seq"
                " WHERE r.table_id = ? AND r.seq IN (SELECT value FROM json_each(?)) AND NOT EXISTS"
                " (SELECT 1 FROM hall_acked a WHERE a.table_id = r.table_id AND a.seq = r.seq)"
                " ORDER BY r.seq",
                (self.table_id, json.dumps([int(seq) for seq in seqs])),
            ).fetchall()
        return [Pending(seq, t, kind, bool(is_input), body, cause) for seq, t, kind, is_input, body, cause in rows]

    def ack(self, seqs: Iterable[int]) -> None:
        """The head stored these records in the register."""
        rows = [(self.table_id, int(seq)) for seq in seqs]
        with self._lock:
            self._db.executemany("INSERT OR IGNORE INTO hall_acked (table_id, seq) VALUES (?, ?)", rows)

    def unacked(self) -> int:
        with self._lock:
            (count,) = self._db.execute(
                "SELECT count(*) FROM records r WHERE r.table_id = ? AND NOT EXISTS"
                " (SELECT 1 FROM hall_acked a WHERE a.table_id = r.table_id AND a.seq = r.seq)",
                (self.table_id,),
            ).fetchone()
        return int(count)

    def applied(self, command_id: str) -> bool:
        """Whether a ruling command with this id was applied already (a resent copy)."""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM hall_inbox WHERE id = ?", (command_id,)).fetchone()
        return row is not None

    def last_seq(self, record_type: str) -> int:
        """The newest input record of a type: how a ruling just submitted is found in the log."""
        with self._lock:
            (seq,) = self._db.execute(
                "SELECT max(seq) FROM records WHERE table_id = ? AND type = ? AND is_input = 1",
                (self.table_id, record_type),
            ).fetchone()
        return int(seq or 0)

    def mark_applied(self, command_id: str, seq: int) -> None:
        """The command is in the log as record ``seq``; later copies are dropped."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO hall_inbox (id, table_id, seq) VALUES (?, ?, ?)",
                (command_id, self.table_id, seq),
            )

    def keep_frame(self, frame: PendingFrame) -> None:
        """Keep a flag's frame until the head confirms it (the first frame of a flag stays)."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO hall_frames (table_id, flag, t, jpeg, at) VALUES (?, ?, ?, ?, ?)",
                (self.table_id, frame.flag, frame.t, frame.jpeg, frame.at),
            )

    def pending_frames(self) -> list[PendingFrame]:
        """Frames not confirmed by the head, oldest flag first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT flag, t, jpeg, at FROM hall_frames WHERE table_id = ? ORDER BY flag", (self.table_id,)
            ).fetchall()
        return [PendingFrame(flag, t, bytes(jpeg), at) for flag, t, jpeg, at in rows]

    def frames_acked(self, flags: Iterable[int]) -> None:
        """The head stored these flags' frames in the register: forget them."""
        rows = [(self.table_id, int(flag)) for flag in flags]
        with self._lock:
            self._db.executemany("DELETE FROM hall_frames WHERE table_id = ? AND flag = ?", rows)

    def close(self) -> None:
        with self._lock:
            self._db.close()
