"""The table's health as a core type (issue #26): one bool per unit, written and read as the plain mapping,
a bad key or value named; the ``health`` log line's unit is the same ``Unit``."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest

from referee_station.core import Health, Unit
from referee_station.table.events import EventError, parse_line
from referee_station.table.events import Health as HealthLine


def test_units_hold_the_logs_strings_and_a_fresh_table_is_all_up():
    assert [*Unit] == ["camera", "timer", "seats"]
    health = Health()
    assert health.all_ok and all(health.ok(unit) for unit in Unit)
    assert health.to_json() == {"camera": True, "timer": True, "seats": True}


def test_replace_sets_one_unit_and_leaves_the_health_it_came_from():
    before = Health()
    after = before.replace(Unit.CAMERA, False)
    assert before.all_ok and not after.all_ok
    assert not after.ok(Unit.CAMERA) and after.ok(Unit.TIMER) and after.ok(Unit.SEATS)
    assert after == Health(camera=False) and after.replace(Unit.CAMERA, True) == before
    assert after.ok("camera") is False  # the log's string names the unit too
    with pytest.raises(FrozenInstanceError):
        after.camera = True  # type: ignore[misc]


def test_json_round_trip_in_units_order():
    health = Health(camera=True, timer=False, seats=False)
    text = json.dumps(health.to_json())
    assert text == '{"camera": true, "timer": false, "seats": false}'
    assert Health.from_json(json.loads(text)) == health


@pytest.mark.parametrize(
    ("obj", "named"),
    [
        ({"camera": True, "timer": True, "seats": True, "deck": True}, "'deck'"),
        ({"camera": True, "timer": True}, "'seats'"),
        ({"camera": True, "timer": "yes", "seats": True}, "'timer'.*'yes'"),
        ({"camera": 1, "timer": True, "seats": True}, "'camera'.*1"),
        (["camera"], r"\['camera'\]"),
    ],
)
def test_from_json_names_the_bad_key_or_value(obj, named):
    with pytest.raises(ValueError, match=named):
        Health.from_json(obj)


def test_the_health_line_holds_the_unit_and_writes_the_same_json():
    line = '{"t":4.0,"type":"health","unit":"seats","state":"offline","detail":"seat units offline"}'
    record = parse_line(line)
    assert isinstance(record, HealthLine) and record.unit is Unit.SEATS and record.to_line() == line
    made = HealthLine(4.0, "seats", "offline", "seat units offline")
    assert made.unit is Unit.SEATS and made == record
    with pytest.raises(EventError, match=r"health: field 'unit' must be one of camera timer seats, got 'deck'"):
        HealthLine(4.0, "deck", "warning")
    with pytest.raises(EventError, match=r"health: field 'unit' must be one of camera timer seats, got 'deck'"):
        parse_line('{"t":4.0,"type":"health","unit":"deck","state":"ok"}')
