"""Benchmark of the rules core (issue: foundation and rules core).

    python -m benchmarks.rules [--plays 100000] [--hands 1000] [--seed 1]

``classify`` on random plays of 1-10 cards with 0-2 wild cards (all interpretations, no cache;
target median <= 10 us) and ``legal_moves`` on random 27-card hands, with a random trick to beat
and with none (target median <= 2 ms). Seeded; prints medians and p99s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from referee_station.rules import DECK, RANKS, Card, classify, legal_moves

TWO_DECKS = [card for card in DECK for _ in range(2)]


def random_play(rnd: random.Random) -> tuple[list[Card], str]:
    level = rnd.choice(RANKS)
    wild = Card(level + "h")
    size = rnd.randint(1, 10)
    n_wild = rnd.randint(0, min(2, size))
    pool = [c for c in TWO_DECKS if c is not wild]
    cards = rnd.sample(pool, size - n_wild) + [wild] * n_wild
    rnd.shuffle(cards)
    return cards, level


def time_each(calls: list[tuple], fn) -> list[float]:
    times = []
    clock = time.perf_counter_ns
    for args in calls:
        start = clock()
        fn(*args)
        times.append((clock() - start) / 1000.0)
    return times


def report(name: str, times_us: list[float], target: str) -> None:
    times = sorted(times_us)
    p99 = times[int(len(times) * 0.99)]
    print(f"{name:<34} n={len(times):>7}  median {statistics.median(times):8.2f} us  p99 {p99:8.2f} us  ({target})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=100_000)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)

    plays = [random_play(rnd) for _ in range(args.plays)]
    report("classify, random 1-10 cards", time_each(plays, classify), "target median <= 10 us")
    patterned = [(cards, level) for cards, level in plays if classify(cards, level)]
    report("classify, only legal plays", time_each(patterned, classify), "for information")

    hands = []
    for _ in range(args.hands):
        level = rnd.choice(RANKS)
        deck = list(TWO_DECKS)
        rnd.shuffle(deck)
        hand, other = deck[:27], deck[27:54]
        prev_options = legal_moves(other, None, level)
        hands.append((hand, rnd.choice(prev_options), level))
    report(
        "legal_moves, lead (no trick)",
        time_each([(h, None, lv) for h, _, lv in hands], legal_moves),
        "target median <= 2000 us",
    )
    report("legal_moves, follow a random play", time_each(hands, legal_moves), "target median <= 2000 us")


if __name__ == "__main__":
    main()
