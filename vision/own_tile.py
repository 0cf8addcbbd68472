"""A piece standing on a tile of its own colour (a blue priest on a blue resource tile).

Colour cannot part them: the piece and the tile are one blob of one colour. Their shapes can.
A tile is a square of known side; a standing piece's top is seen shifted away from the point
under the camera, by its height's share of the camera's (vision/camera.py), so a piece on a
tile often shows beyond the tile's square, and what shows beyond it is the part of the piece's
silhouette (its foot, its top and the wall between) that the square does not cover. So: the
tile is the square of its side that the blob (its holes filled: a printed emblem is the tile's)
covers whole and whose sides run along the blob's outline; what is left beyond it, when more
than a sliver of blur, is a piece, the kind whose silhouette, its foot on the tile, shows
beyond the square most as this does. A piece seen wholly inside its tile's square is not
claimed: at the frames' scale its shaded wall is a pixel or two wide, no better told from a
printed emblem's edge than guessed (docs/decisions.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import CameraPlace

COVERED = 0.97
"""The tile's square, a pixel in from its edges (the blur), is this much inside the blob."""
MIN_BEYOND = 0.6
"""What shows beyond the square is at least this share of the smallest kind's top: less is a
tile's blurred or shaded edge, or a cap as much a priest's barely leaning out as a cultist's
beside the edge (not claimed: a wrong kind misleads more than a miss)."""
THICK_PX = 2.0
"""...and it is this thick somewhere (px, from its edge inwards): the edge of a tile whose
square is found a little off is a band a pixel or two thick along a side."""
MIN_OVERLAP = 0.6
"""What shows beyond the square and the best kind's silhouette there overlap by this share of
their union at least (a leaning 20 mm priest is no 12 mm cultist, nor a blob of shade either)."""
COARSE_DEG = 9.0
"""The square's turn is sought by these steps, then by a third of one round the best."""


@dataclass(frozen=True)
class OnOwnTile:
    """A piece found on a tile of its colour: its kind, where its foot is (x, y px, as the pixels
    it was given) and how well its silhouette fits what shows beyond the tile (intersection over
    union)."""

    kind: str
    foot: tuple[float, float]
    overlap: float


