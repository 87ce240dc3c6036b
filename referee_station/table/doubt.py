"""Doubtful reads (#30, #24 "know the game"): a play the camera is not sure of is judged under every
close reading it could be, never applied as the reader's guess.

A play is doubtful when it is read below ``RulesConfig.min_confidence``, or when its best reading is
not a legal play here (not a pattern, does not beat the trick) or would be a third copy of a card seen
this deal (two decks, R-CARD-1) while a close reading from ``PlayCards.alternatives`` is not. Then the
table holds it pending: :class:`Judge` keeps one referee state (a "world") per reading, feeds every
later event to each, and sends only the outputs every world agrees on, so a flag goes out only where
it holds under every reading. A world under which a later action is void (the table played on as that
reading would not allow: a follow that does not beat it, a turn out of order) is dropped while another
allows it; settling the read as that reading replays the log and brings its flags back, so the prior
never hides a violation from the referee, it only waits for the referee's look; the flags the worlds
left had held back go out then. A penalty is proposed from a read only when no close reading is legal.
Two doubts concern what the camera saw rather than the cards: a seat's own cards read again where
they lie (:func:`seen_again`), and a lead after a tribute and return it missed
(:func:`missed_exchange`). The pending read is settled by a ``settle`` input (``table.corrections``),
which replays the log.
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from referee_station.core import Phase
from referee_station.rules import Card, RulesError, classify, follow_reading, parse_cards
from referee_station.rules.cards import COPIES
from referee_station.table import details as D
from referee_station.table.config import RulesConfig
from referee_station.table.events import (
    Countdown,
    DealStart,
    Exchange,
    Flag,
    Output,
    PlayCards,
    Record,
    Tick,
    Tribute,
)
from referee_station.table.offences import VOIDING
from referee_station.table.referee import TableReferee
from referee_station.table.tribute import judged_alike

MAX_PER_CARD = 3
"""Close readings kept per card (best first)."""
MAX_READINGS = 8
"""Readings one doubtful play is judged under (the most probable ones)."""
MAX_WORLDS = 16
"""Referee states kept at once; a doubtful play that would need more is judged under fewer readings."""
VOIDED = VOIDING | {"uncertain_read"}
"""Flags of a world's own judgement that take the action back: the rules' void ones, and a play read
below ``min_confidence`` that is no legal play (``TableReferee`` flags it for a look, not lays it)."""
UNREAD: tuple[Card, ...] = ()
"""The reading "some legal play of these many cards, which we cannot read" (``TableReferee.lay_unread``):
what a play read below ``min_confidence`` may be when no alternative is known or none is legal."""


@dataclass(frozen=True)
class Candidate:
    """One reading of a play: its cards, left to right, and the product of their probabilities."""

    cards: tuple[Card, ...]
    p: float


@dataclass(frozen=True)
class Pending:
    """A doubtful play held pending: the readings it is judged under, and its ``uncertain_read`` flag,
    raised at once when the read itself is not taken or some close readings are left unjudged (too many
    worlds), else when the readings first disagree (never, for a read that is its only reading)."""

    flag: int | None
    event: PlayCards | Exchange
    readings: tuple[tuple[Card, ...], ...]

    @property
    def offers_a_choice(self) -> bool:
        """Whether the play is judged under more than one reading: only then can worlds disagree on it."""
        return len(self.readings) > 1


def candidates(ev: PlayCards | Exchange, margin: float) -> tuple[Candidate, ...]:
    """The play's close readings, most probable first, the read cards first among equals.

    Without ``alternatives`` (a tracker that sends only ``confidence``) the read is the only reading
    known. Readings that are the same cards in another order are one reading."""
    if ev.alternatives is None:
        return (Candidate(ev.cards, 1.0 if ev.confidence is None else ev.confidence),)
    per_card: list[list[tuple[Card, float]]] = []
    for card, alternatives in zip(ev.cards, ev.alternatives, strict=True):
        best = max(p for _, p in alternatives)
        close = [(c, p) for c, p in alternatives if p >= best - margin and c is not card][: MAX_PER_CARD - 1]
        read_p = next((p for c, p in alternatives if c is card), best)
        per_card.append([(card, read_p), *close])
    beam: list[Candidate] = [Candidate((), 1.0)]
    for i, options in enumerate(per_card):  # the most probable partial readings only: a long play has many
        grown = [Candidate((*c.cards, card), c.p * p) for c, (card, p) in itertools.product(beam, options)]
        read = ev.cards[: i + 1]
        beam = _distinct(sorted(grown, key=lambda c: (c.cards != read, -c.p)))[: MAX_READINGS * 4]
    return tuple(beam[:MAX_READINGS])


def _distinct(readings: list[Candidate]) -> list[Candidate]:
    """The first of the readings that are the same cards in another order."""
    seen: set[tuple[Card, ...]] = set()
    out: list[Candidate] = []
    for cand in readings:
        key = tuple(sorted(cand.cards))
        if key not in seen:
            seen.add(key)
            out.append(cand)
    return out


def as_sure(ev: PlayCards | Exchange, cards: tuple[Card, ...]) -> PlayCards | Exchange:
    """The play (or tribute, or return: one card) read as ``cards`` for certain: what a world is fed, and
    what a settled read becomes."""
    if isinstance(ev, Exchange):
        return replace(ev, card=cards[0], confidence=None, alternatives=None)
    return replace(ev, cards=cards, confidence=None, alternatives=None)


def _legal(world: TableReferee, cards: tuple[Card, ...]) -> bool:
    """Whether ``cards`` are a legal pattern that beats the trick here (R-PAT, R-CMP, R-WILD-3): the
    part of the rules core's judgement of a play that depends on the cards (the turn does not)."""
    deal = world.deal
    assert deal is not None
    try:
        plays = classify(parse_cards(cards), deal.level)
    except RulesError:
        return False
    if not plays:
        return False
    return not deal.readings or follow_reading(plays, deal.readings, deal.level) is not None


