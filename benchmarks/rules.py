"""Benchmark of the rules core on plays as the referee receives them (issue #27).

    python -m benchmarks.rules [--plays 20000] [--hands 1000] [--seed 1] [--repeat 1]

``classify`` (every interpretation, no cache) timed from the play's text, ``"5s 5c 6s 6c 7h 7h"``,
on seeded plays of 1-10 cards from two decks (each card at most twice): 60 % legal, a third with
one or two wild cards; the shares actually drawn are printed. Targets: median <= 10 us, p99 <= 40 us.
``legal_moves`` on seeded 27-card hands, leading (target median <= 500 us) and following a random
play another hand can make (target median <= 150 us). Prints medians and p99s; ``--repeat 3``
keeps the best of three timings of each call, for a machine that other work keeps busy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from referee_station.rules import DECK, RANKS, Card, Kind, classify, legal_moves

TWO_DECKS = [card for card in DECK for _ in range(2)]
LEGAL_SHARE = 0.6
WILD_SHARE = 1 / 3

Sample = tuple[str, str]
"""A play's text (codes left to right, as laid) and the level it is read at."""


def _random_cards(rnd: random.Random, level: str, size: int, n_wild: int) -> list[Card]:
    """``size`` cards from two decks, ``n_wild`` of them the ♥ level card."""
    wild = Card(level + "h")
    pool = [c for c in TWO_DECKS if c is not wild]
    return rnd.sample(pool, size - n_wild) + [wild] * n_wild


def _pattern_cards(rnd: random.Random, level: str, n_wild: int) -> list[Card]:
    """Cards laid out as one random pattern of R-PAT-1..10, then up to ``n_wild`` of its
    non-joker cards replaced by the ♥ level card (which can stand for them, R-WILD-1)."""
    kind = rnd.choice(list(Kind))
    ranks = RANKS
    suits = "shdc"

    def some(rank: str, n: int) -> list[Card]:
        faces = [Card(rank + s) for s in suits for _ in range(2)]
        return rnd.sample(faces, n)

    if kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE):
        rank = rnd.choice(ranks)
        cards = some(rank, {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIPLE: 3}[kind])
    elif kind == Kind.BOMB:
        cards = some(rnd.choice(ranks), rnd.randint(4, 8))
    elif kind == Kind.JOKER_BOMB:
        cards = [Card("SJ"), Card("SJ"), Card("BJ"), Card("BJ")]
    elif kind == Kind.FULL_HOUSE:
        triple, pair = rnd.sample(ranks, 2)
        cards = some(triple, 3) + some(pair, 2)
    else:
        width, per_rank = {Kind.TUBE: (3, 2), Kind.PLATE: (2, 3), Kind.STRAIGHT: (5, 1), Kind.STRAIGHT_FLUSH: (5, 1)}[
            kind
        ]
        run = ("A", *ranks)  # A low or high (R-WILD-2)
        start = rnd.randint(0, len(run) - width)
        suit = rnd.choice(suits)
        cards = []
        for rank in run[start : start + width]:
            cards += [Card(rank + suit)] if kind == Kind.STRAIGHT_FLUSH else some(rank, per_rank)
    wild = Card(level + "h")
    replaceable = [i for i, c in enumerate(cards) if not c.is_joker]
    for i in rnd.sample(replaceable, min(n_wild, len(replaceable))):
        cards[i] = wild
    return cards


def sample_plays(rnd: random.Random, n: int) -> list[Sample]:
    """``n`` plays filling fixed quotas of (legal, with wild cards); seeded, so always the same."""
    quota = {
        (True, True): round(n * LEGAL_SHARE * WILD_SHARE),
        (True, False): round(n * LEGAL_SHARE * (1 - WILD_SHARE)),
        (False, True): round(n * (1 - LEGAL_SHARE) * WILD_SHARE),
    }
    quota[(False, False)] = n - sum(quota.values())
    plays: list[Sample] = []
    while len(plays) < n:
        level = rnd.choice(RANKS)
        n_wild = rnd.choice((1, 2)) if rnd.random() < 0.5 else 0
        if rnd.random() < 0.5:
            cards = _pattern_cards(rnd, level, n_wild)
        else:
            size = rnd.randint(1, 10)
            cards = _random_cards(rnd, level, size, min(n_wild, size))
        if sum(c.is_wild(level) for c in cards) > 2 or any(cards.count(c) > 2 for c in cards):
            continue
        rnd.shuffle(cards)
        key = (bool(classify(cards, level)), any(c.is_wild(level) for c in cards))
        if quota[key] > 0:
            quota[key] -= 1
            plays.append((" ".join(c.code for c in cards), level))
    rnd.shuffle(plays)
    return plays


def time_each(calls: list[tuple[Any, ...]], fn: Callable[..., object], repeat: int = 1) -> list[float]:
    """Microseconds per call, one clock reading around each call; the best of ``repeat``."""
    times = []
    clock = time.perf_counter_ns
    for args in calls:
        best = float("inf")
        for _ in range(repeat):
            start = clock()
            fn(*args)
            best = min(best, clock() - start)
        times.append(best / 1000.0)
    return times


def report(name: str, times_us: list[float], target: str) -> None:
    times = sorted(times_us)
    p99 = times[int(len(times) * 0.99)]
    print(f"{name:<38} n={len(times):>6}  median {statistics.median(times):8.2f} us  p99 {p99:8.2f} us  ({target})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=20_000)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="time each call this often, keep the best")
    args = parser.parse_args()
    rnd = random.Random(args.seed)

    plays = sample_plays(rnd, args.plays)
    legal = sum(bool(classify(text, level)) for text, level in plays)
    wild = sum(any(Card(code).is_wild(level) for code in text.split()) for text, level in plays)
    print(f"plays: {len(plays)}, legal {legal / len(plays):.1%}, with wild cards {wild / len(plays):.1%}")
    report("classify, from text", time_each(plays, classify, args.repeat), "target median <= 10 us, p99 <= 40 us")
    codes = [(tuple(text.split()), level) for text, level in plays]
    report("classify, from a tuple of codes", time_each(codes, classify, args.repeat), "for information")

    hands = []
    for _ in range(args.hands):
        level = rnd.choice(RANKS)
        deck = list(TWO_DECKS)
        rnd.shuffle(deck)
        hand, other = tuple(c.code for c in deck[:27]), deck[27:54]
        prev_options = legal_moves(other, None, level)
        hands.append((hand, rnd.choice(prev_options), level))
    report(
        "legal_moves, lead (no trick)",
        time_each([(h, None, lv) for h, _, lv in hands], legal_moves, args.repeat),
        "target median <= 500 us",
    )
    report("legal_moves, follow a random play", time_each(hands, legal_moves, args.repeat), "target median <= 150 us")


if __name__ == "__main__":
    main()
