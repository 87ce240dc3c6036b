"""The event's journal: every change is one action, appended and never edited (seed 003 十三,
seed 004 11: results are confirmed by both sides and corrected by the referee with a reason).

Each action is a frozen dataclass with a ``KIND`` and a JSON form; ``at`` is the time the caller
gives (seconds on the event's clock), and ``by`` who did it, so the journal is the audit trail."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from referee_station.event.pairing import Pairing, Table
from referee_station.event.pairs import Pair
from referee_station.event.rules import EventRules


class JournalError(ValueError):
    """A journal entry that cannot be read (the message names its kind or field)."""


@dataclass(frozen=True)
class Action:
    KIND: ClassVar[str] = ""
    at: float = 0.0
    by: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, **asdict(self)}


@dataclass(frozen=True)
class Created(Action):
    KIND: ClassVar[str] = "created"
    name: str = ""
    seed: int = 0
    """Seeds the round-1 draw and the lot of the last tie-break, so both are reproducible."""
    rules: EventRules = field(default_factory=EventRules)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "at": self.at, "by": self.by, "name": self.name, "seed": self.seed,
                "rules": self.rules.to_json()}  # fmt: skip


@dataclass(frozen=True)
class PairsImported(Action):
    KIND: ClassVar[str] = "pairs_imported"
    pairs: tuple[Pair, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class RoundPaired(Action):
    """The published pairing; later corrections never change it (seed 004 11.4)."""

    KIND: ClassVar[str] = "round_paired"
    pairing: Pairing = field(default_factory=lambda: Pairing(0, ()))


@dataclass(frozen=True)
class RoundStarted(Action):
    KIND: ClassVar[str] = "round_started"
    round: int = 0


@dataclass(frozen=True)
class TimeCalled(Action):
    """The head referee calls time (R-MATCH-1): deals in progress finish, no new one starts."""

    KIND: ClassVar[str] = "time_called"
    round: int = 0


@dataclass(frozen=True)
class ResultReported(Action):
    """A table's result, from the station's ``match_end`` (EVENTS.md) or written in by hand.

    ``station_small`` keeps the station's own ``level_diff_points`` for the audit; the event
    computes 小分 with its own 26-point table."""

    KIND: ClassVar[str] = "result_reported"
    round: int = 0
    table: int = 0
    winner: str = "draw"
    gained: dict[str, int] = field(default_factory=dict)
    station_small: dict[str, int] = field(default_factory=dict)
    reason: str = ""
    source: str = "manual"


@dataclass(frozen=True)
class ResultConfirmed(Action):
    """One side signs the score sheet (seed 003 十三); the result counts once both sides have."""

    KIND: ClassVar[str] = "result_confirmed"
    round: int = 0
    table: int = 0
    side: str = "EW"


@dataclass(frozen=True)
class ResultCorrected(Action):
    """The head referee's correction; it counts at once and needs a reason (seed 004 11)."""

    KIND: ClassVar[str] = "result_corrected"
    round: int = 0
    table: int = 0
    winner: str = "draw"
    gained: dict[str, int] = field(default_factory=dict)
    reason: str = ""


@dataclass(frozen=True)
class Forfeited(Action):
    """A pair forfeits its match (seed 003 十一.3: 15 minutes late); the other pair wins 2 and 17."""

    KIND: ClassVar[str] = "forfeited"
    round: int = 0
    pair: int = 0
    reason: str = ""


ACTIONS: dict[str, type[Action]] = {
    cls.KIND: cls
    for cls in (Created, PairsImported, RoundPaired, RoundStarted, TimeCalled, ResultReported, ResultConfirmed,
                ResultCorrected, Forfeited)
}  # fmt: skip


def _pairing(obj: dict[str, Any]) -> Pairing:
    return Pairing(
        int(obj["round"]),
        tuple(Table(int(t["number"]), int(t["ew"]), int(t["ns"])) for t in obj["tables"]),
        None if obj.get("bye") is None else int(obj["bye"]),
        tuple((int(a), int(b)) for a, b in obj.get("rematches", ())),
        bool(obj.get("repeat_bye", False)),
    )


def action_from_json(obj: dict[str, Any]) -> Action:
    """Rebuild an action from its journal form."""
    kind = obj.get("kind")
    cls = ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise JournalError(f"unknown journal entry kind {kind!r}; expected one of {', '.join(ACTIONS)}")
    values = {k: v for k, v in obj.items() if k != "kind"}
    try:
        if cls is Created:
            values["rules"] = EventRules.from_json(values.get("rules", {}))
        elif cls is PairsImported:
            values["pairs"] = tuple(Pair(int(p["number"]), tuple(p["names"]), p["unit"]) for p in values["pairs"])
        elif cls is RoundPaired:
            values["pairing"] = _pairing(values["pairing"])
        return cls(**values)
    except (KeyError, TypeError, ValueError) as err:
        raise JournalError(f"journal entry {kind!r}: {err}") from err
