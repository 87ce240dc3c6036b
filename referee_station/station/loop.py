"""The station's loop: every frame of the source (or its absence) through the orchestrator, each
``Step`` handed to a listener, until the source ends or the caller stops it. The same loop runs
headless in the main thread and behind the station console in a worker thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import numpy as np

from referee_station.station.orchestrator import Station, Step

Listener = Callable[[Step], None]


def drive(
    station: Station,
    frames: Iterable[tuple[float, np.ndarray | None]],
    listener: Listener,
    stop: threading.Event | None = None,
) -> float:
    """Run ``frames`` (``None``: no frame came) through ``station``; returns the last source time."""
    t = 0.0
    for t, image in frames:
        if stop is not None and stop.is_set():
            break
        listener(station.frame(t, image) if image is not None else station.idle(t))
    listener(station.finish(t))
    return t
