"""Camera benchmark: simulated matches rendered frame by frame and refereed by the camera pipeline.

``python -m benchmarks.camera [--seeds 12 8] [--reader truth|onnx] [--design D] [--deck F] [--fps 10] [--until S]``
simulates each seed's match (``referee_station.sim``; seeds 12 and 8 give 14 + 6 = 20 deals), renders it as
the overhead camera sees it (``referee_station.render.video``: hands reaching in, pauses, sweeps; markers;
1280×720, or ``--resolution WxH``), feeds every frame to ``CameraPipeline`` (calibrated from the markers in
the first frame) and compares its ``play`` and ``clear`` events with the simulation's. Frames go straight from
the renderer to the pipeline (no MP4 round trip: the end-to-end test covers that), so the timings are the
station's alone.

``--reader truth`` reads the cards from the simulation (a perfect reader, "occluded" under a hand): it
measures calibration, motion gating, tracking and timing apart from the card reader; ``--reader onnx`` uses
the shipped models, or with ``--deck FILE`` a registered deck profile. ``--design`` names the card artwork the
video shows (default the held-out ``tigullio``; ``drawn``, ``sans``: deck registration's test designs), so
``--design drawn --deck FILE`` measures a registered deck as the tracker hands its plays to the referee.
Prints plays exact (seat, cards, order), misread plays whose confidence the referee would take
(``RulesConfig.min_confidence``: a misread not flagged for a look), phantom plays, time error, clears, frames
per second and CPU per table (share of one core to keep up with a live camera at ``--fps``).

``--referee`` feeds the frames to a whole station instead (the match's other inputs from the simulation as a
real table has them, the deals without the dealt hands; the table's ``CorrectingReferee``) and prints the
false flags per match (``benchmarks.false_flags``: penalties the match did not contain, anomalies and how many
are grouped under a doubtful read), next to those of a referee that applies every read as a guess; ``--deals``
and ``--violations`` shape the simulated match (e.g. ``--reader onnx --design drawn --seeds 3 --deals 2
--violations 0.05 --referee``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time

from benchmarks.deck import DESIGNS
from referee_station.render.scene import Camera, row_step
from referee_station.render.video import DEFAULT_CAMERA, VideoRenderer, choreograph, truth_reading
from referee_station.sim.match import simulate
from referee_station.station.wiring import parse_resolution
from referee_station.table.config import RulesConfig
from referee_station.table.events import Clear, DealStart, Exchange, PlayCards, Record
from referee_station.vision.calibrate import from_markers
from referee_station.vision.layout import Layout
from referee_station.vision.pipeline import CameraPipeline

MATCH_WINDOW = 2.0
"""A camera play more than this far (s) from every simulated play of its seat is a phantom."""


def compare(truth: list[Record], got: list[Record], deals: list[float]) -> dict:
    """Match each simulated play to the seat's nearest unmatched camera play within ``MATCH_WINDOW``.

    A deal's last trick is not cleared in the simulated log: its cards are gathered with the rest when
    the next deal starts. The camera sees that as a clear; those are counted apart, not as phantoms."""
    plays = [e for e in truth if isinstance(e, PlayCards)]
    found = [e for e in got if isinstance(e, PlayCards)]
    used: set[int] = set()
    exact, errors, wrong, misread_sure = 0, [], [], 0
    for want in plays:
        best = None
        for i, e in enumerate(found):
            if i in used or e.seat != want.seat or abs(e.t - want.t) > MATCH_WINDOW:
                continue
            if best is None or abs(e.t - want.t) < abs(found[best].t - want.t):
                best = i
        if best is None:
            wrong.append({"missed": want.to_json()})
            continue
        used.add(best)
        errors.append(abs(found[best].t - want.t))
        if found[best].cards == want.cards:
            exact += 1
        else:
            wrong.append({"want": want.to_json(), "got": found[best].to_json()})
            confidence = found[best].confidence
            misread_sure += confidence is None or confidence >= RulesConfig().min_confidence
    clears = [e.t for e in truth if isinstance(e, Clear)]
    got_clears = [e.t for e in got if isinstance(e, Clear)]
    matched_clears = sum(1 for t in clears if any(abs(t - g) <= MATCH_WINDOW for g in got_clears))
    gathered = sum(1 for g in got_clears if any(abs(g - d) <= MATCH_WINDOW for d in deals))
    order = [(e.seat, e.cards) for e in plays] == [(e.seat, e.cards) for e in found]
    return {
        "plays": len(plays),
        "exact": exact,
        "misread_sure": misread_sure,
        "phantom": len(found) - len(used),
        "same_sequence": order,
        "time_errors": errors,
        "clears": len(clears),
        "clears_found": matched_clears,
        "clears_at_deal_start": gathered,
        "clears_phantom": len(got_clears) - matched_clears - gathered,
        "wrong": wrong[:10],
    }


def camera_of(resolution: str | None) -> Camera:
    """The benchmark's fixed camera at ``resolution`` (``WxH``; default 1280×720), the cloth spanning the
    same share of the frame: a deck that needs more detail than 720p gives is watched at 1080p or 4K."""
    size = parse_resolution(resolution)
    if size is None:
        return DEFAULT_CAMERA
    return dataclasses.replace(DEFAULT_CAMERA, size=size, span_px=DEFAULT_CAMERA.span_px * size[1] / 720)


def run_match(seed: int, args: argparse.Namespace) -> dict:
    sim = simulate(seed, deals=args.deals, violations=args.violations)
    events = [e for e in sim.events if args.until is None or e.t <= args.until]
    design = DESIGNS[args.design]() if args.design in DESIGNS else args.design
    choreo = choreograph(events, seed, row_step(design))
    renderer = VideoRenderer(choreo, design=design, camera=camera_of(args.resolution))
    frames = renderer.frames(args.fps)
    t, frame = next(frames)
    calib = from_markers(f"bench{seed}", frame, Layout.default())
    if args.reader == "onnx":
        from referee_station.deck.profile import DeckProfile, reader_for
        from referee_station.vision.reader import MODELS_DIR

        deck = DeckProfile.load(args.deck) if args.deck else None
        read = reader_for(deck, args.models or MODELS_DIR).read
    else:
        clock = {"t": 0.0}

        def read(frame, corners):
            return truth_reading(choreo, clock["t"])

    pipeline = CameraPipeline(calib, read)
    station = _station(pipeline, events) if args.referee else None
    fed: list = []
    got: list[Record] = []
    warnings: list[tuple[float, str]] = []
    cpu = wall = 0.0
    render_start = time.perf_counter()
    while True:
        if args.reader != "onnx":
            clock["t"] = t
        c0, w0 = time.process_time(), time.perf_counter()
        if station is not None:
            fed += station.frame(t, frame).fed
        else:
            seen = pipeline.process(t, frame)
            got += seen.events
            warnings += seen.warnings
        cpu += time.process_time() - c0
        wall += time.perf_counter() - w0
        try:
            t, frame = next(frames)
        except StopIteration:
            break
    if station is not None:
        fed += station.finish(t).fed + station.idle(t + 3600).fed
        got = [as_shown(f.event) for f in fed if f.source.value == "camera"]
    else:
        got += pipeline.finish()
    total = time.perf_counter() - render_start
    result = compare(choreo.truth, got, [e.t for e in events if isinstance(e, DealStart)])
    stats = pipeline.stats
    result |= {
        "seed": seed,
        "deals": sum(1 for e in events if e.to_json()["type"] == "deal"),
        "video_s": round(stats.frames / args.fps, 1),
        "frames": stats.frames,
        "reads": stats.reads,
        "pipeline_wall_s": wall,
        "pipeline_cpu_s": cpu,
        "render_s": round(total - wall, 1),
        "calibration_rms_cm": round(calib.rms_cm, 3),
        "markers_seen": len(calib.markers),
        "ms_per_frame": {k: round(v / max(1, stats.frames), 3) for k, v in stats.ms.items()},
        "warnings": warnings,
    }
    if station is not None:
        from benchmarks.false_flags import compare_referees

        result["flags"] = compare_referees(events, [f.event for f in fed], [o for f in fed for o in f.outputs])
        if args.events:
            _write_events(f"{args.events}.{seed}", events, [f.event for f in fed])
    return result


def as_shown(event: Record) -> Record:
    """A fed event as the video's truth records it: the station feeds a card shown in the tribute phase
    as a ``tribute`` or ``return`` (it knows the phase), the truth as the one-card play the camera sees."""
    if isinstance(event, Exchange):
        return PlayCards(event.t, event.seat, (event.card,))
    return event


def _write_events(stem: str, truth: list[Record], fed: list[Record]) -> None:
    """The match's true inputs and those the station fed its referee, one JSON line each: a repro of the
    refereed run that replays in seconds (``benchmarks.false_flags``), without rendering a frame."""
    for suffix, records in (("truth", truth), ("fed", fed)):
        with open(f"{stem}.{suffix}.jsonl", "w", encoding="utf-8") as f:
            f.writelines(r.to_line() + "\n" for r in records)


def _station(pipeline: CameraPipeline, events: list[Record]):
    """A station fed the camera and, from the simulated log, every input the camera does not report, as
    a real table has it (``besides_the_camera``: no dealt hands)."""
    from referee_station.station.orchestrator import Station
    from referee_station.table.corrections import CorrectingReferee
    from referee_station.vision.pipeline import besides_the_camera

    return Station(CorrectingReferee(), pipeline=pipeline, others=besides_the_camera(events))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[12, 8])
    parser.add_argument("--reader", choices=["truth", "onnx"], default="truth")
    parser.add_argument("--models", help="with --reader onnx: folder of the ONNX models (default: shipped)")
    parser.add_argument("--deck", help="with --reader onnx: read with this registered deck profile")
    parser.add_argument("--design", default="tigullio", help="the cards' artwork; drawn, sans: the deck test designs")
    parser.add_argument("--resolution", help="the camera's frame size, WxH (default 1280x720)")
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--until", type=float, help="only the first S seconds of each match")
    parser.add_argument("--json", help="also write every figure to this file")
    parser.add_argument("--deals", type=int, default=20, help="deals per simulated match (default 20)")
    parser.add_argument("--violations", type=float, default=0.0, help="injected violation rate (default 0)")
    parser.add_argument("--referee", action="store_true", help="referee the match: false flags per match")
    parser.add_argument("--events", help="with --referee: write STEM.SEED.truth.jsonl and STEM.SEED.fed.jsonl")
    args = parser.parse_args()
    results = [run_match(seed, args) for seed in args.seeds]
    errors = sorted(e for r in results for e in r["time_errors"])
    plays = sum(r["plays"] for r in results)
    exact = sum(r["exact"] for r in results)
    frames = sum(r["frames"] for r in results)
    wall = sum(r["pipeline_wall_s"] for r in results)
    cpu = sum(r["pipeline_cpu_s"] for r in results)
    video = sum(r["video_s"] for r in results)
    p95 = errors[min(len(errors) - 1, round(0.95 * (len(errors) - 1)))] if errors else float("nan")
    summary = {
        "reader": args.reader,
        "design": args.design,
        "deck": args.deck,
        "seeds": args.seeds,
        "deals": sum(r["deals"] for r in results),
        "video_minutes": round(video / 60, 1),
        "frames": frames,
        "plays": plays,
        "plays_exact_percent": round(100 * exact / plays, 2) if plays else None,
        "misread_at_referee_confidence": sum(r["misread_sure"] for r in results),
        "phantom_plays": sum(r["phantom"] for r in results),
        "same_sequence": all(r["same_sequence"] for r in results),
        "time_error_s": {
            "median": round(statistics.median(errors), 3) if errors else None,
            "p95": round(p95, 3),
            "max": round(errors[-1], 3) if errors else None,
        },
        "clears_found": f"{sum(r['clears_found'] for r in results)}/{sum(r['clears'] for r in results)}",
        "clears_at_deal_start": sum(r["clears_at_deal_start"] for r in results),
        "clears_phantom": sum(r["clears_phantom"] for r in results),
        "reads_per_frame": round(sum(r["reads"] for r in results) / frames, 4),
        "processing_fps": round(frames / wall, 1),
        "cpu_percent_of_one_core_at_fps": round(100 * cpu / video, 1),
        "ms_per_frame": results[0]["ms_per_frame"],
        "camera_moved_warnings": sum(len(r["warnings"]) for r in results),
        "wrong": [w for r in results for w in r["wrong"]][:10],
    }
    if args.referee:
        summary["flags_per_match"] = [{"seed": r["seed"], **r["flags"]} for r in results]
    print(json.dumps(summary, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"summary": summary, "matches": results}, f, indent=1)


if __name__ == "__main__":
    main()