def _fits(world: TableReferee, ev: PlayCards | Exchange, cards: tuple[Card, ...]) -> bool:
    """The ledger: no third copy of a card seen this deal, and in the seat's hand when it is known."""
    deal = world.deal
    if deal is None:
        return True
    laid = Counter(cards)
    if any(deal.seen[card] + n > COPIES for card, n in laid.items()):
        return False
    hand = deal.seats[ev.seat].hand  # the tribute exchange reaches the hands at the first play
    return hand is None or not deal.first_play_done or not (laid - hand)


def weigh(world: TableReferee, ev: PlayCards, config: RulesConfig) -> tuple[tuple[Card, ...], ...] | None:
    """The readings a doubtful play is to be judged under, best first; None when the play is judged
    as read: a sure read that stands, or a sure one that no close reading would make legal (a wrong
    play read with confidence is still a wrong play). Read below ``min_confidence`` with no
    alternative known (``confidence`` alone), the play may also be a legal one nobody read
    (:data:`UNREAD`); with no legal reading at all, that and the read itself (the play may be the
    wrong play it was read as: its flag is held back until the table's next action or the referee's
    look tells which). Out of turn, a doubtful play of about the cards the seat has lying on the table
    (as many, half of them the same) may be those cards read again (:func:`seen_again`)."""
    deal = world.deal
    if deal is None or deal.phase != "play" or world.match_over:
        return None  # no trick to play to, whatever the cards: judged as read
    low = ev.confidence is not None and ev.confidence < config.min_confidence
    if ev.seat != deal.to_act:  # out of turn whatever the cards, unless they are the ones lying there
        lying = _lying(world, ev.seat)
        if low and lying is not None and len(lying) == len(ev.cards) and _overlap(lying, ev.cards) * 2 >= len(lying):
            return (lying, ev.cards)
        return None
    if not low and (ev.alternatives is None or (_fits(world, ev, ev.cards) and _legal(world, ev.cards))):
        return None
    legal = [c.cards for c in candidates(ev, config.read_margin) if _legal(world, c.cards)]
    if not legal:
        return (UNREAD, ev.cards) if low else None
    chosen = tuple([c for c in legal if _fits(world, ev, c)] or legal)
    if not low:
        return None if chosen == (ev.cards,) else chosen
    read = () if ev.cards in chosen else (ev.cards,)  # below confidence the read itself may be what was laid
    return (*chosen, *read) if ev.alternatives is not None else (*chosen, *read, UNREAD)


