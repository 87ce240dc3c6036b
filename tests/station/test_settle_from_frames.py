"""#30 "later, sure frames of the same cards settle it": the real tracker and camera pipeline look again
at a play they sent doubtful; when later frames are sure of its cards, the station settles the pending
read with a ``settle`` from the camera, and the referee withdraws the look it had asked for."""

from __future__ import annotations

from referee_station.rules import Card
from referee_station.station.orchestrator import Source, Station
from referee_station.station.setup import MatchSetup
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Flag, Settle, Withdrawn
from referee_station.vision.calibrate import from_markers
from referee_station.vision.layout import Layout
from referee_station.vision.pipeline import CameraPipeline
from referee_station.vision.tracker import TrackerConfig
from tests.vision.helpers import homography, table_frame
from tests.vision.test_tracker import CLEAR, PAIR, SPADE, TORN, Shaded


class ScriptedSampler:
    """The zone patches of a scripted table at the clock's time (the pipeline's sampler, for a script)."""

    def __init__(self, script: Shaded, clock: dict[str, float]) -> None:
        self.script, self.clock = script, clock

    def sample(self, frame):
        return self.script.patches(self.clock["t"])


def refereed(looks: list) -> tuple[list, CorrectingReferee]:
    """E lays 5♠ 5♥ at 1 s, read look by look as ``looks`` says (the 5♥ torn: read 6♥, no pattern with
    the 5♠, R-PAT; a shadow comes and goes from 3 s), through a whole station for 8 s."""
    script = Shaded("E", looks, plays={"E": [(1.0, PAIR)]})
    clock = {"t": 0.0}
    layout = Layout.default()
    calib = from_markers("T1", table_frame(homography()), layout)
    pipeline = CameraPipeline(calib, lambda frame, corners: script.reading(clock["t"]), layout)
    pipeline.sampler = ScriptedSampler(script, clock)
    referee = CorrectingReferee()
    station = Station(referee, pipeline=pipeline, setup=MatchSetup({"EW": "Nanjing", "NS": "Suzhou"}, "E"))
    fed = []
    for i in range(80):
        clock["t"] = i / 10
        fed += station.frame(clock["t"], table_frame(homography(), size=(640, 360), seed=i)).fed
    return fed, referee


def test_a_pending_read_is_settled_by_later_sure_frames_and_its_look_withdrawn() -> None:
    fed, referee = refereed([[SPADE, TORN]] * TrackerConfig().max_reads + [[SPADE, CLEAR]])
    (play,) = [f for f in fed if f.event.TYPE == "play"]
    (asked,) = [o for o in play.outputs if isinstance(o, Flag)]
    assert asked.offence == "uncertain_read" and play.event.cards == (Card("5s"), Card("6h"))
    (settled,) = [f for f in fed if isinstance(f.event, Settle)]
    assert settled.source is Source.CAMERA and settled.event.at == play.event.t
    assert settled.event.cards == tuple(map(Card, PAIR))
    assert settled.event.reason.startswith("sure frames at t=")
    assert [(o.what, o.flag) for o in settled.outputs if isinstance(o, Withdrawn)] == [("flag", asked.id)]
    assert referee.snapshot().pending == () and referee.snapshot().deal.last.cards == tuple(PAIR)


def test_frames_that_stay_doubtful_settle_nothing_the_read_waits_for_the_referee() -> None:
    fed, referee = refereed([[SPADE, TORN]])
    assert not any(isinstance(f.event, Settle) for f in fed)
    assert [p.readings for p in referee.snapshot().pending] == [(tuple(PAIR), ("5s", "6h"))]  # and the read
