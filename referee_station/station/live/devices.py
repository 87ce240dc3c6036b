"""A table's seat units and play timer in the loop: the simulated players press the pass buttons
and enter their reports (报牌) on the hardware emulator, on a pseudo-terminal; the real driver
(``devices.TableDevices``) hears them over the serial protocol, and only what it hears reaches the
referee, timed to the press on the table's clock (R-TIME-2). The referee's countdowns go the other
way, to the emulated timer (R-TIME-1..3). Health: the link's status, shown on the hall tile.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

from referee_station.devices import LinkStatus, TableDevices
from referee_station.devices.emulator import Emulator
from referee_station.table.events import Countdown, Pass, Record, Report, parse_record

HEARD_TIMEOUT = 1.0
"""Wall seconds to wait for the driver to hear a press before the table's unit counts as down."""
CONNECT_TIMEOUT = 5.0


class DeviceBridge:
    """The emulated hub of one table and the driver connected to it."""

    def __init__(self, table: str, table_clock: Callable[[], float]) -> None:
        self.emulator = Emulator(table=table)
        self._heard: queue.SimpleQueue[Record] = queue.SimpleQueue()
        self.driver = TableDevices(
            self.emulator.start(), table_clock, on_event=lambda line: self._heard.put(parse_record(line))
        )
        self.driver.wait_connected(CONNECT_TIMEOUT)

    @property
    def healthy(self) -> bool:
        return self.driver.status is LinkStatus.CONNECTED

    def press(self, event: Pass | Report) -> Record | None:
        """Do on the hardware what ``event`` says; return the event the driver heard (``None`` when
        nothing came within ``HEARD_TIMEOUT``: the unit or the link is down)."""
        if isinstance(event, Pass):
            self.emulator.press_pass(event.seat)
        else:
            self.emulator.enter_report(event.seat, event.count)
        try:
            return self._heard.get(timeout=HEARD_TIMEOUT)
        except queue.Empty:
            return None

    def countdown(self, out: Countdown) -> None:
        """Start the timer's countdown (not waiting for its acknowledgement: the referee goes on)."""
        if self.healthy:
            self.driver.send_countdown(out.to_json(), wait=False)

    def pause(self) -> None:
        """Freeze the timer's countdown (the referee paused the table); the next countdown restarts it."""
        if self.healthy:
            self.driver.pause(wait=False)

    def close(self) -> None:
        self.driver.close()
        self.emulator.close()
