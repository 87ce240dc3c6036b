"""The station orchestrator: the one place that knows in which order a table's inputs reach its referee.

Inputs: camera frames (through the card reader and the tracker, ``referee_station.vision.pipeline``), the seat units'
presses (``heard``, from the driver's thread), the console's entries (``enter``, from the GUI thread),
a recorded or simulated feed of other inputs, the head referee's rulings and round call over the hall. Each call
of ``frame`` (a frame arrived) or ``idle`` (none came) feeds, in time order, every input that can no
longer be overtaken by a camera event (``InputMerge``, ``CameraPipeline.horizon``), through the deal
director when the match was set up here, to the referee's sink (a logging ``TableStation``, its hall
link, or a bare referee), and returns a ``Step``: what was fed with its outputs, what was noticed
(camera and seat-unit health, the reader's warnings), and the health now. Listeners (the console, the
terminal timeline, a benchmark) read the ``Step``; nothing is left on this object for them to clear.

Time: every event carries the table clock. A station that resumes a stored log starts its clock where
the log ended (``offset``), so a restart never sends time backwards; live inputs (seat units, console)
are stamped no earlier than the last event fed.
"""

from __future__ import annotations

import bisect
import queue
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from referee_station.core import Health, TableState
from referee_station.core.queues import drain
from referee_station.station.director import DealDirector
from referee_station.station.health import SEATS_BACK, SEATS_OFFLINE, CameraState, CameraWatch, Notice
from referee_station.station.round_gate import RoundGate
from referee_station.station.setup import MatchSetup
from referee_station.table.corrections import SAME_TIME, CorrectingReferee
from referee_station.table.events import Countdown, Flag, Output, PlayCards, Record, Settle, TimerControl
from referee_station.table.events import Health as HealthLine
from referee_station.vision.pipeline import CameraPipeline, InputMerge
from referee_station.vision.tracker import Reread

if TYPE_CHECKING:
    from referee_station.deck.mismatch import DeckNews
    from referee_station.devices.table_devices import Press

MAX_PRELUDE = 4
"""Most events the director puts before one camera play (a deal start and up to three passes)."""
KEEP_FRAMES_S = 3.0
"""Frames kept to show the moment of an event (the tracker reports a landing up to ~2 s late)."""


class Source(Enum):
    """Where an input came from (the console shows it; the audit trail names it)."""

    CAMERA = "camera"
    SEATS = "seats"
    CONSOLE = "console"
    FEED = "table"
    """A recorded log or the simulator (``--events``, the demo)."""
    STATION = "station"
    """Made here: the match line, a deal start, an inferred pass, a health line."""
    HALL = "hall"
    """A ruling of the head referee."""


@dataclass(frozen=True)
class Fed:
    """One input the referee took, its outputs, and the state after it."""

    event: Record
    outputs: tuple[Output, ...]
    source: Source
    who: str
    snapshot: TableState
    frame: np.ndarray | None = None
    """The camera image at the event (BGR) for plays and flags, when the table has a camera."""


@dataclass(frozen=True)
class Step:
    """What one frame (or the lack of one) gave."""

    t: float
    fed: tuple[Fed, ...]
    notices: tuple[Notice, ...]
    health: Health
    camera: CameraState | None

    @property
    def flags(self) -> list[Flag]:
        return [o for f in self.fed for o in f.outputs if isinstance(o, Flag)]


class Sink(Protocol):
    """Feeds the referee and keeps the log: ``TableStation``, ``LinkedStation`` or ``BareReferee``."""

    def submit(self, event: Record) -> Sequence[Output]: ...


class SeatUnits(Protocol):
    """The seat units and the timer as the orchestrator uses them."""

    @property
    def healthy(self) -> bool: ...

    def countdown(self, out: Countdown) -> None: ...

    def pause(self) -> None: ...


class Hall(Protocol):
    """The hall link as the orchestrator uses it (``hall.publisher.StationLink``)."""

    def take_rulings(self) -> list[Any]: ...

    def apply(self, command: Any, t: float, submit: Callable[[Record], Any]) -> bool: ...


class BareReferee:
    """A referee with no log behind it (tests, ``run`` without ``--log``)."""

    def __init__(self, referee: CorrectingReferee) -> None:
        self.referee = referee

    def submit(self, event: Record) -> list[Output]:
        return self.referee.feed(event)


