"""The next round's pairing for an event, from its state (seed 003 三): round 1 by sign-in
order or drawn, later rounds Swiss on the standings, or knockout among the winners."""

from __future__ import annotations

from referee_station.event.model import EventActionError, EventState
from referee_station.event.pairing import Pairing, bye_counts, first_round, knockout, meetings, swiss
from referee_station.event.rules import FirstRound, System
from referee_station.event.standings import standings


def next_pairing(state: EventState) -> Pairing:
    """The pairing of the next round; :class:`EventActionError` when it cannot be made yet."""
    if len(state.pairs) < 2:
        raise EventActionError("import the pairs first (event pairs import)")
    rules = state.rules
    round_no = len(state.rounds) + 1
    if round_no == 1:
        return first_round(state.sign_in, rules.first_round == FirstRound.DRAWN, state.rng("draw"))
    state.require_complete()
    pairings = [r.pairing for r in state.rounds]
    if rules.system == System.KNOCKOUT:
        return knockout(round_no, _survivors(state), bye_counts(pairings))
    if round_no > rules.rounds:
        raise EventActionError(f"the event has {rules.rounds} rounds; all are paired")
    table = standings(state)
    ranked = [s.pair.number for s in table]
    points = {s.pair.number: s.totals.points for s in table}
    return swiss(round_no, ranked, points, meetings(pairings), bye_counts(pairings))


def _survivors(state: EventState) -> list[int]:
    """The winners of the last round in table order, the pair with the bye where it sits."""
    last = state.rounds[-1]
    out = []
    for number in sorted(last.results):
        result = last.results[number]
        winner = result.winner()
        if winner == "draw":
            raise EventActionError(
                f"round {last.pairing.round} table {number} is a draw: a knockout needs a winner"
                " (seed 000: by lot or an extra deal); the head referee corrects the result"
            )
        out.append(result.table.ew if winner == "EW" else result.table.ns)
    if last.pairing.bye is not None:
        out.append(last.pairing.bye)
    if len(out) < 2:
        raise EventActionError(f"the knockout is over: pair {out[0]} won")
    return out
