"""The sides' names from the hall (issue #23): the head publishes a table's assignment, retained; the
station console's setup dialog, opened with ``--broker``, fills the names from it (a later one too,
except a name the referee typed); a station may not publish one; names still typed without a hall."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import argparse

import pytest

from referee_station.console.qt.station_app import StationApp
from referee_station.hall.assignment import Assignment, AssignmentError
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.hall.topics import topic
from tests.hall.conftest import HALL, Hall
from tests.hall.test_security import RawClient


def station_args(table: str, broker: str | None) -> argparse.Namespace:
    return argparse.Namespace(table=table, broker=broker, hall=HALL)


def test_the_setup_dialog_takes_the_sides_from_the_halls_assignment(qtbot, hall: Hall, register: Register) -> None:
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        head.assign("T39", {"EW": "东方红", "NS": "南山队"})  # before the station is up: retained
        app = StationApp(station_args("T39", hall.station_url("T39")))
        qtbot.addWidget(app.window)
        try:
            app.show()
            names = app.dialog.names
            qtbot.waitUntil(lambda: (names["EW"].text(), names["NS"].text()) == ("东方红", "南山队"), timeout=20_000)
            names["NS"].setText("南山二队")  # the referee corrects one name
            head.assign("T39", {"EW": "东风队", "NS": "北岭队"})
            qtbot.waitUntil(lambda: names["EW"].text() == "东风队", timeout=20_000)
            assert names["NS"].text() == "南山二队"  # what the referee typed stays
            assert app.dialog.read().sides == {"EW": "东风队", "NS": "南山二队"}
            head._client.publish(topic(HALL, "T39", "assignment"), b'{"table":"T39","sides":{"EW":"x"}}', qos=1)
            qtbot.waitUntil(lambda: any("sides must be EW and NS" in e for e in app.assignments.errors), timeout=20_000)
            assert names["EW"].text() == "东风队"  # a bad assignment changes nothing
        finally:
            app.stop()
        head._client.publish(topic(HALL, "T39", "assignment"), b"", qos=1, retain=True).wait_for_publish(5)  # cleared
    rogue = RawClient(hall.station_url("T40"), "rogue-T40")
    assert rogue.connected.wait(10)
    forged = Assignment("T40", {"EW": "mine", "NS": "theirs"}).encode()
    assert rogue.publish(topic(HALL, "T40", "assignment"), forged) == "Not authorized"  # only the head assigns
    rogue.close()


def test_without_a_hall_the_names_are_typed(qtbot) -> None:
    app = StationApp(station_args("T01", None))
    qtbot.addWidget(app.window)
    try:
        app.show()
        assert app.assignments is None
        app.dialog.names["EW"].setText("甲队")
        app.dialog.names["NS"].setText("乙队")
        assert app.dialog.read().sides == {"EW": "甲队", "NS": "乙队"}
    finally:
        app.stop()


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        (b"not json", "not JSON"),
        (b'{"table":"T02","sides":{"EW":"a","NS":"b"}}', "names table 'T02'"),
        (b'{"table":"T01","sides":{"EW":"a","NS":""}}', "side NS must be a name"),
        (b'{"table":"T01","sides":["a","b"]}', "expected"),
    ],
)
def test_a_bad_assignment_says_what_is_wrong(payload: bytes, says: str) -> None:
    with pytest.raises(AssignmentError, match=says):
        Assignment.decode(payload, "T01")