class Station:
    """One table's inputs in, its referee's outputs and health out."""

    def __init__(
        self,
        referee: CorrectingReferee,
        sink: Sink | None = None,
        *,
        pipeline: CameraPipeline | None = None,
        setup: MatchSetup | None = None,
        infer_passes: bool = False,
        others: Iterable[Record] = (),
        deck_check: Callable[[], DeckNews | None] | None = None,
        seat_units: SeatUnits | None = None,
        hall: Hall | None = None,
        evidence: Callable[[Flag, np.ndarray], None] | None = None,
        offset: float = 0.0,
        round_gate: RoundGate | None = None,
    ) -> None:
        self.referee = referee
        self.sink = sink or BareReferee(referee)
        self.pipeline = pipeline
        self.offset = offset
        """Table time of the source's time 0: where a resumed log ended."""
        self.now = referee.now
        self.director = DealDirector(None if setup is None else setup.leader, infer_passes=infer_passes)
        self.deck_check = deck_check
        self.seat_units = seat_units
        self.hall = hall
        self.evidence = evidence
        self.round_gate = round_gate
        """The hall's round clock (R-MATCH-1): feeds the time call, holds back the deals it ended."""
        self.camera = CameraWatch() if pipeline is not None else None
        others = list(others)
        self._merge = InputMerge(others)
        self._origin: dict[int, tuple[Source, str]] = {id(e): (Source.FEED, Source.FEED.value) for e in others}
        self._inbox: queue.SimpleQueue[tuple[Record, Source, str]] = queue.SimpleQueue()
        self._frames: deque[tuple[float, np.ndarray]] = deque()
        self._seats_ok = True
        self._rereads: list[Reread] = []
        """Doubtful plays later frames read for sure, waiting for their play to reach the referee."""
        self.finished = False
        if setup is not None and referee.started is None:
            self._later(setup.match_record(self.now), Source.STATION, "station")

    # -- inputs from other threads ----------------------------------------------------------

    def heard(self, event: Press) -> None:
        """A press the seat units' driver heard (any thread); fed in time order at the next step."""
        self._inbox.put((event, Source.SEATS, Source.SEATS.value))

    def enter(self, event: Record, who: str) -> None:
        """A console entry (any thread): a ruling, a manual play, a tribute picked on the card picker."""
        self._inbox.put((event, Source.CONSOLE, who))

    # -- the loop ---------------------------------------------------------------------------

    def frame(self, t: float, image: np.ndarray) -> Step:
        """A camera frame taken at source time ``t``."""
        t += self.offset
        notices: list[Notice] = []
        camera: list[Record] = []
        limit = t
        self._keep(t, image)
        if self.pipeline is not None and self.camera is not None:
            result = self.pipeline.process(t, image) if self.camera.reading else None
            notices += self.camera.frame(t, image, None if result is None else result.moved)
            if result is not None:
                camera = result.events
                notices += [Notice(w, "camera", "warning", text) for w, text in result.warnings]
                self._rereads += result.rereads
            if self.camera.reading:
                limit = self.pipeline.horizon(t)
            else:  # a frozen or dark image reads nothing: what the tracker holds goes now, in order
                camera += self.pipeline.finish()
            if self.deck_check is not None and (news := self.deck_check()):
                notices.append(Notice(t, news.unit.value, "warning", news.text))
        return self._step(t, limit, camera, notices)

    def idle(self, t: float) -> Step:
        """No frame came by source time ``t`` (a camera that stopped, or a table without one): the
        buttons and entries are refereed on; the camera's held-back events go first."""
        t += self.offset
        if self.finished:  # no camera event can come any more: every entry may go
            return self._step(t, float("inf"), [], [])
        notices: list[Notice] = []
        camera: list[Record] = []
        if self.camera is not None:
            notices = self.camera.idle(t)
            if self.camera.state is CameraState.LOST and self.pipeline is not None:
                camera = self.pipeline.finish()
        return self._step(t, t, camera, notices)

    def finish(self, t: float) -> Step:
        """The source ended at source time ``t``: what the camera still held back is fed, and the other
        inputs up to ``t`` (a feed's later ones happened after the recording); later ``idle`` calls feed
        the entries (rulings go on after a recording ends) without calling the camera lost."""
        self.finished = True
        camera = self.pipeline.finish() if self.pipeline is not None else []
        return self._step(t + self.offset, t + self.offset, camera, [])

    # -- inside -----------------------------------------------------------------------------

    def _later(self, event: Record, source: Source, who: str) -> None:
        self._origin[id(event)] = (source, who)
        self._merge.add(event)

    def _step(self, t: float, limit: float, camera: list[Record], notices: list[Notice]) -> Step:
        notices += self._seat_health(t)
        for notice in notices:
            if notice.state != "warning":
                self._later(HealthLine(notice.t, notice.unit, notice.state, notice.text), Source.STATION, "station")
        for event, source, who in drain(self._inbox):
            self._later(replace(event, t=max(event.t, self.now)), source, who)
        if self.round_gate is not None and (call := self.round_gate.due(self.now, self.referee.snapshot())):
            self._later(call, Source.HALL, "head")
        fed: list[Fed] = []
        for event, from_camera in self._merge.release(limit, camera):
            source, who = (Source.CAMERA, "camera") if from_camera else self._origin.pop(id(event))
            if self.round_gate is not None:
                state = self.referee.snapshot()
                if call := self.round_gate.due(self.now, state):  # the round's last deal just ended
                    self._route(call, Source.HALL, "head", fed)
                    state = self.referee.snapshot()
                if self.round_gate.holds(event, state):
                    continue
            self._route(event, source, who, fed)
        if self.hall is not None:  # the head's rulings and timer commands, every step: a pause from the
            for command in self.hall.take_rulings():  # head must not wait for the table's next event
                self.hall.apply(command, self.now, lambda event: self._submit(event, Source.HALL, "head", fed))
        self._settle_rereads(fed)
        if self.round_gate is not None:
            notices += self.round_gate.notices(t)
        return Step(t, tuple(fed), tuple(notices), self.health(), None if self.camera is None else self.camera.state)

    def _route(self, event: Record, source: Source, who: str, fed: list[Fed]) -> None:
        if source is Source.CAMERA:
            for _ in range(MAX_PRELUDE):
                before = self.director.prelude(event, self.referee.snapshot())
                if before is None:
                    break
                self._submit(before, Source.STATION, "station", fed)
            event = self.director.convert(event, self.referee.snapshot())
        self._submit(event, source, who, fed)

    def _settle_rereads(self, fed: list[Fed]) -> None:
        """A pending read that later frames read for sure is settled as they read it (docs/corrections.md):
        a ``settle`` from the camera, logged like the console's. A re-read whose play the referee took
        as sure, or judged out of turn, settles nothing; one whose play is not fed yet waits."""
        waiting: list[Reread] = []
        for again in self._rereads:
            pending = self.referee.snapshot().pending
            if any(p.seat == again.seat and abs(p.t - again.at) <= SAME_TIME for p in pending):
                reason = f"sure frames at t={again.t:.2f} (confidence {again.confidence:.2f})"
                settle = Settle(max(again.t, self.now), again.at, again.seat, again.cards, reason)
                self._submit(settle, Source.CAMERA, "camera", fed)
            elif self.now < again.at:
                waiting.append(again)
        self._rereads = waiting

    def _submit(self, event: Record, source: Source, who: str, fed: list[Fed]) -> None:
        outputs = tuple(self.sink.submit(event))
        self.now = max(self.now, event.t)
        self.director.observe(outputs)
        flags = [o for o in outputs if isinstance(o, Flag)]
        image = self.frame_at(event.t) if flags or isinstance(event, PlayCards) else None
        if isinstance(event, TimerControl) and event.action == "pause" and self.seat_units is not None:
            self.seat_units.pause()  # resuming and added time reach the timer as countdowns
        for out in outputs:
            if isinstance(out, Countdown) and self.seat_units is not None:
                self.seat_units.countdown(out)
        if image is not None and self.evidence is not None:
            for flag in flags:
                self.evidence(flag, image)
        fed.append(Fed(event, outputs, source, who, self.referee.snapshot(), image))

    def _keep(self, t: float, image: np.ndarray) -> None:
        self._frames.append((t, image))
        while self._frames and self._frames[0][0] < t - KEEP_FRAMES_S:
            self._frames.popleft()

    def frame_at(self, t: float) -> np.ndarray | None:
        """The last kept frame taken at or before table time ``t`` (the oldest kept one if older)."""
        if not self._frames:
            return None
        i = bisect.bisect_right([when for when, _ in self._frames], t)
        return self._frames[max(0, i - 1)][1]

    def _seat_health(self, t: float) -> list[Notice]:
        if self.seat_units is None:
            return []
        ok = self.seat_units.healthy
        if ok == self._seats_ok:
            return []
        self._seats_ok = ok
        text = SEATS_BACK if ok else SEATS_OFFLINE
        return [Notice(t, "seats", "ok" if ok else "offline", text)]

    def health(self) -> Health:
        """Each unit the tile shows: up or not."""
        camera = self.camera is None or self.camera.state is CameraState.OK
        seats = self.seat_units is None or self._seats_ok
        return Health(camera=camera, timer=seats, seats=seats)
