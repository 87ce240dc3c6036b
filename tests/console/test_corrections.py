"""Corrections at the console (#30): a pending read settled in one click, strange events grouped under
their doubtful read, a ruling reversed with a reason; the table's referee replays and withdraws."""

import time

from PySide6.QtCore import Qt

from referee_station.console.hall_feed import HallFeed
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.register import AuditKind
from referee_station.console.qt.alert_view import TEXT_COLUMN, AlertView, item_key
from referee_station.console.qt.correction_view import CorrectionView
from referee_station.console.qt.head_app import land
from referee_station.console.qt.head_window import HeadWindow
from referee_station.hall.topics import Envelope, record_id
from referee_station.rules import Card
from referee_station.station.live.head_desk import RulingResult
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Reverse, Settle
from tests.console.helpers import RecordingTable, Wired, shown_active


def misread_lead():
    """E leads 3h read as Kh at low confidence (3h the close alternative); N follows 5h, which beats
    3h only (R-CMP); then a return nobody owes: a strange event while the read is pending."""
    table = RecordingTable()
    table.deal("E")
    table.play("E", "Kh", confidence=0.3, alternatives=[[["Kh", 0.5], ["3h", 0.4]]])
    table.play("N", "5h")
    table.feed({"type": "return", "seat": "W", "card": "4s"})
    table.pass_("S")  # out of turn under either reading (N or W is to act): a real warning
    return table.records


def _views(qtbot) -> tuple[Wired, AlertView, CorrectionView, list]:
    """The misread match through the alert queue and the correction view; what the console sends."""
    wired = Wired({"T1": misread_lead()})
    sent: list = []
    wired.model.send.connect(lambda table, event, who: sent.append(event))
    alerts = AlertView(wired.model)
    corrections = CorrectionView(wired.model, alerts)
    qtbot.addWidget(alerts)
    qtbot.addWidget(corrections)
    wired.run()
    return wired, alerts, corrections, sent


def test_a_pending_read_is_one_alert_with_its_strange_events_grouped_and_settled_in_one_click(qtbot) -> None:
    wired, alerts, corrections, sent = _views(qtbot)
    pending = wired.model.alerts.pending
    assert [a.flag.offence for a in pending] == ["out_of_turn_pass", "uncertain_read"]
    read = pending[1]
    assert read.readings == (("Kh",), ("3h",)) and [f.offence for f in read.grouped] == ["strange_event"]
    assert read.text("en").endswith("(+1)")
    alerts.select(read.key)
    assert [b.text() for b in corrections.settle_buttons] == ["Kh", "3h"]
    corrections.settle_buttons[1].click()
    assert isinstance(sent[-1], Settle) and sent[-1].cards == (Card("3h"),) and sent[-1].at == read.flag.t
    wired.run()
    assert read.withdrawn is not None and "settled as 3h" in read.withdrawn
    assert [a.flag.offence for a in wired.model.alerts.pending] == ["out_of_turn_pass"]
    assert read.flag.id not in wired.model.table("T1").flags
    assert [e for e in wired.model.register.audit if isinstance(e.entry, Settle)] != []


def test_settling_as_read_brings_the_held_back_flag_to_the_queue(qtbot) -> None:
    wired = Wired({"T1": misread_lead()})
    wired.run()
    read = next(a for a in wired.model.alerts.pending if a.flag.offence == "uncertain_read")
    assert wired.model.settle(read.key, ("Kh",))
    wired.run()
    offences = [a.flag.offence for a in wired.model.alerts.pending]
    assert "does_not_beat" in offences  # N's 5h under Kh (R-CMP), held back until now


