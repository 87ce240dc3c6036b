"""The alert queue: every flag the referees of the hall raised, waiting for a ruling.

A flag is a proposal (DESIGN.md: the referee decides); answering it produces the ``ruling``
event of EVENTS.md that goes back to that table's referee, which then climbs the ladder
(RULES.md section 9). For an infraction the violator's 下家 may choose to stop the violator's
next play, sent as ``stop_next``. Unanswered alerts stay in the queue; answered ones move to the
penalty register. Pending alerts are kept most severe first, then oldest first (``SEVERITY``), so
the head referee's one queue over the whole hall shows what matters most at the top. A flag ruled
elsewhere (at its table, or by another head console) leaves the queue when that ``ruling`` arrives.
With ``auto_confirm`` (the headless demo) the referee confirmed the flag itself
and the alert arrives answered by ``auto``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee_station.console.models.i18n import tr
from referee_station.console.models.signal import Signal
from referee_station.console.models.update import TableUpdate
from referee_station.table.events import NEXT_SEAT, Flag, Ruling

SEVERITY: tuple[str, ...] = ("anomaly", "warning", "infraction", "foul", "match_loss", "disqualification")
"""Proposed penalties, least severe first (RULES.md section 9; an anomaly is not a penalty)."""

AlertKey = tuple[str, int]
"""(table, flag id): flag ids count per table log."""


@dataclass
class Alert:
    """One flag of one table, with the camera frame of that moment and its ruling once made."""

    table: str
    flag: Flag
    raised: float
    """``time.monotonic()`` when the referee raised it (flag-to-screen latency starts here)."""
    frame: Any = None
    decision: str | None = None
    stop_next: bool = False
    who: str | None = None

    @property
    def key(self) -> AlertKey:
        return (self.table, self.flag.id)

    @property
    def rank(self) -> tuple[int, float, str, int]:
        """Queue order: most severe first, then oldest first (then table and flag, for ties)."""
        severity = SEVERITY.index(self.flag.penalty) if self.flag.penalty in SEVERITY else 0
        return (-severity, self.raised, self.table, self.flag.id)

    @property
    def can_stop_next(self) -> bool:
        """Only an infraction gives the 下家 the choice to stop the violator's next play."""
        return self.flag.penalty == "infraction" and self.flag.seat is not None

    @property
    def next_seat(self) -> str | None:
        return NEXT_SEAT[self.flag.seat] if self.flag.seat else None

    def text(self, lang: str, *, table: bool = True) -> str:
        """The flag in words: the table (unless a column shows it), the seat, the offence and the
        proposed penalty."""
        seat = tr(self.flag.seat, lang) if self.flag.seat else "—"
        where = f"{self.table} " if table else ""
        if lang == "zh":
            return f"{where}{seat}：{self.flag.detail_zh} → {tr(self.flag.penalty, lang)}"
        return f"{where}{seat}: {self.flag.detail} → {tr(self.flag.penalty, lang)}"


class AlertQueue:
    """Pending and answered alerts of the whole hall.

    Signals: ``added(alert)`` for a new pending alert, ``answered(alert)`` when it leaves the queue,
    ``framed(alert)`` when its camera frame arrives after it (the head console's evidence).
    """

    def __init__(self) -> None:
        self.pending: list[Alert] = []
        self.answered: list[Alert] = []
        self.added = Signal()
        self.answered_signal = Signal()
        self.framed = Signal()

    def apply(self, update: TableUpdate) -> None:
        if isinstance(update.event, Ruling):
            self._ruled_elsewhere(update.table, update.event, update.who)
        open_ids = set(update.snapshot.get("open_flags", []))
        for out in update.outputs:
            if not isinstance(out, Flag):
                continue
            alert = Alert(update.table, out, update.produced, update.frame)
            if out.penalty != "anomaly" and out.id not in open_ids:  # the referee auto-confirmed it
                alert.decision, alert.who = "confirm", "auto"
                self.answered.append(alert)
                self.answered_signal.emit(alert)
            else:
                self.pending.insert(self.position(alert), alert)
                self.added.emit(alert)

    def position(self, alert: Alert) -> int:
        """Where ``alert`` stands (or would stand) in ``pending``, which is kept in ``rank`` order."""
        return sum(1 for other in self.pending if other is not alert and other.rank < alert.rank)

    def attach_frame(self, key: AlertKey, frame: Any) -> bool:
        """Give an alert (pending or answered) the camera frame that arrived after it."""
        alert = next((a for a in self.pending + self.answered if a.key == key), None)
        if alert is None:
            return False
        alert.frame = frame
        self.framed.emit(alert)
        return True

    def reopen(self, key: AlertKey) -> None:
        """Put an answered alert back in the queue: its ruling could not be sent."""
        alert = next((a for a in self.answered if a.key == key), None)
        if alert is None:
            return
        self.answered.remove(alert)
        alert.decision, alert.who, alert.stop_next = None, None, False
        self.pending.insert(self.position(alert), alert)
        self.added.emit(alert)

    def _ruled_elsewhere(self, table: str, ruling: Ruling, who: str) -> None:
        alert = self.get((table, ruling.flag))
        if alert is None:
            return
        alert.decision, alert.who, alert.stop_next = ruling.decision, who, ruling.stop_next
        self.pending.remove(alert)
        self.answered.append(alert)
        self.answered_signal.emit(alert)

    def get(self, key: AlertKey) -> Alert | None:
        return next((a for a in self.pending if a.key == key), None)

    def answer(self, key: AlertKey, decision: str, who: str, t: float, *, stop_next: bool = False) -> Ruling:
        """Rule on a pending alert at table time ``t``; returns the ``ruling`` event for its table."""
        alert = self.get(key)
        if alert is None:
            raise KeyError(f"no pending alert {key}")
        if decision not in ("confirm", "dismiss"):
            raise ValueError(f"decision must be confirm or dismiss, got {decision!r}")
        alert.decision, alert.who = decision, who
        alert.stop_next = stop_next and decision == "confirm" and alert.can_stop_next
        self.pending.remove(alert)
        self.answered.append(alert)
        self.answered_signal.emit(alert)
        return Ruling(t=t, flag=alert.flag.id, decision=decision, stop_next=alert.stop_next)

    def next_key(self, after: AlertKey | None) -> AlertKey | None:
        """The pending alert after ``after`` (wrapping round), for the "next alert" shortcut."""
        if not self.pending:
            return None
        keys = [a.key for a in self.pending]
        if after not in keys:
            return keys[0]
        return keys[(keys.index(after) + 1) % len(keys)]
