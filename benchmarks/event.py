"""Benchmark of the event core (issue 28): the Swiss pairing and the standings of a large event.

    python -m benchmarks.event [--pairs 24,48,96,200] [--rounds 7] [--seed 1]

For each field size: an event of ``--rounds`` Swiss rounds of seeded synthetic results, timing
each round's pairing (the minimum-cost matching) and the standings after it, and the whole event
replayed from its journal. Target: a 200-pair round paired in under 10 s, so the head referee
waits less than a round's break (seed 000: at least 30 minutes between rounds). Seeded; prints
the figures.
"""

from __future__ import annotations

import argparse
import random
import time

from referee_station.event.actions import (
    Created,
    PairsImported,
    ResultConfirmed,
    ResultReported,
    RoundPaired,
)
from referee_station.event.model import EventState
from referee_station.event.pairs import Pair
from referee_station.event.planner import next_pairing
from referee_station.event.rules import EventRules
from referee_station.event.standings import standings


def run_event(n: int, rounds: int, seed: int) -> tuple[list[float], list[float], float, int]:
    """Pairing seconds per round, standings seconds per round, replay seconds, rematches."""
    rng = random.Random(seed)
    state = EventState()
    state.apply(Created(name=f"bench {n}", seed=seed, rules=EventRules(rounds=rounds)))
    state.apply(PairsImported(pairs=tuple(Pair(i, (f"a{i}", f"b{i}")) for i in range(1, n + 1))))
    pair_s, rank_s, rematches = [], [], 0
    for round_no in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = next_pairing(state)
        pair_s.append(time.perf_counter() - start)
        rematches += len(pairing.rematches)
        state.apply(RoundPaired(pairing=pairing))
        for table in pairing.tables:
            low, high = sorted((rng.randint(0, 13), rng.randint(0, 13)))
            winner = "draw" if low == high else rng.choice(("EW", "NS"))
            loser = "NS" if winner == "EW" else "EW"
            gained = {"EW": low, "NS": low} if winner == "draw" else {winner: high, loser: low}
            state.apply(ResultReported(round=round_no, table=table.number, winner=winner, gained=gained))
            for side in ("EW", "NS"):
                state.apply(ResultConfirmed(round=round_no, table=table.number, side=side))
        start = time.perf_counter()
        standings(state)
        rank_s.append(time.perf_counter() - start)
    start = time.perf_counter()
    EventState.replay(state.journal)
    return pair_s, rank_s, time.perf_counter() - start, rematches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="24,48,96,200", help="field sizes, comma separated")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("pairs  rounds  pairing s (max of rounds 2…)  standings s (max)  replay s  rematches")
    for n in (int(v) for v in args.pairs.split(",")):
        pair_s, rank_s, replay_s, rematches = run_event(n, args.rounds, args.seed)
        swiss = max(pair_s[1:], default=0.0)
        print(f"{n:5d}  {args.rounds:6d}  {swiss:27.3f}  {max(rank_s):17.4f}  {replay_s:8.3f}  {rematches:9d}")


if __name__ == "__main__":
    main()
