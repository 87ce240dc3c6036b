"""``referee-station run``: referee a table live: capture → card reader → tracker → referee → log.

    referee-station run --camera 0 --table T1 --devices /dev/ttyUSB0 --log hall.sqlite
    referee-station run --video match.mp4 --table T1 --events match.jsonl --auto-confirm

The camera gives ``play`` and ``clear`` (``vision.tracker``); pass buttons and reports come from the
seat units (``--devices``), and the other inputs (match, deal, tribute, ...) from the console, or, for a
recorded or simulated table, from ``--events LOG`` (its own play and clear lines are ignored: the
camera's replace them). Everything is fed to the referee in time order (``CameraPipeline.horizon``),
logged (``--log``: SQLite through ``TableStation``, or JSON Lines), and flags print as they happen.

The calibration is ``calibration/<table>.json`` (``referee-station calibrate``), or found from the
markers in the first frame. ``--truth-reader LOG`` reads the cards from the simulation that rendered
the video instead of the model: it measures the tracker apart from the reader.
Exit codes: 0 ran to the end, 1 flags were raised, 2 bad input (source, calibration, models).
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from referee_station.hall.linked import LinkedStation, add_broker_arguments, link_station
from referee_station.log.jsonl import read_jsonl
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.log.timeline import describe
from referee_station.table.events import Flag, Output, PlayCards, Record, parse_record
from referee_station.table.referee import TableReferee
from vision.calibrate import Calibration, CalibrationError, calibration_path, from_markers
from vision.capture import CaptureError, open_source
from vision.deck.mismatch import WatchedReader
from vision.layout import Layout
from vision.pipeline import CameraPipeline, InputMerge, ReadFrame, seen_by_camera


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="referee a table from its camera (and seat units)")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, help="camera index")
    src.add_argument("--video", help="a video file")
    src.add_argument("--frames", help="a folder of frames (file-name order)")
    parser.add_argument("--fps", type=float, default=10.0, help="frame rate of --frames")
    parser.add_argument("--table", default="T1", help="table id")
    parser.add_argument("--calibration", help="calibration file (default calibration/<table>.json, else markers)")
    parser.add_argument("--devices", help="serial port (or pyserial URL) of the table's seat units and timer")
    parser.add_argument("--events", help="other inputs from a log (match, deal, pass, ...); its plays are ignored")
    parser.add_argument("--log", help="the table log: SQLite (default) or .jsonl")
    parser.add_argument("--models", help="folder with the card reader's ONNX models (default: shipped)")
    parser.add_argument("--deck", help="deck profile from register-deck (default: the generic classifier)")
    parser.add_argument("--truth-reader", metavar="LOG", help="simulation only: read cards from the rendered log")
    parser.add_argument("--seed", type=int, default=0, help="with --truth-reader: render-video's --seed")
    parser.add_argument("--auto-confirm", action="store_true", help="treat every flag as confirmed (EVENTS.md)")
    parser.add_argument("--camera-events", help="also write the camera's events alone (JSON Lines)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print flags only, not the camera's events")
    add_broker_arguments(parser)
    parser.set_defaults(func=run)


def _calibration(args: argparse.Namespace, first_frame, layout: Layout) -> Calibration:
    path = Path(args.calibration) if args.calibration else calibration_path(args.table)
    if args.calibration or path.exists():
        return Calibration.load(path)
    return from_markers(args.table, first_frame, layout)


class _TruthReader:
    """Simulation only: the cards the rendered log put on the cloth at ``t`` (set before each frame)."""

    def __init__(self, log: str, seed: int) -> None:
        from vision.video import choreograph

        records, errors = read_jsonl(log)
        if errors:
            raise ValueError(str(errors[0]))
        self.choreo = choreograph([r.record for r in records], seed)
        self.t = 0.0

    def __call__(self, frame, corners):
        from vision.video import truth_reading

        return truth_reading(self.choreo, self.t)


def _reader(args: argparse.Namespace) -> ReadFrame:
    """The truth reader, the card reader of ``--models``, or that reader watched against ``--deck``."""
    if args.truth_reader:
        if args.deck:
            raise ValueError("--deck reads with a card reader; --truth-reader reads none")
        return _TruthReader(args.truth_reader, args.seed)
    from vision.deck.profile import DeckProfile, reader_for
    from vision.reader import MODELS_DIR

    deck = DeckProfile.load(Path(args.deck)) if args.deck else None
    reader = reader_for(deck, Path(args.models) if args.models else MODELS_DIR)
    if deck is None:
        return reader.read
    return WatchedReader(reader, deck.meta.design, deck.meta.mismatch_below)


class _Feeder:
    """Feeds the referee (through the log when there is one) and prints what matters."""

    def __init__(self, args: argparse.Namespace, stack: ExitStack, out: TextIO, clock: Callable[[], float]) -> None:
        self.out = out
        self.quiet = args.quiet
        self.flags = 0
        self.last_t = 0.0
        self.jsonl: TextIO | None = None
        self.station: TableStation | LinkedStation | None = None
        self.referee: TableReferee | None = None
        if args.log and args.log.endswith(".jsonl"):
            self.jsonl = stack.enter_context(open(args.log, "w", encoding="utf-8"))  # noqa: SIM115 (the stack closes it)
        if args.log and not args.log.endswith(".jsonl"):
            store = stack.enter_context(EventStore(args.log))
            station = TableStation.open(store, args.table, auto_confirm=args.auto_confirm)
            self.station = link_station(args, station, args.table, Path(args.log), clock)  # type: ignore[assignment]
            if isinstance(self.station, LinkedStation):
                stack.callback(self.station.close)
        elif args.broker:
            raise ValueError("--broker needs a SQLite --log (the hall sends what the log holds)")
        else:
            self.referee = TableReferee(auto_confirm=args.auto_confirm)
        self.camera_log = stack.enter_context(open(args.camera_events, "w")) if args.camera_events else None  # noqa: SIM115

    def feed(self, event: Record, from_camera: bool) -> None:
        if from_camera:
            if self.camera_log is not None:
                self.camera_log.write(event.to_line() + "\n")
            if not self.quiet:
                conf = f" ({event.confidence:.2f})" if isinstance(event, PlayCards) and event.confidence else ""
                what = f"play {event.seat} {' '.join(event.cards)}{conf}" if isinstance(event, PlayCards) else "clear"
                print(f"{event.t:9.2f}  camera  {what}", file=self.out, flush=True)
        outputs: list[Output] = list(
            self.station.submit(event) if self.station is not None else self.referee.feed(event)  # type: ignore[union-attr]
        )
        if self.jsonl is not None:
            for record in (event, *outputs):
                self.jsonl.write(record.to_line() + "\n")
        if isinstance(self.station, LinkedStation):
            outputs += self.station.apply_rulings()  # the head referee's decisions, between two events
        for output in outputs:
            if isinstance(output, Flag):
                self.flags += 1
                print(f"{output.t:9.2f}  FLAG    {describe(output)}", file=self.out, flush=True)


def run(args: argparse.Namespace) -> int:
    layout = Layout.default()
    others: list[Record] = []
    if args.events:
        records, errors = read_jsonl(args.events)
        if errors:
            print(f"referee-station run: {errors[0]}", file=sys.stderr)
            return 2
        others = [r.record for r in records if not seen_by_camera(r.record)]
    inbox: queue.Queue[Record] = queue.Queue()
    start = time.monotonic()

    def clock() -> float:
        return time.monotonic() - start

    with ExitStack() as stack:
        try:
            read = _reader(args)
            source = open_source(args.camera, args.video, args.frames, args.fps, clock)
            t, frame = next(source)
            calib = _calibration(args, frame, layout)
        except StopIteration:
            print("referee-station run: the source gave no frame", file=sys.stderr)
            return 2
        except (CaptureError, CalibrationError, OSError, ValueError) as err:
            print(f"referee-station run: {err}", file=sys.stderr)
            return 2
        if args.devices:
            from devices.table_devices import TableDevices

            devices = stack.enter_context(TableDevices(args.devices, clock, lambda e: inbox.put(parse_record(e))))
            devices.wait_connected(5.0)
        try:
            feeder = _Feeder(args, stack, sys.stdout, clock)
        except ValueError as err:
            print(f"referee-station run: {err}", file=sys.stderr)
            return 2
        pipeline = CameraPipeline(calib, read, layout)
        merge = InputMerge(others)
        cpu, wall = time.process_time(), time.perf_counter()
        mismatches = 0

        def release(limit: float, camera: list[Record]) -> None:
            while not inbox.empty():
                merge.add(inbox.get())
            for event, from_camera in merge.release(limit, camera):
                feeder.feed(event, from_camera)

        while True:
            if isinstance(read, _TruthReader):
                read.t = t
            camera_events = pipeline.process(t, frame)
            release(pipeline.horizon(t), camera_events)
            for when, text in pipeline.warnings:
                print(f"{when:9.2f}  WARNING {text}", file=sys.stdout, flush=True)
            pipeline.warnings.clear()
            if isinstance(read, WatchedReader) and (text := read.news()):
                mismatches += 1
                print(f"{t:9.2f}  WARNING {text}", file=sys.stdout, flush=True)
            try:
                t, frame = next(source)
            except StopIteration:
                break
        release(t, pipeline.finish())  # inputs past the last frame happened after the recording
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        stats = pipeline.stats
        summary = {
            "frames": stats.frames,
            "reads": stats.reads,
            "fps": round(stats.frames / wall, 1) if wall else None,
            "cpu_percent": round(100 * cpu / wall, 1) if wall else None,
            "ms_per_frame": {k: round(v / max(1, stats.frames), 3) for k, v in stats.ms.items()},
            "flags": feeder.flags,
        }
        if isinstance(read, WatchedReader):
            verdict = read.check.verdict()
            summary["deck"] = {"design": read.design, "mean_confidence": round(verdict.mean_confidence, 3)}
            summary["deck"] |= {"cards": verdict.cards, "mismatch_warnings": mismatches}
        print(json.dumps(summary), file=sys.stderr)
    return 1 if feeder.flags or mismatches else 0
