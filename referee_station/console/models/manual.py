"""Manual entry: what a referee types when vision is unsure, turned into an EVENTS.md event.

The referee's entry takes the place of the camera's read, so it is an ordinary input event at
the table's current time; the referee core judges it like any other (R-PLAY-1, R-PAT, R-CMP,
R-REPORT-1, R-TRIB). Accepted forms, seat first (E S W N or 东 南 西 北)::

    E 3s 3h 3d          a play (cards left to right as laid)
    S pass | S 不要      a pass
    W report 5 | W 报 5   a report of the cards left
    N tribute BJ | N 贡 BJ,  E return 3c | E 还 3c
"""

from __future__ import annotations

from collections import Counter

from referee_station.console.models.cards import card_text, face
from referee_station.console.models.i18n import tr
from referee_station.console.models.messages import Message
from referee_station.core import Phase, TableState
from referee_station.rules.cards import COPIES
from referee_station.table.events import EventError, Exchange, PlayCards, Record, Report, TimerControl, parse_record

SEAT_WORDS = {"E": "E", "S": "S", "W": "W", "N": "N", "东": "E", "南": "S", "西": "W", "北": "N"}
ACTION_WORDS = {
    "pass": "pass",
    "不要": "pass",
    "过": "pass",
    "report": "report",
    "报": "report",
    "报牌": "report",
    "tribute": "tribute",
    "贡": "tribute",
    "进贡": "tribute",
    "return": "return",
    "还": "return",
    "还贡": "return",
    "play": "play",
    "出": "play",
}


Refusal = Message
"""Why an entry cannot have happened at its table."""


class ManualEntryError(EventError):
    """The typed entry is not one of the accepted forms; ``message`` says which part is wrong, in
    the console's language (the exception's text is the English)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.text("en"))
        self.message = message


class EntryRefused(ManualEntryError):
    """A well-formed entry that the table's state makes impossible; nothing is sent (issue #29)."""

    def __init__(self, table: str, refusal: Refusal) -> None:
        super().__init__(refusal)
        self.args = (f"{table}: {refusal.text('en')}",)
        self.table = table
        self.refusal = refusal


def refusal(event: Record, snapshot: TableState) -> Refusal | None:
    """Why ``event`` cannot be entered at a table in the state ``snapshot`` (the referee's ``snapshot()``),
    or ``None``. Only what the state shows for certain is refused: the rules stay the referee's."""
    if snapshot.match_over:
        return Refusal("entry_match_over")
    deal = snapshot.deal
    if deal is None or deal.phase is Phase.OVER:
        return Refusal("entry_no_deal")
    if isinstance(event, PlayCards):
        third = next((code for code, n in Counter(event.cards).items() if n > COPIES), None)
        if third is not None:
            return Refusal("entry_third_copy", {"card": face(third)})
        left = deal.counts.get(event.seat)
        if left is not None and len(event.cards) > left:
            return Refusal("entry_too_many", {"seat": event.seat, "left": left, "n": len(event.cards)})
    return None


def parse_entry(text: str, t: float) -> Record:
    """Turn a typed entry into the input event it stands for, at table time ``t``."""
    words = text.replace("，", " ").replace(",", " ").split()
    if len(words) < 2:
        raise ManualEntryError(Message("entry_need_seat", {"text": text}))
    seat = SEAT_WORDS.get(words[0].upper() if words[0].isascii() else words[0])
    if seat is None:
        raise ManualEntryError(Message("entry_unknown_seat", {"word": words[0]}))
    action = ACTION_WORDS.get(words[1].lower() if words[1].isascii() else words[1])
    rest = words[2:] if action else words[1:]
    action = action or "play"
    record: dict[str, object] = {"t": t, "type": action, "seat": seat}
    if action == "play":
        record["cards"] = rest
    elif action == "report":
        if len(rest) != 1 or not rest[0].isdigit():
            raise ManualEntryError(Message("entry_report_number", {"got": " ".join(rest)}))
        record["count"] = int(rest[0])
    elif action in ("tribute", "return"):
        if len(rest) != 1:
            raise ManualEntryError(Message("entry_one_card", {"action": action, "got": " ".join(rest)}))
        record["card"] = rest[0]
    elif rest:
        raise ManualEntryError(Message("entry_pass_alone", {"got": " ".join(rest)}))
    return parse_record(record)


def describe(event: Record, lang: str = "zh") -> str:
    """An entry in words, for the entry's feedback and the audit trail: ``东 出牌 3♠ 3♥``, ``S pass``."""
    if isinstance(event, TimerControl):
        words = tr(event.action, lang, seconds=event.seconds or 0)
        return f"{tr(event.seat, lang)} {words}" if event.seat else words
    seat = getattr(event, "seat", None)
    head = f"{tr(seat, lang)} {tr(event.TYPE, lang)}" if seat else tr(event.TYPE, lang)
    if isinstance(event, PlayCards):
        return f"{head} {card_text(event.cards, lang)}"
    if isinstance(event, Report):
        return f"{head} {event.count}"
    if isinstance(event, Exchange):  # a tribute or a return
        return f"{head} {face(event.card, lang)}"
    return head  # a pass, or an event without more to say
