import numpy as np

from tests.camera.helpers import CORNERS, homography, table_frame
from tests.camera.scripted import FrameReading, Reading
from vision.calibrate import from_markers
from vision.layout import Layout
from vision.pipeline import CameraPipeline

EMPTY = FrameReading({seat: Reading([], [], "empty") for seat in "ESWN"})


def test_idle_frames_cost_no_read_and_a_moved_camera_warns_once():
    layout = Layout.default()
    still = table_frame(homography())
    pipeline = CameraPipeline(from_markers("T1", still, layout), lambda frame, corners: EMPTY, layout, recheck=1.0)
    moved = table_frame(homography(CORNERS + np.array([30.0, 12.0])))
    for i in range(40):
        t = i / 10
        assert pipeline.process(t, still if t < 2.0 else moved) == []
    assert pipeline.stats.frames == 40
    assert [text.split(":")[0] for _, text in pipeline.warnings] == ["camera moved"]
    assert pipeline.warnings[0][0] == 2.0