def weigh_exchange(world: TableReferee, ev: Exchange, config: RulesConfig) -> tuple[tuple[Card, ...], ...] | None:
    """The readings a tribute or return read below ``min_confidence`` is to be judged under: its close
    readings that R-TRIB-4 could judge otherwise than the read (``tribute.judged_alike``) and that are no
    third copy, the read first, so that a wrong tribute or return is proposed only where every such
    reading would be one; None when it is judged as read (read for sure, or nothing to judge otherwise).
    Readings the rules judge alike are not kept apart: with the hands unknown their worlds would stand
    apart until the deal's end and multiply every later doubt's."""
    deal = world.deal
    if ev.confidence is None or ev.confidence >= config.min_confidence or ev.alternatives is None or deal is None:
        return None
    tribute = isinstance(ev, Tribute)
    classes: dict[tuple[object, ...], tuple[Card, ...]] = {judged_alike(ev.card, deal.level, tribute): ev.cards}
    for cand in candidates(ev, config.read_margin):
        classes.setdefault(judged_alike(cand.cards[0], deal.level, tribute), cand.cards)
    close = list(classes.values())
    chosen = tuple([cards for cards in close if _fits(world, ev, cards)] or close)
    return None if chosen == (ev.cards,) else chosen


def _lying(world: TableReferee, seat: str) -> tuple[Card, ...] | None:
    """The cards ``seat`` laid last this deal when that play is its latest action (nothing since: its
    cards still lie in its play area, or were cleared with the trick), else None."""
    deal = world.deal
    if deal is None:
        return None
    last = next((h for h in reversed(deal.history) if h["seat"] == seat), None)
    if last is None or not last["cards"]:
        return None
    return tuple(last["cards"])


def _overlap(these: Iterable[Card], those: Iterable[Card]) -> int:
    return sum((Counter(these) & Counter(those)).values())


def seen_again(world: TableReferee, ev: PlayCards) -> bool:
    """A play out of turn of exactly the cards the seat laid last, with nothing since: the camera saw
    the cards lying there again (a hand passing over them, a trick cleared late), not a new play."""
    deal = world.deal
    lying = _lying(world, ev.seat)
    return (
        deal is not None
        and deal.phase is Phase.PLAY
        and ev.seat != deal.to_act
        and lying is not None
        and Counter(lying) == Counter(ev.cards)
    )


def missed_exchange(world: TableReferee, ev: PlayCards, config: RulesConfig) -> bool:
    """A play of more cards than a tribute, read below ``min_confidence`` while the tribute or return
    is owed: the camera that misread it may have missed the exchange cards as well, so the play may be
    the first lead after an exchange nobody saw. A play read for sure there is out of turn (R-PLAY-1)."""
    deal = world.deal
    low = ev.confidence is not None and ev.confidence < config.min_confidence
    return low and deal is not None and deal.phase in (Phase.TRIBUTE, Phase.RETURN) and len(ev.cards) > 1


