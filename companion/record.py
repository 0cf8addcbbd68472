"""`companion record`: what the camera sees, saved as a `table-recording/1` recording, so
players can capture their own table (truth left empty) and contribute it as a fixture.

Each time the table comes to rest, the camera's full-resolution still of that moment is kept
beside the frame (its `full` file), as the table loop reads small dice from it."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import cv2

from hardware.camera import CameraError, FrameSource, RecordingEnded
from vision.motion import StillnessConfig, StillnessGate
from vision.types import RECORDING_FORMAT

JPEG_QUALITY = 92


SAVE_EVERY_S = 1.0
"""recording.json is rewritten at most this often (and at the end): an SD card wears."""


def _write_durably(path: Path, data: bytes) -> None:
    """On the card before it is listed: a power cut never leaves a listed frame empty."""
    with open(path, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def _write_json(path: Path, data: dict[str, object]) -> None:
    """Atomically and durably, so a power cut leaves the previous, valid recording.json."""
    part = path.with_suffix(".json.part")
    _write_durably(part, json.dumps(data, indent=1).encode())
    os.replace(part, path)


def record(
    source: FrameSource,
    out_dir: Path,
    seconds: float,
    fps: float = 5.0,
    timeout: float = 2.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    log: Callable[[str], None] = print,
) -> int:
    """Frames from `source` for `seconds`, at most `fps` a second, each waited for at most
    `timeout` seconds ([camera] timeout_s); returns how many were kept.
    A frame the camera fails to give is logged and skipped; the recording so far stays valid."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if any(out_dir.iterdir()):
        raise CameraError(f"{out_dir} is not empty; record into a new folder")
    meta: dict[str, object] = {
        "format": RECORDING_FORMAT,
        "description": "recorded by companion record",
        "source": source.name,
        "game": None,
        "profile": None,
        "camera": {"width": 0, "height": 0, "fps": fps},
        "frames": [],
    }
    frames: list[dict[str, object]] = []
    last_error = ""
    gate = StillnessGate(StillnessConfig())
    rest_kept = False
    """Whether this rest of the table has its full-resolution still (one per rest)."""
    with source:
        start = next_due = saved = clock()  # after opening: a camera may take a second or two
        while clock() - start < seconds:
            try:
                frame = source.read(timeout, full=gate.still_frames > 0 and not rest_kept)
            except RecordingEnded:
                break
            except CameraError as error:
                if str(error) != last_error:  # an offline camera fails every read: say it once
                    log(f"skipped: {error}")
                    last_error = str(error)
                sleep(0.2)
                continue
            last_error = ""
            now = clock()
            if now < next_due:
                continue
            next_due = max(next_due + 1 / fps, now - 0.5 / fps)  # on average `fps`, no drift
            gate.update(frame.image)
            if gate.still_frames == 0:
                rest_kept = False  # the table moved: its next rest gets a still of its own
            name = f"{len(frames) + 1:05d}.jpg"
            ok, data = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if not ok:
                log(f"skipped a frame that would not encode ({frame.image.shape})")
                continue
            _write_durably(out_dir / name, data.tobytes())
            height, width = frame.image.shape[:2]
            meta["camera"] = {"width": width, "height": height, "fps": fps}
            entry: dict[str, object] = {"file": name, "t": round(now - start, 3)}
            if frame.full is not None and gate.still_frames > 0 and not rest_kept:
                ok, data = cv2.imencode(".jpg", frame.full, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
                if ok:
                    full_name = f"{len(frames) + 1:05d}-full.jpg"
                    _write_durably(out_dir / full_name, data.tobytes())
                    entry["full"] = full_name
                    rest_kept = True
            frames.append(entry)
            meta["frames"] = frames
            if now - saved >= SAVE_EVERY_S or len(frames) == 1:
                _write_json(out_dir / "recording.json", meta)
                saved = now
    if frames:
        _write_json(out_dir / "recording.json", meta)
    return len(frames)
