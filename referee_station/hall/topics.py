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
    guandan/<hall>/<table>/results   station -> head   deal_end, match_end, sign
    guandan/<hall>/<table>/clocks    station -> head   countdown
    guandan/<hall>/<table>/status    station -> head   retained; last will "offline"
    guandan/<hall>/<table>/evidence  station -> head   a flag's camera frame (``hall.evidence``)
    guandan/<hall>/<table>/rulings   head -> station   a referee's ruling on a flag, settle or reverse
    guandan/<hall>/<table>/timer     head -> station   pause / resume the table's clocks, add time to a seat
    guandan/<hall>/<table>/acks      head -> station   seqs now safely in the register
    guandan/<hall>/round             head -> stations  retained; the round clock (``hall.rounds``)
    guandan/<hall>/<table>/assignment head -> station  retained; the sides assigned (``hall.assignment``)
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, ClassVar

from referee_station.table.events import RECORD_TYPES, EventError, Record, Ruling, TimerControl, parse_line

ROOT = "guandan"
STATION_CHANNELS: tuple[str, ...] = ("events", "flags", "results", "clocks", "status", "evidence")
"""What a station may publish (the ACL grants exactly these)."""
HEAD_CHANNELS: tuple[str, ...] = ("rulings", "timer", "acks", "assignment")
"""What only the head console may publish; a station reads its own."""

CHANNEL_OF_TYPE: dict[str, str] = {
    "flag": "flags",
    "penalty": "flags",
    "deal_end": "results",
    "match_end": "results",
    "sign": "results",
    "countdown": "clocks",
}
"""Output types by channel, and ``sign`` (the result's signatures travel in order with ``match_end``);
every other input event (EVENTS.md) goes to ``events``."""

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
SEQ_MAX = 2**63 - 1
"""The register's ``seq`` is a BIGINT."""
SHOWN_MAX = 80


class TopicError(ValueError):
    """A hall or table name that cannot be one MQTT topic level, or a message that is not ours."""


class EnvelopeError(TopicError):
    """A message on a station's channel that breaks the envelope contract; the text names the field.
    The head quarantines it as an alarm of the topic's table and stores nothing of it."""


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
        return encode_json(asdict(self))

    @classmethod
    def decode(cls, payload: bytes, table: str | None = None) -> Envelope:
        """Read and check an envelope; ``table`` is the topic's table, which the broker authenticated.

        Every field is checked for its type, the id must be ``<table>:<log>:<seq>`` of the envelope's
        own fields (so no station can name another table's record), and the body must be the EVENTS.md
        record that ``type``, ``is_input`` and ``t`` describe. :class:`EnvelopeError` names the fault."""
        obj = _load(payload)
        names = {f.name for f in fields(cls)}
        if unknown := sorted(set(obj) - names):
            raise EnvelopeError(f"envelope: unknown field {_shown(unknown[0])}")
        if missing := sorted(names - set(obj) - {"cause"}):
            raise EnvelopeError(f"envelope: missing field {missing[0]!r}")
        envelope = cls(
            id=_text(obj, "id", 200),
            table=_plain(obj, "table"),
            log=_plain(obj, "log"),
            seq=_count(obj, "seq"),
            t=_seconds(obj, "t", low=0.0),
            type=_text(obj, "type", 64),
            is_input=_flag(obj, "is_input"),
            body=_text(obj, "body", None),
            sent_at=_seconds(obj, "sent_at", low=-math.inf),
            cause=None if obj.get("cause") is None else _plain(obj, "cause"),
        )
        if table is not None and envelope.table != table:
            raise EnvelopeError(f"envelope names table {_shown(envelope.table)} on table {table}'s topic")
        if envelope.id != record_id(envelope.table, envelope.log, envelope.seq):
            raise EnvelopeError(
                f"envelope id {_shown(envelope.id)} is not {record_id(envelope.table, envelope.log, envelope.seq)!r}"
                " (table:log:seq of its own fields)"
            )
        envelope.check_body()
        return envelope

    def check_body(self) -> None:
        """The body is one EVENTS.md record of the envelope's type, kind (input/output) and time."""
        if self.type not in RECORD_TYPES:
            raise EnvelopeError(f"envelope: unknown record type {_shown(self.type)}")
        try:
            record = parse_line(self.body)
        except EventError as err:
            raise EnvelopeError(f"envelope body: {err}") from err
        if self.type != record.TYPE or self.is_input != record.IS_INPUT or record.t != self.t:
            raise EnvelopeError(
                f"envelope says {self.type} t={self.t} input={self.is_input}, its body is"
                f" {record.TYPE} t={record.t} input={record.IS_INPUT}"
            )


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 3] + "..."


def _text(obj: dict[str, Any], name: str, longest: int | None) -> str:
    value = obj[name]
    if not isinstance(value, str) or (longest is not None and len(value) > longest):
        limit = f" of at most {longest} characters" if longest else ""
        raise EnvelopeError(f"envelope: field {name!r} must be a string{limit}, got {_shown(value)}")
    return value


def _plain(obj: dict[str, Any], name: str) -> str:
    value = obj[name]
    if not isinstance(value, str) or not _NAME.match(value):
        raise EnvelopeError(f"envelope: field {name!r} must be 1-64 of A-Z a-z 0-9 _ . -, got {_shown(value)}")
    return value


