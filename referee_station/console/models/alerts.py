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

Doubtful reads (docs/corrections.md): an ``uncertain_read`` alert of a pending play carries its
readings, settled in one click (``settle``); ``strange_event`` flags that name it as their ``cause``
are grouped under it instead of flooding the queue; a ``withdrawn`` flag leaves the queue with its
reason; an answered alert's ruling can be reversed with a reason (``reverse``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee_station.console.models.i18n import tr
from referee_station.console.models.messages import flag_detail
from referee_station.console.models.signal import Signal
from referee_station.core import DECISIONS, LADDER, Decision, Penalty
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import NEXT_SEAT, Flag, Reverse, Ruling, Settle, Withdrawn

SEVERITY: tuple[Penalty, ...] = (Penalty.ANOMALY, *LADDER)
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
    decision: Decision | None = None
    stop_next: bool = False
    who: str | None = None
    readings: tuple[tuple[str, ...], ...] = ()
    """A pending read's readings, best first (its ``uncertain_read`` flag): what ``settle`` offers."""
    grouped: list[Flag] = field(default_factory=list)
    """Strange events that follow from this doubtful read (their ``cause``)."""
    withdrawn: str | None = None
    """Why the referee withdrew the flag after a correction."""

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
        return self.flag.penalty is Penalty.INFRACTION and self.flag.seat is not None

    @property
    def next_seat(self) -> str | None:
        return NEXT_SEAT[self.flag.seat] if self.flag.seat else None

    def text(self, lang: str, *, table: bool = True) -> str:
        """The flag in words: the table (unless a column shows it), the seat, the offence and the
        proposed penalty."""
        seat = tr(self.flag.seat, lang) if self.flag.seat else "—"
        where = f"{self.table} " if table else ""
        more = f" (+{len(self.grouped)})" if self.grouped else ""
        colon = "：" if lang == "zh" else ": "
        return f"{where}{seat}{colon}{flag_detail(self.flag, lang)} → {tr(self.flag.penalty, lang)}{more}"

    @property
    def can_reverse(self) -> bool:
        """A ruling a referee made (not the demo's automatic one) can be reversed with a reason."""
        return self.decision in DECISIONS and self.who != "auto" and self.withdrawn is None


class AlertQueue:
    """Pending and answered alerts of the whole hall.

    Signals: ``added(alert)`` for a new pending alert, ``answered(alert)`` when it leaves the queue,
    ``framed(alert)`` when its camera frame arrives after it (the head console's evidence),
    ``grouped(alert)`` when a strange event was grouped under it.
    """

    def __init__(self) -> None:
        self.pending: list[Alert] = []
        self.answered: list[Alert] = []
        self.added = Signal()
        self.answered_signal = Signal()
        self.framed = Signal()
        self.grouped = Signal()

    def apply(self, update: TableUpdate) -> None:
        if isinstance(update.event, Ruling):
            self._ruled_elsewhere(update.table, update.event, update.who)
        open_ids = set(update.snapshot.open_flags)
        pending_reads = {p.flag: p.readings for p in update.snapshot.pending}
        for out in update.outputs:
            if isinstance(out, Withdrawn) and out.what == "flag" and out.flag is not None:
                self._withdraw((update.table, out.flag), out.reason)
            if not isinstance(out, Flag):
                continue
            cause = self._find((update.table, out.cause)) if out.cause is not None else None
            if cause is not None and out.offence == "strange_event":
                cause.grouped.append(out)
                self.grouped.emit(cause)
                continue
            alert = Alert(update.table, out, update.produced, update.frame)
            alert.readings = tuple(tuple(cards) for cards in pending_reads.get(out.id, ()))
            if out.penalty is not Penalty.ANOMALY and out.id not in open_ids:  # the referee auto-confirmed it
                alert.decision, alert.who = Decision.CONFIRM, "auto"
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

    def reopen(self, key: AlertKey, kind: str = "ruling") -> None:
        """Put an answered alert back as it was: its ruling (``kind``: or its settle) could not be sent,
        so it waits in the queue again; a reversal that could not be sent leaves the ruling standing."""
        alert = next((a for a in self.answered if a.key == key), None)
        if alert is None:
            return
        if kind == "reverse":
            alert.decision = "dismiss" if alert.decision == "confirm" else "confirm"
            self.answered_signal.emit(alert)
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

    def _find(self, key: AlertKey) -> Alert | None:
        return next((a for a in self.pending + self.answered if a.key == key), None)

    def _withdraw(self, key: AlertKey, reason: str) -> None:
        alert = self._find(key)
        if alert is None:
            return
        alert.withdrawn = reason
        if alert in self.pending:
            self.pending.remove(alert)
            self.answered.append(alert)
        self.answered_signal.emit(alert)

    def settle(self, key: AlertKey, cards: tuple[str, ...], who: str, t: float) -> Settle:
        """Settle a pending read as ``cards`` (one of its readings, or a referee's own entry) at table
        time ``t``: the ``settle`` event for its table, whose replay withdraws what no longer holds."""
        alert = self.get(key)
        if alert is None or alert.flag.offence != "uncertain_read" or alert.flag.seat is None:
            raise KeyError(f"no pending read {key}")
        alert.decision, alert.who = "settle", who
        self.pending.remove(alert)
        self.answered.append(alert)
        self.answered_signal.emit(alert)
        return Settle(t=t, at=alert.flag.t, seat=alert.flag.seat, cards=tuple(cards), reason=f"settled by {who}")

    def correction_flag(self, table: str, correction: Settle | Reverse) -> int:
        """The flag a correction was made on, for the hall's audit: the reversed one, or the
        ``uncertain_read`` of the settled play (0 when the queue never showed it)."""
        if isinstance(correction, Reverse):
            return correction.flag
        return next(
            (
                a.flag.id
                for a in self.pending + self.answered
                if a.table == table
                and a.flag.offence == "uncertain_read"
                and a.flag.seat == correction.seat
                and a.flag.t == correction.at
            ),
            0,
        )

    def reverse(self, key: AlertKey, reason: str, who: str, t: float) -> Reverse:
        """Reverse an answered alert's ruling with a reason (R-PEN): the ``reverse`` event for its table."""
        alert = self._find(key)
        if alert is None or not alert.can_reverse:
            raise KeyError(f"no ruling to reverse on {key}")
        if not reason.strip():
            raise ValueError("a ruling is reversed for a stated reason")
        alert.decision = Decision(alert.decision).other
        alert.who = who
        self.answered_signal.emit(alert)
        return Reverse(t=t, flag=alert.flag.id, reason=reason)

    def answer(self, key: AlertKey, decision: Decision | str, who: str, t: float, *, stop_next: bool = False) -> Ruling:
        """Rule on a pending alert at table time ``t``; returns the ``ruling`` event for its table."""
        alert = self.get(key)
        if alert is None:
            raise KeyError(f"no pending alert {key}")
        if decision not in DECISIONS:
            raise ValueError(f"decision must be confirm or dismiss, got {decision!r}")
        decision = Decision(decision)
        alert.decision, alert.who = decision, who
        alert.stop_next = stop_next and decision is Decision.CONFIRM and alert.can_stop_next
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
