"""``referee-station render-video``: a simulated match log as overhead-camera video (the tracker's truth).

    referee-station simulate --seed 7 --deals 2 -o match.jsonl
    referee-station render-video match.jsonl -o match.mp4 --until 120

The video shows every play being laid (a hand reaching in, letting go at the play's ``t``, withdrawing),
tricks swept to the discard areas at each ``clear`` and the calibration markers; its frame ``i`` is at
``t = i / fps`` on the log's clock. ``--frames DIR`` writes numbered PNG frames instead of MP4. A
separate command (not ``simulate --video``) so that the simulator stays free of OpenCV.
"""

from __future__ import annotations

import argparse
import sys
from itertools import takewhile
from pathlib import Path

import cv2

from referee_station.log.jsonl import read_jsonl
from referee_station.render.scene import row_step
from referee_station.render.video import VideoRenderer, choreograph, write_video


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("render-video", help="render a simulated match log as overhead-camera video")
    parser.add_argument("log", help="a simulated log (JSON Lines, from `simulate`)")
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output", help="the MP4 file")
    out.add_argument("--frames", help="a folder for numbered PNG frames instead")
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--until", type=float, help="stop at this log time (s)")
    parser.add_argument("--seed", type=int, default=0, help="seeds where cards lie and how hands move")
    parser.add_argument("--design", default="tigullio", help="card artwork (referee_station.render.artwork)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    records, errors = read_jsonl(args.log)
    if errors:
        print(f"referee-station render-video: {errors[0]}", file=sys.stderr)
        return 2
    events = [r.record for r in records]
    if args.until is not None:
        events = list(takewhile(lambda e: e.t <= args.until, events))
    choreo = choreograph(events, args.seed, row_step(args.design))
    renderer = VideoRenderer(choreo, args.design)
    frames = renderer.frames(args.fps)
    if args.frames:
        folder = Path(args.frames)
        folder.mkdir(parents=True, exist_ok=True)
        n = 0
        for n, (_, frame) in enumerate(frames, 1):
            cv2.imwrite(str(folder / f"{n - 1:06d}.png"), frame)
    else:
        n = write_video(args.output, frames, args.fps, renderer.camera.size)
    plays = sum(1 for e in choreo.truth if e.to_json()["type"] == "play")
    print(f"rendered {n} frames ({n / args.fps:.1f} s, {len(choreo.stills)} stills, {plays} plays)", file=sys.stderr)
    return 0
