"""Tower-of-Hanoi disc stacks seen from above: which sizes are there, and whose colour.

A stack shows as concentric rings: the largest disc's rim outside, each smaller
disc above it inside. Because discs are always larger under smaller, the sizes
present say the whole stack. Discs have thickness: the camera sees each level's top shifted
away from the point under it by a step its place gives (vision/camera.py), and each disc's
side wall on the side towards that point. So each rim is looked for where that step puts it,
and judged against the face beyond its wall; the stack's shadow (the board in less light) is
not part of its outline. A side's stacks are one player's (Am'harb, "Tower Phase" rule 2): their
colour is named side by side, each side a player's colour of its own (`sides_colours`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import CameraPlace
from .colours import Palette, nearest, shade_free
from .profiles import Profile, Region
from .regions import TopDown, foreground
from .types import DiscStack

STACK_PX_PER_MM = 2.0
"""Stacks are read at 2 px/mm: discs differ by 8 mm = 16 px across."""
STACK_MARGIN_MM = 6.0
"""Each stack location is straightened with this much board round it."""
STRIP_MM = 8.0
"""Strips narrower than this are taken away from a blob that is not round."""
MIN_ROUNDNESS = 0.5
"""Discs seen from above fill most of the circle round them (one disc all of it, a stack
shifted by parallax most of it); a blob filling less is something else."""
RING_SAMPLES = 72
SIDE_PX = 5.0
"""The rim line is compared with the faces this far inside and outside it."""
OUTLINE_SLACK_MM = 4.0
"""How much larger than its bottom disc a stack's outline may look (shadow, side walls, blur)."""
OUTLINE_EXCESS_MM = 2.5
"""How much wider than its bottom disc a stack's outline typically looks."""
MAX_SHIFT_MM = 3.0
"""How far one disc's centre may sit from the one below it (parallax and careless stacking)."""
SHADE_SHARE = 0.03
"""A pixel darker than the board whose channels' shares of their sum are this close to the
board's is the board in shade (a pink disc's side wall differs by 0.07)."""
MODEL_SLACK_MM = 2.0
"""How far a disc may sit from where the camera's place puts its rim (careless stacking, and
the pose's error)."""
RING_SCORE = 0.8
"""A ring is there when its line is this much darker (Lab lightness) than the faces beside it
(30th percentile round the circle)."""
WEAK_RIM = 3.0
"""A rim scoring under this is weak: the next smaller disc is tried in its place too (true
rims score 5-30; the rim of a disc one size larger than the one there, where its side wall and
the face round it meet, 1-2)."""


EDGE_WEIGHT = 4.0
"""A bottom disc's edge (the 30th percentile round its circle of the step from inside the
stack to outside it: 0-1) counts as a rim score this many times larger: a whole edge as a
strong rim (over WEAK_RIM), a circle 70% of whose points barely cross it as a weak one.
Measured from 2 to 8 with the same result."""

EDGE_PASS = 0.5
"""A circle is the stack's edge when 70% of its points cross it (the 30th percentile of the
steps across the blurred outline, 0-1, at least this)."""
GAP_PX = 5
"""Gaps this narrow (px) between parts of a stack's outline are closed."""
CRACK_PX = 7
"""Gaps in the stack's shade-free outline narrower than this (px) are closed: a disc's dark rim
line taken for shade, not the shade round the stack."""
EDGE_BLUR_PX = 1.5
"""The stack's outline is blurred by this (Gaussian sigma, px) before its edge is looked for."""
EDGE_IN_PX = 3.0
"""The face is sampled this far inside a disc's edge: past its rounded rim, and far enough
from the next larger size's edge (8 px further out) that a ring one size too large finds the
board on both sides."""

RIM_QUANTILE = 0.3
RIM_QUANTILE_INDEX = round(RIM_QUANTILE * RING_SAMPLES)
"""Most of the rim must show: its score is the 30th percentile round the circle."""
SHARED_RIM_PX = SIDE_PX
"""A rim point this close to the rim of the disc below runs along it (its side samples would
land on that rim)."""
MIN_JUDGED = 0.5
"""At least half of a rim must run apart from the rim below to be judged at all."""

ANGLES = np.linspace(0, 2 * np.pi, RING_SAMPLES, endpoint=False)
DIRECTIONS = np.stack([np.cos(ANGLES), np.sin(ANGLES)], axis=1)


