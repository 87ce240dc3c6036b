"""The round clock on the hall bus (R-MATCH-1): the head publishes each round's start, limit and time
call on one retained topic per hall, so every station, also one that starts or reconnects later,
learns the round it plays, its pairs and when time is (or will be) called.

Topic (retained, QoS 1; only the head may write it, every station of the hall reads it)::

    guandan/<hall>/round      head -> stations   the current round (:class:`RoundCall`)

Times are the head's wall clock (seconds since the epoch); a station turns the call into a
``time_call`` line stamped with its own table clock when it applies it, as it does with rulings.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any

from referee_station.hall.clock import RoundClock
from referee_station.hall.topics import ROOT, EnvelopeError, check_name, encode_json

CHANNEL = "round"


def round_topic(hall: str) -> str:
    return f"{ROOT}/{check_name(hall, 'hall')}/{CHANNEL}"


class RoundCallError(EnvelopeError):
    """A round message that is not one (the text names the field); the station keeps the last good one."""


@dataclass(frozen=True)
class RoundTable:
    """One table of the round: its hall name, its number in the event and the pairs' labels."""

    table: str
    number: int
    ew: str
    ns: str

    @property
    def sides(self) -> dict[str, str]:
        """The match setup's ``sides`` (the lower pair number sits East-West, seed 003 八.1)."""
        return {"EW": self.ew, "NS": self.ns}


@dataclass(frozen=True)
class RoundCall:
    """The round as the head announces it: started at ``start``, time called at ``called`` (or at the
    limit), at most ``max_deals`` deals (R-MATCH-1)."""

    event: str
    round: int
    start: float
    limit_s: float
    called: float | None
    max_deals: int
    tables: tuple[RoundTable, ...]

    @property
    def clock(self) -> RoundClock:
        return RoundClock(self.start, self.limit_s, self.called)

    def table(self, name: str) -> RoundTable | None:
        return next((t for t in self.tables if t.table == name), None)

    def encode(self) -> bytes:
        return encode_json(asdict(self))

    @classmethod
    def decode(cls, payload: bytes) -> RoundCall:
        """Read and check a round message; :class:`RoundCallError` names what is wrong."""
        try:
            obj = json.loads(payload.decode("utf-8"))
        except (ValueError, RecursionError) as err:
            raise RoundCallError(f"round message: not JSON ({str(err)[:80]})") from err
        if not isinstance(obj, dict):
            raise RoundCallError(f"round message: expected a JSON object, got {type(obj).__name__}")
        missing = sorted({"event", "round", "start", "limit_s", "called", "max_deals", "tables"} - set(obj))
        if missing:
            raise RoundCallError(f"round message: missing field {missing[0]!r}")
        tables = obj["tables"]
        if not isinstance(tables, list):
            raise RoundCallError("round message: field 'tables' must be a list")
        called = obj["called"]
        call = cls(
            event=_text(obj, "event"),
            round=_whole(obj, "round", 1),
            start=_seconds(obj, "start"),
            limit_s=_seconds(obj, "limit_s"),
            called=None if called is None else _seconds(obj, "called"),
            max_deals=_whole(obj, "max_deals", 1),
            tables=tuple(_table(t) for t in tables),
        )
        if call.limit_s <= 0:
            raise RoundCallError(f"round message: field 'limit_s' must be positive, got {call.limit_s}")
        return call


def _table(obj: Any) -> RoundTable:
    if not isinstance(obj, dict):
        raise RoundCallError(f"round message: a table must be an object, got {type(obj).__name__}")
    try:
        name = check_name(_text(obj, "table"), "table")
    except ValueError as err:
        raise RoundCallError(f"round message: {err}") from err
    return RoundTable(name, _whole(obj, "number", 1), _text(obj, "ew"), _text(obj, "ns"))


def _text(obj: dict[str, Any], name: str) -> str:
    value = obj.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise RoundCallError(f"round message: field {name!r} must be a text of 1-200 characters, got {value!r:.80}")
    return value


def _whole(obj: dict[str, Any], name: str, low: int) -> int:
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 10**6:
        raise RoundCallError(f"round message: field {name!r} must be a whole number {low}..10^6, got {value!r:.80}")
    return value


def _seconds(obj: dict[str, Any], name: str) -> float:
    value = obj.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RoundCallError(f"round message: field {name!r} must be a finite number, got {value!r:.80}")
    return float(value)
