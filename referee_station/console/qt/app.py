"""The console application: a window over a live hall whose referees run in a worker thread."""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence

from PySide6.QtWidgets import QApplication

from referee_station.console.models.console import ConsoleModel
from referee_station.console.qt.engine import Engine
from referee_station.console.qt.window import ConsoleWindow
from referee_station.station.live.feed import LiveTable
from referee_station.station.live.hall import LiveHall
from referee_station.station.live.runner import TableRunner


class ConsoleApp:
    """Window, models and engine thread wired together; ``start`` begins the live hall."""

    def __init__(
        self,
        tables: Sequence[LiveTable],
        speed: float,
        lang: str = "zh",
        referee: str = "referee",
        *,
        devices: bool = False,
    ) -> None:
        self.model = ConsoleModel(referee=referee, lang=lang)
        self.hall = LiveHall([TableRunner(t.name, t.feed, camera=t.camera, devices=devices) for t in tables], speed)
        self.model.send.connect(lambda table, event, who: self.hall.runners[table].submit(event, who))
        self.window = ConsoleWindow(self.model)
        self.engine = Engine(self.hall)
        self.engine.updates.connect(self.apply)
        self.engine.finished_hall.connect(self.window.feeds_ended)
        self.engine.warned.connect(self.window.show_warnings)

    def apply(self, updates: list) -> None:
        """GUI thread: land a batch of updates in the models (the views follow their signals)."""
        for update in updates:
            self.model.apply(update)

    def start(self) -> None:
        self.window.resize(1600, 1000)
        self.window.show()
        self.engine.start()

    def stop(self) -> None:
        self.engine.stop()
        self.window.close()


def run_console(
    tables: Sequence[LiveTable],
    speed: float,
    lang: str = "zh",
    referee: str = "referee",
    *,
    devices: bool = False,
) -> int:
    """Open the console over the live tables; returns when the window is closed."""
    qt = QApplication.instance() or QApplication(sys.argv[:1])
    # Ctrl+C in the terminal ends the demo (Qt's event loop would keep Python's handler from running)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    app = ConsoleApp(tables, speed, lang, referee, devices=devices)
    app.start()
    code = qt.exec()
    app.stop()
    return code
