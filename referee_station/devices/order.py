"""Table events from the seat units put back in press order.

The hub sends each press when it can: a frame lost on the wire is retransmitted later, and presses
buffered through a disconnect arrive together, so arrival order is not press order. A table log
must be in time order (the referee reads ``t`` as the table's clock), so :class:`PressOrder` holds
each event ``hold`` seconds of table time and releases the due ones sorted by ``t``.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable

from referee_station.devices.table_devices import Press

HOLD_S = 0.5
"""Table seconds an event waits for an earlier press still on its way (several retransmissions)."""


class PressOrder:
    """Collect events from any thread; :meth:`release` emits those at least ``hold`` old, by ``t``."""

    def __init__(self, emit: Callable[[Press], None], hold: float = HOLD_S) -> None:
        self.emit = emit
        self.hold = hold
        self.late = 0
        """Events that came after a later press was already emitted: emitted at once, out of order."""
        self._heap: list[tuple[float, int, Press]] = []
        self._order = itertools.count()
        self._emitted_t = float("-inf")
        self._lock = threading.Lock()

    def add(self, event: Press) -> None:
        with self._lock:
            heapq.heappush(self._heap, (event.t, next(self._order), event))

    def release(self, now: float) -> None:
        """Emit, oldest first, every event whose ``t`` is at least ``hold`` before table time ``now``."""
        self._emit_until(now - self.hold)

    def drain(self) -> None:
        """Emit everything held (at the end)."""
        self._emit_until(float("inf"))

    def _emit_until(self, limit: float) -> None:
        with self._lock:
            due = []
            while self._heap and self._heap[0][0] <= limit:
                due.append(heapq.heappop(self._heap))
        for t, _, event in due:
            if t < self._emitted_t:
                self.late += 1
            self._emitted_t = max(self._emitted_t, t)
            self.emit(event)
