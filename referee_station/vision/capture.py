"""Frame sources: a live camera, a video file or a folder of frames, each yielding ``(t, frame)``.

``t`` is the table clock in seconds from the source's start. A file's frames are timed by their index
and frame rate, never by how fast we decode them, so a recorded table replays to the same events; a
live camera is timed by ``time.monotonic`` when the frame arrives, and yields ``(t, None)`` while it is
away.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

FRAME_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class CaptureError(OSError):
    """The camera, video or folder cannot be opened or read."""


IMAGE_MAX_BYTES = 64 * 2**20
"""A still frame file larger than this is not a camera frame."""


def read_image(path: Path | str) -> np.ndarray:
    """One still frame (JPEG, PNG ...) as BGR; :class:`CaptureError` naming the file when it cannot
    be read whole. OpenCV decodes a truncated JPEG with a grey bottom and only a warning, so a JPEG
    must end with its end-of-image marker."""
    path = Path(path)
    try:
        if path.stat().st_size > IMAGE_MAX_BYTES:
            raise CaptureError(f"image {path} is over {IMAGE_MAX_BYTES} bytes")
        data = path.read_bytes()
    except CaptureError:
        raise
    except OSError as err:
        raise CaptureError(f"cannot read image {path}: {err.strerror or err}") from err
    if data[:2] == b"\xff\xd8" and not data.rstrip(b"\x00\r\n ").endswith(b"\xff\xd9"):
        raise CaptureError(f"image {path} is a truncated JPEG (no end-of-image marker)")
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise CaptureError(f"cannot read image {path}: not an image OpenCV decodes")
    return frame


def video_frames(path: Path | str) -> Iterator[tuple[float, np.ndarray]]:
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise CaptureError(f"cannot open video {path}")
    fps = cap.get(cv2.CAP_PROP_FPS) or 10.0
    try:
        index = 0
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            yield index / fps, frame
            index += 1
    finally:
        cap.release()


def folder_frames(path: Path | str, fps: float = 10.0) -> Iterator[tuple[float, np.ndarray]]:
    """Frames in file-name order at ``fps``."""
    files = sorted(p for p in Path(path).iterdir() if p.suffix.lower() in FRAME_SUFFIXES)
    if not files:
        raise CaptureError(f"no frames ({', '.join(FRAME_SUFFIXES)}) in {path}")
    for index, file in enumerate(files):
        frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if frame is None:
            raise CaptureError(f"cannot read frame {file}")
        yield index / fps, frame


def camera_spec(spec: str | int) -> int | str:
    """A camera as the command line names it: a device index (``0``), a ``/dev/video*`` path, or an
    RTSP/HTTP URL (anything OpenCV's capture opens)."""
    if isinstance(spec, int):
        return spec
    return int(spec) if spec.strip().isdigit() else spec


def _open_camera(spec: int | str, resolution: tuple[int, int] | None, fps: float | None) -> cv2.VideoCapture:
    cap = cv2.VideoCapture(spec)
    if not cap.isOpened():
        return cap
    # MJPG where the camera offers it: a USB 2 camera gives 1080p at 30 fps only compressed
    cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
    if resolution is not None:
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
    if fps is not None:
        cap.set(cv2.CAP_PROP_FPS, fps)
    return cap


def camera_frames(
    spec: int | str,
    clock: Callable[[], float] | None = None,
    *,
    resolution: tuple[int, int] | None = None,
    fps: float | None = None,
    retry_s: float = 1.0,
) -> Iterator[tuple[float, np.ndarray | None]]:
    """Frames timed by ``clock`` (the table clock the other sources share), else from the first frame.

    A camera that cannot be opened at the start is an error (the organiser is there to fix it); one
    that stops later yields ``(t, None)`` while it is reopened every ``retry_s`` seconds, so the
    station keeps refereeing from the buttons and says the camera is lost until it returns."""
    cap = _open_camera(spec, resolution, fps)
    if not cap.isOpened():
        raise CaptureError(f"cannot open camera {spec}")
    if clock is None:
        start = time.monotonic()

        def clock() -> float:
            return time.monotonic() - start

    try:
        while True:
            ok, frame = cap.read() if cap.isOpened() else (False, None)
            if ok:
                yield clock(), frame
                continue
            yield clock(), None
            cap.release()
            time.sleep(retry_s)
            cap = _open_camera(spec, resolution, fps)
    finally:
        cap.release()


def paced(
    frames: Iterator[tuple[float, np.ndarray]], speed: float, clock: Callable[[], float] = time.monotonic
) -> Iterator[tuple[float, np.ndarray]]:
    """A recording played as a live camera would give it, at ``speed`` times real time (seat units
    and a console need the table's clock to run like a wall clock)."""
    start = clock()
    for t, frame in frames:
        wait = t / speed - (clock() - start)
        if wait > 0:
            time.sleep(wait)
        yield t, frame


def open_source(
    camera: int | str | None = None,
    video: str | None = None,
    frames: str | None = None,
    fps: float = 10.0,
    clock: Callable[[], float] | None = None,
    resolution: tuple[int, int] | None = None,
) -> Iterator[tuple[float, np.ndarray | None]]:
    """Exactly one of camera / video / frames; ``clock`` times a live camera (``fps`` is asked of it)."""
    if sum(x is not None for x in (camera, video, frames)) != 1:
        raise CaptureError("give exactly one of --camera, --video, --frames")
    if camera is not None:
        return camera_frames(camera_spec(camera), clock, resolution=resolution, fps=fps)
    if video is not None:
        return video_frames(video)
    return folder_frames(frames, fps)  # type: ignore[arg-type]
