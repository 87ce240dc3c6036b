"""The deal replayed step by step with each step's frame (issue #29): the state after each step comes
from the table's log fed again to a fresh referee, and the frame is the one stored for that step."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.replay import DealReplay
from referee_station.console.qt.replay_view import ReplayDialog
from referee_station.console.qt.window import ConsoleWindow
from referee_station.rules import Card
from referee_station.station.live.runner import TableRunner
from tests.console.helpers import one_deal_with_flags


class StampedCamera:
    """A camera whose red channel tells the table time the image was taken (t × 5), so a test can
    tell which moment's frame a view shows even after the JPEG the console stores."""

    def frame(self, t: float) -> np.ndarray:
        image = np.zeros((540, 540, 3), np.uint8)
        image[..., 0] = round(t * 5)
        return image


def played() -> ConsoleModel:
    """Deal 1 of ``one_deal_with_flags`` through a live runner with the camera; flag #1 is confirmed
    as soon as it shows, while the deal goes on."""
    model = ConsoleModel(referee="张裁判")
    runner = TableRunner("T1", one_deal_with_flags(), camera=StampedCamera())
    model.send.connect(lambda _table, event, who: runner.submit(event, who))
    while runner.next_t is not None:
        for update in runner.step() + runner.drain():
            model.apply(update)
        if any(a.key == ("T1", 1) for a in model.alerts.pending):
            assert model.rule(("T1", 1), "confirm")
    return model


def frame_time(frame: np.ndarray) -> float:
    return float(round(frame[..., 0].mean() / 5))  # whole seconds in these scripts


def test_each_step_shows_the_state_and_frame_of_that_moment():
    model = played()
    replay = DealReplay(model.table("T1"))
    replay.load()
    assert list(replay.deals) == [1]
    first = replay.step
    assert (
        first is not None
        and first.update.event.seat == "S"
        and [f.offence for f in first.flags] == ["out_of_turn_play"]
    )
    state = replay.state()
    assert state.deal.counts == dict.fromkeys("ESWN", 27)  # the out-of-turn play is void (R-PLAY-1)
    assert frame_time(replay.frame()) == 2.0
    kinds = [type(s.update.event).__name__ for s in replay.steps]
    ruling = kinds.index("Ruling")
    replay.go(ruling - 1)
    assert replay.state().snapshot.ladder["NS"]["infraction"] == 0
    replay.forward()
    assert replay.state().snapshot.ladder["NS"]["infraction"] == 1  # the ruling's step climbs the ladder
    replay.go(kinds.index("PlayCards", 1))  # E's eight threes
    state = replay.state()
    assert state.deal.counts["E"] == 19
    assert state.trick_cards["E"] == tuple(map(Card, ("3s", "3s", "3h", "3h", "3d", "3d", "3c", "3c")))
    assert frame_time(replay.frame()) == replay.step.update.event.t
    replay.forward()  # N's pass raised no flag: the station stored no frame for it
    assert replay.frame() is None and replay.state().trick_cards["N"] is None
    replay.go(len(replay.steps) - 1)
    assert replay.state().levels == {"EW": "5", "NS": "2"} and replay.state().results[-1].side_up == "EW"
    replay.back()
    assert replay.state().results == []  # one step back the deal had not ended


def test_a_deal_not_in_the_log_is_refused_with_the_deals_it_has():
    replay = DealReplay(played().table("T1"))
    replay.load()
    with pytest.raises(ValueError, match=r"T1 has no deal 4 in its log; it has \[1\]"):
        replay.select_deal(4)
    assert replay.deal == 1


def test_the_replay_window_steps_with_the_keys_and_draws_the_frame(qtbot):
    model = played()
    window = ConsoleWindow(model)
    qtbot.addWidget(window)
    window.select("T1")
    window.replay_action.trigger()
    dialog: ReplayDialog = window.replay
    qtbot.waitUntil(dialog.isActiveWindow)  # its own window: the arrow keys never reach the alert queue
    assert dialog.isVisible() and "第 1/" in dialog.step_label.text() and "出错牌" not in dialog.step_label.text()
    assert "南 出牌 3♥" in dialog.step_label.text() and "R-PLAY-1" in dialog.step_label.text()
    assert frame_time(dialog.table_view.model.frame) == 2.0
    assert not dialog.back_button.isEnabled()
    assert "违例" not in dialog.ladder.text()
    qtbot.keyClick(dialog, Qt.Key.Key_Right)  # the ruling made while the deal went on
    assert "裁决 #1: 确认" in dialog.step_label.text() and "南北 违例×1" in dialog.ladder.text()
    qtbot.keyClick(dialog, Qt.Key.Key_Right)
    assert "北 不要" in dialog.step_label.text() and frame_time(dialog.table_view.model.frame) == 3.0
    before = dialog.table_view.canvas.grab().toImage()
    qtbot.keyClick(dialog, Qt.Key.Key_Right)
    assert "东 出牌 3♠ 3♠ 3♥" in dialog.step_label.text() and frame_time(dialog.table_view.model.frame) == 4.0
    assert dialog.table_view.seats.item(0, 1).text() == "19"  # E's cards left after the eight threes
    after = dialog.table_view.canvas.grab().toImage()
    assert before != after
    qtbot.keyClick(dialog, Qt.Key.Key_Left)
    model.set_language("en")
    assert "step " in dialog.step_label.text() and "第" not in dialog.step_label.text()
    dialog.close()


def test_the_head_console_replays_a_table_from_the_hall_with_the_flags_evidence(qtbot):
    from tests.console.test_head_window import head_window

    model, window, _sent = head_window(qtbot)
    evidence = StampedCamera().frame(2.0)  # flag #1's frame, come over the hall after its flag
    assert model.alerts.attach_frame(("T1", 1), evidence)
    window.select("T1")
    window.replay_action.trigger()
    replay = window.replays["T1"]
    assert [s.update.event.seat for s in replay.steps[:2]] == ["S", "N"]
    assert frame_time(window.replay.table_view.model.frame) == 2.0  # the flag's evidence, no frame of its own
    replay.go(2)  # E's eight threes: the hall carries no frame of a play
    assert window.replay.table_view.model.frame is None and "此步无存档画面" in window.replay.step_label.text()
    assert window.replay.table_view.model.deal.counts["E"] == 19
    window.replay.close()
