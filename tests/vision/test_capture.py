import numpy as np
import pytest

from referee_station.render.video import write_video
from referee_station.vision.capture import CaptureError, folder_frames, open_source, video_frames


def frames(n):
    return [(i / 10, np.full((48, 64, 3), 20 * i, np.uint8)) for i in range(n)]


def test_video_round_trip_keeps_the_file_clock(tmp_path):
    path = tmp_path / "clip.mp4"
    assert write_video(str(path), frames(5), 10.0, (64, 48)) == 5
    got = list(video_frames(path))
    assert [t for t, _ in got] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert abs(int(got[3][1].mean()) - 60) <= 3


def test_folder_frames_in_name_order(tmp_path):
    import cv2

    for i, (_, frame) in enumerate(frames(3)):
        cv2.imwrite(str(tmp_path / f"{2 - i:03d}.png"), frame)
    got = list(folder_frames(tmp_path, fps=5))
    assert [t for t, _ in got] == [0.0, 0.2, 0.4]
    assert [int(f.mean()) for _, f in got] == [40, 20, 0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({}, "exactly one"), ({"camera": 0, "video": "x.mp4"}, "exactly one"), ({"video": "missing.mp4"}, "cannot open")],
)
def test_bad_sources(kwargs, message, tmp_path):
    with pytest.raises(CaptureError, match=message):
        next(iter(open_source(**kwargs)))
    with pytest.raises(CaptureError, match="no frames"):
        next(folder_frames(tmp_path))
