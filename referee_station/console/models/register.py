"""The penalty register per match and side, the ladder state, and the audit trail of rulings.

Every confirmed step of the ladder (RULES.md section 9) is a ``penalty`` output of the table's
referee; the register lists them per table and side. The audit trail records who ruled on what,
when, and what the ruling changed on the ladder, so a ruling can be checked after the match.
Manual entries by a referee are audited the same way (they replace what the camera saw).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from referee_station.console.models.signal import Signal
from referee_station.console.models.update import TABLE_SOURCES, TableUpdate
from referee_station.table.events import SIDES, Flag, Penalty, Reverse, Ruling, Withdrawn


@dataclass(frozen=True)
class AuditEntry:
    """One ruling or manual entry: who, when (wall and table clock), what, what changed."""

    when: str
    table: str
    t: float
    who: str
    what: str
    changed: str


def _utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def ladder_change(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> str:
    """The rungs that moved, e.g. ``EW warning 1→2, EW infraction 0→1``."""
    parts = []
    for side in SIDES:
        for rung, count in after.get(side, {}).items():
            old = before.get(side, {}).get(rung, 0)
            if count != old:
                parts.append(f"{side} {rung} {old}→{count}")
    return ", ".join(parts)


class PenaltyRegister:
    """Penalties, ladders and audit trail of every table. Signal: ``changed(table)``."""

    def __init__(self, clock: Callable[[], str] = _utc_now) -> None:
        self.clock = clock
        self.penalties: dict[str, list[Penalty]] = {}
        self.ladders: dict[str, dict[str, dict[str, int]]] = {}
        self.audit: list[AuditEntry] = []
        self.changed = Signal()

    def side_penalties(self, table: str, side: str) -> list[Penalty]:
        return [p for p in self.penalties.get(table, []) if p.side == side]

    def apply(self, update: TableUpdate) -> None:
        before = self.ladders.get(update.table, {})
        after: dict[str, Any] = update.snapshot.get("ladder", before)
        self.ladders[update.table] = after
        steps = [o for o in update.outputs if isinstance(o, Penalty)]
        listed = self.penalties.setdefault(update.table, [])
        for gone in (o for o in update.outputs if isinstance(o, Withdrawn) and o.what == "penalty"):
            match = next((p for p in listed if p.to_json() == gone.record), None)
            if match is not None:
                listed.remove(match)
                steps.append(match)  # the register changed
        listed.extend(o for o in update.outputs if isinstance(o, Penalty))
        ev = update.event
        change = ladder_change(before, after)
        if isinstance(ev, Reverse):
            self._audit(update, update.who, f"reverse flag {ev.flag}: {ev.reason}", change or "no change")
        elif isinstance(ev, Ruling):
            what = f"{ev.decision} flag {ev.flag}" + (" (stop next)" if ev.stop_next else "")
            self._audit(update, update.who, what, change or "no change")
        elif update.who not in TABLE_SOURCES:
            raised = [f"flag {o.id} {o.offence}" for o in update.outputs if isinstance(o, Flag)]
            self._audit(update, update.who, f"manual {ev.to_line()}", ", ".join(raised) or "accepted")
        for flag in (o for o in update.outputs if isinstance(o, Flag)):
            if flag.penalty != "anomaly" and flag.id not in update.snapshot.get("open_flags", []):
                self._audit(update, "auto", f"confirm flag {flag.id} {flag.offence}", change or "no change")
        if steps or change:
            self.changed.emit(update.table)

    def _audit(self, update: TableUpdate, who: str, what: str, changed: str) -> None:
        self.audit.append(AuditEntry(self.clock(), update.table, update.event.t, who, what, changed))
        self.changed.emit(update.table)
