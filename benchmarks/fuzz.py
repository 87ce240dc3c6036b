"""The two fuzzers of issue 25 at length: log lines (EVENTS.md) and hall envelopes.

    python -m benchmarks.fuzz [--lines 200000] [--files 500] [--envelopes 200000] [--hypothesis 2000] [--seed 1]

Runs the checks of ``tests/fuzzing.py`` (what CI runs with a few hundred hypothesis examples) on
many more inputs: seeded random mutations of a simulated match's records (``--lines`` single
lines, ``--files`` whole logs with broken lines replayed through a referee, ``--envelopes`` hall
messages), then hypothesis's own search (``--hypothesis`` examples per strategy). Prints, per
fuzzer, how many inputs were read or refused and how many broke a check, with the first input of
each kind of failure; exit status 1 when any did.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings

from tests.fuzzing import (
    check_envelope,
    check_log_file,
    check_log_line,
    envelope_payloads,
    log_lines,
    random_envelope,
    random_log_file,
    random_log_line,
)


class Tally:
    """Verdicts and failures of one fuzzer; the first input of each kind of failure is kept."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.verdicts: Counter[str] = Counter()
        self.failures: dict[str, Any] = {}
        self.failed = 0
        self.started = time.perf_counter()

    def run(self, check: Callable[[Any], Any], item: Any) -> None:
        try:
            self.verdicts[str(check(item))] += 1
        except Exception as err:
            self.failed += 1
            kind = f"{type(err).__name__}: {str(err)[:120]}"
            if kind not in self.failures:
                self.failures[kind] = (item, traceback.format_exc(limit=-3))

    def report(self) -> None:
        seconds = time.perf_counter() - self.started
        total = sum(self.verdicts.values()) + self.failed
        verdicts = ", ".join(f"{name} {count}" for name, count in sorted(self.verdicts.items()))
        print(f"{self.name:<22} {total:>8} inputs  {total / seconds:>8.0f}/s  {verdicts}  failures {self.failed}")
        for kind, (item, trace) in self.failures.items():
            print(f"  FAILED {kind}\n  input {item!r:.300}\n{trace}")


def seeded(
    name: str, count: int, make: Callable[[random.Random], Any], check: Callable[[Any], Any], seed: int
) -> Tally:
    rng = random.Random(seed)
    tally = Tally(name)
    for _ in range(count):
        tally.run(check, make(rng))
    tally.report()
    return tally


def searched(name: str, count: int, strategy: Any, check: Callable[[Any], Any]) -> Tally:
    """Hypothesis's search with ``count`` examples; every example is tallied, the search is not stopped."""
    tally = Tally(name)

    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def search(item: Any) -> None:
        tally.run(check, item)

    search()
    tally.report()
    return tally


def replayed(lines: list[str]) -> str:
    check_log_file(lines)
    return "replayed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=200_000, help="random log lines")
    parser.add_argument("--files", type=int, default=500, help="random logs with broken lines, replayed")
    parser.add_argument("--envelopes", type=int, default=200_000, help="random hall messages")
    parser.add_argument("--hypothesis", type=int, default=2_000, help="hypothesis examples per strategy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tallies = [
        seeded("log lines (random)", args.lines, random_log_line, check_log_line, args.seed),
        seeded("log files (random)", args.files, lambda rng: random_log_file(rng, rng.choice([1, 5, 20, 100])),
               replayed, args.seed),
        seeded("envelopes (random)", args.envelopes, random_envelope, check_envelope, args.seed),
        searched("log lines (hypothesis)", args.hypothesis, log_lines(), check_log_line),
        searched("envelopes (hypothesis)", args.hypothesis, envelope_payloads(), check_envelope),
    ]  # fmt: skip
    sys.exit(1 if any(tally.failed for tally in tallies) else 0)


if __name__ == "__main__":
    main()
