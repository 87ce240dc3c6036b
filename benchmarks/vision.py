"""Card reader benchmark: rendered frames of the held-out design and looks, read with the shipped models.

``python -m benchmarks.vision [--frames 500] [--seed 7]`` prints exact plays, card precision and
recall, phantom plays in empty areas, status accuracy and the time per frame (all four play areas,
onnxruntime on 2 threads, frame decoding excluded), and exact plays by frame size (the camera may be
1080p or 720p, CLOTH.md). Seats whose truth is "occluded" (an arm, or the screen as the camera sees it)
or "unreadable" count for the status figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import Counter

import cv2

from benchmarks.plays import PlayScore
from referee_station.deck.profile import reader_for
from referee_station.models.card import METRICS_JSON, write_card
from referee_station.render.artwork import HELDOUT_DESIGNS
from referee_station.render.render import render
from referee_station.render.scene import random_scene
from referee_station.vision.geometry import DRAW_ORDER


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--arms", type=float, default=0.08, help="chance of an arm over each seat's side")
    parser.add_argument(
        "--record", action="store_true", help="store the figures in referee_station/models/ and refresh MODEL_CARD.md"
    )
    parser.add_argument("--show-errors", type=int, default=10, help="print this many misread plays")
    args = parser.parse_args()
    cv2.setNumThreads(2)
    reader = reader_for(None)
    rng = random.Random(args.seed)
    score = PlayScore()
    by_size: dict[int, PlayScore] = {}
    status_ok, status_n = 0, 0
    confusion: Counter = Counter()
    times: list[float] = []
    shown = 0
    started = time.monotonic()
    for i in range(args.frames):
        scene = random_scene(rng, rng.choice(HELDOUT_DESIGNS), heldout_look=True, arms=args.arms)
        frame = render(scene)
        reading = reader.read(frame.image, frame.corners)
        size = by_size.setdefault(scene.camera.size[1], PlayScore())
        times.append(reading.total_ms)
        for seat in DRAW_ORDER:
            truth, got = frame.truth[seat], reading.seats[seat]
            status_n += 1
            status_ok += truth.status == got.status
            confusion[(truth.status, got.status)] += 1
            size.add(truth, got)
            if score.add(truth, got) is False and shown < args.show_errors:
                shown += 1
                want, read = " ".join(truth.cards), " ".join(got.cards)
                print(f"frame {i} {seat}: truth {want} | read {read} ({got.status})")
    times.sort()
    print(
        f"\n{args.frames} frames, design {', '.join(HELDOUT_DESIGNS)} (held out), seed {args.seed}, "
        f"{time.monotonic() - started:.0f} s in all"
    )
    rows = [
        ("exact plays (every card, in order)", f"{score.exact_share:.2%} ({score.exact}/{score.plays})", "≥ 99 %"),
        *(
            (f"exact plays, {h}p frames", f"{s.exact_share:.2%} ({s.exact}/{s.plays})", "")
            for h, s in sorted(by_size.items(), reverse=True)
        ),
        ("card precision", f"{score.precision:.2%} ({score.tp}/{score.n_pred})", "≥ 99.8 %"),
        ("card recall", f"{score.recall:.2%} ({score.tp}/{score.n_true})", "≥ 99.8 %"),
        ("phantom plays in empty areas", f"{score.phantom}/{score.empties}", "0"),
        (
            "wrong plays called readable (the rest: unreadable or occluded)",
            f"{score.taken_wrong}/{score.plays - score.exact}",
            "",
        ),
        ("seat status correct (empty/cards/unreadable/occluded)", f"{status_ok / status_n:.2%}", ""),
        ("time per frame, 4 play areas, median", f"{statistics.median(times):.1f} ms", "≤ 100 ms"),
        ("time per frame, p90", f"{times[int(0.9 * (len(times) - 1))]:.1f} ms", ""),
    ]
    print("| measure | value | target |\n|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if args.record:
        metrics = json.loads(METRICS_JSON.read_text()) if METRICS_JSON.exists() else {}
        load = round(os.getloadavg()[0], 1)  # the times depend on what else the two cores were doing
        metrics["benchmark"] = {"frames": args.frames, "seed": args.seed, "arms": args.arms, "rows": rows, "load": load}
        METRICS_JSON.write_text(json.dumps(metrics, indent=2, ensure_ascii=False) + "\n")
        write_card()
    print("\nstatus confusion (truth → read): " + ", ".join(f"{a}→{b} {n}" for (a, b), n in sorted(confusion.items())))


if __name__ == "__main__":
    main()
