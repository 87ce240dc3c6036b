"""False flags of a refereed camera match (#30): the referee's flags next to those of the match read
correctly. ``benchmarks.camera --referee`` feeds the camera's events (and the match's other inputs)
through a station; this counts what the referee said that the match did not contain, with doubtful reads
held pending (``CorrectingReferee``) and, beside it, as a referee that applies every read as a guess would
(``TableReferee`` fed the same inputs).

``python -m benchmarks.false_flags STEM...`` replays the inputs a refereed camera run wrote
(``benchmarks.camera --referee --events STEM``: ``STEM.SEED.truth.jsonl`` and ``STEM.SEED.fed.jsonl``)
through a fresh ``CorrectingReferee`` in a second, without rendering a frame: the repro of a traced
false flag."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Flag, Output, Record, parse_line
from referee_station.table.referee import TableReferee

SAME_FLAG_S = 3.0
"""A flag within this many seconds of a true flag of the same offence and seat is that flag."""


def flags_of(inputs: Sequence[Record]) -> list[Flag]:
    referee = TableReferee()
    return [o for e in inputs for o in referee.feed(e) if isinstance(o, Flag)]


def false_flags(truth: Sequence[Flag], said: Sequence[Flag]) -> dict[str, object]:
    """Penalties proposed that the match did not contain, true ones found, and the anomalies (grouped:
    under a doubtful read's ``uncertain_read``)."""
    real = [f for f in truth if f.penalty != "anomaly"]
    used: set[int] = set()
    false: list[Flag] = []
    for flag in (f for f in said if f.penalty != "anomaly"):
        match = next(
            (
                i
                for i, f in enumerate(real)
                if i not in used
                and f.offence == flag.offence
                and f.seat == flag.seat
                and abs(f.t - flag.t) <= SAME_FLAG_S
            ),
            None,
        )
        if match is None:
            false.append(flag)
        else:
            used.add(match)
    anomalies = [f for f in said if f.penalty == "anomaly"]
    return {
        "true_penalties": len(real),
        "true_found": len(used),
        "false_penalties": len(false),
        "false_examples": [f"{f.t:.1f} {f.seat} {f.offence}: {f.detail[:90]}" for f in false[:6]],
        "anomalies": len(anomalies),
        "anomalies_grouped": sum(1 for f in anomalies if f.cause is not None),
        "uncertain_read": sum(1 for f in anomalies if f.offence == "uncertain_read"),
        "strange_event": sum(1 for f in anomalies if f.offence == "strange_event"),
    }


def compare_referees(truth_inputs: Sequence[Record], fed: Sequence[Record], outputs: Sequence[Output]) -> dict:
    """The station's flags (held doubts) and a guessing referee's on the same inputs, against the truth."""
    truth = flags_of(truth_inputs)
    held = [o for o in outputs if isinstance(o, Flag)]
    return {"held": false_flags(truth, held), "guessed": false_flags(truth, flags_of(fed))}


def _records(path: Path) -> list[Record]:
    return [parse_line(line) for line in path.read_text(encoding="utf-8").splitlines()]


def replay(stem: str) -> dict:
    """The false flags of one written run, its camera's inputs fed again to the correcting referee."""
    truth, fed = (_records(Path(f"{stem}.{part}.jsonl")) for part in ("truth", "fed"))
    referee = CorrectingReferee()
    return compare_referees(truth, fed, [o for event in fed for o in referee.feed(event)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stems", nargs="+", help="STEM.SEED as written by benchmarks.camera --events STEM")
    args = parser.parse_args()
    print(json.dumps({stem: replay(stem) for stem in args.stems}, indent=1))


if __name__ == "__main__":
    main()
