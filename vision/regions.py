"""The board straightened to a top-down view once per frame; regions are slices of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import CameraPlace
from .profiles import Profile, Region
from .types import BoardPose


@dataclass(frozen=True)
class Straightening:
    """Where each pixel of the top-down view comes from in the frame, for one board pose."""

    map1: np.ndarray
    map2: np.ndarray
    origin_mm: tuple[float, float]
    px_per_mm: float

    @classmethod
    def of(
        cls,
        pose: BoardPose,
        regions: Sequence[Region],
        px_per_mm: float,
        margin_mm: float = 6.0,
        place: CameraPlace | None = None,
    ) -> Straightening:
        """The part of the board holding `regions` (their bounding box), at `px_per_mm`; at
        their height above the board (they must share it) when the camera's `place` is known."""
        xs, ys = zip(*(p for r in regions for p in r.polygon))
        x0, y0 = min(xs) - margin_mm, min(ys) - margin_mm
        w, h = max(xs) + margin_mm - x0, max(ys) + margin_mm - y0
        s = px_per_mm
        cols, rows = int(round(w * s)), int(round(h * s))
        grid = np.mgrid[0:rows, 0:cols].astype(np.float32)
        board = np.stack([grid[1] / s + x0, grid[0] / s + y0], axis=-1).reshape(-1, 2)
        height = regions[0].height
        if height and place is not None:  # where the camera sees those points, raised
            board = place.lift(board, height)
        points = board.reshape(-1, 1, 2).astype(np.float32)
        frame_xy = cv2.perspectiveTransform(points, np.array(pose.homography, np.float64).reshape(3, 3))
        frame_xy = frame_xy.reshape(rows, cols, 2)
        map1, map2 = cv2.convertMaps(frame_xy[..., 0].copy(), frame_xy[..., 1].copy(), cv2.CV_16SC2)
        return cls(map1, map2, (x0, y0), s)


