"""A table's result straight from the hall's PostgreSQL register (``hall/register.py``): the last
``match_end`` the table's station published, read as the station's own log would be.

Kept apart from :mod:`.intake` because it needs the ``[hall]`` extra (psycopg)."""

from __future__ import annotations

import json

from referee_station.event.intake import IntakeError, last_match_end
from referee_station.hall.register import Register
from referee_station.table.events import EventError, MatchEnd, parse_record


def register_match_end(register: Register, hall: str, table: str) -> MatchEnd:
    """The last ``match_end`` of ``table`` in the register, by the time it was stored."""
    rows = sorted(register.records(hall, table, types=("match_end",)), key=lambda row: (row[6], row[3]))
    source = f"register hall {hall!r} table {table!r}"
    records = []
    for record_id, *_rest, body, _stored_at in rows:
        try:
            records.append(parse_record(json.loads(body)))
        except (json.JSONDecodeError, EventError) as err:
            raise IntakeError(f"{source}: record {record_id}: {err}") from err
    return last_match_end(records, source)
