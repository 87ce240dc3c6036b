"""What the live engine hands the console after each event it fed to a table's referee.

The referee runs off the GUI thread; only this plain, immutable record crosses to the GUI, so
the models are never touched by two threads (STYLE.md: workers reach the GUI through signals).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee_station.core import Health, TableState
from referee_station.table.events import Output, Record

TABLE_SOURCES = frozenset({"table", "seats", "camera", "station"})
"""``who`` of events from the table itself (its feed, its seat units, its camera, the station's own deal
starts and health lines), not typed at the console."""


@dataclass(frozen=True)
class TableUpdate:
    """One input event of one table, the referee's outputs for it and the state after it.

    ``who`` is the source of the event: ``table`` for the table's feed, ``seats`` for what the seat
    units' driver heard, ``camera`` for what the camera read, ``station`` for what the station made
    (deal starts, inferred passes, health), ``head`` for the head referee's rulings, a referee's name for
    a console entry.
    ``produced`` is ``time.monotonic()`` when the referee returned, for flag-to-screen latency.
    ``frame`` is the camera image at that moment when the table has a camera (else ``None``).
    """

    table: str
    event: Record
    outputs: tuple[Output, ...]
    snapshot: TableState
    who: str = "table"
    produced: float = 0.0
    frame: Any = None
    health: Health = field(default_factory=Health)