@functools.lru_cache(maxsize=256)
def _ring_offsets(radius: float, width: int, wall: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Where a ring's samples lie relative to its centre in a flattened image `width` wide:
    (5 circles: on the rim -1.5/0/+1.5 px, inside and outside, RING_SAMPLES angles). The
    outside circle is pushed beyond the disc's own side wall where the camera sees it (`wall`:
    the shift in px from the disc's foot to its top, away from the point under the camera; the
    wall shows on the other side, towards that point, as wide as the shift), so that the rim
    is compared with the face beyond the wall, not with the wall. The same few
    radii and walls come back for every stack, so they are worked out once."""
    beyond = np.maximum(0.0, -(DIRECTIONS @ np.array(wall)))
    radii = np.array([radius - 1.5, radius, radius + 1.5, radius - SIDE_PX, radius + SIDE_PX])
    circles = radii[:, None] + np.vstack([np.zeros((4, RING_SAMPLES)), beyond[None]])
    offsets = np.floor(circles[..., None] * DIRECTIONS[None]).astype(np.intp)  # (radii, angles, xy)
    flat: np.ndarray = (offsets[..., 1] * width + offsets[..., 0]).ravel()
    return flat


def _ring_scores(
    light: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    radius: float,
    below: tuple[np.ndarray, float] | None = None,
    wall: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """How clearly a disc's rim runs round each candidate centre (whole pixels `xs`, `ys`) at
    `radius`: the rim is a dark line (the edge and the side of the disc above) between lighter
    faces inside and outside. The 30th percentile round the circle: most of it must show the
    line, so an arc that merely touches another rim does not count. Above a disc `below`
    (centre, radius), the face outside the rim is the ring of that disc's face left uncovered, as
    narrow as 3 px where the upper disc leans towards its edge, with the lower rim's dark line at
    its far side: it is sampled half way across that ring (beyond the upper disc's wall), never
    on the lower rim. Where the circle runs along the lower rim (a disc pushed to the edge of
    the one under it), that rim's own darkness says nothing, so only the rest of the circle is
    judged."""
    w = light.shape[1]
    flat = (ys * w + xs)[:, None] + _ring_offsets(radius, w, wall)[None, :]
    samples = light.ravel()[flat].reshape(len(xs), 5, RING_SAMPLES)
    if below is not None:
        # Outside an upper disc lies the face of the disc below, a ring as narrow as 3-8 px whose
        # own rim is dark: the face is sampled half way across it, not SIDE_PX out.
        beyond = np.maximum(0.0, -(DIRECTIONS @ np.array(wall)))
        rim_x = xs[:, None] + radius * DIRECTIONS[None, :, 0]
        rim_y = ys[:, None] + radius * DIRECTIONS[None, :, 1]
        room = below[1] - np.hypot(rim_x - below[0][0], rim_y - below[0][1]) - beyond[None]
        out = radius + beyond[None] + np.clip(room / 2, 1.5, SIDE_PX)
        ox = np.floor(xs[:, None] + out * DIRECTIONS[None, :, 0]).astype(np.intp)
        oy = np.floor(ys[:, None] + out * DIRECTIONS[None, :, 1]).astype(np.intp)
        samples[:, 4] = light[oy, ox]
    on = np.minimum(np.minimum(samples[:, 0], samples[:, 1]), samples[:, 2])
    contrast = np.minimum(samples[:, 3], samples[:, 4]) - on
    scores = np.partition(contrast, RIM_QUANTILE_INDEX, axis=1)[:, RIM_QUANTILE_INDEX]
    if below is None:
        return scores
    # Circles that come within SHARED_RIM_PX of the rim below: their points on it are left out.
    dx, dy = xs - below[0][0], ys - below[0][1]
    near = np.flatnonzero(np.hypot(dx, dy) + radius >= below[1] - SHARED_RIM_PX)
    if near.size:
        from_below = np.hypot(
            dx[near, None] + radius * DIRECTIONS[:, 0], dy[near, None] + radius * DIRECTIONS[:, 1]
        )
        shared = np.abs(from_below - below[1]) < SHARED_RIM_PX
        kept = RING_SAMPLES - shared.sum(axis=1)
        index = np.floor(RIM_QUANTILE * np.maximum(kept, 1)).astype(np.intp)
        judged = np.sort(np.where(shared, np.inf, contrast[near]), axis=1)
        scores[near] = np.where(
            kept >= MIN_JUDGED * RING_SAMPLES,
            np.take_along_axis(judged, index[:, None], axis=1)[:, 0],
            -np.inf,
        )
    return scores


def _edge_scores(
    solid: np.ndarray, xs: np.ndarray, ys: np.ndarray, radius: float, wall: tuple[float, float]
) -> np.ndarray:
    """How clearly a disc standing on the board ends at `radius` round each candidate centre,
    on the stack's outline (`solid`: 1 in, 0 out, blurred): inside it just within the circle,
    outside it beyond the disc's side wall (a light disc on a dark board has no dark line round
    it, only this step). The 30th percentile round the circle, as for rims."""
    w = solid.shape[1]
    flat = (ys * w + xs)[:, None] + _edge_offsets(radius, w, wall)[None, :]
    samples = solid.ravel()[flat].reshape(len(xs), 2, RING_SAMPLES)
    step = np.abs(samples[:, 0] - samples[:, 1])
    return np.partition(step, RIM_QUANTILE_INDEX, axis=1)[:, RIM_QUANTILE_INDEX]


@functools.lru_cache(maxsize=256)
def _edge_offsets(radius: float, width: int, wall: tuple[float, float]) -> np.ndarray:
    """Two circles: just inside a disc's edge (its face, not its rounded rim), and beyond its
    side wall on the board."""
    beyond = np.maximum(0.0, -(DIRECTIONS @ np.array(wall)))
    circles = np.vstack([np.full(RING_SAMPLES, radius - EDGE_IN_PX), radius + SIDE_PX + beyond])
    offsets = np.floor(circles[..., None] * DIRECTIONS[None]).astype(np.intp)
    flat: np.ndarray = (offsets[..., 1] * width + offsets[..., 0]).ravel()
    return flat


@functools.lru_cache(maxsize=64)
def _steps(shift_px: float, grid_px: float) -> tuple[np.ndarray, np.ndarray]:
    """The grid's offsets in x and y, every pair once (the same few grids come back for every
    stack)."""
    steps = np.arange(-shift_px, shift_px + 0.1, grid_px).round().astype(np.intp)
    return np.tile(steps, steps.size), np.repeat(steps, steps.size)


def _grid(
    shape: tuple[int, ...], around: tuple[float, float], shift_px: float, grid_px: float, reach: int
) -> tuple[np.ndarray, np.ndarray]:
    """The candidate centres within `shift_px` of `around`, on a `grid_px` grid, kept `reach`
    px inside the (padded) image."""
    dx, dy = _steps(round(shift_px, 2), grid_px)
    h, w = shape[:2]
    columns = np.clip(int(round(around[0])) + dx, reach, w - 1 - reach)
    rows = np.clip(int(round(around[1])) + dy, reach, h - 1 - reach)
    return columns, rows


def _best_ring(
    light: np.ndarray,
    around: tuple[float, float],
    radius: float,
    shift_px: float,
    grid_px: float = 2.0,
    below: tuple[np.ndarray, float] | None = None,
    wall: tuple[float, float] = (0.0, 0.0),
    solid: np.ndarray | None = None,
) -> tuple[float, tuple[float, float]]:
    """The best-scoring centre within `shift_px` of `around`, on a `grid_px` grid. `light` is
    padded so that every ring searched lies inside it (centres are kept far enough in).
    `solid`: where the stack is (1) and is not (0), padded as `light`: a disc on the board is
    also found where its circle is the stack's edge (EDGE_WEIGHT)."""
    reach = int(np.ceil(radius + SIDE_PX + np.hypot(*wall))) + 1
    xs, ys = _grid(light.shape, around, shift_px, grid_px, reach)
    scores = _ring_scores(light, xs, ys, radius, below, wall)
    if solid is not None:
        scores = np.maximum(scores, EDGE_WEIGHT * _edge_scores(solid, xs, ys, radius, wall))
    best = int(scores.argmax())
    return float(scores[best]), (float(xs[best]), float(ys[best]))


