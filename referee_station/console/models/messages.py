"""Messages in the console's language (issue #29: English camera warnings in the Chinese UI).

Two kinds: a ``Message`` the console makes itself (an i18n key and its values, rendered when shown,
so a language switch redraws it), and the stable English text other parts log (the station's
camera, seat-unit and round notices, card-code errors, the referee's flag details): ``localize``
finds the template it was made from in ``CATALOGUE`` and writes it in the language asked for. The
log keeps the stable English form; a text not in the catalogue is shown as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from referee_station.console.models.cards import card_text, face, level_text
from referee_station.console.models.i18n import tr
from referee_station.core.details import Detail
from referee_station.deck.mismatch import COARSE, MISMATCH
from referee_station.rules import KIND_NAMES
from referee_station.station.health import REMEDY, SEATS_BACK, SEATS_OFFLINE, CameraState
from referee_station.station.round_gate import TIME_CALLED
from referee_station.table import details as D
from referee_station.table.events import Flag
from referee_station.table.offences import OFFENCES

WORD_VALUES = frozenset({"seat", "action"})
"""Values that are a seat or an action code: written in the language too (东 E, 进贡 tribute)."""


@dataclass(frozen=True)
class Message:
    """Something the console says: an i18n key (``i18n.STRINGS``) and its values."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str = "zh") -> str:
        values = {k: tr(v, lang) if k in WORD_VALUES else v for k, v in self.values.items()}
        return tr(self.key, lang, **values)


CATALOGUE: tuple[tuple[str, str], ...] = (
    (REMEDY[CameraState.OK], "摄像头恢复：重新识别牌张"),
    (REMEDY[CameraState.LOST], "摄像头无画面：{s} 秒没有图像；请按按钮和手动录入继续裁判"),
    (REMEDY[CameraState.FROZEN], "摄像头画面冻结：{s} 秒画面不变；请检查线缆或重启摄像头"),
    (REMEDY[CameraState.DARK], "摄像头画面太暗：请检查灯光，镜头是否被遮挡"),
    (REMEDY[CameraState.MOVED], "摄像头被移动：定位标记偏离原位；请放回原处或重新校准"),
    (SEATS_BACK, "座位按键恢复"),
    (SEATS_OFFLINE, "座位按键离线：听不到不要和报牌，请手动录入"),
    (TIME_CALLED, "R-MATCH-1：时间到，不再开新副"),
    (
        MISMATCH,
        "牌具档案 {design} 与桌上的牌不符：最近 {cards} 张平均识别分 {score}；请登记这副牌或去掉 --deck",
    ),
    (
        COARSE,
        "牌具档案 {design} 需要每厘米 {needs} 像素，此摄像头只给 {areas}：这些区域读到的出牌都交裁判确认；"
        "请降低摄像头或换更清晰的摄像头（check-camera --deck）",
    ),
    (
        "{kind}: field '{name}': unknown card code {token}: expected rank 2-9/T/J/Q/K/A (or 10) then suit "
        "s/h/d/c (or ♠♥♦♣), or SJ / BJ for the jokers (R-CARD-1)",
        "牌码 {token} 无法识别：应为点数 2-9/T/J/Q/K/A（或 10）加花色 s/h/d/c（或 ♠♥♦♣），大小王为 SJ / BJ（R-CARD-1）",
    ),
)
"""(English template as the producer formats it, Chinese template); ``{name}`` or ``{name:spec}`` fields."""

FIELD = re.compile(r"\{(\w+)(?::[^}]*)?\}")

