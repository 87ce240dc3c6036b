"""A flag's camera frame over the hall (issue #23): published by the station, bound by the ACL to
its own table, checked and stored once in the register (``bytea``), and, with every record, read
back by a head console that starts mid-event."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from referee_station.console.hall_feed import HallFeed
from referee_station.console.models.console import ConsoleModel
from referee_station.hall.auth import hash_referee
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.evidence import Evidence, frame_jpeg, jpeg_frame
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.hall.topics import RulingCommand, topic
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import Ruling
from referee_station.table.referee import TableReferee
from tests.console.helpers import envelopes, one_deal_with_flags
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, wait_for
from tests.hall.test_security import RawClient


def picture(value: int) -> bytes:
    return frame_jpeg(np.full((90, 160, 3), value, np.uint8))


def test_evidence_reaches_the_register_once_and_only_from_its_own_table(
    hall: Hall, register: Register, log_path: Path
) -> None:
    LogStation(log_path, "T23").close()
    heard: list[Evidence] = []
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register, on_evidence=heard.append) as head,
        StationLink(BrokerURL.parse(hall.station_url("T23")), HALL, "T23", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        link.publish_evidence(1, 12.5, picture(200))
        link.publish_evidence(1, 12.5, picture(10))  # a second frame for flag 1: the first one stays
        wait_for(lambda: len(register.evidence(HALL)) == 1, what="the frame stored")
        rogue = RawClient(hall.station_url("T24"), "rogue-T24")
        assert rogue.connected.wait(10)
        forged = Evidence("T23", link.outbox.log, 2, 1.0, picture(0), time.time()).encode()
        assert rogue.publish(topic(HALL, "T23", "evidence"), forged) == "Not authorized"
        assert rogue.publish(topic(HALL, "T24", "evidence"), forged) == "Success"  # names T23: dropped
        assert rogue.publish(topic(HALL, "T24", "evidence"), b'{"table":"T24"}\nGIF89a') == "Success"  # no JPEG
        wait_for(lambda: len(head.alarms["T24"]) == 2, what="the two bad frames quarantined as T24's alarms")
        assert head.stats.quarantined >= 2 and not head.alarms["T23"]
        rogue.close()
    [stored] = register.evidence(HALL)
    assert (stored.table, stored.log, stored.flag, stored.t) == ("T23", link.outbox.log, 1, 12.5)
    assert jpeg_frame(stored.jpeg)[40, 80, 0] > 180
    assert heard == [stored]


def test_a_head_console_started_mid_event_replays_the_register(register: Register) -> None:
    inputs = one_deal_with_flags()
    referee = TableReferee()
    at = next(i for i, event in enumerate(inputs) if any(o.TYPE == "flag" for o in referee.feed(event)))
    stream = [*inputs[: at + 1], Ruling(t=inputs[at].t + 0.5, flag=1, decision="dismiss"), *inputs[at + 1 :]]
    register.add_referee(hash_referee("wang", "pw", 1000))
    register.add_ruling(HALL, "T25", RulingCommand("cmd-7", 1, "dismiss", "wang"))
    ruling_seq = next(e.seq for e in envelopes("T25", stream) if e.type == "ruling")
    sent = envelopes("T25", stream, log="feedbeef", cause={ruling_seq: "cmd-7"})
    assert register.store(HALL, sent) == len(sent)
    register.store_evidence(HALL, Evidence("T25", "feedbeef", 1, inputs[at].t, picture(120), time.time()))

    feed = HallFeed(referee_of=register.ruling_referee)
    assert feed.load(register, HALL) == len(sent)
    assert feed.followed == {"T25": len(sent)}
    model = ConsoleModel()
    items = feed.take()
    for item in items:
        assert isinstance(item, TableUpdate), item
        model.apply(item)
    [answered] = model.alerts.answered
    assert (answered.key, answered.decision, answered.who) == (("T25", 1), "dismiss", "wang")
    assert answered.frame is not None and answered.frame.shape == (90, 160, 3)
    assert [a.key for a in model.alerts.pending] == [("T25", 2)]
    assert model.sheet.sheet("T25").rows[0].side_up == "EW"
    assert register.ruling_referee("cmd-7") == "wang" and register.ruling_referee("nope") is None
