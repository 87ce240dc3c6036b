"""Deck registration benchmark: a design the generic model never saw, before and after registering it.

``python -m benchmarks.deck [--frames 300] [--seed 11] [--design drawn|sans] [--faces-only] [--deck FILE]``
renders the 54 registration photos of each test design (``referee_station.render.drawn``: Hershey italic rank over its
suit, JOKER jokers; ``referee_station.render.drawn_sans``: a large sans-serif rank beside its suit, 大王 / 小王 picture
jokers), registers it (timed; ``--faces-only``: the faces alone, no fine-tuning; or loads ``--deck``), then
reads the same rendered frames of that design with the generic classifier, with the profile, and with the
profile without its faces (and without its context classifier, when it has one) and prints exact plays, card
precision/recall, phantom plays and read time for each (``--trained anglo`` adds the generic reader on a
design it trained on: the level to reach). Last, it reads frames of another design with the profile to show
the mismatch check firing. Seats truly occluded or face down are left out of the play figures.
``--large-frames S`` has a share S of the frames seen by a 4K camera (a column of their own);
``--profile-only`` reads with the registered profile alone (and the same trusted under its need of detail);
``--misread-sheet FILE`` writes the index crops of the true cards the profile did not read right (``misread_sheet``).
``--jpeg Q`` has every camera compress at JPEG quality Q instead of 55–95: what a camera set to Q reads.
Each reader that knows its deck's need of detail also prints its exact plays in the areas the camera gives
that need, by camera: what a table whose camera passes ``check-camera --deck`` reads.
The photos are taken at 4K, as docs/deck.md advises organisers (``--photos-resolution 1920x1080``: at 1080p).
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from benchmarks.plays import PlayScore
from referee_station.deck.crops import CODES
from referee_station.deck.mismatch import DeckCheck
from referee_station.deck.profile import DeckProfile, fitted_reader, reader_for
from referee_station.deck.register import register
from referee_station.deck.threshold import random_scenes
from referee_station.render.drawn import install_drawn_design, registration_photos
from referee_station.render.drawn_sans import install_sans_design
from referee_station.render.render import Rendered, render
from referee_station.render.scene import Scene
from referee_station.station.wiring import parse_resolution
from referee_station.vision.camera_check import GOOD_JPEG_QUALITY
from referee_station.vision.faces import Faces
from referee_station.vision.geometry import DRAW_ORDER
from referee_station.vision.reader import CLASSES, CardReader
from referee_station.vision.strips import CROP_H, CROP_W, cloth_to_strip, crop_index, detail, locator_input, rectify

SIZES = {2160: "4K", 1080: "1080p", 720: "720p"}
"""The benchmark's cameras, by frame height."""
JPEG_BANDS = ((1, GOOD_JPEG_QUALITY - 1), (GOOD_JPEG_QUALITY, 100))
"""The frames' JPEG qualities the benchmark splits its plays by: under and from the quality ``check-camera``
asks of a camera."""
SHEET_ZOOM = 3
"""How many times ``misread_sheet`` enlarges each crop."""
SHEET_SUFFIXES = (".png", ".jpg", ".jpeg")
"""The image files ``--misread-sheet`` writes (OpenCV picks the format by the suffix)."""
PROFILE = "registered profile"
"""The label of the reader of the profile as registered (the one ``--misread-sheet`` shows)."""