def _describe(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


class FlagIds:
    """Flag numbers shared by every world and every replay: the same flag (same content, the n-th
    such in its world) keeps its number, so a ruling names the same flag after a correction."""

    def __init__(self) -> None:
        self._ids: dict[tuple[Any, ...], int] = {}

    def __call__(self, world: TableReferee, flag: Flag) -> int:
        key = _content(flag)
        n = sum(1 for state in world.flags.values() if _content(state.flag) == key)
        return self._ids.setdefault((*key, n), len(self._ids) + 1)


def _content(flag: Flag) -> tuple[Any, ...]:
    """What makes a flag the same flag in two worlds: its words may name the world's state ("N is to
    act"), so they are left out."""
    return (flag.t, flag.offence, flag.seat, flag.penalty, flag.cards)


def same(output: Output) -> str:
    """An output as compared across worlds and replays: a flag without its words and its grouping
    (``cause``), which say how it was shown, not whether it holds."""
    if isinstance(output, Flag):
        output = replace(output, detail="", detail_zh="", cause=None)
    return output.to_line()


def _fingerprint(world: TableReferee) -> tuple[Any, ...]:
    """What decides the rest of the match: worlds equal in it may be merged at a new deal."""
    return (
        dict(world.levels),
        world.next_level,
        world.deals_played,
        world.last_order,
        world.last_foul,
        world.match_over,
        world.pending_end,
        world.ladder.snapshot(),
    )


def _core(world: TableReferee) -> tuple[Any, ...]:
    """Where play stands, for worlds to converge: only between tricks (no play to beat)."""
    deal = world.deal
    if deal is None or deal.last is not None:
        return (id(world),)  # within a trick the readings still matter: never equal
    seats = tuple((s.count, s.report_due, s.reported, s.stopped) for s in deal.seats.values())
    clocks = tuple(sorted((seat, c.action, c.deadline) for seat, c in deal.clocks.items()))
    # the exchange's cards too: with the hands unknown a tribute or return is judged at the deal's end (R-TRIB-4)
    exchange = (tuple(sorted(deal.tributes.items())), tuple(sorted(deal.returns.items())))
    return (_fingerprint(world), deal.number, deal.phase, deal.to_act, deal.order, seats, clocks, exchange)


def common(per_world: list[list[Output]]) -> list[Output]:
    """The outputs every world gave (:func:`same`), in the first world's order and words (counted, so two
    equal lines stay two)."""
    first, *others = per_world
    if not others:
        return first
    counts = [Counter(same(o) for o in outs) for outs in others]
    out: list[Output] = []
    for output in first:
        line = same(output)
        if all(c[line] > 0 for c in counts):
            for c in counts:
                c[line] -= 1
            out.append(output)
    return out


def _minus(these: list[Output], those: list[Output]) -> list[Output]:
    """The outputs of ``these`` that ``those`` does not hold (:func:`same`, counted), count-downs left
    out: a clock held back is a moment past, never sent late."""
    left = Counter(same(o) for o in those)
    out: list[Output] = []
    for output in these:
        line = same(output)
        if left[line] > 0:
            left[line] -= 1
        elif not isinstance(output, Countdown):
            out.append(output)
    return out


class Judge:
    """The table's referee over its worlds: one :class:`TableReferee` per reading of the pending plays."""

    def __init__(self, config: RulesConfig | None, *, auto_confirm: bool, ids: FlagIds) -> None:
        self.ids = ids
        self.worlds: list[TableReferee] = [TableReferee(config, auto_confirm=auto_confirm, flag_ids=ids)]
        self.held: list[list[Output]] = [[]]
        """Per world (same order), the outputs it gave that did not go out: they go out when every
        world left holds them (the readings that did not were dropped)."""
        self.pending: list[Pending] = []

    @property
    def main(self) -> TableReferee:
        """The world of every pending play's best reading: the state the console shows."""
        return self.worlds[0]

    def feed(self, event: Record) -> list[Output]:
        if isinstance(event, DealStart):
            self._merge()
        room = len(self.worlds) * 2 <= MAX_WORLDS
        if isinstance(event, PlayCards) and room and missed_exchange(self.main, event, self.main.config):
            return self._hold_exchange(event)
        if isinstance(event, PlayCards):
            readings = weigh(self.main, event, self.main.config)
            if readings is not None:
                return self._hold(event, readings)
        if isinstance(event, Exchange) and (readings := weigh_exchange(self.main, event, self.main.config)):
            return self._hold(event, readings)
        per_world = [self._lay(world, event) for world in self.worlds]
        # a tribute or return that a world did not expect (an exchange it took as unseen) is void there
        exchange = isinstance(event, Exchange)
        out = self._judged(*self._drop_void(per_world, voiding=VOIDED | {"strange_event"} if exchange else VOIDED))
        self._converge()
        return out

    def _drop_void(
        self, per_world: list[list[Output]], readings: int = 1, voiding: frozenset[str] | set[str] = VOIDED
    ) -> tuple[list[list[Output]], bool]:
        """The table played on as only some readings allow (the action is void under the others: out
        of turn, not beating, not readable as a legal play): keep the worlds of those readings. For a
        doubtful play itself (``readings`` branches of each earlier world, reading by reading) a
        reading under which it is void is one of its own; only an earlier world under which it is void
        whatever it is, while under another it is not, is dropped."""
        void = [any(isinstance(o, Flag) and o.offence in voiding for o in outs) for outs in per_world]
        before = len(per_world) // readings
        voided = [all(void[j::before]) for j in range(before)] * readings
        if not any(voided) or all(voided):
            return per_world, False
        kept = [i for i, gone in enumerate(voided) if not gone]
        self.worlds = [self.worlds[i] for i in kept]
        self.held = [self.held[i] for i in kept]
        return [per_world[i] for i in kept], True

    @staticmethod
    def _lay(world: TableReferee, event: Record) -> list[Output]:
        """Feed one world; a play of the cards the seat has lying there, out of turn, is those cards
        seen again (:func:`seen_again`): an anomaly for the referee, not a second play."""
        if not (isinstance(event, PlayCards) and seen_again(world, event)):
            return world.feed(event)
        out = world.feed(Tick(event.t))  # the clocks run to the moment
        detail = D.SEEN_AGAIN(seat=event.seat, cards=_describe(event.cards))
        return out + world.note(event.t, "strange_event", event.seat, detail, event.cards)

    def open_flags(self) -> list[int]:
        """Flags awaiting a ruling in every world: the ones that went out."""
        opened = [set(w.snapshot().open_flags) for w in self.worlds]
        return sorted(set.intersection(*opened))

    def note(
        self, t: float, offence: str, seat: str | None, detail: str, cards: tuple[Card, ...] | None
    ) -> list[Output]:
        """An anomaly raised in every world (so its number and its ruling are known in each)."""
        return common([world.note(t, offence, seat, detail, cards) for world in self.worlds])

    def _hold(self, ev: PlayCards | Exchange, close: tuple[tuple[Card, ...], ...]) -> list[Output]:
        readings = close[: max(1, MAX_WORLDS // len(self.worlds))]
        pending = Pending(None, ev, readings)
        out: list[Output] = []
        # the read not taken, or close readings left unjudged for want of worlds: the referee is told at once
        if ev.cards not in readings or len(readings) < len(close):
            out, pending = self._raise(pending)
        per_world: list[list[Output]] = []
        worlds: list[TableReferee] = []
        held: list[list[Output]] = []
        for cards in readings:
            for world, kept in zip(self.worlds, self.held, strict=True):
                branch = copy.deepcopy(world, {id(self.ids): self.ids})
                per_world.append(self._lay(branch, as_sure(ev, cards)) if cards else branch.lay_unread(ev))
                worlds.append(branch)
                held.append(list(kept))
        self.worlds, self.held = worlds, held
        self.pending.append(pending)
        return out + self._judged(*self._drop_void(per_world, len(readings)))

    def _hold_exchange(self, ev: PlayCards) -> list[Output]:
        """A doubtful play while the exchange is owed (:func:`missed_exchange`): judged with the tribute
        and return made unseen (the world the console shows: play goes on) and as read (out of turn
        until the exchange is over); the referee is told at once, to look and enter the exchange."""
        phase = self.main.deal.phase if self.main.deal else "exchange"
        worlds: list[TableReferee] = []
        held: list[list[Output]] = []
        per_world: list[list[Output]] = []
        for unseen in (True, False):
            for world, kept in zip(self.worlds, self.held, strict=True):
                branch = copy.deepcopy(world, {id(self.ids): self.ids})
                if unseen:
                    branch.exchange_unseen(ev.t)
                per_world.append(branch.feed(ev))
                worlds.append(branch)
                held.append(list(kept))
        self.worlds, self.held = worlds, held
        detail = D.EXCHANGE_OWED(seat=ev.seat, cards=_describe(ev.cards), phase=phase)
        out = self.note(ev.t, "uncertain_read", ev.seat, detail, ev.cards)
        flag = next(o.id for o in out if isinstance(o, Flag))
        self.pending.append(Pending(flag, ev, (ev.cards,)))
        return out + self._judged(*self._drop_void(per_world, 2))

    def _raise(self, pending: Pending) -> tuple[list[Output], Pending]:
        """The pending read's ``uncertain_read`` flag, naming its readings, raised in every world."""
        ev = pending.event
        confidence = "" if ev.confidence is None else D.AT_CONFIDENCE(confidence=ev.confidence)
        names = " | ".join(_describe(cards) if cards else D.NOT_READ() for cards in pending.readings)
        detail = D.READ_IN_DOUBT(cards=_describe(ev.cards), confidence=confidence, reads=names)
        out = self.note(ev.t, "uncertain_read", ev.seat, detail, ev.cards)
        return out, replace(pending, flag=next(o.id for o in out if isinstance(o, Flag)))

    def _judged(self, per_world: list[list[Output]], dropped: bool) -> list[Output]:
        """What goes out of the worlds' outputs for one event: the common ones; when the readings
        disagreed (a flag held back, a reading dropped), first the flags of the reads pending unflagged
        that offer a choice (a read that is its only reading stays pending for sure frames to settle)."""
        sent = common(per_world)
        flags = [Counter(same(o) for o in outs if isinstance(o, Flag)) for outs in per_world]
        out: list[Output] = []
        if dropped or any(f != flags[0] for f in flags):
            for i, pending in enumerate(self.pending):
                if pending.flag is None and pending.offers_a_choice:
                    raised, self.pending[i] = self._raise(pending)
                    out += raised
        released = list(common(self.held)) if dropped else []  # a copy: the held lists change below
        for kept, outs in zip(self.held, per_world, strict=True):
            kept[:] = _minus(kept, released) + _minus(outs, sent)
        return out + self._grouped(released + sent)

    def _grouped(self, outputs: list[Output]) -> list[Output]:
        """Strange events raised while a read is pending name it as their cause (grouped in the queue)."""
        cause = next((p.flag for p in reversed(self.pending) if p.flag is not None), None)
        if cause is None:
            return outputs
        return [replace(o, cause=cause) if isinstance(o, Flag) and o.offence == "strange_event" else o for o in outputs]

    def _converge(self) -> None:
        """Worlds that stand at the same point of play (a trick over, the same seat to lead with the
        same cards left, the same ladder) judge the rest alike: one is kept. What only another held
        back comes again if the read is settled (the replay)."""
        if len(self.worlds) > 1 and all(_core(w) == _core(self.main) for w in self.worlds):
            self.worlds, self.held = [self.main], [[]]

    def _merge(self) -> None:
        """At a new deal, worlds that agree on everything that decides the rest of the match are one:
        the pending reads of the deal before no longer change a ruling to come."""
        if all(_fingerprint(w) == _fingerprint(self.main) for w in self.worlds):
            self.worlds, self.held = [self.main], [[]]
            self.pending = []
