"""The camera check of one table over the station's own source options (``--camera``, ``--video``,
``--frames`` or still images, ``--table``, ``--calibration``, ``--models``, ``--deck``): what
``check-camera`` prints and the station console's setup step shows. It lives with the station, below the
console and the commands, so both can use it (the import-linter layers in ``pyproject.toml``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from referee_station.vision.camera_check import CameraCheck
from referee_station.vision.strips import Need

if TYPE_CHECKING:
    from referee_station.deck.profile import DeckMeta

CAMERA_TRIES = 20
"""Frames asked of a source per frame wanted before it counts as giving none (a camera reconnecting)."""
SHOTS = 3
"""Frames a check takes from a camera, a video or a folder of frames."""


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
    from referee_station.deck.profile import DeckProfile, reader_for
    from referee_station.station.wiring import calibration_for
    from referee_station.vision.camera_check import check_camera
    from referee_station.vision.layout import Layout
    from referee_station.vision.reader import MODELS_DIR

    given = getattr(args, "needs", None)
    if given is not None and given <= 0:
        raise ValueError(f"--needs must be a positive number of px per cm, got {given:g}")
    deck = DeckProfile.load(Path(args.deck)) if args.deck else None
    needs = deck_needs(deck.meta if deck else None, given)
    frames = _frames(args)
    layout = Layout.default()
    calibration = calibration_for(args.table, args.calibration, frames[0], layout)
    reader = reader_for(deck, Path(args.models) if args.models else MODELS_DIR).read if row else None
    return check_camera(frames, calibration, reader, row, needs, layout)


def deck_needs(meta: DeckMeta | None, given: float | None) -> Need:
    """What a check asks of every play area: ``--needs`` where given, else what the deck's registration
    measured, else ``NEEDS_PX_PER_CM``."""
    if given is not None:
        return Need(given)
    return (meta.need if meta is not None else None) or Need()
