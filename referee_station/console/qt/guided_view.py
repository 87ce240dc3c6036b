"""Guided deck registration, live: the camera image, the card asked for, what was read, progress n/54.

The camera and the card finder run in a worker thread (``GuidedRunner``): it pulls frames from the source,
feeds them to the Qt-free ``GuidedRegistration`` and puts each ``(frame, step, n captured)`` on a queue
that a GUI timer empties, as the live engine does (``console.qt.engine``), so a slow camera or finder never
blocks the GUI, and the guided model is only ever touched by the worker. A retake goes to the worker as a
flag it reads before the next frame.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from referee_station.console.models.cards import face
from referee_station.console.models.i18n import tr
from referee_station.console.qt.style import frame_image
from referee_station.core.queues import drain
from referee_station.deck.guided import ORDER, GuidedRegistration, GuidedStep
from referee_station.rules.cards import DECK

PUMP_MS = 30
"""GUI-side poll of the worker's queue (the camera gives a frame every ~33 ms at 30 fps)."""
CLOSE_AFTER_MS = 1500
"""How long the last frame stays on screen once the frames end before ``run_guided`` closes the window."""
CODES = frozenset(card.code for card in DECK)


class GuidedRunner(QObject):
    """Feeds ``frames`` to ``guided`` in a worker thread; emits ``stepped(frame, step, captured)`` for each
    frame and ``ended()`` when the source runs out or all 54 cards are captured, on the GUI thread."""

    stepped = Signal(object, object, int)
    ended = Signal()

    def __init__(self, guided: GuidedRegistration, frames: Iterable[np.ndarray]) -> None:
        super().__init__()
        self.guided = guided
        self.frames = frames
        self.failure: str | None = None
        """Why the frames stopped early (set by the worker before ``ended``)."""
        self._steps: queue.SimpleQueue[tuple[np.ndarray, GuidedStep, int] | None] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._retake = threading.Event()
        self._worker = threading.Thread(target=self._run, name="guided-registration", daemon=True)
        self._pump = QTimer(self)
        self._pump.timeout.connect(self._deliver)

    def start(self) -> None:
        self._worker.start()
        self._pump.start(PUMP_MS)

    def retake(self) -> None:
        self._retake.set()

    def stop(self, wait_s: float = 2.0) -> None:
        """Stop after the frame in hand; waits at most ``wait_s`` for a camera stuck in a read (safe twice)."""
        self._stop.set()
        if self._worker.is_alive():
            self._worker.join(wait_s)
        self._pump.stop()

    def _run(self) -> None:
        try:
            for frame in self.frames:
                if self._stop.is_set():
                    break
                if self._retake.is_set():
                    self._retake.clear()
                    self.guided.retake()
                step = self.guided.feed(frame)
                self._steps.put((frame, step, len(self.guided.photos)))
                if step.state == "done":
                    break
        except (
            OSError
        ) as err:  # the camera failed (referee_station.vision.capture.CaptureError): say so, don't die silently
            self.failure = str(err)
        self._steps.put(None)

    def _deliver(self) -> None:
        for item in drain(self._steps):
            if item is None:
                self._pump.stop()
                self.ended.emit()
                return
            self.stepped.emit(*item)


def card_text(code: str | None, lang: str) -> str:
    """A card as people say it (``3♠``, 小王); a reader's "?" or nothing as it is."""
    if code is None:
        return "—"
    return face(code, lang) if code in CODES else code


class GuidedView(QWidget):
    """The live camera image, the card asked for (big), the state, the reader's read with its
    confidence, the last capture, progress n/54, and a retake button. Signal: ``finished()`` at 54."""

    finished = Signal()

    def __init__(
        self,
        guided: GuidedRegistration,
        frames: Iterable[np.ndarray],
        lang: str = "zh",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.runner = runner = GuidedRunner(guided, frames)
        self.lang = lang
        self.state = "waiting"
        self.image = QLabel()
        self.image.setMinimumSize(480, 320)
        self.image.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.ask_title = QLabel()
        self.ask = QLabel()
        font = QFont()
        font.setPointSize(48)
        font.setBold(True)
        self.ask.setFont(font)
        self.state_label = QLabel()
        self.read = QLabel()
        self.captured = QLabel()
        self.progress = QProgressBar()
        self.progress.setRange(0, len(ORDER))
        self.progress.setFormat("%v/%m")
        self.retake_button = QPushButton()
        side = QVBoxLayout()
        for widget in (self.ask_title, self.ask, self.state_label, self.read, self.captured, self.progress):
            side.addWidget(widget)
        side.addStretch(1)
        side.addWidget(self.retake_button)
        layout = QHBoxLayout(self)
        layout.addWidget(self.image, 1)
        layout.addLayout(side)
        self.retake_button.clicked.connect(runner.retake)
        runner.stepped.connect(self.show_step)
        runner.ended.connect(lambda: self.state_label.setText(f"✘ {runner.failure}") if runner.failure else None)
        self.progress.setValue(len(guided.photos))  # read before the worker starts: it owns the model after
        self._last: GuidedStep = GuidedStep("waiting", guided.expected)
        self._last_captured: str | None = None
        self.retranslate(lang)

    def start(self) -> None:
        self.runner.start()

    def show_step(self, frame: np.ndarray, step: GuidedStep, captured: int) -> None:
        """One frame's result: the image (the camera's BGR shown as RGB) and every label."""
        image = frame_image(np.ascontiguousarray(frame[..., ::-1]))
        pixmap = QPixmap.fromImage(image).scaled(self.image.size(), Qt.AspectRatioMode.KeepAspectRatio)
        self.image.setPixmap(pixmap)
        self._last = step
        if step.captured:
            self._last_captured = step.captured
        self.progress.setValue(captured)
        self.redraw()
        now_done = step.state == "done" and self.state != "done"
        self.state = step.state
        if now_done:
            self.finished.emit()

    def retranslate(self, lang: str) -> None:
        self.lang = lang
        self.ask_title.setText(tr("guided_ask", lang))
        self.retake_button.setText(tr("guided_retake", lang))
        self.setWindowTitle(tr("guided_title", lang))
        self.redraw()

    def redraw(self) -> None:
        step, lang = self._last, self.lang
        self.ask.setText(card_text(step.expected, lang) if step.expected else "✔")
        self.ask.setStyleSheet("color: #c62828;" if step.expected and step.expected[-1] in "hd" else "")
        self.state_label.setText(tr(f"guided_{step.state}", lang))
        read = "—" if step.read is None else f"{card_text(step.read, lang)} ({step.confidence:.0%})"
        self.read.setText(tr("guided_read", lang, card=read))
        self.captured.setText(tr("guided_last", lang, card=card_text(self._last_captured, lang)))

    def closeEvent(self, event) -> None:
        self.runner.stop()
        super().closeEvent(event)


def run_guided(guided: GuidedRegistration, frames: Iterable[np.ndarray], lang: str = "zh") -> bool:
    """Show the guided view until all 54 cards are captured, the frames run out or the referee closes
    it; True when all 54 are. For ``register-deck --guided``, which then saves the captures."""
    app = QApplication.instance() or QApplication([])
    view = GuidedView(guided, frames, lang)
    view.runner.ended.connect(lambda: QTimer.singleShot(CLOSE_AFTER_MS, view.close))
    view.resize(1100, 600)
    view.show()
    view.start()
    app.exec()
    view.runner.stop()
    view.deleteLater()
    return guided.expected is None
