"""The live hall in a worker thread: referees, feeds and cameras run here, never on the GUI
thread; batches of ``TableUpdate``s reach the GUI through a queued Qt signal, and the console's
rulings and manual entries come back through each runner's thread-safe queue."""

from __future__ import annotations

import time

from PySide6.QtCore import QThread, Signal

from referee_station.console.live.hall import LiveHall

POLL_S = 0.02
"""Longest sleep between two looks at the console's entries (a ruling waits at most this long)."""
BATCH = 500
"""Most updates per signal when the hall runs unpaced."""


class EngineThread(QThread):
    """Plays a ``LiveHall``; emits ``updates(list[TableUpdate])`` and ``finished_hall()``."""

    updates = Signal(list)
    finished_hall = Signal()

    def __init__(self, hall: LiveHall) -> None:
        super().__init__()
        self.hall = hall
        self._stop = False

    def stop(self) -> None:
        self._stop = True
        self.wait()

    def run(self) -> None:
        announced = False
        while not self._stop:
            batch = self.hall.due(BATCH)
            if batch:
                self.updates.emit(batch)
            if self.hall.done and not announced:
                announced = True
                self.finished_hall.emit()
            time.sleep(POLL_S if self.hall.done else max(0.001, min(POLL_S, self.hall.wait())))
