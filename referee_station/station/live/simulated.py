"""Simulated tables for the demo: each table plays its own seeded match from
``referee_station.sim`` (bots on ``legal_moves``, human timings, injected violations with their
ground truth), so the demo and its end-to-end test know what the referee should have flagged."""

from __future__ import annotations

from dataclasses import dataclass

from referee_station.sim.match import simulate
from referee_station.sim.violations import Injected
from referee_station.table.events import Record


@dataclass(frozen=True)
class SimulatedTable:
    """A table's input events and the violations injected into them."""

    name: str
    events: list[Record]
    truth: list[Injected]


def simulated_tables(count: int, seed: int, deals: int, violations: float) -> list[SimulatedTable]:
    """``count`` tables named T1…; table i plays seed ``seed + i`` (different deals at each table)."""
    tables = []
    for i in range(count):
        result = simulate(seed + i, deals=deals, violations=violations)
        tables.append(SimulatedTable(f"T{i + 1}", result.events, result.truth))
    return tables
