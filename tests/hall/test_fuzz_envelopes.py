"""The envelope fuzzer in CI (issue 25): hypothesis on the head's check, then a seeded batch through
the real Mosquitto and PostgreSQL while another table plays. ``python -m benchmarks.fuzz`` runs more."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.hall.topics import topic
from tests.fuzzing import check_envelope, envelope_payloads, random_envelope
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for
from tests.hall.test_security import RawClient

FUZZED = 300


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(envelope_payloads())
def test_every_envelope_is_accepted_consistent_or_refused(payload: bytes) -> None:
    check_envelope(payload)


def test_fuzzed_envelopes_through_the_broker_stop_no_table(hall: Hall, register: Register, log_path: Path) -> None:
    rng = random.Random(25)
    payloads = [random_envelope(rng, "T33") for _ in range(FUZZED)]
    verdicts = [check_envelope(payload, "T33") for payload in payloads]
    good_ids = {json.loads(p)["id"] for p, v in zip(payloads, verdicts, strict=True) if v == "stored"}
    station = LogStation(log_path, "T34")
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register) as head:
        assert head.wait_connected(10)
        fuzzer = RawClient(hall.station_url("T33"), "fuzzer")
        assert fuzzer.connected.wait(10)
        with StationLink(BrokerURL.parse(hall.station_url("T34")), HALL, "T34", log_path) as link:
            assert link.wait_connected(10)
            table = StationTable(station, after=link.flush)
            table.deal("E")
            for payload in payloads:
                channel = rng.choice(["events", "flags", "results", "clocks"])
                fuzzer.client.publish(topic(HALL, "T33", channel), payload, qos=1)
            table.play("E", "3s")  # T34 plays on while the fuzzed messages are still arriving
            assert link.wait_acked(20), "T34's records were not all stored while T33 was fuzzed"
        quarantined = verdicts.count("quarantined")
        wait_for(lambda: len(register.quarantined(HALL, "T33")) == quarantined, timeout=30, what="every alarm")
        wait_for(lambda: len(register.records(HALL, "T33")) == len(good_ids), what="T33's valid records")
        fuzzer.close()
        assert head._writer.is_alive()
    assert [row[5] for row in register.records(HALL, "T34")] == station.lines()
    assert {row[0] for row in register.records(HALL, "T33")} == good_ids