def play_figures(reader: CardReader, frames: list[Rendered], qualities: list[int] | None = None) -> dict:
    """Exact plays (all, and in 4K, 1080p and 720p frames), card precision and recall over seats with
    readable cards; phantom plays in empty ones; wrong plays the reader called readable; what each
    true card was read as (``miss_kind``) and where each card not read right lies (``Misread``).
    Beside them, exact plays in the areas the camera gives the detail the reader's deck needs
    (``CardReader.needs``), by camera: what a table whose camera passes ``check-camera --deck`` reads
    (every area, where the reader knows no need); and, given each frame's JPEG quality, exact plays by
    camera and ``JPEG_BANDS``."""
    score = PlayScore()
    by_size = {h: PlayScore() for h in SIZES}
    given_need = {h: PlayScore() for h in SIZES}
    by_quality = {(h, band): PlayScore() for h in SIZES for band in JPEG_BANDS}
    kinds: Counter[str] = Counter()
    misread: list[Misread] = []
    for index, frame in enumerate(frames):
        reading = reader.read(frame.image, frame.corners)
        short = reader.short_of_detail(detail(frame.corners))
        height = frame.image.shape[0]
        band = None if qualities is None else next(b for b in JPEG_BANDS if b[0] <= qualities[index] <= b[1])
        for seat in DRAW_ORDER:
            score.add(frame.truth[seat], reading.seats[seat])
            by_size[height].add(frame.truth[seat], reading.seats[seat])
            if band is not None:
                by_quality[height, band].add(frame.truth[seat], reading.seats[seat])
            if seat not in short:
                given_need[height].add(frame.truth[seat], reading.seats[seat])
            if frame.truth[seat].status == "cards":
                truth, uv = frame.truth[seat], cloth_to_strip(seat, frame.truth[seat].anchors)
                read = read_as(uv, reading.seats[seat])
                kinds.update(miss_kind(code, got) for code, got in zip(truth.cards, read, strict=True))
                misread += [
                    Misread(index, seat, (float(u), float(v)), code, got)
                    for (u, v), code, got in zip(uv, truth.cards, read, strict=True)
                    if got != code
                ]
    return {
        "kinds": kinds,
        "misread": misread,
        "plays": score.plays,
        "exact": score.exact_share,
        "by_size": by_size,
        "given_need": given_need,
        "by_quality": by_quality,
        "precision": score.precision,
        "recall": score.recall,
        "phantom": score.phantom,
        "taken_wrong": score.taken_wrong,
        "sure_wrong": score.sure_wrong,
        "held_right": score.held_right,
        "empties": score.empties,
    }


def nearest(points: np.ndarray, among: np.ndarray, tolerance: float) -> list[int | None]:
    """For each strip point (u, v), the index of the nearest of ``among`` if it lies within ``tolerance``
    strip px, else None: how a true index anchor is matched to a read card or a locator peak."""
    among = np.asarray(among, dtype=float).reshape(-1, 2)
    if not len(among):
        return [None] * len(points)
    dist = np.hypot(*(np.asarray(points, dtype=float)[:, None, :] - among[None, :, :]).transpose(2, 0, 1))
    return [int(row.argmin()) if row.min() <= tolerance else None for row in dist]


def read_as(true_uv: np.ndarray, got, tolerance: float = 12.0) -> list[str | None]:
    """Each true card of a seat as read, given its true index anchors (strip px): the read card whose
    anchor lies within ``tolerance`` strip px of it (None: no card read there)."""
    return [None if j is None else got.cards[j] for j in nearest(true_uv, got.anchors, tolerance)]


@dataclasses.dataclass(frozen=True)
class Misread:
    """A true card not read as itself (read as another, or not found): where its index lies, so that
    its crop can be shown (``misread_sheet``)."""

    frame: int
    """Its frame's place in the benchmark's list."""
    seat: str
    """The play area it lies in."""
    anchor: tuple[float, float]
    """Its true index anchor, strip px of the seat."""
    true: str
    """The card's code."""
    read: str | None
    """What the reader read there; None: no card."""


def misread_sheet(frames: list[Rendered], misread: list[Misread], width: float, columns: int = 12) -> np.ndarray:
    """The index crops of the cards not read right, cut at their true anchors as the classifiers would
    get them there (``width`` cm wide, squeezed), enlarged ``SHEET_ZOOM`` times in rows of ``columns``,
    each labelled "true>read" and the area's px/cm (read "-": no card found there): whether a card was
    legible at all, which no share tells."""
    tiles, last, strips = [], None, {}
    for card in misread:
        frame = frames[card.frame]
        if card.frame != last:  # the cards come in frame order: each frame rectified once
            last, strips = card.frame, rectify(frame.image, frame.corners)
        crop = crop_index(strips[card.seat], *card.anchor, width=width)
        tile = cv2.resize(crop, None, fx=SHEET_ZOOM, fy=SHEET_ZOOM, interpolation=cv2.INTER_NEAREST)
        label = f"{card.true}>{card.read or '-'} {detail(frame.corners)[card.seat]:.1f}"
        cv2.putText(tile, label, (2, tile.shape[0] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 255), 1, cv2.LINE_AA)
        tiles.append(tile)
    blank = np.zeros((CROP_H * SHEET_ZOOM, CROP_W * SHEET_ZOOM, 3), np.uint8)
    tiles += [blank] * (-len(tiles) % columns if tiles else columns)
    return np.vstack([np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)])


