"""Issue 25, items 1-4, against the real Mosquitto and PostgreSQL: a station's bad message is its own
table's alarm and stops nobody; a forged id cannot erase another table's record; a login cannot take
another client's id; a refused ruling leaves no audit row."""

from __future__ import annotations

import json
import time
from pathlib import Path

import psycopg
import pytest

from referee_station.hall.auth import LoginError, hash_referee
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.outbox import Outbox
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.hall.topics import Envelope, TopicError, encode_json, record_id, topic
from referee_station.table.events import parse_record
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for
from tests.hall.test_security import RawClient


def good(table: str, log: str, seq: int) -> dict[str, object]:
    body = f'{{"t":{seq}.0,"type":"tick"}}'
    return Envelope(record_id(table, log, seq), table, log, seq, float(seq), "tick", True, body, time.time()).__dict__


def bad_messages(table: str) -> list[tuple[str, bytes, str]]:
    """(channel, payload, what the alarm must name): each reproduces a fault of issue 25 item 1."""
    flag = good(table, "bad", 1) | {"type": "flag", "is_input": False, "body": "not json"}
    return [
        ("flags", encode_json(flag), "not JSON"),
        ("events", encode_json(good(table, "bad", 2) | {"seq": "abc"}), "'seq'"),
        ("events", encode_json(good(table, "bad", 3) | {"t": "soon"}), "'t'"),
        ("events", encode_json(good(table, "bad", 4) | {"extra": 1}), "unknown field"),
        ("events", encode_json({k: v for k, v in good(table, "bad", 5).items() if k != "body"}), "missing field"),
        ("events", b'{"id": ' + b"9" * 5000 + b"}", "not JSON"),
        ("events", b"[" * 100_000 + b"]" * 100_000, "not JSON"),
        ("events", b"\xff\xfe not utf-8", "not JSON"),
        ("events", encode_json(good(table, "bad", 6) | {"body": '{"t":6.0,"type":"pass","seat":"E"}'}), "body"),
        ("status", b'{"state": "exploded"}', "'state'"),
    ]


