"""One live table of the demo or the console: its own referee fed by the station orchestrator
(``referee_station.station.Station``) from the table's feed (a recorded log, the simulator), its
camera (the rendered video through the card reader), its seat units on the emulated hardware, and the
console's entries (rulings, manual plays) queued from the GUI thread.

The referee is fed only in the engine's thread; the GUI never calls it (STYLE.md). With ``devices``,
the feed's passes and reports are pressed on the hardware when they are due and what the driver hears
is fed instead (``who`` = ``seats``), timed to the press on the table's clock (R-TIME-2).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator

import numpy as np

from referee_station.core import Health, Unit
from referee_station.station.live.camera import CameraTable
from referee_station.station.live.devices import DeviceBridge
from referee_station.station.live.feed import FrameSource, TableFeed
from referee_station.station.live.update import TableUpdate
from referee_station.station.orchestrator import Fed, Source, Station, Step
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Flag, Pass, PlayCards, Record, Report
from referee_station.vision.topview import top_view


class TableRunner:
    """Steps one table's station and returns a ``TableUpdate`` per event it fed."""

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
        self.referee = CorrectingReferee(auto_confirm=auto_confirm)
        self.camera = camera
        self.video = camera if isinstance(camera, CameraTable) else None
        """A rendered camera whose frames the station reads (else the feed holds the plays)."""
        events = self.video.others if self.video is not None else list(feed)
        pressed = (Pass, Report) if devices else ()
        self._presses: deque[Record] = deque(e for e in events if type(e) in pressed)
        self._anchor = (0.0, time.monotonic())
        """(table time, wall time) of the press being made: the table's clock for the driver."""
        self.devices = DeviceBridge(name, self.table_clock) if devices else None
        self.station = Station(
            self.referee,
            pipeline=None if self.video is None else self.video.pipeline,
            others=[e for e in events if type(e) not in pressed],
            deck_check=None if self.video is None else self.video.watch,
            seat_units=self.devices,
        )
        self._frames: Iterator[tuple[float, np.ndarray]] | None = None if self.video is None else self.video.frames()
        self._times = deque(sorted({e.t for e in events}))
        self._peeked: tuple[float, np.ndarray] | None = None
        self._last_t = 0.0
        self._done = False
        self.notices: deque[tuple[float, str]] = deque()
        """The station's notices (camera health, deck check) not yet shown: (table time, text)."""
        self.camera_ok = True

    @property
    def next_t(self) -> float | None:
        """Table time of the table's next step; ``None`` when its sources are over."""
        if self._done:
            return None
        if self._frames is None:
            return self._times[0] if self._times else None
        if self._peeked is None:
            self._peeked = next(self._frames, None)
        return self._last_t if self._peeked is None else self._peeked[0]

    def table_clock(self) -> float:
        """The table's clock as the devices' driver reads it: the press being made, then real time."""
        t, wall = self._anchor
        return t + (time.monotonic() - wall)

    def submit(self, event: Record, who: str) -> None:
        """Queue a console entry (any thread); it is fed on the next ``drain``."""
        self.station.enter(event, who)

    def step(self) -> list[TableUpdate]:
        """Feed the next frame (or the next feed event's moment) of the table's own sources."""
        t = self.next_t
        assert t is not None, "step() after the table's sources ended"
        self._press(t)
        if self._frames is None:
            self._times.popleft()
            self._done = not self._times
            return self._updates(self.station.finish(t) if self._done else self.station.idle(t))
        if self._peeked is None:
            self._done = True
            return self._updates(self.station.finish(t))
        self._last_t, image = self._peeked
        self._peeked = None
        return self._updates(self.station.frame(t, image))

    def drain(self) -> list[TableUpdate]:
        """Feed the queued console entries (and what the seat units heard since the last step)."""
        return self._updates(self.station.idle(self.station.now - self.station.offset))

    def close(self) -> None:
        """Let go of the devices (safe to call twice)."""
        if self.devices is not None:
            self.devices.close()

    def _press(self, t: float) -> None:
        """Press on the hardware every pass and report of the feed due by ``t``; the driver's hearing
        goes to the station, which feeds it in time order."""
        while self.devices is not None and self._presses and self._presses[0].t <= t:
            event = self._presses.popleft()
            self._anchor = (event.t, time.monotonic())
            heard = self.devices.press(event)  # type: ignore[arg-type]
            if heard is not None:
                self.station.heard(heard)

    def _updates(self, step: Step) -> list[TableUpdate]:
        self.notices.extend((n.t, n.text) for n in step.notices)
        return [self._update(fed, step) for fed in step.fed]

    def _update(self, fed: Fed, step: Step) -> TableUpdate:
        frame = None
        health = step.health
        if self.video is not None and fed.source is Source.CAMERA:
            self.video.camera_events.append(fed.event)
        if self.video is not None and fed.frame is not None:
            frame = top_view(fed.frame, self.video.calibration.homography)
        elif self.camera is not None and self.video is None:
            if isinstance(fed.event, PlayCards) or any(isinstance(o, Flag) for o in fed.outputs):
                frame = self.camera.frame(fed.event.t)
                self.camera_ok = frame is not None  # a camera that gives no image is down: tile 离线
            health = health.replace(Unit.CAMERA, self.camera_ok)
        return table_update(self.name, fed, health, frame)


def table_update(table: str, fed: Fed, health: Health, frame: np.ndarray | None) -> TableUpdate:
    """What crosses to the console for one fed event (``frame``: the rectified table image, RGB)."""
    return TableUpdate(
        table=table,
        event=fed.event,
        outputs=fed.outputs,
        snapshot=fed.snapshot,
        who=fed.who,
        produced=time.monotonic(),
        frame=frame,
        health=health,
    )
