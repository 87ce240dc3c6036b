"""The station console's round panel (issue 28): the hall's round clock counts down to the call, and
once the match is over each side signs the result once; the signature is a ``sign`` line fed through
the orchestrator like every other input."""

from __future__ import annotations

from dataclasses import dataclass

from referee_station.console.qt.round_panel import RoundPanel
from referee_station.hall.rounds import RoundCall, RoundTable
from referee_station.sim.match import simulate
from referee_station.station.orchestrator import Station
from referee_station.station.round_gate import RoundGate
from referee_station.table.events import Record, Sign
from referee_station.table.referee import TableReferee


class Sink:
    """The referee and every record it was fed, in order."""

    def __init__(self) -> None:
        self.referee = TableReferee(auto_confirm=True)
        self.fed: list[Record] = []

    def submit(self, event: Record) -> list:
        self.fed.append(event)
        return self.referee.feed(event)


@dataclass
class Announced:
    round_call: RoundCall | None


def test_the_round_panel(qtbot) -> None:
    sink = Sink()
    events = simulate(4, deals=1).events
    station = Station(sink.referee, sink, others=events)
    now = [1000.0]
    table = RoundTable("T03", 3, "5 A / B", "9 C / D")
    source = Announced(RoundCall("cup", 2, 1000.0, 600.0, None, 9, (table,)))
    gate = RoundGate(source, "T03", wall=lambda: now[0])
    panel = RoundPanel(station, gate, lang="zh")
    qtbot.addWidget(panel)
    assert panel.clock.text() == "第2轮 剩余 10:00"
    assert not panel.buttons["EW"].isEnabled(), "nothing to sign before the match is over"
    panel.sign("EW")
    station.finish(events[-1].t)
    assert sink.referee.match_over
    now[0] += 599.2
    panel.refresh()
    assert panel.clock.text() == "第2轮 剩余 00:01" and panel.buttons["EW"].isEnabled()
    panel.buttons["EW"].click()
    panel.buttons["EW"].click()
    station.idle(0.0)
    assert [e.side for e in sink.fed if isinstance(e, Sign)] == ["EW"], "one signature a side, after the match"
    assert panel.buttons["EW"].text() == "东西 已签字" and not panel.buttons["EW"].isEnabled()
    assert panel.buttons["NS"].text() == "南北 签字确认结果" and panel.buttons["NS"].isEnabled()
    now[0] += 1
    panel.refresh()
    assert panel.clock.text() == "第2轮 时间到（不再开新副）"
    source.round_call = RoundCall("cup", 3, now[0], 600.0, None, 9, (table,))
    panel.refresh()
    assert panel.clock.text() == "", "another round's clock is not this match's"
