"""Table events and referee outputs: the JSON-lines contract of EVENTS.md as immutable types.

Every line of a table's log is one record with ``t`` (seconds on the table's clock) and ``type``.
Input events are written by the sources (vision tracker, seat units, timer, console); outputs by
:class:`~referee_station.table.referee.TableReferee`. ``parse_record`` reads either kind and raises
:class:`EventError` naming the field that is wrong, so a bad line is reported, never half-read.
``record.to_json()`` gives back the same dictionary (round trip).

Seats, sides, penalties and decisions are the contract core's enums (``referee_station.core``,
R-SEAT-1/2, R-PEN): ``StrEnum`` values equal to the strings the log writes, so a log reads and
writes back unchanged. Cards are the rules layer's :class:`~referee_station.rules.Card` (R-CARD-1),
written as their codes.
"""

from __future__ import annotations

import functools
import json
import math
import re
import types
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

from referee_station.core import DECISIONS, Clock, Decision, Seat, Side, Unit

# The seat tables are the core's (one definition); named here too for the log's many readers.
from referee_station.core import NEXT_SEAT as NEXT_SEAT
from referee_station.core import OTHER_SIDE as OTHER_SIDE
from referee_station.core import PARTNER as PARTNER
from referee_station.core import PREV_SEAT as PREV_SEAT
from referee_station.core import SEATS as SEATS
from referee_station.core import SIDE_OF as SIDE_OF
from referee_station.core import SIDE_SEATS as SIDE_SEATS
from referee_station.core import SIDES as SIDES
from referee_station.core import Penalty as Rung
from referee_station.rules import Card, RulesError, parse_level

MAX_DEPTH = 16
"""Deepest nesting of arrays and objects a log line may have; EVENTS.md needs three."""
MAX_INT = 2**53
"""Largest integer magnitude a field may hold: what every JSON reader keeps exactly."""
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class EventError(ValueError):
    """A log line or event that does not meet EVENTS.md; the message names what is wrong."""


def _need(obj: Mapping[str, Any], name: str, kind: str) -> Any:
    if name not in obj:
        raise EventError(f"{kind}: missing field {name!r}")
    return obj[name]


def _number(value: Any) -> float | None:
    """``value`` as a finite float, or None when it is not a number that fits one (bool, 400 digits)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _shown(value: Any) -> str:
    """A field's value for an error message, cut short: a 400-digit number need not be echoed whole."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit
        text = "an integer too long to show"
    return text if len(text) <= 60 else text[:57] + "..."


def _time(obj: Mapping[str, Any], kind: str) -> float:
    value = _need(obj, "t", kind)
    number = _number(value)
    if number is None or number < 0:
        raise EventError(f"{kind}: field 't' must be a non-negative number of seconds, got {_shown(value)}")
    return number


def _seat(obj: Mapping[str, Any], kind: str, name: str = "seat") -> Seat:
    value = _need(obj, name, kind)
    if not isinstance(value, str) or value not in SEATS:
        raise EventError(f"{kind}: field {name!r} must be one of E S W N, got {_shown(value)}")
    return Seat(value)


def _card(value: Any, kind: str, name: str) -> Card:
    if type(value) is Card:
        return value
    if not isinstance(value, str):
        raise EventError(f"{kind}: field {name!r}: a card code is a string, got {_shown(value)} (R-CARD-1)")
    try:
        return Card.parse(value)
    except RulesError as err:
        raise EventError(f"{kind}: field {name!r}: {err}") from err


def _cards(value: Any, kind: str, name: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, (list, tuple)):
        raise EventError(f"{kind}: field {name!r} must be a list of card codes, got {_shown(value)}")
    return tuple(_card(code, kind, name) for code in value)