FLAG_DETAILS: dict[Detail, str] = {
    D.NOT_INPUT: "「{type}」不是输入事件",
    D.TIME_BACKWARDS: "时间倒退：{t} 早于 {now}",
    D.NOT_APPLIED: "无法执行{type}：{err}",
    D.FAULT: "无法执行{type}（程序故障）：{err}",
    D.OVERTIME: "{action}超时 {late} 秒（读秒 {grace} 秒）",
    D.PAUSED_ALREADY: "计时已经暂停",
    D.NOT_PAUSED: "继续计时，但计时并未暂停",
    D.NO_CLOCK: "给{seat}加时，但其计时未在运行",
    D.SECOND_MATCH: "同一记录中出现第二个比赛行",
    D.DEAL_BEFORE_MATCH: "比赛行之前开始发牌；按默认规则裁判",
    D.DEAL_AFTER_MATCH: "比赛结束后又开始发牌",
    D.DEAL_OVERLAP: "第 {number} 副未结束，第 {next} 副已开始",
    D.NO_LEADER_AFTER_FOUL: "犯规后应由裁判指定首攻；未指定",
    D.NO_FIRST_LEADER: "第一副需要指定首攻",
    D.LEADER_FROM_VIOLATOR: "犯规后首攻应来自未犯规方",
    D.DEALT_SHORT: "发牌{got}，一手牌应为 {size} 张（R-CARD-1）",
    D.NO_HAND: "无手牌",
    D.N_CARDS: " {n} 张",
    D.DEALT_COPIES: "发出三张或更多相同的牌：{cards}",
    D.NO_DEAL: "没有进行中的牌局时收到{type}",
    D.OWES_NO_TRIBUTE: "{seat}现在无须进贡",
    D.OWES_NO_RETURN: "{seat}现在无须还贡",
    D.TRIBUTE_NOT_DEALT: "进贡的 {card} 不在发到的手牌中",
    D.RETURN_NOT_HELD: "还贡的 {card} 不在手牌中",
    D.EXCHANGE_AGAIN: "{error}；请重新交换",
    D.HEART_LEVEL_TRIBUTE: "{card} 是红桃级牌，不能用于进贡",
    D.NOT_HIGHEST: "进贡 {card}，但手中有更大的 {best}",
    D.RETURN_NOT_LOW: "还贡 {card}，但手中有 {low}（10 或以下）",
    D.RETURN_NOT_LOWEST: "还贡 {card}，但手中有更小的 {lower}",
    D.RESISTED_BIG_JOKER: "声称抗贡，但另一座位打出了大王",
    D.PLAYED_OUT_OF_TURN: "{seat}越序出牌，{why}；收回",
    D.PASSED_OUT_OF_TURN: "{seat}越序表态，{why}；无效",
    D.MUST_LEAD: "{seat}必须首攻，不能不要；无效",
    D.TO_ACT: "应由{to_act}行动",
    D.PHASE_NOT_FINISHED: "{phase}尚未完成",
    D.NOT_A_PATTERN: "{cards} 不是合法牌型（R-PAT）",
    D.DOES_NOT_BEAT: "{play} 压不过 {prev}（级牌 {level}，R-CMP）",
    D.BEATS_NONE: "{play} 压不过首家的任何一种读法：{readings}（级牌 {level}，R-CMP、R-WILD-3）",
    D.TAKEN_BACK: "{err}；收回，仍由{seat}出牌",
    D.LOW_CONFIDENCE: "识别置信度 {confidence}：{err}",
    D.DECLARED: "声明为{declared}",
    D.DECLARATION_MISMATCH: "{problem}，但这些牌只能读作 {readings}；按未声明处理",
    D.COPIES: "{card} 出现 {n} 次；两副牌只有 {most} 张（R-CARD-1）",
    D.BAD_DECLARED_KIND: "声明的牌型 「{kind}」 不存在（R-PAT、R-WILD-3）",
    D.BAD_DECLARED_KEY: "声明的 「{key}」 不是点数（R-WILD-3）",
    D.OVERFLOW: "打出 {n} 张，手中只剩 {left} 张",
    D.NOT_IN_HAND: "{cards} 不在{seat}的手牌中",
    D.THIRD_COPY: "打出了第三张 {cards}",
    D.OUT_UNREPORTED_UPSTREAM: "未报牌即出完（上游）",
    D.OUT_UNREPORTED: "未报牌即出完；收回出牌",
    D.NO_REPORT: "剩 {count} 张，第二次行动前仍未报牌",
    D.REPEATED_REPORT: "再次报 {count} 张",
    D.REPORT_NONE_DUE: "报 {count} 张，手中剩 {left} 张，无须报牌",
    D.REPORTED_LATE: "又一次行动后才报牌{extra}",
    D.AND_WRONG: "，且报错（报 {count}，实剩 {left}）",
    D.WRONG_REPORT: "报 {count} 张，实剩 {left} 张",
    D.NO_SUCH_FLAG: "裁决警报 #{flag}，但该警报不存在",
    D.RULED_ALREADY: "警报 #{flag} 已经裁决（{decision}）",
    D.LATE_RULING: "警报 #{flag} 在其牌局结束后才裁决；已记录，不计入",
    D.SEEN_AGAIN: "{seat}的 {cards} 仍在原处被再次看到；不算新出牌",
    D.EXCHANGE_OWED: (
        "{seat}在{phase}未完成时打出 {cards}：摄像头可能漏看了进贡和还贡；两种情形都裁判，直到录入或看到（R-TRIB）"
    ),
    D.READ_IN_DOUBT: "识别为 {cards}{confidence}；确认前按每种相近读法裁判：{reads}",
    D.AT_CONFIDENCE: "（置信度 {confidence}）",
    D.NOT_READ: "（未识别）",
    D.NO_RULING_TO_REVERSE: "撤销：警报 #{flag} 没有可撤销的裁决（R-PEN）",
    D.NOTHING_TO_SETTLE: "确认识别：{seat}在牌桌时间 {at} 秒没有出牌、进贡或还贡",
    D.ONE_CARD: "确认识别：{type}只有一张牌，收到 {cards}",
}
"""Each flag detail template of ``table/details.py`` (the whole flag's ``FLAG`` apart) in Chinese."""
FLAG_ZH = "{offence}：{detail}（{rule}）"
"""``details.FLAG`` in Chinese."""

