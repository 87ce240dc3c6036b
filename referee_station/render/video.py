"""A simulated match as camera video: the ground truth for the tracker (issue 6).

``choreograph`` turns a simulated log (``referee-station simulate``) into what happens on the cloth:
*stills* (what lies in every play and discard area from a moment on) and *arm moves* (a hand reaching
in with the cards hidden under it, letting go at the play's ``t``, withdrawing). Timings are the log's
own (human think times, R-TIME) plus a reach of 0.5–0.9 s and a withdrawal of 0.3–0.6 s. A seat that
plays again in the same trick moves its earlier cards to its discard area as it lays the new ones; a
``clear`` sweeps every play area into the discard areas; a ``deal`` gathers the discard piles.

A ``tribute`` or ``return`` shows its card in the giver's play area until the recipient takes it.

``VideoRenderer`` draws each still once with ``referee_station.render.render`` (full realism: perspective,
light, blur, JPEG) and the calibration markers, then every frame is that still plus the arms and fresh
sensor noise, which keeps a two-hour match renderable on two cores.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee_station.render.render import arm_polygon, camera_pose, render, screen_hull
from referee_station.render.scene import (
    MIN_STEP,
    SKINS,
    SLEEVES,
    Arm,
    Camera,
    Look,
    PlacedCard,
    Scene,
    SeatScene,
    random_row,
)
from referee_station.table.events import Clear, DealStart, Exchange, PlayCards, Record
from referee_station.vision.geometry import CARD_H, DISCARD_AREA, DRAW_ORDER, cloth_to_image, seat_to_cloth
from referee_station.vision.layout import Layout
from referee_station.vision.markers import paint_markers
from referee_station.vision.reader import FrameReading, SeatReading

OUTSIDE_Y = -53.0
"""Seat-local y of a hand resting at the table's edge (off the cloth, out of every area)."""
TAKE_UP_S = 2.5
"""A tribute or return card lies this long in the giver's play area before the recipient takes it: long
enough for the tracker to see it settle and read it twice."""
LONGEST_MOVE = 1.0
"""No arm move lasts longer (reach ≤ 0.9 s, withdrawal ≤ 0.6 s)."""


@dataclass(frozen=True)
class ArmMove:
    """A hand going from ``a`` to ``b`` (seat-local cm) between t0 and t1."""

    seat: str
    t0: float
    t1: float
    a: tuple[float, float]
    b: tuple[float, float]
    start_x: float
    sleeve: tuple[int, int, int]
    skin: tuple[int, int, int]

    def at(self, t: float) -> Arm:
        s = min(1.0, max(0.0, (t - self.t0) / (self.t1 - self.t0)))
        s = s * s * (3 - 2 * s)
        x, y = (self.a[0] + (self.b[0] - self.a[0]) * s, self.a[1] + (self.b[1] - self.a[1]) * s)
        return Arm(self.start_x, x, y, 8.0, self.sleeve, self.skin)


@dataclass(frozen=True)
class Still:
    """What lies on the cloth from ``t`` on."""

    t: float
    seats: dict[str, SeatScene]


@dataclass
class Choreography:
    stills: list[Still] = field(default_factory=list)
    arms: list[ArmMove] = field(default_factory=list)
    truth: list[Record] = field(default_factory=list)
    """The plays and clears the camera shows, at the moments they happen."""
    end: float = 0.0
    still_times: list[float] = field(default_factory=list)
    arm_starts: list[float] = field(default_factory=list)
    """Sorted start times of ``arms`` (kept sorted the same way), for finding the hands at a moment fast."""