def test_a_confirmed_ruling_reversed_with_a_reason_leaves_the_register_and_the_ladder(qtbot) -> None:
    wired, _alerts, corrections, sent = _views(qtbot)
    key = next(a.key for a in wired.model.alerts.pending if a.flag.offence == "out_of_turn_pass")
    wired.model.rule(key, "confirm")
    wired.run()
    assert [p.penalty for p in wired.model.register.side_penalties("T1", "NS")] == ["warning"]
    assert wired.model.sheet.sheet("T1").rows[-1].penalties == [("NS", "warning")]
    assert corrections.rulings.count() == 1 and not corrections.reverse_button.isEnabled()
    corrections.reason.setText("S's pass was heard from the next table")
    assert corrections.reverse_button.isEnabled()
    corrections.reverse_button.click()
    assert isinstance(sent[-1], Reverse) and sent[-1].flag == key[1]
    wired.run()
    assert wired.model.register.side_penalties("T1", "NS") == []
    assert wired.model.register.ladders["T1"]["NS"]["warning"] == 0
    assert wired.model.sheet.sheet("T1").rows[-1].penalties == []
    assert key[1] in wired.model.table("T1").flags  # the flag stands; its ruling was reversed
    assert any(e.kind is AuditKind.REVERSE and "next table" in e.what("en") for e in wired.model.register.audit)


def _rows(alerts: AlertView) -> list[tuple[str, int, bool]]:
    """Each top-level row of the queue: its offence, how many rows it holds, whether it is open."""
    out = []
    for item in alerts.items():
        alert = alerts.model.alerts.get(item_key(item))
        assert alert is not None
        out.append((alert.flag.offence, item.childCount(), item.isExpanded()))
    return out


def test_the_station_queue_shows_the_strange_events_collapsed_under_their_doubtful_read(qtbot) -> None:
    _wired, alerts, _corrections, _sent = _views(qtbot)
    assert _rows(alerts) == [("out_of_turn_pass", 0, False), ("uncertain_read", 1, False)]
    read = alerts.items()[1]
    assert read.text(TEXT_COLUMN).split(" · ")[0].endswith("(+1)")
    child = read.child(0)
    assert not child.flags() & Qt.ItemFlag.ItemIsSelectable  # shown, not ruled: the read's alert is
    alerts.model.set_language("en")
    assert "W owes no return now" in read.child(0).text(TEXT_COLUMN) and read.childCount() == 1


def test_the_head_queue_shows_the_same_group_from_the_hall(qtbot) -> None:
    """The head console sees the station's records (the station's referee holds the read pending and
    names the cause); its queue groups them the same way."""
    model = ConsoleModel()
    window = HeadWindow(model)
    shown_active(qtbot, window)
    feed = HallFeed()
    for envelope in _logged("T1", misread_lead()):
        feed.record(envelope)
    land(model, window, feed.take())
    assert _rows(window.alerts) == [("out_of_turn_pass", 0, False), ("uncertain_read", 1, False)]
    assert window.alerts.list.topLevelItemCount() == 2
    model.set_language("en")
    assert "owes no return" in window.alerts.items()[1].child(0).text(TEXT_COLUMN)
    sent: list = []
    model.send.connect(lambda table, event, who: sent.append((table, event)))
    window.referee = "li"  # logged in: a correction leaves like a ruling (the hall carries both, #30)
    read = item_key(window.alerts.items()[1])
    window.alerts.select(read)
    assert [b.text() for b in window.corrections.settle_buttons] == ["Kh", "3h"]
    window.corrections.settle_buttons[1].click()
    [(table, settle)] = sent
    assert table == "T1" and isinstance(settle, Settle) and settle.cards == (Card("3h"),)
    assert model.alerts.correction_flag("T1", settle) == read[1]  # the hall's audit names the read's flag
    window.ruling_answered(RulingResult("T1", read[1], None, "the register: connection refused", "settle"))
    assert model.alerts.get(read) is not None  # not sent: the read waits in the queue again
    ruled = item_key(window.alerts.items()[0])
    assert model.rule(ruled, "confirm") and model.reverse(ruled, "heard from the next table")
    assert model.alerts.answered[-1].decision == "dismiss"
    window.ruling_answered(RulingResult("T1", ruled[1], None, "the register: connection refused", "reverse"))
    assert model.alerts.answered[-1].decision == "confirm"  # the reversal not sent: the ruling stands


def _logged(table: str, inputs: list) -> list[Envelope]:
    """The records a station with the correcting referee logs for ``inputs``, as sent to the hall."""
    referee = CorrectingReferee()
    records = [r for event in inputs for r in (event, *referee.feed(event))]
    return [
        Envelope(record_id(table, "abcd", seq), table, "abcd", seq, r.t, r.TYPE, r.IS_INPUT, r.to_line(), time.time())
        for seq, r in enumerate(records, 1)
    ]
