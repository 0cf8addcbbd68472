"""Frames in: every image vision reads passes through `as_bgr`, so bad input fails here, clearly."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .types import VisionError

MAX_SIDE = 8192


def as_bgr(frame: object) -> np.ndarray:
    """A contiguous HxWx3 uint8 BGR image, or `VisionError` saying what is wrong.

    Accepts grey (HxW or HxWx1), BGR and BGRA uint8 arrays; anything else is refused
    rather than guessed at.
    """
    if not isinstance(frame, np.ndarray):
        raise VisionError(f"a frame is a numpy array, not {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise VisionError(f"a frame holds uint8 pixels, not {frame.dtype}")
    if frame.ndim in (2, 3) and min(frame.shape[:2]) < 16:
        raise VisionError(f"a {frame.shape[1]}x{frame.shape[0]} frame is too small to read")
    if frame.ndim == 3 and frame.shape[2] == 1:
        frame = frame[:, :, 0]
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    elif not (frame.ndim == 3 and frame.shape[2] == 3):
        raise VisionError(f"a frame is HxW, HxWx3 or HxWx4, not shape {frame.shape}")
    h, w = frame.shape[:2]
    if h < 16 or w < 16:
        raise VisionError(f"a {w}x{h} frame is too small to read")
    if max(h, w) > MAX_SIDE:
        raise VisionError(f"a {w}x{h} frame is larger than {MAX_SIDE} pixels on a side")
    return np.ascontiguousarray(frame)


def decode(data: bytes) -> np.ndarray:
    """A JPEG/PNG's pixels; `VisionError` for corrupt or truncated data."""
    if not data:
        raise VisionError("empty image data")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError("the image data is corrupt or not a JPEG/PNG")
    return as_bgr(image)


def load(path: Path | str) -> np.ndarray:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise VisionError(f"cannot read {path}: {error.strerror}") from error
    return decode(data)
