"""Taking what a worker thread has queued without waiting: the one loop every poller would repeat.

A GUI timer or a station step takes what is there now and goes on; ``queue.Queue`` has no call for
that, so each poller wrote its own ``get_nowait`` / ``Empty`` loop.
"""

from __future__ import annotations

import queue
from typing import TypeVar

T = TypeVar("T")


def drain(q: queue.Queue[T]) -> list[T]:
    """Everything in ``q`` now, oldest first; items put while this runs may be taken too, or wait for the next call."""
    items: list[T] = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items
