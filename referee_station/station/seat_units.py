"""The table's seat units and timer as the orchestrator uses them (``orchestrator.SeatUnits``): the real
driver (``devices.TableDevices``) on a port, its presses handed on as the contract's records, the
referee's countdowns and pauses sent to the timer without waiting for the acknowledgement (the referee
goes on; a lost command is the link's to count). While the link is down nothing is sent: the station
shows the seat units offline and the floor referee times the table (R-TIME-1..3)."""

from __future__ import annotations

from collections.abc import Callable

from referee_station.devices import TableDevices
from referee_station.devices.table_devices import Press
from referee_station.table.events import Countdown


class SeatUnitLink:
    """One table's hub on ``port``: presses go to ``heard`` (on the link thread), countdowns to the timer."""

    def __init__(self, port: str, clock: Callable[[], float], heard: Callable[[Press], None]) -> None:
        self.driver = TableDevices(port, clock, heard)

    @property
    def healthy(self) -> bool:
        return self.driver.healthy

    def countdown(self, out: Countdown) -> None:
        """Start the timer's countdown (R-TIME-1..3)."""
        if self.healthy:
            self.driver.send_countdown(out, wait=False)

    def pause(self) -> None:
        """Freeze the timer's countdown (the referee paused the table); the next countdown restarts it."""
        if self.healthy:
            self.driver.pause(wait=False)

    def close(self) -> None:
        self.driver.close()
