"""A private PostgreSQL server for tests, benchmarks and a one-machine dev hall.

Why run our own: Debian's packaged cluster is not started in a container, and ``initdb`` refuses to
run as root. The server runs as the ``postgres`` user (``Popen(user=...)`` when we are root) in a
directory of its own, listening only on 127.0.0.1 and a private socket directory, with fsync off
(a throwaway register; a real hall runs a managed PostgreSQL and passes its DSN).
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from referee_station.hall.broker import free_port


class ServerMissing(RuntimeError):
    """PostgreSQL's server binaries are not installed (``apt-get install postgresql``)."""


def pg_bin() -> Path:
    """The newest installed ``/usr/lib/postgresql/<v>/bin`` with ``initdb`` and ``postgres``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise ServerMissing("PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin")
    return Path(found[-1]).parent


class LocalPostgres:
    """``with LocalPostgres() as pg: pg.dsn`` — a fresh cluster, stopped and deleted on exit."""

    def __init__(self) -> None:
        self.bin = pg_bin()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="hall-pg-"))
        self._as_postgres = os.geteuid() == 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self, timeout: float = 30.0) -> LocalPostgres:
        data, sockets = self.root / "data", self.root / "sock"
        sockets.mkdir()
        if self._as_postgres:
            shutil.chown(self.root, "postgres")
            shutil.chown(sockets, "postgres")
        user = "postgres" if self._as_postgres else None
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"],
            check=True,
            capture_output=True,
            user=user,
            cwd=self.root,
        )
        self._process = subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(self.port),
             "-k", str(sockets), "-c", "fsync=off", "-c", "synchronous_commit=off",
             "-c", "full_page_writes=off", "-c", "max_connections=100"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            user=user,
            cwd=self.root,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            try:
                psycopg.connect(self.dsn, connect_timeout=1).close()
                return self
            except psycopg.OperationalError:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise
                time.sleep(0.1)

    def database(self, name: str) -> str:
        """Create an empty database (one per test that needs a clean register); returns its DSN."""
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGQUIT)  # immediate shutdown: the data is thrown away
            try:
                self._process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