def miss_kind(true: str, read: str | None) -> str:
    """ "right", "missed", "joker", "suit within its colour", "suit of the other colour", "rank", "rank and suit"."""
    if read == true:
        return "right"
    if read is None:
        return "missed"
    if "J" in (true[1], read[1]):
        return "joker"
    if true[0] == read[0]:
        return "suit within its colour" if (true[1] in "hd") == (read[1] in "hd") else "suit of the other colour"
    return "rank" if true[1] == read[1] else "rank and suit"


def table_row(label: str, f: dict) -> str:
    """One reader's figures as a row of the printed table."""
    sizes = " | ".join(f"{part.exact_share:.2%}" if part.plays else "–" for part in f["by_size"].values())
    return (
        f"| {label} | {f['exact']:.2%} of {f['plays']} | {sizes} "
        f"| {f['precision']:.2%} | {f['recall']:.2%} | {f['phantom']}/{f['empties']} "
        f"| {f['taken_wrong']} | {f['sure_wrong']} | {f['held_right']} |"
    )


def given_need_line(label: str, given_need: dict[int, PlayScore]) -> str:
    """One reader's exact plays in the areas given its deck's need, by camera (``play_figures``)."""
    parts = [f"{SIZES[h]} {part.exact_share:.2%} of {part.plays}" for h, part in given_need.items() if part.plays]
    return f"{label}, in areas the camera gives the deck's need: " + (", ".join(parts) or "none")


def by_quality_line(label: str, by_quality: dict[tuple[int, tuple[int, int]], PlayScore]) -> str:
    """One reader's exact plays by camera and the frames' JPEG quality (``play_figures``)."""
    parts = [
        f"{SIZES[h]} at {low}–{high} {part.exact_share:.2%} of {part.plays}"
        for (h, (low, high)), part in by_quality.items()
        if part.plays
    ]
    return f"{label}, by the camera's JPEG quality: " + ", ".join(parts)


def error_split(reader: CardReader, frames: list[Rendered], tolerance: float = 12.0) -> dict[str, float]:
    """Where the misses are, over seats with readable cards: the share of true index anchors the locator
    finds (a peak within ``tolerance`` strip px), the share of those the classifier reads right at the
    peak and at the true anchor (what a perfect locator would give it), and the peaks matching no anchor
    that the classifier takes for a card (extra cards)."""
    anchors = found = right = right_at_truth = extra = 0
    for frame in frames:
        strips = rectify(frame.image, frame.corners)
        locs = np.stack([locator_input(strips[s]) for s in DRAW_ORDER])
        raw = reader.locate(locs)
        for i, seat in enumerate(DRAW_ORDER):
            truth = frame.truth[seat]
            if truth.status != "cards":
                continue
            true_uv = cloth_to_strip(seat, truth.anchors)
            peaks = np.array([(u, v) for u, v, _ in reader.peaks(raw[i])]).reshape(-1, 2)
            located = [(k, j) for k, j in enumerate(nearest(true_uv, peaks, tolerance)) if j is not None]
            anchors += len(true_uv)
            if not len(peaks):
                continue
            probs = reader.classify_anchors([(strips[seat], locs[i], u, v) for u, v in peaks])
            at_truth = reader.classify_anchors([(strips[seat], locs[i], *true_uv[k]) for k, _ in located])
            for (k, j), p_true in zip(located, at_truth, strict=True):
                found += 1
                right += CLASSES[int(probs[j].argmax())] == truth.cards[k]
                right_at_truth += CLASSES[int(p_true.argmax())] == truth.cards[k]
            unmatched = np.array([m is None for m in nearest(peaks, true_uv, tolerance)])
            extra += int((probs[unmatched].argmax(1) != len(CLASSES) - 1).sum())
    return {
        "anchors": anchors,
        "located": found / max(1, anchors),
        "read": right / max(1, found),
        "read_at_truth": right_at_truth / max(1, found),
        "extra": extra,
    }