def _best_edge(
    solid: np.ndarray, around: tuple[float, float], radius: float, shift_px: float, wall: tuple[float, float]
) -> float:
    """How well the best circle of `radius` near `around` is the stack's edge (0-1)."""
    reach = int(np.ceil(radius + SIDE_PX + np.hypot(*wall))) + 1
    xs, ys = _grid(solid.shape, around, shift_px, 2.0, reach)
    return float(_edge_scores(solid, xs, ys, radius, wall).max())


def lit_faces(bgr: np.ndarray, light: np.ndarray, blob: np.ndarray) -> np.ndarray:
    """The stack's colour (BGR) from its lit top faces: the median of the brighter half of its
    pixels (side walls and shadow are darker)."""
    blob = blob[::3, ::3]  # every 9th pixel says the colour as well
    lightness = light[::3, ::3][blob]
    faces = bgr[::3, ::3][blob][lightness >= np.median(lightness)]
    median: np.ndarray = np.median(faces, axis=0)
    return median


def named(faces: np.ndarray, palette: Palette, colours: tuple[str, ...] | None) -> str:
    """A stack's colour (`lit_faces`) named by hue, so that a shadow over it does not change it."""
    names, choices = palette.features(colours)
    return names[int(nearest(shade_free(faces[None]), choices)[0])]


