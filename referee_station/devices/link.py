"""The serial link to one table's hub: the thread that owns the port, acknowledgements, heartbeats,
clock sync and reconnection.

One thread owns the port and is the only one to call ``read`` and ``write`` (the pyserial
``threaded`` rule); other threads hand it messages through a queue and wake it with
``cancel_read()``, so a command goes out at once instead of after the next read timeout (ports
without ``cancel_read``, such as ``socket://``, send it within one ``poll``, 20 ms). Ports are
opened with ``serial.serial_for_url``, so a device path, a pseudo-terminal, ``loop://`` or
``socket://`` all work.

Lifecycle (``status``, reported through ``on_status(status, detail)`` on the link thread)::

    CONNECTING ──hello + clock synced──> CONNECTED ──port error / silent hub──> RECONNECTING
        ^                                   ^                                      │ retries with backoff
        └───────────────────────────────────┴──────────────────────────────────────┘ (OFFLINE after offline_after s)
    close() ──> CLOSED  (from any state, safe twice)

Nothing is lost silently: garbage, corrupt frames, duplicates, retransmissions, echoes of our own
frames, commands that failed and events the hub had to drop are all counted in :class:`LinkStats`.
A command either resolves its future (acknowledged) or fails it with a :mod:`referee_station.devices.errors` error.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
import queue
import random
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import serial

from referee_station.core.queues import drain
from referee_station.devices.clock import ClockSync
from referee_station.devices.errors import DeviceError, DeviceTimeoutError, PortUnavailableError, ProtocolError
from referee_station.devices.frames import Frame, FrameParser
from referee_station.devices.messages import (
    BROADCAST,
    Ack,
    AckStatus,
    Heartbeat,
    Hello,
    Message,
    PassPressed,
    ReportEntered,
    SyncReply,
    SyncRequest,
    UnitType,
    decode,
    encode,
)
from referee_station.devices.reliable import DuplicateFilter, Outbox, SequenceCounter

FIRMWARE = "station-0.1"
HELD_MAX = 256
"""Events kept while the clock is not synced yet (a hub's buffer holds far fewer): beyond it the
oldest go, counted in ``LinkStats.held_dropped``, so a flooding hub cannot fill the station's memory."""
PRESS_FUTURE_S = 1.0
"""How far past its arrival (beyond the sync's error bound) a press may be timed: none can come from
the future, so a press time further out is a corrupt or wrapped hub clock."""
PRESS_PAST_S = 3600.0
"""How long before its arrival a press may be timed: a hub's buffer holds presses through a station
restart (minutes), never across a session."""
log = logging.getLogger(__name__)


class LinkStatus(enum.Enum):
    """What the referee sees about the table's hardware."""

    CONNECTING = "connecting"
    """First attempt: opening the port and waiting for the hub's hello and a clock sync."""
    CONNECTED = "connected"
    """Hub answered, clock synced: events flow and commands are accepted."""
    RECONNECTING = "reconnecting"
    """The port vanished or the hub went silent; retrying with backoff. Commands fail meanwhile."""
    OFFLINE = "offline"
    """Still retrying, but down for longer than ``offline_after``: the referee must time by hand."""
    CLOSED = "closed"
    """``close()`` was called."""


@dataclass(frozen=True)
class LinkConfig:
    """Timing of the link (seconds). Defaults suit a 115200 Bd USB-serial line with a hub nearby."""

    baudrate: int = 115200
    poll: float = 0.02
    ack_timeout: float = 0.05
    max_attempts: int = 6
    heartbeat: float = 0.5
    silent_after: float = 2.0
    hello_every: float = 0.2
    units: int = 5
    """Units a table has (timer + 4 seat units); while fewer have said hello, the station asks every second."""
    sync_burst: int = 5
    sync_every: float = 1.0
    backoff_min: float = 0.05
    backoff_max: float = 1.0
    offline_after: float = 5.0
    write_timeout: float = 1.0


@dataclass
class LinkStats:
    """Counters since the link was made; ``snapshot()`` copies them for other threads."""

    bytes_in: int = 0
    bytes_out: int = 0
    frames_in: int = 0
    frames_out: int = 0
    garbage_bytes: int = 0
    bad_crc: int = 0
    malformed: int = 0
    oversized: int = 0
    unexpected: int = 0
    echoed: int = 0
    duplicates: int = 0
    retransmits: int = 0
    acked: int = 0
    rejected: int = 0
    send_failures: int = 0
    connects: int = 0
    disconnects: int = 0
    silent_hub: int = 0
    device_dropped: int = 0
    events: int = 0
    callback_errors: int = 0
    before_hello: int = 0
    held_dropped: int = 0
    """Events pushed out of the held list while the clock was not synced (``HELD_MAX``)."""
    bad_press_time: int = 0
    """Presses rejected: their time on the synced clock is too far from when they arrived."""

    def snapshot(self) -> LinkStats:
        return dataclasses.replace(self)


@dataclass(frozen=True)
class Received:
    """A message from a unit, with the station's monotonic time of the event it reports (if timed)."""

    message: Message
    unit: int
    local_time: float | None


def describe_unit(hello: Hello) -> str:
    """A unit as the referee reads it: ``seat E unit SN-E-0002 fw 1.4.2``."""
    what = "timer" if hello.unit_type is UnitType.TIMER else f"seat {hello.seat} unit"
    return f"{what} {hello.serial} fw {hello.firmware}"


class _LinkDown(Exception):
    """Internal: leave the session and reconnect (the detail is the reason shown to the referee)."""


class Link:
    """A reliable message link to a table hub over ``url``; starts its thread at once."""

    def __init__(
        self,
        url: str,
        on_message: Callable[[Received], None],
        on_status: Callable[[LinkStatus, str], None] | None = None,
        config: LinkConfig | None = None,
    ) -> None:
        self.url = url
        self.config = config or LinkConfig()
        self._on_message = on_message
        self._on_status = on_status
        self._stats = LinkStats()
        self._stats_lock = threading.Lock()
        self._round_trips: deque[float] = deque(maxlen=4096)
        self._status = LinkStatus.CONNECTING
        self._detail = self._reason = f"opening {url}"
        self._outgoing: queue.SimpleQueue[tuple[Message, int, Future[None]]] = queue.SimpleQueue()
        self._closing = threading.Event()
        self._port: Any = None
        self._port_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._boot_id = random.getrandbits(32)
        self._seq = SequenceCounter()
        self._outbox: Outbox[Future[None]] = Outbox(self.config.ack_timeout, self.config.max_attempts)
        self._duplicates = DuplicateFilter()
        self._peer_boot: int | None = None
        self._parser = FrameParser()
        self.clock = ClockSync()
        self.units: dict[int, Hello] = {}
        self._hello_seen = False
        self._held: deque[tuple[Message, int, float]] = deque(maxlen=HELD_MAX)
        """(message, unit, arrival) of events that came before the clock was synced."""
        self._sync_sent: dict[int, float] = {}
        self._sync_token = 0
        self._last_heard = 0.0
        self._burst_left = 0
        self._next_sync = 0.0
        self._down_since = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"devices-link {url}", daemon=True)
        self._thread.start()

    # -- public API, any thread -------------------------------------------------------------

    @property
    def status(self) -> LinkStatus:
        return self._status

    @property
    def detail(self) -> str:
        return self._detail

    @property
    def stats(self) -> LinkStats:
        with self._stats_lock:
            return self._stats.snapshot()

    def round_trips(self) -> list[float]:
        """Recent command round trips (s) on the wire: frame written to its ack read, by the link
        thread (commands sent once only). The caller's wait adds two thread hand-offs to this."""
        with self._stats_lock:
            return list(self._round_trips)

    def on_link_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def send(self, message: Message, unit: int) -> Future[None]:
        """Queue ``message`` for ``unit``; the future resolves on its acknowledgement.

        It fails with ``PortUnavailableError`` when the link is not connected (now or before the
        frame could go out), ``DeviceTimeoutError`` after ``max_attempts`` unacknowledged sends, and
        ``ProtocolError`` when the unit rejected it. Unacknowledged messages resolve once written.
        A message that cannot be encoded (a value out of range) raises ``ProtocolError`` here, in
        the caller's thread, and never reaches the link thread.
        """
        try:
            message.pack()
        except struct.error as err:
            raise ProtocolError(f"{message} cannot be encoded: {err}") from err
        future: Future[None] = Future()
        with self._send_lock:  # the link thread changes the status under it before failing what is queued
            if self._status is not LinkStatus.CONNECTED:
                future.set_exception(PortUnavailableError(f"table hardware {self._status.value}: {self._detail}"))
                self._count(send_failures=1)
                return future
            self._outgoing.put((message, unit, future))
        self._wake()
        return future

    def close(self) -> None:
        """Stop the thread, close the port, fail pending commands. Safe to call twice."""
        self._closing.set()
        self._wake()
        if not self.on_link_thread():
            self._thread.join(timeout=5.0)

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the link thread ----------------------------------------------------------------------

    def _wake(self) -> None:
        with self._port_lock:
            cancel = getattr(self._port, "cancel_read", None)
            if cancel is not None and self._port.is_open:
                cancel()

    def _count(self, **increments: int) -> None:
        with self._stats_lock:
            for name, value in increments.items():
                setattr(self._stats, name, getattr(self._stats, name) + value)

    def _set_status(self, status: LinkStatus, detail: str, reason: str | None = None) -> None:
        """Record the state; tell ``on_status`` when the status or the ``reason`` (default: detail) changes."""
        if self._status is LinkStatus.CLOSED:
            return
        reason = detail if reason is None else reason
        changed = status is not self._status or reason != self._reason
        self._status, self._detail, self._reason = status, detail, reason
        if changed and self._on_status is not None:
            try:
                self._on_status(status, detail)
            except Exception:  # like on_message: logged and counted, the link goes on
                self._count(callback_errors=1)
                log.exception("on_status failed for %s", status)

    def _run(self) -> None:
        backoff = self.config.backoff_min
        self._down_since = time.monotonic()
        while not self._closing.is_set():
            try:
                port = self._open()
            except PortUnavailableError as err:
                down = time.monotonic() - self._down_since
                if down > self.config.offline_after:
                    status = LinkStatus.OFFLINE
                elif self._status is LinkStatus.CONNECTING:
                    status = LinkStatus.CONNECTING
                else:
                    status = LinkStatus.RECONNECTING
                self._set_status(status, f"{err}; down {down:.1f} s, retrying every {backoff:.2f} s", str(err))
                self._closing.wait(backoff)
                backoff = min(backoff * 2, self.config.backoff_max)
                continue
            backoff = self.config.backoff_min
            reason = "closed"
            try:
                self._session(port)
            except _LinkDown as err:
                reason = str(err)
            except (serial.SerialException, OSError) as err:
                reason = f"port {self.url} failed: {err}"
            except Exception as err:  # a bug must not stop the table's link for good: log it, rebuild the link
                log.exception("devices link to %s failed", self.url)
                reason = f"internal error: {err!r}"
            finally:
                with self._port_lock:
                    self._port = None
                    port.close()
            if not self._closing.is_set():
                self._count(disconnects=1)
                self._down_since = time.monotonic()
                with self._send_lock:
                    self._set_status(LinkStatus.RECONNECTING, reason)
                self._fail_pending(PortUnavailableError(f"link to {self.url} lost: {reason}"))
        with self._send_lock:
            self._set_status(LinkStatus.CLOSED, "closed by the station")
        self._fail_pending(PortUnavailableError("link closed"))

    def _open(self) -> Any:
        try:
            port = serial.serial_for_url(
                self.url,
                baudrate=self.config.baudrate,
                timeout=self.config.poll,
                write_timeout=self.config.write_timeout,
                exclusive=True,  # a second station on the same port would steal half the frames
            )
        except (serial.SerialException, OSError, ValueError) as err:
            raise PortUnavailableError(f"cannot open {self.url}: {err}") from err
        with self._port_lock:
            self._port = port
        return port

    def _fail_pending(self, error: DeviceError) -> None:
        failed = self._outbox.clear() + [future for _, _, future in drain(self._outgoing)]
        for future in failed:
            if not future.done():
                future.set_exception(error)
        self._count(send_failures=len(failed))

    def _write(self, port: Any, data: bytes) -> None:
        try:
            port.write(data)
        except serial.SerialTimeoutException as err:
            raise _LinkDown(f"port {self.url} does not take data: {err}") from err
        self._count(bytes_out=len(data), frames_out=1)

    def _send_now(self, port: Any, message: Message, unit: int) -> None:
        """Write an unacknowledged message (hello, heartbeat, clock sync, ack)."""
        self._write(port, encode(message, unit, from_device=False).encode())

    def _send_queued(self, port: Any, message: Message, unit: int, future: Future[None]) -> None:
        """Write a caller's message; an acknowledged one is kept in the outbox until its ack."""
        if not message.RELIABLE:
            self._send_now(port, message, unit)
            future.set_result(None)
            return
        seq = self._seq.next()
        data = encode(message, unit, seq, from_device=False).encode()
        self._outbox.add(seq, data, future, time.monotonic())
        self._write(port, data)

    def _session(self, port: Any) -> None:
        cfg = self.config
        self._parser.reset()
        self.clock.reset()
        self._hello_seen = False
        self.units = {}
        self._held.clear()
        self._set_status(self._status, f"{self.url} open, waiting for the table hub's hello", "open")
        now = time.monotonic()
        self._last_heard = now
        next_hello = next_heartbeat = now
        self._restart_sync(now)
        while not self._closing.is_set():
            now = time.monotonic()
            connected = self._status is LinkStatus.CONNECTED
            for message, unit, future in drain(self._outgoing):
                if not connected:
                    self._count(send_failures=1)
                    future.set_exception(PortUnavailableError(f"table hardware {self._status.value}"))
                    continue
                self._send_queued(port, message, unit, future)
            resend, expired = self._outbox.due(now)
            for data in resend:
                self._write(port, data)
            self._count(retransmits=len(resend))
            for future in expired:
                self._count(send_failures=1)
                future.set_exception(DeviceTimeoutError(f"no acknowledgement after {cfg.max_attempts} sends"))
            if now >= next_hello and (not self._hello_seen or len(self.units) < cfg.units):
                self._send_now(port, Hello(UnitType.STATION, "", FIRMWARE, "station", self._boot_id), BROADCAST)
                next_hello = now + (1.0 if self._hello_seen else cfg.hello_every)
            if self._hello_seen and now >= self._next_sync:
                self._sync_token = self._sync_token % 0xFFFF + 1
                if len(self._sync_sent) >= 8:  # a reply that never came; later ones still count
                    del self._sync_sent[next(iter(self._sync_sent))]
                self._sync_sent[self._sync_token] = time.monotonic()
                self._send_now(port, SyncRequest(self._sync_token), BROADCAST)
                self._burst_left -= 1
                self._next_sync = now + (0.01 if self._burst_left > 0 else cfg.sync_every)
            if now >= next_heartbeat:
                self._send_now(port, Heartbeat(), BROADCAST)
                next_heartbeat = now + cfg.heartbeat
            if (
                self._status in (LinkStatus.CONNECTING, LinkStatus.RECONNECTING)
                and now - self._down_since > cfg.offline_after
            ):
                self._set_status(LinkStatus.OFFLINE, f"{self.url} is open but the table hub does not answer")
            if self._hello_seen and now - self._last_heard > cfg.silent_after:
                self._count(silent_hub=1)
                raise _LinkDown(f"table hub silent for {now - self._last_heard:.1f} s (no heartbeat)")
            data = port.read(port.in_waiting or 1)
            if data:
                received = time.monotonic()
                frames = self._parser.feed(data)
                self._count(bytes_in=len(data))
                for frame in frames:
                    self._handle(port, frame, received)
                self._sync_parser_stats()

    def _sync_parser_stats(self) -> None:
        parsed = self._parser.stats
        with self._stats_lock:
            self._stats.frames_in = parsed.frames
            self._stats.garbage_bytes = parsed.garbage_bytes
            self._stats.bad_crc = parsed.bad_crc
            self._stats.malformed = parsed.malformed
            self._stats.oversized = parsed.oversized

    def _handle(self, port: Any, frame: Frame, received: float) -> None:
        if not frame.from_device:
            self._count(echoed=1)  # our own frame: TX wired to RX, or loop://
            return
        try:
            message = decode(frame)
        except ProtocolError:
            self._count(unexpected=1)
            return
        self._last_heard = received
        if isinstance(message, Hello) and message.boot_id != self._peer_boot:
            if self._peer_boot is not None:  # the hub rebooted: its clock restarted too
                self.clock.reset()
                self._restart_sync(received)
            self._peer_boot = message.boot_id  # its sequence numbers restart
            self._duplicates.reset()
        if message.RELIABLE and not self._hello_seen:
            # Until the hub has named itself (and its boot) in this session, its sequence numbers
            # cannot be told from an earlier boot's: not acknowledged, so it is sent again after the hello.
            self._count(before_hello=1)
            return
        if message.RELIABLE:
            self._send_now(port, Ack(frame.seq), frame.unit)
            if self._duplicates.seen(frame.seq):
                self._count(duplicates=1)
                return
        if isinstance(message, Ack):
            acked = self._outbox.acknowledge(message.seq, received)
            future = None if acked is None else acked[0]
            if acked is not None and acked[1] is not None:
                with self._stats_lock:
                    self._round_trips.append(acked[1])
            if future is not None and not future.done():
                if message.status is AckStatus.OK:
                    self._count(acked=1)
                    future.set_result(None)
                else:
                    self._count(rejected=1)
                    future.set_exception(ProtocolError(f"unit {frame.unit} rejected the command"))
        elif isinstance(message, SyncReply):
            sent = self._sync_sent.pop(message.token, None)
            if sent is not None:
                self.clock.add(sent, message.device_us, received)
                self._check_connected()
        elif isinstance(message, Heartbeat):
            with self._stats_lock:
                self._stats.device_dropped = message.dropped
        elif isinstance(message, Hello):
            known = self.units.get(frame.unit) == message
            self.units = {**self.units, frame.unit: message}  # copy on write: other threads read it
            self._hello_seen = True
            if self._status is LinkStatus.CONNECTED and not known:
                self._set_status(LinkStatus.CONNECTED, self._connected_detail())
            self._check_connected()
        else:
            if not self.clock.synced:
                if len(self._held) == HELD_MAX:
                    self._count(held_dropped=1)
                self._held.append((message, frame.unit, received))
                return
            self._deliver_timed(message, frame.unit, received)

    def _deliver_timed(self, message: Message, unit: int, arrived: float) -> None:
        """Deliver an event, a press with its time on the synced clock; a press whose time is not
        within ``PRESS_PAST_S`` before to ``PRESS_FUTURE_S`` after its arrival is rejected and logged."""
        if not isinstance(message, PassPressed | ReportEntered):
            self._deliver(Received(message, unit, None))
            return
        local = self.clock.to_local(message.device_us)
        slack = PRESS_FUTURE_S + self.clock.error_bound
        if not arrived - PRESS_PAST_S <= local <= arrived + slack:
            self._count(bad_press_time=1)
            log.error(
                "unit %d: %s at hub time %.6f s is %+.3f s from its arrival on the synced clock"
                " (allowed -%g..+%g s); rejected",
                unit, type(message).__name__, message.device_us / 1e6, local - arrived, PRESS_PAST_S, slack,
            )  # fmt: skip
            return
        self._deliver(Received(message, unit, local))

    def _deliver(self, item: Received) -> None:
        self._count(events=1)
        try:
            self._on_message(item)
        except Exception:  # a failing consumer must not take the link down with it; it is logged and counted
            self._count(callback_errors=1)
            log.exception("on_message failed for %s from unit %d", item.message, item.unit)

    def _connected_detail(self) -> str:
        names = ", ".join(describe_unit(hello) for _, hello in sorted(self.units.items()))
        missing = len(self.units) < self.config.units
        warning = f"; only {len(self.units)} of {self.config.units} units answered" if missing else ""
        return f"{self.url}: {names}{warning}; clock ±{self.clock.error_bound * 1e3:.2f} ms"

    def _restart_sync(self, now: float) -> None:
        """Forget outstanding sync requests and start a new burst (new session, or a rebooted hub)."""
        self._sync_sent.clear()
        self._burst_left = self.config.sync_burst
        self._next_sync = now

    def _check_connected(self) -> None:
        """CONNECTED once the hub said hello and the clock is synced; then deliver what was held."""
        if not (self._hello_seen and self.clock.synced):
            return
        if self._status is not LinkStatus.CONNECTED:
            self._count(connects=1)
            self._set_status(LinkStatus.CONNECTED, self._connected_detail())
        held = list(self._held)
        self._held.clear()
        for message, unit, arrived in held:
            self._deliver_timed(message, unit, arrived)
