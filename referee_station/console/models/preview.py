"""What a ruling would do, shown before the referee makes it (issue #29: no consequence unseen).

The preview climbs a copy of the table's ladder (``table/ladder.py``, RULES.md section 9) with the
flag's proposed penalty, so it names the same steps the referee core will take, and says what the
highest step does: a foul ends the deal with the violating side double down (the other side up by
R-UP-1's 双下 gain), a match loss ends the match, an infraction lets the 下家 stop the next play.
Nothing is applied: the console holds no rules of its own, the table's referee decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from referee_station.console.models.i18n import tr
from referee_station.core import Decision, Penalty
from referee_station.table.events import OTHER_SIDE, PARTNER, SEATS, SIDE_OF, Flag
from referee_station.table.ladder import Ladder
from referee_station.table.scoring import nominal_gain


class Consequence(Enum):
    """What the ruling does to the deal or the match, most severe last."""

    NONE = "none"
    """Dismissed, or an anomaly: nothing goes on the ladder."""
    RECORDED = "recorded"
    """A step on the ladder, play goes on."""
    STOP_NEXT = "stop_next"
    """An infraction: the violator's 下家 may stop the violator's next play."""
    DEAL_ENDS = "deal_ends"
    """A foul: the deal ends at once, the violating side double down."""
    MATCH_ENDS = "match_ends"
    """A match loss: the match ends, the other side wins."""


def _double_down_gain(side: str) -> int:
    """R-UP-1: the other side takes 1st and 2nd when the violating side is scored 双下."""
    first = next(seat for seat in SEATS if SIDE_OF[seat] == OTHER_SIDE[side])
    return nominal_gain(first, [first, PARTNER[first], None, None])


@dataclass(frozen=True)
class RulingPreview:
    """The ladder steps a ruling takes (``(penalty, reason)``, as the referee's ``penalty`` outputs
    will list them) and the consequence of the highest one."""

    decision: Decision
    side: str | None
    steps: tuple[tuple[str, str], ...]
    consequence: Consequence

    @property
    def top(self) -> str | None:
        """The highest rung reached (the last step), ``None`` when nothing is recorded."""
        return self.steps[-1][0] if self.steps else None

    def text(self, lang: str = "zh") -> str:
        """One line, e.g. ``确认 → 东西 犯规: 本副结束, 南北 +3`` / ``confirm → EW foul: deal ends, NS +3``."""
        head = tr(f"decide_{self.decision.value}", lang)
        if self.side is None or not self.steps:
            return f"{head} → {tr('preview_none', lang)}"
        rungs = " → ".join(tr(penalty, lang) for penalty, _ in self.steps)
        other = OTHER_SIDE[self.side]
        what = {
            Consequence.RECORDED: tr("preview_recorded", lang),
            Consequence.STOP_NEXT: tr("preview_stop_next", lang),
            Consequence.DEAL_ENDS: tr("preview_deal_ends", lang, side=tr(other, lang), up=_double_down_gain(self.side)),
            Consequence.MATCH_ENDS: tr("preview_match_ends", lang, side=tr(other, lang)),
        }[self.consequence]
        return f"{head} → {tr(self.side, lang)} {rungs}: {what}"


def preview(flag: Flag, decision: Decision, ladder: Mapping[str, Mapping[str, int]]) -> RulingPreview:
    """The preview of ``decision`` on ``flag`` given the table's ladder snapshot (``snapshot().ladder``)."""
    if decision is Decision.DISMISS or flag.penalty is Penalty.ANOMALY or flag.side is None:
        return RulingPreview(decision, flag.side, (), Consequence.NONE)
    trial = Ladder()
    for side, counts in ladder.items():
        trial.counts.setdefault(side, {}).update(counts)
    steps = tuple(trial.add(flag.side, flag.penalty))
    reached = {penalty for penalty, _ in steps}
    if Penalty.MATCH_LOSS in reached:
        consequence = Consequence.MATCH_ENDS
    elif Penalty.FOUL in reached:
        consequence = Consequence.DEAL_ENDS
    elif Penalty.INFRACTION in reached and flag.seat is not None:
        consequence = Consequence.STOP_NEXT
    else:
        consequence = Consequence.RECORDED
    return RulingPreview(decision, flag.side, steps, consequence)
