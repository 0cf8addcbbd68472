"""A linear render developed as a camera would: shared by the path-traced test tables
(tests/make_blender_tables.py) and the path-traced dice the networks learn from
(vision/training/path_traced_dice.py)."""

from __future__ import annotations

import cv2
import numpy as np


def developed(linear: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A linear render (BGR float) as a camera gives it: its automatic white balance (the frame's
    mean made grey, as most of the way as a camera's grey-world estimate goes: 50-100%), auto
    exposure (the 98th percentile of brightness at 0.85-0.97), the sRGB curve, noise that grows
    with the light (shot noise) and a floor (read noise), and JPEG at quality 70-92."""
    light = np.clip(linear.astype(np.float32), 0, None)
    mean = light.reshape(-1, 3).mean(axis=0)
    light *= (mean.mean() / np.maximum(mean, 1e-6)) ** rng.uniform(0.5, 1.0)
    bright = float(np.percentile(light.max(axis=2), 98))
    light *= rng.uniform(0.85, 0.97) / max(bright, 1e-6)
    light = np.clip(
        light + rng.normal(0, 1, light.shape) * np.sqrt(light * rng.uniform(2e-4, 1e-3) + 1e-5), 0, 1
    )
    srgb = np.where(light <= 0.0031308, 12.92 * light, 1.055 * np.power(light, 1 / 2.4) - 0.055)
    image = np.clip(srgb * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 93))])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
