"""Simulate a whole match: seeded deals, bots, human timings, injected violations, ground truth.

The simulator plays the table the way RULES.md says, independently of the referee: turn order
E -> N -> W -> S skipping finished players (R-SEAT-2, R-PLAY-2), tricks that end when every other
player still holding cards passed, 接风 (R-PLAY-2), the deal ending when one side is out (R-PLAY-3),
tribute and return (R-TRIB-1..3), levels (R-UP-1/2), 报牌 (R-REPORT-1) and the clocks (R-TIME).
It writes the input events of EVENTS.md and, separately, what it injected (``Injected``).

Invariants:
- Without injection every event is correct, on time, and every play is legal and beats the trick.
- An injected violation changes nothing the table would keep: a void play or pass is taken back
  and the right seat acts next; a wrong tribute or return is replaced at once by the right card.
- At most one violation per action (per tribute or return phase), and none while a missed report
  is still being judged (R-REPORT-2).
- The penalty ladder is followed as an auto-confirming referee climbs it (R-PEN): the record that
  gets a foul flagged is the deal's last (the violating side double down, no tribute next deal, a
  first leader from the other side); the one that gets a match loss flagged is the match's last.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from referee_station.rules import DECK, RANKS, Card, Play, classify, single_order
from referee_station.sim import bookkeeping as book
from referee_station.sim.bots import TrickView, choose_follow, choose_lead, choose_return
from referee_station.sim.timeline import Timeline, human_delay
from referee_station.sim.violations import (
    PENALTY,
    REPORT_OFFENCES,
    Injected,
    LadderModel,
    illegal_cards,
    not_beating,
    wrong_return,
    wrong_tribute,
)
from referee_station.table.events import (
    NEXT_SEAT,
    OTHER_SIDE,
    PARTNER,
    SEATS,
    SIDE_OF,
    SIDE_SEATS,
    SIDES,
    Clear,
    DealStart,
    MatchStart,
    Pass,
    PlayCards,
    Record,
    Report,
    Return,
    Tick,
    Tribute,
)

TRIBUTE_LIMIT = 20.0
"""R-TIME-1: tribute within 20 s after the deal."""
RETURN_LIMIT = 40.0
"""R-TIME-1: return within 40 s after the tribute."""
FIRST_LEAD_LIMIT = 40.0
"""R-TIME-2: the first lead within 40 s after the return (or the deal)."""
PLAY_LIMIT = 20.0
"""R-TIME-2: every later action within 20 s after the previous one."""
GRACE = 10.0
"""R-TIME-3: the 读秒 count-down; only past it is an action overtime."""
REPORT_MAX = 10
"""R-REPORT-1: a player left with 1 to 10 cards reports."""
BETWEEN_DEALS = (60.0, 150.0)
"""Seconds from one deal's end to the next deal picked up: shuffle, cut, deal 108 cards (R-DEAL-1)."""
SLOW_RATE = 0.01
"""Share of actions taken inside the grace period (slow but not a violation)."""
HAND = 27


@dataclass
class SimResult:
    """One simulated match: the log's input events and the ground truth of what was injected."""

    events: list[Record]
    truth: list[Injected]
    deals: int
    levels: dict[str, str]
    deal_levels: list[str]
    """The level each deal was played at (R-LVL-2), for checking the log against the rules."""
    fouls: list[str | None]
    """Per deal, the side whose foul ended it (R-PEN 犯规), or ``None``."""
    winner: str
    """EW, NS or draw (R-MATCH-1; 判负 gives the match to the other side)."""
    match_loss: str | None = None
    """The side that lost the match by a second foul; its last deal has no result."""


@dataclass
class _Deal:
    """The simulator's own view of one deal in play."""

    level: str
    hands: dict[str, list[Card]]
    finished: list[str] = field(default_factory=list)
    last: tuple[str, Play] | None = None
    passes: int = 0
    played: bool = False
    """Whether the first play of the deal was made (the first lead has 40 s, R-TIME-2)."""

    def active(self, seat: str) -> bool:
        return bool(self.hands[seat])

    def next_active(self, seat: str) -> str:
        nxt = NEXT_SEAT[seat]
        while not self.hands[nxt] and nxt != seat:
            nxt = NEXT_SEAT[nxt]
        return nxt

    def side_out(self) -> bool:
        return any(all(not self.hands[s] for s in SIDE_SEATS[side]) for side in SIDES)

    def order(self) -> list[str]:
        """The finishing order, the seats still holding cards after those out (R-PLAY-3)."""
        return self.finished + [s for s in SEATS if s not in self.finished]


