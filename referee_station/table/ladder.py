"""The penalty ladder of one match (RULES.md section 9), per side.

Only confirmed penalties climb it: two warnings make an infraction, two infractions a foul, two
fouls a match loss. ``add`` returns every step taken, the confirmed penalty first and then each
escalation with its reason, so the referee can emit one ``penalty`` output per step.
"""

from __future__ import annotations

from referee_station.core import LADDER, SIDES, Penalty

ESCALATION: dict[Penalty, Penalty] = {
    Penalty.WARNING: Penalty.INFRACTION,
    Penalty.INFRACTION: Penalty.FOUL,
    Penalty.FOUL: Penalty.MATCH_LOSS,
}
PLURAL = {Penalty.WARNING: "warnings", Penalty.INFRACTION: "infractions", Penalty.FOUL: "fouls"}


class Ladder:
    """Confirmed penalties per side; escalation happens on every second step of a rung."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[Penalty, int]] = {side: dict.fromkeys(LADDER, 0) for side in SIDES}

    def add(self, side: str, penalty: str) -> list[tuple[Penalty, str]]:
        """Record a confirmed ``penalty`` for ``side``; return ``[(penalty, reason), ...]``."""
        current = Penalty(penalty)
        steps = [(current, "confirmed")]
        while True:
            self.counts[side][current] += 1
            nxt = ESCALATION.get(current)
            if nxt is None or self.counts[side][current] % 2:
                return steps
            steps.append((nxt, f"two {PLURAL[current]}"))
            current = nxt

    def snapshot(self) -> dict[str, dict[Penalty, int]]:
        return {side: dict(counts) for side, counts in self.counts.items()}
