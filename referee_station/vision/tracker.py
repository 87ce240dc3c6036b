"""The play tracker: per seat, turn frame-by-frame readings into ``play`` and ``clear`` table events.

A pure state machine: ``feed(t, patches, read)`` takes the frame time, the zone patches of
``referee_station.vision.motion`` and a callable that reads the frame's cards (called only when needed), and returns
the events that became certain. No clock, camera or model inside, so a recorded sequence always gives
the same events, and tests feed hand-made patches and readings.

Per seat (invariants):
- *Motion gating*: a seat whose play-area patch equals its reference (the patch when its cards were
  last accepted) costs one patch comparison; the reader is called only after the area changed and then
  held still for ``settle`` seconds (a hand over the area moves; cards lying there do not).
- *Looking more than once*: every read of a still area adds to each card's evidence
  (``referee_station.vision.evidence``: per card, tracked by its anchor, across a hand passing over), and the play is
  what the evidence says, not what the last read said.
- *Stability*: a new set of cards becomes a play only when the evidence gives the same cards in two
  reads at least ``stable`` seconds apart with no motion between them, and every card is ``sure``;
  while a card is not, the seat is read again (every ``reread`` s, at most ``max_reads`` times), so the
  reader's time goes where there is doubt and a seat whose cards are sure is not read again. A hand
  moving in and out leaves the area as it was and is never read into a play; an arm held over the
  cards reads ``occluded`` and is waited out.
- *Landing time*: the event's ``t`` is when the cards landed, not when they were recognised: the first
  frame of the still run before the row's first look whose pixels, where the area changed, already
  match that look's picture (a hand passing over the cards later, while they are looked at again,
  does not move it).
- *Order*: the cards are the reader's row, left to right as the seat sees it (R-PLAY-4).
- *Uncertain reads*: a play carries ``confidence`` (the lowest card confidence of the evidence; halved
  if the reads never agreed twice in ``max_reads`` tries) and each card's ``alternatives``, so that the
  referee flags rather than penalises and can weigh the other readings (R-PLAY-4).
- *Looking again*: a play sent below ``sure`` is looked at again while its cards lie still, whenever
  the picture changed a little since its last look (a shadow gone, the light changed: the same pixels
  would read the same), at most ``max_reads`` times, with evidence of its own; when two later looks are
  sure of its cards, a :class:`Reread` says so (``rereads``), for the station to settle the pending read.
- *Read again*: the cards last sent, read afresh where they lie (the light changed), are no new play,
  also where a card torn between two readings falls the other way (``_read_again``).
Across seats: a trick is cleared (``clear``) when every play area is empty after a play and cards went
to the discard areas, or the cards of two or more seats went (cards one player takes back into the hand
are not a clear; a plain back piled on the same back can leave the discard area looking unchanged); or,
since nobody beats their own play (R-PLAY-2), when a seat lays new cards while its own are the only
ones on the table. Events leave
in time order: one is held back while another seat's still unsettled change might have landed earlier.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from referee_station.table.config import RulesConfig
from referee_station.table.events import Clear, PlayCards, Record
from referee_station.vision.evidence import Alternatives, RowEvidence, same_row
from referee_station.vision.layout import SEATS
from referee_station.vision.motion import Patches, changed, changed_fraction


class SeatReadingLike(Protocol):
    """What the tracker needs of ``referee_station.vision.reader.SeatReading``."""

    cards: list[str]
    confidences: list[float]
    status: str
    anchors: list[tuple[float, float]]
    alternatives: list[Alternatives]


class FrameReadingLike(Protocol):
    """What the tracker needs of ``referee_station.vision.reader.FrameReading``."""

    seats: Mapping[str, SeatReadingLike]


Read = Callable[[], FrameReadingLike]
EPS = 1e-6
"""Frame times are sums of 1/fps: compare durations with this slack."""


@dataclass(frozen=True)
class Reread:
    """Later frames, sure of them, read the play ``seat`` made at ``at`` as ``cards`` (at frame time ``t``,
    with the lowest card ``confidence`` of those looks): not a table event, a fact for the station."""

    t: float
    at: float
    seat: str
    cards: tuple[str, ...]
    confidence: float


@dataclass(frozen=True)
class TrackerConfig:
    """Timings in seconds, fractions of a patch's pixels."""

    settle: float = 0.3
    """Stillness after a change before the area is read."""
    stable: float = 0.4
    """Two agreeing reads this far apart, with no motion between, make a play."""
    reread: float = 0.3
    """Least time between two reads of a seat that is still undecided."""
    max_reads: int = 6
    """Reads after which a seat's evidence goes out as it stands: with half its confidence when no two
    reads agreed."""
    sure: float = RulesConfig.min_confidence
    """A card whose evidence reaches this confidence needs no further look: the referee's own line
    between a read it takes and one it flags for a look."""
    motion: float = 0.01
    """Share of changed pixels between consecutive frames that counts as motion."""
    change: float = 0.02
    """Share of changed pixels against the reference that counts as a change of the area."""
    level: int = 18
    """Levels of difference, in any colour channel, that count a pixel as changed."""
    land: float = 0.6
    """Share of the changed pixels that must already match the final picture for the cards to have landed."""
    history: float = 8.0
    """Seconds of patches kept per seat to find the landing time."""