def _level(value: Any, kind: str, name: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise EventError(f"{kind}: field {name!r}: bad level {_shown(value)} (R-LVL-1)")
    try:
        return parse_level(value)
    except RulesError as err:
        raise EventError(f"{kind}: field {name!r}: {err}") from err


def _side_map(value: Any, kind: str, name: str) -> dict[str, Any]:
    if not isinstance(value, Mapping) or set(value) - set(SIDES):
        raise EventError(f"{kind}: field {name!r} must map EW and NS, got {_shown(value)}")
    return dict(value)


def _int(value: Any, kind: str, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EventError(f"{kind}: field {name!r} must be an integer {low}..{high}, got {_shown(value)}")
    return value


_Coerce = Callable[[Any, str, str], Any]
"""Turns a field's value (record type, field name) into its typed value or raises :class:`EventError`."""


def _card_coercion(hint: Any) -> _Coerce | None:
    """How a field typed ``hint`` takes card codes in place of :class:`Card` values (``Card``,
    ``tuple[Card, ...]``, and tuples, dicts and optionals holding them); None when it holds no card."""
    if hint is Card:
        return _card
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        inner = next(filter(None, map(_card_coercion, args)), None)
        return None if inner is None else lambda v, kind, name: None if v is None else inner(v, kind, name)
    if origin is tuple and args == (Card, Ellipsis):
        return _cards
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _card_coercion(args[0])
        if item is None:
            return None
        return lambda v, kind, name: tuple(item(x, kind, name) for x in _sequence(v, kind, name))
    if origin is tuple:
        parts = [_card_coercion(arg) for arg in args]

        def fixed(v: Any, kind: str, name: str) -> tuple[Any, ...]:
            if len(_sequence(v, kind, name)) != len(parts):
                raise EventError(f"{kind}: field {name!r} must hold {len(parts)} items, got {_shown(v)}")
            return tuple(x if part is None else part(x, kind, name) for part, x in zip(parts, v, strict=True))

        return None if parts.count(None) == len(parts) else fixed
    if origin is dict:
        value = _card_coercion(args[1])

        def mapping(v: Any, kind: str, name: str) -> dict[Any, Any]:
            if not isinstance(v, Mapping):
                raise EventError(f"{kind}: field {name!r} must be an object, got {_shown(v)}")
            return {k: value(x, kind, f"{name}.{k}") for k, x in v.items()}

        return None if value is None else mapping
    return None


def _sequence(value: Any, kind: str, name: str) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise EventError(f"{kind}: field {name!r} must be a list, got {_shown(value)}")
    return value


@functools.cache
def _card_fields(cls: type) -> tuple[tuple[str, _Coerce], ...]:
    """The fields of a record class that hold cards, each with its coercion from codes."""
    hints = get_type_hints(cls)
    found = ((f.name, _card_coercion(hints[f.name])) for f in fields(cls))
    return tuple((name, coerce) for name, coerce in found if coerce is not None)


@functools.cache
def _card_names(cls: type) -> frozenset[str]:
    return frozenset(name for name, _ in _card_fields(cls))


def _codes(value: Any) -> Any:
    """A card field's value as the log writes it: every :class:`Card` its code, tuples lists."""
    if type(value) is Card:
        return value.code
    if isinstance(value, (tuple, list)):
        return [_codes(item) for item in value]
    if isinstance(value, dict):
        return {key: _codes(item) for key, item in value.items()}
    return value


@functools.cache
def _enum_fields(cls: type) -> tuple[tuple[str, type[StrEnum]], ...]:
    """The fields of a record class whose type is a core enum (or an optional one)."""
    out = []
    for name, hint in get_type_hints(cls).items():
        options = get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)
        kinds = [o for o in options if isinstance(o, type) and issubclass(o, StrEnum)]
        if kinds and name in {f.name for f in fields(cls)}:
            out.append((name, kinds[0]))
    return tuple(out)


@dataclass(frozen=True)
class Record:
    """One log line. Subclasses set ``TYPE``; ``to_json`` writes the EVENTS.md fields."""

    TYPE: ClassVar[str] = ""
    IS_INPUT: ClassVar[bool] = True
    JSON_NAMES: ClassVar[dict[str, str]] = {}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    """Fields left out of the JSON when they are ``None``."""

    t: float

    def __post_init__(self) -> None:
        """A seat, side, penalty or decision given as its string becomes the core's enum, and a card
        code its :class:`Card`, so that a record built in code (``Ruling(t, 1, "confirm")``,
        ``PlayCards(t, "E", ("5s", "5h"))``) is the record the log reads back; a string that is
        none of the enum's values, or no card's code (R-CARD-1), is this record's :class:`EventError`."""
        for name, coerce in _card_fields(type(self)):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, coerce(value, self.TYPE, name))
        for name, kind in _enum_fields(type(self)):
            value = getattr(self, name)
            if value is None or type(value) is kind:
                continue
            if not isinstance(value, str) or value not in tuple(kind):
                raise EventError(f"{self.TYPE}: field {name!r} must be one of {' '.join(kind)}, got {_shown(value)}")
            object.__setattr__(self, name, kind(value))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "type": self.TYPE}
        card_fields = _card_names(type(self))
        for f in fields(self):
            if f.name == "t":
                continue
            value = getattr(self, f.name)
            if value is None and f.name in self.OPTIONAL:
                continue
            if f.name in card_fields:
                value = _codes(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[self.JSON_NAMES.get(f.name, f.name)] = value
        return out

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Record:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Input events


@dataclass(frozen=True)
class MatchStart(Record):
    """First line of a log: the sides, optional rule variants and starting levels (R-LVL-1/2), and for
    the record sheet (seed 003 十三) the event's name, the round and each side's players."""

    TYPE: ClassVar[str] = "match"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"rules", "levels", "level", "event", "round", "players"})
    sides: dict[str, str] = field(default_factory=dict)
    rules: dict[str, Any] | None = None
    levels: dict[str, str] | None = None
    level: str | None = None
    event: str | None = None
    round: int | None = None
    players: dict[str, tuple[str, ...]] | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> MatchStart:
        kind = cls.TYPE
        sides = _side_map(obj.get("sides", {}), kind, "sides")
        rules = obj.get("rules")
        if rules is not None and not isinstance(rules, Mapping):
            raise EventError(f"match: field 'rules' must be an object, got {_shown(rules)}")
        if rules:
            from referee_station.table.config import RulesConfig  # config imports this module

            RulesConfig.from_mapping(rules)  # an unknown or mistyped setting is this line's error
        if any(not isinstance(name, str) for name in sides.values()):
            raise EventError(f"match: field 'sides' must map EW and NS to names, got {_shown(sides)}")
        levels = obj.get("levels")
        if levels is not None:
            levels = {side: _level(v, kind, f"levels.{side}") for side, v in _side_map(levels, kind, "levels").items()}
        level = _level(obj["level"], kind, "level") if obj.get("level") is not None else None
        event = obj.get("event")
        if event is not None and not isinstance(event, str):
            raise EventError(f"match: field 'event' must be the event's name, got {_shown(event)}")
        round_no = _int(obj["round"], kind, "round", 1, 999) if obj.get("round") is not None else None
        players = obj.get("players")
        if players is not None:
            players = {side: _names(names, side) for side, names in _side_map(players, kind, "players").items()}
        return cls(
            _time(obj, kind), dict(sides), dict(rules) if rules else None, levels, level, event, round_no, players
        )


