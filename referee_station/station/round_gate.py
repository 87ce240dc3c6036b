"""The hall's round clock at one table (R-MATCH-1): when the head calls time (or the round's limit
passes, or its ``max_deals`` deals are played), the station feeds its referee one ``time_call``; the
deal in progress is finished, and no deal event after the call reaches the referee any more (no new
deal starts).

The gate binds to the round of the first announcement it sees that is not called yet (or to the
round it is given), so a stale retained call of the previous round cannot end a new match. The
wall clock is only read to compare with the head's times; what the referee gets is stamped with
the table's clock, like a ruling.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from referee_station.core import TableState
from referee_station.hall.rounds import RoundCall, RoundTable
from referee_station.station.health import Notice
from referee_station.table.events import DealStart, Pass, PlayCards, Record, Report, Return, TimeCall, Tribute

DEAL_EVENTS = (DealStart, Tribute, Return, PlayCards, Pass, Report)
"""What belongs to a deal; after the call only the deal in progress takes them."""


TIME_CALLED = "R-MATCH-1: time was called; no new deal starts"
"""The round gate's notice as the station says it; the consoles show it in their language."""


class RoundSource(Protocol):
    """Where the latest announcement comes from (``hall.publisher.StationLink``)."""

    @property
    def round_call(self) -> RoundCall | None: ...


class RoundGate:
    """Feeds the time call once and holds back deal events the call ended."""

    def __init__(
        self,
        source: RoundSource,
        table: str,
        round_no: int | None = None,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.source = source
        self.table = table
        self.round_no = round_no
        self.wall = wall
        self.held: list[Record] = []
        """Deal events not fed because time was called (R-MATCH-1)."""
        self._noticed = False
        self._issued = False

    @property
    def call(self) -> RoundCall | None:
        """The announcement of this table's round, binding to the first open round seen."""
        call = self.source.round_call
        if call is None:
            return None
        if self.round_no is None and call.called is None and call.clock.remaining(self.wall()) > 0:
            self.round_no = call.round
        return call if call.round == self.round_no else None

    @property
    def seats(self) -> RoundTable | None:
        """This table's pairs in the round (for the match setup)."""
        call = self.call
        return None if call is None else call.table(self.table)

    def remaining(self) -> float | None:
        """Seconds left before time is called, for the console; ``None`` when no round is known."""
        call = self.call
        return None if call is None else call.clock.remaining(self.wall())

    def due(self, now: float, state: TableState) -> TimeCall | None:
        """The ``time_call`` to feed at table time ``now``, once: the call came and the referee has none."""
        call = self.call
        if self._issued or call is None or state.time_called is not None or state.match_over:
            return None
        if call.clock.remaining(self.wall()) > 0 and state.deals_played < call.max_deals:
            return None  # neither the round's time nor its deals (at most ``max_deals``) are used up
        self._issued = True
        return TimeCall(now, round=call.round)

    def holds(self, event: Record, state: TableState) -> bool:
        """Whether ``event`` is one the call ended: a new deal, or any deal event once the match is over."""
        if state.time_called is None or not isinstance(event, DEAL_EVENTS):
            return False
        if isinstance(event, DealStart) or state.match_over:
            self.held.append(event)
            return True
        return False

    def notices(self, t: float) -> list[Notice]:
        """Once, when the first event is held: the table is told why play is no longer refereed."""
        if not self.held or self._noticed:
            return []
        self._noticed = True
        return [Notice(t, "round", "warning", TIME_CALLED)]
