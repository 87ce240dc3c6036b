"""A minimal Qt-free signal, so models can announce changes without importing Qt.

napari's models emit per-field events that Qt views subscribe to; this is the same idea in a
dozen lines. Callbacks run synchronously in the thread that emits; the console only emits from
the GUI thread (the live engine reaches it through a Qt signal first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Signal:
    """A list of callbacks called in order with the emitted arguments."""

    def __init__(self) -> None:
        self._slots: list[Callable[..., Any]] = []

    def connect(self, slot: Callable[..., Any]) -> None:
        self._slots.append(slot)

    def disconnect(self, slot: Callable[..., Any]) -> None:
        self._slots.remove(slot)

    def emit(self, *args: Any) -> None:
        for slot in list(self._slots):
            slot(*args)
