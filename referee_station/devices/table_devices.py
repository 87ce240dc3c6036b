"""The table's hardware as the referee sees it: seat-unit presses in, countdowns out.

``TableDevices`` turns the seat units' frames into the table events of EVENTS.md, timed on the
table's clock at the moment of the press (not of the frame's arrival, R-TIME-2), and sends the
referee's ``countdown`` outputs to the play timer (R-TIME-1..3), with the deadline converted to the
hub's clock so the display is right however late the frame gets there. Both cross as the contract's
frozen records (``table.events``: :data:`Press` in, ``Countdown`` out), never as dictionaries, so a
seat is a ``Seat`` and a press is the record the log writes.

Callbacks (``on_event``, ``on_status``) run on the link thread: keep them short (put the event on a
queue). Commands called from inside a callback do not wait for their acknowledgement (waiting there
would block the thread that reads it); they return the future instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future

from referee_station.core import Clock
from referee_station.devices.errors import DeviceTimeoutError, ProtocolError
from referee_station.devices.link import Link, LinkConfig, LinkStats, LinkStatus, Received
from referee_station.devices.messages import (
    TIMER,
    Beep,
    Countdown,
    Hello,
    Message,
    PassPressed,
    Pause,
    ReportEntered,
    Show,
    Stop,
)
from referee_station.table.events import Countdown as CountdownOutput
from referee_station.table.events import Pass, Report

Press = Pass | Report
"""What a seat unit says, as the referee reads it: the pass button 过 (R-PLAY-1) or a 报牌 (R-REPORT-1)."""

DEFAULT_GRACE = 10.0
"""R-TIME-3: the grace countdown (读秒) after the limit, 10 s unless the match rules say otherwise."""


class TableDevices:
    """Driver of one table's timer and four seat units over ``url`` (device path, pty, ``loop://``...).

    ``table_clock()`` gives the table's time (``t`` of EVENTS.md), at the same rate as
    ``time.monotonic()``. ``on_event`` receives each :data:`Press` (``Pass`` or ``Report``);
    ``on_status(status, detail)`` the link's state.
    """

    def __init__(
        self,
        url: str,
        table_clock: Callable[[], float],
        on_event: Callable[[Press], None],
        on_status: Callable[[LinkStatus, str], None] | None = None,
        *,
        grace: float = DEFAULT_GRACE,
        command_timeout: float = 1.0,
        config: LinkConfig | None = None,
    ) -> None:
        self.table_clock = table_clock
        self.grace = grace
        self.command_timeout = command_timeout
        self._on_event = on_event
        self._link = Link(url, self._received, on_status, config)

    @property
    def status(self) -> LinkStatus:
        return self._link.status

    @property
    def status_detail(self) -> str:
        return self._link.detail

    @property
    def stats(self) -> LinkStats:
        return self._link.stats

    @property
    def units(self) -> dict[int, Hello]:
        """Each unit's hello (type, seat, firmware, serial number), by unit address."""
        return dict(self._link.units)

    def round_trips(self) -> list[float]:
        """Recent command round trips on the wire (s), for the station's health display."""
        return self._link.round_trips()

    @property
    def healthy(self) -> bool:
        """Whether presses are heard and countdowns shown now (the link is CONNECTED)."""
        return self._link.status is LinkStatus.CONNECTED

    @property
    def clock_synced(self) -> bool:
        """Whether presses can be timed now (false until the first sync after a connect or a hub reboot)."""
        return self._link.clock.synced

    @property
    def clock_error(self) -> float:
        """Upper bound (s) on the error of a press time from the clock sync: half the best round trip."""
        return self._link.clock.error_bound

    def wait_connected(self, timeout: float) -> bool:
        """Block until the link is CONNECTED (True) or ``timeout`` s have passed (False)."""
        deadline = time.monotonic() + timeout
        while not self.healthy:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)
        return True

    def table_time(self, local: float) -> float:
        """The table-clock time of the station's monotonic instant ``local``."""
        return self.table_clock() - (time.monotonic() - local)

    def send_countdown(self, out: CountdownOutput, grace: float | None = None, *, wait: bool = True) -> Future[None]:
        """Start the timer on the referee's ``countdown`` output (EVENTS.md; R-TIME-1..3).

        ``out.deadline`` (table time) becomes a deadline on the hub's clock; ``grace`` (default
        the driver's, R-TIME-3) follows it; a ``grace`` countdown's own limit is the grace itself.
        The record holds a ``Clock`` (an unknown action is refused when the record is made).
        """
        action = out.action
        local_deadline = time.monotonic() + (out.deadline - self.table_clock())
        grace_s = self.grace if grace is None else grace
        message = Countdown(
            out.seat,
            action,
            round(out.limit * 1000),
            0 if action is Clock.GRACE else round(grace_s * 1000),
            self._link.clock.to_device(local_deadline),
        )
        return self._command(message, wait)

    def stop(self, *, wait: bool = True) -> Future[None]:
        """Stop the countdown (the player acted)."""
        return self._command(Stop(), wait)

    def pause(self, *, wait: bool = True) -> Future[None]:
        """Freeze the countdown, showing the time left; the next ``send_countdown`` starts it again."""
        return self._command(Pause(), wait)

    def show(self, text: str | int, *, wait: bool = True) -> Future[None]:
        """Show a short message or number on the timer (at most 32 bytes of UTF-8)."""
        return self._command(Show(str(text)), wait)

    def beep(self, count: int = 1, duration: float = 0.2, *, wait: bool = True) -> Future[None]:
        return self._command(Beep(count, round(duration * 1000)), wait)

    def close(self) -> None:
        """Close the link; safe to call twice."""
        self._link.close()

    def __enter__(self) -> TableDevices:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _command(self, message: Message, wait: bool) -> Future[None]:
        future = self._link.send(message, TIMER)
        if wait and not self._link.on_link_thread():
            try:
                future.result(self.command_timeout)
            except TimeoutError as err:
                if isinstance(err, DeviceTimeoutError):
                    raise
                what = type(message).__name__
                raise DeviceTimeoutError(f"{what} not acknowledged in {self.command_timeout} s") from err
        return future

    def _received(self, item: Received) -> None:
        """A press becomes an EVENTS.md input event: ``Pass`` (turn order and timing are the referee's,
        R-PLAY-1, R-TIME-2) or ``Report`` (R-REPORT-1), timed to the press on the table's clock."""
        message = item.message
        if item.local_time is None:
            raise ProtocolError(f"untimed {type(message).__name__} from unit {item.unit}")
        t = round(self.table_time(item.local_time), 3)
        if isinstance(message, PassPressed):
            self._on_event(Pass(t, message.seat))
        elif isinstance(message, ReportEntered):
            self._on_event(Report(t, message.seat, message.count))
        else:
            raise ProtocolError(f"unexpected {type(message).__name__} from unit {item.unit}")
