"""Topic names and the message envelope of the hall bus.

Every message a station sends is one record of its log (EVENTS.md line) in an :class:`Envelope`
whose ``id`` is unique in the hall: ``<table>:<log>:<seq>``, where ``log`` names the station's SQLite
file (fixed when the file is first linked) and ``seq`` is the record's row in it. A station that
resends after a lost connection sends the same id again, so receivers drop duplicates by id and the
register's ``ON CONFLICT (id) DO NOTHING`` keeps one copy. A new log file gets a new ``log`` part, so
a re-created station log can never collide with an older one in the register.

Topics (``hall`` and ``table`` are single topic levels, no ``/ + #``)::

    guandan/<hall>/<table>/events    station -> head   input events, rulings applied included
    guandan/<hall>/<table>/flags     station -> head   flag, penalty
    guandan/<hall>/<table>/results   station -> head   deal_end, match_end
    guandan/<hall>/<table>/clocks    station -> head   countdown
    guandan/<hall>/<table>/status    station -> head   retained; last will "offline"
    guandan/<hall>/<table>/evidence  station -> head   a flag's camera frame (``hall.evidence``)
    guandan/<hall>/<table>/rulings   head -> station   a referee's ruling on a flag
    guandan/<hall>/<table>/acks      head -> station   seqs now safely in the register
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any

ROOT = "guandan"
STATION_CHANNELS: tuple[str, ...] = ("events", "flags", "results", "clocks", "status", "evidence")
"""What a station may publish (the ACL grants exactly these)."""
HEAD_CHANNELS: tuple[str, ...] = ("rulings", "acks")
"""What only the head console may publish; a station reads its own."""

CHANNEL_OF_TYPE: dict[str, str] = {
    "flag": "flags",
    "penalty": "flags",
    "deal_end": "results",
    "match_end": "results",
    "countdown": "clocks",
}
"""Output types by channel; every input event (EVENTS.md) goes to ``events``."""

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


class TopicError(ValueError):
    """A hall or table name that cannot be one MQTT topic level, or a message that is not ours."""


def check_name(name: str, what: str) -> str:
    """Hall and table names are one topic level of plain characters, so ACLs cannot be escaped."""
    if not _NAME.match(name):
        raise TopicError(f"{what} {name!r} must be 1-64 of A-Z a-z 0-9 _ . -")
    return name


def topic(hall: str, table: str, channel: str) -> str:
    return f"{ROOT}/{check_name(hall, 'hall')}/{check_name(table, 'table')}/{channel}"


def hall_filter(hall: str) -> str:
    """Everything of one hall: what the head console subscribes to."""
    return f"{ROOT}/{check_name(hall, 'hall')}/#"


def channel_of(record_type: str) -> str:
    return CHANNEL_OF_TYPE.get(record_type, "events")


def split_topic(name: str) -> tuple[str, str, str]:
    """``guandan/<hall>/<table>/<channel>`` -> (hall, table, channel)."""
    parts = name.split("/")
    if len(parts) != 4 or parts[0] != ROOT:
        raise TopicError(f"not a hall topic: {name!r}")
    return parts[1], parts[2], parts[3]


def record_id(table: str, log: str, seq: int) -> str:
    return f"{table}:{log}:{seq}"


@dataclass(frozen=True)
class Envelope:
    """One log record on the bus. ``body`` is the EVENTS.md JSON line exactly as the station logged
    it (the single source of truth); ``sent_at`` is the station's wall clock when it asked to send
    the record, right after its log commit (or when it resent it), for the latency figures;
    ``cause`` is the id of the head's ruling command that this record applies."""

    id: str
    table: str
    log: str
    seq: int
    t: float
    type: str
    is_input: bool
    body: str
    sent_at: float
    cause: str | None = None

    def encode(self) -> bytes:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, payload: bytes) -> Envelope:
        obj = _load(payload)
        try:
            return cls(**obj)
        except TypeError as err:
            raise TopicError(f"not an envelope: {err}") from err


@dataclass(frozen=True)
class RulingCommand:
    """A ruling made on the head console, on its way to the table (EVENTS.md ``ruling``). The station
    stamps it with its own clock when it applies it; ``id`` lets it drop a resent copy."""

    id: str
    flag: int
    decision: str
    referee: str
    stop_next: bool = False
    sent_at: float = 0.0

    def encode(self) -> bytes:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, payload: bytes) -> RulingCommand:
        obj = _load(payload)
        try:
            return cls(**obj)
        except TypeError as err:
            raise TopicError(f"not a ruling command: {err}") from err


def encode_json(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def _load(payload: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(payload)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise TopicError(f"not JSON: {err}") from err
    if not isinstance(obj, dict):
        raise TopicError("a hall message must be a JSON object")
    return obj