def side_of(region: str) -> str:
    """The side of the board a disc location is on (its name's first part: `seat2/area1`)."""
    return region.split("/")[0]


def sides_colours(
    outlines: Sequence[StackOutline], palette: Palette, players: tuple[str, ...] | None
) -> dict[str, str]:
    """Each side's discs' colour, by side (`side_of`). A player's discs stay in the locations on
    their own side (Am'harb, "Tower Phase", rule 2), and no two players share a colour: so each
    side's discs are named together (the median of their faces) and the sides take distinct
    players' colours, the assignment nearest in all (a pale blue stack under a warm lamp may be
    nearer pink by itself; the pink side's cream discs are nearer still). Without the players'
    colours, each stack is named by itself."""
    if players is None or not outlines:
        return {}
    seen: dict[str, list[np.ndarray]] = {}
    for outline in outlines:
        seen.setdefault(side_of(outline.region), []).append(outline.faces)
    names, choices = palette.features(players)
    sides = sorted(seen)
    if len(sides) > len(names):  # more sides with discs than players: something else is there
        return {}
    looks = shade_free(np.array([np.median(np.array(seen[side]), axis=0) for side in sides], np.float32))
    apart = ((looks[:, None] - choices[None]) ** 2).sum(axis=-1)
    best = min(
        itertools.permutations(range(len(names)), len(sides)),
        key=lambda chosen: sum(apart[i, c] for i, c in enumerate(chosen)),
    )
    return {side: names[c] for side, c in zip(sides, best, strict=True)}


def without_shade(bgr: np.ndarray, blob: np.ndarray) -> np.ndarray:
    """The blob without the board in the stack's shadow: less light on the board's own colour,
    so each channel's share of the sum stays the board's (a disc's side wall, dark as it is,
    keeps the disc's)."""
    around = bgr[::3, ::3][~blob[::3, ::3]]  # every 9th pixel says the board's colour as well
    if not len(around):
        return blob
    board = np.median(around, axis=0).astype(np.float32)
    rows, cols = np.nonzero(blob)
    # Channel by channel: numpy's reductions over a last axis of 3 are several times slower.
    b, g, r = (bgr[rows, cols, c].astype(np.float32) for c in range(3))
    total = b + g + r
    share = board / (board.sum() + 1.0)
    off = np.maximum(np.abs(b / (total + 1.0) - share[0]), np.abs(g / (total + 1.0) - share[1]))
    off = np.maximum(off, np.abs(r / (total + 1.0) - share[2]))
    shade = (total < board.sum()) & (off < SHADE_SHARE)
    kept = blob.copy()
    kept[rows[shade], cols[shade]] = False
    return kept


