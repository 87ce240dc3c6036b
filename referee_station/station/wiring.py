"""Building a station from what the organiser names: the log (and resuming it), the hall link, the card
reader (generic, a registered deck, or the simulation's truth), the calibration and the seat units.
``run``, ``station`` and the tests build their ``Station`` here, so each choice is made in one place."""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import numpy as np

from referee_station.log.jsonl import read_jsonl
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.station.orchestrator import Sink, Station
from referee_station.station.round_gate import RoundGate
from referee_station.station.setup import MatchSetup
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Flag, Output, Record
from referee_station.vision.calibrate import Calibration, calibration_path, from_markers
from referee_station.vision.capture import CaptureError, open_source, paced
from referee_station.vision.layout import Layout
from referee_station.vision.pipeline import CameraPipeline, ReadFrame
from referee_station.vision.topview import top_view

if TYPE_CHECKING:
    from referee_station.deck.mismatch import DeckNews
    from referee_station.hall.publisher import StationLink


class JsonlSink:
    """A referee whose every input and output is written to a JSON Lines log as it happens."""

    def __init__(self, referee: CorrectingReferee, out: TextIO) -> None:
        self.referee = referee
        self.out = out

    def submit(self, event: Record) -> list[Output]:
        outputs = self.referee.feed(event)
        for record in (event, *outputs):
            self.out.write(record.to_line() + "\n")
        self.out.flush()
        return outputs


@dataclass(frozen=True)
class OpenedLog:
    """The referee, what feeds it (``None``: the referee alone), the hall link, and the table time
    where the clock resumes (the last stored event's, 0 for a new log)."""

    referee: CorrectingReferee
    sink: Sink | None
    hall: StationLink | None
    offset: float


def open_log(
    stack: ExitStack, args: argparse.Namespace, clock: Callable[[], float], *, auto_confirm: bool
) -> OpenedLog:
    """``--log`` SQLite (resumed: the referee rebuilt from the stored inputs, the clock from the last
    one), ``.jsonl`` (a new file), or none; ``--broker`` links a SQLite log to the hall."""
    log = getattr(args, "log", None)
    if log and not str(log).endswith(".jsonl"):
        store = stack.enter_context(EventStore(log))
        station = TableStation.open(store, args.table, auto_confirm=auto_confirm)
        offset = station.referee.now if station.inputs else 0.0
        if not getattr(args, "broker", None):
            return OpenedLog(station.referee, station, None, offset)
        from referee_station.hall.linked import LinkedStation, link_station  # the [hall] extra

        linked = link_station(args, station, args.table, Path(log), lambda: offset + clock())
        assert isinstance(linked, LinkedStation)
        stack.callback(linked.close)
        return OpenedLog(station.referee, linked, linked.link, offset)
    if getattr(args, "broker", None):
        raise ValueError("--broker needs a SQLite --log (the hall sends what the log holds)")
    referee = CorrectingReferee(auto_confirm=auto_confirm)
    if log:
        out = stack.enter_context(open(log, "w", encoding="utf-8"))  # noqa: SIM115 (the stack closes it)
        return OpenedLog(referee, JsonlSink(referee, out), None, 0.0)
    return OpenedLog(referee, None, None, 0.0)


def calibration_for(table: str, path: str | None, first_frame: np.ndarray, layout: Layout) -> Calibration:
    """``--calibration``, else ``calibration/<table>.json`` when it exists, else the markers in the first frame."""
    file = Path(path) if path else calibration_path(table)
    if path or file.exists():
        return Calibration.load(file)
    return from_markers(table, first_frame, layout)


class TruthReader:
    """Simulation only: the cards the rendered log put on the cloth at ``t`` (set before each frame)."""

    def __init__(self, log: str, seed: int) -> None:
        from referee_station.render.video import choreograph

        records, errors = read_jsonl(log)
        if errors:
            raise ValueError(str(errors[0]))
        self.choreo = choreograph([r.record for r in records], seed)
        self.t = 0.0

    def __call__(self, frame, corners):
        from referee_station.render.video import truth_reading

        return truth_reading(self.choreo, self.t)


def card_reader(args: argparse.Namespace) -> tuple[ReadFrame, Callable[[], DeckNews | None] | None]:
    """The truth reader, the card reader of ``--models``, or that reader watched against ``--deck``;
    with the deck check's news (a profile that does not match the cards on the table, a camera that
    gives less detail than the deck needs)."""
    if getattr(args, "truth_reader", None):
        if args.deck:
            raise ValueError("--deck reads with a card reader; --truth-reader reads none")
        return TruthReader(args.truth_reader, args.seed), None
    from referee_station.deck.mismatch import WatchedReader
    from referee_station.deck.profile import DeckProfile, reader_for
    from referee_station.vision.reader import MODELS_DIR

    deck = DeckProfile.load(Path(args.deck)) if args.deck else None
    reader = reader_for(deck, Path(args.models) if getattr(args, "models", None) else MODELS_DIR)
    reader.reuse_still = True  # one table's frames in order: a still area keeps its reading
    if deck is None:
        return reader.read, None
    watched = WatchedReader(reader, deck.meta.design, deck.meta.mismatch_below, deck.meta.mismatch_on)
    return watched, watched.news


