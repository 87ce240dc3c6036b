"""Where a table's events come from: any iterable of EVENTS.md input records in time order.

The console does not care whether a table is a recorded log, the simulator, or the camera and
seat units in the loop: each is a ``TableFeed``. A camera is optional and separate
(``FrameSource``), so a table without one is refereed all the same, with no image shown.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from referee_station.log.jsonl import LineError, iter_lines
from referee_station.table.events import Record

log = logging.getLogger(__name__)

TableFeed = Iterable[Record]
"""A table's input events in time order (outputs in a recorded log are skipped by the readers)."""


class FrameSource(Protocol):
    """The table's overhead camera: the image at table time ``t`` (an ``H×W×3`` uint8 RGB array)."""

    def frame(self, t: float) -> Any: ...


@dataclass(frozen=True)
class LiveTable:
    """What the console runs for one table: its name, its inputs, and its camera if it has one."""

    name: str
    feed: TableFeed
    camera: FrameSource | None = None


def jsonl_feed(path: Path) -> Iterator[Record]:
    """The input events of a recorded JSON-lines table log (EVENTS.md), outputs skipped, and
    malformed lines skipped with a warning naming their number (the rest of the log still plays)."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for item in iter_lines(lines):
            if isinstance(item, LineError):
                log.warning("%s:%d: skipped: %s", path, item.line, item.message)
            elif item.record.IS_INPUT:
                yield item.record
