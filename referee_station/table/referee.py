"""``TableReferee``: the table's referee as a pure state machine (RULES.md sections 5-9).

``feed(event) -> list[Output]`` is the only way in. Time comes from the events' ``t``; the
referee never reads a clock, a port or a file, so a log always replays to the same outputs.

Invariants:
- A void action (out of turn, illegal, does not beat) changes nothing but the flag list: the
  play is taken back and the same seat is still to act (R-PLAY-1, R-PEN infraction).
- Only confirmed flags climb the ladder (``ruling`` events, or every flag with ``auto_confirm``);
  a foul ends the deal with the violating side double down, a match loss ends the match.
- While the referee has paused the table (``timer`` pause) no clock runs out; resuming moves every
  deadline by the pause (R-TIME), added time moves one seat's.
- A strange event (a play before any deal, a ruling for an unknown flag) is flagged as an
  anomaly and otherwise ignored. Input the rules refuse (a ``RulesError``, an ``EventError``) is
  flagged the same way; any other exception is the referee's own bug: with ``strict`` (the tests)
  it is raised, at the station it is logged with its traceback and flagged, so a table plays on.
- A deal's phase moves only by the phase table (``referee_station.core.phase``).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from referee_station.core import Clock, ClockView, DealView, Decision, LastPlay, Phase, Step, TableState, advance
from referee_station.core import Penalty as Rung
from referee_station.rules import (
    Card,
    Declaration,
    DeclarationError,
    DoesNotBeatError,
    DuplicateCardError,
    IllegalPatternError,
    Kind,
    Play,
    RulesError,
    classify,
    follow_reading,
    lead_readings,
    parse_cards,
)
from referee_station.table import details as D
from referee_station.table import tribute as trib
from referee_station.table.config import RulesConfig
from referee_station.table.events import (
    NEXT_SEAT,
    OTHER_SIDE,
    PARTNER,
    SEATS,
    SIDE_OF,
    SIDE_SEATS,
    SIDES,
    Clear,
    Countdown,
    DealEnd,
    DealStart,
    EventError,
    Flag,
    Health,
    MatchEnd,
    MatchStart,
    Output,
    Pass,
    Penalty,
    PlayCards,
    Reading,
    Record,
    Report,
    Return,
    Ruling,
    Sign,
    Tick,
    TimeCall,
    TimerControl,
    Tribute,
)
from referee_station.table.ladder import Ladder
from referee_station.table.offences import OFFENCES, WRONG_PLAYS
from referee_station.table.scoring import (
    ACE,
    PASSED_ACE,
    level_index,
    level_rank,
    match_loss_levels,
    score_deal,
    score_match,
)

HAND_SIZE = 27
REPORT_MAX = 10
INPUT_ERRORS = (RulesError, EventError)
"""What well-formed input the rules refuse raises: flagged, never a crash (a bug raises anything else)."""
_log = logging.getLogger(__name__)


def _text(cards: Iterable[Card]) -> str:
    """Cards as a flag's detail names them: their codes, space-separated."""
    return " ".join(card.code for card in cards)


