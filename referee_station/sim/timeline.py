"""The simulated table clock: human action times and the ``tick`` events between them.

Times are table seconds from the match line, rounded to 10 ms, never read from a wall clock, so
one seed always gives the same log bytes. A ``tick`` goes out after every second of silence, as
the station's timer source does, so the referee can see overtime while a player thinks (R-TIME-3).
"""

from __future__ import annotations

import math
import random

from referee_station.table.events import Record, Tick

TICK = 1.0
"""Longest silence between two records, in seconds."""
FASTEST, SLOWEST = 1.5, 12.0
"""Bounds of a normal human action, seconds after the clock started (well inside the 20 s limit)."""
MEDIAN = 4.0
SPREAD = 0.6
"""Lognormal sigma of action times: most actions take 2-8 s, a few take over 10 s."""


def human_delay(rng: random.Random) -> float:
    """Seconds a player takes for a normal action: lognormal around 4 s, within 1.5..12 s."""
    return min(SLOWEST, max(FASTEST, rng.lognormvariate(math.log(MEDIAN), SPREAD)))


class Timeline:
    """Records in time order; ``at`` appends one and fills the silence before it with ticks."""

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.now = 0.0

    def at(self, record: Record) -> Record:
        """Append ``record`` (its ``t`` must not go back), after a tick for each silent second."""
        if record.t < self.now:
            raise ValueError(f"simulated time went back: {record.t} after {self.now}")
        while record.t - self.now > TICK:
            self.now = round(self.now + TICK, 2)
            self.records.append(Tick(self.now))
        self.records.append(record)
        self.now = record.t
        return record
