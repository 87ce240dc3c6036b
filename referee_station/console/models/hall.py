"""The hall grid: one tile per table, the worst first, filterable by state or name.

A tile's state says what the referee should look at: 离线 (the station disconnected, a unit is
down or the table is silent), 犯规 / 违例 / 警告 (the most severe flag still waiting for a ruling, RULES.md section 9),
读秒 (the seat to act is in its grace count-down, R-TIME-3), else 正常. A table whose match
is over is never silent-offline: it has nothing more to say.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_station.console.models.signal import Signal
from referee_station.console.models.table import TableModel
from referee_station.core import Health

STATES = ("normal", "countdown", "warning", "infraction", "foul", "offline")
"""Tile states, least severe first (正常 / 读秒 / 警告 / 违例 / 犯规 / 离线)."""
PENALTY_STATE = {
    "warning": "warning",
    "anomaly": "warning",
    "infraction": "infraction",
    "foul": "foul",
    "match_loss": "foul",
    "disqualification": "foul",
}
OFFLINE_AFTER = 5.0
"""Wall seconds without any event (the timer ticks every second) before a table shows 离线."""


@dataclass(frozen=True)
class Tile:
    """What one hall tile shows."""

    table: str
    state: str
    to_act: str | None
    action: str | None
    remaining: float | None
    """Seconds left on the clock of the seat to act; negative in the 读秒 grace."""
    levels: dict[str, str]
    deal: int
    health: Health
    age: float | None
    """Wall seconds since the table's last event."""
    winner: str | None = None
    """``EW`` / ``NS`` / ``draw`` once the match is over (R-MATCH-1/2), so its tile shows the result."""
    paused: bool = False
    """The referee paused the table's clocks."""

    @property
    def severity(self) -> int:
        return STATES.index(self.state)


def tile_of(model: TableModel, wall_now: float) -> Tile:
    """The tile of one table at wall time ``wall_now`` (``time.monotonic()``)."""
    age = None if model.last_wall is None else max(0.0, wall_now - model.last_wall)
    clock = model.clock()
    state = "normal"
    if clock is not None and clock[2] < 0:
        state = "countdown"
    for flag in model.open_flags():
        candidate = PENALTY_STATE.get(flag.penalty, "warning")
        if STATES.index(candidate) > STATES.index(state):
            state = candidate
    silent = age is not None and age > OFFLINE_AFTER and model.match_end is None  # a finished match is quiet
    if not model.online or not model.health.all_ok or silent:
        state = "offline"
    return Tile(
        table=model.table,
        state=state,
        to_act=clock[0] if clock else model.to_act,
        action=clock[1] if clock else None,
        remaining=clock[2] if clock else None,
        levels=dict(model.levels),
        deal=0 if model.deal is None else model.deal.number,
        health=model.health,
        age=age,
        winner=None if model.match_end is None else model.match_end.winner,
        paused=model.paused_at is not None,
    )


class HallModel:
    """All tables of the hall. Signal: ``table_added(name)`` (tiles are redrawn on a timer)."""

    def __init__(self) -> None:
        self.tables: dict[str, TableModel] = {}
        self.table_added = Signal()

    def add(self, model: TableModel) -> None:
        self.tables[model.table] = model
        self.table_added.emit(model.table)

    def tiles(self, wall_now: float, states: frozenset[str] | None = None, text: str = "") -> list[Tile]:
        """Tiles sorted most severe first (then by name), keeping only ``states`` and names
        containing ``text`` when given."""
        tiles = [tile_of(m, wall_now) for m in self.tables.values() if text.lower() in m.table.lower()]
        if states:
            tiles = [t for t in tiles if t.state in states]
        return sorted(tiles, key=lambda t: (-t.severity, t.table))