def _names(value: Any, side: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise EventError(f"match: field 'players.{side}' must be a list of names, got {_shown(value)}")
    return tuple(value)


@dataclass(frozen=True)
class DealStart(Record):
    """All cards are picked up (R-DEAL-1); ``hands`` when the dealt hands are known."""

    TYPE: ClassVar[str] = "deal"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"first_leader", "hands"})
    first_leader: Seat | None = None
    hands: dict[Seat, tuple[Card, ...]] | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DealStart:
        kind = cls.TYPE
        leader = _seat(obj, kind, "first_leader") if obj.get("first_leader") is not None else None
        hands = obj.get("hands")
        if hands is not None:
            if not isinstance(hands, Mapping) or set(hands) - set(SEATS):
                raise EventError(f"deal: field 'hands' must map seats E S W N to card lists, got {_shown(hands)}")
            hands = {Seat(seat): _cards(cards, kind, f"hands.{seat}") for seat, cards in hands.items()}
        return cls(_time(obj, kind), leader, hands)


@dataclass(frozen=True)
class Exchange(Record):
    """One card handed over in the tribute exchange: the shared shape of ``tribute`` and ``return``
    (neither is the other: ask for :class:`Exchange` to mean both). Read by the camera, it carries the
    read's ``confidence`` and ``alternatives`` as a one-card play does (``PlayCards``), so that a doubtful
    tribute is judged under its close readings rather than penalised as read."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"confidence", "alternatives"})
    seat: Seat = Seat.E
    card: Card = Card.ALL[0]
    confidence: float | None = None
    alternatives: tuple[tuple[tuple[Card, float], ...], ...] | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The card as a play's cards: what a doubtful read is judged and settled as."""
        return (self.card,)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Exchange:
        kind = cls.TYPE
        return cls(
            _time(obj, kind),
            _seat(obj, kind),
            _card(_need(obj, "card", kind), kind, "card"),
            _confidence(obj.get("confidence"), kind),
            _alternatives(obj.get("alternatives"), 1, kind),
        )


