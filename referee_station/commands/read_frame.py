"""``referee-station read-frame``: the cards in each seat's play area of overhead camera frames.

One JSON line per image: ``{"image": PATH, "seats": {"S": ["5s", "5h", "5d"], ...}, "ms": N}`` (seats
with no card read are left out; ``ms`` is the reader's time for the frame, image decoding excluded).
``--detail`` adds per-seat status and confidences. Frames come from the command line with one
``--corners`` calibration, or from a ``--manifest`` of JSON lines ``{"image": PATH, "corners": [[x, y]
SW, SE, NE, NW]}`` with paths relative to the manifest's folder and inside it (no ``..``, no absolute
path, no link out of it); one process reads them all, so the models load once. A truncated JPEG, or
corners that put the table mostly outside the image, are bad input. ``--deck DECK`` reads with a
registered deck profile (``register-deck``) instead of the generic classifier and warns on stderr,
exit code 1, when the cards read do not look like that deck.
Exit codes: 0 all frames read, 1 deck profile mismatch, 2 bad input (unreadable image, bad corners).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read-frame", help="read the cards in each play area of camera frames")
    parser.add_argument("images", nargs="*", type=Path, help="frame image files (JPEG, PNG)")
    parser.add_argument("--corners", help='table-corner pixels SW;SE;NE;NW, e.g. "410,990;1500,990;1460,90;450,90"')
    parser.add_argument("--manifest", type=Path, help="JSON lines {image, corners}, paths relative to this file")
    parser.add_argument("--models", type=Path, help="folder with locator.onnx and classifier.onnx (default: shipped)")
    parser.add_argument("--deck", type=Path, help="deck profile from register-deck (default: the generic classifier)")
    parser.add_argument("--detail", action="store_true", help="add each seat's status and confidences")
    parser.add_argument("--json", action="store_true", help="JSON lines (the only output format; kept for clarity)")
    parser.set_defaults(func=run)


def parse_corners(text: str) -> np.ndarray:
    """ "x,y;x,y;x,y;x,y" → 4 × 2 array; ValueError on anything else."""
    parts = [p.strip() for p in text.strip().split(";") if p.strip()]
    if len(parts) != 4:
        raise ValueError(f"--corners needs four x,y points (SW;SE;NE;NW), got {len(parts)}")
    points = np.array([[float(v) for v in p.split(",")] for p in parts], dtype=np.float64)
    if points.shape != (4, 2) or not np.all(np.isfinite(points)):
        raise ValueError(f"--corners: cannot read {text!r} as four x,y points")
    return points


def _jobs(args: argparse.Namespace) -> Iterator[tuple[Path, Path, np.ndarray]]:
    """(name to print, file to open, corners) per frame."""
    if args.manifest is not None:
        base = args.manifest.parent
        for n, line in enumerate(args.manifest.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                corners = np.asarray(item["corners"], dtype=np.float64).reshape(4, 2)
                image = Path(item["image"])
                path = confined(base, image)
            except (ValueError, KeyError, TypeError, RecursionError) as err:
                raise ValueError(f"{args.manifest}:{n}: {err}") from err
            yield image, path, corners
    if args.images:
        if args.corners is None:
            raise ValueError("--corners is required with image arguments")
        corners = parse_corners(args.corners)
        for image in args.images:
            yield image, image, corners


def confined(base: Path, image: Path) -> Path:
    """``base / image`` when that is a file inside ``base``; ValueError naming the path otherwise."""
    if image.is_absolute() or ".." in image.parts:
        raise ValueError(f"image {str(image)!r} must be a path inside the manifest's folder")
    path = base / image
    if not path.resolve().is_relative_to(base.resolve()):
        raise ValueError(f"image {str(image)!r} leads outside the manifest's folder")
    return path


def run(args: argparse.Namespace) -> int:
    from referee_station.deck.mismatch import DeckCheck
    from referee_station.deck.profile import DeckProfile, reader_for
    from referee_station.vision.calibrate import check_corners_in_image
    from referee_station.vision.capture import read_image
    from referee_station.vision.reader import MODELS_DIR

    if args.manifest is None and not args.images:
        print("referee-station read-frame: give IMAGE... --corners or --manifest FILE", file=sys.stderr)
        return 2
    try:
        deck = DeckProfile.load(args.deck) if args.deck else None
        reader = reader_for(deck, args.models or MODELS_DIR)
    except ValueError as err:
        print(f"referee-station read-frame: {err}", file=sys.stderr)
        return 2
    check = DeckCheck(deck.meta.mismatch_below, deck.meta.mismatch_on) if deck else None
    try:
        for name, path, corners in _jobs(args):
            frame = read_image(path)
            check_corners_in_image(corners, (frame.shape[1], frame.shape[0]))
            reading = reader.read(frame, corners)
            if check is not None:
                check.add(reading)
            out: dict = {"image": str(name), "seats": reading.plays(), "ms": round(reading.total_ms, 1)}
            if args.detail:
                out["detail"] = {
                    seat: {"status": r.status, "confidences": [round(c, 3) for c in r.confidences]}
                    for seat, r in reading.seats.items()
                }
            print(json.dumps(out), flush=True)
    except (ValueError, OSError) as err:
        print(f"referee-station read-frame: {err}", file=sys.stderr)
        return 2
    if check is not None and (verdict := check.verdict()).mismatch:
        print(f"referee-station read-frame: warning: {verdict.message(deck.meta.design)}", file=sys.stderr)
        return 1
    return 0