def choreograph(events: Iterable[Record], seed: int = 0, min_step: float = MIN_STEP) -> Choreography:
    """The cloth's story for a log's plays, clears and deals (other events leave no trace on the cloth);
    rows step at least ``min_step`` cm (``row_step`` of the design shown)."""
    rng = random.Random(seed)
    out = Choreography()
    play: dict[str, tuple[PlacedCard, ...]] = {s: () for s in DRAW_ORDER}
    discard: dict[str, tuple[PlacedCard, ...]] = {s: () for s in DRAW_ORDER}
    busy = dict.fromkeys(DRAW_ORDER, 0.0)
    look = {s: (rng.choice(SLEEVES), rng.choice(SKINS)) for s in DRAW_ORDER}

    def snapshot(t: float) -> None:
        seats = {s: SeatScene(play=play[s], discard=discard[s]) for s in DRAW_ORDER}
        if out.stills and out.stills[-1].t == t:
            out.stills[-1] = Still(t, seats)
        else:
            out.stills.append(Still(t, seats))

    def to_discard(seat: str) -> None:
        x0, x1, y0, y1 = DISCARD_AREA
        moved = tuple(
            PlacedCard(c.code, rng.uniform(x0 + 5, x1 - 5), rng.uniform(y0 + 4.5, y1 - 4.5), rng.gauss(0, 10), False)
            for c in play[seat]
        )
        discard[seat] = discard[seat] + moved
        play[seat] = ()

    def hand(seat: str, t: float, target: tuple[float, float], reach: float, withdraw: float) -> None:
        """Reach from the edge to ``target``, let go at ``t``, withdraw; never two moves of one arm at once."""
        t0 = min(max(t - reach, busy[seat]), t - 0.15)
        start_x = target[0] + rng.uniform(-6, 6)
        sleeve, skin = look[seat]
        edge = (target[0] + rng.uniform(-4, 4), OUTSIDE_Y)
        out.arms.append(ArmMove(seat, t0, t, edge, target, start_x, sleeve, skin))
        out.arms.append(ArmMove(seat, t, t + withdraw, target, edge, start_x, sleeve, skin))
        busy[seat] = t + withdraw

    def take_up(until: float) -> None:
        """Tribute and return cards lying in a giver's area are taken into the recipient's hand."""
        while pickups and pickups[0][0] <= until:
            when, seat = pickups.pop(0)
            if play[seat]:
                row = play[seat]
                hand(seat, when, (row[0].x, row[0].y), rng.uniform(0.4, 0.7), rng.uniform(0.3, 0.5))
                play[seat] = ()
                snapshot(when)

    pickups: list[tuple[float, str]] = []
    snapshot(0.0)
    for event in events:
        t = event.t
        take_up(t)
        if isinstance(event, Exchange):  # a tribute or a return: one card shown in the giver's play area (CLOTH.md)
            play[event.seat] = random_row(rng, [event.card.code], min_step)
            card = play[event.seat][0]
            hand(event.seat, t, (card.x, card.y - CARD_H / 2 + 1.0), rng.uniform(0.5, 0.9), rng.uniform(0.3, 0.6))
            snapshot(t)
            out.truth.append(PlayCards(t, event.seat, (event.card,)))
            pickups.append((t + TAKE_UP_S, event.seat))
        elif isinstance(event, PlayCards):
            if play[event.seat]:
                to_discard(event.seat)
            play[event.seat] = random_row(rng, [card.code for card in event.cards], min_step)
            row = play[event.seat]
            x = sum(c.x for c in row) / len(row)
            bottom = min(c.y for c in row) - CARD_H / 2
            hand(event.seat, t, (x, bottom + rng.uniform(0.5, 1.5)), rng.uniform(0.5, 0.9), rng.uniform(0.3, 0.6))
            snapshot(t)
            out.truth.append(event)
        elif isinstance(event, Clear):
            for seat in DRAW_ORDER:
                if play[seat]:
                    row = play[seat]
                    x = sum(c.x for c in row) / len(row)
                    y = sum(c.y for c in row) / len(row)
                    hand(seat, t, (x, y), rng.uniform(0.4, 0.7), rng.uniform(0.3, 0.5))
                    to_discard(seat)
            snapshot(t)
            out.truth.append(event)
        elif isinstance(event, DealStart):
            for seat in DRAW_ORDER:
                play[seat], discard[seat] = (), ()
            snapshot(t)
        out.end = max(out.end, t)
    take_up(float("inf"))
    out.end = max(out.end, *(s.t for s in out.stills)) + 3.0
    out.arms.sort(key=lambda m: m.t0)
    out.arm_starts = [m.t0 for m in out.arms]
    out.still_times = [s.t for s in out.stills]
    return out


DEFAULT_CAMERA = Camera(height=120.0, tilt=5.0, tilt_dir=45.0, roll=3.0, size=(1280, 720), span_px=640.0)