@dataclass(frozen=True)
class TopDown:
    """The part of the frame holding the profile's regions, seen from straight above."""

    image: np.ndarray
    origin_mm: tuple[float, float]
    px_per_mm: float

    @classmethod
    def of(cls, frame: np.ndarray, maps: Straightening, gains: np.ndarray) -> TopDown:
        """The straightened view, its colours multiplied by `gains` (from `white_gains`).
        `maps` (kept while the pose is unchanged) saves recomputing where each pixel comes
        from: a remap is about a third faster than a warp."""
        image = cv2.remap(frame, maps.map1, maps.map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        image = cv2.multiply(image, np.array([*gains, 0.0]), dtype=cv2.CV_8U)  # saturates at 255
        return cls(image, maps.origin_mm, maps.px_per_mm)

    def lab(self, rows: slice, cols: slice) -> np.ndarray:
        """Part of the view in Lab (float), converted only where a reader looks."""
        return cv2.cvtColor(self.image[rows, cols], cv2.COLOR_BGR2LAB).astype(np.float32)

    def scaled(self, factor: float) -> TopDown:
        """The same view at `factor` times the resolution, each pixel the average of those it
        covers (sampling a frame straight at a coarse scale would alias edges and shadows)."""
        image = cv2.resize(self.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        return TopDown(image, self.origin_mm, self.px_per_mm * factor)

    def window(self, region: Region, margin_mm: float = 0.0) -> tuple[slice, slice, tuple[float, float]]:
        """Row and column slices of the region's bounding box, and its top-left corner in mm."""
        xs, ys = zip(*region.polygon)
        s, (ox, oy) = self.px_per_mm, self.origin_mm
        c0 = max(0, int((min(xs) - margin_mm - ox) * s))
        r0 = max(0, int((min(ys) - margin_mm - oy) * s))
        c1 = min(self.image.shape[1], int(np.ceil((max(xs) + margin_mm - ox) * s)))
        r1 = min(self.image.shape[0], int(np.ceil((max(ys) + margin_mm - oy) * s)))
        return slice(r0, r1), slice(c0, c1), (ox + c0 / s, oy + r0 / s)

    def to_mm(self, x_px: float, y_px: float) -> tuple[float, float]:
        return (self.origin_mm[0] + x_px / self.px_per_mm, self.origin_mm[1] + y_px / self.px_per_mm)


PAPER_WHITE = 235.0
QUIET_MM = 3.0
"""The marker sheet's white border is sampled this far outside each marker (the sheet keeps 8 mm)."""


def paper_points(pose: BoardPose, profile: Profile) -> np.ndarray:
    """Where the marker sheet's white border lies in the frame, around each marker seen (whole
    pixels, n x 2): fixed while the pose is, so worked out once per pose, not per frame."""
    h = np.array(pose.homography, np.float64).reshape(3, 3)
    rings = []
    for marker_id, (x, y) in profile.markers:
        if marker_id not in pose.markers:
            continue
        r = profile.marker_size / 2 + QUIET_MM
        t = np.linspace(-r, r, 24)
        rings += [
            np.stack([x + t, np.full_like(t, y - r)], 1),
            np.stack([x + t, np.full_like(t, y + r)], 1),
            np.stack([np.full_like(t, x - r), y + t], 1),
            np.stack([np.full_like(t, x + r), y + t], 1),
        ]
    if not rings:
        return np.empty((0, 2), np.intp)
    ring = np.concatenate(rings).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(ring, h).reshape(-1, 2).round().astype(np.intp)


def white_gains(frame: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the markers' white paper (`paper_points`) white: the light's
    colour and brightness taken out, so a pink piece reads pink under warm or dim light."""
    ok = (
        (paper[:, 0] >= 0)
        & (paper[:, 1] >= 0)
        & (paper[:, 0] < frame.shape[1])
        & (paper[:, 1] < frame.shape[0])
    )
    if not ok.any():
        return np.ones(3, np.float32)
    white = np.median(frame[paper[ok, 1], paper[ok, 0]], axis=0).astype(np.float32)
    if white.min() < 20:
        return np.ones(3, np.float32)
    gains: np.ndarray = np.clip(PAPER_WHITE / white, 0.5, 4.0).astype(np.float32)
    return gains


def local_background(
    lab_image: np.ndarray, px_per_mm: float, span_mm: float = 50.0, inside: np.ndarray | None = None
) -> np.ndarray:
    """The bare surface's colour around every pixel: a median over `span_mm`, wider than any
    piece, so pieces vanish and uneven light and shadow stay. `inside` (1 where the surface
    is): only it counts, each place outside taking the colour of the nearest place inside, so
    that what lies beyond the surface (a board's dark edge, the table) does not pull the median
    of the places near it."""
    step = max(1, int(round(4 * px_per_mm)))  # one cell = 4 mm
    small = cv2.resize(lab_image, None, fx=1 / step, fy=1 / step, interpolation=cv2.INTER_AREA)
    if inside is not None:
        cells = cv2.resize(
            inside.astype(np.float32), (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA
        )
        outside = (cells < 1.0 - 1e-3).astype(np.uint8)  # a cell wholly inside is the surface alone
        if outside.any() and not outside.all():
            _, nearest = cv2.distanceTransformWithLabels(
                outside, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL
            )
            rows, cols = np.nonzero(outside == 0)
            by_label = np.zeros((int(nearest.max()) + 1, 2), np.intp)
            by_label[nearest[rows, cols]] = np.column_stack([rows, cols])
            where = by_label[nearest]
            small = small[where[..., 0], where[..., 1]]
    k = int(span_mm / 4) | 1
    small8 = np.clip(small, 0, 255).astype(np.uint8)
    blurred = np.dstack([cv2.medianBlur(np.ascontiguousarray(small8[..., c]), k) for c in range(3)])
    return cv2.resize(
        blurred, (lab_image.shape[1], lab_image.shape[0]), interpolation=cv2.INTER_LINEAR
    ).astype(np.float32)


def foreground(
    image_lab: np.ndarray, background: np.ndarray, threshold: float = 22.0, open_px: int = 5
) -> np.ndarray:
    """Pixels clearly unlike the background colour, thin lines (grid, shadows' edges) removed."""
    if background.ndim == 1:  # one colour for the whole image
        difference = cv2.subtract(image_lab, np.array([*background, 0.0]))
    else:
        difference = cv2.subtract(image_lab, background)
    distance2 = cv2.transform(cv2.multiply(difference, difference), np.ones((1, 3), np.float32))
    mask = (distance2 > threshold**2).astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (open_px, open_px))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
