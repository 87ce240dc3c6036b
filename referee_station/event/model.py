"""The event as its journal makes it: replaying the same actions gives the same state.

Invariants: a result counts only once both sides confirmed it, or the head referee corrected it,
or it is a forfeit or a bye; a confirmed result changes only by a correction with a reason; a
round is paired only when every earlier round is complete; pairings, once published, stay."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee_station.event.actions import (
    Action,
    Created,
    Forfeited,
    PairsImported,
    ResultConfirmed,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    RoundStarted,
    TimeCalled,
)
from referee_station.event.pairing import Pairing, Table
from referee_station.event.pairs import Pair
from referee_station.event.rules import EventRules, System
from referee_station.event.scoring import Outcome, RoundScore, match_scores
from referee_station.hall.clock import RoundClock
from referee_station.table.events import OTHER_SIDE, SIDES


class EventActionError(ValueError):
    """An action the event refuses in its present state (the message says what and why);
    nothing is recorded."""


@dataclass
class TableResult:
    """What is known of one table's match in one round."""

    table: Table
    reported: ResultReported | None = None
    confirmed: set[str] = field(default_factory=set)
    corrected: ResultCorrected | None = None
    forfeit: Forfeited | None = None

    @property
    def counts(self) -> bool:
        return (
            self.forfeit is not None
            or self.corrected is not None
            or (self.reported is not None and self.confirmed >= set(SIDES))
        )

    @property
    def status(self) -> str:
        if self.forfeit is not None:
            return "forfeit"
        if self.corrected is not None:
            return "corrected"
        if self.reported is None:
            return "playing"
        if self.counts:
            return "confirmed"
        return "awaiting " + " and ".join(s for s in SIDES if s not in self.confirmed)

    def winner(self) -> str | None:
        """The winning pair's side, ``draw``, or ``None`` while nothing counts."""
        if self.forfeit is not None:
            return "NS" if self.forfeit.pair == self.table.ew else "EW"
        final = self.corrected or (self.reported if self.counts else None)
        return final.winner if final is not None else None


@dataclass
class RoundState:
    pairing: Pairing
    results: dict[int, TableResult]
    clock: RoundClock | None = None

    @property
    def complete(self) -> bool:
        return all(r.counts for r in self.results.values())


