"""An emulator of one table's hardware: a hub with the play timer and four seat units (E S W N) that
serves the protocol of PROTOCOL.md on a pseudo-terminal, so the real driver runs against it unchanged.

It behaves like the hardware, including the parts that make the driver work hard: its clock has its
own offset and drift (clock sync is really exercised), buttons bounce and are debounced on the unit,
presses made while the station is away are buffered and retransmitted with their press time, a
full buffer drops the oldest and says so in the heartbeat, and the port can be unplugged (the pty
closes and a new one appears behind the same symlink), flooded with noise, or sent corrupt frames.

Threads: one hub thread owns the pty master (the only reader and writer; writes are non-blocking
and what does not fit the ~20 KB pty buffer is dropped and counted, like a UART without flow
control, so nothing ever blocks). Other threads (a script, a test) post actions to it.

Script language (one command a line, ``#`` starts a comment; also typed at the keyboard)::

    pass E [BOUNCES]    press seat E's pass button 过 (with contact bounces the unit filters out)
    report S 8          seat S enters the 报牌 report 8 on its keypad
    wait 0.5            pause the script
    unplug 3            the port vanishes for 3 s (the script goes on: presses meanwhile are buffered)
    mute 2              the hub hangs for 2 s: port open, nothing sent or answered
    noise 40            40 random bytes on the line
    corrupt 2           the next 2 frames sent go out with a broken CRC
    loseack 1           the next acknowledgement from the station is lost (the hub sends the event again)
    state               print the timer and seat displays
    quit                stop the emulator
"""

from __future__ import annotations

import contextlib
import os
import pty
import queue
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from referee_station.core.queues import drain
from referee_station.devices.errors import ProtocolError
from referee_station.devices.frames import Frame, FrameParser, cobs_decode, cobs_encode
from referee_station.devices.messages import (
    BROADCAST,
    MAX_REPORT,
    SEAT_UNIT,
    SEATS,
    TIMER,
    Ack,
    AckStatus,
    Beep,
    Countdown,
    Heartbeat,
    Hello,
    Message,
    PassPressed,
    Pause,
    ReportEntered,
    Show,
    Stop,
    SyncReply,
    SyncRequest,
    UnitType,
    decode,
    encode,
)
from referee_station.devices.reliable import DuplicateFilter, Outbox, SequenceCounter

FIRMWARE = "1.4.2"
STATION_GONE_AFTER = 2.0


@dataclass
class TimerDisplay:
    """What the play timer shows and has done."""

    countdown: Countdown | None = None
    running: bool = False
    paused: bool = False
    left_at_stop_ms: int | None = None
    """Time left when the countdown was stopped or paused (ms)."""
    text: str = ""
    beeps: int = 0
    expired_limit: bool = False
    expired_grace: bool = False


@dataclass
class SeatUnitState:
    """A seat unit: its last accepted press (for debouncing) and the report on its display."""

    seat: str
    serial: str
    last_press_us: int | None = None
    shown_report: int | None = None


@dataclass
class EmulatorStats:
    """What the emulated hub did and suffered, for tests to compare with the station's ``LinkStats``."""

    frames_in: int = 0
    commands: int = 0
    duplicates: int = 0
    rejected: int = 0
    events: int = 0
    events_acked: int = 0
    retransmits: int = 0
    dropped_events: int = 0
    bounces_ignored: int = 0
    overflow_bytes: int = 0
    unplugs: int = 0
    noise_bytes: int = 0
    corrupted: int = 0
    garbage_bytes: int = 0
    bad_crc: int = 0