@dataclass
class _Seat:
    """One seat's play area (and its discard area, for clears)."""

    cards: tuple[str, ...] = ()
    ref: np.ndarray | None = None
    prev: np.ndarray | None = None
    discard_ref: np.ndarray | None = None
    history: deque[tuple[float, np.ndarray]] = field(default_factory=deque)
    still_since: float | None = None
    change_since: float | None = None
    candidate: tuple[tuple[str, ...], float] | None = None
    evidence: RowEvidence = field(default_factory=RowEvidence)
    landed: float | None = None
    """When the row the evidence is about landed, found at its first look: a hand passing over the
    cards later does not move it."""
    last_read: float = -1e9
    reads: int = 0
    removed_at: float | None = None
    doubt: PlayCards | None = None
    """The play sent below ``sure`` whose cards still lie there: looked at again."""
    again: RowEvidence = field(default_factory=RowEvidence)
    """The looks at ``doubt``'s cards since it was sent."""
    again_reads: int = 0
    looked: np.ndarray | None = None
    """The play area at ``doubt``'s last look (a look again needs a picture that changed since)."""
    lying: tuple[tuple[tuple[float, float], ...], tuple[Alternatives, ...]] = ((), ())
    """The anchors and close readings of the cards last sent (``cards``), for ``_read_again``."""