@dataclass(frozen=True)
class Tribute(Exchange):
    """A seat pays tribute (R-TRIB-1/2); a second one before play replaces a wrong one."""

    TYPE: ClassVar[str] = "tribute"


@dataclass(frozen=True)
class Return(Exchange):
    """A seat returns a card to the one who paid it tribute (R-TRIB-1)."""

    TYPE: ClassVar[str] = "return"


@dataclass(frozen=True)
class PlayCards(Record):
    """Cards put down in the seat's play area, left to right as laid (R-PLAY-4).

    ``declared`` is the EVENTS.md ``as`` field (R-WILD-3); ``confidence`` comes from the vision
    tracker when a read is uncertain, so the referee asks for a look instead of penalising;
    ``alternatives`` are the reader's top readings of each card, best first, as (card, probability),
    so that a doubtful card can be settled by the game's knowledge or by the referee in one click."""

    TYPE: ClassVar[str] = "play"
    JSON_NAMES: ClassVar[dict[str, str]] = {"declared": "as"}
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"declared", "confidence", "alternatives"})
    seat: Seat = Seat.E
    cards: tuple[Card, ...] = ()
    declared: dict[str, Any] | None = None
    confidence: float | None = None
    alternatives: tuple[tuple[tuple[Card, float], ...], ...] | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> PlayCards:
        kind = cls.TYPE
        cards = _cards(_need(obj, "cards", kind), kind, "cards")
        if not cards:
            raise EventError("play: field 'cards' is empty (a pass is its own event)")
        declared = obj.get("as")
        if declared is not None and (not isinstance(declared, Mapping) or "kind" not in declared):
            raise EventError(f"play: field 'as' must be an object with 'kind' (and 'key'), got {_shown(declared)}")
        return cls(
            _time(obj, kind),
            _seat(obj, kind),
            cards,
            dict(declared) if declared else None,
            _confidence(obj.get("confidence"), kind),
            _alternatives(obj.get("alternatives"), len(cards), kind),
        )


def _probability(value: Any) -> float | None:
    """``value`` as a probability 0..1, or None when it is not one."""
    number = _number(value)
    return number if number is not None and 0.0 <= number <= 1.0 else None


def _confidence(value: Any, kind: str) -> float | None:
    """A read's ``confidence``: a number 0..1, or absent (read for sure)."""
    if value is None:
        return None
    confidence = _probability(value)
    if confidence is None:
        raise EventError(f"{kind}: field 'confidence' must be a number 0..1, got {_shown(value)}")
    return confidence


