"""The catalogue of offences the referee flags (EVENTS.md "Offence codes"): rule, proposed
penalty, and Chinese and English names for the console and the replay timeline."""

from __future__ import annotations

from typing import NamedTuple

from referee_station.core import Penalty


class Offence(NamedTuple):
    code: str
    rule: str
    penalty: Penalty
    zh: str
    en: str


OFFENCES: dict[str, Offence] = {
    o.code: o
    for o in (
        Offence("illegal_pattern", "R-PAT", Penalty.INFRACTION, "出错牌（牌型不合法）", "illegal pattern"),
        Offence("does_not_beat", "R-CMP", Penalty.INFRACTION, "出错牌（压不过）", "does not beat the trick"),
        Offence("out_of_turn_play", "R-PLAY-1", Penalty.INFRACTION, "越序出牌", "out-of-turn play"),
        Offence("out_of_turn_pass", "R-PLAY-1", Penalty.WARNING, "越序表态", "out-of-turn pass"),
        Offence("overtime", "R-TIME-3", Penalty.WARNING, "超时", "overtime"),
        Offence("missed_report", "R-REPORT-2", Penalty.WARNING, "未报牌", "missed report"),
        Offence("wrong_report", "R-REPORT-2", Penalty.WARNING, "报错牌", "wrong report"),
        Offence("repeated_report", "R-REPORT-1", Penalty.WARNING, "反复报牌", "repeated report"),
        Offence("wrong_tribute", "R-TRIB-4", Penalty.WARNING, "贡错牌", "wrong tribute"),
        Offence("wrong_return", "R-TRIB-4", Penalty.WARNING, "还错牌", "wrong return"),
        Offence(
            "declaration_mismatch", "R-WILD-3", Penalty.ANOMALY, "声明牌型不符", "declared reading not in the cards"
        ),
        Offence("duplicate_card", "R-CARD-1", Penalty.ANOMALY, "牌张重复", "third copy of a card"),
        Offence("hand_overflow", "R-CARD-1", Penalty.ANOMALY, "出牌超过全手牌", "more cards played than held"),
        Offence("hand_mismatch", "R-CARD-1", Penalty.ANOMALY, "手牌不符", "hand does not add up"),
        Offence("uncertain_read", "R-PLAY-4", Penalty.ANOMALY, "识别不确定", "uncertain card read, please look"),
        Offence("strange_event", "EVENTS", Penalty.ANOMALY, "异常事件", "event out of place"),
        Offence("late_ruling", "R-PEN-2", Penalty.ANOMALY, "判罚逾期", "ruling too late to penalise"),
    )
}

WRONG_PLAYS = frozenset({"out_of_turn_play", "illegal_pattern", "does_not_beat"})
"""Plays the referee takes back (R-PLAY-1, R-PAT, R-CMP); under V-4 (``wrong_play_stops``) they are warned
and the violator stops for a round instead of climbing the ladder."""
VOIDING = WRONG_PLAYS | {"out_of_turn_pass"}
"""Offences whose action is void (the wrong plays and a pass out of turn, R-PLAY-1): struck through in the
console's history."""

PENALTY_NAMES: dict[Penalty, tuple[str, str]] = {
    Penalty.WARNING: ("警告", "warning"),
    Penalty.INFRACTION: ("违例", "infraction"),
    Penalty.FOUL: ("犯规", "foul"),
    Penalty.MATCH_LOSS: ("判负", "match loss"),
    Penalty.DISQUALIFICATION: ("取消资格", "disqualification"),
    Penalty.ANOMALY: ("异常", "anomaly"),
}
