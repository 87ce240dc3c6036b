"""Fixtures for the device tests: a real emulator on a real pty, and the real driver on it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee_station.devices.emulator import Emulator
from referee_station.devices.link import LinkConfig, LinkStatus
from referee_station.devices.table_devices import Press, TableDevices

FAST = LinkConfig(heartbeat=0.1, silent_after=0.5, backoff_min=0.02, backoff_max=0.1, offline_after=1.0)
"""Shorter timers than on a real table, so that failures are found in well under a second."""


class Recorder:
    """Collects the driver's presses (the contract's ``Pass`` / ``Report`` records) and status changes
    from the link thread; ``wait_for`` polls with a deadline."""

    def __init__(self) -> None:
        self.events: list[Press] = []
        self.statuses: list[tuple[LinkStatus, str]] = []
        self._lock = threading.Lock()

    def event(self, event: Press) -> None:
        with self._lock:
            self.events.append(event)

    def status(self, status: LinkStatus, detail: str) -> None:
        with self._lock:
            self.statuses.append((status, detail))

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 3.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; events {self.events}, statuses {[s for s, _ in self.statuses]}")
            time.sleep(0.005)


class TableClock:
    """The table's clock: seconds since the test began."""

    def __init__(self) -> None:
        self.origin = time.monotonic()

    def __call__(self) -> float:
        return time.monotonic() - self.origin


@pytest.fixture
def port_path(tmp_path: Path) -> Path:
    return tmp_path / "ttyTABLE"


@pytest.fixture
def emulator(port_path: Path) -> Iterator[Emulator]:
    with Emulator(link=port_path, heartbeat=0.1, clock_offset=12345.678, drift_ppm=80.0, seed=4) as emu:
        yield emu


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def table_clock() -> TableClock:
    return TableClock()


@pytest.fixture
def devices(emulator: Emulator, recorder: Recorder, table_clock: TableClock) -> Iterator[TableDevices]:
    with TableDevices(emulator.port, table_clock, recorder.event, recorder.status, config=FAST) as table:
        assert table.wait_connected(3.0), table.status_detail
        yield table
