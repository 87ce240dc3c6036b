import numpy as np

from referee_station.vision.calibrate import from_markers
from referee_station.vision.layout import Layout
from referee_station.vision.pipeline import CameraPipeline
from tests.vision.helpers import CORNERS, homography, table_frame
from tests.vision.scripted import FrameReading, Reading

EMPTY = FrameReading({seat: Reading([], [], "empty") for seat in "ESWN"})


def test_idle_frames_cost_no_read_and_a_moved_camera_is_seen_at_the_next_check():
    layout = Layout.default()
    still = table_frame(homography())
    pipeline = CameraPipeline(from_markers("T1", still, layout), lambda frame, corners: EMPTY, layout, recheck=1.0)
    moved = table_frame(homography(CORNERS + np.array([30.0, 12.0])))
    checks = {}
    for i in range(40):
        t = i / 10
        result = pipeline.process(t, still if t < 2.0 else moved)
        assert result.events == [] and result.warnings == []
        if result.moved is not None:
            checks[t] = result.moved
    assert pipeline.stats.frames == 40
    assert checks == {0.0: False, 1.0: False, 2.0: True, 3.0: True}
