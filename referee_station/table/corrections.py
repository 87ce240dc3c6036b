"""Corrections by replay (#30): the log is the truth, the referee's state is what replaying it gives.

:class:`CorrectingReferee` is the table's referee as the station, the log and ``replay`` use it: a
:class:`~referee_station.table.doubt.Judge` (doubtful reads judged under every close reading) fed the
table's inputs, and the inputs themselves. A correction (``settle``: a play, tribute or return was
really these cards; ``reverse``: a ruling reversed with a reason) is logged like any input; the
referee then replays the corrected log from the start and compares what it gives with what it had
sent: an output that no longer holds is ``withdrawn`` (visibly, with the reason), one that now holds
is sent. Count-downs are moments past and are not re-sent. Replaying a log that holds corrections
gives the same outputs, withdrawals included, since this is the same machine fed the same lines.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from referee_station.core import PendingRead, TableState
from referee_station.rules import Card
from referee_station.table import details as D
from referee_station.table.config import RulesConfig
from referee_station.table.doubt import FlagIds, Judge, as_sure, same
from referee_station.table.events import (
    Countdown,
    Exchange,
    Flag,
    Output,
    Penalty,
    PlayCards,
    Record,
    Return,
    Reverse,
    Ruling,
    Settle,
    Tribute,
    Withdrawn,
)
from referee_station.table.referee import TableReferee

SAME_TIME = 1e-6
"""Seconds within which a ``settle``'s ``at`` names an event's ``t`` (both come from the same log)."""


class CorrectingReferee:
    """``feed(event) -> outputs`` like :class:`TableReferee`, with doubtful reads and corrections."""

    def __init__(self, config: RulesConfig | None = None, *, auto_confirm: bool = False) -> None:
        self.config = config
        self.auto_confirm = auto_confirm
        self.ids = FlagIds()
        self.judge = self._judge()
        self.log: list[Record] = []
        self.refused: dict[int, str] = {}
        """Log positions of corrections that name no event, with why: flagged, and skipped on replay."""
        self.standing: list[Output] = []
        """What replaying the corrected log gives: the outputs that hold now."""

    def _judge(self) -> Judge:
        return Judge(self.config, auto_confirm=self.auto_confirm, ids=self.ids)

    # -- the table referee's face -------------------------------------------------------------

    @property
    def main(self) -> TableReferee:
        return self.judge.main

    @property
    def now(self) -> float:
        return self.main.now

    @property
    def started(self) -> float | None:
        return self.main.started

    @property
    def match_over(self) -> bool:
        return self.main.match_over

    def snapshot(self) -> TableState:
        """The state under the pending plays' best readings, with the plays pending (their readings); the
        open flags are those sent (open in every world)."""
        out = self.main.snapshot()
        pending = tuple(
            PendingRead(p.flag, p.event.t, p.event.seat, _codes(p.event.cards), tuple(map(_codes, p.readings)))
            for p in self.judge.pending
        )
        if len(self.judge.worlds) > 1:
            out = replace(out, open_flags=tuple(self.judge.open_flags()))
        return replace(out, pending=pending)

    # -- the one way in -----------------------------------------------------------------------

    def feed(self, event: Record) -> list[Output]:
        position = len(self.log)
        self.log.append(event)
        if not isinstance(event, (Settle, Reverse)):
            outputs = self.judge.feed(event)
            self.standing += outputs
            return outputs
        problem = self._problem(event, self._corrected(position))
        if problem is not None:
            self.refused[position] = problem
            outputs = self.judge.note(event.t, "strange_event", getattr(event, "seat", None), problem, None)
            self.standing += outputs
            return outputs
        return self._replay(event)

    def _problem(self, event: Settle | Reverse, log: list[Record]) -> str | None:
        """Why a correction cannot be applied to the (already corrected) log before it, or None."""
        if isinstance(event, Reverse):
            if _ruling_of(log, event.flag) is None:
                return D.NO_RULING_TO_REVERSE(flag=event.flag)
            return None
        target = _target(log, event)
        if target is None:
            return D.NOTHING_TO_SETTLE(seat=event.seat, at=event.at)
        if not isinstance(target, PlayCards) and len(event.cards) != 1:
            return D.ONE_CARD(type=target.TYPE, cards=" ".join(_codes(event.cards)))
        return None

    def _corrected(self, end: int) -> list[Record]:
        """The log before position ``end`` as its corrections make it: each settled event holds the
        settled cards, each reversed ruling the other decision; corrections stay as markers."""
        out: list[Record] = []
        for position, event in enumerate(self.log[:end]):
            if isinstance(event, Settle) and position not in self.refused:
                target = _target(out, event)
                assert target is not None
                i = next(i for i in range(len(out) - 1, -1, -1) if out[i] is target)
                out[i] = as_sure(target, event.cards)
            elif isinstance(event, Reverse) and position not in self.refused:
                ruling = _ruling_of(out, event.flag)
                assert ruling is not None
                i = next(i for i in range(len(out) - 1, -1, -1) if out[i] is ruling)
                out[i] = replace(ruling, decision=ruling.decision.other)
            out.append(event)
        return out

    def _replay(self, correction: Settle | Reverse) -> list[Output]:
        """Replay the corrected log into fresh worlds; withdraw what no longer holds, send what now does."""
        judge = self._judge()
        standing: list[Output] = []
        for position, event in enumerate(self._corrected(len(self.log))):
            if isinstance(event, (Settle, Reverse)):
                if position in self.refused:
                    standing += judge.note(
                        event.t, "strange_event", getattr(event, "seat", None), self.refused[position], None
                    )
                continue
            standing += judge.feed(event)
        reason = _reason(correction)
        gone = _minus(self.standing, standing)
        new = _minus(standing, self.standing)
        outputs: list[Output] = [
            Withdrawn(t=correction.t, what=o.TYPE, reason=reason, record=o.to_json(), flag=_flag_of(o)) for o in gone
        ]
        outputs += new
        self.judge, self.standing = judge, standing
        return outputs


def _target(log: list[Record], settle: Settle) -> PlayCards | Tribute | Return | None:
    """The last play, tribute or return by the settle's seat at its ``at``."""
    for event in reversed(log):
        if (
            isinstance(event, (PlayCards, Exchange))
            and event.seat == settle.seat
            and abs(event.t - settle.at) <= SAME_TIME
        ):
            return event
    return None


def _ruling_of(log: list[Record], flag: int) -> Ruling | None:
    return next((e for e in reversed(log) if isinstance(e, Ruling) and e.flag == flag), None)


def _reason(correction: Settle | Reverse) -> str:
    if isinstance(correction, Reverse):
        return f"ruling on flag {correction.flag} reversed: {correction.reason}"
    why = f": {correction.reason}" if correction.reason else ""
    return f"{correction.seat}'s cards at t={correction.at:.3f} settled as {' '.join(_codes(correction.cards))}{why}"


def _codes(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """Cards as the snapshot and the texts name them (the console reads codes)."""
    return tuple(card.code for card in cards)


def _flag_of(output: Output) -> int | None:
    if isinstance(output, Flag):
        return output.id
    if isinstance(output, Penalty) and output.flags:
        return output.flags[0]
    return None


def _minus(these: list[Output], those: list[Output]) -> list[Output]:
    """The outputs of ``these`` (in order, count-downs left out) that ``those`` does not hold."""
    left = Counter(same(o) for o in those)
    out: list[Output] = []
    for output in these:
        if isinstance(output, Countdown):
            continue
        line = same(output)
        if left[line] > 0:
            left[line] -= 1
        else:
            out.append(output)
    return out