class PlayTracker:
    """Feed every frame in time order; collect the returned events."""

    def __init__(self, config: TrackerConfig | None = None, seats: Sequence[str] = SEATS) -> None:
        self.config = config or TrackerConfig()
        self.seats = {seat: _Seat() for seat in seats}
        self.reads = 0
        """Reader calls so far (the cost that motion gating saves)."""
        self.notices: list[tuple[float, str]] = []
        """Things the operator should know that are not table events (cards that stay unreadable)."""
        self.rereads: list[Reread] = []
        """Doubtful plays that later frames read for sure (the caller takes and clears them)."""
        self._trick_open = False
        self._pending: list[Record] = []

    def feed(self, t: float, patches: Patches, read: Read) -> list[Record]:
        cfg = self.config
        due: list[str] = []
        again: list[str] = []
        for seat, s in self.seats.items():
            patch = patches[(seat, "play")]
            if s.ref is None:
                s.ref, s.prev, s.discard_ref = patch, patch, patches[(seat, "discard")]
            moving = changed_fraction(patch, s.prev, cfg.level) > cfg.motion
            s.prev = patch
            s.history.append((t, patch))
            while s.history and s.history[0][0] < t - cfg.history:
                s.history.popleft()
            if moving:
                s.still_since = None
                s.candidate = None
                if s.change_since is None:
                    s.change_since = t
                continue
            if s.still_since is None:
                s.still_since = t
            ready = t - s.still_since >= cfg.settle - EPS and t - s.last_read >= cfg.reread - EPS
            if changed_fraction(patch, s.ref, cfg.level) <= cfg.change:
                s.change_since, s.candidate, s.landed = None, None, None  # idle, or a hand came and went
                s.evidence.clear()
                if s.doubt is not None and ready and changed_fraction(patch, s.looked, cfg.level) > cfg.motion:
                    again.append(seat)  # the same pixels read again would say the same: only a new picture
                continue
            if s.change_since is None:
                s.change_since = t
            if ready:
                due.append(seat)
        if due or again:
            reading = read()
            self.reads += 1
            for seat in due:
                self._judge(t, seat, reading.seats[seat], patches)
            for seat in again:
                self._look_again(t, seat, reading.seats[seat])
        self._maybe_clear(t, patches)
        return self._release(t)

    def finish(self) -> list[Record]:
        """Every event still held back (the source ended)."""
        out, self._pending = sorted(self._pending, key=lambda e: e.t), []
        return out

    def horizon(self, now: float) -> float:
        """No event the tracker has yet to send will be earlier than this: other sources' events
        before it can go to the referee now without breaking time order."""
        starts = [s.change_since for s in self.seats.values() if s.change_since is not None]
        return min([now, *starts])

    def _judge(self, t: float, seat: str, reading: SeatReadingLike, patches: Patches) -> None:
        s = self.seats[seat]
        s.last_read = t
        s.reads += 1
        if reading.status == "occluded":
            return
        patch = s.prev
        assert patch is not None
        if reading.status == "empty" or not reading.cards:
            if reading.status == "unreadable":
                if s.reads >= self.config.max_reads:
                    self.notices.append((t, f"{seat}: cards in the play area cannot be read"))
                    self._accept(s, patch)
                return
            if s.cards:
                s.removed_at = self._landed(s, patch)
            s.cards, s.doubt, s.lying = (), None, ((), ())
            self._accept(s, patch)
            return
        if not s.evidence.add(reading) or s.landed is None:
            s.landed = self._landed(s, patch)
        cards = s.evidence.cards
        if cards == s.cards or self._read_again(s, cards):
            self._accept(s, patch)  # the same cards, nudged or read again: no new play
            return
        agreed = s.candidate is not None and s.candidate[0] == cards and t - s.candidate[1] >= self.config.stable - EPS
        if s.candidate is None or s.candidate[0] != cards:
            s.candidate = (cards, t)
        if s.reads < self.config.max_reads and not (agreed and s.evidence.sure(self.config.sure)):
            return
        confidence = min(s.evidence.confidences)
        if not agreed:
            confidence /= 2
        alternatives = tuple(tuple((code, round(p, 3)) for code, p in card) for card in s.evidence.alternatives)
        landed = s.landed
        assert landed is not None  # set at the row's first look, above
        others_empty = all(not o.cards for k, o in self.seats.items() if k != seat)
        if self._trick_open and s.cards and others_empty:  # nobody beats their own play (R-PLAY-2)
            self._clear(max(landed - 0.01, s.change_since or landed), patches)
        s.cards, s.lying = cards, (s.evidence.anchors, s.evidence.alternatives)
        self._accept(s, patch)
        self._trick_open = True
        play = PlayCards(round(landed, 2), seat, cards, confidence=round(confidence, 3), alternatives=alternatives)
        self._pending.append(play)
        s.doubt, s.again_reads, s.looked = (play if confidence < self.config.sure else None), 0, patch
        s.again.clear()

    @staticmethod
    def _read_again(s: _Seat, cards: tuple[str, ...]) -> bool:
        """Whether ``cards``, read where the cards last sent still lie (every anchor in its place), are
        those cards read again: where they differ, each is torn between the same two readings (each
        among the other's close readings). A doubtful card's tie can fall the other way on a later look
        (a hand passing over the next area); that is no new play, and sending it as one made the seat
        play out of turn (the sans deck's live run, 2026-12-05)."""
        anchors, alternatives = s.lying
        if len(cards) != len(s.cards) or not same_row(anchors, s.evidence.anchors):
            return False
        now = s.evidence.alternatives
        return all(
            old == new or (new in dict(before) and old in dict(after))
            for old, new, before, after in zip(s.cards, cards, alternatives, now, strict=True)
        )

    def _look_again(self, t: float, seat: str, reading: SeatReadingLike) -> None:
        """One more look at a doubtful play's cards lying still; two sure looks settle it (a Reread)."""
        s = self.seats[seat]
        doubt = s.doubt
        assert doubt is not None
        s.last_read, s.looked = t, s.prev
        s.again_reads += 1
        if reading.status == "cards" and len(reading.cards) == len(doubt.cards):
            s.again.add(reading)
            if s.again.looks >= 2 and s.again.sure(self.config.sure):
                confidence = round(min(s.again.confidences), 3)
                self.rereads.append(Reread(t, doubt.t, seat, s.again.cards, confidence))
                s.doubt = None
                return
        if s.again_reads >= self.config.max_reads:
            s.doubt = None  # the frames never got sure: the read stays pending for the referee

    def _accept(self, s: _Seat, patch: np.ndarray) -> None:
        s.ref, s.candidate, s.change_since, s.reads, s.landed = patch, None, None, 0, None
        s.evidence.clear()

    def _landed(self, s: _Seat, final: np.ndarray) -> float:
        """The first frame of the trailing run that already shows the final picture where it changed."""
        assert s.ref is not None
        mask = changed(final, s.ref, self.config.level)
        if not mask.any():
            return s.history[-1][0]
        landed = s.history[-1][0]
        for t, patch in reversed(s.history):
            if s.change_since is not None and t < s.change_since:
                break
            match = np.count_nonzero(~changed(patch, final, self.config.level) & mask) / np.count_nonzero(mask)
            if match < self.config.land:
                break
            landed = t
        return landed

    def _maybe_clear(self, t: float, patches: Patches) -> None:
        if not self._trick_open or any(s.cards or s.change_since is not None for s in self.seats.values()):
            return
        moved = any(
            changed_fraction(patches[(seat, "discard")], s.discard_ref, self.config.level) > self.config.change
            for seat, s in self.seats.items()
            if s.discard_ref is not None
        )
        removals = [s.removed_at for s in self.seats.values() if s.removed_at is not None]
        if not moved and len(removals) < 2:
            return  # one player's cards went back into the hand, not to the discard areas
        self._clear(max(removals, default=t), patches)
        self._trick_open = False

    def _clear(self, t: float, patches: Patches) -> None:
        """Send a clear at ``t``; the next trick starts from the discard areas as they are now, with no removals."""
        self._pending.append(Clear(round(t, 2)))
        for seat, s in self.seats.items():
            s.discard_ref = patches[(seat, "discard")]
            s.removed_at = None

    def _release(self, now: float) -> list[Record]:
        """Pending events older than every unsettled change, in time order."""
        limit = self.horizon(now)
        ready = sorted((e for e in self._pending if e.t <= limit), key=lambda e: e.t)
        self._pending = [e for e in self._pending if e.t > limit]
        return ready
