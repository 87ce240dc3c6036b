"""The one percentile the benchmarks report: the nearest-rank value (no interpolation, NaN when empty)."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")
