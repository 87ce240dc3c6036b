"""A hub scripted frame by frame from a test, on a real pty (python-chess ``MockTransport`` style):
``expect`` the station's next frame of a kind, ``send`` a reply, ``assert_done`` at the end. It checks
the station's side of the conversation in PROTOCOL.md exactly, where the emulator only behaves."""

from __future__ import annotations

import os
import pty
import select
import time
import tty
from pathlib import Path

from referee_station.devices.frames import Frame, FrameParser
from referee_station.devices.messages import Heartbeat, Hello, Message, SyncRequest, decode, encode
from referee_station.devices.reliable import SequenceCounter

BACKGROUND = (Heartbeat, SyncRequest, Hello)  # Hello: repeated while units are missing


class ScriptedHub:
    def __init__(self, link: Path) -> None:
        self.master, self.slave = pty.openpty()
        tty.setraw(self.master)
        tty.setraw(self.slave)
        link.symlink_to(os.ttyname(self.slave))
        self.link = link
        self.parser = FrameParser()
        self.pending: list[Frame] = []
        self.seq = SequenceCounter()

    def _frames(self, timeout: float) -> None:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            self.pending += self.parser.feed(os.read(self.master, 4096))

    def expect(self, kind: type[Message], timeout: float = 2.0) -> tuple[Frame, Message]:
        """The station's next frame, skipping background ones (heartbeat, sync, hello); it must be a ``kind``."""
        deadline = time.monotonic() + timeout
        while True:
            while self.pending:
                frame = self.pending.pop(0)
                message = decode(frame)
                if isinstance(message, BACKGROUND) and not isinstance(message, kind):
                    continue
                assert isinstance(message, kind), f"expected {kind.__name__}, the station sent {message}"
                assert not frame.from_device
                return frame, message
            left = deadline - time.monotonic()
            assert left > 0, f"the station sent no {kind.__name__}"
            self._frames(left)

    def send(self, message: Message, unit: int, seq: int | None = None, *, from_device: bool = True) -> int:
        """Write ``message`` as the hub; acknowledged kinds get the next sequence number unless given."""
        if seq is None:
            seq = self.seq.next() if message.RELIABLE else 0
        os.write(self.master, encode(message, unit, seq, from_device=from_device).encode())
        return seq

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def assert_done(self, quiet: float = 0.1) -> None:
        """Nothing but background frames came from the station within ``quiet`` seconds."""
        self._frames(quiet)
        others = [decode(frame) for frame in self.pending if not isinstance(decode(frame), BACKGROUND)]
        assert not others, f"unexpected frames from the station: {others}"
        self.pending.clear()

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)
        self.link.unlink(missing_ok=True)
