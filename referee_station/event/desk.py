"""The event at the head's desk in a hall: the round clock announced to every station, the stations'
results and signatures taken straight into the journal, the head's corrections.

One :class:`EventDesk` owns the event's journal (SQLite or PostgreSQL) for the head console: the GUI
thread starts rounds, calls time and corrects; the hall's register thread hands over each stored
record (:meth:`EventDesk.take`). Every change is a journal action (audited), taken under one lock.

- A station's ``match_end`` is the report of its table in the round being played; the envelope's id
  is the report's ``source``, so a record delivered again (a head restart) is reported once.
- A station's ``sign`` confirms the side's signature of that report (seed 003 十三), only if it comes
  from the same station log as the report; one that comes first waits for its report.
- Hall table names come from the event's table numbers (``T01``, ``T02`` … by default).

Qt-free; the head console's event tab (``console.qt.event_tab``) shows it.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from referee_station.event.actions import (
    Action,
    ResultConfirmed,
    ResultCorrected,
    RoundPaired,
    RoundStarted,
    TimeCalled,
)
from referee_station.event.intake import IntakeError, report_from_match_end
from referee_station.event.model import EventActionError, EventState, RoundState
from referee_station.event.planner import next_pairing
from referee_station.event.store import Journal
from referee_station.table.events import EventError, MatchEnd, Sign, parse_line

if TYPE_CHECKING:
    from referee_station.hall.rounds import RoundCall
    from referee_station.hall.topics import Envelope

PROBLEMS_KEPT = 200


def hall_table(number: int) -> str:
    """The hall's name of the event's table ``number`` (the station's ``--table``)."""
    return f"T{number:02d}"


class EventDesk:
    """The head's event: a journal, the round announcements, the stations' results."""

    def __init__(
        self,
        journal: Journal,
        by: str,
        *,
        announce: Callable[[RoundCall], None] | None = None,
        table_name: Callable[[int], str] = hall_table,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.journal = journal
        self.by = by
        """Who pairs, starts and calls when no referee is named (the console names the logged-in one)."""
        self.announce = announce
        """Sends a round announcement to the stations (``HeadConsole.publish_round``)."""
        self.table_name = table_name
        self.clock = clock
        self.lock = threading.RLock()
        self.version = 0
        """Grows with every change, so a view knows when to redraw."""
        self.problems: list[str] = []
        """Station records the event could not take (the text names table, record and reason)."""
        self._waiting: dict[tuple[str, str], list[Envelope]] = defaultdict(list)

    @property
    def state(self) -> EventState:
        return self.journal.state

    # -- the head's actions ------------------------------------------------------------------------

    def record(self, action: Action) -> None:
        """Append an action (:class:`EventActionError` if the event refuses it; nothing is kept then)."""
        with self.lock:
            self.journal.record(action)
            self.version += 1

    def pair_next(self, by: str | None = None) -> RoundPaired:
        with self.lock:
            action = RoundPaired(at=self.clock(), by=by or self.by, pairing=next_pairing(self.state))
            self.record(action)
            return action

    def start_round(self, by: str | None = None) -> RoundCall:
        """Start the last paired round's clock and tell every station (R-MATCH-1: 60 minutes)."""
        with self.lock:
            if not self.state.rounds:
                raise EventActionError("pair round 1 first")
            self.record(RoundStarted(at=self.clock(), by=by or self.by, round=len(self.state.rounds)))
            return self.publish()

    def call_time(self, by: str | None = None) -> RoundCall:
        """Call time in the running round (R-MATCH-1): each station finishes its deal in progress."""
        with self.lock:
            self.record(TimeCalled(at=self.clock(), by=by or self.by, round=len(self.state.rounds)))
            return self.publish()

    def correct(self, round_no: int, table: int, winner: str, gained: dict[str, int], reason: str, by: str) -> None:
        """The head referee's correction, with a reason (audited; it counts at once)."""
        action = ResultCorrected(at=self.clock(), by=by, round=round_no, table=table, winner=winner,
                                 gained=gained, reason=reason)  # fmt: skip
        self.record(action)

    def current(self) -> RoundState | None:
        """The round being played: the last one whose clock started."""
        with self.lock:
            rounds = self.state.rounds
            return rounds[-1] if rounds and rounds[-1].clock is not None else None

    def round_call(self) -> RoundCall | None:
        """The announcement of the current round, from the journal alone."""
        from referee_station.hall.rounds import RoundCall, RoundTable

        with self.lock:
            current = self.current()
            if current is None or current.clock is None:
                return None
            pairs, clock = self.state.pairs, current.clock
            tables = tuple(
                RoundTable(self.table_name(t.number), t.number, pairs[t.ew].label, pairs[t.ns].label)
                for t in current.pairing.tables
            )
            name = self.state.created.name if self.state.created else "event"
            return RoundCall(name, current.pairing.round, clock.start, clock.limit_s, clock.called,
                             self.state.rules.max_deals, tables)  # fmt: skip

    def publish(self) -> RoundCall:
        """Send the current round's announcement again (e.g. after the head console restarts)."""
        call = self.round_call()
        if call is None:
            raise EventActionError("no round has started; nothing to announce")
        if self.announce is not None:
            self.announce(call)
        return call

    # -- the stations' records ---------------------------------------------------------------------

    def take(self, envelope: Envelope) -> None:
        """A record the register stored: a ``match_end`` becomes a report, a ``sign`` a confirmation.
        Anything the event refuses is kept in :attr:`problems`, never raised to the register's thread."""
        if envelope.type not in ("match_end", "sign"):
            return
        with self.lock:
            try:
                self._take(envelope)
            except (EventActionError, IntakeError, EventError) as err:
                self._problem(f"table {envelope.table} record {envelope.id} ({envelope.type}): {err}")

    def _take(self, envelope: Envelope) -> None:
        current = self.current()
        if current is None:
            raise EventActionError("no round is being played")
        number = next((n for n in current.results if self.table_name(n) == envelope.table), None)
        if number is None:
            raise EventActionError(f"table {envelope.table} plays no match in round {current.pairing.round}")
        record = parse_line(envelope.body)
        result = current.results[number]
        if isinstance(record, MatchEnd):
            if any(getattr(a, "source", None) == envelope.id for a in self.state.journal):
                return  # delivered again: reported already
            report = report_from_match_end(record, current.pairing.round, number, self.clock(),
                                           f"station {envelope.table}", envelope.id)  # fmt: skip
            self.record(report)
            for waiting in self._waiting.pop((envelope.table, envelope.log), []):
                self._take(waiting)
        elif isinstance(record, Sign):
            report = result.reported
            if report is None or report.source.split(":")[1:2] != [envelope.log]:
                self._waiting[envelope.table, envelope.log].append(envelope)
                return
            if record.side in result.confirmed or result.counts:
                return
            who = f"{envelope.table} {record.side}"
            self.record(ResultConfirmed(at=self.clock(), by=who, round=report.round, table=number, side=record.side))

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        del self.problems[:-PROBLEMS_KEPT]
        self.version += 1