def _alternatives(value: Any, count: int, kind: str) -> tuple[tuple[tuple[Card, float], ...], ...] | None:
    """A read's ``alternatives``: one non-empty list of ``[code, probability]`` per card laid."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != count:
        raise EventError(
            f"{kind}: field 'alternatives' must be a list of {count} lists (one per card), got {_shown(value)}"
        )
    out: list[tuple[tuple[Card, float], ...]] = []
    for i, card in enumerate(value):
        if not isinstance(card, list) or not card:
            raise EventError(
                f"{kind}: alternatives[{i}] must be a non-empty list of [code, probability], got {_shown(card)}"
            )
        pairs: list[tuple[Card, float]] = []
        for pair in card:
            if not isinstance(pair, list) or len(pair) != 2:
                raise EventError(f"{kind}: alternatives[{i}] holds {_shown(pair)}, not [code, probability]")
            p = _probability(pair[1])
            if p is None:
                raise EventError(f"{kind}: alternatives[{i}] probability must be a number 0..1, got {_shown(pair[1])}")
            pairs.append((_card(pair[0], kind, f"alternatives[{i}]"), p))
        out.append(tuple(pairs))
    return tuple(out)


@dataclass(frozen=True)
class Pass(Record):
    """The pass button (or a referee entry) for a seat (R-PLAY-1)."""

    TYPE: ClassVar[str] = "pass"
    seat: Seat = Seat.E

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Pass:
        return cls(_time(obj, cls.TYPE), _seat(obj, cls.TYPE))


@dataclass(frozen=True)
class Report(Record):
    """报牌: the seat states its number of cards left (R-REPORT-1)."""

    TYPE: ClassVar[str] = "report"
    seat: Seat = Seat.E
    count: int = 0

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Report:
        count = _int(_need(obj, "count", cls.TYPE), cls.TYPE, "count", 0, 27)
        return cls(_time(obj, cls.TYPE), _seat(obj, cls.TYPE), count)


@dataclass(frozen=True)
class Moment(Record):
    """An event that is only its time: the shared shape of ``clear`` and ``tick`` (neither is the other)."""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Moment:
        return cls(_time(obj, cls.TYPE))


@dataclass(frozen=True)
class Clear(Moment):
    """The trick's cards went to the discard areas (informational, R-PLAY-4)."""

    TYPE: ClassVar[str] = "clear"


@dataclass(frozen=True)
class Tick(Moment):
    """Time passes; lets overtime be found when nothing else happens (R-TIME-3)."""

    TYPE: ClassVar[str] = "tick"


HEALTH_STATES = frozenset({"ok", "lost", "frozen", "dark", "moved", "offline"})


@dataclass(frozen=True)
class Health(Record):
    """A source of the table went away or came back (informational, like ``clear``): logged so that a
    ruling made while the camera was away can be judged later with that known; the referee ignores it."""

    TYPE: ClassVar[str] = "health"
    unit: Unit = Unit.CAMERA
    state: str = "ok"
    detail: str = ""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Health:
        kind = cls.TYPE
        unit, state, detail = _need(obj, "unit", kind), _need(obj, "state", kind), obj.get("detail", "")
        if not isinstance(unit, str) or unit not in tuple(Unit):
            raise EventError(f"health: field 'unit' must be one of {' '.join(Unit)}, got {_shown(unit)}")
        if state not in HEALTH_STATES:
            raise EventError(f"health: field 'state' must be one of {' '.join(sorted(HEALTH_STATES))}, got {state!r}")
        if not isinstance(detail, str):
            raise EventError(f"health: field 'detail' must be text, got {detail!r}")
        return cls(_time(obj, kind), Unit(unit), state, detail)


@dataclass(frozen=True)
class Ruling(Record):
    """The referee confirms or dismisses a flag; ``stop_next``: the violator's 下家 stops the
    violator's next play (R-PEN infraction consequence)."""

    TYPE: ClassVar[str] = "ruling"
    flag: int = 0
    decision: Decision = Decision.CONFIRM
    stop_next: bool = False

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Ruling:
        kind = cls.TYPE
        flag = _int(_need(obj, "flag", kind), kind, "flag", 1, 10**9)
        decision = _need(obj, "decision", kind)
        if not isinstance(decision, str) or decision not in DECISIONS:
            raise EventError(f"ruling: field 'decision' must be confirm or dismiss, got {_shown(decision)}")
        stop_next = obj.get("stop_next", False)
        if not isinstance(stop_next, bool):
            raise EventError(f"ruling: field 'stop_next' must be true or false, got {_shown(stop_next)}")
        return cls(_time(obj, kind), flag, Decision(decision), stop_next)


@dataclass(frozen=True)
class TimeCall(Record):
    """The head referee called time for the round (R-MATCH-1), stamped with the table's clock when the
    call reached the station: the deal in progress is finished, no new deal starts, and with no deal
    in progress the match ends at once. ``round`` is the event's round number (0: not named)."""

    TYPE: ClassVar[str] = "time_call"
    round: int = 0

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TimeCall:
        return cls(_time(obj, cls.TYPE), _int(obj.get("round", 0), cls.TYPE, "round", 0, 10**6))