def scenes(design: str, n: int, seed: int, large_frames: float = 0.0, jpeg: int | None = None) -> list[Scene]:
    """The benchmark's table scenes of ``design``: registration's kind of scenes (``random_scenes``) in the
    held-out looks, a share ``large_frames`` of 4K cameras, each camera's JPEG quality drawn from 55–95 or,
    given ``jpeg``, that one; one seed, one list (``benchmarks.twins`` reads the same frames)."""
    drawn = random_scenes(design, n, seed, "benchmark", large_frames, heldout_look=True)
    if jpeg is None:
        return drawn
    return [dataclasses.replace(s, look=dataclasses.replace(s.look, jpeg=jpeg)) for s in drawn]


def render_frames(design: str, n: int, seed: int, large_frames: float = 0.0) -> list[Rendered]:
    return [render(scene) for scene in scenes(design, n, seed, large_frames)]


DESIGNS = {"drawn": install_drawn_design, "sans": install_sans_design}
"""The benchmark's test designs: rank over suit in Hershey italic with JOKER jokers (``referee_station.render.drawn``),
and a large sans-serif rank beside its suit with 大王 / 小王 picture jokers (``referee_station.render.drawn_sans``)."""


def variant_readers(profile: DeckProfile) -> list[tuple[str, CardReader]]:
    """The profile's networks read otherwise: without the faces' evidence, with the faces weighed in,
    without the context classifier, and trusting cards read at less detail than the deck needs (where the
    profile has what each variant leaves out)."""
    m, out = profile.meta, []
    networks = (profile.classifiers, profile.locator, profile.context, m.peak)
    if profile.faces is not None:
        alone = fitted_reader(*networks, index_width=m.index_width, needs=m.need)
        out.append(("registered profile without its faces", alone))
    if profile.faces is not None and profile.classifier is not None:
        faces = Faces.from_faces(CODES, profile.faces)
        mixed = fitted_reader(*networks, faces=faces, weigh_by_faces=True, index_width=m.index_width, needs=m.need)
        out.append(("registered profile with its faces weighed in", mixed))
    if profile.context is not None:
        without = dataclasses.replace(profile, context=None)
        out.append(("registered profile without its context classifier", reader_for(without)))
    return [*out, *trusted_reader(profile)]


def trusted_reader(profile: DeckProfile) -> list[tuple[str, CardReader]]:
    """The profile read as if its deck needed no detail (where it needs some): what holding the cards
    read under the need (``CardReader.needs``) costs in right plays held and saves in wrong ones."""
    if profile.meta.need is None:
        return []
    anywhere = dataclasses.replace(profile, meta=dataclasses.replace(profile.meta, needs_px_per_cm=None))
    return [("registered profile trusted under its deck's need of detail", reader_for(anywhere))]


