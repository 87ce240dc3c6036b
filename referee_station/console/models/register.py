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
from enum import Enum
from typing import Any

from referee_station.console.models.i18n import tr
from referee_station.console.models.manual import describe
from referee_station.console.models.signal import Signal
from referee_station.core import Decision
from referee_station.core import Penalty as PenaltyLevel
from referee_station.station.live.update import TABLE_SOURCES, TableUpdate
from referee_station.table.events import SIDES, Flag, Penalty, Record, Reverse, Ruling, Withdrawn

Rung = tuple[str, str, int, int]
"""One rung that moved: side, penalty, count before, count after."""


class AuditKind(Enum):
    """What an audit entry records."""

    RULING = "ruling"
    """A referee confirmed or dismissed a flag."""
    AUTO = "auto"
    """The table's referee confirmed the flag itself (``auto_confirm``)."""
    ENTRY = "entry"
    """A referee's manual entry, in place of what the camera or a seat unit saw."""
    REVERSE = "reverse"
    """A referee reversed a ruling, with a reason (the log is replayed: docs/corrections.md)."""


@dataclass(frozen=True)
class AuditEntry:
    """One ruling or manual entry: who, when (wall clock and table clock), what, what changed.

    Kept as facts, not sentences, so the trail reads in the console's language of the moment."""

    when: str
    table: str
    t: float
    who: str
    kind: AuditKind
    flag: int | None = None
    decision: Decision | None = None
    stop_next: bool = False
    offence: str | None = None
    entry: Record | None = None
    raised: tuple[tuple[int, str], ...] = ()
    """Flags (id, offence) a manual entry raised."""
    change: tuple[Rung, ...] = ()
    reason: str = ""
    """Why a ruling was reversed."""

    def what(self, lang: str = "zh") -> str:
        if self.kind is AuditKind.ENTRY and self.entry is not None:
            return f"{tr('manual', lang)}: {describe(self.entry, lang)}"
        if self.kind is AuditKind.REVERSE:
            return f"{tr('reversed_flag', lang)} #{self.flag}: {self.reason}"
        words = tr(f"ruled_{self.decision}", lang) + f" #{self.flag}"
        if self.offence:
            words += f" {tr(self.offence, lang)}"
        return words + (f" + {tr('stopped', lang)}" if self.stop_next else "")

    def changed(self, lang: str = "zh") -> str:
        if self.kind is AuditKind.ENTRY:
            raised = ", ".join(f"#{i} {tr(offence, lang)}" for i, offence in self.raised)
            return raised or tr("accepted", lang)
        return ladder_words(self.change, lang)


def _utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def ladder_change(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> tuple[Rung, ...]:
    """The rungs that moved between two ladder snapshots, side by side."""
    return tuple(
        (side, rung, before.get(side, {}).get(rung, 0), count)
        for side in SIDES
        for rung, count in after.get(side, {}).items()
        if count != before.get(side, {}).get(rung, 0)
    )


def ladder_words(change: tuple[Rung, ...], lang: str = "zh") -> str:
    """The rungs that moved in words, e.g. ``NS warning 1→2, NS infraction 0→1``."""
    if not change:
        return tr("no_change", lang)
    return ", ".join(f"{tr(side, lang)} {tr(rung, lang)} {old}→{new}" for side, rung, old, new in change)


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
        after = {side: dict(counts) for side, counts in update.snapshot.ladder.items()}
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
            self._audit(update, update.who, AuditKind.REVERSE, flag=ev.flag, reason=ev.reason, change=change)
        elif isinstance(ev, Ruling):
            self._audit(
                update,
                update.who,
                AuditKind.RULING,
                flag=ev.flag,
                decision=ev.decision,
                stop_next=ev.stop_next,
                change=change,
            )
        elif update.who not in TABLE_SOURCES:
            raised = tuple((o.id, o.offence) for o in update.outputs if isinstance(o, Flag))
            self._audit(update, update.who, AuditKind.ENTRY, entry=ev, raised=raised)
        for flag in (o for o in update.outputs if isinstance(o, Flag)):
            if flag.penalty is not PenaltyLevel.ANOMALY and flag.id not in update.snapshot.open_flags:
                self._audit(
                    update,
                    "auto",
                    AuditKind.AUTO,
                    flag=flag.id,
                    decision=Decision.CONFIRM,
                    offence=flag.offence,
                    change=change,
                )
        if steps or change:
            self.changed.emit(update.table)

    def _audit(self, update: TableUpdate, who: str, kind: AuditKind, **facts: Any) -> None:
        self.audit.append(AuditEntry(self.clock(), update.table, update.event.t, who, kind, **facts))
        self.changed.emit(update.table)
