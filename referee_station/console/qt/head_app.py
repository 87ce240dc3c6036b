"""The head referee's console application: ``referee-station hall console``.

Wiring, and the threads it keeps apart: the head's MQTT thread and register writer
(``HeadConsole``) store every record; its viewer thread hands each record and station status to
the ``HallFeed`` (the console models' updates) as it arrives, not after the register commit;
logins and rulings run on the ``HeadDesk``'s thread. The GUI thread only empties both through a
10 ms timer and lands what it took in the ``ConsoleModel`` (STYLE.md: workers reach the GUI
through queues). At start the register is replayed first, so a head console
opened mid-event shows every table, alert, penalty and record sheet so far.
"""

from __future__ import annotations

import signal
import sys

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication

from referee_station.console.hall_feed import EvidenceUpdate, FeedItem, FeedWarning, HallFeed, StatusUpdate
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.event_tab import EventTab
from referee_station.console.qt.head_window import HeadWindow
from referee_station.event.desk import EventDesk
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.hall.topics import Envelope
from referee_station.station.live.head_desk import HeadDesk, LoginResult, RulingResult, TimerResult
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import Reverse, Ruling, Settle, TimerControl

PUMP_MS = 10
"""The GUI's look at the feed and the desk: adds at most this much to the flag-to-screen latency."""


class HeadApp(QObject):
    """Register, head subscriber, feed, desk and window wired together; ``start`` opens them."""

    def __init__(
        self, url: BrokerURL, hall: str, register: Register, lang: str = "zh", event: EventDesk | None = None
    ) -> None:
        super().__init__()
        self.hall = hall
        self.register = register
        self.feed = HallFeed(referee_of=register.ruling_referee)
        self.event_desk = event
        """The event the hall plays (``--event``): its tab, the round call, the stations' results."""
        feed = self.feed
        self.head = HeadConsole(
            url,
            hall,
            register,
            on_record=self._record,
            on_received=feed.record,
            on_status=feed.status,
            on_evidence=feed.evidence,
        )
        self.desk = HeadDesk(self.head)
        self.model = ConsoleModel(referee="—", lang=lang)
        self.model.send.connect(self._send)
        self.window = HeadWindow(self.model)
        self.window.login_requested.connect(self.desk.login)
        self.window.logout_requested.connect(self.desk.logout)
        self.event_tab: EventTab | None = None
        if event is not None:
            event.announce = self.head.publish_round
            self.event_tab = EventTab(event, lambda: self.window.referee, lang)
            self.window.tabs.addTab(self.event_tab, tr("event_tab", lang))
            self.window.language.triggered.connect(self._retranslate_event)
        self.pump = QTimer(self)
        self.pump.timeout.connect(self.deliver)

    def start(self, *, show: bool = True) -> None:
        """Replay the register, subscribe, show the window."""
        self.feed.load(self.register, self.hall)
        self.deliver()
        self.head.start()
        self.pump.start(PUMP_MS)
        if show:
            self.window.resize(1600, 1000)
            self.window.show()

    def _retranslate_event(self) -> None:
        """The window switched language (its own slot ran first): the event tab follows."""
        if self.event_tab is not None:
            lang = self.model.lang
            self.event_tab.retranslate(lang)
            self.window.tabs.setTabText(self.window.tabs.indexOf(self.event_tab), tr("event_tab", lang))

    def _record(self, envelope: Envelope) -> None:
        """Writer thread: each record once stored in the register, to the event (its results count
        only once stored; the feed has shown it on arrival)."""
        if self.event_desk is not None:
            self.event_desk.take(envelope)

    def deliver(self) -> None:
        """GUI thread: land what the feed and the desk produced since the last look."""
        land(self.model, self.window, self.feed.take())
        for result in self.desk.take():
            if isinstance(result, LoginResult):
                self.window.login_answered(result)
            elif isinstance(result, RulingResult):
                self.window.ruling_answered(result)
            elif isinstance(result, TimerResult):
                self.window.timer_answered(result)

    def _send(self, table: str, event: object, who: str) -> None:
        if isinstance(event, Ruling):  # the head's window offers no manual entry
            self.desk.rule(table, event)
        elif isinstance(event, TimerControl):  # pause / resume / add time: to the table's timer
            self.desk.timer(table, event)
        elif isinstance(event, (Settle, Reverse)):  # corrections travel like rulings (docs/corrections.md)
            self.desk.correct(table, event, self.model.alerts.correction_flag(table, event))

    def stop(self) -> None:
        """Send the rulings asked for, store what was received, close (safe to call twice)."""
        self.pump.stop()
        self.desk.close()
        self.head.close()
        self.window.close()


def land(model: ConsoleModel, window: HeadWindow, items: list[FeedItem]) -> None:
    """Put the feed's items in the models: updates applied, late frames given to their alerts (and
    to their table, whose latest picture they are), stations' connections on their tiles, warnings
    shown in the window."""
    warnings = []
    connection_changed = False
    for item in items:
        if isinstance(item, TableUpdate):
            model.apply(item)
        elif isinstance(item, EvidenceUpdate):
            if model.alerts.attach_frame((item.table, item.flag), item.frame):
                model.table(item.table).frame = item.frame
        elif isinstance(item, StatusUpdate):
            model.table(item.table).online = item.online
            connection_changed = True
        elif isinstance(item, FeedWarning):
            warnings.append((item.table, item.t, item.message))
    if connection_changed:  # a station's last will shows on its tile now, not at the grid's next tick
        window.hall.refresh()
    if warnings:
        window.show_warnings(warnings)


def run_head_console(url: BrokerURL, hall: str, dsn: str, lang: str = "zh", event: EventDesk | None = None) -> int:
    """Open the head console; returns when its window is closed (2: the broker does not answer)."""
    qt = QApplication.instance() or QApplication(sys.argv[:1])
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl+C in the terminal closes it
    with Register(dsn) as register:
        app = HeadApp(url, hall, register, lang, event)
        app.start()
        if event is not None and event.current() is not None:
            event.publish()  # the running round again, for stations that started meanwhile
        if not app.head.wait_connected(10):
            print(f"referee-station hall console: no answer from {url} ({app.head.refused or 'timeout'})",
                  file=sys.stderr)  # fmt: skip
            app.stop()
            return 2
        code = qt.exec()
        app.stop()
    return code
