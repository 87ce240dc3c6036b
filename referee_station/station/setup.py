"""The match setup a station needs before the first deal: the sides, the rules, the levels and the
first deal's first leader (seed 004 §03: the seat of the card turned at the first deal).

A headless station reads it from a JSON file (``--setup``); the station console fills it in a dialog.
It becomes the log's ``match`` line (EVENTS.md); the first ``deal`` line carries the leader.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee_station.table.config import RulesConfig
from referee_station.table.events import SEATS, SIDES, EventError, MatchStart, parse_record

SETUP_FIELDS = frozenset({"sides", "rules", "levels", "leader", "event", "round", "players"})


class SetupError(ValueError):
    """A match setup that cannot start a match; the message names the field (and the file)."""


@dataclass(frozen=True)
class MatchSetup:
    """What the referee enters before play: ``sides`` {EW, NS: names}, ``rules`` (RulesConfig
    settings and ``variants`` V-1…V-5), optional starting ``levels`` {EW, NS}, the first ``leader``;
    for the record sheet (seed 003 十三) optionally the ``event``'s name, the ``round`` and the ``players``."""

    sides: dict[str, str]
    leader: str
    rules: dict[str, Any] = field(default_factory=dict)
    levels: dict[str, str] | None = None
    event: str | None = None
    round: int | None = None
    players: dict[str, list[str]] | None = None

    def __post_init__(self) -> None:
        if set(self.sides) != set(SIDES) or not all(isinstance(v, str) and v.strip() for v in self.sides.values()):
            raise SetupError(f"setup: 'sides' must name both EW and NS, got {self.sides!r}")
        if self.leader not in SEATS:
            raise SetupError(f"setup: 'leader' must be one of {' '.join(SEATS)}, got {self.leader!r}")
        try:
            RulesConfig.from_mapping(self.rules)
            self.match_record(0.0)
        except (EventError, TypeError) as err:
            raise SetupError(f"setup: {err}") from err

    @classmethod
    def from_mapping(cls, data: Any) -> MatchSetup:
        if not isinstance(data, Mapping):
            raise SetupError(f"setup: expected a JSON object, got {type(data).__name__}")
        unknown = set(data) - SETUP_FIELDS
        if unknown:
            known = ", ".join(sorted(SETUP_FIELDS))
            raise SetupError(f"setup: unknown field(s) {', '.join(sorted(unknown))}; known: {known}")
        if "sides" not in data or "leader" not in data:
            raise SetupError("setup: 'sides' and 'leader' are required")
        sides, rules, levels = data["sides"], data.get("rules") or {}, data.get("levels")
        if not isinstance(sides, Mapping) or not isinstance(rules, Mapping):
            raise SetupError("setup: 'sides' and 'rules' must be objects")
        if levels is not None and not isinstance(levels, Mapping):
            raise SetupError(f"setup: 'levels' must map EW and NS to levels, got {levels!r}")
        return cls(
            {str(k): v for k, v in sides.items()},
            data["leader"],
            dict(rules),
            None if levels is None else {str(k): str(v) for k, v in levels.items()},
            data.get("event"),
            data.get("round"),
            data.get("players"),
        )

    @classmethod
    def load(cls, path: Path | str) -> MatchSetup:
        """Read a setup file; :class:`SetupError` names the file and what is wrong."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise SetupError(f"setup file {path}: {err}") from err
        try:
            return cls.from_mapping(data)
        except SetupError as err:
            raise SetupError(f"setup file {path}: {err}") from err

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sides": dict(self.sides), "leader": self.leader, "rules": dict(self.rules)}
        if self.levels:
            out["levels"] = dict(self.levels)
        for name in ("event", "round", "players"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out

    def match_record(self, t: float) -> MatchStart:
        """The log's ``match`` line for this setup (validated like any log line)."""
        line: dict[str, Any] = {"t": t, "type": "match", "sides": self.sides}
        if self.rules:
            line["rules"] = self.rules
        if self.levels:
            line["levels"] = self.levels
        for name in ("event", "round", "players"):
            if getattr(self, name) is not None:
                line[name] = getattr(self, name)
        record = parse_record(line)
        assert isinstance(record, MatchStart)
        return record
