"""The head console's adapter (``HallFeed``): a table's log as it comes off the bus becomes the
console models' updates, the evidence frame meets its flag whichever arrives first, and what does
not add up (copies, a late record, an output the head's replay does not give) is handled or said."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest

from referee_station.console.hall_feed import EvidenceUpdate, FeedWarning, HallFeed
from referee_station.console.models.console import ConsoleModel
from referee_station.hall.evidence import Evidence, EvidenceError, frame_jpeg, jpeg_frame
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import Ruling
from referee_station.table.referee import TableReferee
from tests.console.helpers import envelopes, one_deal_with_flags


def updates(items: list) -> list[TableUpdate]:
    return [i for i in items if isinstance(i, TableUpdate)]


def test_a_table_log_becomes_the_console_models_updates() -> None:
    inputs = one_deal_with_flags()
    feed = HallFeed()
    for envelope in envelopes("T2", inputs):
        feed.record(envelope)
    items = feed.take()
    assert [i for i in items if isinstance(i, FeedWarning)] == []
    assert [u.event for u in updates(items)] == inputs
    model = ConsoleModel()
    for update in updates(items):
        model.apply(update)
    pending = [(a.table, a.flag.seat, a.flag.offence, a.flag.penalty) for a in model.alerts.pending]
    # most severe first (R-PLAY-1 out of turn: S's play an infraction, N's pass a warning)
    assert pending == [("T2", "S", "out_of_turn_play", "infraction"), ("T2", "N", "out_of_turn_pass", "warning")]
    assert model.sheet.sheet("T2").rows[0].side_up == "EW"
    assert model.table("T2").results[0].levels_up == 3


def test_copies_are_dropped_and_a_late_or_different_record_is_reported() -> None:
    sent = envelopes("T2", one_deal_with_flags())
    feed = HallFeed()
    for envelope in sent[:10] + sent[:10]:  # the register replay and the live bus overlap
        feed.record(envelope)
    assert len(updates(feed.take())) == sum(1 for e in sent[:10] if e.is_input)
    feed.record(sent[12])
    feed.record(sent[11])  # later than seq 13
    wrong = next(e for e in sent[13:] if not e.is_input)
    for envelope in sent[13 : sent.index(wrong)]:
        feed.record(envelope)
    feed.record(dataclasses.replace(wrong, body=wrong.body.replace('"t":', '"x":1,"t":')))
    texts = [i.message.text("en") for i in feed.take() if isinstance(i, FeedWarning)]
    assert any("arrived after later ones" in t and ":12" in t for t in texts), texts
    assert any(f"output {wrong.seq}" in t and "differs" in t for t in texts), texts


def test_the_evidence_frame_meets_its_flag_whichever_comes_first() -> None:
    sent = envelopes("T2", one_deal_with_flags())
    image = np.zeros((120, 160, 3), np.uint8)
    image[:, :80] = (200, 30, 30)
    jpeg = frame_jpeg(image)
    feed = HallFeed()
    feed.evidence(Evidence("T2", "abcd", 1, 3.0, jpeg, time.time()))  # before flag 1
    for envelope in sent:
        feed.record(envelope)
    feed.evidence(Evidence("T2", "abcd", 2, 4.0, jpeg, time.time()))  # after flag 2
    feed.evidence(Evidence("T2", "other-log", 1, 4.0, jpeg, time.time()))  # another log's flag 1: held
    items = feed.take()
    with_frame = [u for u in updates(items) if u.frame is not None]
    assert [[o.id for o in u.outputs if o.TYPE == "flag"] for u in with_frame] == [[1]]
    assert with_frame[0].frame.shape == (120, 160, 3) and with_frame[0].frame[60, 20, 0] > 150
    late = [i for i in items if isinstance(i, EvidenceUpdate)]
    assert [(i.table, i.flag) for i in late] == [("T2", 2)]
    model = ConsoleModel()
    for update in updates(items):
        model.apply(update)
    assert model.alerts.attach_frame(("T2", 2), late[0].frame)
    assert all(a.frame is not None for a in model.alerts.pending)


def test_a_ruling_names_the_referee_who_issued_it_and_closes_the_alert() -> None:
    inputs = one_deal_with_flags()
    referee = TableReferee()
    at = next(i for i, event in enumerate(inputs) if any(o.TYPE == "flag" and o.id == 2 for o in referee.feed(event)))
    ruling = Ruling(t=inputs[at].t + 0.1, flag=2, decision="confirm")
    stream = [*inputs[: at + 1], ruling, *inputs[at + 1 :]]
    sent = envelopes("T2", stream)
    seq = next(e.seq for e in sent if e.type == "ruling")
    sent = envelopes("T2", stream, cause={seq: "cmd-1"})
    feed = HallFeed(referee_of={"cmd-1": "李裁判"}.get)
    for envelope in sent:
        feed.record(envelope)
    model = ConsoleModel()
    for update in updates(feed.take()):
        model.apply(update)
    assert [(a.flag.id, a.decision, a.who) for a in model.alerts.answered] == [(2, "confirm", "李裁判")]
    assert [a.flag.id for a in model.alerts.pending] == [1]
    assert [(e.who, e.what("en")) for e in model.register.audit] == [("李裁判", "confirmed #2")]
    assert [p.penalty for p in model.register.penalties["T2"]] == ["warning"]


def test_evidence_that_is_not_a_small_jpeg_is_refused_by_name() -> None:
    with pytest.raises(EvidenceError, match="T2 flag 3 is not a JPEG"):
        Evidence("T2", "abcd", 3, 1.0, b"GIF89a", 0.0)
    with pytest.raises(EvidenceError, match="no header line"):
        Evidence.decode(b"\xff\xd8\xff")
    with pytest.raises(EvidenceError, match="header is not ours"):
        Evidence.decode(b'{"table":"T2"}\n\xff\xd8')
    good = Evidence("T2", "abcd", 3, 1.0, frame_jpeg(np.zeros((8, 8, 3), np.uint8)), 5.0)
    assert Evidence.decode(good.encode()) == good
    assert jpeg_frame(b"\xff\xd8 not really") is None
