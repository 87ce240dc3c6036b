"""Who may do what in a hall.

Two kinds of accounts, kept apart on purpose:

- Broker users (Mosquitto ``password_file`` + ``acl_file``): one per station, ``station-<table>``,
  which may publish only its own table's log channels and read only its own rulings and acks, and
  ``head`` for the head console, which reads the whole hall and alone publishes rulings and acks.
  A station with a wrong password is refused at CONNECT; a publish under another table is refused by
  the ACL (MQTT v5 says "not authorized") and never reaches the head.
- Referees (the register's ``referees`` table): a person logs in on the head console before any
  ruling, and the ruling is recorded under that name. Passwords are salted PBKDF2-SHA256 (hashlib),
  compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from referee_station.hall.register import RefereeRow
from referee_station.hall.rounds import round_topic
from referee_station.hall.topics import HEAD_CHANNELS, ROOT, STATION_CHANNELS, check_name

HEAD_USER = "head"
REFEREE_ITERATIONS = 600_000
"""PBKDF2-SHA256 rounds for referee passwords (OWASP 2023 figure; about 0.3 s a login here)."""
MOSQUITTO_ITERATIONS = 101
"""What ``mosquitto_passwd`` uses (format ``$7$``: PBKDF2-SHA512); the broker checks every CONNECT."""


class LoginError(PermissionError):
    """No referee logged in, or a wrong name or password."""


def station_user(table: str) -> str:
    return f"station-{check_name(table, 'table')}"


def new_password() -> str:
    return secrets.token_urlsafe(18)


# ---------------------------------------------------------------------------------------------- referees


def hash_referee(name: str, password: str, iterations: int = REFEREE_ITERATIONS) -> RefereeRow:
    salt = secrets.token_bytes(16)
    return RefereeRow(name, salt, hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations), iterations)


def check_referee(row: RefereeRow | None, password: str) -> bool:
    if row is None:
        hashlib.pbkdf2_hmac("sha256", password.encode(), b"\0" * 16, REFEREE_ITERATIONS)  # same time as a miss
        return False
    given = hashlib.pbkdf2_hmac("sha256", password.encode(), row.salt, row.iterations)
    return hmac.compare_digest(given, row.hash)


@dataclass(frozen=True)
class Session:
    """A referee logged in on the head console; every ruling names one."""

    referee: str
    token: str


# ---------------------------------------------------------------------------------------------- broker


def mosquitto_password_line(user: str, password: str) -> str:
    """One ``password_file`` line as ``mosquitto_passwd`` writes it: ``user:$7$101$salt$hash``."""
    salt = secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, MOSQUITTO_ITERATIONS)
    b64 = base64.b64encode
    return f"{user}:$7${MOSQUITTO_ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def acl_text(hall: str, tables: Iterable[str]) -> str:
    """The ACL: a station writes only its own log channels and reads only its own rulings and acks, and
    the hall's round clock, which only the head writes."""
    hall = check_name(hall, "hall")
    base = f"{ROOT}/{hall}"
    lines = [f"user {HEAD_USER}", f"topic read {base}/#"]
    lines += [f"topic write {base}/+/{channel}" for channel in HEAD_CHANNELS]
    lines += [f"topic write {round_topic(hall)}"]
    for table in tables:
        lines += ["", f"user {station_user(table)}"]
        lines += [f"topic write {base}/{table}/{channel}" for channel in STATION_CHANNELS]
        lines += [f"topic read {base}/{table}/{channel}" for channel in HEAD_CHANNELS]
        lines += [f"topic read {round_topic(hall)}"]
    return "\n".join(lines) + "\n"


def write_broker_files(
    directory: Path, hall: str, stations: Mapping[str, str], head_password: str
) -> tuple[Path, Path]:
    """Write ``passwd`` and ``acl`` for Mosquitto; ``stations`` maps table -> password."""
    directory.mkdir(parents=True, exist_ok=True)
    passwd, acl = directory / "passwd", directory / "acl"
    lines = [mosquitto_password_line(HEAD_USER, head_password)]
    lines += [mosquitto_password_line(station_user(table), password) for table, password in stations.items()]
    passwd.write_text("\n".join(lines) + "\n")
    passwd.chmod(0o600)
    acl.write_text(acl_text(hall, stations))
    return passwd, acl
