"""One live table: its feed, its own ``TableReferee``, an optional camera, optionally its seat
units and timer on the emulated hardware, and the console's entries (rulings, manual plays)
queued from the GUI thread.

The referee is fed only here, in the engine's thread; the GUI never calls it (STYLE.md). An
entry made at the console carries the table time the referee saw then; by the time it is fed the
table may have moved on, so it is stamped with the referee's current time, never earlier (the
referee flags time going backwards). With ``devices``, the feed's passes and reports are pressed on
the hardware and what the driver hears is fed instead (``who`` = ``seats``); the next event waits
until it is heard, so the table's order is kept.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from dataclasses import replace

from referee_station.console.live.devices import DeviceBridge
from referee_station.console.live.feed import FrameSource, TableFeed
from referee_station.console.models.update import HEALTH_UNITS, TableUpdate
from referee_station.table.events import Countdown, Flag, Pass, Record, Report
from referee_station.table.referee import TableReferee


class TableRunner:
    """Feeds one table's referee and returns a ``TableUpdate`` per event."""

    def __init__(
        self,
        name: str,
        feed: TableFeed,
        *,
        camera: FrameSource | None = None,
        devices: bool = False,
        auto_confirm: bool = False,
    ) -> None:
        self.name = name
        self.referee = TableReferee(auto_confirm=auto_confirm)
        self.camera = camera
        self._events: Iterator[Record] = iter(feed)
        self._next: Record | None = None
        self._peeked = False
        """Whether ``_next`` holds the feed's next event: it is fetched only when asked for, because a
        camera feed renders and reads frames until its next event, and an update just made should
        reach the console before that work starts."""
        self._entries: queue.SimpleQueue[tuple[Record, str]] = queue.SimpleQueue()
        self.health: dict[str, bool] = dict.fromkeys(HEALTH_UNITS, True)
        """Health of the table's units as last seen."""
        self._anchor = (0.0, time.monotonic())
        """(table time, wall time) of the event being played: the table's clock for the driver."""
        self.devices = DeviceBridge(name, self.table_clock) if devices else None

    @property
    def next_t(self) -> float | None:
        """Table time of the next feed event; ``None`` when the feed is over."""
        if not self._peeked:
            self._next, self._peeked = next(self._events, None), True
        return None if self._next is None else self._next.t

    def table_clock(self) -> float:
        """The table's clock as the devices' driver reads it: the event being played, then real time."""
        t, wall = self._anchor
        return t + (time.monotonic() - wall)

    def submit(self, event: Record, who: str) -> None:
        """Queue a console entry (any thread); it is fed on the next ``drain``."""
        self._entries.put((event, who))

    def step(self) -> TableUpdate:
        """Feed the next event of the table's own sources."""
        assert self.next_t is not None, "step() after the feed ended"
        event, self._peeked = self._next, False
        assert event is not None
        if self.devices is not None and type(event) in (Pass, Report):
            self._anchor = (event.t, time.monotonic())
            heard = self.devices.press(event)  # type: ignore[arg-type]
            self.health["timer"] = self.health["seats"] = heard is not None and self.devices.healthy
            if heard is not None:
                return self._feed(replace(heard, t=max(heard.t, self.referee.now)), "seats")
        return self._feed(event, "table")

    def drain(self) -> list[TableUpdate]:
        """Feed the queued console entries, in the order they were made."""
        updates = []
        while True:
            try:
                event, who = self._entries.get_nowait()
            except queue.Empty:
                return updates
            updates.append(self._feed(replace(event, t=max(event.t, self.referee.now)), who))

    def close(self) -> None:
        """Let go of the devices (safe to call twice)."""
        if self.devices is not None:
            self.devices.close()

    def _feed(self, event: Record, who: str) -> TableUpdate:
        outputs = tuple(self.referee.feed(event))
        frame = None
        if self.camera is not None and (event.TYPE == "play" or any(isinstance(o, Flag) for o in outputs)):
            frame = self.camera.frame(event.t)
            self.health["camera"] = frame is not None  # a camera that gives no image is down: tile 离线
        if self.devices is not None:
            for out in outputs:
                if isinstance(out, Countdown):
                    self.devices.countdown(out)
        return TableUpdate(
            table=self.name,
            event=event,
            outputs=outputs,
            snapshot=self.referee.snapshot(),
            who=who,
            produced=time.monotonic(),
            frame=frame,
            health=dict(self.health),
        )