class Emulator:
    """The table hub on a pty. ``start()`` returns the port path; ``close()`` is safe twice."""

    def __init__(
        self,
        *,
        link: str | os.PathLike[str] | None = None,
        table: str = "T1",
        clock_offset: float = 5000.0,
        drift_ppm: float = 40.0,
        seed: int = 0,
        debounce: float = 0.03,
        heartbeat: float = 0.5,
        retransmit: float = 0.1,
        buffer_size: int = 64,
        log: Callable[[str], None] | None = None,
    ) -> None:
        if clock_offset < 0:
            raise ValueError("the hub's clock counts up from its power-up: clock_offset must be >= 0")
        self.table = table
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        if link is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="guandan-devices-")
            link = Path(self._tmpdir.name) / f"tty{table}"
        self.link = Path(link)
        self._clock_origin = time.monotonic()
        self._clock_offset = clock_offset
        self._rate = 1.0 + drift_ppm * 1e-6
        self._rng = random.Random(seed)
        self._debounce_us = round(debounce * 1e6)
        self._heartbeat = heartbeat
        self.boot_id = self._rng.getrandbits(32)
        self.timer = TimerDisplay()
        self.seats = {
            seat: SeatUnitState(seat, f"GD-{table}-{seat}-{self._rng.randrange(10**4):04d}") for seat in SEATS
        }
        self.timer_serial = f"GD-{table}-T-{self._rng.randrange(10**4):04d}"
        self.stats = EmulatorStats()
        self.commands: list[Message] = []
        self.station_connected = threading.Event()
        self._log = log or (lambda line: None)
        self._actions: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._seq = SequenceCounter()
        self._outbox: Outbox[Message] = Outbox(retransmit, None, capacity=buffer_size)
        self._duplicates = DuplicateFilter()
        self._station_boot: int | None = None
        self._station_heard = -1e9
        self._parser = FrameParser()
        self._master: int | None = None
        self._slave: int | None = None
        self._replug_at: float | None = None
        self._mute_until = 0.0
        self._corrupt_next = 0
        self._lose_acks = 0
        self._wake_r, self._wake_w = os.pipe()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"emulator {table}", daemon=True)

    # -- control, any thread --------------------------------------------------------------------

    @property
    def port(self) -> str:
        """The path the station opens: a symlink to the current pty, so it survives an unplug."""
        return str(self.link)

    def start(self) -> str:
        self._plug()
        self._thread.start()
        return self.port

    def device_us(self, now: float | None = None) -> int:
        """The hub's clock (µs): its own offset and drift against the station's ``time.monotonic()``."""
        now = time.monotonic() if now is None else now
        return round((self._clock_offset + (now - self._clock_origin) * self._rate) * 1e6)

    def press_pass(self, seat: str, bounces: int = 0) -> float:
        """Press seat's pass button now; returns the true (monotonic) press time."""
        seat = _check_seat(seat)
        now = time.monotonic()
        stamp = self.device_us(now)
        edges = [stamp + 1000 * (i + 1) for i in range(bounces)]
        self._post(lambda: self._press(seat, stamp, edges))
        return now

    def enter_report(self, seat: str, count: int) -> float:
        """Seat enters its report ``count`` on the keypad now; returns the true press time."""
        seat = _check_seat(seat)
        if not 0 <= count <= MAX_REPORT:
            raise ValueError(f"report {count}: the keypad takes 0..{MAX_REPORT}")
        now = time.monotonic()
        stamp = self.device_us(now)
        self._post(lambda: self._report(seat, count, stamp))
        return now

    def unplug(self, seconds: float) -> None:
        """The port vanishes now and a new pty appears behind the same path after ``seconds``."""
        self._post(lambda: self._unplug(seconds))

    def mute(self, seconds: float) -> None:
        """The hub hangs: it keeps the port open but sends and answers nothing for ``seconds``."""
        self._post(lambda: setattr(self, "_mute_until", time.monotonic() + seconds))

    def noise(self, count: int) -> None:
        """Send ``count`` random bytes (0x00 included) between frames."""
        self._post(lambda: self._noise(count))

    def corrupt(self, frames: int = 1) -> None:
        """Break the CRC of the next ``frames`` frames sent (the station must skip and recover them)."""
        self._post(lambda: setattr(self, "_corrupt_next", self._corrupt_next + frames))

    def lose_acks(self, count: int = 1) -> None:
        """Lose the next ``count`` acknowledgements from the station: the hub retransmits an event that
        did arrive, and the station must recognise the duplicate."""
        self._post(lambda: setattr(self, "_lose_acks", self._lose_acks + count))

    def describe(self) -> str:
        timer = self.timer
        if timer.countdown is None:
            shown = "idle"
        elif timer.running:
            left = (timer.countdown.deadline_us - self.device_us()) / 1e6
            shown = f"{timer.countdown.seat} {timer.countdown.action.value} {left:.1f} s"
        else:
            state = "paused" if timer.paused else "stopped"
            shown = f"{state}, {(timer.left_at_stop_ms or 0) / 1e3:.1f} s left"
        reports = " ".join(f"{s}:{'-' if u.shown_report is None else u.shown_report}" for s, u in self.seats.items())
        return f"timer [{shown}] text {timer.text!r} beeps {timer.beeps}; reports {reports}"

    def execute(self, line: str) -> bool:
        """Run one script line; False for ``quit``. Raises ``ValueError`` for a bad line."""
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        try:
            if command == "pass" and len(args) in (1, 2):
                self.press_pass(args[0], int(args[1]) if len(args) == 2 else 0)
            elif command == "report" and len(args) == 2:
                self.enter_report(args[0], int(args[1]))
            elif command == "wait" and len(args) == 1:
                time.sleep(float(args[0]))
            elif command == "unplug" and len(args) == 1:
                self.unplug(float(args[0]))
            elif command == "mute" and len(args) == 1:
                self.mute(float(args[0]))
            elif command == "noise" and len(args) == 1:
                self.noise(int(args[0]))
            elif command == "corrupt" and len(args) <= 1:
                self.corrupt(int(args[0]) if args else 1)
            elif command == "loseack" and len(args) <= 1:
                self.lose_acks(int(args[0]) if args else 1)
            elif command == "state" and not args:
                self._log(self.describe())
            elif command == "quit" and not args:
                return False
            else:
                raise ValueError("unknown command or wrong arguments")
        except ValueError as err:
            raise ValueError(f"{line.strip()!r}: {err}") from err
        return True

    def run_script(self, lines: Iterable[str]) -> bool:
        """Run lines until the end or ``quit`` (False); bad lines are logged and skipped."""
        for line in lines:
            try:
                if not self.execute(line):
                    return False
            except ValueError as err:
                self._log(f"script error: {err}")
        return True

    def close(self) -> None:
        if not self._stopping.is_set():
            self._stopping.set()
            os.write(self._wake_w, b"x")
            if self._thread.is_alive():
                self._thread.join(timeout=5.0)
            self._unplug_now()
            os.close(self._wake_r)
            os.close(self._wake_w)
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the hub thread -------------------------------------------------------------------------

    def _post(self, action: Callable[[], None]) -> None:
        self._actions.put(action)
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _plug(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(master)
        tty.setraw(slave)
        os.set_blocking(master, False)
        temporary = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        temporary.symlink_to(os.ttyname(slave))
        temporary.replace(self.link)
        self._master, self._slave = master, slave
        self._replug_at = None

    def _unplug_now(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()

    def _unplug(self, seconds: float) -> None:
        self.stats.unplugs += 1
        self._unplug_now()
        self._replug_at = time.monotonic() + seconds
        self._station_heard = -1e9
        self.station_connected.clear()
        self._log(f"unplugged for {seconds:g} s")

    def _run(self) -> None:
        next_heartbeat = 0.0
        while not self._stopping.is_set():
            fds = [self._wake_r] if self._master is None else [self._wake_r, self._master]
            ready, _, _ = select.select(fds, [], [], 0.01)
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            for action in drain(self._actions):
                action()
            now = time.monotonic()
            if self._replug_at is not None and now >= self._replug_at:
                self._plug()
                self._log(f"plugged in again at {self.port}")
            if self._master is not None and self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except OSError:
                    data = b""
                if data and now >= self._mute_until:
                    for frame in self._parser.feed(data):
                        self._handle(frame, now)
                    self.stats.garbage_bytes = self._parser.stats.garbage_bytes
                    self.stats.bad_crc = self._parser.stats.bad_crc
            if now < self._mute_until:
                continue
            if now >= next_heartbeat:
                self._send(Heartbeat(self.device_us(now), self.stats.dropped_events), BROADCAST)
                next_heartbeat = now + self._heartbeat
            if now - self._station_heard < STATION_GONE_AFTER:
                resend, _ = self._outbox.due(now)
                self.stats.retransmits += len(resend)
                for data in resend:
                    self._write(data)
            self._tick_timer()

    def _write(self, data: bytes, *, noise: bool = False) -> None:
        if self._master is None:
            return
        if self._corrupt_next and not noise:
            self._corrupt_next -= 1
            self.stats.corrupted += 1
            body = bytearray(cobs_decode(data[1:-1]))
            body[-1] ^= 0x5A
            data = b"\x00" + cobs_encode(bytes(body)) + b"\x00"
        try:
            written = os.write(self._master, data)
        except BlockingIOError:
            written = 0
        except OSError:
            return
        self.stats.overflow_bytes += len(data) - written

    def _encode(self, message: Message, unit: int, seq: int = 0) -> bytes:
        return encode(message, unit, seq, from_device=True).encode()

    def _send(self, message: Message, unit: int) -> None:
        if message.RELIABLE:
            seq = self._seq.next()
            data = self._encode(message, unit, seq)
            evicted = self._outbox.add(seq, data, message, time.monotonic())
            if evicted is not None:
                self.stats.dropped_events += 1
                self._log(f"event buffer full: dropped {evicted}")
        else:
            data = self._encode(message, unit)
        if not message.RELIABLE or time.monotonic() - self._station_heard < STATION_GONE_AFTER:
            self._write(data)

    def _noise(self, count: int) -> None:
        self.stats.noise_bytes += count
        self._write(self._rng.randbytes(count), noise=True)

    def _press(self, seat: str, stamp: int, bounces: list[int]) -> None:
        unit = self.seats[seat]
        for edge in [stamp, *bounces]:
            if unit.last_press_us is not None and edge - unit.last_press_us < self._debounce_us:
                self.stats.bounces_ignored += 1
                continue
            unit.last_press_us = edge
            self.stats.events += 1
            self._log(f"seat {seat}: pass 过 pressed")
            self._send(PassPressed(seat, edge), SEAT_UNIT[seat])

    def _report(self, seat: str, count: int, stamp: int) -> None:
        self.seats[seat].shown_report = count
        self.stats.events += 1
        self._log(f"seat {seat}: report 报牌 {count}")
        self._send(ReportEntered(seat, count, stamp), SEAT_UNIT[seat])

    def _hellos(self) -> None:
        self._send(Hello(UnitType.TIMER, "", FIRMWARE, self.timer_serial, self.boot_id), TIMER)
        for seat, unit in self.seats.items():
            self._send(Hello(UnitType.SEAT, seat, FIRMWARE, unit.serial, self.boot_id), SEAT_UNIT[seat])

    def _handle(self, frame: Frame, now: float) -> None:
        self.stats.frames_in += 1
        if frame.from_device:
            return  # our own echo cannot happen on a pty; ignore like the hardware would
        try:
            message = decode(frame)
        except ProtocolError as err:
            self._log(f"bad frame from the station: {err}")
            return
        self._station_heard = now
        if isinstance(message, Hello):
            if message.boot_id != self._station_boot:
                self._station_boot = message.boot_id
                self._duplicates.reset()
            self.station_connected.set()
            self._hellos()
            for data in self._outbox.all_now(now):
                self._write(data)
            return
        if isinstance(message, SyncRequest):
            self._send(SyncReply(message.token, self.device_us()), BROADCAST)
            return
        if isinstance(message, Ack):
            if self._lose_acks:
                self._lose_acks -= 1
                return
            if self._outbox.acknowledge(message.seq, now) is not None:
                self.stats.events_acked += 1
            return
        if not message.RELIABLE:
            return
        # carried out first, acknowledged after: an ack means "done" (a duplicate is only acknowledged)
        status = AckStatus.OK if frame.unit == TIMER else AckStatus.REJECTED
        if self._duplicates.seen(frame.seq):
            self.stats.duplicates += 1
        elif status is AckStatus.REJECTED:
            self.stats.rejected += 1
        else:
            self.stats.commands += 1
            self.commands.append(message)
            self._apply(message)
        self._write(self._encode(Ack(frame.seq, status), frame.unit))

    def _apply(self, message: Message) -> None:
        timer = self.timer
        if isinstance(message, Countdown):
            timer.countdown, timer.running, timer.left_at_stop_ms, timer.paused = message, True, None, False
            timer.expired_limit = timer.expired_grace = False
            left = (message.deadline_us - self.device_us()) / 1e6
            self._log(
                f"timer: {message.seat} {message.action.value} {message.limit_ms / 1e3:g} s"
                f" (+{message.grace_ms / 1e3:g} s grace), {left:.1f} s left"
            )
        elif isinstance(message, Stop):
            if timer.running and timer.countdown is not None:
                timer.left_at_stop_ms = max(0, (timer.countdown.deadline_us - self.device_us()) // 1000)
            timer.running = timer.paused = False
            self._log("timer: stop")
        elif isinstance(message, Pause):
            if timer.running and timer.countdown is not None:
                timer.left_at_stop_ms = (timer.countdown.deadline_us - self.device_us()) // 1000
                timer.running, timer.paused = False, True
            self._log(f"timer: paused, {(timer.left_at_stop_ms or 0) / 1e3:.1f} s left")
        elif isinstance(message, Show):
            timer.text = message.text
            self._log(f"timer: show {message.text!r}")
        elif isinstance(message, Beep):
            timer.beeps += message.count
            self._log(f"timer: beep ×{message.count}")

    def _tick_timer(self) -> None:
        timer, countdown = self.timer, self.timer.countdown
        if not timer.running or countdown is None:
            return
        now = self.device_us()
        if not timer.expired_limit and now >= countdown.deadline_us:
            timer.expired_limit = True
            timer.beeps += 1
            self._log(f"timer: {countdown.seat} time up, grace {countdown.grace_ms / 1e3:g} s (beep)")
        if not timer.expired_grace and now >= countdown.deadline_us + countdown.grace_ms * 1000:
            timer.expired_grace = True
            timer.beeps += 1
            self._log(f"timer: {countdown.seat} grace over (beep)")


def _check_seat(seat: str) -> str:
    seat = seat.upper()
    if seat not in SEATS:
        raise ValueError(f"seat {seat!r}: one of {' '.join(SEATS)}")
    return seat
