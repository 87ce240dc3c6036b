"""``referee-station register-deck DIR -o DECK``: adapt the card reader to the deck an event plays with.

DIR holds one photo per card from a table's calibrated camera, the card alone and face up in any seat's
play area, named by its code (``2s.jpg`` … ``As.jpg``, ``SJ.jpg``, ``BJ.jpg``: 54 files), and
``corners.json`` with the calibration. Writes the deck profile DECK (a zip: ``classifier.onnx``,
``locator.onnx``, ``faces.npz`` — the 54 faces the reader compares the cards with — and ``deck.json``;
with ``--faces-only`` the faces and ``deck.json`` alone, in seconds and without torch) for
``read-frame --deck``, ``run --deck`` and ``demo --deck``. Prints each step's time and the held-back
accuracy. Exit codes: 0 written, 2 bad input (missing card,
unreadable photo, no single card in a photo, no torch to train).

``--guided`` takes the photos live first, into DIR: a window (``console.qt.guided_view``) asks for
2♠ … A♠, 2♥ …, 2♣ …, 2♦ …, 小王, 大王 in turn, captures each once it lies still in a play area and shows
what the reader made of it; the frames come from ``--camera N``, ``--video`` or ``--frames`` and the
calibration from ``--corners``. Closed before all 54 are captured, it writes nothing and exits 2. Take the
photos at 4K where the camera has it (``--resolution 3840x2160``, with ``--corners`` found at that size): a
face is no sharper than its photo, and the log warns of photos under 15 px/cm.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("register-deck", help="build a deck profile from photos of the event's 54 cards")
    parser.add_argument("photos", type=Path, help="folder with <code>.jpg per card and corners.json")
    parser.add_argument("-o", "--out", type=Path, required=True, help="the deck profile to write (a zip)")
    parser.add_argument("--design", help="the deck's name in the profile (default: the folder's name)")
    parser.add_argument("--crops-per-card", type=int, default=150, help="training crops synthesised per card")
    parser.add_argument("--epochs", type=int, default=6, help="classifier fine-tuning epochs")
    parser.add_argument(
        "--scenes", type=int, default=300, help="table scenes of the deck rendered (0: keep the generic locator)"
    )
    parser.add_argument("--locator-epochs", type=int, default=2, help="locator fine-tuning epochs")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for the fine-tuning")
    parser.add_argument(
        "--faces-only",
        action="store_true",
        help="keep the 54 faces and fine-tune nothing (no torch, seconds): the generic networks read with the faces",
    )
    parser.add_argument("--models", type=Path, help="folder with the generic classifier.onnx (default: shipped)")
    guided = parser.add_argument_group("guided capture (--guided): take the photos live into the folder first")
    guided.add_argument("--guided", action="store_true", help="ask for each card in turn and capture it")
    guided.add_argument("--camera", type=int, help="camera index")
    guided.add_argument("--video", help="a video file instead of a camera")
    guided.add_argument("--frames", help="a folder of frames instead of a camera")
    guided.add_argument("--resolution", help="with --camera: WIDTHxHEIGHT to ask for (4K: 3840x2160)")
    guided.add_argument("--corners", help='table-corner pixels SW;SE;NE;NW, e.g. "410,990;1500,990;1460,90;450,90"')
    guided.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.set_defaults(func=run)


def capture_guided(args: argparse.Namespace) -> str | None:
    """Run the guided window and save its 54 captures into ``args.photos``; the reason when it did not."""
    from referee_station.commands.read_frame import parse_corners
    from referee_station.console.qt.guided_view import run_guided
    from referee_station.deck.guided import GuidedRegistration, read_with
    from referee_station.station.wiring import parse_resolution
    from referee_station.vision.capture import CaptureError, open_source
    from referee_station.vision.reader import MODELS_DIR, CardReader

    if args.corners is None:
        return "--guided needs --corners (the table's calibration)"
    try:
        corners = parse_corners(args.corners)
        source = open_source(args.camera, args.video, args.frames, resolution=parse_resolution(args.resolution))
    except (ValueError, CaptureError) as err:
        return str(err)
    guided = GuidedRegistration(corners, read=read_with(CardReader.from_onnx(args.models or MODELS_DIR)))
    if not run_guided(guided, (frame for _, frame in source if frame is not None), args.lang):
        return f"guided capture stopped after {len(guided.photos)} of 54 cards; nothing written"
    guided.save(args.photos)
    return None


def run(args: argparse.Namespace) -> int:
    from referee_station.deck.register import RegistrationError, register
    from referee_station.vision.reader import MODELS_DIR

    if args.guided and (failure := capture_guided(args)):
        print(f"referee-station register-deck: {failure}", file=sys.stderr)
        return 2
    try:
        profile = register(
            args.photos,
            args.design or args.photos.resolve().name,
            per_card=args.crops_per_card,
            epochs=args.epochs,
            frames=args.scenes,
            locator_epochs=args.locator_epochs,
            threads=args.threads,
            model_dir=args.models or MODELS_DIR,
            finetune=not args.faces_only,
            log=lambda line: print(line, flush=True),
        )
        profile.save(args.out)
    except (RegistrationError, OSError) as err:
        print(f"referee-station register-deck: {err}", file=sys.stderr)
        return 2
    m = profile.meta
    held = f"held-back accuracy {m.accuracy:.2%} ({m.held_back_crops} crops)"
    print(f"{args.out}: deck {m.design!r}, {held}, {m.seconds:.0f} s")
    return 0
