"""Clock synchronisation: maps the table hub's clock (µs) to the station's ``time.monotonic()``.

Why: a press must be timed to the press, not to the frame's arrival (R-TIME-2 counts 20 s to the
action; a retransmitted or buffered press can arrive seconds late). The hub stamps each press on its
own clock; the station asks the hub's time regularly (Cristian's algorithm: ask at ``sent``, hear at
``received``, the answer was true near the midpoint, within ``±rtt/2``) and keeps the samples with the
smallest round trips, which are the least disturbed by scheduling. With more than ``DRIFT_SPAN`` seconds
of samples it fits the rate too (a cheap crystal drifts 20–100 ppm: up to 6 ms a minute).
Pure arithmetic, no I/O; times are passed in.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SyncSample:
    """One exchange: station send and receive times (s) and the device time (s) it answered."""

    sent: float
    device: float
    received: float

    @property
    def rtt(self) -> float:
        return self.received - self.sent

    @property
    def midpoint(self) -> float:
        return (self.sent + self.received) / 2


class ClockSync:
    """Estimate ``local = offset + rate * device`` from recent sync exchanges."""

    MIN_SAMPLES = 3
    DRIFT_SPAN = 5.0

    def __init__(self, window: int = 32) -> None:
        self._samples: deque[SyncSample] = deque(maxlen=window)
        self._offset = 0.0
        self._rate = 1.0
        self._origin = 0.0

    @property
    def synced(self) -> bool:
        return len(self._samples) >= self.MIN_SAMPLES

    @property
    def error_bound(self) -> float:
        """Half the best round trip among the samples kept (s): how wrong one mapping can be, at most."""
        return min(s.rtt for s in self._samples) / 2 if self._samples else float("inf")

    @property
    def rate(self) -> float:
        return self._rate

    def reset(self) -> None:
        self._samples.clear()
        self._offset, self._rate = 0.0, 1.0

    def add(self, sent: float, device_us: int, received: float) -> None:
        """Record an exchange and refit; a reply that came back before it was sent is ignored."""
        if received < sent:
            return
        self._samples.append(SyncSample(sent, device_us / 1e6, received))
        self._fit()

    def to_local(self, device_us: int) -> float:
        """The station's monotonic time at device time ``device_us``."""
        return self._offset + self._rate * (device_us / 1e6 - self._origin)

    def to_device(self, local: float) -> int:
        """The device time (µs) at the station's monotonic time ``local``."""
        return round(((local - self._offset) / self._rate + self._origin) * 1e6)

    def _fit(self) -> None:
        samples = sorted(self._samples, key=lambda s: s.rtt)
        best = samples[: max(self.MIN_SAMPLES, len(samples) // 2)]
        self._origin = best[0].device
        span = max(s.device for s in best) - min(s.device for s in best)
        if len(best) < self.MIN_SAMPLES or span < self.DRIFT_SPAN:
            self._rate = 1.0
            self._offset = best[0].midpoint
            return
        xs = [s.device - self._origin for s in best]
        ys = [s.midpoint for s in best]
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mean_x) ** 2 for x in xs)
        sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
        self._rate = sxy / sxx
        self._offset = mean_y - self._rate * mean_x
