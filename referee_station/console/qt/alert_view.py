"""The alert queue: pending flags (the table in a column of its own, so a hall's queue reads by
table at a glance), the selected one in detail (rule, seat, proposed penalty,
Chinese and English text, the camera frame of that moment), Confirm / Dismiss, and for an
infraction the 下家's choice to stop the violator's next play (RULES.md section 9).

Shortcuts: Enter confirms, Delete dismisses, N goes to the next alert, Space shows the evidence full
size; they act only while the queue list has the focus, so Enter typed into another box (the manual
entry) never rules (issue #29). Each alert shows the preview of its ruling's consequence on the ladder
(``models/preview.py``) before it is made, and its age in table seconds. A new foul or match loss
flashes the queue's title and beeps. A new alert is added to
the list as soon as its update reaches the GUI thread; ``latencies`` keeps, for each, the seconds
from the referee raising it to the first paint of the list that shows it (the benchmark's
flag-to-screen latency). Strange events that follow from a doubtful read (their ``cause``,
docs/corrections.md) are rows under that read's alert, collapsed, its line counting them: one
misread is one alert, not a flood.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_station.console.models.alerts import Alert, AlertKey
from referee_station.console.models.cards import card_text
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.models.messages import flag_detail
from referee_station.console.models.preview import preview
from referee_station.console.qt.evidence_view import EvidenceDialog
from referee_station.console.qt.style import colour, frame_image
from referee_station.core import Decision
from referee_station.table.events import Flag

KEY_ROLE = Qt.ItemDataRole.UserRole
TABLE_COLUMN, TEXT_COLUMN = 0, 1
AGE_MS = 1000
"""The alerts' ages are redrawn once a second (they show whole seconds)."""
FLASH_MS = 1500
ALARMING = frozenset({"foul", "match_loss", "disqualification"})
"""Proposed penalties that flash the queue and beep when they arrive (RULES.md section 9)."""


def item_key(item: QTreeWidgetItem) -> AlertKey:
    table, flag = item.data(TABLE_COLUMN, KEY_ROLE)  # Qt may hand a stored tuple back as a list
    return (table, flag)


