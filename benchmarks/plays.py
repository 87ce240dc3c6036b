"""How well a reader read one seat's play area against the rendered truth, summed over many: the
figures both card-reader benchmarks report (``benchmarks.vision``, ``benchmarks.deck``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from referee_station.table.config import RulesConfig

SURE = RulesConfig.min_confidence
"""The confidence from which the referee judges a read play as read (below it the play is doubtful:
``uncertain_read``, never a penalty from the read)."""


@dataclass
class PlayScore:
    """Exact plays and card precision/recall over seats whose truth is readable cards; phantom plays in
    empty areas. Seats truly occluded or face down count for neither. ``taken_wrong``: wrong plays the
    reader called readable (status "cards"): the ones the tracker would hand the referee; the others it
    called unreadable or occluded, and the tracker waits for a better frame. ``held_right``: right plays
    the reader called doubtful (the price of holding the wrong ones back). ``sure_wrong``: wrong plays
    called readable with every card's confidence at ``SURE`` or more: the ones the referee would judge
    as read and could penalise (a play handed on below ``SURE`` is doubtful)."""

    plays: int = 0
    exact: int = 0
    tp: int = 0
    n_pred: int = 0
    n_true: int = 0
    phantom: int = 0
    empties: int = 0
    taken_wrong: int = 0
    held_right: int = 0
    sure_wrong: int = 0

    def add(self, truth, got) -> bool | None:
        """One seat (truth and reading have ``status`` and ``cards``); whether the play was read exactly,
        ``None`` when the truth holds no readable play."""
        if truth.status == "empty":
            self.empties += 1
            self.phantom += bool(got.cards)
            self.n_pred += len(got.cards)
            return None
        if truth.status != "cards":
            return None
        ok = list(truth.cards) == list(got.cards)
        self.plays += 1
        self.exact += ok
        self.taken_wrong += not ok and got.status == "cards"
        self.sure_wrong += not ok and got.status == "cards" and min(got.confidences, default=0.0) >= SURE
        self.held_right += ok and got.status != "cards"
        self.tp += sum((Counter(truth.cards) & Counter(got.cards)).values())
        self.n_pred += len(got.cards)
        self.n_true += len(truth.cards)
        return ok

    @property
    def exact_share(self) -> float:
        return self.exact / max(1, self.plays)

    @property
    def precision(self) -> float:
        return self.tp / max(1, self.n_pred)

    @property
    def recall(self) -> float:
        return self.tp / max(1, self.n_true)