CATALOGUE += tuple(
    sorted(
        ((detail.text, chinese) for detail, chinese in FLAG_DETAILS.items()),
        key=lambda pair: -len(FIELD.sub("", pair[0])),
    )
)
"""The flag details after the notices, the most literal text first, so a short template such as
``{n} cards`` never takes a text a longer one was made from."""


_CARD = r"(?:10|[2-9TJQKA])[shdc]|SJ|BJ"
_CARDS = re.compile(f"(?:{_CARD})(?: (?:{_CARD}))*")
FIELD_PATTERNS = {"cards": _CARDS.pattern, **dict.fromkeys(("card", "best", "low", "lower"), _CARD)}
"""Fields that hold card codes match only codes, so a field next to them (``{cards}{confidence}``)
cannot take part of them; any other field matches as little text as it can."""


_FLAG_TEXTS = frozenset(detail.text for detail in FLAG_DETAILS)


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """The template as a regular expression: its literal text, and a group per field (a flag detail's
    fields by what they hold, ``FIELD_PATTERNS``)."""
    typed = FIELD_PATTERNS if template in _FLAG_TEXTS else {}
    parts, last = [], 0
    for m in FIELD.finditer(template):
        name = m.group(1)
        parts += [re.escape(template[last : m.start()]), f"(?P<{name}>{typed.get(name, '.*?')})"]
        last = m.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts))


SEAT_FIELDS = frozenset({"seat", "to_act"})
WORD_FIELDS = frozenset({"action", "phase", "type"})
"""Fields holding an action, a phase or an event type: written in the language (出牌, 进贡)."""
PLAY_FIELDS = frozenset({"play", "prev", "readings", "declared"})
"""Fields naming patterns (``pair 5``, ``single 3 or pair 3``): the pattern names in the language."""
NESTED_FIELDS = frozenset({"err", "error", "why", "got", "extra", "problem", "confidence"})
"""Fields holding another template's text, translated in turn."""
_KIND = re.compile("|".join(sorted((re.escape(en) for _zh, en in KIND_NAMES.values()), key=len, reverse=True)))
_KIND_ZH = {en: zh for zh, en in KIND_NAMES.values()}
_KEY = re.compile(r"\b(?:T|SJ|BJ)\b")
"""A pattern's key as the console writes it: ten as 10, the jokers by name."""


def _value(name: str, value: str, lang: str) -> str:
    """One matched field of a flag detail in ``lang``: seats, words, patterns, cards and nested texts by
    the field's name (``table/details.py`` names them so); anything else as it is."""
    if name in SEAT_FIELDS or name in WORD_FIELDS:
        return tr(value, lang)
    if name == "decision":
        return tr(f"decide_{value}", lang)
    if name in PLAY_FIELDS:
        named = _KIND.sub(lambda m: _KIND_ZH[m.group()], value).replace(" or ", " 或 ")
        return _KEY.sub(lambda m: face(m.group(), lang) if m.group() in ("SJ", "BJ") else "10", named)
    if name in FIELD_PATTERNS:
        return card_text(value.split(" "), lang)
    if name == "level":
        return level_text(value)
    if name in NESTED_FIELDS:
        return localize(value, lang)
    if name == "reads":
        return " | ".join(
            _value("cards", read, lang) if _CARDS.fullmatch(read) else localize(read, lang)
            for read in value.split(" | ")
        )
    return value


def localize(text: str, lang: str) -> str:
    """``text`` (a stable English message) in ``lang``; the text itself when it is English or unknown."""
    if lang == "en":
        return text
    for english, chinese in CATALOGUE:
        if (m := _pattern(english).fullmatch(text)) is not None:
            typed = english in _FLAG_TEXTS
            return chinese.format(**{k: _value(k, v, lang) if typed else v for k, v in m.groupdict().items()})
    return text


def flag_detail(flag: Flag, lang: str) -> str:
    """A flag's ``detail`` (``details.FLAG``: offence, detail, rule) in ``lang``; the log's English in en.
    The offence and rule come from the flag, so a detail's own rule ids never split it wrongly."""
    if lang == "en":
        return flag.detail
    offence = OFFENCES.get(flag.offence)
    head, tail = D.FLAG.text.split("{detail}")
    head, tail = head.format(offence=offence.en if offence else ""), tail.format(rule=flag.rule)
    if offence is None or not (flag.detail.startswith(head) and flag.detail.endswith(tail)):
        return flag.detail_zh or flag.detail
    inner = flag.detail[len(head) : len(flag.detail) - len(tail)]
    return FLAG_ZH.format(offence=offence.zh, detail=localize(inner, lang), rule=flag.rule)


def say(message: Message | str, lang: str) -> str:
    """A console message or a logged text, in ``lang``."""
    return message.text(lang) if isinstance(message, Message) else localize(message, lang)
