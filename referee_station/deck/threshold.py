"""A profile's mismatch threshold, calibrated on rendered frames read by the profile's own reader.

``DeckCheck`` averages one value per card read (``MismatchMeasure``): a reader with the deck's faces
gives each card's best face match, one without gives the confidence it reports (the classifier's top-1
probability, scaled down where the locator's peak is weak). Calibrating on crops (the classifier alone)
put the threshold close under a matching table: crops of the registered deck scored 0.90, its frames
0.75, and the threshold halfway to other designs' crops was 0.69. Reading a few rendered frames of the
registered deck and of other designs with the very reader the station will run measures what
``DeckCheck`` sees, and the threshold goes halfway between the two.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from referee_station.deck.mismatch import MismatchMeasure, card_evidence
from referee_station.render.render import SeatTruth, render
from referee_station.render.scene import Scene, random_scene
from referee_station.vision.reader import CardReader, FrameReading
from referee_station.vision.strips import detail

READ_THREADS = 2
"""Frames registration renders and reads at once. OpenCV and ONNX Runtime release the GIL, so two threads
read the same frames 1.6 times as fast on the 2-core machine, to the same readings."""
FALLBACK_MARGIN = 0.12
"""Below the deck's own confidence when no other design's artwork is installed to measure."""


@dataclass(frozen=True)
class Calibration:
    own: float
    """Mean card evidence (``measure``) on frames of the registered deck."""
    other: float | None
    """The highest mean card evidence on frames of another design (None: none installed)."""
    measure: MismatchMeasure = MismatchMeasure.CONFIDENCE

    @property
    def mismatch_below(self) -> float:
        return (self.own + self.other) / 2 if self.other is not None else self.own - FALLBACK_MARGIN


def measure_of(reader: CardReader) -> MismatchMeasure:
    """The evidence a reader's profile is judged on: the face match where it compares faces."""
    return MismatchMeasure.CONFIDENCE if reader.faces is None else MismatchMeasure.FACE_MATCH


def random_scenes(
    design: str, frames: int, seed: int, purpose: str, large_frames: float = 0.0, *, heldout_look: bool = False
) -> list[Scene]:
    """``frames`` random scenes of ``design`` (seeded; ``large_frames`` of them by 4K cameras; with
    ``heldout_look`` in the renderer's looks that no network trained on): what registration reads to
    measure its reader; ValueError naming ``purpose`` when ``frames`` is under 1."""
    if frames < 1:
        raise ValueError(f"{purpose} frames must be at least 1, got {frames}")
    rng = random.Random(seed)
    return [random_scene(rng, design, large_frames=large_frames, heldout_look=heldout_look) for _ in range(frames)]


@dataclass(frozen=True)
class FrameRead:
    """A rendered frame as registration keeps it once read: each seat's truth and px/cm, and the reading
    (not the image), so that the mismatch threshold and the detail need share one reading of the deck."""

    truth: dict[str, SeatTruth]
    px_per_cm: dict[str, float]
    reading: FrameReading
    height: int = 1080
    """The frame's height in px: 2160 for a 4K camera, whose frames the mismatch calibration leaves out
    (the other designs are read at 720p and 1080p, as a station mostly is)."""


def read_frames(
    reader: CardReader,
    design: str,
    frames: int,
    seed: int,
    purpose: str,
    large_frames: float = 0.0,
    *,
    heldout_look: bool = False,
    threads: int = READ_THREADS,
) -> list[FrameRead]:
    """The ``random_scenes`` of ``design`` rendered and read by ``reader``, ``threads`` at a time, in order
    (one where the reader keeps still seats' readings between frames: that memory is not shared safely)."""
    if threads < 1:
        raise ValueError(f"frames are read by at least 1 thread, got {threads}")

    def read(scene: Scene) -> FrameRead:
        shot = render(scene)
        return FrameRead(shot.truth, detail(shot.corners), reader.read(shot.image, shot.corners), shot.image.shape[0])

    drawn = random_scenes(design, frames, seed, purpose, large_frames, heldout_look=heldout_look)
    with ThreadPoolExecutor(1 if reader.reuse_still else threads) as pool:
        return list(pool.map(read, drawn))


def mean_evidence(reads: list[FrameRead], measure: MismatchMeasure, design: str) -> float:
    """Mean evidence (``measure``) of the cards read in ``reads`` (frames of ``design``)."""
    confidences = [c for read in reads for seat in read.reading.seats.values() for c in card_evidence(seat, measure)]
    if not confidences:
        raise ValueError(f"no card read in {len(reads)} frames of {design}: cannot calibrate the mismatch threshold")
    return sum(confidences) / len(confidences)


def calibrate(
    reader: CardReader,
    own: list[FrameRead],
    others: tuple[str, ...],
    frames: int = 10,
    seed: int = 0,
    *,
    heldout_look: bool = False,
) -> Calibration:
    """The mean evidence of the deck's own frames read by ``reader`` (``own``) and the highest of
    ``frames`` rendered frames of each of ``others`` (designs whose artwork is missing are left out),
    those rendered in the looks ``own`` was (``heldout_look``), so that both sides of the threshold are
    measured in the same light."""
    measure = measure_of(reader)
    other = []
    for name in others:
        try:
            reads = read_frames(reader, name, frames, seed, "calibration", heldout_look=heldout_look)
            other.append(mean_evidence(reads, measure, name))
        except FileNotFoundError:  # artwork not installed
            continue
    return Calibration(mean_evidence(own, measure, "the deck"), max(other) if other else None, measure)
