"""The phases of a deal and the steps that move it from one to the next, as one table.

A deal starts in ``TRIBUTE`` when tribute is owed (R-TRIB-1) and in ``PLAY`` otherwise (the first
deal, the deal after a foul, 抗贡 seen in the dealt hands: R-TRIB-3). ``TRANSITIONS`` below is the
whole machine; the referee asks :func:`advance` for the next phase and never sets one itself.

Invariants:
- Phases only move forward: TRIBUTE -> RETURN -> PLAY -> OVER (抗贡 claimed by a lead skips RETURN; an
  exchange the camera did not see, judged in one of a doubtful play's worlds, goes straight to PLAY).
- OVER is final: a new deal is a new deal state, starting from ``None``.
- A deal that ends (a foul, a match loss, a scored end) is OVER from any phase, OVER included (the
  end of a deal held for flags still open is finished later).
- A replaced tribute (R-TRIB-4: exchange again) before the first play keeps RETURN or PLAY.
- A step the table does not list is the referee's own bug: :class:`PhaseError`, never a flag.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a deal stands (the snapshot's ``deal.phase``)."""

    TRIBUTE = "tribute"
    RETURN = "return"
    PLAY = "play"
    OVER = "over"


class Step(StrEnum):
    """What happened to the deal, as far as its phase is concerned."""

    DEALT = "dealt"
    """Cards picked up and no tribute to pay (first deal, after a foul, 抗贡 known from the hands)."""
    TRIBUTE_OWED = "tribute_owed"
    """Cards picked up and the losers of the last deal owe tribute (R-TRIB-1)."""
    TRIBUTES_PAID = "tributes_paid"
    """Every payer has paid (a replaced tribute counts again)."""
    RESISTED = "resisted"
    """The 上游 led before any tribute: 抗贡 claimed (R-TRIB-3), checked at the end of the deal."""
    RETURNS_MADE = "returns_made"
    """Every recipient has returned a card: the first leader leads (R-TRIB-2)."""
    EXCHANGE_UNSEEN = "exchange_unseen"
    """A doubtful play while the exchange is owed is judged as if the camera missed the tribute and the
    return (``table.doubt``, R-TRIB): play begins with no leader named."""
    SIDE_OUT = "side_out"
    """Both seats of a side are out (R-PLAY-3)."""
    ENDED = "ended"
    """The deal is scored or stopped (a foul, a match loss)."""


TRANSITIONS: dict[tuple[Phase | None, Step], Phase] = {
    (None, Step.DEALT): Phase.PLAY,
    (None, Step.TRIBUTE_OWED): Phase.TRIBUTE,
    (Phase.TRIBUTE, Step.TRIBUTES_PAID): Phase.RETURN,
    (Phase.RETURN, Step.TRIBUTES_PAID): Phase.RETURN,
    (Phase.PLAY, Step.TRIBUTES_PAID): Phase.PLAY,
    (Phase.TRIBUTE, Step.RESISTED): Phase.PLAY,
    (Phase.RETURN, Step.RETURNS_MADE): Phase.PLAY,
    (Phase.TRIBUTE, Step.EXCHANGE_UNSEEN): Phase.PLAY,
    (Phase.RETURN, Step.EXCHANGE_UNSEEN): Phase.PLAY,
    (Phase.PLAY, Step.SIDE_OUT): Phase.OVER,
    **{(phase, Step.ENDED): Phase.OVER for phase in Phase},
}
"""(phase now, step) -> the phase after it; ``None``: no deal yet (a deal's start)."""


class PhaseError(RuntimeError):
    """A step the phase table does not allow: a bug in the referee, raised, never flagged."""


def advance(phase: Phase | None, step: Step) -> Phase:
    """The phase after ``step`` in ``phase`` (:data:`TRANSITIONS`)."""
    try:
        return TRANSITIONS[phase, step]
    except KeyError:
        raise PhaseError(f"no transition from phase {phase} on {step}") from None
