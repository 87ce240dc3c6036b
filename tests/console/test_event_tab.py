"""The head console's event tab (issue 28), offscreen: the round's buttons pair, start and call time
through the desk (announced to the stations), the clock counts down from the journal's start, results
awaiting signatures are listed, corrections need a logged-in referee and a reason, and the standings
show every pair. The picture, a 24-pair event 25 minutes into round 4, is ``docs/event-tab.png``."""

from __future__ import annotations

from pathlib import Path

from referee_station.console.qt.event_tab import EventTab
from referee_station.event.actions import ResultConfirmed, ResultReported
from referee_station.event.desk import EventDesk
from referee_station.event.store import EventStore
from tests.event.helpers import new_event, pair_round, play

SHOT = Path(__file__).resolve().parents[2] / "docs" / "event-tab.png"


def three_rounds(path: Path) -> EventStore:
    """A 24-pair event with rounds 1-3 played and signed, round 4 paired, one result reported."""
    state = new_event(24, seed=9)
    for round_no in (1, 2, 3):
        for table in pair_round(state, at=round_no * 4000.0).tables:
            d = (table.number * 7 + round_no) % 5
            winner = ("EW", "NS", "draw")[(table.number + round_no) % 3]
            gained = {"EW": 2, "NS": 2} if winner == "draw" else {winner: 1 + d, "NS" if winner == "EW" else "EW": 1}
            play(state, round_no, table.number, winner, gained, at=round_no * 4000.0 + 3000)
    store = EventStore(path, create=True)
    for action in state.journal:
        store.record(action)
    return store


def test_the_event_tab(qtbot, tmp_path) -> None:
    store = three_rounds(tmp_path / "event.db")
    now = [20_000.0]
    sent = []
    desk = EventDesk(store, "chief", announce=sent.append, clock=lambda: now[0])
    who: list[str | None] = [None]
    tab = EventTab(desk, lambda: who[0], lang="zh", wall=lambda: now[0])
    qtbot.addWidget(tab)
    tab.resize(1500, 900)
    tab.show()

    tab.pair_button.click()
    assert len(desk.state.rounds) == 4 and tab.pairings.rowCount() == 12
    assert tab.round_label.text() == "第4轮" and tab.clock_label.text() == "未开始"
    tab.pair_button.click()  # round 4 is not played: refused with the event's reason
    assert "round 4 is not complete" in tab.status.text() and len(desk.state.rounds) == 4
    who[0] = "wang"
    tab.start_button.click()
    now[0] += 25 * 60 + 30.5
    tab.refresh()
    assert tab.clock_label.text() == "剩余 34:30" and sent[-1].called is None
    assert [a.by for a in store.actions()[-1:]] == ["wang"], "the logged-in referee started the round"
    table = desk.state.rounds[-1].pairing.tables[0]
    for number, winner, gained in ((1, "NS", {"EW": 0, "NS": 3}), (4, "EW", {"EW": 2, "NS": 1})):
        desk.record(ResultReported(at=now[0], by=f"station T0{number}", round=4, table=number, winner=winner,
                                   gained=gained, source=f"T0{number}:log:88"))  # fmt: skip
    desk.record(ResultConfirmed(at=now[0], by="T04 NS", round=4, table=4, side="NS"))
    tab.refresh()
    assert [tab.awaiting.item(i).text() for i in range(2)] == ["第4轮 桌 1: NS 0:3 — 待 东西、南北 签字",
                                                              "第4轮 桌 4: EW 2:1 — 待 东西 签字"]  # fmt: skip
    assert tab.pairings.item(0, 2).text() == desk.state.pairs[table.ew].label
    assert tab.pairings.item(0, 5).text() == "NS 0:3" and tab.pairings.item(1, 4).text() == "比赛中"
    SHOT.parent.mkdir(exist_ok=True)
    assert tab.grab().save(str(SHOT))

    who[0] = None
    tab.correct_table.setValue(1)
    tab.winner.setCurrentText("EW")
    tab.gained["EW"].setValue(2)
    tab.correct_button.click()
    assert tab.status.text() == "请先登录再裁决" and desk.state.table(4, 1).corrected is None
    who[0] = "wang"
    tab.correct_button.click()
    assert tab.status.text() == "更正须写明原因" and desk.state.table(4, 1).corrected is None
    tab.reason.setText("NS's last deal was read twice; the score sheet says 2:0")
    tab.correct_button.click()
    corrected = desk.state.table(4, 1).corrected
    assert (corrected.winner, corrected.gained, corrected.by) == ("EW", {"EW": 2, "NS": 0}, "wang")
    assert tab.awaiting.count() == 1 and tab.pairings.item(0, 4).text() == "裁判已更正"

    assert tab.standings.rowCount() == 24
    first = tab.standings.item(0, 1).text()
    leader = min(desk.state.pairs.values(), key=lambda p: -1 if p.label == first else 0)
    assert leader.label == first and tab.standings.item(0, 0).text() == "1"
    tab.call_button.click()
    assert tab.clock_label.text() == "时间到（不再开新副）" and sent[-1].called == now[0]
    store.close()