def bench_design(design: str, args: argparse.Namespace) -> None:
    """Register ``design`` from its 54 photos (or load ``--deck``), read its frames with the generic reader,
    the profile and its variants (``variant_readers``; ``--profile-only``: the profile, and the same
    trusted under its need of detail), and check the mismatch warning on another design."""
    if args.deck:
        profile = DeckProfile.load(args.deck)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            registration_photos(Path(tmp), design, args.seed, args.photos_resolution)
            profile = register(
                Path(tmp),
                design,
                frames=args.scenes,
                threads=args.threads,
                finetune=not args.faces_only,
                log=print,
            )
        if args.save:
            profile.save(args.save)
    m = profile.meta
    print(
        f"{design}: registration {m.seconds:.0f} s, held-back accuracy {m.accuracy:.2%} ({m.held_back_crops} crops), "
        f"index crops {m.index_width:.2f} cm wide"
    )
    started = time.monotonic()
    drawn = scenes(design, args.frames, args.seed, args.large_frames, args.jpeg)
    frames = [render(scene) for scene in drawn]
    qualities = [scene.look.jpeg for scene in drawn]
    print(f"rendered {len(frames)} frames of {design}: {time.monotonic() - started:.0f} s")
    readers = [(PROFILE, reader_for(profile))]
    if args.profile_only:
        readers += trusted_reader(profile)
    else:
        readers = [("generic classifier", reader_for(None)), *readers, *variant_readers(profile)]
    rows, lines = [], []
    for label, reader in readers:
        started = time.monotonic()
        figures = play_figures(reader, frames, qualities)
        rows.append(table_row(label, figures) + f" {(time.monotonic() - started) / len(frames) * 1000:.0f} |")
        if args.misread_sheet and label == PROFILE:
            if not cv2.imwrite(str(args.misread_sheet), misread_sheet(frames, figures["misread"], m.index_width)):
                raise SystemExit(f"could not write {args.misread_sheet}")
            lines.append(f"{label}: the {len(figures['misread'])} cards not read right, in {args.misread_sheet}")
        lines.append(f"{label}: true cards read as " + ", ".join(f"{k} {n}" for k, n in figures["kinds"].most_common()))
        if reader.needs is not None:
            lines.append(given_need_line(label, figures["given_need"]))
        lines.append(by_quality_line(label, figures["by_quality"]))
    if args.trained:
        f = play_figures(reader_for(None), render_frames(args.trained, args.frames, args.seed))
        rows.append(table_row(f"generic classifier on {args.trained} (a training design)", f) + " |")
    columns = ["reader", "exact plays", *(f"in {name} frames" for name in SIZES.values()), "card precision"]
    columns += ["card recall", "phantom plays", "wrong plays called readable", "of them sure for the referee"]
    columns += ["right plays held doubtful", "ms per frame"]
    print("| " + " | ".join(columns) + " |\n" + "|---" * len(columns) + "|")
    print("\n".join(rows))
    print("\n".join(lines))
    for label, deck in [("generic classifier", None), (PROFILE, profile)][args.profile_only :]:
        split = error_split(reader_for(deck), frames)
        print(
            f"{label}: {split['anchors']} true index anchors, located {split['located']:.2%}, "
            f"read right at the peak {split['read']:.2%} and at the true anchor {split['read_at_truth']:.2%} "
            f"(without the faces), extra cards {split['extra']}"
        )
    deck_reader = reader_for(profile)
    n = min(20, args.frames)
    for name, frames_of in ((f"{design} (its own deck)", frames[:n]), ("tigullio (another deck)", None)):
        check = DeckCheck(m.mismatch_below, m.mismatch_on)
        for frame in frames_of or render_frames("tigullio", n, args.seed + 1):
            check.add(deck_reader.read(frame.image, frame.corners))
        v = check.verdict()
        print(f"mismatch check on {name}: mean confidence {v.mean_confidence:.3f}, mismatch {v.mismatch}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--design", choices=sorted(DESIGNS), action="append", help="test design(s); default both")
    parser.add_argument("--deck", type=Path, help="an existing profile of the (one) design (skip registering)")
    parser.add_argument("--save", type=Path, help="keep the profile built here")
    parser.add_argument(
        "--photos-resolution",
        type=parse_resolution,
        default=(3840, 2160),
        help="WxH of the registration photos' camera (default 4K)",
    )
    parser.add_argument("--faces-only", action="store_true", help="register the faces alone (no torch, seconds)")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for the registration's fine-tuning")
    parser.add_argument("--scenes", type=int, default=300, help="table scenes of the deck registration renders")
    parser.add_argument("--trained", help="also read frames of this training design with the generic reader")
    parser.add_argument("--profile-only", action="store_true", help="read with the profile alone, and trusted")
    parser.add_argument(
        "--large-frames", type=float, default=0.0, help="share of the frames seen by a 4K camera (default none)"
    )
    parser.add_argument(
        "--jpeg", type=int, choices=range(1, 101), metavar="Q", help="every camera's JPEG quality (default 55–95)"
    )
    parser.add_argument(
        "--misread-sheet",
        type=Path,
        help="write the index crops of the cards the profile did not read right (.png, .jpg)",
    )
    args = parser.parse_args()
    cv2.setNumThreads(2)
    names = args.design or sorted(DESIGNS)
    if (args.deck or args.save or args.misread_sheet) and len(names) != 1:
        parser.error("--deck, --save and --misread-sheet need one --design")
    if args.misread_sheet and not args.misread_sheet.parent.is_dir():
        parser.error(f"--misread-sheet: no folder {args.misread_sheet.parent}")
    if args.misread_sheet and args.misread_sheet.suffix.lower() not in SHEET_SUFFIXES:
        parser.error(f"--misread-sheet: {args.misread_sheet.name} is not one of {', '.join(SHEET_SUFFIXES)}")
    for name in names:
        bench_design(DESIGNS[name](), args)


if __name__ == "__main__":
    main()
