"""The PostgreSQL register: migrations, idempotent writes, referees, and the results CSV (RULES.md 8)."""

from __future__ import annotations

import csv
import io
import time

import psycopg
import pytest

from referee_station.hall.auth import check_referee, hash_referee
from referee_station.hall.migrations import SCHEMA_VERSION
from referee_station.hall.register import Register, RegisterError
from referee_station.hall.results import match_results, write_csv
from referee_station.hall.topics import Envelope
from referee_station.table.events import Record
from tests.hall.helpers import Recorder, StationTable
from tests.table.helpers import east_west_sweep

HALL = "r"


def envelopes(table: str, log: str, records: list[Record], first_seq: int = 1) -> list[Envelope]:
    return [
        Envelope(f"{table}:{log}:{seq}", table, log, seq, r.t, r.TYPE, r.IS_INPUT, r.to_line(), time.time())
        for seq, r in enumerate(records, start=first_seq)
    ]


def one_deal_match(sides: dict[str, str], first: str) -> list[Record]:
    """A one-deal match (R-MATCH-1 fixed length) swept by ``first``'s side, as its station logs it."""
    station = Recorder()
    table = StationTable(station, sides=sides, rules={"length_deals": 1})
    table.deal(first)
    east_west_sweep(table, first)
    return station.records


def test_migrations_are_applied_once_and_a_newer_schema_is_refused(register_dsn: str) -> None:
    with Register(register_dsn) as first, Register(register_dsn) as second:
        assert first.version == second.version == SCHEMA_VERSION
    with psycopg.connect(register_dsn, autocommit=True) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
        assert versions == list(range(1, SCHEMA_VERSION + 1))
        conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(RegisterError, match="newer"):
        Register(register_dsn)


def test_store_is_idempotent_by_id(register: Register) -> None:
    batch = envelopes("A1", "log1", one_deal_match({"EW": "a", "NS": "b"}, "E"))
    assert register.store(HALL, batch[:10]) == 10
    assert register.store(HALL, batch) == len(batch) - 10  # ON CONFLICT (id) DO NOTHING
    assert register.store(HALL, batch) == 0
    assert [row[5] for row in register.records(HALL, "A1")] == [e.body for e in batch]


def test_referee_passwords_are_salted_and_checked(register: Register) -> None:
    register.add_referee(hash_referee("wang", "pw1", iterations=1000))
    row = register.referee("wang")
    assert row is not None and row.hash != b"pw1" and len(row.salt) == 16
    assert check_referee(row, "pw1") and not check_referee(row, "pw2") and not check_referee(None, "pw1")
    other = hash_referee("zhao", "pw1", iterations=1000)
    assert other.salt != row.salt and other.hash != row.hash


def test_results_per_round_csv(register: Register) -> None:
    """Round 1 at two tables, round 2 at one; an unfinished match is left out (R-MATCH-2)."""
    round1 = one_deal_match({"EW": "Pair 1", "NS": "Pair 2"}, "E")
    register.store(HALL, envelopes("A1", "x", round1))
    register.store(HALL, envelopes("A2", "y", one_deal_match({"EW": "Pair 3", "NS": "Pair 4"}, "S")))
    round2 = one_deal_match({"EW": "Pair 2", "NS": "Pair 1"}, "N")
    register.store(HALL, envelopes("A1", "x", round2, first_seq=len(round1) + 1))
    register.store(HALL, envelopes("A2", "z", one_deal_match({"EW": "Pair 4", "NS": "Pair 3"}, "E")[:5]))

    results = match_results(register, HALL)
    assert [(r.round, r.table) for r in results] == [(1, "A1"), (2, "A1"), (1, "A2")]
    out = io.StringIO()
    assert write_csv(results, out, round_no=1) == 2
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(r["table"], r["pair"], r["opponent"], r["result"]) for r in rows] == [
        ("A1", "Pair 1", "Pair 2", "win"),
        ("A1", "Pair 2", "Pair 1", "loss"),
        ("A2", "Pair 3", "Pair 4", "loss"),
        ("A2", "Pair 4", "Pair 3", "win"),
    ]
    first = rows[0]
    assert (first["match_points"], first["level_diff_points"], first["levels_gained"], first["levels_conceded"]) == (
        "2", "16", "3", "0",
    )  # fmt: skip
    assert (rows[1]["match_points"], rows[1]["level_diff_points"], rows[1]["levels_conceded"]) == ("0", "10", "3")