def filled(rows: np.ndarray, cols: np.ndarray, margin: int) -> tuple[np.ndarray, int, int]:
    """The pixels in a box round them with `margin` px to spare, their holes filled (a tile's
    emblem, a glint), and the box's first row and column."""
    r0, c0 = int(rows.min()) - margin, int(cols.min()) - margin
    box = np.zeros((int(rows.max()) - r0 + margin + 1, int(cols.max()) - c0 + margin + 1), np.uint8)
    box[rows - r0, cols - c0] = 1
    outline, _ = cv2.findContours(box, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(box, outline, -1, 1, -1)
    return box, r0, c0


def square_kernel(side_px: float, turn_deg: float) -> np.ndarray:
    """A square of this side turned this much, filled (1) on the smallest odd canvas round it (its
    pixels' centres `side_px` - 1 apart edge to edge: a filled polygon takes in its outline's
    pixels too)."""
    half = (side_px - 1) / 2
    a = math.radians(turn_deg)
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    turned = corners @ np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    reach = int(math.ceil(np.abs(turned).max())) + 1
    kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.uint8)
    cv2.fillConvexPoly(kernel, np.round((turned + reach) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    return kernel


def square_fit(
    blob: np.ndarray, edge: np.ndarray, side_px: float, turn: float
) -> tuple[float, tuple[int, int]]:
    """For a square of this side turned this much: how far its sides run along the blob's
    outline (`edge`) where the blob covers it whole, a pixel in from its edges (-1 where it
    covers it nowhere), and where (row, column of its centre)."""
    inner = square_kernel(side_px - 2, turn).astype(np.float32)
    share = cv2.filter2D(blob, -1, inner / inner.sum(), borderType=cv2.BORDER_CONSTANT)
    outer = square_kernel(side_px + 1, turn).astype(np.float32)
    pad = (outer.shape[0] - inner.shape[0]) // 2
    outer[pad : pad + inner.shape[0], pad : pad + inner.shape[1]] -= inner
    along = cv2.filter2D(edge, -1, outer, borderType=cv2.BORDER_CONSTANT)
    along[share < COVERED] = -1
    at = np.unravel_index(int(along.argmax()), along.shape)
    return float(along[at]), (int(at[0]), int(at[1]))


def tile_square(blob: np.ndarray, side_px: float) -> np.ndarray | None:
    """Where a tile of this side lies in the blob, as a mask of its square, or None: a square
    the blob covers whole (a pixel in from its edges), the one whose sides run along the blob's
    outline the most (a tile shows its straight edges where no piece hides them; a square slid
    into a piece on it shows none). Turned by coarse steps, then finer round the best."""
    edge = (blob - cv2.erode(blob, np.ones((3, 3), np.uint8))).astype(np.float32)
    whole = blob.astype(np.float32)
    fits = {float(t): square_fit(whole, edge, side_px, float(t)) for t in np.arange(0.0, 90.0, COARSE_DEG)}
    first = max(fits, key=lambda t: fits[t][0])
    for t in (first - COARSE_DEG / 3, first + COARSE_DEG / 3):
        fits[t % 90.0] = square_fit(whole, edge, side_px, t % 90.0)
    turn = max(fits, key=lambda t: fits[t][0])
    along, (row, col) = fits[turn]
    if along < 0:
        return None
    kernel = square_kernel(side_px, turn)
    reach = kernel.shape[0] // 2
    square = np.zeros((blob.shape[0] + 2 * reach, blob.shape[1] + 2 * reach), np.uint8)
    square[row : row + 2 * reach + 1, col : col + 2 * reach + 1] = kernel
    return square[reach:-reach, reach:-reach]


def silhouette(
    base_px: float, top_px: float, lean: tuple[float, float]
) -> tuple[np.ndarray, tuple[int, int]]:
    """A standing round piece seen from above (its foot, its top `lean` px further and the wall
    between them: their hull), filled (1) on a canvas round it, and where its foot is in it (x,
    y)."""
    reach = max(top_px, base_px) / 2 + 1
    x0, y0 = min(0.0, lean[0]) - reach, min(0.0, lean[1]) - reach
    w = int(math.ceil(max(0.0, lean[0]) + reach - x0)) + 1
    h = int(math.ceil(max(0.0, lean[1]) + reach - y0)) + 1
    foot = np.array([-x0, -y0])
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    ring = np.column_stack([np.cos(angles), np.sin(angles)])
    points = np.concatenate(
        [foot + ring * (base_px - 1) / 2, foot + np.array(lean) + ring * (top_px - 1) / 2]
    )
    canvas = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(canvas, cv2.convexHull(np.round(points * 16).astype(np.int32)), 1, cv2.LINE_8, 4)
    return canvas, (int(round(foot[0])), int(round(foot[1])))


def piece_on_own_tile(
    rows: np.ndarray,
    cols: np.ndarray,
    side_px: float,
    kinds: dict[str, tuple[float, float]],
    lift_mm: float,
    centre_mm: tuple[float, float],
    place: CameraPlace | None,
    s: float,
) -> OnOwnTile | None:
    """The piece of one of `kinds` (width, height mm) standing on a tile `side_px` square and
    `lift_mm` thick among these pixels of one colour (a part of a blob), when it shows beyond
    the tile's square: the kind whose silhouette where it stands (its foot on the tile) shows
    beyond the square as these pixels do, or None."""
    if not rows.size:
        return None
    scale = place.scale if place is not None else (lambda _h: 1.0)
    tops = {n: w * scale(lift_mm + h) * s / 2 for n, (w, h) in kinds.items()}
    least = MIN_BEYOND * math.pi * min(tops.values()) ** 2
    if rows.size < side_px**2 + least:
        return None  # a tile alone, or one a piece hides (colour cannot tell them apart)
    (_, sides, _) = cv2.minAreaRect(np.column_stack([cols, rows]).astype(np.float32))
    if max(sides) < side_px + 2 * THICK_PX:
        return None  # a tile alone, its edges blurred
    blob, r0, c0 = filled(rows, cols, 2)
    square = tile_square(blob, side_px)
    if square is None:
        return None
    clear = cv2.dilate(square, np.ones((3, 3), np.uint8))
    beyond = cv2.morphologyEx(blob & (1 - clear), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if beyond.sum() < least or cv2.distanceTransform(beyond, cv2.DIST_L2, 3).max() < THICK_PX:
        return None
    # The kind whose silhouette, where it fits best, shows beyond the square as all that shows
    # does (one piece: what shows on two sides of a square found a little off is not a piece's).
    best: OnOwnTile | None = None
    seen, outside = beyond.astype(np.float32), clear.astype(np.float32)
    for kind, (width, height) in kinds.items():
        lean = np.zeros(2)
        if place is not None:
            foot_mm = np.array([centre_mm])
            lean = (place.lift(foot_mm, lift_mm + height) - place.lift(foot_mm, lift_mm))[0] * s
        base_px = width * scale(lift_mm) * s
        shape, anchor = silhouette(base_px, 2 * tops[kind], (float(lean[0]), float(lean[1])))
        kernel = shape.astype(np.float32)
        both = cv2.filter2D(seen, -1, kernel, anchor=anchor, borderType=cv2.BORDER_CONSTANT)
        hidden = cv2.filter2D(outside, -1, kernel, anchor=anchor, borderType=cv2.BORDER_CONSTANT)
        shows = kernel.sum() - hidden  # the silhouette's pixels beyond the square
        overlap = both / np.maximum(shows + seen.sum() - both, 1.0)
        overlap[square == 0] = 0.0  # it stands on the tile: its foot is on it
        at = np.unravel_index(int(overlap.argmax()), overlap.shape)
        if best is None or overlap[at] > best.overlap:
            foot = (float(at[1] + c0), float(at[0] + r0))
            best = OnOwnTile(kind, foot, float(overlap[at]))
    return best if best is not None and best.overlap >= MIN_OVERLAP else None
