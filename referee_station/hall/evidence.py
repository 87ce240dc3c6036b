"""The camera frame a flag carries to the head (issue #23): one small JPEG per flag raised while
the station had a camera image, on ``guandan/<hall>/<table>/evidence`` (QoS 1, not retained).

Why a channel of its own and not a field of the flag's record: the record is the EVENTS.md line the
station logged, and an image does not belong in the log; the head keys a frame by the table's log
id and the flag id (flag ids count per log), so it meets its flag whichever arrives first. The
message is a one-line JSON header, a newline, then the JPEG bytes (no base64: a third smaller).
The station keeps each frame in its outbox until the head acks it as stored (``hall.outbox``), so
a frame survives a station crash like the flag's record does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from referee_station.hall.topics import TopicError

MAX_JPEG_BYTES = 512 * 1024
"""Larger frames are refused at both ends: a flag's picture is a glance, not a recording."""
JPEG_MAGIC = b"\xff\xd8"
MAX_SIDE = 640
"""Longest side of the picture the station sends (``frame_jpeg``)."""
QUALITY = 75


class EvidenceError(TopicError):
    """An evidence message that is not a header line and a JPEG of at most ``MAX_JPEG_BYTES``."""


@dataclass(frozen=True)
class Evidence:
    """The frame of one flag: ``log`` and ``flag`` name it, ``t`` is the table time of the frame,
    ``sent_at`` the station's wall clock when it sent it."""

    table: str
    log: str
    flag: int
    t: float
    jpeg: bytes
    sent_at: float

    def __post_init__(self) -> None:
        if not self.jpeg.startswith(JPEG_MAGIC):
            raise EvidenceError(f"evidence for {self.table} flag {self.flag} is not a JPEG")
        if len(self.jpeg) > MAX_JPEG_BYTES:
            raise EvidenceError(
                f"evidence for {self.table} flag {self.flag} is {len(self.jpeg)} bytes, over {MAX_JPEG_BYTES}"
            )

    def encode(self) -> bytes:
        header = {"table": self.table, "log": self.log, "flag": self.flag, "t": self.t, "sent_at": self.sent_at}
        return json.dumps(header, separators=(",", ":")).encode() + b"\n" + self.jpeg

    @classmethod
    def decode(cls, payload: bytes) -> Evidence:
        head, newline, jpeg = payload.partition(b"\n")
        if not newline:
            raise EvidenceError("evidence message has no header line")
        try:
            obj = json.loads(head)
            fields = (str(obj["table"]), str(obj["log"]), int(obj["flag"]), float(obj["t"]), float(obj["sent_at"]))
        except (ValueError, KeyError, TypeError) as err:
            raise EvidenceError(f"evidence header is not ours: {err}") from err
        table, log, flag, t, sent_at = fields
        return cls(table, log, flag, t, jpeg, sent_at)


def frame_jpeg(frame: np.ndarray, max_side: int = MAX_SIDE, quality: int = QUALITY) -> bytes:
    """An ``H×W×3`` RGB camera image as the JPEG a station sends: scaled down to ``max_side``."""
    height, width = frame.shape[:2]
    scale = min(1.0, max_side / max(height, width))
    if scale < 1.0:
        frame = cv2.resize(frame, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(frame, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise EvidenceError("the frame could not be encoded as JPEG")
    return data.tobytes()


def jpeg_frame(jpeg: bytes) -> Any:
    """The JPEG back as an ``H×W×3`` RGB array (what the console's views draw), or ``None`` when
    the bytes do not decode."""
    try:
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        return None
    return None if image is None else cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
