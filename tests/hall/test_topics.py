"""Topic names, the envelope, broker URLs and the station wiring without a broker (no servers)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from referee_station.hall.broker_url import PASSWORD_ENV, BrokerURL, BrokerURLError
from referee_station.hall.linked import add_broker_arguments, link_station
from referee_station.hall.topics import Envelope, TopicError, channel_of, split_topic, topic


@pytest.mark.parametrize(
    ("record_type", "channel"),
    [("play", "events"), ("ruling", "events"), ("tick", "events"), ("flag", "flags"), ("penalty", "flags"),
     ("deal_end", "results"), ("match_end", "results"), ("countdown", "clocks")],
)  # fmt: skip
def test_channels(record_type: str, channel: str) -> None:
    assert channel_of(record_type) == channel


@pytest.mark.parametrize("name", ["", "a/b", "+", "#", "x" * 65, "t 1"])
def test_names_that_would_escape_a_topic_level_are_refused(name: str) -> None:
    with pytest.raises(TopicError):
        topic("hall", name, "events")
    with pytest.raises(TopicError):
        topic(name, "T01", "events")


def test_topic_round_trip_and_envelope() -> None:
    assert split_topic(topic("east", "T01", "flags")) == ("east", "T01", "flags")
    with pytest.raises(TopicError):
        split_topic("other/east/T01/flags")
    envelope = Envelope("T01:ab12:7", "T01", "ab12", 7, 3.5, "pass", True, '{"t":3.5,"type":"pass","seat":"E"}', 1.0)
    assert Envelope.decode(envelope.encode()) == envelope
    for bad in (b"not json", b"[1]", b'{"id": 1}'):
        with pytest.raises(TopicError):
            Envelope.decode(bad)


def test_broker_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    url = BrokerURL.parse("mqtt://station-T01:p%40ss@127.0.0.1:1884")
    assert (url.host, url.port, url.username, url.password, url.tls) == (
        "127.0.0.1",
        1884,
        "station-T01",
        "p@ss",
        False,
    )
    monkeypatch.setenv(PASSWORD_ENV, "from-env")
    tls = BrokerURL.parse("mqtts://head@127.0.0.1?ca=/etc/hall/ca.pem")
    assert (tls.port, tls.password, tls.tls, tls.ca) == (8883, "from-env", True, "/etc/hall/ca.pem")
    assert str(tls) == "mqtts://head@127.0.0.1:8883"  # never the password
    with pytest.raises(BrokerURLError):
        BrokerURL.parse("http://127.0.0.1")


def test_without_broker_the_station_is_unchanged() -> None:
    parser = argparse.ArgumentParser()
    add_broker_arguments(parser)
    station = object()
    assert link_station(parser.parse_args([]), station, "T01", Path("unused.sqlite"), lambda: 0.0) is station
