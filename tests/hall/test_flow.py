"""A table's whole log reaches the register once; a head ruling reaches the station and its log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_station.hall.auth import LoginError, hash_referee
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.table.events import Record
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for
from tests.table.helpers import east_west_sweep


def test_match_reaches_the_register_and_a_head_ruling_reaches_the_station(
    hall: Hall, register: Register, log_path: Path
) -> None:
    register.add_referee(hash_referee("li", "secret", iterations=1000))
    station = LogStation(log_path, "T01")
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head,
        StationLink(BrokerURL.parse(hall.station_url("T01")), HALL, "T01", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        table = StationTable(station, after=link.flush, rules={"length_deals": 1})
        table.deal("E")
        flag = table.pass_("W")[0]  # out of turn: a warning proposed (R-PLAY-1)
        assert flag["type"] == "flag"
        wait_for(lambda: head.statuses.get("T01") == "online", what="retained online status")
        wait_for(lambda: len(register.records(HALL, "T01", ["flag"])) == 1, what="the flag in the register")

        with pytest.raises(LoginError):
            head.rule(None, "T01", flag["id"], "confirm")
        with pytest.raises(LoginError):
            head.login("li", "wrong")
        session = head.login("li", "secret")
        command = head.rule(session, "T01", flag["id"], "confirm")

        linked = LinkedStation(station, link, clock=lambda: table.t + 0.5)
        penalties: list[Record] = []
        wait_for(lambda: bool(penalties.extend(linked.apply_rulings()) or penalties), what="the ruling applied")
        assert [p.to_json()["penalty"] for p in penalties] == ["warning"]
        assert not link.apply(command, table.t + 1, station.submit)  # a copy is never applied twice
        east_west_sweep(table, "E")
        assert link.wait_acked(15)
        wait_for(lambda: register.ruling_applied(command.id) is not None, what="the ruling linked to its record")
        link.close()
        wait_for(lambda: head.statuses.get("T01") == "offline", what="offline status")

    stored = [body for (_id, _t, _log, _seq, _type, body, _at) in register.records(HALL, "T01")]
    assert stored == station.lines()  # every record, once, in log order
    rulings = [json.loads(b) for b in stored if json.loads(b)["type"] == "ruling"]
    assert rulings == [{"t": rulings[0]["t"], "type": "ruling", "flag": 1, "decision": "confirm", "stop_next": False}]
    assert [json.loads(b)["penalty"] for b in stored if json.loads(b)["type"] == "penalty"] == ["warning"]
    assert register.statuses(HALL)["T01"] == "offline"
    assert head.stats.duplicates == 0 and head.stats.dropped == 0
    station.close()


def test_a_ruling_sent_before_the_station_connected_is_resent_when_it_comes_online(
    hall: Hall, register: Register, log_path: Path
) -> None:
    register.add_referee(hash_referee("li", "secret", iterations=1000))
    station = LogStation(log_path, "T12")
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        command = head.rule(head.login("li", "secret"), "T12", 1, "dismiss")  # T12 has never connected
        with StationLink(BrokerURL.parse(hall.station_url("T12")), HALL, "T12", log_path) as link:
            table = StationTable(station, after=link.flush)
            table.deal("E")
            table.pass_("W")
            linked = LinkedStation(station, link, clock=lambda: table.t + 0.5)
            wait_for(lambda: linked.apply_rulings() is not None and link.outbox.applied(command.id), what="ruling")
            wait_for(lambda: register.ruling_applied(command.id) is not None, what="the ruling's record")
    assert register.unapplied_rulings(HALL, "T12") == []
    station.close()