def parse_resolution(text: str | None) -> tuple[int, int] | None:
    """``WxH`` (``1920x1080``) as a pair; ``None`` stays ``None``."""
    if text is None:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as err:
        raise ValueError(f"--resolution must be WIDTHxHEIGHT, e.g. 1920x1080, got {text!r}") from err
    if w <= 0 or h <= 0:
        raise ValueError(f"--resolution must be positive, got {text!r}")
    return w, h


@dataclass(frozen=True)
class Opened:
    """A station ready to run: the orchestrator, its frames, and the calibration (for the console's view)."""

    station: Station
    frames: Iterator[tuple[float, np.ndarray | None]]
    calibration: Calibration
    reader: ReadFrame
    clock: Callable[[], float]
    """The table clock the seat units' presses are stamped with (table seconds)."""


def open_station(
    stack: ExitStack,
    args: argparse.Namespace,
    *,
    setup: MatchSetup | None = None,
    others: Sequence[Record] = (),
    auto_confirm: bool = False,
    evidence: Callable[[Flag, np.ndarray], None] | None = None,
    seat_units: bool | None = None,
) -> Opened:
    """Everything ``args`` names, opened and closed with ``stack``: log, reader, source (paced at
    ``--speed`` for a recording with seat units), calibration from the first frame, seat units, hall.
    ``seat_units`` says whether passes and reports reach the station (default: ``--devices`` is given);
    without them passes are inferred and reports not demanded.
    Raises ``CaptureError``, ``CalibrationError``, ``OSError`` or ``ValueError`` with what is wrong."""
    start = time.monotonic()
    speed = getattr(args, "speed", None) or 1.0
    seat_units = bool(args.devices) if seat_units is None else seat_units
    if setup is not None and not seat_units:  # nobody can press a report: R-REPORT is the floor referee's
        setup = replace(setup, rules={**setup.rules, "reports_heard": False})

    def source_clock() -> float:
        return (time.monotonic() - start) * speed

    opened = open_log(stack, args, source_clock, auto_confirm=auto_confirm)
    read, deck_check = card_reader(args)
    layout = Layout.default()
    resolution = parse_resolution(getattr(args, "resolution", None))
    frames = open_source(args.camera, args.video, args.frames, args.fps, source_clock, resolution)
    if args.camera is None and (getattr(args, "speed", None) or args.devices):
        frames = paced(frames, speed)  # type: ignore[arg-type]
    first = next((item for item in frames if item[1] is not None), None)
    if first is None:
        raise CaptureError("the source gave no frame")
    calibration = calibration_for(args.table, args.calibration, first[1], layout)
    pipeline = CameraPipeline(calibration, read, layout)
    truth = read if isinstance(read, TruthReader) else None
    station = Station(
        opened.referee,
        opened.sink,
        pipeline=pipeline,
        setup=setup,
        infer_passes=setup is not None and not seat_units,
        others=others,
        deck_check=deck_check,
        hall=opened.hall,
        evidence=evidence if evidence is not None else _hall_evidence(opened.hall, calibration),
        offset=opened.offset,
        round_gate=None if opened.hall is None else RoundGate(opened.hall, args.table),
    )
    if args.devices:  # after the station: the hub sends what it kept at once (presses made while we were down)
        from referee_station.station.seat_units import SeatUnitLink  # the serial driver, only when asked for

        units = SeatUnitLink(args.devices, lambda: opened.offset + source_clock(), station.heard)
        stack.callback(units.close)
        units.driver.wait_connected(5.0)
        station.seat_units = units

    def timed() -> Iterator[tuple[float, np.ndarray | None]]:
        for t, frame in itertools.chain([first], frames):
            if truth is not None:
                truth.t = t
            yield t, frame

    return Opened(station, timed(), calibration, read, lambda: opened.offset + source_clock())


def _hall_evidence(hall: StationLink | None, calibration: Calibration) -> Callable[[Flag, np.ndarray], None] | None:
    """The flag's frame to the head referee: the table seen from above, as the station console shows it."""
    if hall is None:
        return None
    from referee_station.hall.evidence import frame_jpeg

    def publish(flag: Flag, image: np.ndarray) -> None:
        hall.publish_evidence(flag.id, flag.t, frame_jpeg(top_view(image, calibration.homography)))

    return publish