class AlertView(QWidget):
    """Pending alerts and the ruling buttons; rulings go through ``ConsoleModel.rule``."""

    def __init__(self, model: ConsoleModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.latencies: list[float] = []
        self._unpainted: list[float] = []
        self.title = QLabel()
        self.list = QTreeWidget()
        self.list.setColumnCount(2)
        self.list.setRootIsDecorated(True)  # a doubtful read's group opens under its alert
        self.list.setUniformRowHeights(True)
        self.list.header().setSectionResizeMode(TABLE_COLUMN, QHeaderView.ResizeMode.ResizeToContents)
        self.list.header().setStretchLastSection(True)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        self.preview.setTextFormat(Qt.TextFormat.RichText)
        self.frame = QLabel()
        self.frame.setFixedHeight(140)
        self.frame.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stop_next = QCheckBox()
        self.confirm_button = QPushButton()
        self.dismiss_button = QPushButton()
        self.next_button = QPushButton()
        self.evidence_button = QPushButton()
        self.evidence: EvidenceDialog | None = None
        self.flashes = 0
        """New fouls and match losses announced (flash and beep)."""
        buttons = QHBoxLayout()
        for button in (self.confirm_button, self.dismiss_button, self.next_button):
            buttons.addWidget(button)
        frame_row = QHBoxLayout()
        frame_row.addWidget(self.frame, 1)
        frame_row.addWidget(self.evidence_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.detail)
        layout.addLayout(frame_row)
        layout.addWidget(self.preview)
        layout.addWidget(self.stop_next)
        layout.addLayout(buttons)
        self.confirm_action = self._action(
            QKeySequence(Qt.Key.Key_Return), self.confirm, QKeySequence(Qt.Key.Key_Enter)
        )
        self.dismiss_action = self._action(QKeySequence(QKeySequence.StandardKey.Delete), self.dismiss)
        self.next_action = self._action(QKeySequence(Qt.Key.Key_N), self.select_next)
        self.evidence_action = self._action(QKeySequence(Qt.Key.Key_Space), self.show_evidence)
        self.confirm_button.clicked.connect(self.confirm)
        self.dismiss_button.clicked.connect(self.dismiss)
        self.next_button.clicked.connect(self.select_next)
        self.evidence_button.clicked.connect(self.show_evidence)
        self.ages = QTimer(self)
        self.ages.timeout.connect(self._retext)
        self.ages.start(AGE_MS)
        self.unflash = QTimer(self)
        self.unflash.setSingleShot(True)
        self.unflash.setInterval(FLASH_MS)
        self.unflash.timeout.connect(lambda: self.title.setStyleSheet(""))
        self.list.currentItemChanged.connect(lambda *_: self._show_detail())
        self.list.viewport().installEventFilter(self)
        model.alerts.added.connect(self._add)
        model.alerts.answered_signal.connect(self._remove)
        model.alerts.grouped.connect(self.regroup)
        model.alerts.framed.connect(lambda alert: self._show_detail() if alert.key == self.current_key() else None)
        model.register.changed.connect(self._ladder_moved)
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    def _ladder_moved(self, table: str) -> None:
        """A ruling climbed ``table``'s ladder: the selected alert's preview must follow it."""
        key = self.current_key()
        if key is not None and key[0] == table:
            self._show_detail()

    def _action(self, key: QKeySequence, slot, *more: QKeySequence) -> QAction:
        """A ruling key that works only while the queue list has the focus (issue #29: a key typed
        elsewhere must never rule)."""
        action = QAction(self.list)
        action.setShortcuts([key, *more])
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(slot)
        self.list.addAction(action)
        return action

    def keys_enabled(self, enabled: bool) -> None:
        """The ruling keys off while a dialog of the window takes the keys (the head's login): Qt
        would still match them to the list, which keeps the focus behind a window-modal dialog."""
        for action in (self.confirm_action, self.dismiss_action, self.next_action, self.evidence_action):
            action.setEnabled(enabled)

    # -- the list ---------------------------------------------------------------------------

    def items(self) -> list[QTreeWidgetItem]:
        """The rows, in queue order."""
        return [self.list.topLevelItem(row) for row in range(self.list.topLevelItemCount())]

    def _item(self, key: AlertKey) -> QTreeWidgetItem | None:
        return next((item for item in self.items() if item_key(item) == key), None)

    def _text(self, alert: Alert) -> str:
        """The alert's line (its table has its own column): the flag in words and its age in table
        seconds (one time base)."""
        age = max(0.0, self.model.table(alert.table).now - alert.flag.t)
        return f"{alert.text(self.model.lang, table=False)} · {tr('age_s', self.model.lang, age=age)}"

    def _retext(self) -> None:
        for item in self.items():
            alert = self.model.alerts.get(item_key(item))
            if alert is not None:
                item.setText(TEXT_COLUMN, self._text(alert))

    def _flash(self) -> None:
        """A new foul or match loss: the title turns red for a moment and the console beeps."""
        self.flashes += 1
        self.title.setStyleSheet("background: #b71c1c; color: white")
        self.unflash.start()
        QApplication.beep()

    def _add(self, alert: Alert) -> None:
        if alert.flag.penalty in ALARMING:
            self._flash()
        item = QTreeWidgetItem([alert.table, self._text(alert)])
        item.setData(TABLE_COLUMN, KEY_ROLE, alert.key)
        for column in (TABLE_COLUMN, TEXT_COLUMN):
            item.setForeground(column, colour(alert.flag.penalty))
        self.list.insertTopLevelItem(self.model.alerts.position(alert), item)
        self._group(item, alert)
        self.list.viewport().update()  # a row inserted below the visible ones repaints nothing by itself
        self._unpainted.append(alert.raised)
        if self.list.currentItem() is None:
            self.list.setCurrentItem(item)
        self._retitle()

    def regroup(self, alert: Alert) -> None:
        """A strange event was grouped under ``alert``: its row counts it, and holds it as a child row."""
        item = self._item(alert.key)
        if item is not None:
            item.setText(TEXT_COLUMN, self._text(alert))
            self._group(item, alert)

    def _grouped_text(self, flag: Flag) -> str:
        """A grouped strange event's row: its number, seat and detail in the console's language."""
        lang = self.model.lang
        seat = tr(flag.seat, lang) if flag.seat else "—"
        return f"#{flag.id} {seat}: {flag_detail(flag, lang)}"

    def _group(self, item: QTreeWidgetItem, alert: Alert) -> None:
        """The grouped strange events as rows under the alert's, left collapsed; they are shown, not
        ruled (the doubtful read's alert is what the referee answers), so they cannot be selected."""
        for flag in alert.grouped[item.childCount() :]:
            child = QTreeWidgetItem(["", self._grouped_text(flag)])
            child.setFlags(Qt.ItemFlag.ItemIsEnabled)
            child.setForeground(TEXT_COLUMN, colour(flag.penalty))
            item.addChild(child)

    def _remove(self, alert: Alert) -> None:
        item = self._item(alert.key)
        if item is not None:
            self.list.takeTopLevelItem(self.list.indexOfTopLevelItem(item))
        self._retitle()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._unpainted:
            now = time.monotonic()
            self.latencies += [now - raised for raised in self._unpainted]
            self._unpainted.clear()
        return False

    def current_key(self) -> AlertKey | None:
        item = self.list.currentItem()
        return None if item is None else item_key(item)

    # -- commands ---------------------------------------------------------------------------

    def confirm(self) -> None:
        self._rule("confirm")

    def dismiss(self) -> None:
        self._rule("dismiss")

    def _rule(self, decision: str) -> None:
        key = self.current_key()
        if key is None:
            return
        following = self.model.alerts.next_key(key)
        if not self.model.rule(key, decision, stop_next=self.stop_next.isChecked()):
            return
        if following is not None and following != key:
            self.select(following)

    def select(self, key: AlertKey) -> None:
        item = self._item(key)
        if item is not None:
            self.list.setCurrentItem(item)

    def select_next(self) -> None:
        key = self.model.alerts.next_key(self.current_key())
        if key is not None:
            self.select(key)

    # -- detail and words -------------------------------------------------------------------

    def _show_detail(self) -> None:
        key = self.current_key()
        alert = None if key is None else self.model.alerts.get(key)
        self.stop_next.setChecked(False)
        self.stop_next.setEnabled(bool(alert and alert.can_stop_next))
        self.evidence_button.setEnabled(bool(alert and alert.frame is not None))
        if alert is None:
            self.detail.setText("")
            self.preview.setText("")
            self.frame.clear()
            self.frame.hide()
            self.evidence_button.hide()
            return
        flag = alert.flag
        lang = self.model.lang
        seat = tr(flag.seat, lang) if flag.seat else "—"
        table = self.model.table(alert.table)
        words = flag_detail(flag, lang)
        cards = f"<br>{tr('flag_cards', lang)}: {card_text(flag.cards)}" if flag.cards else ""
        self.detail.setText(
            f"<b>{alert.table} #{flag.id}</b> · {tr('rule', lang)} <b>{flag.rule}</b> · {tr('seat', lang)} {seat} · "
            f"{tr('penalty', lang)} <b>{tr(flag.penalty, lang)}</b><br>"
            f"{tr('flag_time', lang, t=flag.t, age=max(0.0, table.now - flag.t))}<br>{words}{cards}"
        )
        ladder = table.snapshot.ladder
        self.preview.setText(
            f"<b>{tr('preview', lang)}</b>: {preview(flag, Decision.CONFIRM, ladder).text(lang)}<br>"
            f"{preview(flag, Decision.DISMISS, ladder).text(lang)}"
        )
        if alert.can_stop_next and alert.next_seat:
            self.stop_next.setText(f"{tr('stop_next', lang)} ({tr(alert.next_seat, lang)})")
        image = frame_image(alert.frame)
        self.frame.setVisible(image is not None)  # no empty band where no camera is
        self.evidence_button.setVisible(image is not None)
        if image is not None:
            self.frame.setPixmap(QPixmap.fromImage(image).scaledToHeight(136))

    def show_evidence(self) -> None:
        """The selected alert's camera frame full size, with the cards read drawn on it."""
        key = self.current_key()
        alert = None if key is None else self.model.alerts.get(key)
        if alert is None or alert.frame is None:
            return
        if self.evidence is None:
            self.evidence = EvidenceDialog(self)
        self.evidence.show_alert(alert, self.model.lang)

    def _retitle(self) -> None:
        self.title.setText(f"<b>{tr('alerts', self.model.lang)}</b> ({self.list.topLevelItemCount()})")

    def retranslate(self, lang: str) -> None:
        self.confirm_button.setText(tr("confirm", lang))
        self.dismiss_button.setText(tr("dismiss", lang))
        self.next_button.setText(tr("next", lang))
        self.stop_next.setText(tr("stop_next", lang))
        self.list.setHeaderLabels([tr("table", lang), tr("alert", lang)])
        self.evidence_button.setText(tr("evidence_button", lang))
        self._retext()
        for item in self.items():  # the grouped rows in the new language
            alert = self.model.alerts.get(item_key(item))
            item.takeChildren()
            if alert is not None:
                self._group(item, alert)
        self._retitle()
        self._show_detail()
