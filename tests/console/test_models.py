"""The console's Qt-free models, fed through a live hall the way the console feeds them."""

from __future__ import annotations

import csv
import io

import pytest

from referee_station.console.models.hall import tile_of
from referee_station.console.models.manual import ManualEntryError, parse_entry
from referee_station.console.models.picker import GRID, CardPicker
from referee_station.core import Unit
from referee_station.station.live.feed import jsonl_feed
from referee_station.table.events import Pass, PlayCards, Report, Return, Tribute
from tests.console.helpers import RecordingTable, Wired, one_deal_with_flags, two_warnings
from tests.table.helpers import east_west_sweep


def test_flags_wait_in_the_queue_and_colour_the_tile():
    wired = Wired({"T1": one_deal_with_flags()})
    wired.run()
    pending = [(a.flag.seat, a.flag.offence, a.flag.rule, a.flag.penalty) for a in wired.model.alerts.pending]
    assert pending == [
        ("S", "out_of_turn_play", "R-PLAY-1", "infraction"),
        ("N", "out_of_turn_pass", "R-PLAY-1", "warning"),
    ]
    table = wired.model.table("T1")
    assert tile_of(table, table.last_wall or 0.0).state == "infraction"
    alert = wired.model.alerts.pending[0]
    assert alert.can_stop_next and alert.next_seat == "E"
    assert "越序出牌" in alert.text("zh") and "out-of-turn play" in alert.text("en")


def test_confirm_moves_the_alert_to_the_register_and_climbs_the_ladder():
    wired = Wired({"T1": two_warnings()})
    wired.run()
    first, second = (a.key for a in wired.model.alerts.pending)
    wired.model.rule(first, "confirm")
    wired.model.rule(second, "confirm")
    wired.run()
    register = wired.model.register
    assert wired.model.alerts.pending == []
    assert [a.decision for a in wired.model.alerts.answered] == ["confirm", "confirm"]
    steps = [(p.penalty, p.reason) for p in register.side_penalties("T1", "NS")]
    assert steps == [("warning", "confirmed"), ("warning", "confirmed"), ("infraction", "two warnings")]
    assert register.ladders["T1"]["NS"]["infraction"] == 1
    audit = [(e.who, e.what("en"), e.changed("en")) for e in register.audit]
    assert audit == [
        ("张裁判", "confirmed #1", "NS warning 0→1"),
        ("张裁判", "confirmed #2", "NS warning 1→2, NS infraction 0→1"),
    ]
    assert register.audit[-1].changed("zh") == "南北 警告 1→2, 南北 违例 0→1"


def test_dismiss_changes_nothing_on_the_ladder():
    wired = Wired({"T1": two_warnings()})
    wired.run()
    wired.model.rule(wired.model.alerts.pending[0].key, "dismiss")
    wired.run()
    assert wired.model.register.penalties["T1"] == []
    assert wired.model.register.audit[-1].changed("en") == "no change"
    assert len(wired.model.alerts.pending) == 1


def test_table_model_follows_the_deal_and_the_sheet_records_it():
    wired = Wired({"T1": one_deal_with_flags()})
    wired.run()
    table = wired.model.table("T1")
    assert table.results[-1].order == ("E", "W", None, None)
    assert table.levels == {"EW": "5", "NS": "2"}
    voids = [(h.seat, h.action) for h in table.history if h.void]
    assert voids == [("S", "play"), ("N", "pass")]
    assert table.place("E") == 1 and table.place("W") == 2
    sheet = wired.model.sheet.sheet("T1")
    assert [(r.deal, r.level, r.side_up, r.levels_up) for r in sheet.rows] == [(1, "2", "EW", 3)]
    rows = list(csv.reader(io.StringIO(sheet.to_csv("en"))))
    assert rows[1][:4] == ["deal", "level", "order", "up"]
    assert rows[2][:6] == ["1", "2", "E W — —", "EW +3", "5", "2"]


