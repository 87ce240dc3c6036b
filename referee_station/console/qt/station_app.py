"""The station console: the referee console for one live table (``referee-station station``).

The window is the demo's console for one table, opened over a real station (``referee_station.station``):
the match setup first (``SetupDialog``), then the orchestrator runs in a worker thread over the camera
or the recording, its seat units and its hall link; each ``Step`` crosses to the GUI thread as
``TableUpdate``s and notices through a queue a 10 ms timer empties (STYLE.md). Rulings and manual
entries (a tribute picked on the card picker, a pass the seat units did not hear) go back through the
orchestrator's ``enter``, so they are logged and ordered like every other input.
"""

from __future__ import annotations

import argparse
import queue
from contextlib import ExitStack
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QMessageBox

from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.engine import WorkerEngine
from referee_station.console.qt.round_panel import RoundPanel
from referee_station.console.qt.setup_dialog import SetupDialog
from referee_station.console.qt.window import ConsoleWindow
from referee_station.core.queues import drain
from referee_station.log.station import ReplayMismatch
from referee_station.station.live.runner import table_update
from referee_station.station.loop import drive
from referee_station.station.orchestrator import Step
from referee_station.station.setup import MatchSetup
from referee_station.station.wiring import Opened, open_station
from referee_station.vision.calibrate import CalibrationError
from referee_station.vision.topview import top_view

if TYPE_CHECKING:
    from referee_station.hall.assignment import AssignmentWatcher

IDLE_S = 0.05
"""After the source ends the worker still feeds the console's entries this often."""
HALL_LOOK_MS = 200
"""How often the open setup dialog looks for the hall's assignment of the table."""


class StationEngine(WorkerEngine):
    """Runs one table's station in a worker thread; emits ``updates``, ``warned`` and ``ended`` on the
    GUI thread."""

    updates = Signal(object)
    warned = Signal(object)
    ended = Signal()

    def __init__(self, table: str, opened: Opened) -> None:
        self.table = table
        self.opened = opened
        self._out: queue.SimpleQueue[tuple[list, list] | None] = queue.SimpleQueue()
        super().__init__(f"station-{table}")

    def _listen(self, step: Step) -> None:
        homography = self.opened.calibration.homography
        updates = [
            table_update(self.table, fed, step.health, None if fed.frame is None else top_view(fed.frame, homography))
            for fed in step.fed
        ]
        notices = [(self.table, n.t, n.text) for n in step.notices]
        if updates or notices:
            self._out.put((updates, notices))

    def _run(self) -> None:
        station = self.opened.station
        drive(station, self.opened.frames, self._listen, self._stop)
        self._out.put(None)
        while not self._stop.wait(IDLE_S):  # rulings and entries go on after a recording ends
            self._listen(station.idle(station.now - station.offset))

    def _deliver(self) -> None:
        for item in drain(self._out):
            if item is None:
                self.ended.emit()
                continue
            updates, notices = item
            if updates:
                self.updates.emit(updates)
            if notices:
                self.warned.emit(notices)


class StationApp:
    """The setup dialog, then the console over one live table."""

    def __init__(self, args: argparse.Namespace, lang: str = "zh", referee: str = "referee") -> None:
        self.args = args
        self.model = ConsoleModel(referee=referee, lang=lang)
        self.window = ConsoleWindow(self.model)
        self.window.setWindowTitle(f"{tr('title', lang)} — {args.table}")
        self.dialog = SetupDialog(lang, self.window, self.check_camera)
        self.dialog.accepted.connect(lambda: self.start(self.dialog.setup))
        self.stack = ExitStack()
        self.engine: StationEngine | None = None
        self.assignments = _watch_assignment(args)
        self.hall_look = QTimer(self.window)
        self.hall_look.timeout.connect(self._look_at_hall)
        if self.assignments is not None:
            self.hall_look.start(HALL_LOOK_MS)

    def _look_at_hall(self) -> None:
        """GUI thread: the table's assignment, if the hall sent one, into the setup dialog."""
        assert self.assignments is not None
        assignment = self.assignments.latest()
        if assignment is not None:
            self.dialog.offer_sides(assignment.sides)

    def _stop_watching(self) -> None:
        """The station's link takes the hall session over once the setup is accepted."""
        self.hall_look.stop()
        if self.assignments is not None:
            self.assignments.close()

    def check_camera(self, row: tuple[str, ...]) -> list[str]:
        """The setup step's camera check of this table (``check-camera`` over the station's options)."""
        from referee_station.station.camera_step import check_from_args

        return check_from_args(self.args, row).lines()

    def show(self, setup: MatchSetup | None = None) -> None:
        """Open the window and the setup dialog (filled with ``setup`` for the referee to check)."""
        self.window.resize(1600, 1000)
        self.window.show()
        if setup is not None:
            self.dialog.fill(setup)
        self.dialog.open()

    def start(self, setup: MatchSetup | None) -> bool:
        """Open the table's sources and run its station; on an error say what is wrong and ask again."""
        self._stop_watching()
        try:
            opened = open_station(self.stack, self.args, setup=setup)
        except (CalibrationError, ReplayMismatch, OSError, ValueError) as err:
            QMessageBox.critical(self.window, tr("station_error", self.model.lang), str(err))
            self.stack.close()
            self.dialog.open()
            return False
        self.model.send.connect(lambda table, event, who: opened.station.enter(event, who))
        self.round = RoundPanel(opened.station, opened.station.round_gate, self.model.lang)
        self.window.statusBar().addPermanentWidget(self.round)
        self.engine = StationEngine(self.args.table, opened)
        self.engine.updates.connect(self._apply)
        self.engine.warned.connect(self.window.show_warnings)
        self.engine.ended.connect(self.window.feeds_ended)
        self.engine.start()
        return True

    def _apply(self, updates: list) -> None:
        for update in updates:
            self.model.apply(update)

    def stop(self) -> None:
        self._stop_watching()
        if self.engine is not None:
            self.engine.stop()
        self.stack.close()
        self.window.close()


def _watch_assignment(args: argparse.Namespace) -> AssignmentWatcher | None:
    """With ``--broker``, the watcher of the table's assignment from the hall (``None`` without)."""
    if not getattr(args, "broker", None):
        return None
    from referee_station.hall.assignment import AssignmentWatcher  # the [hall] extra
    from referee_station.hall.broker_url import BrokerURL

    return AssignmentWatcher(BrokerURL.parse(args.broker), args.hall, args.table).start()


def run_station_console(args: argparse.Namespace, setup: MatchSetup | None) -> int:
    """Open the station console; returns when the window is closed."""
    import signal
    import sys

    from PySide6.QtWidgets import QApplication

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    app = StationApp(args, args.lang, args.referee)
    app.show(setup)
    code = qt.exec()
    app.stop()
    return code