class _DealStopped(Exception):
    """An injected violation made a foul (the deal ends at once) or a match loss (the match ends)."""

    def __init__(self, side: str, match_loss: bool) -> None:
        super().__init__(side)
        self.side = side
        self.match_loss = match_loss


@dataclass
class _MissedReport:
    """A report being withheld (R-REPORT-2): sent after one further action, or never."""

    seat: str
    count: int
    late: bool
    """True: no report at all (infraction at the second further action)."""
    actions: int = 0


class MatchSimulator:
    """Plays one match of up to ``deals`` deals; ``violations`` is the chance per action of one."""

    def __init__(
        self, seed: int, deals: int = 20, violations: float = 0.0, offences: frozenset[str] | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.deals = deals
        self.rate = violations
        self.offences = offences
        """Inject only these forms (``PENALTY`` keys); ``None``: all."""
        self.out = Timeline()
        self.truth: list[Injected] = []
        self.ladder = LadderModel()
        self.levels = dict.fromkeys(SIDES, 0)
        self.level = "2"
        self.last_order: list[str] | None = None
        self.last_foul: str | None = None
        self.stopping: _DealStopped | None = None
        """Set when the violation just injected makes a foul or a match loss once it is flagged."""

    def run(self) -> SimResult:
        """Deal until ``deals`` were played, a side passed A (R-UP-2) or lost the match (R-PEN)."""
        self.out.at(MatchStart(0.0, {"EW": "East-West", "NS": "North-South"}, {"length_deals": self.deals}))
        deal_levels: list[str] = []
        fouls: list[str | None] = []
        winner: str | None = None
        match_loss = None
        for _ in range(self.deals):
            deal_levels.append(self.level)
            try:
                order = self._deal()
            except _DealStopped as stop:
                fouls.append(stop.side)
                if stop.match_loss:
                    match_loss, winner = stop.side, OTHER_SIDE[stop.side]
                    break
                result = book.score_foul(self.levels, stop.side)
                self.last_foul = stop.side
            else:
                fouls.append(None)
                result = book.score(order, self.levels, self.level)
                self.last_order, self.last_foul = order, None
            self.levels = result.levels
            self.level = RANKS[self.levels[result.side_up]]
            if result.passed_ace:
                winner = result.side_up
                break
        if winner is None:
            ew, ns = self.levels["EW"], self.levels["NS"]
            winner = "draw" if ew == ns else ("EW" if ew > ns else "NS")
        self.truth.sort(key=lambda item: item.t)
        levels = {s: RANKS[v] for s, v in self.levels.items()}
        return SimResult(self.out.records, self.truth, len(deal_levels), levels, deal_levels, fouls, winner, match_loss)

    # -- timing and injection ------------------------------------------------------------------

    def _when(self, start: float, limit: float, overtime: bool = False) -> float:
        """When a seat whose clock started at ``start`` acts: normally well inside ``limit``, now and
        then inside the grace (not a violation), and past limit + grace when ``overtime``."""
        floor = self.out.now + 0.3
        if overtime:
            return round(max(floor, start + limit + GRACE) + self.rng.uniform(1.0, 5.0), 2)
        if self.rng.random() < SLOW_RATE and floor < start + limit + 1.0:
            return round(start + limit + self.rng.uniform(1.0, GRACE - 1.0), 2)
        return round(max(floor, start + human_delay(self.rng)), 2)

    def _between(self, t: float) -> float:
        """A moment after the last record and before ``t``, for a void action."""
        low = self.out.now
        return round(low + (t - low) * self.rng.uniform(0.2, 0.8), 2)

    def _roll(self, options: Callable[[], list[tuple[str, str]]]) -> tuple[str, str] | None:
        """At most one violation per action: with the configured rate, one of ``options()``
        ((offence, seat)) that may be injected; offences are equally likely, whatever the number of
        seats that could commit them. Its penalty climbs the ladder at once (auto-confirm, R-PEN)."""
        if not self.rate or self.rng.random() >= self.rate:
            return None
        allowed = [(o, s) for o, s in options() if self._may_inject(o, s)]
        if not allowed:
            return None
        offence = self.rng.choice(sorted({o for o, _ in allowed}))
        seat = self.rng.choice([s for o, s in allowed if o == offence])
        reached = self.ladder.add(SIDE_OF[seat], PENALTY[offence])
        if reached in ("foul", "match_loss"):
            self.stopping = _DealStopped(SIDE_OF[seat], reached == "match_loss")
        return offence, seat

    def _may_inject(self, offence: str, seat: str) -> bool:
        """The forms asked for; a report missed until the second further action is flagged while that
        action is applied (R-REPORT-2), so it is never the one that makes a foul."""
        if self.offences is not None and offence not in self.offences:
            return False
        return offence != "missed_report_late" or self.ladder.reaches(SIDE_OF[seat], PENALTY[offence]) not in (
            "foul",
            "match_loss",
        )

    def _inject(self, t: float, seat: str, offence: str) -> None:
        """Record the truth once the violation is on the table (the record that gets it flagged was
        just written); when its penalty makes a foul or a match loss, stop the deal right there."""
        self.truth.append(Injected(t, seat, "missed_report" if offence == "missed_report_late" else offence))
        if self.stopping is not None:
            if offence == "overtime":  # flagged by the first record past the grace (R-TIME-3)
                self.out.at(Tick(round(t + 0.01, 2)))
            stop, self.stopping = self.stopping, None
            raise stop

    # -- a deal ---------------------------------------------------------------------------------

    def _deal(self) -> list[str]:
        cards = [card for card in DECK for _ in range(2)]
        self.rng.shuffle(cards)
        hands = {seat: sorted(cards[i * HAND : (i + 1) * HAND]) for i, seat in enumerate(SEATS)}
        t = round(self.out.now + self.rng.uniform(*BETWEEN_DEALS), 2)
        leader = None
        if self.last_foul is not None:  # the referee names a leader from the non-violating side (R-PEN 犯规)
            leader = self.rng.choice(SIDE_SEATS[OTHER_SIDE[self.last_foul]])
        elif self.last_order is None:
            leader = self.rng.choice(SEATS)
        self.out.at(DealStart(t, leader, {seat: tuple(hand) for seat, hand in hands.items()}))
        deal = _Deal(self.level, hands)
        start = t
        if leader is None:
            assert self.last_order is not None
            due = book.tribute_due(self.last_order)
            if book.resisted(due, hands):
                leader = due.upstream  # 抗贡 R-TRIB-3
            else:
                leader, start = self._tribute(deal, due, t)
        assert leader is not None
        return self._play(deal, leader, start)

    def _tribute(self, deal: _Deal, due: book.TributeDue, dealt: float) -> tuple[str, float]:
        """Tribute then return (R-TRIB-1/2); returns the first leader and when its clock starts."""
        level, hands = deal.level, deal.hands
        paid = {payer: book.tribute_card(hands[payer], level) for payer in due.payers}
        plans: list[tuple[float, str, tuple[str, str] | None, Card | None]] = []
        for payer in due.payers:
            wrong = wrong_tribute(hands[payer], paid[payer], level, self.rng)
            options = [("overtime", payer)] + ([("wrong_tribute", payer)] if wrong else [])
            offence = None if self._violated(plans) else self._roll(options.copy)
            plans.append((self._when(dealt, TRIBUTE_LIMIT, offence == ("overtime", payer)), payer, offence, wrong))
        complete = self._exchange(plans, dealt, TRIBUTE_LIMIT, paid, Tribute)
        recipients = book.tribute_recipients(due, paid, level)
        for payer, recipient in recipients.items():
            hands[payer].remove(paid[payer])
            hands[recipient].append(paid[payer])
        back: dict[str, Card] = {}
        plans = []
        for recipient in recipients.values():
            back[recipient] = choose_return(book.returnable(hands[recipient], level), level, self.rng)
            wrong = wrong_return(hands[recipient], level, self.rng)
            options = [("overtime", recipient)] + ([("wrong_return", recipient)] if wrong else [])
            offence = None if self._violated(plans) else self._roll(options.copy)
            late = offence == ("overtime", recipient)
            plans.append((self._when(complete, RETURN_LIMIT, late), recipient, offence, wrong))
        returned = self._exchange(plans, complete, RETURN_LIMIT, back, Return)
        for payer, recipient in recipients.items():
            hands[recipient].remove(back[recipient])
            hands[payer].append(back[recipient])
        for hand in hands.values():
            hand.sort()
        return book.first_leader_after_tribute(due, recipients), returned

    @staticmethod
    def _violated(plans: list[tuple[float, str, tuple[str, str] | None, Card | None]]) -> bool:
        """One violation per tribute (or return) phase: the seats' cards are decided together, and a
        second one could follow a foul that already ended the deal, or be flagged in another order."""
        return any(plan[2] is not None for plan in plans)

    def _exchange(
        self,
        plans: list[tuple[float, str, tuple[str, str] | None, Card | None]],
        start: float,
        limit: float,
        right: dict[str, Card],
        kind: type[Tribute],
    ) -> float:
        """Emit the tributes (or returns) in time order, a wrong card followed at once by the right
        one (R-TRIB-4); returns when the last seat's first card came (the next clock's start)."""
        complete = start
        for t, seat, offence, wrong in sorted(plans, key=lambda plan: plan[0]):
            t = max(t, round(self.out.now + 0.3, 2))
            complete = max(complete, t)
            if offence is not None and offence[0] == "overtime":
                self._inject(start + limit + GRACE, seat, "overtime")
            if offence is not None and offence[0] in ("wrong_tribute", "wrong_return"):
                assert wrong is not None
                self.out.at(kind(t, seat, wrong))
                self._inject(t, seat, offence[0])
                t = round(t + self.rng.uniform(0.3, 1.0), 2)
            self.out.at(kind(t, seat, right[seat]))
        return complete

    def _play(self, deal: _Deal, leader: str, start: float) -> list[str]:
        """Play tricks until one side is out (R-PLAY-1..3); returns the finishing order."""
        seat, previous = leader, None
        missed: _MissedReport | None = None
        while True:
            hand = deal.hands[seat]
            last = deal.last
            if last is None:
                move: Play | None = choose_lead(hand, deal.level, self.rng)
            else:
                partner = last[0] == PARTNER[seat]
                threat = len(deal.hands[last[0]]) if not partner else HAND
                view = TrickView(deal.level, last[1], partner, threat)
                move = choose_follow(hand, view, self.rng)
            left = len(hand) - len(move.cards) if move else None
            offence = None if missed else self._roll(partial(self._options, deal, seat, previous, left))
            limit = PLAY_LIMIT if deal.played else FIRST_LEAD_LIMIT
            overtime = offence is not None and offence[0] == "overtime"
            t = self._when(start, limit, overtime)
            if offence is not None:
                self._void_action(deal, offence, t, start + limit + GRACE)
            if move is None:
                self.out.at(Pass(t, seat))
            else:
                self.out.at(self._play_event(t, seat, move, deal.level))
                for card in move.cards:
                    hand.remove(card)
                deal.last, deal.passes, deal.played = (seat, move), 0, True
            missed = self._after_action(deal, t, missed)
            if move is not None:
                if not hand:
                    deal.finished.append(seat)
                    if deal.side_out():
                        assert missed is None, "a withheld report outlived the deal"
                        return deal.order()
                elif left is not None and left <= REPORT_MAX:
                    missed = self._report(seat, left, t, offence, missed)
            previous, start = seat, t
            seat = self._next_to_act(deal, seat, move is None)

    def _options(self, deal: _Deal, seat: str, previous: str | None, left: int | None) -> list[tuple[str, str]]:
        """The violations that can be injected at this action (EVENTS.md offence codes); ``left``: the
        cards a play leaves, ``None`` for a pass."""
        options = [("overtime", seat)]
        bystanders = [s for s in SEATS if s not in (seat, previous) and deal.active(s)]
        options += [(o, s) for s in bystanders for o in ("out_of_turn_play", "out_of_turn_pass")]
        if illegal_cards(deal.hands[seat], deal.level):
            options.append(("illegal_pattern", seat))
        if deal.last is not None and not_beating(deal.hands[seat], deal.last[1], deal.level):
            options.append(("does_not_beat", seat))
        if left is not None and 1 <= left <= REPORT_MAX:
            # a withheld report is judged over the next two actions: only while nobody is out,
            # so that neither the violator nor a side can go out first (R-REPORT-2)
            everyone = all(deal.active(s) for s in SEATS)
            options += [(o, seat) for o in (REPORT_OFFENCES if everyone else ("wrong_report",))]
        return options

    def _void_action(self, deal: _Deal, offence: tuple[str, str], t: float, overdue: float) -> None:
        """Emit a violation that happens before the right action: a void play or pass (R-PLAY-1,
        R-PAT, R-CMP), or just note an overtime (the right action then comes late, R-TIME-3)."""
        kind, seat = offence
        if kind == "overtime":
            self._inject(overdue, seat, kind)
            return
        if kind in REPORT_OFFENCES:
            return
        tv = self._between(t)
        hand = deal.hands[seat]
        if kind == "out_of_turn_pass":
            self.out.at(Pass(tv, seat))
        elif kind == "out_of_turn_play":
            lowest = min(hand, key=lambda c: (single_order(c, deal.level), c.index))
            self.out.at(PlayCards(tv, seat, (lowest,)))
        elif kind == "illegal_pattern":
            cards = illegal_cards(hand, deal.level)
            assert cards is not None
            self.out.at(PlayCards(tv, seat, tuple(cards)))
        else:
            assert deal.last is not None
            weak = not_beating(hand, deal.last[1], deal.level)
            assert weak is not None
            self.out.at(PlayCards(tv, seat, weak.cards))
        self._inject(tv, seat, kind)

    @staticmethod
    def _play_event(t: float, seat: str, move: Play, level: str) -> PlayCards:
        """The play as laid; ``as`` declares the meant interpretation when there are several (R-WILD-3)."""
        declared = None
        if len(classify(move.cards, level)) > 1:
            declared = {"kind": str(move.kind), "key": move.key}
        return PlayCards(t, seat, move.cards, declared)

    def _after_action(self, deal: _Deal, t: float, missed: _MissedReport | None) -> _MissedReport | None:
        """Count one further action against a withheld report (R-REPORT-2)."""
        if missed is None:
            return None
        missed.actions += 1
        if not missed.late and missed.actions == 1:
            self.out.at(Report(round(self.out.now + self.rng.uniform(0.2, 0.5), 2), missed.seat, missed.count))
            self._inject(self.out.now, missed.seat, "missed_report")
            return None
        if missed.late and missed.actions == 2:
            self._inject(t, missed.seat, "missed_report")
            return None
        return missed

    def _report(
        self, seat: str, left: int, t: float, offence: tuple[str, str] | None, missed: _MissedReport | None
    ) -> _MissedReport | None:
        """报牌 right after the play (R-REPORT-1), or the injected wrong or missing report."""
        kind = offence[0] if offence else None
        if kind in ("missed_report", "missed_report_late"):
            return _MissedReport(seat, left, late=kind == "missed_report_late")
        count = left
        when = round(max(self.out.now, t) + self.rng.uniform(0.3, 1.2), 2)
        if kind == "wrong_report":
            count = left + 1 if left < REPORT_MAX else left - 1
        self.out.at(Report(when, seat, count))
        if kind == "wrong_report":
            self._inject(when, seat, "wrong_report")
        return missed

    def _next_to_act(self, deal: _Deal, seat: str, passed: bool) -> str:
        """Next seat in play order; after all other active players passed, the trick ends and the last
        player leads, or their partner when they are out (接风, R-PLAY-2)."""
        if passed:
            assert deal.last is not None
            deal.passes += 1
            last_seat = deal.last[0]
            others = sum(1 for s in SEATS if s != last_seat and deal.active(s))
            if deal.passes >= others:
                deal.last, deal.passes = None, 0
                self.out.at(Clear(round(self.out.now + self.rng.uniform(0.2, 0.6), 2)))
                return last_seat if deal.active(last_seat) else PARTNER[last_seat]
        return deal.next_active(seat)


def simulate(seed: int, deals: int = 20, violations: float = 0.0, offences: frozenset[str] | None = None) -> SimResult:
    """One seeded match (``random.Random(seed)``; no wall clock): the same arguments, the same log."""
    return MatchSimulator(seed, deals, violations, offences).run()