def test_hall_sorts_worst_first_and_filters():
    wired = Wired({"T1": one_deal_with_flags(), "T2": two_warnings(), "T3": two_warnings()[:2]})
    wired.run()
    hall = wired.model.hall
    now = max(m.last_wall or 0.0 for m in hall.tables.values())
    assert [(t.table, t.state) for t in hall.tiles(now)] == [("T1", "infraction"), ("T2", "warning"), ("T3", "normal")]
    assert [t.table for t in hall.tiles(now, frozenset({"warning"}))] == ["T2"]
    assert [t.table for t in hall.tiles(now, text="3")] == ["T3"]
    assert {t.state for t in hall.tiles(now + 60)} == {"offline"}
    hall.tables["T3"].health = hall.tables["T3"].health.replace(Unit.CAMERA, False)
    assert hall.tiles(now, text="3")[0].state == "offline"
    tile = hall.tiles(now, text="3")[0]
    assert (tile.to_act, tile.action, tile.deal) == ("E", "lead", 1)


def test_manual_entry_goes_to_the_referee_and_is_audited():
    wired = Wired({"T1": two_warnings()[:2]})
    wired.run()
    wired.model.enter("T1", "东 3s 3h")
    wired.run()
    table = wired.model.table("T1")
    assert table.deal.last.cards == ("3s", "3h")
    assert wired.model.register.audit[-1].what("zh") == "手动录入: 东 出牌 3♠ 3♥"
    assert wired.model.register.audit[-1].who == "张裁判"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("E 3s 3h", PlayCards(t=5.0, seat="E", cards=("3s", "3h"))),
        ("s pass", Pass(t=5.0, seat="S")),
        ("西 报 5", Report(t=5.0, seat="W", count=5)),
        ("N tribute BJ", Tribute(t=5.0, seat="N", card="BJ")),
        ("北 还 3c", Return(t=5.0, seat="N", card="3c")),
    ],
)
def test_manual_entry_forms(text, expected):
    assert parse_entry(text, 5.0) == expected


@pytest.mark.parametrize("text", ["E", "X 3s", "E report", "E tribute 3s 4s", "E pass 3s", "E 3x"])
def test_manual_entry_errors_name_the_problem(text):
    with pytest.raises(ManualEntryError if text != "E 3x" else ValueError):
        parse_entry(text, 0.0)


def test_the_card_picker_keeps_the_order_and_two_copies_at_most():
    picker = CardPicker()
    changes = []
    picker.changed.connect(lambda: changes.append(picker.argument))
    assert [picker.add(code) for code in ("Th", "10♥", "BJ", "Th")] == [True, True, True, False]
    assert picker.cards == ["Th", "Th", "BJ"] and picker.count("Th") == 2 and picker.shown() == "10♥ 10♥ 大王"
    assert picker.undo() == "BJ" and picker.add("BJ") and picker.argument == "Th Th BJ"
    picker.clear()
    assert picker.undo() is None and changes == ["Th", "Th Th", "Th Th BJ", "Th Th", "Th Th BJ", ""]
    faces = [code for row in GRID for code in row]
    assert len(faces) == len(set(faces)) == 54 and GRID[1][0] == "2h" and GRID[2][-1] == "Ac"


def test_a_recorded_log_is_a_feed(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"t":0,"type":"match","sides":{}}\n{"t":1,"type":"flag","id":1,"offence":"x"}\n\n')
    assert [r.TYPE for r in jsonl_feed(path)] == ["match"]


def test_a_finished_match_is_quiet_not_offline():
    table = RecordingTable(rules={"length_deals": 1})
    table.deal("E")
    east_west_sweep(table)
    wired = Wired({"T1": table.records})
    wired.run()
    model = wired.model.table("T1")
    assert model.match_end is not None and model.match_end.winner == "EW"
    assert tile_of(model, (model.last_wall or 0.0) + 60).state == "normal"
    assert "EW" in wired.model.sheet.sheet("T1").result_line("en")


def test_the_stop_next_choice_reaches_the_referee():
    wired = Wired({"T1": one_deal_with_flags()[:4]})  # S played out of turn (infraction), N passed out of turn
    wired.run()
    wired.model.rule(("T1", 1), "confirm", stop_next=True)
    wired.run()
    table = wired.model.table("T1")
    assert table.deal.stopped == ("S",)  # the 下家 E stops S's next play (RULES.md section 9)
    assert wired.model.register.audit[-1].what("en") == "confirmed #1 + next play stopped"
    assert wired.model.alerts.answered[-1].stop_next
