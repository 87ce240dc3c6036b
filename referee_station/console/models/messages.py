"""Messages in the console's language (issue #29: English camera warnings in the Chinese UI).

Two kinds: a ``Message`` the console makes itself (an i18n key and its values, rendered when shown,
so a language switch redraws it), and the stable English text other parts log (the station's
camera, seat-unit and round notices, card-code errors): ``localize`` finds the template it was
made from in ``CATALOGUE`` and writes it in the language asked for. The log keeps the stable
English form; a text not in the catalogue is shown as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from referee_station.console.models.i18n import tr
from referee_station.station.health import REMEDY, SEATS_BACK, SEATS_OFFLINE, CameraState
from referee_station.station.round_gate import TIME_CALLED

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
    (  # referee_station/deck/mismatch.py (a test holds the two together)
        "deck profile {design} does not match the cards on the table: mean confidence {confidence} over the "
        "last {cards} cards; register this deck or drop --deck",
        "牌具档案 {design} 与桌上的牌不符：最近 {cards} 张平均置信度 {confidence}；请登记这副牌或去掉 --deck",
    ),
    (
        "{kind}: field '{name}': unknown card code {token}: expected rank 2-9/T/J/Q/K/A (or 10) then suit "
        "s/h/d/c (or ♠♥♦♣), or SJ / BJ for the jokers (R-CARD-1)",
        "牌码 {token} 无法识别：应为点数 2-9/T/J/Q/K/A（或 10）加花色 s/h/d/c（或 ♠♥♦♣），大小王为 SJ / BJ（R-CARD-1）",
    ),
)
"""(English template as the producer formats it, Chinese template); ``{name}`` or ``{name:spec}`` fields."""

FIELD = re.compile(r"\{(\w+)(?::[^}]*)?\}")


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """The template as a regular expression: its literal text, and a group per field."""
    parts, last = [], 0
    for m in FIELD.finditer(template):
        parts += [re.escape(template[last : m.start()]), f"(?P<{m.group(1)}>.+?)"]
        last = m.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts))


def localize(text: str, lang: str) -> str:
    """``text`` (a stable English message) in ``lang``; the text itself when it is English or unknown."""
    if lang == "en":
        return text
    for english, chinese in CATALOGUE:
        if (m := _pattern(english).fullmatch(text)) is not None:
            return chinese.format(**m.groupdict())
    return text


def say(message: Message | str, lang: str) -> str:
    """A console message or a logged text, in ``lang``."""
    return message.text(lang) if isinstance(message, Message) else localize(message, lang)
