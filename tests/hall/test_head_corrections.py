"""#30 settle and reverse from the head console: a correction travels to the table over the broker like
a ruling does, lands in the table's log as the same ``settle`` / ``reverse`` input, and the ``withdrawn``
records the replay gives come back to the head's register and alert queue."""

from __future__ import annotations

import json
from pathlib import Path

from referee_station.console.hall_feed import HallFeed
from referee_station.console.models.console import ConsoleModel
from referee_station.hall.auth import hash_referee
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from referee_station.station.live.head_desk import HeadDesk, RulingResult
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import Record, Reverse, Settle, Withdrawn
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import LogStation, StationTable, wait_for

MISREAD = {"confidence": 0.3, "alternatives": [[["Kh", 0.5], ["3h", 0.4]]]}
"""E's lead read Kh at low confidence, 3h a close reading (R-PLAY-4)."""


def test_the_head_settles_a_doubtful_read_and_reverses_a_ruling_of_a_table(
    hall: Hall, register: Register, log_path: Path
) -> None:
    register.add_referee(hash_referee("li", "secret", iterations=1000))
    station = LogStation(log_path, "T03")
    received = []
    with (
        HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register, on_received=received.append) as head,
        StationLink(BrokerURL.parse(hall.station_url("T03")), HALL, "T03", log_path) as link,
    ):
        assert head.wait_connected(10) and link.wait_connected(10)
        table = StationTable(station, after=link.flush)
        table.deal("E")
        table.play("E", "Kh", **MISREAD)
        (read,) = [o for o in table.play("N", "5h") if o["type"] == "flag"]  # beats 3h only (R-CMP)
        (warning,) = [o for o in table.pass_("S") if o["type"] == "flag"]  # out of turn either way (R-PLAY-1)
        assert (read["offence"], warning["offence"]) == ("uncertain_read", "out_of_turn_pass")
        wait_for(lambda: len(register.records(HALL, "T03", ["flag"])) == 2, what="both flags at the head")
        model = ConsoleModel(referee="li")
        feed = HallFeed()

        def land() -> None:
            while received:
                feed.record(received.pop(0))
            for item in feed.take():
                if isinstance(item, TableUpdate):
                    model.apply(item)

        wait_for(lambda: land() or len(model.alerts.pending) == 2, what="both alerts in the head's queue")
        sent: list[Record] = []
        model.send.connect(lambda _table, event, _who: sent.append(event))
        session = head.login("li", "secret")
        ruling = head.rule(session, "T03", warning["id"], "confirm")
        assert model.settle(("T03", read["id"]), ("3h",))
        (settle,) = sent
        assert isinstance(settle, Settle) and model.alerts.correction_flag("T03", settle) == read["id"]
        desk = HeadDesk(head)  # the head window's way: off the GUI thread, as HeadApp sends it
        desk.login("li", "secret")
        desk.correct("T03", settle, model.alerts.correction_flag("T03", settle))
        results: list = []
        wait_for(lambda: bool(results.extend(desk.take()) or len(results) == 2), what="the desk's answers")
        desk.close()
        (sent_settle,) = [r for r in results if isinstance(r, RulingResult)]
        assert sent_settle.error is None and sent_settle.flag == read["id"]
        command = sent_settle.command
        assert command is not None and command.decision == "settle"
        assert register.unapplied_rulings(HALL, "T03")[-1].correction == settle.to_line()  # resent if lost

        linked = LinkedStation(station, link, clock=lambda: table.t + 0.5)
        outputs: list[Record] = []

        def applied(command_id: str) -> bool:
            outputs.extend(linked.apply_rulings())
            return link.outbox.applied(command_id)

        wait_for(lambda: applied(command.id), what="the settle applied at the table")
        assert link.outbox.applied(ruling.id)
        withdrawn = [o for o in outputs if isinstance(o, Withdrawn)]
        assert [(w.what, w.flag) for w in withdrawn] == [("flag", read["id"])] and "settled as 3h" in withdrawn[
            0
        ].reason

        reverse = Reverse(t=0.0, flag=warning["id"], reason="S's pass was heard from the next table")
        command2 = head.correct(session, "T03", reverse, model.alerts.correction_flag("T03", reverse))
        wait_for(
            lambda: bool(outputs.extend(linked.apply_rulings()) or link.outbox.applied(command2.id)), what="reverse"
        )
        assert [(o.what, o.flag) for o in outputs if isinstance(o, Withdrawn)][1:] == [("penalty", warning["id"])]
        assert station.referee.snapshot().ladder["NS"]["warning"] == 0  # the warning no longer counts

        assert link.wait_acked(15)
        wait_for(lambda: register.ruling_applied(command2.id) is not None, what="the reverse linked to its record")
        stored = [json.loads(b) for (_id, _t, _log, _seq, _type, b, _at) in register.records(HALL, "T03")]
        logged = [r for r in stored if r["type"] in ("settle", "reverse")]
        assert [(r["type"], r.get("cards"), r.get("flag")) for r in logged] == [
            ("settle", ["3h"], None),
            ("reverse", None, warning["id"]),
        ]
        assert [r["what"] for r in stored if r["type"] == "withdrawn"] == ["flag", "penalty"]
        wait_for(lambda: land() or model.alerts.get(("T03", read["id"])) is None, what="the withdrawal at the head")
        assert all(a.flag.id != read["id"] for a in model.alerts.pending)
    station.close()
