"""Dice: find every die in a frame and read its face.

d6 pip dice are read by a small learned detector-reader (vision/training/, ONNX run
by OpenCV's dnn module): a die-centre heat map, the face value and the die's size
at every 4th pixel. Classical pip counting fails on packed, coloured dice; this
network was trained here from the development photos (see docs/vision.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from .colours import Palette, name_colour
from .frames import as_bgr
from .types import DieReading

STRIDE = 4
TRAINED_DIE_PX = 40.0  # the middle of the die sizes the network saw in training
GOOD_DIE_PX = (26.0, 58.0)


def default_model() -> Path:
    return Path(str(resources.files("vision").joinpath("models/dice_d6.onnx")))


@dataclass(frozen=True)
class DiceConfig:
    threshold: float = 0.35
    """Minimum centre-heat for a die."""
    max_side: int = 1280
    """Frames are read at most this large (before the die-size rescale)."""
    palette: Palette = field(default_factory=Palette)


class DiceReader:
    """Holds the network (loaded once); `read` is otherwise a pure function of the frame."""

    def __init__(self, model: Path | None = None, config: DiceConfig | None = None) -> None:
        self.config = config or DiceConfig()
        self.net = cv2.dnn.readNetFromONNX(str(model or default_model()))

    def _maps(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        ph, pw = -h % 16, -w % 16
        if ph or pw:
            image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REFLECT101)
        self.net.setInput(cv2.dnn.blobFromImage(image))
        maps: np.ndarray = self.net.forward()[0]
        return maps[:, : (h + STRIDE - 1) // STRIDE, : (w + STRIDE - 1) // STRIDE]

    def _detect(self, image: np.ndarray, scale: float) -> list[tuple[float, float, float, int, float]]:
        """(x, y, size, value, confidence) in the coordinates of `image`, read at `scale`."""
        scaled = (
            image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        )
        maps = self._maps(scaled)
        heat = 1 / (1 + np.exp(-maps[0]))
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > self.config.threshold)
        logits = maps[1:7]
        found = []
        for y, x in zip(*np.nonzero(peaks)):
            y0, y1, x0, x1 = max(0, y - 1), y + 2, max(0, x - 1), x + 2
            patch = heat[y0:y1, x0:x1]
            ys, xs = np.mgrid[y0:y1, x0:x1]
            cy = float((patch * ys).sum() / patch.sum()) * STRIDE
            cx = float((patch * xs).sum() / patch.sum()) * STRIDE
            z = logits[:, y, x] - logits[:, y, x].max()
            probs = np.exp(z) / np.exp(z).sum()
            value = int(probs.argmax()) + 1
            size = float(np.exp(maps[7, y, x]) * 32)
            found.append((cx / scale, cy / scale, size / scale, value, float(heat[y, x] * probs.max())))
        # Two peaks on one die: keep the stronger.
        found.sort(key=lambda d: -d[4])
        kept: list[tuple[float, float, float, int, float]] = []
        for d in found:
            if all((d[0] - k[0]) ** 2 + (d[1] - k[1]) ** 2 > (0.5 * max(d[2], k[2])) ** 2 for k in kept):
                kept.append(d)
        return kept

    def read(self, frame: object, die_px: float | None = None) -> tuple[DieReading, ...]:
        """Every die in `frame`. `die_px`, when known (from the board pose), sets the scale;
        otherwise a first pass measures the dice and a second reads them at the right size."""
        image = as_bgr(frame)
        base = min(1.0, self.config.max_side / max(image.shape[:2]))
        if die_px:
            scale = TRAINED_DIE_PX / die_px
        else:
            scale = base
            first = self._detect(image, scale)
            if first:
                seen = float(np.median([d[2] for d in first])) * scale
                if not GOOD_DIE_PX[0] <= seen <= GOOD_DIE_PX[1]:
                    scale *= TRAINED_DIE_PX / seen
                else:
                    return self._readings(image, first)
            else:
                return ()
        return self._readings(image, self._detect(image, scale))

    def _readings(
        self, image: np.ndarray, found: list[tuple[float, float, float, int, float]]
    ) -> tuple[DieReading, ...]:
        return tuple(
            DieReading(
                kind="d6",
                value=value,
                center=(round(x, 1), round(y, 1)),
                size=round(size, 1),
                confidence=round(conf, 3),
                color=name_colour(image, (x, y), size, self.config.palette),
            )
            for x, y, size, value, conf in found
        )
