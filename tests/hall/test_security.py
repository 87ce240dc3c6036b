"""Broker logins and ACLs: a wrong password is refused, a station cannot publish for another table or
rule, and a message naming another table than its topic is dropped. TLS works with the hall's CA."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from referee_station.hall.auth import station_user
from referee_station.hall.broker_url import BrokerURL, connect, make_client
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.hall.topics import Envelope, RulingCommand, topic
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for


def envelope(table: str, seq: int) -> bytes:
    body = f'{{"t":{seq}.0,"type":"tick"}}'
    return Envelope(f"{table}:forged:{seq}", table, "forged", seq, float(seq), "tick", True, body, time.time()).encode()


class RawClient:
    """A bare paho client logged in as some station: what a misbehaving station could send."""

    def __init__(self, url: str, client_id: str) -> None:
        self.results: dict[int, str] = {}
        self.connect_reason: str | None = None
        self.connected = threading.Event()
        self.client = make_client(BrokerURL.parse(url), client_id)
        self.client.on_connect = self._on_connect
        self.client.on_publish = self._on_publish
        connect(self.client, BrokerURL.parse(url))

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connect_reason = str(reason)
        if reason.is_failure:
            client.disconnect()
        else:
            self.connected.set()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        self.results[mid] = str(reason)

    def publish(self, name: str, payload: bytes) -> str:
        info = self.client.publish(name, payload, qos=1)
        wait_for(lambda: info.mid in self.results, what="PUBACK")
        return self.results[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_wrong_password_is_refused(hall: Hall, log_path: Path) -> None:
    LogStation(log_path, "T06").close()
    url = BrokerURL.parse(hall.station_url("T06")).with_login(station_user("T06"), "not-the-password")
    with StationLink(url, HALL, "T06", log_path) as link:
        wait_for(lambda: link.refused is not None, what="the refusal")
        assert not link.connected and link.refused in ("Bad user name or password", "Not authorized")


def test_station_cannot_publish_under_another_table_or_rule(hall: Hall, register: Register) -> None:
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        rogue = RawClient(hall.station_url("T07"), "rogue-T07")
        assert rogue.connected.wait(10)
        assert rogue.publish(topic(HALL, "T08", "events"), envelope("T08", 1)) == "Not authorized"
        assert rogue.publish(topic(HALL, "T08", "status"), b'{"state":"offline"}') == "Not authorized"
        ruling = RulingCommand("forged", 1, "confirm", "nobody").encode()
        assert rogue.publish(topic(HALL, "T07", "rulings"), ruling) == "Not authorized"
        assert rogue.publish(topic(HALL, "T07", "acks"), b'{"log":"x","seqs":[1]}') == "Not authorized"
        # allowed topic, but the envelope claims another table: the head drops it
        assert rogue.publish(topic(HALL, "T07", "events"), envelope("T08", 2)) == "Success"
        assert rogue.publish(topic(HALL, "T07", "events"), envelope("T07", 3)) == "Success"
        wait_for(lambda: head.stats.received == 1, what="the one good message")
        wait_for(lambda: len(register.records(HALL)) == 1, what="the one good message stored")
        rogue.close()
    assert [row[1] for row in register.records(HALL)] == ["T07"]
    assert [a.reason for a in head.alarms["T07"]] == ["envelope names table 'T08' on table T07's topic"]


def test_duplicates_are_dropped_by_id(hall: Hall, register: Register) -> None:
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        station = RawClient(hall.station_url("T09"), "raw-T09")
        assert station.connected.wait(10)
        for _ in range(3):
            assert station.publish(topic(HALL, "T09", "events"), envelope("T09", 1)) == "Success"
        wait_for(lambda: head.stats.received == 3, what="three copies")
        station.close()
    wait_for(lambda: head.stats.duplicates == 2, what="copies dropped")
    assert len(register.records(HALL, "T09")) == 1


def test_tls_listener_with_the_halls_ca(hall: Hall, register: Register, log_path: Path) -> None:
    station = LogStation(log_path, "T10")
    url = BrokerURL.parse(hall.station_url("T10", tls=True))
    assert url.tls and url.ca
    with (
        HeadConsole(BrokerURL.parse(hall.head_url(tls=True)), HALL, register) as head,
        StationLink(url, HALL, "T10", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        StationTable(station, after=link.flush).deal("E")
        assert link.wait_acked(15)
    assert [row[5] for row in register.records(HALL, "T10")] == station.lines()
    station.close()
