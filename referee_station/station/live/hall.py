"""The hall's live clock: every table's feed played at ``speed`` times real time.

Table clocks all start at the hall's start; at wall time ``w`` every event with
``t <= (w - start) * speed`` is due. ``speed <= 0`` plays as fast as the referees can go (tests,
the record-sheet export of a whole match).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from referee_station.station.live.runner import TableRunner
from referee_station.station.live.update import TableUpdate


class LiveHall:
    """The runners of a hall, paced together."""

    def __init__(self, runners: Sequence[TableRunner], speed: float = 1.0, clock: Callable[[], float] = time.monotonic):
        self.runners = {r.name: r for r in runners}
        self.speed = speed
        self.clock = clock
        self.start = clock()

    @property
    def done(self) -> bool:
        return all(r.next_t is None for r in self.runners.values())

    def table_now(self) -> float:
        return float("inf") if self.speed <= 0 else (self.clock() - self.start) * self.speed

    def due(self, limit: int = 10_000, budget: float | None = None) -> list[TableUpdate]:
        """The console's entries, then every feed event due now (at most ``limit`` of them, so
        an unpaced hall still hands its updates over in batches; and, with ``budget``, no longer than
        that many wall seconds once there is an update, so a flag is not held back while a camera
        table renders and reads its frames up to its next event)."""
        started = time.monotonic()
        updates = [u for r in self.runners.values() for u in r.drain()]
        now = self.table_now()
        while len(updates) < limit:
            if budget is not None and updates and time.monotonic() - started > budget:
                break
            ready = [r for r in self.runners.values() if r.next_t is not None and r.next_t <= now]
            if not ready:
                break
            updates += min(ready, key=lambda r: r.next_t or 0.0).step()
        return updates

    def warnings(self) -> list[tuple[str, float, str]]:
        """(table, table time, text) of the stations' notices not yet shown: the camera lost, frozen or
        moved, the deck profile does not match the cards, the seat units offline."""
        out = []
        for name, runner in self.runners.items():
            while runner.notices:
                when, text = runner.notices.popleft()
                out.append((name, when, text))
        return out

    def close(self) -> None:
        """Let go of every table's devices."""
        for runner in self.runners.values():
            runner.close()

    def wait(self) -> float:
        """Wall seconds until the next feed event is due (0 when one is due or unpaced)."""
        pending = [r.next_t for r in self.runners.values() if r.next_t is not None]
        if not pending or self.speed <= 0:
            return 0.0
        return max(0.0, min(pending) / self.speed - (self.clock() - self.start))
