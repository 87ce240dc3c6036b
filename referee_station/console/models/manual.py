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

from referee_station.table.events import EventError, Record, parse_record

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


class ManualEntryError(EventError):
    """The typed entry is not one of the accepted forms; the message says which part is wrong."""


def parse_entry(text: str, t: float) -> Record:
    """Turn a typed entry into the input event it stands for, at table time ``t``."""
    words = text.replace("，", " ").replace(",", " ").split()
    if len(words) < 2:
        raise ManualEntryError(f"need a seat and an action, got {text!r}")
    seat = SEAT_WORDS.get(words[0].upper() if words[0].isascii() else words[0])
    if seat is None:
        raise ManualEntryError(f"unknown seat {words[0]!r}; use E S W N or 东 南 西 北")
    action = ACTION_WORDS.get(words[1].lower() if words[1].isascii() else words[1])
    rest = words[2:] if action else words[1:]
    action = action or "play"
    record: dict[str, object] = {"t": t, "type": action, "seat": seat}
    if action == "play":
        record["cards"] = rest
    elif action == "report":
        if len(rest) != 1 or not rest[0].isdigit():
            raise ManualEntryError(f"a report needs one number of cards, got {' '.join(rest)!r}")
        record["count"] = int(rest[0])
    elif action in ("tribute", "return"):
        if len(rest) != 1:
            raise ManualEntryError(f"a {action} needs exactly one card, got {' '.join(rest)!r}")
        record["card"] = rest[0]
    elif rest:
        raise ManualEntryError(f"a pass takes nothing after it, got {' '.join(rest)!r}")
    return parse_record(record)
