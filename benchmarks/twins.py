"""The most any reader can get right of a deck at the benchmark's cameras: each card told from its twin.

``python -m benchmarks.twins [--design sans|drawn] [--frames 300] [--seed 11] [--large-frames S]`` takes the
deck benchmark's frames (``benchmarks.deck.scenes``: the same seed, the same frames) and, for every card of a
readable play, draws the light that reaches the camera's sensor twice (``referee_station.render.render.expose``):
as it is, and with that one card replaced by its twin (the other suit of its colour, or the other joker: the
misreads that keep a registered deck under its targets). The sensor adds Gaussian noise of ``look.noise`` per
channel; an observer that knows everything but which of the two lies there (the card's place, the light, the
blur, both faces) and sees the frame before its 8 bits and JPEG chooses between them best by the nearer one,
and errs with probability Φ(−d / 2σ), d the distance between the two lights over the card. The camera's frame
is made from that one by the sensor, so no reader of it can do better: those figures are upper bounds.
Beside them, the same observer on the camera's own frame (``nearer``): what the frame holds, not a bound.

``--photos WxH`` has that observer expect the faces registration cuts from a shoot of the deck at WxH
(``referee_station.render.drawn.registration_photos``) instead of the printed ones, everything else still
known: whether a reader that draws the registered faces where each card lies could tell the twins apart.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from benchmarks.deck import DESIGNS, SIZES, scenes
from referee_station.deck.register import load_faces
from referee_station.deck.rendered import install_faces
from referee_station.render.drawn import registration_photos
from referee_station.render.render import expose, sensor
from referee_station.render.scene import Scene
from referee_station.rules.cards import BIG_JOKER, SMALL_JOKER, Card
from referee_station.station.wiring import parse_resolution
from referee_station.vision.geometry import DRAW_ORDER, apply_h, cloth_to_image

TWIN_SUIT = {"s": "c", "c": "s", "h": "d", "d": "h"}


def twin(code: str) -> str:
    """The card a reader most often takes this one for: the same rank in the other suit of its colour, or
    the other joker."""
    card = Card(code)
    if card.is_joker:
        return BIG_JOKER if code == SMALL_JOKER else SMALL_JOKER
    return card.rank + TWIN_SUIT[card.suit]


def with_twin(scene: Scene, seat: str, k: int) -> Scene:
    """The scene with card ``k`` of ``seat``'s play replaced by its twin, laid exactly where it lay."""
    s = scene.seats[seat]
    play = list(s.play)
    play[k] = dataclasses.replace(play[k], code=twin(play[k].code))
    return dataclasses.replace(scene, seats={**scene.seats, seat: dataclasses.replace(s, play=tuple(play))})


def card_mask(shape: tuple[int, ...], corners: np.ndarray, quad: np.ndarray, grow: int = 4) -> np.ndarray:
    """The pixels in the frame of the card whose corners lie at ``quad`` (cloth cm, as the renderer's truth
    gives them), grown by ``grow`` px for the blur: where its twin may change anything."""
    quad = apply_h(cloth_to_image(corners), quad)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return cv2.dilate(mask, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)).astype(bool)


def miss_chance(light: np.ndarray, twin_light: np.ndarray, where: np.ndarray, noise: float) -> float:
    """How often the best observer takes the card for its twin: Φ(−d / 2σ), d the distance between the two
    lights over ``where``, σ the sensor's noise per channel (½ where the twin changes nothing there)."""
    distance = float(np.linalg.norm((light - twin_light)[where]))
    return 0.5 * math.erfc(distance / (2 * max(noise, 1e-6)) / math.sqrt(2))


@dataclass(frozen=True)
class Twin:
    """One card of a readable play against its twin: ``chance``, the best observer's ``miss_chance`` before
    the sensor's 8 bits and JPEG; ``told``, whether an observer of the camera's own frame chose it
    (``nearer``: JPEG's loss is not Gaussian noise, so that choice is good, not the best)."""

    code: str
    chance: float
    told: bool


def nearer(frame: np.ndarray, expected: np.ndarray, other: np.ndarray, where: np.ndarray) -> bool:
    """Whether the frame lies nearer ``expected`` than ``other`` over the card's pixels ``where`` the two
    differ (none: the card cannot be told from its twin, a wrong choice)."""
    region = where & (np.abs(expected - other).sum(-1) > 0.5)
    x = frame[region]
    return bool(region.any()) and float(((x - expected[region]) ** 2).sum()) < float(((x - other[region]) ** 2).sum())


