"""Station benchmark: frames per second of the whole station (``referee_station.station.Station``: zone
sampling, the shipped card reader, the tracker, the deal director, the referee) on a rendered match.

``python -m benchmarks.station [--seed 5] [--seconds 120] [--fps 5] [--design anglo]`` simulates the
match, renders ``--seconds`` of its first deal's play as the overhead camera sees it (1280×720, not
timed), then feeds the frames to one station as fast as it takes them, with the match set up as a
referee would. Prints frames per second (target ≥ 10 on two cores), the per-stage milliseconds, how
many frames were read, and the frame rate if every frame were read with four rows on the table: as
the station reads them (``CardReader.reuse_still``: the frames with four rows read in their order, so
an area that lies still keeps its reading), and with every area read afresh (all four changing at
once, which play never does: one seat acts at a time).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import time

from referee_station.deck.profile import reader_for
from referee_station.render.scene import row_step
from referee_station.render.video import VideoRenderer, choreograph
from referee_station.sim.match import simulate
from referee_station.station.orchestrator import Station
from referee_station.station.setup import MatchSetup
from referee_station.table.events import DealStart, MatchStart
from referee_station.table.referee import TableReferee
from referee_station.vision.calibrate import from_markers
from referee_station.vision.layout import Layout
from referee_station.vision.pipeline import CameraPipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=120.0, help="seconds of play rendered (default 120)")
    parser.add_argument("--fps", type=float, default=5.0)
    parser.add_argument("--design", default="anglo")
    args = parser.parse_args()
    events = simulate(args.seed, deals=1, violations=0.0).events
    match = next(e for e in events if isinstance(e, MatchStart))
    deal = next(e for e in events if isinstance(e, DealStart))
    renderer = VideoRenderer(choreograph(events, args.seed, row_step(args.design)), design=args.design)
    frames = [(t, f) for t, f in renderer.frames(args.fps) if deal.t <= t <= deal.t + args.seconds]
    reader = reader_for(None)
    reader.reuse_still = True  # as the station's wiring sets it
    calibration = from_markers("B1", frames[0][1], Layout.default())
    pipeline = CameraPipeline(calibration, reader.read)
    setup = MatchSetup(dict(match.sides), deal.first_leader or "E", dict(match.rules or {}))
    station = Station(TableReferee(), pipeline=pipeline, setup=setup, infer_passes=True)
    load = os.getloadavg()
    cpu, wall = time.process_time(), time.perf_counter()
    fed = 0
    for t, image in frames:
        fed += len(station.frame(t, image).fed)
    fed += len(station.finish(frames[-1][0]).fed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    stats = pipeline.stats
    choreo = renderer.choreo

    def rows(t: float) -> int:
        still = choreo.stills[max(0, bisect.bisect_right(choreo.still_times, t) - 1)]
        return sum(bool(seat.play) for seat in still.seats.values())

    busiest = max(frames, key=lambda f: rows(f[0]))
    four_rows = [image for t, image in frames if rows(t) == rows(busiest[0])]
    start = time.perf_counter()
    for image in four_rows:
        reader.read(image, calibration.corners)
    still_ms = (time.perf_counter() - start) * 1000 / len(four_rows)
    reader.reuse_still = False
    start = time.perf_counter()
    for _ in range(10):
        reader.read(busiest[1], calibration.corners)
    read_ms = (time.perf_counter() - start) * 100
    per_frame = {k: round(v / stats.frames, 2) for k, v in stats.ms.items()}
    rest_ms = per_frame["sample"] + per_frame["track"]
    print(json.dumps({
        "frames": stats.frames, "video_s": round(stats.frames / args.fps, 1), "events_fed": fed,
        "reads": stats.reads, "fps": round(stats.frames / wall, 1), "cpu_percent": round(100 * cpu / wall, 1),
        "ms_per_frame": per_frame,
        "rows_in_busiest_frame": rows(busiest[0]), "frames_with_that_many_rows": len(four_rows),
        "read_four_rows_as_played_ms": round(still_ms, 1),
        "fps_if_every_frame_read_as_played": round(1000 / (rest_ms + still_ms), 1),
        "read_four_areas_afresh_ms": round(read_ms, 1),
        "fps_if_every_frame_read_afresh": round(1000 / (rest_ms + read_ms), 1),
        "load_average_before": [round(x, 2) for x in load],
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
