"""``referee-station hall``: broker files, adding a referee, the head console on stdin, the export."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from referee_station.cli import build_parser
from referee_station.commands import hall as command
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for
from tests.table.helpers import east_west_sweep


def parse(*argv: str) -> object:
    return build_parser().parse_args(["hall", *argv])


def test_broker_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert command.run(parse("broker-files", "--dir", str(tmp_path), "--tables", "A1,A2", "--hall", "x")) == 0
    users = [line.split(":")[0] for line in (tmp_path / "passwd").read_text().splitlines()]
    assert users == ["head", "station-A1", "station-A2"]
    assert "topic write guandan/x/A2/events" in (tmp_path / "acl").read_text()
    assert (tmp_path / "stations.csv").stat().st_mode & 0o077 == 0
    assert "use_username_as_clientid true" in (tmp_path / "mosquitto-hall.conf").read_text().splitlines()
    assert command.run(parse("broker-files", "--dir", str(tmp_path), "--tables", "A/1")) == 2
    assert "must be 1-64" in capsys.readouterr().err


def test_head_console_session_and_export(
    hall: Hall, register_dsn: str, log_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("secret-pw\n"))
    assert command.run(parse("referee", "--db", register_dsn, "--name", "li")) == 0
    read, write = os.pipe()
    with os.fdopen(read) as stdin, os.fdopen(write, "w", buffering=1) as typing:
        monkeypatch.setattr("sys.stdin", stdin)
        args = parse("--broker", hall.head_url(), "--db", register_dsn, "--hall", HALL)
        console = threading.Thread(target=command.run, args=(args,))
        console.start()
        station = LogStation(log_path, "T11")
        with StationLink(BrokerURL.parse(hall.station_url("T11")), HALL, "T11", log_path) as link:
            linked = LinkedStation(station, link, clock=lambda: table.t + 0.5)
            match = {"sides": {"EW": "Pair 1", "NS": "Pair 2"}, "rules": {"length_deals": 1}}
            table = StationTable(linked, referee=station.referee, **match)
            table.deal("E")
            table.pass_("W")
            typing.write("rule T11 1 confirm\nlogin li\nwrong\nlogin li\nsecret-pw\nrule T11 1 confirm\n")
            wait_for(lambda: bool(linked.apply_rulings()), what="the ruling at the station")
            east_west_sweep(table, "E")
            assert link.wait_acked(15)
            typing.write("assign T11 甲队 乙队\nassign T/1 a b\ntables\nquit\n")
            console.join(15)
    out = capsys.readouterr().out
    assert "refused: log in as a referee before ruling" in out
    assert "refused: wrong referee name or password" in out
    assert "logged in: li" in out and "sent to T11 by li" in out and "T11 online" in out
    assert 'T11 flag t=2.0 id=1 seat="W"' in out and 'T11 ruling t=2.5 flag=1 decision="confirm"' in out
    assert "T11 match_end" in out
    assert "assigned T11: EW 甲队, NS 乙队" in out and "refused: table 'T/1' must be 1-64" in out

    assert command.run(parse("export", "--db", register_dsn, "--hall", HALL, "--round", "1")) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("round,table,side,pair,opponent,result,match_points,level_diff_points")
    assert rows[1].startswith("1,T11,EW,Pair 1,Pair 2,win,2,16,3,0,")
    station.close()
