"""All the console's models together, and the one place an update from the engine lands.

``ConsoleModel.apply(update)`` routes a ``TableUpdate`` to the table it belongs to, the hall,
the alert queue, the penalty register and the record sheet; views and the headless timeline
subscribe to those. Rulings and manual entries come back out as events for a table's runner
through ``send``, which the live side connects to (a queue, never a direct call into a referee).
"""

from __future__ import annotations

from collections.abc import Callable

from referee_station.console.models.alerts import AlertKey, AlertQueue
from referee_station.console.models.hall import HallModel
from referee_station.console.models.manual import EntryRefused, parse_entry, refusal
from referee_station.console.models.picker import CardPicker
from referee_station.console.models.register import PenaltyRegister
from referee_station.console.models.sheet import RecordSheet
from referee_station.console.models.signal import Signal
from referee_station.console.models.table import TableModel
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import Record, TimerControl

ADD_SECONDS = 30.0
"""What one press of the console's add-time button gives the seat (R-TIME)."""


class ConsoleModel:
    """Hall, tables, alerts, register and sheets, and the manual entry's card picker. Signals:
    ``send(table, event, who)`` for an entry to feed to a table's referee, ``language_changed(lang)``."""

    def __init__(self, referee: str = "referee", lang: str = "zh") -> None:
        self.referee = referee
        self.lang = lang
        self.hall = HallModel()
        self.alerts = AlertQueue()
        self.register = PenaltyRegister()
        self.sheet = RecordSheet()
        self.picker = CardPicker()
        self.send = Signal()
        self.language_changed = Signal()
        self.may_rule: Callable[[], bool] = lambda: True
        """Asked before a ruling leaves the console: the head console's says no (and asks for a
        login) until a referee has logged in (hall/auth.py)."""

    def table(self, name: str) -> TableModel:
        model = self.hall.tables.get(name)
        if model is None:
            model = TableModel(name)
            self.hall.add(model)
        return model

    def apply(self, update: TableUpdate) -> None:
        self.table(update.table).apply(update)
        self.alerts.apply(update)
        self.register.apply(update)
        self.sheet.apply(update)

    def rule(self, key: AlertKey, decision: str, *, stop_next: bool = False) -> bool:
        """Confirm or dismiss a pending alert; the ruling goes to its table's referee. False, and
        nothing changes, when ``may_rule`` refuses."""
        if not self.may_rule():
            return False
        table = key[0]
        ruling = self.alerts.answer(key, decision, self.referee, self.table(table).now, stop_next=stop_next)
        self.send.emit(table, ruling, self.referee)
        return True

    def settle(self, key: AlertKey, cards: tuple[str, ...]) -> bool:
        """Settle a pending doubtful read as ``cards`` (one click on a reading); the ``settle`` goes to
        its table's referee, which replays its log (docs/corrections.md)."""
        if not self.may_rule():
            return False
        event = self.alerts.settle(key, cards, self.referee, self.table(key[0]).now)
        self.send.emit(key[0], event, self.referee)
        return True

    def reverse(self, key: AlertKey, reason: str) -> bool:
        """Reverse a ruling with a reason; the ladder and the score are recomputed from the log."""
        if not self.may_rule():
            return False
        event = self.alerts.reverse(key, reason, self.referee, self.table(key[0]).now)
        self.send.emit(key[0], event, self.referee)
        return True

    def enter(self, table: str, text: str) -> Record:
        """A manual entry for ``table`` (raises ``ManualEntryError`` with the reason, ``EntryRefused``
        when the table's state makes it impossible: nothing is sent then)."""
        model = self.table(table)
        event = parse_entry(text, model.now)
        refused = refusal(event, model.snapshot)
        if refused is not None:
            raise EntryRefused(table, refused)
        self.send.emit(table, event, self.referee)
        return event

    def pause(self, table: str) -> TimerControl | None:
        """Pause ``table``'s clocks, or resume them when paused (the timer follows,
        referee_station/devices/PROTOCOL.md); ``None``, and nothing sent, when ``may_rule`` refuses (the
        head console before a login)."""
        if not self.may_rule():
            return None
        model = self.table(table)
        event = TimerControl(t=model.now, action="pause" if model.paused_at is None else "resume")
        self.send.emit(table, event, self.referee)
        return event

    def add_time(self, table: str, seat: str, seconds: float = ADD_SECONDS) -> TimerControl | None:
        """Give ``seat`` at ``table`` more time on its running clock (``None`` when ``may_rule`` refuses)."""
        if not self.may_rule():
            return None
        event = TimerControl(t=self.table(table).now, action="add", seat=seat, seconds=seconds)
        self.send.emit(table, event, self.referee)
        return event

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.language_changed.emit(lang)
