"""``referee-station check-camera``: is this table's camera ready for play?

    referee-station check-camera --table T1 --row "3s 4h 5d 6c 7s 8h 9d Tc Js Qh" frame1.jpg frame2.jpg
    referee-station check-camera --table T1 --camera 0 --shots 3 --row "..." --deck event.deck

For a calibrated camera (``calibration/<table>.json``, or ``--calibration FILE``, or the markers in the
first frame) and a card reader (the shipped models or ``--deck``): per play area the px per cm, focus,
glare and exposure, then the test row the organiser laid in every area (``--row``, left to right as
the seat sees it) read back from each frame, and a verdict with its reason and remedy per area
(``referee_station.vision.camera_check``). ``check_from_args`` is the same check for the station console's setup step,
over the station's own source options. Exit codes: 0 ready for play, 1 not ready, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from referee_station.vision.camera_check import NEEDS_PX_PER_CM, CameraCheck

CAMERA_TRIES = 20
"""Frames asked of a source per frame wanted before it counts as giving none (a camera reconnecting)."""
SHOTS = 3
"""Frames a check takes from a camera, a video or a folder of frames."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("check-camera", help="check a table's camera and a test row before play")
    parser.add_argument("images", nargs="*", type=Path, help="still frames of the camera (JPEG, PNG)")
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--camera", help="or take the frames from this camera (index, /dev/video*, URL)")
    src.add_argument("--video", help="or from a video file")
    src.add_argument("--frames", help="or from a folder of frames")
    parser.add_argument("--shots", type=int, default=SHOTS, help=f"frames to take from the source ({SHOTS})")
    parser.add_argument("--resolution", help="with --camera: WIDTHxHEIGHT to ask for (e.g. 1920x1080)")
    parser.add_argument("--table", default="T1", help="table id (names the calibration file)")
    parser.add_argument("--calibration", help="calibration file (default calibration/<table>.json, else markers)")
    parser.add_argument("--row", help='the test row laid in every play area, e.g. "3s 4h 5d 6c 7s 8h 9d Tc Js Qh"')
    parser.add_argument("--models", type=Path, help="folder of the card reader's ONNX models (default: shipped)")
    parser.add_argument("--deck", type=Path, help="deck profile from register-deck (default: the generic classifier)")
    parser.add_argument(
        "--needs", type=float, default=NEEDS_PX_PER_CM, help=f"px per cm the deck needs ({NEEDS_PX_PER_CM:g})"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the report")
    parser.set_defaults(func=run)


def _frames(args: argparse.Namespace) -> list[np.ndarray]:
    """The still images given, or the first ``shots`` frames of the camera, video or folder."""
    from referee_station.vision.capture import CaptureError, open_source, read_image

    if getattr(args, "images", None):
        return [read_image(path) for path in args.images]
    from referee_station.station.wiring import parse_resolution

    shots = getattr(args, "shots", SHOTS)
    frames: list[np.ndarray] = []
    source = open_source(
        camera=args.camera, video=args.video, frames=args.frames, resolution=parse_resolution(args.resolution)
    )
    for tries, (_, frame) in enumerate(source, 1):
        if frame is not None:  # a live camera yields None while it reconnects
            frames.append(frame)
        if len(frames) >= shots or tries >= CAMERA_TRIES * shots:
            break
    if len(frames) >= shots:
        return frames
    raise CaptureError(f"the source gave {len(frames)} of {shots} frames")


def check_from_args(args: argparse.Namespace, row: tuple[str, ...]) -> CameraCheck:
    """The check of the table that ``args`` name (source, table, calibration, models, deck: the options
    ``check-camera``, ``run`` and ``station`` share) with the test row ``row`` (card codes; may be empty).
    ValueError or OSError say what is wrong."""
    from referee_station.station.wiring import calibration_for
    from referee_station.vision.camera_check import check_camera
    from referee_station.deck.profile import DeckProfile, reader_for
    from referee_station.vision.layout import Layout
    from referee_station.vision.reader import MODELS_DIR

    needs = getattr(args, "needs", NEEDS_PX_PER_CM)
    if needs <= 0:
        raise ValueError(f"--needs must be a positive number of px per cm, got {needs:g}")
    frames = _frames(args)
    layout = Layout.default()
    calibration = calibration_for(args.table, args.calibration, frames[0], layout)
    reader = None
    if row:
        deck = DeckProfile.load(Path(args.deck)) if args.deck else None
        reader = reader_for(deck, Path(args.models) if args.models else MODELS_DIR).read
    return check_camera(frames, calibration, reader, row, needs, layout)


def run(args: argparse.Namespace) -> int:
    from referee_station.rules import RulesError, parse_cards

    if bool(args.images) == any((args.camera, args.video, args.frames)):
        print("referee-station check-camera: give IMAGE... or one of --camera, --video, --frames", file=sys.stderr)
        return 2
    try:
        row = tuple(card.code for card in parse_cards(args.row)) if args.row else ()
        check = check_from_args(args, row)
    except (RulesError, ValueError, OSError) as err:
        print(f"referee-station check-camera: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(check.to_json()))
    else:
        print("\n".join(check.lines()))
    return 0 if check.ok else 1