def solid_outline(shade_free: np.ndarray, pad: int) -> np.ndarray:
    """Where the stack is, for its edge (1 in, 0 out; padded by `pad`): the blob without its
    shadow, cracks closed (a disc's own dark rim line can pass for shade), and blurred, so that
    the circle that sits best on the edge scores best (a sharp mask gives the same score to
    every centre whose circle clears it)."""
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (CRACK_PX, CRACK_PX))
    mask = cv2.morphologyEx(shade_free.view(np.uint8), cv2.MORPH_CLOSE, closing)
    blurred = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), EDGE_BLUR_PX, borderType=cv2.BORDER_CONSTANT)
    solid: np.ndarray = cv2.copyMakeBorder(blurred, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    return solid


@dataclass(frozen=True)
class Blob:
    mask: np.ndarray
    area: float
    centre: tuple[float, float]
    radius: float
    """Of the smallest circle round it."""

    @property
    def round(self) -> bool:
        """Fills enough of the circle round it to be discs (MIN_ROUNDNESS)."""
        return self.area >= MIN_ROUNDNESS * np.pi * self.radius**2


def _largest_blob(mask: np.ndarray, min_area: float) -> Blob | None:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count <= 1 or stats[1:, cv2.CC_STAT_AREA].max() < min_area:
        return None
    label = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
    blob = labels == label
    contours, _ = cv2.findContours(blob.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    (cx, cy), radius = cv2.minEnclosingCircle(max(contours, key=cv2.contourArea))
    return Blob(blob, float(stats[label, cv2.CC_STAT_AREA]), (float(cx), float(cy)), float(radius))


@dataclass(frozen=True)
class StackOutline:
    """Where a stack stands in its disc location (`blob`, in the location's window `rows`,
    `cols` of the straightened view, whose Lab `pixels` it keeps) and its lit faces' colour."""

    region: str
    blob: Blob
    rows: slice
    cols: slice
    pixels: np.ndarray
    faces: np.ndarray


def stack_outline(top: TopDown, profile: Profile, region: Region) -> StackOutline | None:
    """The stack in one disc location, or None when the location is empty."""
    rows, cols, _ = top.window(region)
    pixels = top.lab(rows, cols)
    sample = pixels[::4, ::4].reshape(-1, 3)  # the board is most of the location
    background = np.partition(sample, len(sample) // 2, axis=0)[len(sample) // 2]
    mask = foreground(pixels, background)
    # A disc's rounded edge in half light can be as far from the board's colour as the board is
    # from itself: a thin gap between a disc's face and its side wall is closed, so that both are
    # one stack.
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (GAP_PX, GAP_PX))
    )
    s = top.px_per_mm
    smallest = np.pi * (profile.disc_mm[0] * s / 2) ** 2
    if cv2.countNonZero(mask) < 0.5 * smallest:  # an empty location: nothing disc-sized
        return None
    blob = _largest_blob(mask, 0.5 * smallest)
    if blob is not None and not blob.round:
        # Not round: a stack joined by a strip (the board's edge inside the location, a
        # card's, a shadow's rim), or the strip alone. Opening by a disc narrower than the
        # smallest disc takes strips away and leaves discs as they are.
        width = int(STRIP_MM * s) | 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
        blob = _largest_blob(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), 0.5 * smallest)
        if blob is not None and not blob.round:
            blob = None
    if blob is None:
        return None
    faces = lit_faces(top.image[rows, cols], pixels[:, :, 0], blob.mask)
    return StackOutline(region.name, blob, rows, cols, pixels, faces)


