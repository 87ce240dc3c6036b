"""The live hall in a worker thread: referees, feeds and cameras run there, never on the GUI
thread. Batches of ``TableUpdate``s cross to the GUI through a queue that a 10 ms GUI timer
empties (STYLE.md: workers reach the GUI through signals or queues), and the console's rulings and
manual entries go back through each runner's queue. The worker holds no Qt object at all, so
nothing Qt is ever touched from two threads; the poll costs a few µs and adds at most 10 ms.
"""

from __future__ import annotations

import queue
import threading

from PySide6.QtCore import QObject, QTimer, Signal

from referee_station.core.queues import drain
from referee_station.station.live.hall import LiveHall

POLL_S = 0.02
"""Longest sleep of the worker between two looks at the console's entries."""
PUMP_MS = 10
"""GUI-side poll of the queue: adds at most this much to the flag-to-screen latency."""
BATCH = 500
"""Most updates per batch when the hall runs unpaced."""
BATCH_S = 0.01
"""Longest the worker holds updates before handing them over (camera tables read frames between events)."""


class WorkerEngine(QObject):
    """A worker thread (``_run``, until ``_stop`` is set) and a GUI timer (``_deliver``) that lands its
    results: the one way the consoles' referees reach the GUI thread."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._run, name=name, daemon=True)
        self._pump = QTimer(self)
        self._pump.timeout.connect(self._deliver)

    def start(self) -> None:
        self._worker.start()
        self._pump.start(PUMP_MS)

    def is_running(self) -> bool:
        return self._worker.is_alive()

    def stop(self) -> None:
        """Stop the worker, wait for it and let go of what it holds (safe to call twice)."""
        self._stop.set()
        if self._worker.is_alive():
            self._worker.join()
        self._pump.stop()
        self._close()

    def _run(self) -> None:
        raise NotImplementedError

    def _deliver(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        """What the worker held (devices) once it has stopped."""


class Engine(WorkerEngine):
    """Plays a ``LiveHall`` in a worker thread; emits ``updates(list[TableUpdate])`` and
    ``finished_hall()`` on the GUI thread."""

    updates = Signal(object)
    finished_hall = Signal()
    warned = Signal(object)
    """list[(table, table time, text)]: the cameras' warnings (moved, deck mismatch)."""

    def __init__(self, hall: LiveHall) -> None:
        self.hall = hall
        self._batches: queue.SimpleQueue[list | None] = queue.SimpleQueue()
        self._warnings: queue.SimpleQueue[list] = queue.SimpleQueue()
        super().__init__("live-hall")

    def _close(self) -> None:
        self.hall.close()

    def _run(self) -> None:
        """Until stopped: rulings still arrive after the tables' feeds have ended."""
        announced = False
        while not self._stop.is_set():
            batch = self.hall.due(BATCH, BATCH_S)
            if batch:
                self._batches.put(batch)
            if warnings := self.hall.warnings():
                self._warnings.put(warnings)
            if self.hall.done and not announced:
                announced = True
                self._batches.put(None)
            self._stop.wait(POLL_S if self.hall.done else max(0.001, min(POLL_S, self.hall.wait())))

    def _deliver(self) -> None:
        for warning in drain(self._warnings):
            self.warned.emit(warning)
        for batch in drain(self._batches):
            if batch is None:
                self.finished_hall.emit()
            else:
                self.updates.emit(batch)
