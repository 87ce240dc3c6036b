"""Rule settings of a match: time limits, tribute variants, match length (RULES.md, "Variants").

The 2023 Jiangsu rules are the defaults. A ``match`` event's ``rules`` object (or a JSON config
file) overrides fields by name, and ``"variants": ["V-1", "V-3"]`` switches on the seed-003 variants.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from referee_station.table.events import EventError

VARIANTS: dict[str, dict[str, Any]] = {
    "V-1": {"equal_tribute": "upstream_next"},
    "V-2": {"resist_double_each": True},
    "V-3": {"tribute_limit": 20.0, "return_limit": 40.0, "play_limit": 30.0},
    "V-4": {"wrong_play_stops": True},
}
"""Seed-003 variants as field overrides; V-5 (match length) is the ``length`` fields themselves."""


@dataclass(frozen=True)
class RulesConfig:
    """Every setting the referee reads; defaults are the 2023 rules (seed 000)."""

    tribute_limit: float = 20.0
    """R-TIME-1: seconds to pay tribute after the deal."""
    return_limit: float = 40.0
    """R-TIME-1: seconds to return after the tribute."""
    first_lead_limit: float = 40.0
    """R-TIME-2: the first lead after the return (or the deal)."""
    play_limit: float = 20.0
    """R-TIME-2: every later play or pass after the previous action."""
    grace: float = 10.0
    """R-TIME-3: the referee's count-down (读秒) before overtime is a warning."""
    equal_tribute: str = "clockwise"
    """R-TRIB-2a: equal double-down tributes go clockwise; ``upstream_next`` is V-1."""
    resist_double_each: bool = False
    """V-2: in double down, 抗贡 only when each loser holds one big joker."""
    wrong_play_stops: bool = False
    """V-4: out-of-turn or wrong plays stop the violator for one round instead of the ladder."""
    length_deals: int | None = None
    """R-MATCH-1 / V-5: a fixed number of deals."""
    length_minutes: float | None = None
    """R-MATCH-1 / V-5: a fixed time; the deal in progress is finished."""
    reports_heard: bool = True
    """False at a table without seat units: no report can reach the station, so none is demanded and
    R-REPORT-1/2 is left to the floor referee (the station writes it into the match line)."""
    min_confidence: float = 0.9
    """Vision reads below this confidence are held pending and judged under every close reading (#30)."""
    read_margin: float = 0.5
    """A card's alternative reading is close when its probability is within this of the card's best one
    (``play.alternatives``): the readings a doubtful play is judged under (docs/corrections.md)."""
    level_diff_base: int = 13
    """R-MATCH-2a: level difference d gives 13 + d / 13 - d (clipped 0..26)."""
    forfeit_points: tuple[int, int] = (17, 0)
    """R-MATCH-2a: level-difference points of a forfeit."""

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any] | None, base: RulesConfig | None = None) -> RulesConfig:
        """Apply a ``rules`` object; unknown names are an :class:`EventError` naming them."""
        config = base or cls()
        if not rules:
            return config
        known = {f.name: f for f in fields(cls)}
        updates: dict[str, Any] = {}
        variants = rules.get("variants", [])
        if not isinstance(variants, list):
            raise EventError(f"rules: 'variants' must be a list of variant names, got {variants!r}")
        for variant in variants:
            if not isinstance(variant, str):
                raise EventError(f"rules: a variant is a name such as 'V-1', got {variant!r}")
            if variant == "V-5":
                continue
            if variant not in VARIANTS:
                raise EventError(f"rules: unknown variant {variant!r}; known: {', '.join(VARIANTS)}, V-5")
            updates |= VARIANTS[variant]
        for name, value in rules.items():
            if name == "variants":
                continue
            if name not in known:
                raise EventError(f"rules: unknown setting {name!r}")
            updates[name] = _setting(name, getattr(cls(), name), value)
        return replace(config, **updates)

    @classmethod
    def load(cls, path: str | Path) -> RulesConfig:
        """Read a JSON config file of the same shape as a ``match`` event's ``rules``."""
        return cls.from_mapping(json.loads(Path(path).read_text(encoding="utf-8")))


_OPTIONAL_NUMBERS = {"length_deals": int, "length_minutes": float}
"""Settings whose default is None (off) and whose value, when set, is a number of this kind."""


def _setting(name: str, default: Any, value: Any) -> Any:
    """A ``rules`` value checked against its setting's kind, so a string limit is the match line's
    error instead of a crash at the first countdown."""
    kind = _OPTIONAL_NUMBERS.get(name, type(default))
    if value is None and name in _OPTIONAL_NUMBERS:
        return None
    if kind is bool:
        ok = isinstance(value, bool)
    elif kind in (int, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= 10**9
        ok = ok and (kind is float or isinstance(value, int))
    elif kind is tuple:
        ok = isinstance(value, list) and len(value) == len(default)
        ok = ok and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 10**9 for v in value)
        value = tuple(value) if ok else value
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise EventError(f"rules: setting {name!r} must be like {default!r}, got {value!r}")
    return float(value) if kind is float else value