def _by_code(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order of their codes, as a flag lists them."""
    return sorted(cards, key=lambda card: card.code)


def _named(readings: tuple[Play, ...]) -> tuple[dict[str, str], ...]:
    """Readings as the ``reading`` output lists them: ``{"kind", "key"}``, weakest first."""
    return tuple({"kind": play.kind.value, "key": play.key} for play in readings)


@dataclass
class RunningClock:
    """A running time limit (R-TIME): the grace count-down is sent once, overtime flagged once."""

    seat: str
    action: Clock
    deadline: float
    grace_sent: bool = False
    flagged: bool = False


@dataclass
class SeatState:
    count: int = HAND_SIZE
    hand: Counter[Card] | None = None
    played: list[Card] = field(default_factory=list)
    report_due: int | None = None
    """Actions since a play left 1..10 cards and no report came (R-REPORT-2); None: nothing due."""
    reported: int | None = None
    stopped: bool = False
    """The 下家 chose to stop this seat's next play (infraction consequence)."""


@dataclass
class DealState:
    number: int
    level: str
    phase: Phase
    seats: dict[str, SeatState]
    dealt: dict[str, list[Card]] | None
    plan: trib.TributePlan | None = None
    resisted: bool | None = None
    tributes: dict[str, Card] = field(default_factory=dict)
    paid_to: dict[str, str] = field(default_factory=dict)
    returns: dict[str, Card] = field(default_factory=dict)
    to_act: str | None = None
    last: tuple[str, Play] | None = None
    readings: tuple[Play, ...] = ()
    """What a follow must beat one of: the last play's reading, or every kind's highest reading of
    an undeclared lead whose readings differ in kind (R-WILD-3, R-PAT-11); empty when the next
    play is a lead."""
    passes: int = 0
    first_play_done: bool = False
    order: list[str] = field(default_factory=list)
    seen: Counter[Card] = field(default_factory=Counter)
    clocks: dict[str, RunningClock] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class FlagState:
    flag: Flag
    deal: int
    decided: Decision | None = None


class TableReferee:
    """Reads one table's events, returns what a referee must know (EVENTS.md outputs)."""

    strict: ClassVar[bool] = False
    """Raise the referee's own bugs out of ``feed`` instead of flagging them: the tests set it
    (``tests/conftest.py``), so a bug fails a test rather than hiding as a ``strange_event``."""

    def __init__(
        self,
        config: RulesConfig | None = None,
        *,
        auto_confirm: bool = False,
        flag_ids: Callable[[TableReferee, Flag], int] | None = None,
    ) -> None:
        self.base_config = config or RulesConfig()
        self.flag_ids = flag_ids
        """Numbers a new flag (given with ``id`` 0); by default flags count 1, 2, 3... The correcting
        referee (``table.corrections``) passes one that keeps a flag's number across replays."""
        self.config = self.base_config
        self.auto_confirm = auto_confirm
        self.now = 0.0
        self.started: float | None = None
        self.sides: dict[str, str] = {}
        self.levels: dict[str, int] = {"EW": 0, "NS": 0}
        self.start_levels: dict[str, int] = {"EW": 0, "NS": 0}
        self.next_level: str = "2"
        self.deal: DealState | None = None
        self.deals_played = 0
        self.last_order: list[str | None] | None = None
        self.last_foul: str | None = None
        self.pending_end: tuple[float, list[str | None]] | None = None
        self.match_over = False
        self.time_called: float | None = None
        """When the head called time (R-MATCH-1): the deal in progress is the last."""
        self.paused_at: float | None = None
        """When the referee paused the clocks (``timer`` pause), while they stay paused."""
        self.ladder = Ladder()
        self.flags: dict[int, FlagState] = {}
        self._out: list[Output] = []
        self._handlers: dict[type[Record], Callable[[Any], None]] = {
            MatchStart: self._on_match,
            DealStart: self._on_deal,
            Tribute: self._on_tribute,
            Return: self._on_return,
            PlayCards: self._on_play,
            Pass: self._on_pass,
            Report: self._on_report,
            Clear: lambda ev: None,
            Tick: lambda ev: None,
            Health: lambda ev: None,
            Ruling: self._on_ruling,
            TimeCall: self._on_time_call,
            Sign: lambda ev: None,
            TimerControl: self._on_timer,
        }

    # -- the one way in -------------------------------------------------------------------

    def feed(self, event: Record) -> list[Output]:
        """Apply one input event; return the outputs it causes, in order."""
        self._out = []
        handler = self._handlers.get(type(event))
        if handler is None:
            self._strange(event.t, None, D.NOT_INPUT(type=event.TYPE))
            return self._out
        if event.t < self.now:
            self._strange(event.t, None, D.TIME_BACKWARDS(t=event.t, now=self.now))
        self.now = max(self.now, event.t)
        if not isinstance(event, (MatchStart, Ruling)) and self.paused_at is None:
            self._check_clocks(event.t)
        try:
            handler(event)
        except INPUT_ERRORS as err:  # input the rules refuse: the referee is told, play goes on
            self._strange(event.t, getattr(event, "seat", None), D.NOT_APPLIED(type=event.TYPE, err=err))
        except Exception as err:
            if self.strict:
                raise
            _log.exception("the referee failed on %s", event.to_line())
            self._strange(event.t, getattr(event, "seat", None), D.FAULT(type=event.TYPE, err=err))
        return self._out

    # -- outputs ----------------------------------------------------------------------------

    def _emit(self, output: Output) -> None:
        self._out.append(output)

    def _flag(
        self,
        t: float,
        offence: str,
        seat: str | None,
        detail: str,
        cards: tuple[Card, ...] | None = None,
        penalty: Rung | None = None,
    ) -> Flag:
        spec = OFFENCES[offence]
        if penalty is None:
            penalty = Rung.WARNING if self.config.wrong_play_stops and offence in WRONG_PLAYS else spec.penalty
        flag = Flag(
            t=t,
            id=0,
            seat=seat,
            side=SIDE_OF[seat] if seat else None,
            offence=offence,
            rule=spec.rule,
            penalty=penalty,
            detail=D.FLAG(offence=spec.en, detail=detail, rule=spec.rule),
            detail_zh=f"{spec.zh}（{spec.rule}）",
            cards=cards,
        )
        flag = replace(flag, id=self.flag_ids(self, flag) if self.flag_ids else len(self.flags) + 1)
        self.flags[flag.id] = FlagState(flag, self.deal.number if self.deal else 0)
        self._emit(flag)
        if self.auto_confirm and penalty is not Rung.ANOMALY:
            self._decide(t, self.flags[flag.id], Decision.CONFIRM, stop_next=False)
        return flag

    def _strange(self, t: float, seat: str | None, detail: str) -> None:
        self._flag(t, "strange_event", seat if seat in SEATS else None, detail)

    def note(
        self, t: float, offence: str, seat: str | None, detail: str, cards: tuple[Card, ...] | None
    ) -> list[Output]:
        """Raise an anomaly found outside the rules core (a doubtful read, a correction that names no
        event): a flag like any other, so that a ruling on it is known here."""
        self._out = []
        self._flag(t, offence, seat if seat in SEATS else None, detail, cards, penalty=Rung.ANOMALY)
        return self._out

    # -- time (R-TIME) ----------------------------------------------------------------------

    def _start_clock(self, t: float, seat: str, action: str, limit: float) -> None:
        deal = self.deal
        assert deal is not None
        deal.clocks[seat] = RunningClock(seat, action, t + limit)
        self._emit(Countdown(t=t, seat=seat, action=action, limit=limit, deadline=t + limit))

    def _check_clocks(self, t: float) -> None:
        if self.deal is None:
            return
        grace = self.config.grace
        for seat in SEATS:
            clock = self.deal.clocks.get(seat)
            if clock is None:
                continue
            if t > clock.deadline and not clock.grace_sent:
                clock.grace_sent = True
                self._emit(Countdown(t=t, seat=seat, action=Clock.GRACE, limit=grace, deadline=clock.deadline + grace))
            if t > clock.deadline + grace and not clock.flagged:
                clock.flagged = True
                late = t - clock.deadline
                self._flag(t, "overtime", seat, D.OVERTIME(action=clock.action, late=late, grace=grace))

    def _on_timer(self, ev: TimerControl) -> None:
        """Pause, resume, add time: a paused clock does not run out; resuming moves every deadline by
        the pause, added time moves one; each moved clock is sent again as a ``countdown``."""
        if ev.action == "pause":
            if self.paused_at is not None:
                self._strange(ev.t, None, D.PAUSED_ALREADY())
                return
            self.paused_at = ev.t
            return
        clocks = self.deal.clocks if self.deal is not None else {}
        if ev.action == "resume":
            if self.paused_at is None:
                self._strange(ev.t, None, D.NOT_PAUSED())
                return
            pause, self.paused_at = ev.t - self.paused_at, None
            for clock in clocks.values():
                clock.deadline += pause
                self._send_clock(ev.t, clock)
            return
        clock = clocks.get(ev.seat) if ev.seat is not None else None
        if clock is None or ev.seconds is None:
            self._strange(ev.t, ev.seat, D.NO_CLOCK(seat=ev.seat))
            return
        clock.deadline += ev.seconds
        if clock.deadline > ev.t:
            clock.grace_sent = False  # the limit is ahead again: the 读秒 grace will start anew
        if self.paused_at is None:
            self._send_clock(ev.t, clock)

    def _send_clock(self, t: float, clock: RunningClock) -> None:
        """A clock whose deadline moved, as the ``countdown`` the timer shows (its grace when in it)."""
        if clock.grace_sent:
            deadline = clock.deadline + self.config.grace
            self._emit(Countdown(t=t, seat=clock.seat, action=Clock.GRACE, limit=deadline - t, deadline=deadline))
        else:
            self._emit(
                Countdown(t=t, seat=clock.seat, action=clock.action, limit=clock.deadline - t, deadline=clock.deadline)
            )

    # -- match and deal ---------------------------------------------------------------------

    def _on_match(self, ev: MatchStart) -> None:
        if self.started is not None:
            self._strange(ev.t, None, D.SECOND_MATCH())
            return
        self.config = RulesConfig.from_mapping(ev.rules, self.base_config)
        self.started = ev.t
        self.sides = dict(ev.sides)
        if ev.levels:
            self.levels = {side: level_index(ev.levels.get(side, "2")) for side in SIDES}
        self.start_levels = dict(self.levels)
        self.next_level = ev.level or (ev.levels and max(ev.levels.values(), key=level_index)) or "2"

    def _on_deal(self, ev: DealStart) -> None:
        if self.started is None:
            self._strange(ev.t, None, D.DEAL_BEFORE_MATCH())
            self.started = ev.t
        if self.match_over:
            self._strange(ev.t, None, D.DEAL_AFTER_MATCH())
            return
        if self.pending_end is not None:
            self._finish_deal(*self.pending_end, foul_side=None)
        if self.deal is not None and self.deal.phase is not Phase.OVER:
            self._strange(ev.t, None, D.DEAL_OVERLAP(next=self.deal.number + 1, number=self.deal.number))
        dealt = {seat: list(cards) for seat, cards in ev.hands.items()} if ev.hands else None
        seats = {seat: SeatState(hand=Counter(dealt[seat]) if dealt and seat in dealt else None) for seat in SEATS}
        owed = self.last_order is not None and self.last_foul is None
        plan = trib.plan(self.last_order) if self.last_order is not None and owed else None
        resisted = None
        if plan is not None and dealt is not None and all(s in dealt for s in plan.payers):
            resisted = trib.resists(plan, dealt, self.config.resist_double_each)
        step = Step.TRIBUTE_OWED if plan is not None and not resisted else Step.DEALT
        deal = DealState(self.deals_played + 1, self.next_level, advance(None, step), seats, dealt, plan, resisted)
        self.deal = deal
        if dealt is not None:
            self._check_dealt(ev.t, dealt)
        if plan is None:
            self._lead_after_no_tribute(ev.t, ev.first_leader)
            return
        if resisted:
            self._begin_play(ev.t, plan.upstream)
            return
        for payer in deal.plan.payers:
            self._start_clock(ev.t, payer, "tribute", self.config.tribute_limit)

    def _lead_after_no_tribute(self, t: float, first_leader: str | None) -> None:
        if first_leader is None and self.last_foul is not None:
            self._strange(t, None, D.NO_LEADER_AFTER_FOUL())
        elif first_leader is None:
            self._strange(t, None, D.NO_FIRST_LEADER())
        if first_leader is not None and self.last_foul is not None and SIDE_OF[first_leader] == self.last_foul:
            self._strange(t, first_leader, D.LEADER_FROM_VIOLATOR())
        self._begin_play(t, first_leader)

    def _check_dealt(self, t: float, dealt: dict[str, list[Card]]) -> None:
        for seat in SEATS:
            cards = dealt.get(seat)
            if cards is None or len(cards) != HAND_SIZE:
                got = D.NO_HAND() if cards is None else D.N_CARDS(n=len(cards))
                self._flag(t, "hand_mismatch", seat, D.DEALT_SHORT(got=got, size=HAND_SIZE))
        total = Counter(card for cards in dealt.values() for card in cards)
        extra = _by_code(card for card, n in total.items() if n > 2)
        if extra:
            self._flag(t, "duplicate_card", None, D.DEALT_COPIES(cards=_text(extra)), tuple(extra))

    def _begin_play(self, t: float, leader: str | None) -> None:
        """Play starts (the phase is PLAY already): the exchange's clocks stop, the leader's starts."""
        deal = self.deal
        assert deal is not None and deal.phase is Phase.PLAY
        deal.clocks.clear()
        self._give_turn(t, leader, lead=True)

    # -- tribute and return (R-TRIB) --------------------------------------------------------

    def _on_tribute(self, ev: Tribute) -> None:
        deal = self._deal_or_flag(ev)
        if deal is None:
            return
        tp = deal.plan
        if tp is None or ev.seat not in tp.payers or deal.first_play_done or deal.resisted:
            self._strange(ev.t, ev.seat, D.OWES_NO_TRIBUTE(seat=ev.seat))
            return
        deal.tributes[ev.seat] = ev.card
        deal.clocks.pop(ev.seat, None)
        if deal.dealt is not None:
            held = deal.dealt[ev.seat]
            if ev.card not in held:
                self._flag(ev.t, "hand_mismatch", ev.seat, D.TRIBUTE_NOT_DEALT(card=ev.card.code), (ev.card,))
            else:
                error = trib.tribute_error(ev.card, held, deal.level)
                if error:
                    self._flag(ev.t, "wrong_tribute", ev.seat, D.EXCHANGE_AGAIN(error=error), (ev.card,))
        if len(deal.tributes) == len(tp.payers):
            deal.paid_to = trib.recipients(tp, deal.tributes, deal.level)
            if deal.phase is Phase.OVER:  # the tribute's own flag, confirmed, was a foul: the deal ended
                return
            first = deal.phase is Phase.TRIBUTE
            deal.phase = advance(deal.phase, Step.TRIBUTES_PAID)
            if first:
                for recipient in deal.paid_to.values():
                    self._start_clock(ev.t, recipient, "return", self.config.return_limit)

    def _on_return(self, ev: Return) -> None:
        deal = self._deal_or_flag(ev)
        if deal is None:
            return
        if deal.phase not in (Phase.RETURN, Phase.PLAY) or deal.first_play_done or ev.seat not in deal.paid_to.values():
            self._strange(ev.t, ev.seat, D.OWES_NO_RETURN(seat=ev.seat))
            return
        deal.returns[ev.seat] = ev.card
        deal.clocks.pop(ev.seat, None)
        if deal.dealt is not None:
            payer = next(p for p, to in deal.paid_to.items() if to == ev.seat)
            held = [*deal.dealt[ev.seat], deal.tributes[payer]]
            if ev.card not in held:
                self._flag(ev.t, "hand_mismatch", ev.seat, D.RETURN_NOT_HELD(card=ev.card.code), (ev.card,))
            else:
                error = trib.return_error(ev.card, held, deal.level)
                if error:
                    self._flag(ev.t, "wrong_return", ev.seat, D.EXCHANGE_AGAIN(error=error), (ev.card,))
        if deal.phase is Phase.RETURN and len(deal.returns) == len(deal.paid_to):
            assert deal.plan is not None
            deal.phase = advance(deal.phase, Step.RETURNS_MADE)
            leader = trib.first_leader(deal.plan, deal.paid_to, deal.tributes, deal.level, self.config.equal_tribute)
            self._begin_play(ev.t, leader)

    def _exchange_hands(self, deal: DealState) -> None:
        """Apply tribute and return to the counts (and the hands, when known) at the first play."""
        for payer, recipient in deal.paid_to.items():
            for giver, taker, card in (
                (payer, recipient, deal.tributes[payer]),
                (recipient, payer, deal.returns.get(recipient)),
            ):
                if card is None:
                    continue
                deal.seats[giver].count -= 1
                deal.seats[taker].count += 1
                for seat, delta in ((giver, -1), (taker, 1)):
                    hand = deal.seats[seat].hand
                    if hand is not None:
                        hand[card] += delta

    # -- play, pass, report (R-PLAY, R-REPORT) ----------------------------------------------

    def _deal_or_flag(self, ev: Any) -> DealState | None:
        if self.deal is None or self.deal.phase is Phase.OVER or self.match_over:
            self._strange(ev.t, getattr(ev, "seat", None), D.NO_DEAL(type=ev.TYPE))
            return None
        return self.deal

    def _on_play(self, ev: PlayCards) -> None:
        deal = self._deal_or_flag(ev)
        if deal is None:
            return
        resisting = deal.dealt is None and deal.plan is not None and not deal.tributes
        if deal.phase is Phase.TRIBUTE and resisting and ev.seat == deal.plan.upstream:
            deal.resisted = True  # 抗贡 (R-TRIB-3), checked against the cards seen at the end
            deal.phase = advance(deal.phase, Step.RESISTED)
            self._begin_play(ev.t, ev.seat)
        seat = deal.seats[ev.seat]
        if deal.phase is not Phase.PLAY or seat.count == 0 or (deal.to_act is not None and ev.seat != deal.to_act):
            why = D.TO_ACT(to_act=deal.to_act) if deal.phase is Phase.PLAY else D.PHASE_NOT_FINISHED(phase=deal.phase)
            self._flag(ev.t, "out_of_turn_play", ev.seat, D.PLAYED_OUT_OF_TURN(seat=ev.seat, why=why), ev.cards)
            return
        try:
            cards = parse_cards(ev.cards)
        except DuplicateCardError as err:
            self._flag(ev.t, "duplicate_card", ev.seat, str(err), ev.cards)
            return
        plays = classify(cards, deal.level)
        if not plays:
            self._wrong_play(ev, IllegalPatternError(D.NOT_A_PATTERN(cards=_text(ev.cards))))
            return
        declared = self._declared_readings(ev, plays)
        if not deal.readings:  # a lead: the declared reading, else every kind's highest (R-WILD-3)
            readings = tuple(lead_readings(declared or plays, deal.level))
            play, beaten = readings[-1], None
        else:
            found = follow_reading(declared or plays, deal.readings, deal.level)
            if found is None:
                self._wrong_play(ev, DoesNotBeatError(self._beats_none(declared or plays)))
                return
            (play, beaten), readings = found, (found[0],)
        if seat.report_due is not None and seat.count - len(ev.cards) <= 0 and self._out_before_report(ev):
            return
        self._apply_play(ev, play, readings, beaten)

    def _declared_readings(self, ev: PlayCards, plays: list[Play]) -> list[Play]:
        """The readings the play's declaration names (R-WILD-3). A declaration that names none is
        flagged for the referee and the play read as undeclared, never as the station's guess."""
        if not ev.declared:
            return []
        try:
            declaration = Declaration.parse(ev.declared)
        except DeclarationError as err:
            problem = str(err)
        else:
            named = declaration.readings(plays)
            if named:
                return named
            problem = D.DECLARED(declared=declaration.describe())
        readings = ", ".join(p.describe() for p in plays)
        detail = D.DECLARATION_MISMATCH(problem=problem, readings=readings)
        self._flag(ev.t, "declaration_mismatch", ev.seat, detail, ev.cards)
        return []

    def _beats_none(self, plays: list[Play]) -> str:
        """Why a follow is void, naming every reading the trick leaves open (R-CMP, R-WILD-3)."""
        deal = self.deal
        assert deal is not None
        trick = deal.readings
        if len(trick) == 1:
            return D.DOES_NOT_BEAT(play=plays[-1].describe(), prev=trick[0].describe(), level=deal.level)
        names = " or ".join(p.describe() for p in trick)
        return D.BEATS_NONE(play=plays[-1].describe(), readings=names, level=deal.level)

    def _fix_reading(self, ev: PlayCards, beaten: Play) -> None:
        """The first follow that beats one reading of an open lead fixes it (R-WILD-3): in the
        log, and in the lead's history entry."""
        deal = self.deal
        assert deal is not None and deal.last is not None
        lead_seat, lead = deal.last
        entry = next(h for h in reversed(deal.history) if h["seat"] == lead_seat and h["cards"])
        entry["kind"], entry["key"] = beaten.kind.value, beaten.key
        self._emit(
            Reading(
                t=ev.t,
                seat=lead_seat,
                cards=lead.cards,
                status="fixed",
                readings=_named(deal.readings),
                kind=beaten.kind.value,
                key=beaten.key,
                by=ev.seat,
            )
        )

    def _wrong_play(self, ev: PlayCards, err: RulesError) -> None:
        if ev.confidence is not None and ev.confidence < self.config.min_confidence:
            self._flag(ev.t, "uncertain_read", ev.seat, D.LOW_CONFIDENCE(confidence=ev.confidence, err=err), ev.cards)
            return
        offence = "does_not_beat" if isinstance(err, DoesNotBeatError) else "illegal_pattern"
        self._flag(ev.t, offence, ev.seat, D.TAKEN_BACK(err=err, seat=ev.seat), ev.cards)

    def _out_before_report(self, ev: PlayCards) -> bool:
        """R-REPORT-2: the violator goes out before the missed report was flagged. As 上游 it is a
        foul (the play stands); otherwise the going-out play is taken back (infraction)."""
        deal = self.deal
        assert deal is not None
        deal.seats[ev.seat].report_due = None
        if not deal.order:
            self._flag(ev.t, "missed_report", ev.seat, D.OUT_UNREPORTED_UPSTREAM(), ev.cards, Rung.FOUL)
            return False
        self._flag(ev.t, "missed_report", ev.seat, D.OUT_UNREPORTED(), ev.cards, Rung.INFRACTION)
        return True

    def _apply_play(self, ev: PlayCards, play: Play, readings: tuple[Play, ...], beaten: Play | None) -> None:
        """Lay the play. ``readings``: those it leaves open to a follow (R-WILD-3); ``beaten``: the
        reading of the trick it beat, which fixes a lead that was open."""
        deal = self.deal
        assert deal is not None
        if not deal.first_play_done:
            deal.first_play_done = True
            self._exchange_hands(deal)
        seat = deal.seats[ev.seat]
        self._check_cards(ev, seat)
        if not self._count_action(ev.t):
            return
        if beaten is not None and len(deal.readings) > 1:
            self._fix_reading(ev, beaten)
        seat.count = max(0, seat.count - len(ev.cards))
        seat.played += ev.cards
        deal.seen.update(ev.cards)
        deal.last = (ev.seat, play)
        deal.readings = readings
        deal.passes = 0
        deal.history.append(
            {"t": ev.t, "seat": ev.seat, "cards": list(ev.cards), "kind": play.kind.value, "key": play.key}
        )
        if len(readings) > 1:
            self._emit(Reading(t=ev.t, seat=ev.seat, cards=ev.cards, status="open", readings=_named(readings)))
        self._laid(ev)

    def exchange_unseen(self, t: float) -> None:
        """The tribute and return were made but not seen (#30, ``table.doubt``): play begins with no
        seat named to lead (the first play names it), and the hands of the seats that exchanged are no
        longer known (R-TRIB)."""
        deal = self.deal
        if deal is None or deal.phase not in (Phase.TRIBUTE, Phase.RETURN) or deal.plan is None:
            return
        plan = deal.plan
        for seat in {*plan.payers, plan.upstream, *((PARTNER[plan.upstream],) if plan.double else ())}:
            deal.seats[seat].hand = None
        deal.phase = advance(deal.phase, Step.EXCHANGE_UNSEEN)
        self._begin_play(t, None)

    def lay_unread(self, ev: PlayCards) -> list[Output]:
        """A play read too doubtfully to know its cards (#30, ``table.doubt``): the seat to act laid
        ``len(ev.cards)`` cards, taken as a legal play; the next follow is judged as a lead would be,
        and the cards count neither for the hand nor for the copies seen."""
        self._out = []
        deal = self.deal
        if deal is None or deal.phase is not Phase.PLAY or ev.seat != deal.to_act:
            return self.feed(ev)  # nothing to lay it on: judged as read
        self.now = max(self.now, ev.t)
        self._check_clocks(ev.t)
        if not deal.first_play_done:
            deal.first_play_done = True
            self._exchange_hands(deal)
        if not self._count_action(ev.t):
            return self._out
        seat = deal.seats[ev.seat]
        seat.count = max(0, seat.count - len(ev.cards))
        unread = Play(Kind.SINGLE, None, len(ev.cards), ev.cards)
        deal.last, deal.readings, deal.passes = (ev.seat, unread), (), 0
        deal.history.append({"t": ev.t, "seat": ev.seat, "cards": list(ev.cards), "kind": "unread", "key": None})
        self._laid(ev)
        return self._out

    def _laid(self, ev: PlayCards) -> None:
        """After a play lies: the clock stops, the seat goes out or owes a report, the turn moves on."""
        deal = self.deal
        assert deal is not None
        seat = deal.seats[ev.seat]
        deal.clocks.pop(ev.seat, None)
        seat.reported = None
        if seat.count == 0:
            deal.order.append(ev.seat)
            if self._side_out():
                self._end_of_deal(ev.t)
                return
        elif seat.count <= REPORT_MAX and self.config.reports_heard:
            seat.report_due = 0
        self._give_turn(ev.t, self._next_active(ev.seat), lead=False)

    def _check_cards(self, ev: PlayCards, seat: SeatState) -> None:
        deal = self.deal
        assert deal is not None
        if len(ev.cards) > seat.count:
            self._flag(ev.t, "hand_overflow", ev.seat, D.OVERFLOW(n=len(ev.cards), left=seat.count), ev.cards)
        if seat.hand is not None:
            missing = Counter(ev.cards) - seat.hand
            if missing:
                codes = _text(_by_code(missing.elements()))
                self._flag(ev.t, "hand_mismatch", ev.seat, D.NOT_IN_HAND(cards=codes, seat=ev.seat), ev.cards)
            seat.hand -= Counter(ev.cards)
        third = _by_code(card for card, n in Counter(ev.cards).items() if deal.seen[card] + n > 2)
        if third:
            self._flag(ev.t, "duplicate_card", ev.seat, D.THIRD_COPY(cards=_text(third)), ev.cards)

    def _on_pass(self, ev: Pass) -> None:
        deal = self._deal_or_flag(ev)
        if deal is None:
            return
        if deal.phase is not Phase.PLAY or ev.seat != deal.to_act:
            why = D.TO_ACT(to_act=deal.to_act) if deal.phase is Phase.PLAY else D.PHASE_NOT_FINISHED(phase=deal.phase)
            self._flag(ev.t, "out_of_turn_pass", ev.seat, D.PASSED_OUT_OF_TURN(seat=ev.seat, why=why))
            return
        if deal.last is None:
            self._flag(ev.t, "out_of_turn_pass", ev.seat, D.MUST_LEAD(seat=ev.seat))
            return
        if not self._count_action(ev.t):
            return
        deal.clocks.pop(ev.seat, None)
        deal.history.append({"t": ev.t, "seat": ev.seat, "cards": [], "kind": "pass", "key": None})
        self._after_pass(ev.t, ev.seat)

    def _after_pass(self, t: float, seat: str) -> None:
        deal = self.deal
        assert deal is not None and deal.last is not None
        deal.passes += 1
        last_seat = deal.last[0]
        others = sum(1 for s in SEATS if s != last_seat and deal.seats[s].count > 0)
        if deal.passes >= others:
            leader = last_seat if deal.seats[last_seat].count > 0 else PARTNER[last_seat]  # 接风 R-PLAY-2
            deal.last = None
            deal.readings = ()
            deal.passes = 0
            self._give_turn(t, leader, lead=True)
        else:
            self._give_turn(t, self._next_active(seat), lead=False)

    def _next_active(self, seat: str) -> str:
        deal = self.deal
        assert deal is not None
        nxt = NEXT_SEAT[seat]
        while deal.seats[nxt].count == 0 and nxt != seat:
            nxt = NEXT_SEAT[nxt]
        return nxt

    def _give_turn(self, t: float, seat: str | None, *, lead: bool) -> None:
        """Hand the turn to ``seat`` and start its clock; a stopped seat (infraction, the 下家's
        choice) loses this turn: on a lead the next seat, of the non-violating side, leads."""
        deal = self.deal
        assert deal is not None
        deal.to_act = seat
        if seat is None:
            return
        state = deal.seats[seat]
        if state.stopped:
            state.stopped = False
            deal.history.append({"t": t, "seat": seat, "cards": [], "kind": "stopped", "key": None})
            if lead or deal.last is None:
                self._give_turn(t, self._next_active(seat), lead=True)
            else:
                self._after_pass(t, seat)
            return
        first = lead and not deal.first_play_done
        limit = self.config.first_lead_limit if first else self.config.play_limit
        self._start_clock(t, seat, "lead" if lead else "follow", limit)

    def _count_action(self, t: float) -> bool:
        """R-REPORT-2: every accepted play or pass is one further action for the reports due.

        Returns whether the deal goes on: a missed report's infraction can escalate to a foul or a
        match loss, which ends the deal at once, and then the action itself is not applied."""
        deal = self.deal
        assert deal is not None
        for seat in SEATS:
            state = deal.seats[seat]
            if state.report_due is None:
                continue
            state.report_due += 1
            if state.report_due >= 2:
                state.report_due = None
                self._flag(
                    t,
                    "missed_report",
                    seat,
                    D.NO_REPORT(count=state.count),
                    penalty=Rung.INFRACTION,
                )
        return deal.phase is Phase.PLAY and not self.match_over

    def _on_report(self, ev: Report) -> None:
        deal = self._deal_or_flag(ev)
        if deal is None:
            return
        seat = deal.seats[ev.seat]
        due = seat.report_due
        if due is None:
            if seat.reported is not None:
                self._flag(ev.t, "repeated_report", ev.seat, D.REPEATED_REPORT(count=ev.count))
            elif seat.count == 0 or seat.count > REPORT_MAX:
                self._strange(ev.t, ev.seat, D.REPORT_NONE_DUE(count=ev.count, left=seat.count))
            seat.reported = ev.count
            return
        seat.report_due = None
        seat.reported = ev.count
        if due >= 1:
            extra = "" if ev.count == seat.count else D.AND_WRONG(count=ev.count, left=seat.count)
            self._flag(ev.t, "missed_report", ev.seat, D.REPORTED_LATE(extra=extra))
        elif ev.count != seat.count:
            self._flag(ev.t, "wrong_report", ev.seat, D.WRONG_REPORT(count=ev.count, left=seat.count))

    # -- end of a deal (R-PLAY-3, R-UP, R-TRIB-4) -----------------------------------------------

    def _side_out(self) -> bool:
        deal = self.deal
        assert deal is not None
        return any(all(deal.seats[s].count == 0 for s in SIDE_SEATS[side]) for side in SIDES)

    def _end_of_deal(self, t: float) -> None:
        deal = self.deal
        assert deal is not None
        deal.phase = advance(deal.phase, Step.SIDE_OUT)
        deal.clocks.clear()
        deal.to_act = None
        order: list[str | None] = list(deal.order)
        if len(order) == 3:
            order.append(next(s for s in SEATS if s not in order))
        order += [None] * (4 - len(order))
        self.pending_end = (t, order)
        self._check_exchange_at_end(t)
        if self.pending_end is not None and not self._end_flags_open():
            self._finish_deal(*self.pending_end, foul_side=None)

    def _end_flags_open(self) -> bool:
        deal = self.deal
        assert deal is not None
        return any(
            f.deal == deal.number
            and f.decided is None
            and f.flag.offence in ("wrong_tribute", "wrong_return")
            and f.flag.penalty is Rung.FOUL
            for f in self.flags.values()
        )

    def _check_exchange_at_end(self, t: float) -> None:
        """R-TRIB-4: with unknown hands, a wrong tribute or return is proved by the cards the seat
        was seen to play; found at the end of the deal it is a foul."""
        deal = self.deal
        assert deal is not None
        if deal.dealt is not None or deal.plan is None:
            return
        if deal.resisted:
            payers = set(deal.plan.payers)
            elsewhere = sum(deal.seats[s].played.count(trib.BIG_JOKER) for s in SEATS if s not in payers)
            if elsewhere:
                self._flag(
                    t,
                    "wrong_tribute",
                    deal.plan.payers[0],
                    D.RESISTED_BIG_JOKER(),
                    penalty=Rung.FOUL,
                )
            return
        for payer, recipient in deal.paid_to.items():
            card, back = deal.tributes[payer], deal.returns.get(recipient)
            seen = list(deal.seats[payer].played)
            if back in seen:
                seen.remove(back)
            error = trib.tribute_error(card, seen, deal.level)
            if error:
                self._flag(t, "wrong_tribute", payer, error, (card,), Rung.FOUL)
            if back is not None:
                held = list(deal.seats[recipient].played)
                if card in held:
                    held.remove(card)
                error = trib.return_error(back, held, deal.level)
                if error:
                    self._flag(t, "wrong_return", recipient, error, (back,), Rung.FOUL)

    def _finish_deal(self, t: float, order: list[str | None], foul_side: str | None) -> None:
        deal = self.deal
        assert deal is not None
        self.pending_end = None
        deal.phase = advance(deal.phase, Step.ENDED)
        deal.clocks.clear()
        deal.to_act = None
        if foul_side is not None:
            winners = [s for s in deal.order if SIDE_OF[s] != foul_side]
            order = [*winners, *([None] * (4 - len(winners)))]
            side_up, levels_up, passed = OTHER_SIDE[foul_side], 3, False
            gained = max(0, min(self.levels[side_up] + 3, ACE) - self.levels[side_up])
        else:
            score = score_deal(order, self.levels, deal.level)
            side_up, levels_up, gained, passed = score.side_up, score.levels_up, score.gained, score.passed_ace
        self.levels[side_up] += gained
        self.deals_played = deal.number
        self.last_order = order
        self.last_foul = foul_side
        self.next_level = level_rank(self.levels[side_up])
        self._emit(
            DealEnd(
                t=t,
                deal=deal.number,
                order=tuple(order),
                side_up=side_up,
                levels_up=levels_up,
                levels={s: level_rank(v) for s, v in self.levels.items()},
                next_level=self.next_level,
                foul=foul_side is not None,
            )
        )
        if passed:
            self.levels[side_up] = PASSED_ACE
            self._end_match(t, side_up, "passed A")
        elif self.config.length_deals is not None and self.deals_played >= self.config.length_deals:
            self._end_match(t, None, f"{self.deals_played} deals played")
        elif self.time_called is not None or (
            self.config.length_minutes is not None
            and self.started is not None
            and (t - self.started >= self.config.length_minutes * 60)
        ):
            self._end_match(t, None, "time called")

    def _on_time_call(self, ev: TimeCall) -> None:
        """R-MATCH-1: the deal in progress (dealt, or ended with flags still open) is finished; with none
        the match ends now. A repeated call changes nothing."""
        if self.time_called is not None or self.match_over:
            return
        self.time_called = ev.t
        in_progress = self.pending_end is not None or (self.deal is not None and self.deal.phase is not Phase.OVER)
        if not in_progress:
            self._end_match(ev.t, None, "time called")

    def _end_match(self, t: float, winner: str | None, reason: str) -> None:
        score = score_match(self.levels, winner, self.config.level_diff_base)
        gained = {s: self.levels[s] - self.start_levels[s] for s in SIDES}
        self.match_over = True
        self._emit(
            MatchEnd(
                t=t,
                winner=score.winner,
                levels={s: level_rank(v) for s, v in self.levels.items()},
                points=score.points,
                level_diff_points=score.level_diff_points,
                levels_gained=gained,
                levels_conceded={s: gained[OTHER_SIDE[s]] for s in SIDES},
                reason=reason,
            )
        )

    # -- rulings and the ladder (R-PEN) -----------------------------------------------------------

    def _on_ruling(self, ev: Ruling) -> None:
        state = self.flags.get(ev.flag)
        if state is None:
            self._strange(ev.t, None, D.NO_SUCH_FLAG(flag=ev.flag))
            return
        if state.decided is not None:
            self._strange(ev.t, state.flag.seat, D.RULED_ALREADY(flag=ev.flag, decision=state.decided))
            return
        self._decide(ev.t, state, ev.decision, ev.stop_next)

    def _decide(self, t: float, state: FlagState, decision: Decision, stop_next: bool) -> None:
        flag = state.flag
        state.decided = decision
        in_deal = (
            self.deal is not None
            and state.deal == self.deal.number
            and (self.deal.phase is not Phase.OVER or self.pending_end is not None)
        )
        if decision is Decision.DISMISS or flag.penalty is Rung.ANOMALY or flag.side is None:
            if self.pending_end is not None and not self._end_flags_open():
                self._finish_deal(*self.pending_end, foul_side=None)
            return
        if not in_deal and not self.match_over:
            self._flag(t, "late_ruling", flag.seat, D.LATE_RULING(flag=flag.id))
            return
        if self.config.wrong_play_stops and flag.offence in WRONG_PLAYS:
            self._stop_next(flag.seat)  # V-4: stopped for one round instead of the ladder
            return
        steps = self.ladder.add(flag.side, flag.penalty)
        for penalty, reason in steps:
            self._emit(Penalty(t=t, side=flag.side, penalty=penalty, reason=reason, flags=(flag.id,)))
        reached = {penalty for penalty, _ in steps}
        if Rung.MATCH_LOSS in reached:
            self._match_loss(t, flag.side)
        elif Rung.FOUL in reached:
            self._foul(t, flag.side)
        elif Rung.INFRACTION in reached and stop_next:
            self._stop_next(flag.seat)

    def _stop_next(self, seat: str | None) -> None:
        if seat is not None and self.deal is not None and self.deal.phase is Phase.PLAY:
            self.deal.seats[seat].stopped = True

    def _foul(self, t: float, side: str) -> None:
        """犯规: the deal ends at once, the violating side double down, no tribute next deal."""
        if self.pending_end is not None:
            self._finish_deal(self.pending_end[0], self.pending_end[1], foul_side=side)
        elif self.deal is not None and self.deal.phase is not Phase.OVER:
            self._finish_deal(t, [], foul_side=side)

    def _match_loss(self, t: float, side: str) -> None:
        """判负: the match ends, recorded as the violator's level + 4 for the other side."""
        if self.match_over:
            return
        if self.deal is not None:
            self.deal.phase = advance(self.deal.phase, Step.ENDED)
            self.deal.clocks.clear()
        self.pending_end = None
        self.levels = match_loss_levels(self.levels, side)
        self._end_match(t, OTHER_SIDE[side], "match loss (two fouls)")

    # -- a view of the whole state, for tests, the console and the hall --------------------------

    def snapshot(self) -> TableState:
        """The whole referee state as frozen data (cheap; no references into the state)."""
        deal = self.deal
        return TableState(
            levels={s: level_rank(v) for s, v in self.levels.items()},
            next_level=self.next_level,
            deals_played=self.deals_played,
            match_over=self.match_over,
            time_called=self.time_called,
            paused_at=self.paused_at,
            ladder=self.ladder.snapshot(),
            open_flags=tuple(
                sorted(i for i, f in self.flags.items() if f.decided is None and f.flag.penalty is not Rung.ANOMALY)
            ),
            deal=None if deal is None else _deal_view(deal),
        )


def _deal_view(deal: DealState) -> DealView:
    last = None
    if deal.last is not None:
        seat, play = deal.last
        last = LastPlay(seat, tuple(play.codes), play.kind.value, play.key, _named(deal.readings))
    return DealView(
        number=deal.number,
        level=deal.level,
        phase=deal.phase,
        to_act=deal.to_act,
        last=last,
        passes=deal.passes,
        counts={s: deal.seats[s].count for s in SEATS},
        order=tuple(deal.order),
        reports={s: deal.seats[s].reported for s in SEATS},
        stopped=tuple(sorted(s for s in SEATS if deal.seats[s].stopped)),
        clocks={s: ClockView(c.action, c.deadline) for s, c in deal.clocks.items()},
        tributes={seat: card.code for seat, card in deal.tributes.items()},
        returns={seat: card.code for seat, card in deal.returns.items()},
        resisted=deal.resisted,
    )
