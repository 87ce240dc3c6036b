"""``referee-station check-camera``: is this table's camera ready for play?

    referee-station check-camera --table T1 --row "3s 4h 5d 6c 7s 8h 9d Tc Js Qh" frame1.jpg frame2.jpg
    referee-station check-camera --table T1 --camera 0 --shots 3 --row "..." --deck event.deck

For a calibrated camera (``calibration/<table>.json``, or ``--calibration FILE``, or the markers in the
first frame) and a card reader (the shipped models or ``--deck``): per play area the px per cm, focus,
glare and exposure, then the test row the organiser laid in every area (``--row``, left to right as
the seat sees it) read back from each frame, and a verdict with its reason and remedy per area
(``referee_station.vision.camera_check``). The check itself is ``referee_station.station.camera_step``,
shared with the station console's setup step. Exit codes: 0 ready for play, 1 not ready, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee_station.station.camera_step import SHOTS, check_from_args
from referee_station.vision.strips import NEEDS_PX_PER_CM


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
        "--needs",
        type=float,
        help=f"px per cm every play area must give (default: the --deck profile's own, else {NEEDS_PX_PER_CM:g})",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the report")
    parser.set_defaults(func=run)


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
