"""Stillness: read only a settled table (no hand, no rolling die), and only what K frames agree on."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass

import cv2
import numpy as np

from .frames import as_bgr


@dataclass(frozen=True)
class StillnessConfig:
    width: int = 160
    """Frames are compared at this width: motion is large, detail does not matter."""
    pixel_delta: int = 18
    """A pixel 'changed' when its grey level moves by more than this."""
    changed_fraction: float = 0.004
    """The table is moving when more than this fraction of pixels changed."""
    settle_frames: int = 3
    """Consecutive still frames before the table counts as settled."""


def _small(frame: object, width: int) -> np.ndarray:
    image = as_bgr(frame)
    h, w = image.shape[:2]
    small = cv2.resize(image, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)


class StillnessGate:
    """Feed it every frame; `update` says whether the table has been still long enough."""

    def __init__(self, config: StillnessConfig | None = None) -> None:
        self.config = config or StillnessConfig()
        self._last: np.ndarray | None = None
        self._still = 0

    def update(self, frame: object) -> bool:
        small = _small(frame, self.config.width)
        moving = True
        if self._last is not None and self._last.shape == small.shape:
            changed = np.count_nonzero(cv2.absdiff(small, self._last) > self.config.pixel_delta)
            moving = bool(changed > self.config.changed_fraction * small.size)
        self._last = small
        self._still = 0 if moving else self._still + 1
        return self._still >= self.config.settle_frames

    @property
    def still_frames(self) -> int:
        """Consecutive still frames so far (0: the last frame moved)."""
        return self._still


class Agreement:
    """Reports a reading only once the last `k` readings agree (one bad frame changes nothing)."""

    def __init__(self, k: int = 3) -> None:
        self.k = k
        self._recent: deque[Hashable] = deque(maxlen=k)

    def update(self, key: Hashable) -> bool:
        self._recent.append(key)
        return len(self._recent) == self.k and len(set(self._recent)) == 1

    def reset(self) -> None:
        self._recent.clear()
