"""A second renderer for tests, unlike vision/render.py: the board is a textured plane with
printed shapes, photographed by a pinhole camera (focal length from the field of view, a real
3-D pose: height, tilt, turn), then focus blur, motion blur along a random direction, noise
and JPEG. vision/render.py warps a top-down drawing by a 2-D homography; tuning on one and
testing on the other keeps either's quirks from being learned."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board import DICTIONARY
from vision.profiles import Profile

PLANE_PX_PER_MM = 4.0
MARGIN_MM = 200.0


@dataclass(frozen=True)
class Shot:
    height_mm: float = 1000.0
    tilt_deg: float = 0.0
    turn_deg: float = 0.0
    hfov_deg: float = 62.2
    """The Pi Camera Module 2's horizontal field of view."""
    focus_blur: float = 0.0
    motion_px: float = 0.0
    noise: float = 3.0
    jpeg: int = 85
    size: tuple[int, int] = (1280, 960)


def focal_px(shot: Shot) -> float:
    return shot.size[0] / 2 / np.tan(np.radians(shot.hfov_deg / 2))


def height_for(cell_px: float, profile: Profile, shot: Shot) -> float:
    """The camera height at which a marker cell (a sixth of the marker) is `cell_px` wide."""
    return focal_px(shot) * profile.marker_size / 6 / cell_px


def plane(profile: Profile, rng: np.random.Generator, spacing: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The table and board as a flat picture, the markers `spacing` times as far from the
    board's centre as the profile says; and the matrix plane px -> board mm."""
    s = PLANE_PX_PER_MM
    w, h = profile.size
    x0, y0 = -MARGIN_MM - profile.marker_size * 2, -MARGIN_MM - profile.marker_size * 2
    width, height = int((w - 2 * x0) * s), int((h - 2 * y0) * s)
    grain = rng.normal(0, 25, (height // 8, width // 8, 1)).astype(np.float32)
    image = rng.uniform(70, 190) + cv2.resize(grain, (width, height))[..., None] * np.ones(3, np.float32)
    for _ in range(60):  # the board's printed art
        colour = tuple(float(v) for v in rng.integers(0, 255, 3))
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        cv2.circle(image, centre, int(rng.uniform(5, 40) * s), colour, -1)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side, quiet = int(profile.marker_size * s), int(8 * s)
    middle = np.array(profile.size) / 2
    for marker_id, at in profile.markers:
        mx, my = middle + (np.array(at) - middle) * spacing
        cx, cy = int((mx - x0) * s), int((my - y0) * s)
        image[
            cy - side // 2 - quiet : cy + side // 2 + quiet, cx - side // 2 - quiet : cx + side // 2 + quiet
        ] = 240
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side).astype(np.float32)
        image[cy - side // 2 : cy - side // 2 + side, cx - side // 2 : cx - side // 2 + side] = marker[
            ..., None
        ]
    to_mm = np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
    return np.clip(image, 0, 255).astype(np.uint8), to_mm


def photograph(
    picture: np.ndarray, to_mm: np.ndarray, shot: Shot, aim_mm: tuple[float, float], rng: np.random.Generator
) -> np.ndarray:
    """The plane seen by a pinhole camera `shot.height_mm` above it, looking at `aim_mm`,
    tilted and turned (world: x east, y south, z into the table)."""
    w, h = shot.size
    f = focal_px(shot)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t, a = -np.radians(shot.tilt_deg), np.radians(shot.turn_deg)
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    r = tilt @ turn
    position = np.array([*aim_mm, 0.0]) - shot.height_mm / np.cos(t) * (r.T @ np.array([0, 0, 1.0]))
    homography = k @ np.column_stack([r[:, 0], r[:, 1], -r @ position]) @ to_mm
    image = cv2.warpPerspective(
        picture, homography, (w, h), flags=cv2.INTER_AREA, borderValue=(90, 100, 110)
    ).astype(np.float32)
    if shot.focus_blur:
        image = cv2.GaussianBlur(image, (0, 0), shot.focus_blur)
    if shot.motion_px:
        reach = int(np.ceil(shot.motion_px))
        kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.float32)
        angle = rng.uniform(0, np.pi)
        for step in np.linspace(-shot.motion_px / 2, shot.motion_px / 2, 4 * reach + 1):
            kernel[int(round(reach + step * np.sin(angle))), int(round(reach + step * np.cos(angle)))] += 1
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    image += rng.normal(0, shot.noise, image.shape)
    ok, data = cv2.imencode(
        ".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg]
    )
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
