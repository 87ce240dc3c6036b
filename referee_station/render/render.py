"""Render a ``Scene`` into a camera frame with its calibration corners and ground truth.

The table is drawn top-down on a canvas in cloth coordinates (16 px/cm), then warped into the frame
with the camera's homography, so everything lying on the cloth gets the exact perspective of the
camera; the screen, which stands up, is projected in 3-D. Light, glare, blur, noise and JPEG are
applied in the frame, where a real camera applies them: first the light that reaches the sensor
(``expose``), then what the sensor sends of it (``sensor``), so that a benchmark can ask what a frame
holds before the sensor loses any of it (``benchmarks.twins``).
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from referee_station.render.artwork import load_design
from referee_station.render.scene import Arm, Camera, Look, PlacedCard, Scene
from referee_station.vision.geometry import (
    CARD_H,
    CARD_W,
    DISCARD_AREA,
    DRAW_ORDER,
    INDEX_ANCHOR,
    INDEX_CROP,
    LABEL_CENTRE,
    PLAY_AREA,
    SEAT_ANGLE,
    TABLE_CORNERS,
    TABLE_HALF,
    apply_h,
    rotation,
    seat_to_cloth,
)

CANVAS_PX_PER_CM = 16.0
CANVAS_HALF = 60.0
_CANVAS_SIZE = round(2 * CANVAS_HALF * CANVAS_PX_PER_CM)


@dataclass(frozen=True)
class SeatTruth:
    """What the reader should report for a seat, with the geometry training needs (cloth cm).

    ``status``: "empty", "cards" (readable), "unreadable" (face-down cards), "occluded" (an arm, or the
    screen as this camera sees it, over the play area's cards or, when empty, over much of it).
    """

    cards: tuple[str, ...]
    status: str
    anchors: np.ndarray
    card_quads: tuple[np.ndarray, ...]
    occluders: tuple[np.ndarray, ...]
    """Arms (sleeve and hand polygons): what the locator learns to mark as an occluder."""
    screen: np.ndarray
    """The cloth the screen hides from this camera (a polygon). Fixed for a mounted camera, so the
    locator is not taught to call it an occluder (the tracker would wait for it to move); the truth
    and the training crops leave out the cards it hides."""


@dataclass(frozen=True)
class Rendered:
    """A frame (BGR uint8), the four table-corner pixels (SW, SE, NE, NW) and the truth per seat."""

    image: np.ndarray
    corners: np.ndarray
    truth: dict[str, SeatTruth]


@dataclass(frozen=True)
class Exposure:
    """The light reaching the sensor (float32 BGR, the frame before noise and JPEG), the four table-corner
    pixels and the truth per seat."""

    light: np.ndarray
    corners: np.ndarray
    truth: dict[str, SeatTruth]


def camera_pose(camera: Camera) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intrinsics K, rotation R, centre C, with the focal length chosen so the cloth spans ``span_px``
    and the principal point so the whole table stays in the frame."""
    t, d, r = (math.radians(a) for a in (camera.tilt, camera.tilt_dir, camera.roll))
    z = np.array([math.sin(t) * math.cos(d), math.sin(t) * math.sin(d), -math.cos(t)])
    east = np.array([1.0, 0.0, 0.0])
    x = east - z * (east @ z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    x, y = math.cos(r) * x + math.sin(r) * y, -math.sin(r) * x + math.cos(r) * y
    rot = np.stack([x, y, z])
    centre = np.array([camera.offset[0], camera.offset[1], camera.height])
    pc = (np.hstack([TABLE_CORNERS, np.zeros((4, 1))]) - centre) @ rot.T
    uv = pc[:, :2] / pc[:, 2:3]
    sides = np.linalg.norm(uv - np.roll(uv, 1, axis=0), axis=1).mean()
    w, h = camera.size
    span = uv.max(0) - uv.min(0)
    f = min(camera.span_px / sides, 0.97 * w / span[0], 0.97 * h / span[1])
    mid = (uv.max(0) + uv.min(0)) / 2 * f
    k = np.array([[f, 0, w / 2 - mid[0]], [0, f, h / 2 - mid[1]], [0, 0, 1]])
    return k, rot, centre


def project(k: np.ndarray, rot: np.ndarray, centre: np.ndarray, points3: np.ndarray) -> np.ndarray:
    """3-D cloth points (cm, z up) → frame pixels."""
    pc = (points3 - centre) @ rot.T
    return (pc[:, :2] / pc[:, 2:3]) * k[0, 0] + k[:2, 2]


def floor_homography(k: np.ndarray, rot: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Homography cloth cm (z = 0) → frame pixels."""
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    return h / h[2, 2]


def _canvas_px(points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([(pts[:, 0] + CANVAS_HALF), (CANVAS_HALF - pts[:, 1])]) * CANVAS_PX_PER_CM


def card_quad(seat: str, card: PlacedCard) -> np.ndarray:
    """The card's corners TL, TR, BR, BL in cloth cm (top = the edge away from its seat)."""
    local = np.array([[-CARD_W / 2, CARD_H / 2], [CARD_W / 2, CARD_H / 2], [CARD_W / 2, -CARD_H / 2]])
    local = np.vstack([local, [-CARD_W / 2, -CARD_H / 2]]) @ rotation(card.angle).T + [card.x, card.y]
    return seat_to_cloth(seat, local)


def index_anchor(seat: str, card: PlacedCard) -> np.ndarray:
    """Where the locator should find the card (``INDEX_ANCHOR`` on the card), in cloth cm."""
    local = np.array([[-CARD_W / 2 + INDEX_ANCHOR[0], CARD_H / 2 - INDEX_ANCHOR[1]]]) @ rotation(card.angle).T
    return seat_to_cloth(seat, local + np.array([card.x, card.y]))[0]


def arm_polygon(seat: str, arm: Arm) -> tuple[np.ndarray, np.ndarray]:
    """The sleeve (quad) and the hand (polygon) in cloth cm."""
    start, end = np.array([arm.start_x, -TABLE_HALF - 15]), np.array([arm.x, arm.y])
    along = (end - start) / np.linalg.norm(end - start)
    side = np.array([-along[1], along[0]]) * arm.width / 2
    wrist = end - along * 7
    sleeve = np.array([start - side, wrist - side * 0.8, wrist + side * 0.8, start + side])
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    hand = (
        wrist
        + along * 3.5
        + np.outer(np.cos(angles) * 5.0, along)
        + np.outer(np.sin(angles) * 4.0, along[::-1] * [-1, 1])
    )
    return seat_to_cloth(seat, sleeve), seat_to_cloth(seat, hand)


class _Faces:
    """Card images resized once to the canvas scale, so warping them does not alias."""

    def __init__(self, design: str) -> None:
        art = load_design(design)
        size = (round(CARD_W * CANVAS_PX_PER_CM * 1.5), round(CARD_H * CANVAS_PX_PER_CM * 1.5))
        self.faces = {code: cv2.resize(img, size, interpolation=cv2.INTER_AREA) for code, img in art.faces.items()}
        self.back = cv2.resize(art.back, size, interpolation=cv2.INTER_AREA)
        self.size = size


@functools.cache
def _faces(design: str) -> _Faces:
    return _Faces(design)


def _paste_card(
    canvas: np.ndarray, faces: _Faces, quad: np.ndarray, card: PlacedCard, shadow_depth: float, rng: random.Random
) -> None:
    """Warp one card onto the canvas with the soft shadow it casts on what lies under it."""
    img = faces.faces[card.code] if card.face_up else faces.back
    w, h = faces.size
    dst = _canvas_px(quad[[0, 1, 3]]).astype(np.float32)
    src = np.array([[0, 0], [w, 0], [0, h]], dtype=np.float32)
    m = cv2.getAffineTransform(src, dst)
    pad = 6
    x0, y0 = np.floor(_canvas_px(quad).min(0)).astype(int) - pad
    x1, y1 = np.ceil(_canvas_px(quad).max(0)).astype(int) + pad
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m[:, 2] -= [x0, y0]
    warped = cv2.warpAffine(img, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    shift = np.float32([[1, 0, rng.uniform(0.5, 2.5)], [0, 1, rng.uniform(0.5, 2.5)]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, shift, alpha.shape[1::-1]), (0, 0), 1.5)[..., None]
    roi *= 1 - shadow_depth * shadow
    tone = rng.uniform(0.9, 1.05)
    roi = roi * (1 - alpha) + warped[..., :3].astype(np.float32) * tone * alpha
    canvas[y0:y1, x0:x1] = cv2.convertScaleAbs(roi)


def _background(look: Look, rng: np.random.Generator) -> np.ndarray:
    """Floor (blobs for training, planks for the held-out look), the table's rim and the felt cloth."""
    n = _CANVAS_SIZE
    if look.background == "planks":
        rows = np.repeat(rng.uniform(-25, 25, n // 40 + 1), 40)[:n].astype(np.float32)
        grain = cv2.resize(rng.normal(0, 8, (n // 4, 8)).astype(np.float32), (n, n)) + rows[:, None]
        tex = cv2.merge([grain] * 3)
    else:
        tex = cv2.resize(rng.normal(0, 12, (12, 12, 3)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
    canvas = cv2.convertScaleAbs(cv2.add(tex, np.array([*look.floor, 0], dtype=np.float64)))
    a, b = _canvas_px([[-TABLE_HALF, TABLE_HALF], [TABLE_HALF, -TABLE_HALF]]).astype(int)
    border = round(1.5 * CANVAS_PX_PER_CM)
    rim = np.array([40, 70, 110]) * rng.uniform(0.5, 1.3)
    canvas[a[1] - border : b[1] + border, a[0] - border : b[0] + border] = rim.astype(np.uint8)
    m = b[1] - a[1]
    fine = np.empty((m // 2, m // 2), np.float32)
    cv2.randn(fine, 0.0, 3.5)
    fine = cv2.resize(cv2.GaussianBlur(fine, (0, 0), 0.8), (b[0] - a[0], m))
    felt = cv2.add(cv2.merge([fine] * 3), np.array([*look.cloth, 0], dtype=np.float64))
    canvas[a[1] : b[1], a[0] : b[0]] = cv2.convertScaleAbs(felt)
    return canvas


def _markings(canvas: np.ndarray, look: Look) -> None:
    colour = tuple(int(min(255, c + look.line_tone)) for c in look.cloth)
    width = max(1, round(0.25 * CANVAS_PX_PER_CM))
    for seat in DRAW_ORDER:
        for x0, x1, y0, y1 in (PLAY_AREA, DISCARD_AREA):
            rect = seat_to_cloth(seat, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
            cv2.polylines(canvas, [np.round(_canvas_px(rect)).astype(np.int32)], True, colour, width, cv2.LINE_AA)
        patch = np.zeros((64, 64), np.uint8)
        cv2.putText(patch, seat, (14, 52), cv2.FONT_HERSHEY_SIMPLEX, 1.8, 255, 4, cv2.LINE_AA)
        patch = np.rot90(patch, round(SEAT_ANGLE[seat] / 90))  # the label turns with the seat (cloth.json)
        centre = _canvas_px(seat_to_cloth(seat, [LABEL_CENTRE]))[0].astype(int)
        y0, x0 = centre[1] - 32, centre[0] - 32
        roi = canvas[y0 : y0 + 64, x0 : x0 + 64]
        a = patch[..., None].astype(np.float32) / 255
        roi[:] = (roi * (1 - a) + np.array(colour) * a).astype(np.uint8)


def _draw_arm(canvas: np.ndarray, seat: str, arm: Arm, look: Look) -> tuple[np.ndarray, np.ndarray]:
    sleeve, hand = arm_polygon(seat, arm)
    polys = [np.round(_canvas_px(p)).astype(np.int32) for p in (sleeve, hand)]
    small = np.zeros((canvas.shape[0] // 8, canvas.shape[1] // 8), np.uint8)
    offset = np.array([3.0, 2.0]) * CANVAS_PX_PER_CM
    cv2.fillPoly(small, [((p + offset) / 8).astype(np.int32) for p in polys], 255)
    small = cv2.GaussianBlur(small, (0, 0), 2.5 * CANVAS_PX_PER_CM / 8)
    shade = cv2.resize(small, canvas.shape[1::-1]).astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - look.shadow * 1.2 * shade)).astype(np.uint8)
    cv2.fillPoly(canvas, [polys[0]], arm.sleeve, cv2.LINE_AA)
    cv2.fillPoly(canvas, [polys[1]], arm.skin, cv2.LINE_AA)
    return sleeve, hand


def screen_hull(k: np.ndarray, rot: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The 60 cm screen on the SW–NE diagonal (CLOTH.md), a thin box standing up, projected in 3-D: its
    convex hull in frame pixels, (N, 2) float32. What lies behind it on the cloth is hidden."""
    along = np.array([1.0, 1.0]) / math.sqrt(2)
    side = np.array([-along[1], along[0]]) * 0.9
    ends = [np.array([-TABLE_HALF, -TABLE_HALF]), np.array([TABLE_HALF, TABLE_HALF])]
    pts = [np.r_[e + s, z] for e in ends for s in (side, -side) for z in (0.0, 60.0)]
    hull = cv2.convexHull(np.round(project(k, rot, centre, np.array(pts))).astype(np.int32))
    return hull.reshape(-1, 2).astype(np.float32)


def _screen(frame: np.ndarray, hull: np.ndarray, rng: np.random.Generator) -> None:
    """Paint the screen (a flat tone) over the frame."""
    tone = rng.uniform(30, 200)
    colour = (tone, tone * rng.uniform(0.9, 1.1), tone * rng.uniform(0.9, 1.1))
    cv2.fillConvexPoly(frame, np.round(hull).astype(np.int32), colour, cv2.LINE_AA)


def _exposure(frame: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """The light reaching the sensor (float32): uneven light, vignetting, glare and the lens's blur; the
    smooth fields are made at 1/8 size."""
    h, w = frame.shape[:2]
    sh, sw = h // 8, w // 8
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8
    a = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    vignette = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w / 4)
    gain = look.light_gain * (1 + look.light_gradient * ramp) * (1 - 0.25 * vignette)
    glare = np.zeros_like(gain)
    for _ in range(look.glare):
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        sx, sy = rng.uniform(0.02, 0.12) * w, rng.uniform(0.02, 0.12) * w
        glare += rng.uniform(40, 140) * np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    glare = cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.add(cv2.multiply(frame.astype(np.float32), cv2.merge([gain] * 3)), cv2.merge([glare] * 3))
    return cv2.GaussianBlur(out, (0, 0), look.blur) if look.blur > 0.3 else out


def sensor(light: np.ndarray, look: Look) -> np.ndarray:
    """What the camera sends of that light: Gaussian noise of ``look.noise`` per channel, 8 bits, JPEG."""
    noise = np.empty_like(light)
    cv2.randn(noise, 0.0, look.noise)
    frame = cv2.convertScaleAbs(cv2.add(light, noise))
    _, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _seat_truth(seat: str, play: tuple[PlacedCard, ...], arms: list[np.ndarray], screen: np.ndarray) -> SeatTruth:
    occluders = [*arms, screen]
    quads = tuple(card_quad(seat, c) for c in play)
    anchors = np.array([index_anchor(seat, c) for c in play]).reshape(-1, 2)
    cards = tuple(c.code for c in play if c.face_up)
    status = "cards" if cards else ("unreadable" if play else "empty")
    if occluders:
        mask_size = 200
        to_px = np.array([[2, 0, mask_size / 2], [0, -2, mask_size / 2], [0, 0, 1]])  # 2 px/cm around centre
        occ = np.zeros((mask_size, mask_size), np.uint8)
        for poly in occluders:
            cv2.fillPoly(occ, [np.round(apply_h(to_px, poly)).astype(np.int32)], 1)
        regions = []
        for c in play:
            x0 = -CARD_W / 2 + INDEX_ANCHOR[0] - INDEX_CROP[0] / 2
            y0 = CARD_H / 2 - INDEX_ANCHOR[1] + INDEX_CROP[1] / 2
            box = np.array([[x0, y0], [x0 + INDEX_CROP[0], y0], [x0 + INDEX_CROP[0], y0 - INDEX_CROP[1]]])
            box = np.vstack([box, [x0, y0 - INDEX_CROP[1]]]) @ rotation(c.angle).T + [c.x, c.y]
            regions.append(seat_to_cloth(seat, box))
        if not play:
            x0, x1, y0, y1 = PLAY_AREA
            regions.append(seat_to_cloth(seat, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        for region in regions:
            m = np.zeros_like(occ)
            cv2.fillPoly(m, [np.round(apply_h(to_px, region)).astype(np.int32)], 1)
            covered = (m & occ).sum() / max(1, m.sum())
            if covered > (0.15 if play else 0.2):
                status = "occluded"
    return SeatTruth(cards, status, anchors, quads, tuple(arms), screen)


def render(scene: Scene) -> Rendered:
    """Draw the scene; deterministic for a given scene (its ``look.seed`` drives the noise)."""
    seen = expose(scene)
    return Rendered(sensor(seen.light, scene.look), seen.corners, seen.truth)


def expose(scene: Scene) -> Exposure:
    """The scene as it reaches the sensor, before the sensor's noise, 8 bits and JPEG: what an observer
    who knew the light and the blur would expect the camera to see."""
    look = scene.look
    rng = np.random.default_rng(look.seed)
    cv2.setRNGSeed(look.seed)
    prng = random.Random(look.seed)
    faces = _faces(scene.design)
    canvas = _background(look, rng)
    _markings(canvas, look)
    for seat in DRAW_ORDER:
        s = scene.seats.get(seat)
        if s is None:
            continue
        for card in (*s.discard, *s.hand):
            _paste_card(canvas, faces, card_quad(seat, card), card, look.shadow, prng)
    for seat in DRAW_ORDER:
        s = scene.seats.get(seat)
        for card in s.play if s else ():
            _paste_card(canvas, faces, card_quad(seat, card), card, look.shadow, prng)
    occluders: list[np.ndarray] = []
    for seat in DRAW_ORDER:
        s = scene.seats.get(seat)
        if s is not None and s.arm is not None:
            occluders.extend(_draw_arm(canvas, seat, s.arm, look))
    k, rot, centre = camera_pose(scene.camera)
    h = floor_homography(k, rot, centre)
    to_canvas = np.array(
        [
            [CANVAS_PX_PER_CM, 0, CANVAS_HALF * CANVAS_PX_PER_CM],
            [0, -CANVAS_PX_PER_CM, CANVAS_HALF * CANVAS_PX_PER_CM],
            [0, 0, 1],
        ]
    )
    h_canvas = h @ np.linalg.inv(to_canvas)
    scale = CANVAS_PX_PER_CM / (k[0, 0] / scene.camera.height)
    if scale > 1.2:
        canvas = cv2.GaussianBlur(canvas, (0, 0), 0.45 * scale)
    w, hh = scene.camera.size
    frame = cv2.warpPerspective(canvas, h_canvas, (w, hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    hull = screen_hull(k, rot, centre)
    _screen(frame, hull, rng)
    light = _exposure(frame, look, rng)
    corners = apply_h(h, TABLE_CORNERS)
    hidden = apply_h(np.linalg.inv(h), hull)  # the cloth behind the screen: its cards cannot be read
    truth = {
        seat: _seat_truth(seat, scene.seats[seat].play if seat in scene.seats else (), occluders, hidden)
        for seat in DRAW_ORDER
    }
    return Exposure(light, corners, truth)
