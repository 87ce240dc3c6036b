"""The hall register's schema, as numbered migrations (applied in order, each once, in one
transaction with its ``schema_migrations`` row, under an advisory lock so two head consoles starting
together cannot both apply one).

``records`` mirrors the station's SQLite ``records`` table (EventStore schema version 1: ``seq``,
``table_id``, ``t``, ``type``, ``is_input``, ``body``) plus what a hall needs: the message ``id``
(primary key, so a resent record is stored once, ``ON CONFLICT (id) DO NOTHING``), the ``hall``, the
station's ``log`` id, the ``cause`` (ruling command applied) and the two clocks for latency.
``evidence`` keeps each flag's camera frame (JPEG, ``bytea``) under the flag's table, log and id.
"""

from __future__ import annotations

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE records (id TEXT PRIMARY KEY, hall TEXT NOT NULL, table_id TEXT NOT NULL,"
        " log TEXT NOT NULL, seq BIGINT NOT NULL, t DOUBLE PRECISION NOT NULL, type TEXT NOT NULL,"
        " is_input INTEGER NOT NULL, body TEXT NOT NULL, cause TEXT, sent_at DOUBLE PRECISION NOT NULL,"
        " stored_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())",
        "CREATE INDEX records_table ON records (hall, table_id, log, seq)",
        "CREATE INDEX records_type ON records (hall, type)",
        "CREATE TABLE table_status (hall TEXT NOT NULL, table_id TEXT NOT NULL, state TEXT NOT NULL,"
        " body TEXT NOT NULL, updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),"
        " PRIMARY KEY (hall, table_id))",
    ),
    2: (
        "CREATE TABLE referees (name TEXT PRIMARY KEY, salt BYTEA NOT NULL, hash BYTEA NOT NULL,"
        " iterations INTEGER NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())",
        "CREATE TABLE rulings (id TEXT PRIMARY KEY, hall TEXT NOT NULL, table_id TEXT NOT NULL,"
        " flag INTEGER NOT NULL, decision TEXT NOT NULL, stop_next BOOLEAN NOT NULL, referee TEXT NOT NULL"
        " REFERENCES referees (name), issued_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),"
        " applied_record TEXT)",
    ),
    3: (
        "CREATE TABLE quarantine (id BIGSERIAL PRIMARY KEY, hall TEXT NOT NULL, table_id TEXT NOT NULL,"
        " topic TEXT NOT NULL, reason TEXT NOT NULL, payload BYTEA NOT NULL,"
        " received_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())",
        "CREATE INDEX quarantine_table ON quarantine (hall, table_id, id)",
    ),
    4: (
        "CREATE TABLE evidence (hall TEXT NOT NULL, table_id TEXT NOT NULL, log TEXT NOT NULL,"
        " flag INTEGER NOT NULL, t DOUBLE PRECISION NOT NULL, jpeg BYTEA NOT NULL,"
        " sent_at DOUBLE PRECISION NOT NULL, stored_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),"
        " PRIMARY KEY (hall, table_id, log, flag))",
    ),
    5: ("ALTER TABLE rulings ADD COLUMN correction TEXT",),  # a settle / reverse sent by the head (#30)
}
"""Statements that bring the register from version ``n - 1`` to ``n``. Never edit a released step:
add the next one."""

SCHEMA_VERSION = max(MIGRATIONS)
