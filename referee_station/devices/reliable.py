"""Acknowledgement bookkeeping shared by the station's link and the emulated hub: no I/O, no clock.

- :class:`SequenceCounter` hands out sequence numbers 1..65535 (0 means "not acknowledged").
- :class:`Outbox` keeps every sent reliable frame until its acknowledgement and says when to send it
  again; a frame that used up its attempts comes back as expired, so its sender can report it.
- :class:`DuplicateFilter` remembers the last sequence numbers received, so a retransmission whose
  first copy did arrive (only the acknowledgement was lost) is acknowledged again but not acted on
  twice: a press is one table event however often it is sent.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class SequenceCounter:
    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        self._last = self._last % 0xFFFF + 1
        return self._last


@dataclass(slots=True)
class _Pending(Generic[T]):
    data: bytes
    token: T
    sent: float
    attempts: int
    due: float


class Outbox(Generic[T]):
    """Frames waiting for their acknowledgement, each with a caller's ``token`` (a future, a message)."""

    def __init__(self, timeout: float, max_attempts: int | None, capacity: int | None = None) -> None:
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.capacity = capacity
        self._pending: dict[int, _Pending[T]] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def add(self, seq: int, data: bytes, token: T, now: float) -> T | None:
        """Track a frame just sent; when full, the oldest is pushed out and its token returned."""
        evicted = None
        if self.capacity is not None and len(self._pending) >= self.capacity:
            evicted = self._pending.pop(next(iter(self._pending))).token
        self._pending[seq] = _Pending(data, token, now, 1, now + self.timeout)
        return evicted

    def acknowledge(self, seq: int, now: float) -> tuple[T, float | None] | None:
        """The token of the frame ``seq`` acknowledged at ``now`` and its round trip, or None for an
        unknown or repeated ack. The round trip is None for a frame sent more than once: the ack may
        answer any copy (Karn's rule), so it measures nothing."""
        pending = self._pending.pop(seq, None)
        if pending is None:
            return None
        return pending.token, (now - pending.sent if pending.attempts == 1 else None)

    def due(self, now: float) -> tuple[list[bytes], list[T]]:
        """Frames to send again now, and tokens of frames that used up their attempts (removed)."""
        resend: list[bytes] = []
        expired: list[T] = []
        for seq, pending in list(self._pending.items()):
            if pending.due > now:
                continue
            if self.max_attempts is not None and pending.attempts >= self.max_attempts:
                expired.append(self._pending.pop(seq).token)
                continue
            pending.attempts += 1
            pending.due = now + self.timeout
            resend.append(pending.data)
        return resend, expired

    def all_now(self, now: float) -> list[bytes]:
        """Every pending frame, marked as just sent (the peer came back: send them all at once)."""
        for pending in self._pending.values():
            pending.due = now + self.timeout
        return [pending.data for pending in self._pending.values()]

    def clear(self) -> list[T]:
        tokens = [pending.token for pending in self._pending.values()]
        self._pending.clear()
        return tokens


class DuplicateFilter:
    """True for a sequence number seen among the last ``window`` received."""

    def __init__(self, window: int = 256) -> None:
        self._order: deque[int] = deque(maxlen=window)
        self._seen: set[int] = set()

    def seen(self, seq: int) -> bool:
        if seq in self._seen:
            return True
        if len(self._order) == self._order.maxlen:
            self._seen.discard(self._order[0])
        self._order.append(seq)
        self._seen.add(seq)
        return False

    def reset(self) -> None:
        self._order.clear()
        self._seen.clear()