@dataclass(frozen=True)
class Sign(Record):
    """One side signs the match's result at the station (the score sheet, seed 003 十三): the event
    counts a result once both sides signed it. Informational for the table's referee."""

    TYPE: ClassVar[str] = "sign"
    side: Side = Side.EW

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Sign:
        side = _need(obj, "side", cls.TYPE)
        if not isinstance(side, str) or side not in SIDES:
            raise EventError(f"sign: field 'side' must be EW or NS, got {_shown(side)}")
        return cls(_time(obj, cls.TYPE), Side(side))


def _reason(obj: Mapping[str, Any], kind: str) -> str:
    reason = obj.get("reason", "")
    if not isinstance(reason, str) or len(reason) > 500:
        raise EventError(f"{kind}: field 'reason' must be text of at most 500 characters, got {_shown(reason)}")
    return reason


@dataclass(frozen=True)
class Settle(Record):
    """A correction: the play, tribute or return that ``seat`` made at table time ``at`` was really
    ``cards`` (a doubtful read settled, a manual entry fixing a read, a wrong tribute entered late).
    The referee's outputs from that point are recomputed by replaying the log with it (docs/corrections.md)."""

    TYPE: ClassVar[str] = "settle"
    at: float = 0.0
    seat: Seat = Seat.E
    cards: tuple[Card, ...] = ()
    reason: str = ""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Settle:
        kind = cls.TYPE
        at = _number(_need(obj, "at", kind))
        if at is None or at < 0:
            raise EventError(f"settle: field 'at' must be the table time of the event settled, got {_shown(obj['at'])}")
        cards = _cards(_need(obj, "cards", kind), kind, "cards")
        if not cards:
            raise EventError("settle: field 'cards' is empty")
        return cls(_time(obj, kind), at, _seat(obj, kind), cards, _reason(obj, kind))


@dataclass(frozen=True)
class Reverse(Record):
    """A ruling reversed with a reason: the last ruling on ``flag`` counts as the other decision, and
    the ladder, the deals and the score are recomputed from the log (R-PEN; docs/corrections.md)."""

    TYPE: ClassVar[str] = "reverse"
    flag: int = 0
    reason: str = ""

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Reverse:
        kind = cls.TYPE
        reason = _reason(obj, kind)
        if not reason.strip():
            raise EventError("reverse: field 'reason' is needed: a ruling is reversed for a stated reason")
        return cls(_time(obj, kind), _int(_need(obj, "flag", kind), kind, "flag", 1, 10**9), reason)


TIMER_ACTIONS = ("pause", "resume", "add")


@dataclass(frozen=True)
class TimerControl(Record):
    """The referee pauses the table's clocks (a ruling is pending), resumes them, or gives a seat
    ``seconds`` more on its running clock (R-TIME: the referee may stop and extend the time)."""

    TYPE: ClassVar[str] = "timer"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"seat", "seconds"})
    action: str = "pause"
    seat: Seat | None = None
    seconds: float | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TimerControl:
        kind = cls.TYPE
        action = _need(obj, "action", kind)
        if action not in TIMER_ACTIONS:
            raise EventError(f"timer: field 'action' must be one of {', '.join(TIMER_ACTIONS)}, got {_shown(action)}")
        if action != "add":
            if "seat" in obj or "seconds" in obj:
                raise EventError(f"timer: {action} takes no seat or seconds")
            return cls(_time(obj, kind), action)
        seconds = _number(_need(obj, "seconds", kind))
        if seconds is None or not 0 < seconds <= 3600:
            raise EventError(
                f"timer: field 'seconds' must be a number of seconds in (0, 3600], got {_shown(obj['seconds'])}"
            )
        return cls(_time(obj, kind), action, _seat(obj, kind), seconds)


# ---------------------------------------------------------------------------------------------
# Outputs