def read_stack(
    top: TopDown, profile: Profile, outline: StackOutline, colour: str, hued: bool, place: CameraPlace
) -> DiscStack:
    """The discs of the stack `outline` (`stack_outline`), of this colour, which `hued` when it
    has a hue of its own (`Palette.has_hue`). Each disc's rim is looked for where the camera at
    `place` sees a rim at that disc's height (the discs' thickness shifts each level away from
    the point under the camera by a known step), and judged against the face beyond its own
    side wall. A weak rim that the next smaller disc explains better is not a disc of its own."""
    rows, cols, pixels, blob = outline.rows, outline.cols, outline.pixels, outline.blob
    s = top.px_per_mm
    stack, (cx, cy) = blob.mask, blob.centre
    # Padded (edge pixels repeated) so that every ring searched near the window's edge fits.
    pad = int(np.ceil(profile.disc_mm[-1] / 2 * s + SIDE_PX + 4 * MAX_SHIFT_MM * s)) + 2
    light = cv2.copyMakeBorder(
        cv2.GaussianBlur(pixels[:, :, 0], (3, 3), 0), pad, pad, pad, pad, cv2.BORDER_REPLICATE
    )
    area = blob.area
    sizes = np.array(profile.disc_mm)
    shade_free = stack
    if hued:  # a grey or black stack's shade cannot be told from the board's
        shade_free = without_shade(top.image[rows, cols], stack)
        area = float(cv2.countNonZero(shade_free.view(np.uint8))) or area
    outline_mm = 2 * np.sqrt(area / np.pi) / s
    # Start from the centre of the circle round the whole stack, then find the bottom disc:
    # the largest rim that runs all the way round (shadow and side walls make the outline a
    # little larger than the disc, never a whole size).
    centre = (float(cx) + pad, float(cy) + pad)
    discs: list[int] = []
    found: list[np.ndarray] = []
    radii: list[float] = []
    confidence = 1.0
    skipped = 0
    thick = profile.disc_height_mm

    def to_mm(point: np.ndarray) -> np.ndarray:
        return np.array(top.to_mm(point[0] - pad + cols.start, point[1] - pad + rows.start))

    def level_shift(level: int) -> np.ndarray:
        """In px, from the rim of `level - 1` (the foot, for the first) to the rim of `level`."""
        ends = place.lift(np.array([foot, foot]), np.array([(level - 1) * thick, level * thick]))
        shift: np.ndarray = (ends[1] - ends[0]) * s
        return shift

    def look(size: int, level: int) -> tuple[float, tuple[float, float], float]:
        """The best rim of a disc of `size` as the `level`-th disc: its score, centre, radius."""
        step = level_shift(level)
        if found:  # one level up from the disc below, as the camera's place says
            around, shift, grid = found[-1] + step, MODEL_SLACK_MM * s, 1.0
        else:  # the bottom disc: round the middle of the stack's outline
            around, shift, grid = np.array(centre), MAX_SHIFT_MM * s * (skipped + 1), 2.0
        radius = sizes[size - 1] / 2 * s * place.scale(level * thick)
        below = (found[-1], radii[-1]) if found else None
        wall = (round(float(step[0]), 1), round(float(step[1]), 1))
        score, at = _best_ring(
            light,
            (float(around[0]), float(around[1])),
            radius,
            shift,
            grid,
            below,
            wall,
            solid if not found and size == bottom else None,
        )
        return score, at, radius

    # Where the stack stands (its foot): the outline's middle until the bottom rim is found.
    foot = to_mm(np.array(centre))
    # The outline is about as wide as the bottom disc (wider with its side wall, shadow and
    # blur, by up to a size). The bottom disc is the smallest size near that whose circle is
    # the stack's edge: a smaller circle has the stack outside it too, and nothing wider than
    # the bottom disc stands at the foot.
    bottom = int(np.abs(sizes - (outline_mm - OUTLINE_EXCESS_MM)).argmin()) + 1
    wall = level_shift(1)
    solid = solid_outline(shade_free, pad)
    edged = next(
        (
            size
            for size in range(max(1, bottom - 1), min(len(sizes), bottom + 1) + 1)
            if _best_edge(
                solid,
                centre,
                sizes[size - 1] / 2 * s * place.scale(thick),
                MAX_SHIFT_MM * s,
                (round(float(wall[0]), 1), round(float(wall[1]), 1)),
            )
            >= EDGE_PASS
        ),
        None,
    )
    bottom = edged or bottom
    for size in range(len(sizes), 0, -1):
        if sizes[size - 1] > outline_mm + OUTLINE_SLACK_MM or (edged and size > edged):
            continue
        level = len(found) + 1
        score, found_at, radius = look(size, level)
        if RING_SCORE <= score < WEAK_RIM and found and size > 1 and look(size - 1, level)[0] > score:
            score = -np.inf  # the next smaller disc explains this level better: this one is absent
        if score >= RING_SCORE:
            discs.append(size)
            found.append(np.array(found_at))
            radii.append(radius)
            centre = found_at
            skipped = 0
            if len(found) == 1:  # the foot under the bottom disc's rim
                at = to_mm(np.array(found_at))
                foot = np.asarray(place.nadir) + (at - np.asarray(place.nadir)) / place.scale(thick)
        elif discs:
            skipped += 1
        confidence = min(confidence, min(1.0, abs(score - RING_SCORE) / RING_SCORE + 0.3))
    # A bottom disc whose rim did not stand out is still there.
    if not discs or discs[0] < bottom:
        discs.insert(0, bottom)
        confidence = min(confidence, 0.5)
    return DiscStack(outline.region, colour, tuple(discs), round(confidence, 3))