def twins(scene: Scene, expect: str | None = None) -> tuple[int, dict[str, list[Twin]]]:
    """The frame's height and, per seat with a readable play, each card against its twin. One card per seat
    is swapped per drawing: the play areas lie far apart, so one seat's twin changes nothing in another's.
    The observer of the frame expects each of the two as the sensor would send it without noise, drawn
    with the scene's faces or, given ``expect``, with that design's (the bound keeps the scene's)."""
    seen = expose(scene)
    quiet = dataclasses.replace(scene.look, noise=0.0)
    frame = sensor(seen.light, scene.look).astype(np.float32)

    def expected_light(drawn: Scene, printed: np.ndarray) -> np.ndarray:
        """The light the observer expects of ``drawn``: the ``printed`` one, or with ``expect``'s faces."""
        return printed if expect is None else expose(dataclasses.replace(drawn, design=expect)).light

    expected = sensor(expected_light(scene, seen.light), quiet).astype(np.float32)
    plays = {seat: scene.seats[seat].play for seat in DRAW_ORDER if seen.truth[seat].status == "cards"}
    out: dict[str, list[Twin]] = {seat: [] for seat in plays}
    for k in range(max((len(p) for p in plays.values()), default=0)):
        seats = [seat for seat, play in plays.items() if k < len(play)]
        swapped = scene
        for seat in seats:
            swapped = with_twin(swapped, seat, k)
        twin_light = expose(swapped).light
        other = sensor(expected_light(swapped, twin_light), quiet).astype(np.float32)
        for seat in seats:
            where = card_mask(seen.light.shape, seen.corners, seen.truth[seat].card_quads[k])
            chance = miss_chance(seen.light, twin_light, where, scene.look.noise)
            out[seat].append(Twin(plays[seat][k].code, chance, nearer(frame, expected, other, where)))
    return seen.light.shape[0], out


@dataclass
class Tally:
    """One camera size's plays: how many; the expected number the best observer gets right before JPEG and
    the cards it takes for their twins, by rank; the plays and cards the observer of the frame got right."""

    plays: int = 0
    bound: float = 0.0
    misses: Counter[str] = field(default_factory=Counter)
    told: int = 0
    cards: int = 0
    cards_told: int = 0

    def add(self, cards: list[Twin]) -> None:
        self.plays += 1
        self.bound += math.prod(1 - t.chance for t in cards)
        for t in cards:
            card = Card(t.code)
            self.misses["joker" if card.is_joker else card.rank] += t.chance
        self.told += all(t.told for t in cards)
        self.cards += len(cards)
        self.cards_told += sum(t.told for t in cards)


def registered_design(design: str, size: tuple[int, int], seed: int) -> str:
    """The renderer design of the faces registration cuts from ``design``'s photos taken at ``size`` (with
    ``seed``, as ``benchmarks.deck`` takes them)."""
    with tempfile.TemporaryDirectory() as folder:
        registration_photos(Path(folder), design, seed, size)
        return install_faces(load_faces(Path(folder)).faces)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--design", choices=sorted(DESIGNS), default="sans")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--large-frames", type=float, default=0.0, help="share of frames from a 4K camera")
    parser.add_argument("--photos", type=parse_resolution, help="WxH: expect the faces cut from a shoot at WxH")
    args = parser.parse_args()
    design = DESIGNS[args.design]()
    expect = None if args.photos is None else registered_design(design, args.photos, args.seed)
    tallies: dict[int, Tally] = {}
    for scene in scenes(design, args.frames, args.seed, args.large_frames):
        height, seats = twins(scene, expect)
        for cards in seats.values():
            tallies.setdefault(height, Tally()).add(cards)
    faces = "printed faces"
    if args.photos is not None:
        photo_w, photo_h = args.photos
        faces = f"the frame observer expecting faces cut from photos at {photo_w}x{photo_h}"
    print(f"{design}, {args.frames} frames, seed {args.seed}: each card told from its twin, all else known; {faces}")
    print(
        "| camera | plays | before JPEG: plays right at most | cards taken for their twin | by rank "
        "| the camera's frame: plays right | cards wrong |\n|---|---|---|---|---|---|---|"
    )
    for height in sorted(tallies, reverse=True):
        t = tallies[height]
        ranks = ", ".join(f"{rank} {n:.2f}" for rank, n in t.misses.most_common(4))
        print(
            f"| {SIZES[height]} | {t.plays} | {t.bound / t.plays:.2%} | {t.misses.total():.2f} | {ranks} "
            f"| {t.told / t.plays:.2%} | {t.cards - t.cards_told} of {t.cards} |"
        )


if __name__ == "__main__":
    main()