@dataclass(frozen=True)
class Output(Record):
    """A record written by the referee, not by a source."""

    IS_INPUT: ClassVar[bool] = False

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Output:
        """Every field of the output is checked against its type hint: a missing or mistyped one is
        this line's error, so a half-read ``deal_end`` never reaches the register or a result."""
        values: dict[str, Any] = {"t": _time(obj, cls.TYPE)}
        hints = get_type_hints(cls)
        for f in fields(cls):
            if f.name == "t":
                continue
            name = cls.JSON_NAMES.get(f.name, f.name)
            if name not in obj:
                if f.name not in cls.OPTIONAL:
                    raise EventError(f"{cls.TYPE}: missing field {name!r}")
                values[f.name] = f.default if f.default is not MISSING else None
                continue
            values[f.name] = _typed(obj[name], hints[f.name], f"{cls.TYPE}: field {name!r}")
        return cls(**values)


def _typed(value: Any, hint: Any, where: str) -> Any:
    """``value`` checked against a field's type hint (str, int, float, bool, None, a core enum, Card,
    tuple[X, ...], dict[str, X] and unions of them); JSON lists become tuples."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        for option in get_args(hint):
            try:
                return _typed(value, option, where)
            except EventError:
                continue
        raise EventError(f"{where} must be {_hint_name(hint)}, got {_shown(value)}")
    if hint is type(None):
        if value is None:
            return None
    elif hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT:
            return value
    elif hint is float:
        number = _number(value)
        if number is not None:
            return number
    elif hint is str:
        if isinstance(value, str):
            return value
    elif isinstance(hint, type) and issubclass(hint, StrEnum):
        if isinstance(value, str) and value in tuple(hint):
            return hint(value)
    elif hint is Card:
        if isinstance(value, str):
            try:
                return Card.parse(value)
            except RulesError:
                pass
    elif hint is Any:
        return value
    elif origin is tuple:
        if isinstance(value, list):
            item = get_args(hint)[0]
            return tuple(_typed(v, item, where) for v in value)
    elif origin is dict:
        if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
            item = get_args(hint)[1]
            return {k: _typed(v, item, where) for k, v in value.items()}
    else:
        raise TypeError(f"no check for type hint {hint!r}")  # a new output field needs one here
    raise EventError(f"{where} must be {_hint_name(hint)}, got {_shown(value)}")


def _hint_name(hint: Any) -> str:
    if hint is type(None):
        return "null"
    if get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_hint_name(option) for option in get_args(hint))
    if get_origin(hint) is tuple:
        return f"a list of {_hint_name(get_args(hint)[0])}"
    if get_origin(hint) is dict:
        return f"an object of {_hint_name(get_args(hint)[1])}"
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return "one of " + " ".join(hint)
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string", Card: "a card code"}[hint]


@dataclass(frozen=True)
class Flag(Output):
    """A proposed penalty or an anomaly (EVENTS.md offence codes), with the rule it cites; ``cause``:
    the doubtful read (its ``uncertain_read`` flag) pending when a strange event was raised, so the
    alert queue groups it there."""

    TYPE: ClassVar[str] = "flag"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"cards", "cause"})
    id: int = 0
    seat: Seat | None = None
    side: Side | None = None
    offence: str = ""
    rule: str = ""
    penalty: Rung = Rung.ANOMALY
    detail: str = ""
    detail_zh: str = ""
    cards: tuple[Card, ...] | None = None
    cause: int | None = None


@dataclass(frozen=True)
class Penalty(Output):
    """A confirmed step on a side's penalty ladder, escalations included (R-PEN)."""

    TYPE: ClassVar[str] = "penalty"
    side: Side = Side.EW
    penalty: Rung = Rung.WARNING
    reason: str = ""
    flags: tuple[int, ...] = ()


@dataclass(frozen=True)
class Countdown(Output):
    """A clock started for a seat (R-TIME); also sent to the timer device."""

    TYPE: ClassVar[str] = "countdown"
    seat: Seat = Seat.E
    action: Clock = Clock.LEAD
    limit: float = 0.0
    deadline: float = 0.0


@dataclass(frozen=True)
class DealEnd(Output):
    """The result of a deal (R-PLAY-3, R-UP-1/2)."""

    TYPE: ClassVar[str] = "deal_end"
    deal: int = 0
    order: tuple[Seat | None, ...] = ()
    side_up: Side | None = None
    levels_up: int = 0
    levels: dict[str, str] = field(default_factory=dict)
    next_level: str = "2"
    foul: bool = False


