"""A deal replayed step by step from the table's log, with the camera frame of each step (issue #29).

The steps are the deal's plays, passes, flags and rulings. The state after each one (cards left, the trick,
levels, the ladder) comes from feeding the table's logged inputs again to a fresh referee
(``log.replay.replay_states``): the log is the truth, not what the console drew at the time. The
frame of a step is the one the console stored for that input (``TableModel.frames``), or, for a
flag, the evidence frame that reached its alert later (the head console).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee_station.console.models.signal import Signal
from referee_station.console.models.table import TableModel
from referee_station.hall.evidence import jpeg_frame
from referee_station.log.jsonl import NumberedRecord
from referee_station.log.replay import replay_states
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import DealStart, Flag, Pass, PlayCards, Reverse, Ruling, Settle


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replayed deal: which input of the log it is and what it gave."""

    index: int
    """Place of the input in the table's log (``TableModel.inputs``)."""
    update: TableUpdate

    @property
    def flags(self) -> tuple[Flag, ...]:
        return tuple(o for o in self.update.outputs if isinstance(o, Flag))


STEP_INPUTS = (PlayCards, Pass, Ruling, Reverse, Settle)
"""Inputs that are a step of their own: plays and passes, and the rulings and corrections that move the ladder."""


def is_step(update: TableUpdate) -> bool:
    """A play, a pass, a ruling or correction, or an input that raised a flag: what a referee steps through."""
    return isinstance(update.event, STEP_INPUTS) or any(isinstance(o, Flag) for o in update.outputs)


class DealReplay:
    """The replay of one table's deals. ``load()`` replays the log as it stands; ``select_deal``,
    ``forward``, ``back`` and ``go`` move; ``state()`` and ``frame()`` are what the view shows.

    Signal: ``changed()`` after every move or load.
    """

    def __init__(self, table: TableModel, flag_frame: Callable[[int], Any] | None = None) -> None:
        self.table = table
        self.flag_frame = flag_frame or (lambda _flag: None)
        """The evidence frame of a flag by its id when the table model has none (the head's alerts)."""
        self.updates: list[TableUpdate] = []
        self.deals: dict[int, list[ReplayStep]] = {}
        self.deal: int | None = None
        self.position = 0
        self.changed = Signal()

    def load(self) -> None:
        """Replay the table's log from its first input; keeps the deal shown, else shows the last one."""
        inputs = [NumberedRecord(i, record) for i, (record, _who) in enumerate(self.table.inputs)]
        self.updates, self.deals = [], {}
        number = 0
        for replayed in replay_states(inputs):
            update = TableUpdate(
                self.table.table,
                replayed.record,
                replayed.outputs,
                replayed.snapshot,
                self.table.inputs[replayed.line][1],
            )
            self.updates.append(update)
            if isinstance(replayed.record, DealStart):
                deal = replayed.snapshot.deal
                number = deal.number if deal is not None else number + 1
                self.deals.setdefault(number, [])
            elif is_step(update) and number:
                self.deals[number].append(ReplayStep(replayed.line, update))
        if self.deal not in self.deals:
            self.deal = max(self.deals, default=None)
            self.position = 0
        self.position = min(self.position, max(len(self.steps) - 1, 0))
        self.changed.emit()

    @property
    def steps(self) -> list[ReplayStep]:
        return self.deals.get(self.deal, []) if self.deal is not None else []

    @property
    def step(self) -> ReplayStep | None:
        return self.steps[self.position] if self.steps else None

    def select_deal(self, number: int) -> None:
        if number not in self.deals:
            raise ValueError(f"{self.table.table} has no deal {number} in its log; it has {sorted(self.deals)}")
        self.deal, self.position = number, 0
        self.changed.emit()

    def go(self, position: int) -> None:
        """Show step ``position`` of the deal (clamped to its steps)."""
        self.position = max(0, min(position, len(self.steps) - 1))
        self.changed.emit()

    def forward(self) -> None:
        self.go(self.position + 1)

    def back(self) -> None:
        self.go(self.position - 1)

    def state(self) -> TableModel:
        """The table as it stood right after the step: every logged input up to it applied to a fresh model."""
        model = TableModel(self.table.table)
        step = self.step
        last = step.index if step is not None else -1
        for update in self.updates[: last + 1]:
            model.apply(update)
        model.sides = dict(self.table.sides)  # a head console may hold a log whose match line it never saw
        model.frame = self.frame()
        return model

    def frame(self) -> Any:
        """The camera frame stored for the step (RGB array), or ``None`` when none was stored."""
        step = self.step
        if step is None:
            return None
        jpeg = self.table.frames.get(step.index)
        if jpeg is not None:
            return jpeg_frame(jpeg)
        return next((f for f in (self.flag_frame(flag.id) for flag in step.flags) if f is not None), None)