class EventState:
    """Folds journal actions; :meth:`apply` raises :class:`EventActionError` and changes nothing
    when an action does not fit."""

    def __init__(self) -> None:
        self.created: Created | None = None
        self.pairs: dict[int, Pair] = {}
        self.sign_in: list[int] = []
        self.rounds: list[RoundState] = []
        self.journal: list[Action] = []

    @classmethod
    def replay(cls, actions: list[Action]) -> EventState:
        state = cls()
        for action in actions:
            state.apply(action)
        return state

    @property
    def rules(self) -> EventRules:
        return self.created.rules if self.created else EventRules()

    def rng(self, purpose: str) -> random.Random:
        """A generator seeded by the event's seed and what it is for (the draw, the lot)."""
        return random.Random(f"{self.created.seed if self.created else 0}/{purpose}")

    def round(self, number: int) -> RoundState:
        if not 1 <= number <= len(self.rounds):
            raise EventActionError(f"round {number} is not paired yet; paired rounds: 1…{len(self.rounds)}")
        return self.rounds[number - 1]

    def table(self, round_no: int, table: int) -> TableResult:
        rs = self.round(round_no)
        if table not in rs.results:
            raise EventActionError(f"round {round_no} has no table {table}; tables 1…{len(rs.results)}")
        return rs.results[table]

    def require_complete(self) -> None:
        """Raise unless the last paired round has a counted result at every table."""
        if self.rounds and not self.rounds[-1].complete:
            last = self.rounds[-1]
            tables = ", ".join(f"table {n}" for n, r in last.results.items() if not r.counts)
            raise EventActionError(f"round {last.pairing.round} is not complete: no counted result at {tables}")

    # -- applying actions ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        handler = getattr(self, "_on_" + action.KIND)
        if self.created is None and not isinstance(action, Created):
            raise EventActionError("the event has not been created (event new)")
        handler(action)
        self.journal.append(action)

    def _on_created(self, a: Created) -> None:
        if self.created is not None:
            raise EventActionError(f"the event {self.created.name!r} already exists")
        self.created = a

    def _on_pairs_imported(self, a: PairsImported) -> None:
        if self.rounds:
            raise EventActionError("pairs cannot change once round 1 is paired")
        numbers = [p.number for p in a.pairs]
        if len(set(numbers)) != len(numbers) or len(numbers) < 2:
            raise EventActionError(f"pairs: need at least 2 pairs with distinct numbers, got {numbers}")
        self.pairs = {p.number: p for p in a.pairs}
        self.sign_in = numbers

    def _on_round_paired(self, a: RoundPaired) -> None:
        p = a.pairing
        if p.round != len(self.rounds) + 1:
            raise EventActionError(f"round {p.round} cannot be paired now; the next round is {len(self.rounds) + 1}")
        if p.round > self.rules.rounds and self.rules.system == System.SWISS:
            raise EventActionError(f"the event has {self.rules.rounds} rounds (seed 003: four)")
        self.require_complete()
        seen = [x for t in p.tables for x in t.pairs] + ([p.bye] if p.bye is not None else [])
        unknown = [x for x in seen if x not in self.pairs]
        if unknown or len(set(seen)) != len(seen):
            raise EventActionError(f"round {p.round}: pairing names unknown or repeated pairs {unknown or seen}")
        self.rounds.append(RoundState(p, {t.number: TableResult(t) for t in p.tables}))

    def _on_round_started(self, a: RoundStarted) -> None:
        rs = self.round(a.round)
        if rs.clock is not None:
            raise EventActionError(f"round {a.round} started already at {rs.clock.start:g}")
        rs.clock = RoundClock(a.at, self.rules.round_minutes * 60)

    def _on_time_called(self, a: TimeCalled) -> None:
        rs = self.round(a.round)
        if rs.clock is None:
            raise EventActionError(f"round {a.round} has not started; time cannot be called (R-MATCH-1)")
        if rs.clock.called is not None:
            raise EventActionError(f"time was already called in round {a.round} at {rs.clock.called:g}")
        rs.clock = RoundClock(rs.clock.start, rs.clock.limit_s, a.at)

    def _check_result(self, winner: str, gained: dict[str, int]) -> None:
        if winner not in (*SIDES, "draw"):
            raise EventActionError(f"winner must be EW, NS or draw, got {winner!r}")
        if set(gained) != set(SIDES) or any(not isinstance(v, int) or v < 0 for v in gained.values()):
            raise EventActionError(f"levels gained must be whole numbers ≥ 0 for EW and NS, got {gained}")
        if winner == "draw" and gained["EW"] != gained["NS"]:
            raise EventActionError(f"a draw needs equal levels gained (R-MATCH-1), got {gained}")
        loser = OTHER_SIDE.get(winner)
        if loser is not None and gained[winner] < gained[loser]:
            raise EventActionError(
                f"{winner} cannot win with fewer levels gained than {loser} (R-MATCH-1), got {gained}"
            )

    def _on_result_reported(self, a: ResultReported) -> None:
        tr = self.table(a.round, a.table)
        self._check_result(a.winner, a.gained)
        if tr.counts:
            raise EventActionError(
                f"round {a.round} table {a.table}: the result already counts ({tr.status});"
                " the head referee corrects it"
            )
        tr.reported = a
        tr.confirmed = set()

    def _on_result_confirmed(self, a: ResultConfirmed) -> None:
        tr = self.table(a.round, a.table)
        if a.side not in SIDES:
            raise EventActionError(f"side must be EW or NS, got {a.side!r}")
        if tr.reported is None:
            raise EventActionError(f"round {a.round} table {a.table}: no result to confirm yet")
        if tr.counts:
            raise EventActionError(f"round {a.round} table {a.table}: the result already counts ({tr.status})")
        tr.confirmed.add(a.side)

    def _on_result_corrected(self, a: ResultCorrected) -> None:
        tr = self.table(a.round, a.table)
        self._check_result(a.winner, a.gained)
        if not a.reason.strip():
            raise EventActionError("a correction needs a reason (seed 004 11: every change audited)")
        tr.corrected = a
        tr.forfeit = None

    def _on_forfeited(self, a: Forfeited) -> None:
        rs = self.round(a.round)
        table = rs.pairing.table_of(a.pair)
        if table is None:
            raise EventActionError(f"pair {a.pair} does not play in round {a.round}")
        if not a.reason.strip():
            raise EventActionError("a forfeit needs a reason (e.g. 'late 15 minutes', seed 003 十一.3)")
        rs.results[table.number].forfeit = a

    # -- scores ----------------------------------------------------------------------------------

    def scores(self, round_no: int) -> dict[int, RoundScore]:
        """Each pair's counted score in a round (pairs whose result does not count yet are absent)."""
        rules = self.rules
        rs = self.round(round_no)
        won_by_default = RoundScore(Outcome.BYE, rules.forfeit_points, rules.forfeit_small[0], 0, 0)
        out: dict[int, RoundScore] = {}
        if rs.pairing.bye is not None:
            out[rs.pairing.bye] = won_by_default
        for tr in rs.results.values():
            t = tr.table
            if tr.forfeit is not None:
                loser = tr.forfeit.pair
                winner = t.ns if loser == t.ew else t.ew
                out[winner] = RoundScore(Outcome.FORFEIT_WON, rules.forfeit_points, rules.forfeit_small[0], 0, 0)
                out[loser] = RoundScore(Outcome.FORFEITED, 0, rules.forfeit_small[1], 0, 0)
                continue
            final = tr.corrected or (tr.reported if tr.counts else None)
            if final is None:
                continue
            by_side = match_scores(final.winner, final.gained, rules.diff_table)
            out[t.ew], out[t.ns] = by_side["EW"], by_side["NS"]
        return out
