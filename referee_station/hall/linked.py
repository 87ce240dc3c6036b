"""A table station on the hall bus: the wiring ``referee-station run --broker URL`` uses.

The station (``referee_station.log.station.TableStation``: feed the referee, log atomically) stays
the only writer of the referee and the log; :class:`LinkedStation` wraps its ``submit`` so every
logged record is sent at once, and applies the head's rulings between two events, from the
station's own thread. Without a broker the station is unchanged: the bus is an addition, never a
condition for refereeing, nor paho-mqtt (the ``[hall]`` extra) a condition for starting ``run``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from referee_station.table.events import Record

if TYPE_CHECKING:
    from referee_station.hall.publisher import StationLink


class Station(Protocol):
    """What the link needs of a station: ``TableStation.submit``."""

    def submit(self, event: Record) -> Sequence[Record]: ...


class LinkedStation:
    """``submit`` logs and sends; ``apply_rulings`` feeds the head's rulings as ``ruling`` events."""

    def __init__(self, station: Station, link: StationLink, clock: Callable[[], float]) -> None:
        self.station = station
        self.link = link
        self.clock = clock
        """The table's clock (seconds since the log began), stamped on applied rulings."""

    def submit(self, event: Record) -> list[Record]:
        outputs = list(self.station.submit(event))
        self.link.flush()
        return outputs

    def apply_rulings(self) -> list[Record]:
        """Apply every ruling received from the head; returns the outputs they caused (penalties)."""
        outputs: list[Record] = []
        for command in self.link.take_rulings():
            self.link.apply(command, self.clock(), lambda event: outputs.extend(self.station.submit(event)))
        return outputs

    def close(self) -> None:
        self.link.close()


def add_broker_arguments(parser: argparse.ArgumentParser) -> None:
    """The options ``run`` adds for the hall (``--table`` is the run command's own)."""
    parser.add_argument("--broker", help="mqtt://station-<table>@host:port or mqtts://…?ca=FILE (password: URL or "
                        "$REFEREE_STATION_MQTT_PASSWORD); without it the station works alone")  # fmt: skip
    parser.add_argument("--hall", default="hall", help="the hall's name in topics (default: hall)")


def link_station(
    args: argparse.Namespace, station: Station, table: str, log_path: Path, clock: Callable[[], float]
) -> Station:
    """The station itself without ``--broker``; with it, a :class:`LinkedStation` already connecting."""
    if not args.broker:
        return station
    from referee_station.hall.broker_url import BrokerURL
    from referee_station.hall.publisher import StationLink

    link = StationLink(BrokerURL.parse(args.broker), args.hall, table, log_path).start()
    return LinkedStation(station, link, clock)
