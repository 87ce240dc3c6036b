"""``referee-station run``: referee a table live: capture → card reader → tracker → referee → log.

    referee-station run --camera 0 --table T1 --devices /dev/ttyUSB0 --log hall.sqlite
    referee-station run --video match.mp4 --table T1 --events match.jsonl --auto-confirm

The camera gives ``play`` and ``clear`` (``referee_station.vision.tracker``); pass buttons and reports come from the
seat units (``--devices``), and the other inputs (match, deal, tribute, ...) from the console, or, for a
recorded or simulated table, from ``--events LOG`` (its own play and clear lines are ignored: the
camera's replace them). Everything is fed to the referee in time order (``CameraPipeline.horizon``),
logged (``--log``: SQLite through ``TableStation``, resumed where it ended, or JSON Lines), and flags
print as they happen. The loop is the station orchestrator's (``referee_station.station``); for a real
table with nobody typing a match line, ``referee-station station`` sets the match up.

The calibration is ``calibration/<table>.json`` (``referee-station calibrate``), or found from the
markers in the first frame. ``--truth-reader LOG`` reads the cards from the simulation that rendered
the video instead of the model: it measures the tracker apart from the reader.
Exit codes: 0 ran to the end, 1 flags were raised, 2 bad input (source, calibration, models).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import ExitStack

from referee_station.deck.mismatch import WatchedReader
from referee_station.hall.linked import add_broker_arguments
from referee_station.log.jsonl import read_jsonl
from referee_station.log.station import ReplayMismatch
from referee_station.station.loop import drive
from referee_station.station.timeline import TerminalTimeline
from referee_station.station.wiring import open_station
from referee_station.table.events import Record
from referee_station.vision.calibrate import CalibrationError
from referee_station.vision.capture import CaptureError
from referee_station.vision.pipeline import seen_by_camera


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """The camera, calibration, reader and seat-unit options ``run`` and ``station`` share."""
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", help="camera: a device index (0), a /dev/video* path, or an RTSP/HTTP URL")
    src.add_argument("--video", help="a video file")
    src.add_argument("--frames", help="a folder of frames (file-name order)")
    parser.add_argument("--fps", type=float, default=10.0, help="frame rate of --frames; asked of --camera (10)")
    parser.add_argument("--resolution", help="WIDTHxHEIGHT asked of --camera (e.g. 1920x1080; MJPG where offered)")
    parser.add_argument("--speed", type=float, help="play a recording at this many times real time (default: "
                        "as fast as it reads; 1 with --devices)")  # fmt: skip
    parser.add_argument("--table", default="T1", help="table id")
    parser.add_argument("--calibration", help="calibration file (default calibration/<table>.json, else markers)")
    parser.add_argument("--devices", help="serial port (or pyserial URL) of the table's seat units and timer")
    parser.add_argument("--log", help="the table log: SQLite (default; resumed) or .jsonl")
    parser.add_argument("--models", help="folder with the card reader's ONNX models (default: shipped)")
    parser.add_argument("--deck", help="deck profile from register-deck (default: the generic classifier)")
    add_broker_arguments(parser)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="referee a table from its camera (and seat units), in the terminal")
    add_source_arguments(parser)
    parser.add_argument("--events", help="other inputs from a log (match, deal, pass, ...); its plays are ignored")
    parser.add_argument("--truth-reader", metavar="LOG", help="simulation only: read cards from the rendered log")
    parser.add_argument("--seed", type=int, default=0, help="with --truth-reader: render-video's --seed")
    parser.add_argument("--auto-confirm", action="store_true", help="treat every flag as confirmed (EVENTS.md)")
    parser.add_argument("--camera-events", help="also write the camera's events alone (JSON Lines)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print flags only, not the camera's events")
    parser.set_defaults(func=run)


def summary(opened, timeline: TerminalTimeline, wall: float, cpu: float) -> dict:
    """The run's figures (stderr): frames, reads, frame rate, CPU, per-stage ms, flags, deck check."""
    stats = opened.station.pipeline.stats
    out: dict = {
        "frames": stats.frames,
        "reads": stats.reads,
        "fps": round(stats.frames / wall, 1) if wall else None,
        "cpu_percent": round(100 * cpu / wall, 1) if wall else None,
        "ms_per_frame": {k: round(v / max(1, stats.frames), 3) for k, v in stats.ms.items()},
        "flags": timeline.flags,
    }
    if isinstance(opened.reader, WatchedReader):
        verdict = opened.reader.check.verdict()
        out["deck"] = {"design": opened.reader.design, "mean_confidence": round(verdict.mean_confidence, 3)}
        out["deck"] |= {"cards": verdict.cards, "mismatch_warnings": timeline.deck_warnings}
    return out


def run(args: argparse.Namespace) -> int:
    others: list[Record] = []
    if args.events:
        records, errors = read_jsonl(args.events)
        if errors:
            print(f"referee-station run: {args.events}: {errors[0]}", file=sys.stderr)
            return 2
        others = [r.record for r in records if not seen_by_camera(r.record)]
    timeline = TerminalTimeline(sys.stdout, quiet=args.quiet)
    with ExitStack() as stack:
        try:
            opened = open_station(stack, args, others=others, auto_confirm=args.auto_confirm)
        except (CaptureError, CalibrationError, ReplayMismatch, OSError, ValueError) as err:
            print(f"referee-station run: {err}", file=sys.stderr)
            return 2
        camera_log = stack.enter_context(open(args.camera_events, "w")) if args.camera_events else None

        def listen(step) -> None:
            timeline(step)
            if camera_log is not None:
                for fed in step.fed:
                    if fed.source.value == "camera":
                        camera_log.write(fed.event.to_line() + "\n")

        cpu, wall = time.process_time(), time.perf_counter()
        drive(opened.station, opened.frames, listen)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(json.dumps(summary(opened, timeline, wall, cpu)), file=sys.stderr)
    return 1 if timeline.flags or timeline.deck_warnings else 0