def test_bad_envelopes_are_one_tables_alarms_and_the_others_are_stored(
    hall: Hall, register: Register, log_path: Path
) -> None:
    station = LogStation(log_path, "T21")
    shown: list[str] = []
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register, on_alarm=lambda a: shown.append(a.table)) as head,
        StationLink(BrokerURL.parse(hall.station_url("T21")), HALL, "T21", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        rogue = RawClient(hall.station_url("T20"), "any")
        assert rogue.connected.wait(10)
        table = StationTable(station, after=link.flush)
        table.deal("E")
        messages = bad_messages("T20")
        for channel, payload, _ in messages:
            assert rogue.publish(topic(HALL, "T20", channel), payload) == "Success"
        table.play("E", "3s")  # T21 goes on while T20 misbehaves
        assert rogue.publish(topic(HALL, "T20", "events"), encode_json(good("T20", "bad", 7))) == "Success"
        assert link.wait_acked(15), "T21's records were not all stored after T20's bad messages"
        wait_for(lambda: len(head.alarms["T20"]) == len(messages), what="one alarm per bad message")
        wait_for(lambda: len(register.records(HALL, "T20")) == 1, what="T20's one good record")
        rogue.close()
        assert head._writer.is_alive()
    assert [row[5] for row in register.records(HALL, "T21")] == station.lines()
    assert "T21" not in head.alarms
    kept = register.quarantined(HALL, "T20")
    assert len(kept) == len(messages) and set(shown) & {"T20", "T21"} == {"T20"}  # other tests' tables may queue
    for (_, _, reason, payload), (_, sent, named) in zip(kept, messages, strict=True):
        assert named in reason, reason
        assert payload == sent[:2048]
    station.close()


def test_a_record_the_register_refuses_is_quarantined_alone(
    hall: Hall, register: Register, register_dsn: str, log_path: Path
) -> None:
    with psycopg.connect(register_dsn, autocommit=True) as admin:  # a database that refuses one table's rows
        admin.execute("ALTER TABLE records ADD CONSTRAINT no_t22 CHECK (table_id <> 'T22')")
    station = LogStation(log_path, "T23")
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        refused = RawClient(hall.station_url("T22"), "any")
        assert refused.connected.wait(10)
        with StationLink(BrokerURL.parse(hall.station_url("T23")), HALL, "T23", log_path) as link:
            assert link.wait_connected(10)
            table = StationTable(station, after=link.flush)
            table.deal("E")
            for seq in range(1, 4):
                assert refused.publish(topic(HALL, "T22", "events"), encode_json(good("T22", "db", seq))) == "Success"
            table.play("E", "3s")
            assert link.wait_acked(15)
        wait_for(lambda: len(head.alarms["T22"]) == 3, what="T22's three refused records")
        refused.close()
    assert [row[5] for row in register.records(HALL, "T23")] == station.lines()
    assert all("no_t22" in reason for _, _, reason, _ in register.quarantined(HALL, "T22"))
    station.close()


def test_a_forged_id_cannot_drop_another_tables_record(hall: Hall, register: Register, log_path: Path) -> None:
    victim_log = Outbox(log_path, "T25").log
    station = LogStation(log_path, "T25")
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        forger = RawClient(hall.station_url("T24"), "any")
        assert forger.connected.wait(10)
        for seq in (1, 2, 3):  # the ids T25's next records will have, sent first on T24's own topic
            forged = good("T24", "x", seq) | {"id": record_id("T25", victim_log, seq)}
            assert forger.publish(topic(HALL, "T24", "events"), encode_json(forged)) == "Success"
            as_t25 = good("T25", victim_log, seq)
            assert forger.publish(topic(HALL, "T24", "events"), encode_json(as_t25)) == "Success"
        wait_for(lambda: len(head.alarms["T24"]) == 6, what="the forged messages quarantined")
        forger.close()
        with StationLink(BrokerURL.parse(hall.station_url("T25")), HALL, "T25", log_path) as link:
            assert link.wait_connected(10)
            StationTable(station, after=link.flush).deal("E")
            assert link.wait_acked(15)
    assert [row[5] for row in register.records(HALL, "T25")] == station.lines()
    assert len(station.lines()) >= 3 and register.records(HALL, "T24") == []
    reasons = [reason for _, _, reason, _ in register.quarantined(HALL, "T24")]
    assert sum("is not 'T24:x:" in r for r in reasons) == 3 and sum("names table 'T25'" in r for r in reasons) == 3
    station.close()


def test_a_login_cannot_take_over_another_clients_id(hall: Hall, register: Register, log_path: Path) -> None:
    station = LogStation(log_path, "T27")
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head,
        StationLink(BrokerURL.parse(hall.station_url("T27")), HALL, "T27", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        disconnects = []
        head._client.on_disconnect = lambda *a: disconnects.append("head")
        link._client.on_disconnect = lambda *a: disconnects.append("T27")
        for client_id in (f"head-{HALL}", "head", f"station-{HALL}-T27"):
            intruder = RawClient(hall.station_url("T26"), client_id)
            assert intruder.connected.wait(10)
            time.sleep(0.5)  # a takeover disconnects the victim at once
            intruder.close()
        assert disconnects == []
        StationTable(station, after=link.flush).deal("E")
        assert link.wait_acked(15)
    assert [row[5] for row in register.records(HALL, "T27")] == station.lines()
    station.close()


def test_a_refused_ruling_is_not_audited(hall: Hall, register: Register) -> None:
    register.add_referee(hash_referee("li", "secret", iterations=1000))
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        with pytest.raises(LoginError):
            head.rule(None, "T28", 1, "confirm")
        session = head.login("li", "secret")
        with pytest.raises(TopicError, match="must be 1-64"):
            head.rule(session, "../#", 1, "confirm")
        with pytest.raises(ValueError, match="confirm or dismiss"):
            head.rule(session, "T28", 1, "maybe")
        for flag in (0, -3, True, 10**10):
            with pytest.raises(ValueError, match="flag must be"):
                head.rule(session, "T28", flag, "confirm")  # type: ignore[arg-type]
        given = head.rule(session, "T28", 2, "dismiss")
    audited = [c.id for c in register.unapplied_rulings(HALL, "T28")]
    assert audited == [given.id]
    assert register.unapplied_rulings(HALL, "../#") == []


def test_status_of_another_table_is_an_alarm(hall: Hall, register: Register) -> None:
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        rogue = RawClient(hall.station_url("T29"), "any")
        assert rogue.connected.wait(10)
        claim = json.dumps({"table": "T30", "state": "offline"}).encode()
        assert rogue.publish(topic(HALL, "T29", "status"), claim) == "Success"
        wait_for(lambda: len(head.alarms["T29"]) == 1, what="the alarm")
        rogue.close()
    assert "T30" not in head.statuses and head.statuses.get("T29") != "offline"


def test_resends_are_windowed_while_the_head_is_down(hall: Hall, register: Register, log_path: Path) -> None:
    station = LogStation(log_path, "T31")
    station.store.append_many("T31", [parse_record({"t": n / 10, "type": "tick"}) for n in range(1, 1501)])
    logged = len(station.lines())
    window = 100
    url = BrokerURL.parse(hall.station_url("T31"))
    with StationLink(url, HALL, "T31", log_path, resend_after=0.2, window=window) as link:
        assert link.wait_connected(10)
        wait_for(lambda: link.resent > 0, what="a resend of the unacked window")  # no head: nothing is acked
        assert link.sent == window, "more than one window in flight without an ack"
        assert 0 < link.resent <= 3 * window, "a resend sent more than the overdue records"
        link.resend_after = 30.0  # from the first ack on: the catch-up below is not slowed by resends
        with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
            assert head.wait_connected(10)
            assert link.wait_acked(30), f"{link.outbox.unacked()} records never acked"
    assert [row[5] for row in register.records(HALL, "T31")] == station.lines()
    assert link.sent + link.resent <= logged + 4 * window, "the backlog was sent more than once"
    station.close()
