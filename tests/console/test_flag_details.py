"""The referee's flag details in the console's language (issue #29): every template the table layer
writes has its Chinese, real flags read in Chinese and in English after a live switch, and the log
keeps the English."""

from __future__ import annotations

import pytest

from referee_station.console.models.messages import FIELD, FLAG_DETAILS, flag_detail, localize
from referee_station.console.qt.alert_view import TEXT_COLUMN
from referee_station.console.qt.window import ConsoleWindow
from referee_station.core.details import Detail
from referee_station.rules import Card, Declaration, DeclarationError, DuplicateCardError
from referee_station.rules import details as rules_details
from referee_station.rules.cards import check_copies
from referee_station.table import details
from tests.console.helpers import Wired, wrong_plays
from tests.console.language import HAN, RULE_IDS, WORD
from tests.table.helpers import Table

TEMPLATES = [value for value in vars(details).values() if isinstance(value, Detail)]
"""Every template of the module, found by walking it (a template added there and not to the catalogue fails)."""
SAMPLE = {"seat": "E", "to_act": "S", "cards": "3s Th", "card": "Th", "best": "BJ", "low": "4c", "lower": "2d"}
"""Values for the templates' fields where a plain word would not do; any other field gets ``7``."""


def test_the_templates_are_walked_from_the_module():
    assert details.templates() == tuple(TEMPLATES)
    assert len(TEMPLATES) > 60 and len({t.name for t in TEMPLATES}) == len(TEMPLATES)
    assert {details.DOES_NOT_BEAT, details.PLAYED_OUT_OF_TURN, details.FLAG} <= set(TEMPLATES)


@pytest.mark.parametrize("template", [t for t in TEMPLATES if t is not details.FLAG], ids=lambda t: t.name)
def test_every_flag_detail_template_has_its_chinese(template):
    assert template in FLAG_DETAILS, f"{template.name}: no Chinese in console/models/messages.FLAG_DETAILS"
    chinese = FLAG_DETAILS[template]
    fields = {m.group(1) for m in FIELD.finditer(template.text)}
    assert {m.group(1) for m in FIELD.finditer(chinese)} == fields, template.name
    english = template(**{name: SAMPLE.get(name, 7) for name in fields})
    written = localize(english, "zh")
    assert written != english and HAN.search(written), f"{template.name}: {english!r} not found in the catalogue"
    ascii_words = {w.group() for w in WORD.finditer(FIELD.sub(" ", chinese))} - {"BJ", "SJ"}
    assert not {w for w in ascii_words if not any(w in rule for rule in RULE_IDS | {"R-CARD-1", "R-WILD-3"})}
    assert localize(english, "en") == english


def test_cards_in_a_detail_are_drawn_with_ten_as_10():
    text = details.EXCHANGE_AGAIN(error=details.NOT_HIGHEST(card="Th", best="BJ"))
    assert localize(text, "zh") == "进贡 10♥，但手中有更大的 大王；请重新交换"
    beaten = details.DOES_NOT_BEAT(play="single T", prev="pair BJ", level="T")
    assert localize(beaten, "zh") == "单张 10 压不过 对子 大王（级牌 10，R-CMP）"


def test_the_rules_layers_templates_are_listed_with_the_tables():
    """The rules layer sits below the table layer and raises three details itself: made once in
    rules/details.py, listed by table.details (so the catalogue is checked against them), and what its
    errors say is read in Chinese."""
    raised = [value for value in vars(rules_details).values() if isinstance(value, Detail)]
    assert len(raised) == 3 and set(raised) <= set(details.templates())
    with pytest.raises(DuplicateCardError) as err:
        check_copies([Card.parse("3s")] * 3)
    texts = [str(err.value)]
    for declared in ({"kind": "wheel"}, {"kind": "pair", "key": "Z"}):
        with pytest.raises(DeclarationError) as err:
            Declaration.parse(declared)
        texts.append(str(err.value))
    assert texts == [
        "3s appears 3 times; two decks hold only 2 (R-CARD-1)",
        "declared kind 'wheel' is not a pattern (R-PAT, R-WILD-3)",
        "declared key 'Z' is not a rank (R-WILD-3)",
    ]
    assert all(HAN.search(localize(text, "zh")) for text in texts)


def test_real_flags_read_in_chinese_and_keep_the_logs_english():
    table = Table(auto_confirm=False)
    table.deal("E")
    table.play("E", "5s")
    assert table.flags(table.play("N", "3h")) == [("N", "does_not_beat", "infraction")]
    table.play("S", "4h")
    flags = {state.flag.offence: state.flag for state in table.referee.flags.values()}
    beat, turn = flags["does_not_beat"], flags["out_of_turn_play"]
    assert (
        beat.detail
        == "does not beat the trick: single 3 does not beat single 5 at level 2 (R-CMP); taken back, N to act (R-CMP)"
    )
    assert (
        flag_detail(beat, "zh") == "出错牌（压不过）：单张 3 压不过 单张 5（级牌 2，R-CMP）；收回，仍由北出牌（R-CMP）"
    )
    assert flag_detail(turn, "zh") == "越序出牌：南越序出牌，应由北行动；收回（R-PLAY-1）"
    assert (
        flag_detail(turn, "en")
        == turn.detail
        == "out-of-turn play: S played out of turn, N is to act; taken back (R-PLAY-1)"
    )


def test_a_flags_detail_shows_in_chinese_then_in_english_after_the_switch(qtbot):
    wired = Wired({"T1": wrong_plays()})
    window = ConsoleWindow(wired.model)
    qtbot.addWidget(window)
    window.show()
    wired.run()  # the flags reach the open window's queue
    window.select("T1")
    alerts = window.alerts
    rows = [alerts.list.topLevelItem(i) for i in range(alerts.list.topLevelItemCount())]
    items = {item.text(TEXT_COLUMN): item for item in rows}
    shown = " | ".join(items)
    assert "单张 3 压不过 单张 5" in shown and "南越序出牌，应由北行动" in shown, shown
    beat = next(item for text, item in items.items() if "压不过 单张" in text)
    alerts.list.setCurrentItem(beat)
    assert "出错牌（压不过）：单张 3 压不过 单张 5（级牌 2，R-CMP）；收回，仍由北出牌" in alerts.detail.text()
    window.model.set_language("en")
    assert "does not beat the trick: single 3 does not beat single 5 at level 2 (R-CMP); taken back, N to act" in (
        alerts.detail.text()
    )
    shown = " | ".join(item.text(TEXT_COLUMN) for item in rows)
    assert "S played out of turn, N is to act; taken back" in shown and not HAN.search(shown), shown
    window.model.set_language("zh")
    assert "单张 3 压不过 单张 5" in alerts.detail.text()
