"""A private Mosquitto for tests, benchmarks and a one-machine dev hall.

Why: Debian's mosquitto package is not started in a container, and tests must not depend on a
shared broker. :class:`LocalMosquitto` writes a ``mosquitto.conf`` (listener on 127.0.0.1 at a free
port, no anonymous access, the hall's password and ACL files from ``auth``, optional TLS listener
with a self-signed certificate made by ``openssl``), runs it, and can restart it on the same ports
(the broker-restart test). Persistence is on, so a clean restart keeps queued QoS 1 messages; the
stations' resend covers an unclean one.

:data:`HALL_SETTINGS` are what any hall broker needs, this one or a production one (``hall
broker-files`` writes them as ``mosquitto-hall.conf``): above all ``use_username_as_clientid``, so a
client's id is its login and no station can take over the head's session or another station's by
asking for its client id.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


class BrokerMissing(RuntimeError):
    """The mosquitto binary is not installed (``apt-get install mosquitto``)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 free right now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def mosquitto_bin() -> str:
    found = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
    if not found:
        raise BrokerMissing("mosquitto not found on PATH or in /usr/sbin")
    return found


def self_signed_cert(directory: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A certificate (also the CA clients trust) and its key for ``host``; made by openssl."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30", "-keyout", str(key),
         "-out", str(cert), "-subj", f"/CN={host}", "-addext", f"subjectAltName=IP:{host}"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


HALL_SETTINGS: tuple[str, ...] = ("per_listener_settings false", "allow_anonymous false")
"""Logins required, on every listener."""
LISTENER_SETTINGS: tuple[str, ...] = ("use_username_as_clientid true",)
"""Each login is its own client id (no client-id takeover); Mosquitto wants it under every listener."""


def hall_conf_lines(password_file: Path, acl_file: Path, listeners: Sequence[Sequence[str]]) -> list[str]:
    """The access part of a hall broker's ``mosquitto.conf``; each listener is its ``listener`` line
    and its own settings (TLS files), if any."""
    lines = [*HALL_SETTINGS, f"password_file {password_file}", f"acl_file {acl_file}"]
    for listener, *settings in listeners:
        lines += [listener, *LISTENER_SETTINGS, *settings]
    return lines


def write_conf(
    directory: Path, port: int, password_file: Path, acl_file: Path, tls: tuple[int, Path, Path] | None = None
) -> Path:
    """The broker's configuration; ``tls`` is (port, certificate, key) for an extra TLS listener."""
    lines = [
        "user root",
        "persistence true",
        f"persistence_location {directory}/",
        "max_queued_messages 1000000",
        "max_inflight_messages 100",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
    ]
    listeners = [[f"listener {port} 127.0.0.1"]]
    if tls is not None:
        tls_port, cert, key = tls
        listeners.append([f"listener {tls_port} 127.0.0.1", f"cafile {cert}", f"certfile {cert}", f"keyfile {key}"])
    lines += hall_conf_lines(password_file, acl_file, listeners)
    conf = directory / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n")
    return conf


class LocalMosquitto:
    """``with LocalMosquitto(passwd, acl) as broker: broker.url`` — started, stopped and deleted."""

    def __init__(self, password_file: Path, acl_file: Path, *, tls: bool = False) -> None:
        self.binary = mosquitto_bin()
        self.root = Path(tempfile.mkdtemp(prefix="hall-mqtt-"))
        self.port = free_port()
        self.tls_port: int | None = None
        self.ca: Path | None = None
        tls_args = None
        if tls:
            self.tls_port = free_port()
            cert, key = self_signed_cert(self.root)
            self.ca = cert
            tls_args = (self.tls_port, cert, key)
        self.conf = write_conf(self.root, self.port, password_file, acl_file, tls_args)
        self._process: subprocess.Popen[bytes] | None = None

    def url(self, username: str, password: str, *, tls: bool = False) -> str:
        if tls:
            return f"mqtts://{username}:{password}@127.0.0.1:{self.tls_port}?ca={self.ca}"
        return f"mqtt://{username}:{password}@127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> LocalMosquitto:
        log = self.root / "mosquitto.log"
        with open(log, "ab") as out:
            self._process = subprocess.Popen([self.binary, "-c", str(self.conf)], stdout=out, stderr=out)
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                if self._process.poll() is not None:
                    raise RuntimeError(f"mosquitto exited: {log.read_text(errors='replace').strip()}") from None
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self, *, kill: bool = False) -> None:
        """Stop the broker: SIGTERM (it saves its queues) or, with ``kill``, SIGKILL (a crash)."""
        if self._process is not None and self._process.poll() is None:
            if kill:
                self._process.kill()
            else:
                self._process.terminate()
            self._process.wait(timeout=10)
        self._process = None

    def restart(self, *, kill: bool = False, down_for: float = 0.0) -> None:
        self.stop(kill=kill)
        time.sleep(down_for)
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> LocalMosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
