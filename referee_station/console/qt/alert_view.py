"""The alert queue: pending flags (the table in a column of its own, so a hall's queue reads by
table at a glance), the selected one in detail (rule, seat, proposed penalty,
Chinese and English text, the camera frame of that moment), Confirm / Dismiss, and for an
infraction the 下家's choice to stop the violator's next play (RULES.md section 9).

Shortcuts: Enter confirms, Delete dismisses, N goes to the next alert. A new alert is added to
the list as soon as its update reaches the GUI thread; ``latencies`` keeps, for each, the seconds
from the referee raising it to the first paint of the list that shows it (the benchmark's
flag-to-screen latency).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QPixmap
from PySide6.QtWidgets import (
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
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.style import colour, frame_image

KEY_ROLE = Qt.ItemDataRole.UserRole
TABLE_COLUMN, TEXT_COLUMN = 0, 1


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
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.header().setSectionResizeMode(TABLE_COLUMN, QHeaderView.ResizeMode.ResizeToContents)
        self.list.header().setStretchLastSection(True)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.frame = QLabel()
        self.frame.setFixedHeight(140)
        self.frame.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stop_next = QCheckBox()
        self.confirm_button = QPushButton()
        self.dismiss_button = QPushButton()
        self.next_button = QPushButton()
        buttons = QHBoxLayout()
        for button in (self.confirm_button, self.dismiss_button, self.next_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.frame)
        layout.addWidget(self.stop_next)
        layout.addLayout(buttons)
        self.confirm_action = self._action(
            QKeySequence(Qt.Key.Key_Return), self.confirm, QKeySequence(Qt.Key.Key_Enter)
        )
        self.dismiss_action = self._action(QKeySequence(QKeySequence.StandardKey.Delete), self.dismiss)
        self.next_action = self._action(QKeySequence(Qt.Key.Key_N), self.select_next)
        self.confirm_button.clicked.connect(self.confirm)
        self.dismiss_button.clicked.connect(self.dismiss)
        self.next_button.clicked.connect(self.select_next)
        self.list.currentItemChanged.connect(lambda *_: self._show_detail())
        self.list.viewport().installEventFilter(self)
        model.alerts.added.connect(self._add)
        model.alerts.answered_signal.connect(self._remove)
        model.alerts.framed.connect(lambda alert: self._show_detail() if alert.key == self.current_key() else None)
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    def _action(self, key: QKeySequence, slot, *more: QKeySequence) -> QAction:
        action = QAction(self)
        action.setShortcuts([key, *more])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    # -- the list ---------------------------------------------------------------------------

    def items(self) -> list[QTreeWidgetItem]:
        """The rows, in queue order."""
        return [self.list.topLevelItem(row) for row in range(self.list.topLevelItemCount())]

    def _item(self, key: AlertKey) -> QTreeWidgetItem | None:
        return next((item for item in self.items() if item_key(item) == key), None)

    def _add(self, alert: Alert) -> None:
        item = QTreeWidgetItem([alert.table, alert.text(self.model.lang, table=False)])
        item.setData(TABLE_COLUMN, KEY_ROLE, alert.key)
        for column in (TABLE_COLUMN, TEXT_COLUMN):
            item.setForeground(column, colour(alert.flag.penalty))
        self.list.insertTopLevelItem(self.model.alerts.position(alert), item)
        self.list.viewport().update()  # a row inserted below the visible ones repaints nothing by itself
        self._unpainted.append(alert.raised)
        if self.list.currentItem() is None:
            self.list.setCurrentItem(item)
        self._retitle()

    def retext(self, alert: Alert) -> None:
        """Rewrite an alert's row (its grouped strange events changed)."""
        item = self._item(alert.key)
        if item is not None:
            item.setText(TEXT_COLUMN, alert.text(self.model.lang, table=False))

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
        if alert is None:
            self.detail.setText("")
            self.frame.clear()
            return
        flag = alert.flag
        lang = self.model.lang
        seat = tr(flag.seat, lang) if flag.seat else "—"
        self.detail.setText(
            f"<b>{alert.table} #{flag.id}</b> · {tr('rule', lang)} <b>{flag.rule}</b> · {tr('seat', lang)} {seat} · "
            f"{tr('penalty', lang)} <b>{tr(flag.penalty, lang)}</b> · t={flag.t:.1f}s<br>"
            f"{flag.detail_zh}<br>{flag.detail}" + (f"<br>{' '.join(flag.cards)}" if flag.cards else "")
        )
        if alert.can_stop_next and alert.next_seat:
            self.stop_next.setText(f"{tr('stop_next', lang)} ({tr(alert.next_seat, lang)})")
        image = frame_image(alert.frame)
        if image is None:
            self.frame.setText("—")
        else:
            self.frame.setPixmap(QPixmap.fromImage(image).scaledToHeight(136))

    def _retitle(self) -> None:
        self.title.setText(f"<b>{tr('alerts', self.model.lang)}</b> ({self.list.topLevelItemCount()})")

    def retranslate(self, lang: str) -> None:
        self.confirm_button.setText(tr("confirm", lang))
        self.dismiss_button.setText(tr("dismiss", lang))
        self.next_button.setText(tr("next", lang))
        self.stop_next.setText(tr("stop_next", lang))
        self.list.setHeaderLabels([tr("table", lang), tr("alert", lang)])
        for item in self.items():
            alert = self.model.alerts.get(item_key(item))
            if alert is not None:
                item.setText(TEXT_COLUMN, alert.text(lang, table=False))
        self._retitle()
        self._show_detail()
