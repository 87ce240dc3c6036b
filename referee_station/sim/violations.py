"""Violations the simulator injects (EVENTS.md offence codes) and the cards that commit them.

Each injected violation must be flagged by the referee with the same offence and seat, nothing
else. The simulator writes no ``ruling`` lines; tests replay with ``--auto-confirm``, so every flag
climbs the penalty ladder (RULES.md section 9); :class:`LadderModel` follows it, so the simulator
ends the deal at a foul and the match at a match loss exactly where the referee does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from referee_station.rules import Card, Play, beats, classify, legal_moves, single_order
from referee_station.sim.bookkeeping import RETURN_MAX
from referee_station.table.events import SIDES

PENALTY: dict[str, str] = {
    "out_of_turn_play": "infraction",  # R-PLAY-1
    "out_of_turn_pass": "warning",  # R-PLAY-1
    "illegal_pattern": "infraction",  # R-PAT
    "does_not_beat": "infraction",  # R-CMP
    "overtime": "warning",  # R-TIME-3
    "missed_report": "warning",  # R-REPORT-2, reported after exactly one further action
    "missed_report_late": "infraction",  # R-REPORT-2, no report by the second further action
    "wrong_report": "warning",  # R-REPORT-2
    "wrong_tribute": "warning",  # R-TRIB-4, found before the first play
    "wrong_return": "warning",  # R-TRIB-4, found before the first play
}
"""The proposed penalty of each injected form; ``missed_report_late`` is flagged as ``missed_report``."""

REPORT_OFFENCES = ("missed_report", "missed_report_late", "wrong_report")


@dataclass(frozen=True)
class Injected:
    """Ground truth of one injected violation: a line of the truth file."""

    t: float
    seat: str
    offence: str

    def to_json(self) -> dict[str, object]:
        return {"t": self.t, "seat": self.seat, "offence": self.offence}


ESCALATION: dict[str, str] = {"warning": "infraction", "infraction": "foul", "foul": "match_loss"}
"""R-PEN: two of a rung make one of the next."""


class LadderModel:
    """Confirmed penalties per side and match (RULES.md section 9): two warnings make an infraction,
    two infractions a foul, two fouls a match loss. The simulator needs it to know when its own
    violation ends the deal (foul) or the match (match loss), as the auto-confirming referee will."""

    def __init__(self) -> None:
        self.counts = {side: dict.fromkeys((*ESCALATION, "match_loss"), 0) for side in SIDES}

    def reaches(self, side: str, penalty: str) -> str:
        """The highest rung that confirming ``penalty`` for ``side`` would reach (no change)."""
        counts = self.counts[side]
        while penalty in ESCALATION and counts[penalty] % 2:
            penalty = ESCALATION[penalty]
        return penalty

    def add(self, side: str, penalty: str) -> str:
        """Confirm ``penalty`` for ``side``; returns the highest rung reached."""
        reached = self.reaches(side, penalty)
        rung = penalty
        while True:
            self.counts[side][rung] += 1
            if rung == reached:
                return reached
            rung = ESCALATION[rung]


def illegal_cards(hand: list[Card], level: str) -> list[Card] | None:
    """Two cards of different rank, neither wild nor a joker: no pattern (R-PAT), e.g. "3s 9d"."""
    natural = sorted((c for c in hand if not c.is_joker and not c.is_wild(level)), key=lambda c: c.value)
    for low in natural:
        for high in reversed(natural):
            if high.rank != low.rank and not classify([low, high], level):
                return [low, high]
    return None


def not_beating(hand: list[Card], last: Play, level: str) -> Play | None:
    """A play of the same kind and size as ``last`` that no interpretation lets beat it (R-CMP-1)."""
    if last.is_bomb:
        return None
    for move in legal_moves(hand, None, level):
        if move.kind != last.kind or move.size != last.size or move.is_bomb:
            continue
        if not any(beats(play, last, level) for play in classify(move.cards, level)):
            return move
    return None


def wrong_tribute(hand: list[Card], right: Card, level: str, rng: random.Random) -> Card | None:
    """A card lower than the right tribute (R-TRIB-4), never a ♥ level card."""
    lower = [c for c in hand if not c.is_wild(level) and single_order(c, level) < single_order(right, level)]
    return rng.choice(lower) if lower else None


def wrong_return(hand: list[Card], level: str, rng: random.Random) -> Card | None:
    """A card above 10 while the hand holds one of 10 or lower (R-TRIB-4)."""
    if not any(single_order(c, level) <= RETURN_MAX for c in hand):
        return None
    high = [c for c in hand if single_order(c, level) > RETURN_MAX]
    return rng.choice(high) if high else None
