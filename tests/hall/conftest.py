"""A real Mosquitto and a real PostgreSQL on 127.0.0.1 for the hall tests, started once per session.

Installed by ``scripts/setup.sh`` from Debian packages (``mosquitto``, ``postgresql``); where they
are missing the hall tests are skipped with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="the [hall] extra is not installed (pip install -e '.[hall]')")
pytest.importorskip("psycopg", reason="the [hall] extra is not installed (pip install -e '.[hall]')")

from referee_station.hall.auth import new_password, station_user, write_broker_files
from referee_station.hall.broker import BrokerMissing, LocalMosquitto
from referee_station.hall.localpg import LocalPostgres, ServerMissing
from referee_station.hall.register import Register

HALL = "h"
TABLES = [f"T{n:02d}" for n in range(1, 41)]
_databases = itertools.count(1)


@dataclass
class Hall:
    broker: LocalMosquitto
    passwords: dict[str, str]
    head_password: str

    def station_url(self, table: str, *, tls: bool = False) -> str:
        return self.broker.url(station_user(table), self.passwords[table], tls=tls)

    def head_url(self, *, tls: bool = False) -> str:
        return self.broker.url("head", self.head_password, tls=tls)


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    try:
        server = LocalPostgres()
    except ServerMissing as err:
        pytest.skip(f"PostgreSQL not installed: {err}")
    with server:
        yield server


@pytest.fixture
def register_dsn(postgres: LocalPostgres) -> str:
    """A fresh, empty database for one test."""
    return postgres.database(f"hall_{next(_databases)}")


@pytest.fixture
def register(register_dsn: str) -> Iterator[Register]:
    with Register(register_dsn) as reg:
        yield reg


@pytest.fixture(scope="session")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    files = tmp_path_factory.mktemp("broker")
    passwords = {table: new_password() for table in TABLES}
    head_password = new_password()
    passwd, acl = write_broker_files(files, HALL, passwords, head_password)
    try:
        broker = LocalMosquitto(passwd, acl, tls=True)
    except BrokerMissing as err:
        pytest.skip(f"Mosquitto not installed: {err}")
    with broker:
        yield Hall(broker, passwords, head_password)


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "station.sqlite"