class VideoRenderer:
    """Frames of a choreography seen by one fixed camera."""

    def __init__(
        self,
        choreo: Choreography,
        design: str = "tigullio",
        camera: Camera = DEFAULT_CAMERA,
        look: Look | None = None,
        noise: float = 2.0,
    ) -> None:
        self.choreo = choreo
        self.design = design
        self.camera = camera
        self.look = look or Look(cloth=(35, 60, 25), glare=0, blur=0.5, noise=1.0, jpeg=90)
        k, rot, centre = camera_pose(camera)
        empty = render(Scene(design, {}, camera, self.look))
        self.corners = empty.corners
        self.h = cloth_to_image(self.corners)
        self.hidden = self._behind_screen(k, rot, centre)
        rng = np.random.default_rng(7)
        shape = (camera.size[1], camera.size[0], 3)
        fields = [rng.normal(0, noise, shape) for _ in range(4)]
        self._noise = [(np.clip(f, 0, 255).astype(np.uint8), np.clip(-f, 0, 255).astype(np.uint8)) for f in fields]
        self._cache: tuple[int, np.ndarray] | None = None

    def _behind_screen(self, k: np.ndarray, rot: np.ndarray, centre: np.ndarray) -> frozenset[int]:
        """Markers the 60 cm screen hides from this camera (drawn into the frame after the screen)."""
        hull = screen_hull(k, rot, centre)
        layout = Layout.default()
        hidden = set()
        for marker in layout.markers:
            px = cv2.perspectiveTransform(layout.marker_corners(marker).reshape(1, -1, 2), self.h)[0]
            if any(cv2.pointPolygonTest(hull, (float(x), float(y)), False) >= 0 for x, y in px):
                hidden.add(marker.id)
        return frozenset(hidden)

    def still(self, index: int) -> np.ndarray:
        if self._cache is None or self._cache[0] != index:
            s = self.choreo.stills[index]
            image = render(Scene(self.design, s.seats, self.camera, self.look)).image
            paint_markers(image, self.h, Layout.default(), self.hidden)
            self._cache = (index, image)
        return self._cache[1]

    def frame(self, t: float, index: int, number: int) -> np.ndarray:
        out = self.still(index).copy()
        for seat, arm in arms_at(self.choreo, t):
            self._draw_arm(out, seat, arm)
        up, down = self._noise[number % len(self._noise)]
        return cv2.subtract(cv2.add(out, up), down)

    def _draw_arm(self, frame: np.ndarray, seat: str, arm: Arm) -> None:
        sleeve, hand = arm_polygon(seat, arm)
        shift = seat_to_cloth(seat, np.array([[2.5, 1.5]]))[0]
        polys = [cv2.perspectiveTransform(p.reshape(1, -1, 2), self.h)[0] for p in (sleeve, hand)]
        shadows = [cv2.perspectiveTransform((p + shift).reshape(1, -1, 2), self.h)[0] for p in (sleeve, hand)]
        pts = np.vstack(shadows)
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 1, (frame.shape[1], frame.shape[0]))
        if x1 > x0 and y1 > y0:
            roi = frame[y0:y1, x0:x1]
            mask = np.zeros(roi.shape[:2], np.uint8)
            cv2.fillPoly(mask, [np.round(p - (x0, y0)).astype(np.int32) for p in shadows], 255)
            roi[mask > 0] = (roi[mask > 0] * 0.65).astype(np.uint8)
        cv2.fillPoly(frame, [np.round(polys[0]).astype(np.int32)], arm.sleeve, cv2.LINE_AA)
        cv2.fillPoly(frame, [np.round(polys[1]).astype(np.int32)], arm.skin, cv2.LINE_AA)

    def frames(self, fps: float = 10.0) -> Iterator[tuple[float, np.ndarray]]:
        """Every frame from 0 to the end, timed like a file source (index / fps)."""
        times = [s.t for s in self.choreo.stills]
        index = 0
        for number in range(math.ceil(self.choreo.end * fps)):
            t = number / fps
            while index + 1 < len(times) and times[index + 1] <= t:
                index += 1
            yield t, self.frame(t, index, number)


def arms_at(choreo: Choreography, t: float) -> list[tuple[str, Arm]]:
    """The hands over the table at ``t``."""
    end = bisect.bisect_right(choreo.arm_starts, t)
    begin = bisect.bisect_left(choreo.arm_starts, t - LONGEST_MOVE)
    return [(m.seat, m.at(t)) for m in choreo.arms[begin:end] if t < m.t1]


def truth_reading(choreo: Choreography, t: float) -> FrameReading:
    """What a perfect reader would say at ``t``: the cards that lie there, "occluded" while a hand is over
    the play area. Lets a benchmark measure the tracker apart from the card reader."""
    index = max(0, bisect.bisect_right(choreo.still_times, t) - 1)
    over = {seat for seat, arm in arms_at(choreo, t) if arm.y > -34.0}
    seats = {}
    for seat in DRAW_ORDER:
        cards = [c.code for c in choreo.stills[index].seats[seat].play]
        if seat in over:
            seats[seat] = SeatReading([], [], "occluded", [])
        elif not cards:
            seats[seat] = SeatReading([], [], "empty", [])
        else:
            seats[seat] = SeatReading(cards, [1.0] * len(cards), "cards", [(0.0, 0.0)] * len(cards))
    return FrameReading(seats, {})


def write_video(path: str, frames: Iterable[tuple[float, np.ndarray]], fps: float, size: tuple[int, int]) -> int:
    """MP4 (mp4v) through OpenCV; returns the number of frames written."""
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise OSError(f"cannot write video {path} (no mp4v encoder?)")
    n = 0
    try:
        for _, frame in frames:
            writer.write(frame)
            n += 1
    finally:
        writer.release()
    return n
