"""A table's seat units and play timer in the loop: the simulated players press the pass buttons
and enter their reports (报牌) on the hardware emulator, on a pseudo-terminal; the real driver
(``devices.TableDevices``) hears them over the serial protocol, and only what it hears reaches the
referee, timed to the press on the table's clock (R-TIME-2). The referee's countdowns go the other
way, to the emulated timer (R-TIME-1..3), as from any station's seat units (``station.seat_units``).
Health: the link's status, shown on the hall tile.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

from referee_station.devices.emulator import Emulator
from referee_station.devices.table_devices import Press
from referee_station.station.seat_units import SeatUnitLink
from referee_station.table.events import Pass

HEARD_TIMEOUT = 1.0
"""Wall seconds to wait for the driver to hear a press before the table's unit counts as down."""
CONNECT_TIMEOUT = 5.0


class DeviceBridge(SeatUnitLink):
    """The emulated hub of one table and the driver connected to it."""

    def __init__(self, table: str, table_clock: Callable[[], float]) -> None:
        self.emulator = Emulator(table=table)
        self._heard: queue.SimpleQueue[Press] = queue.SimpleQueue()
        super().__init__(self.emulator.start(), table_clock, self._heard.put)
        self.driver.wait_connected(CONNECT_TIMEOUT)

    def press(self, event: Press) -> Press | None:
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

    def close(self) -> None:
        super().close()
        self.emulator.close()