def _count(obj: dict[str, Any], name: str) -> int:
    value = obj[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= SEQ_MAX:
        raise EnvelopeError(f"envelope: field {name!r} must be an integer 1..2^63-1, got {_shown(value)}")
    return value


def _seconds(obj: dict[str, Any], name: str, low: float) -> float:
    value = obj[name]
    number = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:
            number = None
    if number is None or not math.isfinite(number) or number < low:
        bound = " non-negative" if low == 0.0 else ""
        raise EnvelopeError(f"envelope: field {name!r} must be a finite{bound} number, got {_shown(value)}")
    return number


def _flag(obj: dict[str, Any], name: str) -> bool:
    value = obj[name]
    if not isinstance(value, bool):
        raise EnvelopeError(f"envelope: field {name!r} must be true or false, got {_shown(value)}")
    return value


@dataclass(frozen=True)
class Quarantined:
    """A message the head refused: the table whose topic it came on (the broker authenticated that
    much), why, and its first bytes. Shown as that table's alarm and kept in the register."""

    table: str
    topic: str
    reason: str
    payload: bytes
    at: float

    PAYLOAD_KEPT: ClassVar[int] = 2048


CORRECTIONS: tuple[str, ...] = ("settle", "reverse")
"""The corrections a head referee sends as ruling commands (docs/corrections.md), by ``decision``."""


@dataclass(frozen=True)
class RulingCommand:
    """A ruling made on the head console, on its way to the table (EVENTS.md ``ruling``), or a
    correction (``decision`` settle / reverse, the EVENTS.md line in ``correction``): the station
    stamps it with its own clock when it applies it; ``id`` lets it drop a resent copy. ``flag`` is
    the flag ruled on, reversed, or whose doubtful read is settled (the audit's)."""

    id: str
    flag: int
    decision: str
    referee: str
    stop_next: bool = False
    sent_at: float = 0.0
    correction: str | None = None

    def encode(self) -> bytes:
        return encode_json(asdict(self))

    @classmethod
    def decode(cls, payload: bytes) -> RulingCommand:
        obj = _load(payload)
        try:
            command = cls(**obj)
        except TypeError as err:
            raise TopicError(f"not a ruling command: {err}") from err
        command.record(0.0)  # a correction that is not the settle / reverse it says is refused here
        return command

    def record(self, t: float) -> Record:
        """The input this command is at the table, at the station's table time ``t``."""
        if self.decision not in CORRECTIONS:
            return Ruling(t=t, flag=self.flag, decision=self.decision, stop_next=self.stop_next)
        try:
            event = parse_line(self.correction or "")
        except EventError as err:
            raise TopicError(f"ruling command {self.decision}: {err}") from err
        if self.decision != event.TYPE:
            raise TopicError(f"ruling command {self.decision} carries a {event.TYPE}")
        return replace(event, t=t)


@dataclass(frozen=True)
class TimerCommand:
    """The head referee pauses, resumes or adds time at a table (EVENTS.md ``timer``), on its way
    there. Like a ruling, the station stamps it with its own clock when it applies it, and ``id``
    lets it drop a resent copy. Checked whole when made and when decoded (``TopicError``)."""

    id: str
    action: str
    referee: str
    seat: str | None = None
    seconds: float | None = None
    sent_at: float = 0.0

    def __post_init__(self) -> None:
        try:
            self.record(0.0)
        except EventError as err:
            raise TopicError(f"not a timer command: {err}") from err

    def record(self, t: float) -> TimerControl:
        """The ``timer`` input the station feeds at table time ``t``."""
        body: dict[str, Any] = {"t": t, "type": "timer", "action": self.action}
        if self.action == "add":
            body |= {"seat": self.seat, "seconds": self.seconds}
        elif self.seat is not None or self.seconds is not None:
            raise EventError(f"timer: {self.action} takes no seat or seconds")
        return TimerControl.from_json(body)

    def encode(self) -> bytes:
        return encode_json(asdict(self))

    @classmethod
    def decode(cls, payload: bytes) -> TimerCommand:
        obj = _load(payload)
        try:
            return cls(**obj)
        except TypeError as err:
            raise TopicError(f"not a timer command: {err}") from err


STATION_STATES: tuple[str, ...] = ("online", "offline")


def decode_status(payload: bytes, table: str) -> str:
    """A station's retained ``status`` message -> its state; :class:`EnvelopeError` when it is not one."""
    obj = _load(payload)
    state = obj.get("state")
    if state not in STATION_STATES:
        raise EnvelopeError(f"status: field 'state' must be online or offline, got {_shown(state)}")
    if obj.get("table", table) != table:
        raise EnvelopeError(f"status names table {_shown(obj.get('table'))} on table {table}'s topic")
    return str(state)


def encode_json(obj: dict[str, Any]) -> bytes:
    """The bus's one JSON encoding: compact, UTF-8 as it is (the envelopes, the commands, the head's messages)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def _load(payload: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (ValueError, RecursionError) as err:  # bad JSON or UTF-8, a 5,000-digit number, deep nesting
        raise EnvelopeError(f"not JSON: {str(err)[:SHOWN_MAX]}") from err
    if not isinstance(obj, dict):
        raise EnvelopeError(f"a hall message must be a JSON object, got {type(obj).__name__}")
    return obj
