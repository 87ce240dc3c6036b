"""The head referee's window: the table console (``ConsoleWindow``) over the whole hall, plus what
the head needs: a referee login before any ruling (hall/auth.py), the table of the selected alert
shown beside it with the flag's evidence frame, and keys for every action.

Keys: Ctrl+L log in, Ctrl+Shift+L log out, Ctrl+PgDown / Ctrl+PgUp next / previous table (in the
hall grid's order, most severe first), Ctrl+1 / Ctrl+2 the register / record sheet tab, Ctrl+S /
Ctrl+P export the sheet as CSV / PDF, Ctrl+E 中文 / English; the alert queue's Enter / Delete / N
as in the console.
Pausing a table and adding time travel to the table like rulings (``timer`` topic); manual entry
and corrections are made at the station: the hall carries no plays.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from referee_station.console.models.alerts import AlertKey
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.alert_view import item_key
from referee_station.console.qt.window import ConsoleWindow
from referee_station.station.live.head_desk import LoginResult, RulingResult, TimerResult

STATUS_MS = 8000
TILES_MS = 1000
"""The head's hall grid is redrawn once a second: its ages and clocks show whole seconds, and
repainting 200 tiles four times a second would take a third of the GUI thread (the alert queue,
not the grid, is where a flag must show at once)."""


class LoginDialog(QDialog):
    """Name and password; ``submitted(name, password)`` on Enter. It stays open with the error
    shown until the login is accepted (``accepted_as``)."""

    submitted = Signal(str, str)

    def __init__(self, lang: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = QLineEdit()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b71c1c")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.form = QFormLayout(self)
        self.form.addRow(tr("referee_name", lang), self.name)
        self.form.addRow(tr("password", lang), self.password)
        self.form.addRow(self.error)
        self.form.addRow(self.buttons)
        self.setWindowTitle(tr("login_title", lang))
        self.lang = lang
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)

    def submit(self) -> None:
        if not self.name.text().strip():
            self.name.setFocus()
            return
        self.error.setText(tr("checking", self.lang))
        self.submitted.emit(self.name.text().strip(), self.password.text())

    def refused(self, error: str) -> None:
        self.password.clear()
        self.password.setFocus()
        self.error.setText(tr("login_failed", self.lang, error=error))


class HeadWindow(ConsoleWindow):
    """``ConsoleWindow`` for the head: ``login_requested(name, password)`` and ``logout_requested()``
    go to the desk; its answers come back through ``login_answered`` and ``ruling_answered``."""

    login_requested = Signal(str, str)
    logout_requested = Signal()

    def __init__(self, model: ConsoleModel) -> None:
        super().__init__(model)
        self.login_action = QAction(self)
        self.logout_action = QAction(self)
        self.next_table_action = QAction(self)
        self.previous_table_action = QAction(self)
        self.who = QLabel()
        self.tabs.removeTab(self.tabs.indexOf(self.manual))
        self.hall.timer.setInterval(TILES_MS)
        self.referee: str | None = None
        self.shown: AlertKey | None = None
        """The alert whose evidence frame the table view shows."""
        self.dialog: LoginDialog | None = None
        toolbar = self.addToolBar("head")
        for action, keys, slot in (
            (self.login_action, [QKeySequence("Ctrl+L")], self.ask_login),
            (self.logout_action, [QKeySequence("Ctrl+Shift+L")], self.logout_requested.emit),
            (self.next_table_action, [QKeySequence("Ctrl+PgDown")], lambda: self.step_table(1)),
            (self.previous_table_action, [QKeySequence("Ctrl+PgUp")], lambda: self.step_table(-1)),
        ):
            action.setShortcuts(keys)
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(slot)
            toolbar.addAction(action)
        for keys, slot in (
            ("Ctrl+1", lambda: self.tabs.setCurrentWidget(self.register)),
            ("Ctrl+2", lambda: self.tabs.setCurrentWidget(self.sheet)),
            ("Ctrl+S", lambda: self.sheet.csv_button.click()),
            ("Ctrl+P", lambda: self.sheet.pdf_button.click()),
        ):
            shortcut = QAction(self)
            shortcut.setShortcut(QKeySequence(keys))
            shortcut.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.triggered.connect(slot)
            self.addAction(shortcut)
        self.language.setShortcut(QKeySequence("Ctrl+E"))
        self.statusBar().addWidget(self.who)
        self.alerts.list.currentItemChanged.connect(lambda item, _: self.show_alert(item_key(item)) if item else None)
        model.alerts.framed.connect(lambda alert: self.show_alert(alert.key) if alert.key == self.shown else None)
        model.may_rule = self.may_rule
        self.retranslate(model.lang)

    # -- login --------------------------------------------------------------------------------

    def may_rule(self) -> bool:
        """A ruling leaves only under a logged-in referee's name; otherwise ask for the login."""
        if self.referee is not None:
            return True
        self.statusBar().showMessage(tr("login_first", self.model.lang), STATUS_MS)
        self.ask_login()
        return False

    def ask_login(self) -> None:
        if self.dialog is None:
            self.dialog = LoginDialog(self.model.lang, self)
            self.dialog.submitted.connect(self.login_requested)
            self.dialog.finished.connect(lambda _: self.alerts.keys_enabled(True))
        self.alerts.keys_enabled(False)
        self.dialog.error.clear()
        self.dialog.open()
        self.dialog.name.setFocus()

    def login_answered(self, result: LoginResult) -> None:
        self.referee = result.referee
        self.model.referee = result.referee or "—"
        if result.error is not None:
            if self.dialog is not None:
                self.dialog.refused(result.error)
        elif self.dialog is not None and result.referee is not None:
            self.dialog.accept()
        self._show_who()

    def ruling_answered(self, result: RulingResult) -> None:
        """A ruling not sent goes back to the queue, so it is never lost."""
        lang = self.model.lang
        if result.command is None:
            self.model.alerts.reopen((result.table, result.flag), result.kind)
            text = tr("ruling_not_sent", lang, table=result.table, flag=result.flag, error=result.error)
        else:
            kind = result.command.decision
            decision = tr(f"ruled_{kind}", lang) if kind in ("confirm", "dismiss") else kind  # settle, reverse
            text = tr("ruling_sent", lang, table=result.table, flag=result.flag, decision=decision)
        self.statusBar().showMessage(text, STATUS_MS)

    def timer_answered(self, result: TimerResult) -> None:
        """A pause or added time sent to its table, or why not; the tile says 已暂停 once the table's
        ``timer`` record comes back."""
        lang = self.model.lang
        if result.command is None:
            text = tr("timer_not_sent", lang, table=result.table, error=result.error)
        else:
            text = tr("timer_sent", lang, table=result.table, action=tr(f"timer_{result.action}", lang))
        self.statusBar().showMessage(text, STATUS_MS)

    def _show_who(self) -> None:
        lang = self.model.lang
        self.who.setText(tr("logged_in", lang, name=self.referee) if self.referee else tr("not_logged_in", lang))

    # -- tables -------------------------------------------------------------------------------

    def show_alert(self, key: AlertKey) -> None:
        """The alert's table, seen in the frame its flag carries (the table's own view if none)."""
        alert = self.model.alerts.get(key)
        self.select(key[0])
        self.shown = key
        self.table_view.canvas.evidence = None if alert is None else alert.frame
        self.table_view.canvas.update()

    def select(self, table: str) -> None:
        if self.shown is not None and self.shown[0] != table:
            self.shown = None
            self.table_view.canvas.evidence = None
        super().select(table)

    def step_table(self, step: int) -> None:
        """Select the next (``1``) or previous (``-1``) table in the hall grid's order."""
        order = self.hall.order or sorted(self.model.hall.tables)
        if not order:
            return
        at = order.index(self.selected) if self.selected in order else -step
        self.select(order[(at + step) % len(order)])

    def retranslate(self, lang: str) -> None:
        super().retranslate(lang)
        if not hasattr(self, "referee"):
            return  # ConsoleWindow's constructor: the head's parts are not laid out yet
        self.setWindowTitle(tr("head_title", lang))
        for i, key in enumerate(("register", "sheet")):
            self.tabs.setTabText(i, tr(key, lang))
        self.login_action.setText(tr("login", lang))
        self.logout_action.setText(tr("logout", lang))
        self.next_table_action.setText(tr("next_table", lang))
        self.previous_table_action.setText(tr("previous_table", lang))
        self._show_who()
