"""Violations the simulator injects (EVENTS.md offence codes) and the cards that commit them.

Each injected violation must be flagged by the referee with the same offence and seat, nothing
else. The simulator writes no ``ruling`` lines; tests replay with ``--auto-confirm``, so every flag
climbs the penalty ladder (RULES.md section 9). A foul would end the deal in a way the simulator
does not play out, so :class:`LadderModel` keeps each side below a foul: a violation whose confirmed
penalty would make one is simply not injected (documented limit: fouls and match losses are never
simulated).
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

PLAY_OFFENCES = ("out_of_turn_play", "out_of_turn_pass", "illegal_pattern", "does_not_beat", "overtime")
REPORT_OFFENCES = ("missed_report", "missed_report_late", "wrong_report")


@dataclass(frozen=True)
class Injected:
    """Ground truth of one injected violation: a line of the truth file."""

    t: float
    seat: str
    offence: str

    def to_json(self) -> dict[str, object]:
        return {"t": self.t, "seat": self.seat, "offence": self.offence}


class LadderModel:
    """Confirmed penalties per side (R-PEN ladder): two warnings make an infraction, two a foul."""

    def __init__(self) -> None:
        self.warnings = dict.fromkeys(SIDES, 0)
        self.infractions = dict.fromkeys(SIDES, 0)

    def allows(self, side: str, penalty: str) -> bool:
        """Whether confirming ``penalty`` keeps ``side`` below a foul."""
        if penalty == "warning" and self.warnings[side] % 2 == 0:
            return True
        return self.infractions[side] % 2 == 0

    def add(self, side: str, penalty: str) -> None:
        if penalty == "warning":
            self.warnings[side] += 1
            if self.warnings[side] % 2:
                return
        self.infractions[side] += 1


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
