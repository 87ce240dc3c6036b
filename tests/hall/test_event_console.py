"""The event through both consoles (issue 28), on the real Mosquitto and PostgreSQL: the head's event
tab starts round 1 and calls time with its buttons; a station linked to the hall gets the round, feeds
the call after its deal in progress, and its round panel's two sign buttons send the signatures; the
head's tab then shows the table's result as signed by both, and the journal says who did what."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest

from referee_station.cli import main
from referee_station.console.qt.head_app import HeadApp
from referee_station.console.qt.round_panel import RoundPanel
from referee_station.event.desk import EventDesk
from referee_station.event.store import EventStore
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.sim.match import simulate
from referee_station.station.orchestrator import Station
from referee_station.station.round_gate import RoundGate
from referee_station.station.setup import MatchSetup
from referee_station.table.events import Clear, DealStart, MatchStart, Tick
from tests.event.helpers import new_event, pair_round
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, wait_for


@pytest.mark.timeout(120)
def test_a_round_from_the_head_tab_to_a_station_and_back(qtbot, hall: Hall, register_dsn: str, tmp_path: Path):
    state = new_event(2, seed=5)
    pair_round(state)
    journal = EventStore(tmp_path / "event.db", create=True)
    for action in state.journal:
        journal.record(action)
    desk = EventDesk(journal, "chief")
    log = tmp_path / "T01.sqlite"
    with Register(register_dsn) as register:
        app = HeadApp(BrokerURL.parse(hall.head_url()), HALL, register, "zh", desk)
        qtbot.addWidget(app.window)
        app.start(show=False)
        try:
            assert app.head.wait_connected(10)
            tab = app.event_tab
            app.window.referee = "wang"
            tab.start_button.click()
            logged = LogStation(log, "T01")
            link = StationLink(BrokerURL.parse(hall.station_url("T01")), HALL, "T01", log).start()
            try:
                gate = RoundGate(link, "T01")
                wait_for(lambda: gate.seats is not None, what="round 1 at the station")
                events = [e for e in simulate(8, deals=2).events if not isinstance(e, (MatchStart, Tick, Clear))]
                second = [e.t for e in events if isinstance(e, DealStart)][1]
                setup = MatchSetup(gate.seats.sides, leader="E")
                station = Station(logged.referee, LinkedStation(logged, link, clock=lambda: 0.0), setup=setup,
                                  others=events, round_gate=gate)  # fmt: skip
                panel = RoundPanel(station, gate, "zh")
                qtbot.addWidget(panel)
                assert panel.clock.text().startswith("第1轮 剩余 ") and not panel.buttons["NS"].isEnabled()
                station.idle(second - 30.0)
                tab.call_button.click()
                wait_for(lambda: gate.call.called is not None, what="the call at the station")
                station.idle(station.now)
                station.finish(events[-1].t)
                assert logged.referee.match_over and logged.referee.snapshot().deals_played == 1
                panel.refresh()
                panel.buttons["NS"].click()
                panel.buttons["EW"].click()
                station.idle(0.0)
                assert link.wait_acked(20)
                qtbot.waitUntil(lambda: tab.pairings.item(0, 4).text() == "双方已签字", timeout=20_000)
                app.window.language.trigger()
                assert tab.pairings.item(0, 4).text() == "signed by both" and tab.call_button.text() == "Call time"
                assert app.window.tabs.tabText(app.window.tabs.indexOf(tab)) == "Event"
            finally:
                link.close()
                logged.close()
        finally:
            app.stop()
    by = [(a.KIND, a.by) for a in journal.actions()][-6:]
    assert by == [("round_paired", "head"), ("round_started", "wang"), ("time_called", "wang"),
                  ("result_reported", "station T01"), ("result_confirmed", "T01 NS"),
                  ("result_confirmed", "T01 EW")]  # fmt: skip
    assert desk.problems == []
    journal.close()


def test_the_console_names_an_event_journal_it_cannot_open(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "cup.db"
    argv = ["hall", "console", "--broker", "mqtt://head@127.0.0.1:1", "--db", "postgresql://x@127.0.0.1:1/h"]
    assert main([*argv, "--event", str(missing)]) == 2
    assert f"referee-station hall: --event: {missing}: no such event file" in capsys.readouterr().err
    assert main([*argv, "--event", "postgresql://x@127.0.0.1:1/h"]) == 2
    assert "name one with --event-name" in capsys.readouterr().err
