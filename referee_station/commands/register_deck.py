"""``referee-station register-deck DIR -o DECK``: adapt the card reader to the deck an event plays with.

DIR holds one photo per card from a table's calibrated camera, the card alone and face up in any seat's
play area, named by its code (``2s.jpg`` … ``As.jpg``, ``SJ.jpg``, ``BJ.jpg``: 54 files), and
``corners.json`` with the calibration. Writes the deck profile DECK (a zip: ``classifier.onnx``,
``locator.onnx`` and ``deck.json``) for ``read-frame --deck`` and ``run --deck``. Prints each step's
time and the held-back accuracy. Exit codes: 0 written, 2 bad input (missing card, unreadable photo,
no single card in a photo, no torch to train).
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
        "--frames", type=int, default=300, help="table scenes of the deck rendered (0: keep the generic locator)"
    )
    parser.add_argument("--locator-epochs", type=int, default=2, help="locator fine-tuning epochs")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for the fine-tuning")
    parser.add_argument("--models", type=Path, help="folder with the generic classifier.onnx (default: shipped)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.deck.register import RegistrationError, register
    from vision.reader import MODELS_DIR

    try:
        profile = register(
            args.photos,
            args.design or args.photos.resolve().name,
            per_card=args.crops_per_card,
            epochs=args.epochs,
            frames=args.frames,
            locator_epochs=args.locator_epochs,
            threads=args.threads,
            model_dir=args.models or MODELS_DIR,
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
