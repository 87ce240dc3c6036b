"""What a real table does not announce: the start of each deal, the tribute and return cards, and,
at a table without seat units, the passes. The director turns the camera's plays into those events
from the referee's own state, so a match runs from its setup without anyone typing a deal.

- A deal starts at the first play after the previous ``deal_end`` (R-DEAL-1); the first deal's first
  leader is the setup's (seed 004 §03), after a foul the first seat to lead (the referee flags one of
  the violating side, R-PEN foul), otherwise the tribute decides (R-TRIB).
- While tribute is owed, one card laid in a payer's play area is its tribute; while a return is owed,
  one card laid by a recipient is its return (CLOTH.md: tribute and return are shown in the giver's play
  area). More cards, or a seat that owes nothing, stay a play, and the referee judges it.
- Without seat units (``infer_passes``), a play by a seat other than the one to act means the seats in
  between passed (R-PLAY-1), and a partner's lead after 接风 means the whole table passed (R-PLAY-2):
  such a table cannot tell an out-of-turn play from passes.
Pure: no clock, no I/O; it reads ``TableReferee.snapshot()`` and returns events.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee_station.core import DealView, Phase, TableState
from referee_station.rules import DoesNotBeatError, RulesError, choose, parse_cards
from referee_station.table.events import PARTNER, DealEnd, DealStart, Output, Pass, PlayCards, Record, Return, Tribute


class DealDirector:
    """Deals, tributes, returns (and inferred passes) from the camera's plays."""

    def __init__(self, first_leader: str | None = None, *, infer_passes: bool = False) -> None:
        self.first_leader = first_leader
        """The setup's first leader; ``None``: the deals come from elsewhere (a recorded feed)."""
        self.infer_passes = infer_passes
        self._after_foul = False

    def observe(self, outputs: Iterable[Output]) -> None:
        """Remember how the last deal ended (a foul: the next first leader is the seat that leads)."""
        for out in outputs:
            if isinstance(out, DealEnd):
                self._after_foul = out.foul

    def prelude(self, event: Record, state: TableState) -> Record | None:
        """The event the referee must see before ``event``, if any (call again after feeding it)."""
        if type(event) is not PlayCards or state.match_over:
            return None
        deal = state.deal
        if deal is None or deal.phase is Phase.OVER:
            if self.first_leader is None:
                return None
            if deal is None and state.deals_played == 0:
                return DealStart(event.t, self.first_leader)
            return DealStart(event.t, event.seat if self._after_foul else None)
        to_act = deal.to_act
        if not self.infer_passes or deal.phase is not Phase.PLAY or deal.counts.get(event.seat, 0) == 0:
            return None
        if to_act not in (None, event.seat):
            return Pass(event.t, to_act)
        if to_act == event.seat and _leads_by_jiefeng(event, deal):
            return Pass(event.t, to_act)
        return None

    def convert(self, event: Record, state: TableState) -> Record:
        """A one-card play that is a tribute or a return owed now becomes that event, with the read's doubt
        (its confidence and alternatives: a doubtful tribute is judged under its close readings)."""
        deal = state.deal
        if type(event) is not PlayCards or deal is None or len(event.cards) != 1:
            return event
        clock = deal.clocks.get(event.seat)
        owed = None if clock is None else clock.action
        if deal.phase is Phase.TRIBUTE and owed == "tribute" and event.seat not in deal.tributes:
            return Tribute(event.t, event.seat, event.cards[0], event.confidence, event.alternatives)
        if deal.phase is Phase.RETURN and owed == "return" and event.seat not in deal.returns:
            return Return(event.t, event.seat, event.cards[0], event.confidence, event.alternatives)
        return event


def _leads_by_jiefeng(event: PlayCards, deal: DealView) -> bool:
    """Whether ``event`` is the partner's lead after a seat went out and everyone passed (接风, R-PLAY-2)
    rather than a follow: the trick's last player has no cards, the player is its partner, and the cards
    do not beat the trick. The partner then passed too before leading."""
    last = deal.last
    if last is None or deal.counts.get(last.seat, 1) != 0 or PARTNER[last.seat] != event.seat:
        return False
    try:
        choose(parse_cards(event.cards), deal.level, choose(parse_cards(last.cards), deal.level))
    except DoesNotBeatError:
        return True
    except RulesError:
        return False
    return False