@dataclass(frozen=True)
class MatchEnd(Output):
    """The result of a match (R-MATCH-1/2)."""

    TYPE: ClassVar[str] = "match_end"
    winner: str = "draw"
    levels: dict[str, str] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    level_diff_points: dict[str, int] = field(default_factory=dict)
    levels_gained: dict[str, int] = field(default_factory=dict)
    levels_conceded: dict[str, int] = field(default_factory=dict)
    reason: str = ""


@dataclass(frozen=True)
class Reading(Output):
    """How the referee reads a play whose readings differ in kind (R-WILD-3, R-PAT-11;
    docs/ambiguous-plays.md): ``open`` when the undeclared lead is laid, naming every reading a
    follow may beat; ``fixed`` when the first follow that beats one (``by``) settles ``kind`` ``key``."""

    TYPE: ClassVar[str] = "reading"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"kind", "key", "by"})
    seat: Seat = Seat.E
    cards: tuple[Card, ...] = ()
    status: str = "open"
    readings: tuple[dict[str, str], ...] = ()
    kind: str | None = None
    key: str | None = None
    by: Seat | None = None


@dataclass(frozen=True)
class Withdrawn(Output):
    """An output that no longer holds after a correction (``settle``, ``reverse``): the replayed log
    does not give it. ``record`` is the withdrawn output as it was sent; ``flag`` its flag id (a flag,
    or the flag a penalty step came from). Never silent: this line is the audit trail."""

    TYPE: ClassVar[str] = "withdrawn"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"flag"})
    what: str = ""
    reason: str = ""
    record: dict[str, Any] = field(default_factory=dict)
    flag: int | None = None


INPUT_TYPES: dict[str, type[Record]] = {
    cls.TYPE: cls
    for cls in (
        MatchStart, DealStart, Tribute, Return, PlayCards, Pass, Report, Clear, Tick, Health, Ruling, TimeCall, Sign,
        Settle, Reverse, TimerControl,
    )
}  # fmt: skip
OUTPUT_TYPES: dict[str, type[Record]] = {
    cls.TYPE: cls for cls in (Flag, Penalty, Countdown, DealEnd, MatchEnd, Reading, Withdrawn)
}
RECORD_TYPES: dict[str, type[Record]] = INPUT_TYPES | OUTPUT_TYPES

InputEvent = (
    MatchStart
    | DealStart
    | Tribute
    | Return
    | PlayCards
    | Pass
    | Report
    | Clear
    | Tick
    | Health
    | Ruling
    | TimeCall
    | Sign
    | Settle
    | Reverse
    | TimerControl
)


def parse_record(obj: Any) -> Record:
    """Read one log record (input event or output) from its JSON object."""
    if not isinstance(obj, Mapping):
        raise EventError(f"a log line must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    cls = RECORD_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {_shown(kind)}; expected one of {', '.join(RECORD_TYPES)}")
    return cls.from_json(obj)


def parse_line(line: str) -> Record:
    """Read one JSON line of a table log; :class:`EventError` says what is wrong with it.

    Whatever the line holds (an integer of 5,000 digits, arrays nested 50,000 deep, a lone UTF-16
    surrogate that no file or database could store again) ends as an :class:`EventError`, so a
    reader can skip the line with its number and go on."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise EventError(f"not JSON: {err.msg} at column {err.colno}") from err
    except ValueError as err:  # an integer past Python's digit limit
        raise EventError("not JSON: a number of more than 4300 digits") from err
    except RecursionError as err:
        raise EventError(f"nested deeper than {MAX_DEPTH} levels") from err
    _check_tree(obj)
    return parse_record(obj)


def _check_tree(obj: Any) -> None:
    """Depth at most :data:`MAX_DEPTH` and no lone surrogate in any string, walked without recursion."""
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if _LONE_SURROGATE.search(value):
                raise EventError(f"a string holds a lone UTF-16 surrogate: {_shown(value)}")
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth >= MAX_DEPTH:
            raise EventError(f"nested deeper than {MAX_DEPTH} levels")
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items)
