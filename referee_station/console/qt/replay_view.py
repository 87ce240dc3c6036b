"""The deal replayed step by step (issue #29): a window of its own beside the console, so stepping
through a deal never touches the live table view or the alert queue's ruling keys.

Each step shows the table as the log says it stood after that play, pass or flag (``DealReplay``),
drawn by the console's own ``TableView`` over the camera frame stored for the step, with the
cards of the trick drawn where the station read them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from referee_station.console.models.cards import card_text
from referee_station.console.models.i18n import tr
from referee_station.console.models.replay import DealReplay, ReplayStep
from referee_station.console.models.table import TableModel
from referee_station.console.qt.register_view import ladder_text
from referee_station.console.qt.table_view import TableView
from referee_station.table.events import Pass, PlayCards, Reverse, Ruling, Settle


def step_text(step: ReplayStep | None, position: int, total: int, lang: str, framed: bool) -> str:
    """``步 3/42 · 22.5 秒 · 东 出牌 10♠ 10♥ · ⚑ #2 R-CMP`` in the console's language."""
    if step is None:
        return tr("replay_empty", lang)
    event = step.update.event
    what = ""
    if isinstance(event, PlayCards):
        what = f"{tr(event.seat, lang)} {tr('play', lang)} {card_text(event.cards, lang)}"
    elif isinstance(event, Pass):
        what = f"{tr(event.seat, lang)} {tr('pass', lang)}"
    elif isinstance(event, Ruling):
        what = tr("replay_ruling", lang, flag=event.flag, decision=tr(f"decide_{event.decision}", lang))
    elif isinstance(event, Reverse):
        what = f"{tr('reverse', lang)} #{event.flag}"
    elif isinstance(event, Settle):
        what = f"{tr('corrections', lang)} {tr(event.seat, lang)} {card_text(event.cards, lang)}"
    flags = " ".join(f"⚑ #{f.id} {tr(f.offence, lang)} ({f.rule})" for f in step.flags)
    parts = [tr("replay_step", lang, n=position + 1, total=total), tr("replay_at", lang, t=f"{event.t:.1f}")]
    parts += [p for p in (what, flags) if p]
    if not framed:
        parts.append(tr("replay_no_frame", lang))
    return " · ".join(parts)


class ReplayDialog(QDialog):
    """Deal picker, back / forward (← / →, also PgUp / PgDown) and the table after the step."""

    def __init__(self, lang: str = "zh", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lang = lang
        self.replay: DealReplay | None = None
        self.deal = QComboBox()
        self.back_button = QPushButton()
        self.forward_button = QPushButton()
        self.step_label = QLabel()
        self.ladder = QLabel()
        self.table_view = TableView(lang)
        bar = QHBoxLayout()
        for widget in (self.deal, self.back_button, self.forward_button):
            bar.addWidget(widget)
        bar.addWidget(self.step_label, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.ladder)
        layout.addWidget(self.table_view, 1)
        self.back_button.clicked.connect(lambda: self.replay and self.replay.back())
        self.forward_button.clicked.connect(lambda: self.replay and self.replay.forward())
        self.deal.activated.connect(self._deal_picked)
        keys = {
            self.back_button: (Qt.Key.Key_Left, Qt.Key.Key_PageUp),
            self.forward_button: (Qt.Key.Key_Right, Qt.Key.Key_PageDown),
        }
        for button, presses in keys.items():
            for key in presses:
                QShortcut(QKeySequence(key), self, button.click)
        self.resize(1100, 720)
        self.retranslate(lang)

    def open_table(self, table: DealReplay) -> None:
        """Replay ``table``'s log as it stands now and show its last deal (or the one already shown)."""
        if self.replay is not None and self.replay is not table:
            self.replay.changed.disconnect(self.redraw)
        if self.replay is not table:
            table.changed.connect(self.redraw)
        self.replay = table
        table.load()
        self.show()
        self.raise_()
        self.activateWindow()

    def _deal_picked(self, index: int) -> None:
        if self.replay is not None and index >= 0:
            self.replay.select_deal(self.deal.itemData(index))

    def retranslate(self, lang: str) -> None:
        self.lang = lang
        self.back_button.setText(tr("replay_back", lang))
        self.forward_button.setText(tr("replay_forward", lang))
        self.table_view.retranslate(lang)
        self.redraw()

    def redraw(self) -> None:
        replay = self.replay
        if replay is None:
            return
        self.setWindowTitle(f"{tr('replay', self.lang)} — {replay.table.table}")
        self.deal.clear()
        for number in sorted(replay.deals):
            self.deal.addItem(tr("deal", self.lang, n=number), number)
        if replay.deal is not None:
            self.deal.setCurrentIndex(self.deal.findData(replay.deal))
        state: TableModel = replay.state()
        self.table_view.set_model(state)
        steps = replay.steps
        self.back_button.setEnabled(replay.position > 0)
        self.forward_button.setEnabled(replay.position < len(steps) - 1)
        self.ladder.setText(ladder_text(replay.table.table, state.snapshot.ladder, self.lang))
        self.step_label.setText(step_text(replay.step, replay.position, len(steps), self.lang, state.frame is not None))
