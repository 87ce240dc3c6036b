"""The event's rules, configurable and stored with the event (seed 003 by default)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from referee_station.event.scoring import DiffTable
from referee_station.hall.clock import RoundClock


class EventConfigError(ValueError):
    """An event setting that is unknown or has a wrong value (the message names it)."""


class System(enum.StrEnum):
    """How rounds after the first are paired (seed 003, 三)."""

    SWISS = "swiss"
    """积分编排: Swiss within score groups, no rematch."""
    KNOCKOUT = "knockout"
    """淘汰赛: the winners go on, the losers are out."""


class FirstRound(enum.StrEnum):
    """How round 1 is drawn (seed 003, 三)."""

    SIGN_IN = "sign_in"
    """In the order the pairs signed in (the CSV's order): 1st v 2nd, 3rd v 4th, …"""
    DRAWN = "drawn"
    """Shuffled with the event's seed, then paired in that order."""


@dataclass(frozen=True)
class EventRules:
    """Everything an event may set differently; the defaults are seed 003's."""

    system: System = System.SWISS
    first_round: FirstRound = FirstRound.SIGN_IN
    rounds: int = 4
    """Seed 003: four rounds of 积分编排."""
    round_minutes: float = 60.0
    """R-MATCH-1: 60 minutes a round; the head may call time earlier."""
    max_deals: int = 9
    """R-MATCH-1: at most 9 deals a match."""
    late_forfeit_minutes: float = 15.0
    """Seed 003 十一.3: a pair not seated this long after the start forfeits (seed 000 says 10)."""
    forfeit_points: int = 2
    """Seed 003 十一.3: a forfeit or a bye gives the other pair 2 match points …"""
    forfeit_small: tuple[int, int] = (17, 0)
    """… and 17 小分 (seed 000: the forfeiting pair 0)."""
    diff_table: DiffTable = field(default_factory=DiffTable)
    """R-MATCH-2a: the 26-point conversion, replaceable by the official one."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["system"], out["first_round"] = str(self.system), str(self.first_round)
        out["forfeit_small"] = list(self.forfeit_small)
        out["diff_table"] = self.diff_table.to_json()
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> EventRules:
        """Read settings (all optional); an unknown name or a bad value is an :class:`EventConfigError`."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise EventConfigError(f"event rules: unknown setting(s) {', '.join(unknown)}; known: {', '.join(known)}")
        values: dict[str, Any] = dict(obj)
        for name, kind in (("system", System), ("first_round", FirstRound)):
            if name in values:
                if values[name] not in set(kind):
                    choices = ", ".join(kind)
                    raise EventConfigError(f"event rules: {name} {values[name]!r} is not one of {choices}")
                values[name] = kind(values[name])
        try:
            if "forfeit_small" in values:
                values["forfeit_small"] = tuple(int(v) for v in values["forfeit_small"])
            if "diff_table" in values:
                values["diff_table"] = DiffTable.from_json(values["diff_table"])
            for name in ("rounds", "max_deals", "forfeit_points"):
                if name in values:
                    values[name] = int(values[name])
            for name in ("round_minutes", "late_forfeit_minutes"):
                if name in values:
                    values[name] = float(values[name])
        except (TypeError, ValueError) as err:
            raise EventConfigError(f"event rules: {err}") from err
        rules = cls(**values)
        if rules.rounds < 1 or rules.max_deals < 1 or rules.round_minutes <= 0:
            raise EventConfigError("event rules: rounds, max_deals and round_minutes must be positive")
        return rules


def forfeits_by_lateness(clock: RoundClock, seated_at: float | None, t: float, rules: EventRules) -> bool:
    """Seed 003 十一.3: a pair not seated ``late_forfeit_minutes`` after the start forfeits.

    ``seated_at`` is when both players sat down (``None``: not yet); ``t`` is now."""
    deadline = clock.start + rules.late_forfeit_minutes * 60
    return (seated_at if seated_at is not None else t) >= deadline
