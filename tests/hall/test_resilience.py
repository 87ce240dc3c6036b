"""Nothing lost, nothing twice: a broker restart and a station's network loss in the middle of a match."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest

from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for
from tests.hall.proxy import CablePull
from tests.table.helpers import east_west_sweep


def assert_register_is_the_log(register: Register, table: str, station: LogStation) -> None:
    rows = register.records(HALL, table)
    assert len({row[0] for row in rows}) == len(rows)
    assert [row[5] for row in rows] == station.lines()


@pytest.mark.parametrize("kill", [False, True], ids=["sigterm", "sigkill"])
def test_broker_restart_mid_match(hall: Hall, register: Register, log_path: Path, kill: bool) -> None:
    table_id = "T02" if kill else "T03"
    station = LogStation(log_path, table_id)
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head,
        StationLink(BrokerURL.parse(hall.station_url(table_id)), HALL, table_id, log_path, resend_after=2) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        table = StationTable(station, after=link.flush, rules={"length_deals": 1})
        table.deal("E")
        table.play("E", "3s 3h 3d 3c 3s 3h 3d 3c")
        hall.broker.stop(kill=kill)
        wait_for(lambda: not link.connected, what="the station noticing the broker is gone")
        table.pass_("N", "W", "S")  # the station referees on; its log is the buffer
        table.play("E", "4s 4h 4d 4c 4s 4h 4d 4c")
        hall.broker.start()
        table.pass_("N", "W", "S")
        east_west_sweep_rest(table)
        assert link.wait_acked(30), f"{link.outbox.unacked()} records never reached the register"
    assert_register_is_the_log(register, table_id, station)
    assert [row[4] for row in register.records(HALL, table_id, ["match_end"])] == ["match_end"]
    station.close()


def east_west_sweep_rest(table: StationTable) -> None:
    """The rest of ``east_west_sweep`` after E's first two bombs (E: 5s bomb, report, 666; W: 接风)."""
    table.play("E", "5s 5h 5d 5c 5s 5h 5d 5c")
    table.report("E", 3)
    table.pass_("N", "W", "S")
    table.play("E", "6s 6h 6d")
    table.pass_("N", "W", "S")
    for rank in "789":
        table.play("W", " ".join(f"{rank}{s}" for s in "sshhddcc"))
        if rank == "9":
            table.report("W", 3)
        table.pass_("S", "N")
    table.play("W", "Ts Th Td")


def test_station_network_loss_mid_match(hall: Hall, register: Register, log_path: Path) -> None:
    station = LogStation(log_path, "T04")
    cable = CablePull(hall.broker.port)
    url = BrokerURL.parse(hall.station_url("T04"))
    url = BrokerURL(url.host, cable.port, url.username, url.password)
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head,
        StationLink(url, HALL, "T04", log_path, resend_after=2) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        table = StationTable(station, after=link.flush, rules={"length_deals": 1})
        table.deal("E")
        wait_for(lambda: head.statuses.get("T04") == "online", what="online")
        cable.cut()
        wait_for(lambda: head.statuses.get("T04") == "offline", what="the last will")
        east_west_sweep(table, "E")  # the whole deal while cut off
        assert link.outbox.unacked() > 0
        cable.restore()
        assert link.wait_acked(30), f"{link.outbox.unacked()} records never reached the register"
        wait_for(lambda: head.statuses.get("T04") == "online", what="online again")
    cable.close()
    assert_register_is_the_log(register, "T04", station)
    station.close()


def test_lost_acks_and_a_restarted_head_still_store_each_record_once(
    hall: Hall, register: Register, log_path: Path
) -> None:
    """Acks lost (a power cut) make the station resend everything to a head restarted with an empty
    memory: the register's ON CONFLICT (id) DO NOTHING keeps one copy."""
    station = LogStation(log_path, "T05")
    url = BrokerURL.parse(hall.station_url("T05"))
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head,
        StationLink(url, HALL, "T05", log_path) as link,
    ):
        assert head.wait_connected(10)
        table = StationTable(station, after=link.flush, rules={"length_deals": 1})
        table.deal("E")
        table.pass_("W")
        assert link.wait_acked(15)
    before = len(station.lines())
    with sqlite3.connect(log_path) as db:
        db.execute("DELETE FROM hall_acked")
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head,
        StationLink(url, HALL, "T05", log_path) as link,
    ):
        table.after = link.flush
        east_west_sweep(table, "E")
        assert link.wait_acked(15)
        assert head.stats.duplicates == before and head.stats.stored == len(station.lines()) - before
    assert_register_is_the_log(register, "T05", station)
    station.close()


def test_register_connection_lost_mid_match(hall: Hall, register_dsn: str, register: Register, log_path: Path) -> None:
    """The head's PostgreSQL session dies: the head reconnects and stores on; nothing is acked before."""
    station = LogStation(log_path, "T13")
    with (
        Register(register_dsn) as head_register,
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, head_register) as head,
        StationLink(BrokerURL.parse(hall.station_url("T13")), HALL, "T13", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        table = StationTable(station, after=link.flush, rules={"length_deals": 1})
        table.deal("E")
        assert link.wait_acked(15)
        killed = head_register.backend_pid
        with psycopg.connect(register_dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (killed,))
        east_west_sweep(table, "E")
        assert link.wait_acked(30)
        assert head_register.backend_pid != killed  # it reconnected
    assert_register_is_the_log(register, "T13", station)
    station.close()
