"""Tokens: the pieces and tiles in each region, by colour and kind (size seen from above).

In each token region, straightened top-down, pixels unlike the board are grouped by
their nearest colour (the players' colours and the tiles' own); each group that is
piece-sized is a piece, its size says its kind (a priest is wider than a cultist, a
resource tile wider than both), and its colour is then named among that kind's colours.
Several pieces may share a region; a blob the size of no kind is not reported.
"""

from __future__ import annotations

import cv2
import numpy as np

from .colours import Palette, nearest, shade_free
from .profiles import Profile
from .regions import TopDown, foreground, local_background
from .types import TokenSighting

TOKEN_PX_PER_MM = 1.0
"""Tokens are read at 1 px/mm: a 12 mm cultist is 12 px wide, plenty to tell from a priest."""
SQUARE_WIDTH = 2 / np.sqrt(np.pi)
"""A square of side 1 has the area of a disc this wide: sizes are compared by area."""
ONE_PIECE = 0.7
"""A blob whose main colour covers this share of it is one piece (two touching pieces of
different colours are each far from it)."""
MAX_SIZE_ERROR = 0.35
"""A blob whose size is further than this from every kind's is something else (a hand, a card)."""
MAX_ELONGATION = 1.7
MIN_FILL = 0.5
"""A piece is squarish (a disc fills 79% of its box, a square turned 45 degrees 50%)."""


def kind_sizes(profile: Profile) -> dict[str, float]:
    """Each token kind's width as a disc of the same area, millimetres."""
    return {k: w * (SQUARE_WIDTH if k in profile.token_square else 1.0) for k, w in profile.token_mm}


def compact(here: np.ndarray) -> bool:
    """Round pieces and square tiles fill most of a squarish box; the edge of a card, a sleeve
    or a shadow's rim that differs from the board in strips does not."""
    rows, cols = np.nonzero(here)
    h, w = int(np.ptp(rows)) + 1, int(np.ptp(cols)) + 1
    return bool(max(h, w) <= MAX_ELONGATION * min(h, w) and rows.size >= MIN_FILL * h * w)


def pieces_of(
    box: np.ndarray, features: np.ndarray, choices: np.ndarray, area: int, centroid: np.ndarray
) -> list[tuple[int, np.ndarray, float, tuple[float, float]]]:
    """The pieces in one blob: (colour index, mask, area, centroid). A blob whose main colour
    covers ONE_PIECE of it is one piece (its shading and printed emblem are not pieces of
    other colours); otherwise touching pieces of different colours are told apart by colour."""
    nearest_k = np.full(box.shape, -1, np.int64)
    nearest_k[box] = nearest(features[box], choices)
    ks, counts = np.unique(nearest_k[box], return_counts=True)
    if counts.max() >= ONE_PIECE * counts.sum():
        return [(int(ks[counts.argmax()]), box, float(area), (float(centroid[0]), float(centroid[1])))]
    out = []
    for k in ks:
        n, plabels, pstats, pcentroids = cv2.connectedComponentsWithStats((nearest_k == k).astype(np.uint8))
        for p in range(1, n):
            centre = (float(pcentroids[p][0]), float(pcentroids[p][1]))
            out.append((int(k), plabels == p, float(pstats[p, cv2.CC_STAT_AREA]), centre))
    return out


def read_tokens(
    top: TopDown, profile: Profile, palette: Palette, colours: tuple[str, ...] | None = None
) -> tuple[TokenSighting, ...]:
    """Every piece in every token region."""
    regions = [r for r in profile.regions if r.holds == "tokens"]
    if not regions:
        return ()
    if top.px_per_mm > TOKEN_PX_PER_MM:
        top = top.scaled(TOKEN_PX_PER_MM / top.px_per_mm)
    windows = [top.window(r) for r in regions]
    r0, r1 = min(w[0].start for w in windows), max(w[0].stop for w in windows)
    c0, c1 = min(w[1].start for w in windows), max(w[1].stop for w in windows)
    pixels = top.lab(slice(r0, r1), slice(c0, c1))
    inside = np.zeros(pixels.shape[:2], np.uint8)
    for rows, cols, _ in windows:
        inside[rows.start - r0 : rows.stop - r0, cols.start - c0 : cols.stop - c0] = 1
    background = local_background(pixels, top.px_per_mm)
    open_px = max(3, int(round(2.5 * top.px_per_mm)) | 1)
    mask = foreground(pixels, background, threshold=28.0, open_px=open_px) & inside
    widths = kind_sizes(profile)
    own = dict(profile.token_colours)  # kinds with colours of their own (resource tiles)
    every = list(colours or ()) + [c for kc in own.values() for c in kc if c not in (colours or ())]
    names, choices = palette.features(tuple(dict.fromkeys(every)) if colours is not None else None)
    bgr = top.image[r0:r1, c0:c1]
    smallest = min(widths.values())
    s = top.px_per_mm
    min_area = np.pi * (0.3 * smallest * s) ** 2
    boxes = np.array([(min(xs), min(ys), max(xs), max(ys)) for xs, ys in (zip(*r.polygon) for r in regions)])
    found: list[TokenSighting] = []
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
    for c in range(1, count):
        x, y, w, h, area = stats[c]
        if area < min_area:
            continue
        box = labels[y : y + h, x : x + w] == c
        features = shade_free(bgr[y : y + h, x : x + w])
        for k, here, part_area, (cx, cy) in pieces_of(
            box, features, choices, int(area), centroids[c] - (x, y)
        ):
            width_mm = 2 * np.sqrt(part_area / np.pi) / s
            if width_mm < 0.6 * smallest:
                continue
            kind = min(widths, key=lambda name: abs(widths[name] - width_mm))
            error = abs(widths[kind] - width_mm) / widths[kind]
            if error > MAX_SIZE_ERROR or not compact(here):
                continue
            colour = np.median(features[here], axis=0)
            bare_lab = background[y : y + h, x : x + w][here].mean(axis=0)  # already smooth
            bare_bgr = cv2.cvtColor(bare_lab.astype(np.uint8)[None, None], cv2.COLOR_LAB2BGR)[0, 0]
            if np.linalg.norm(colour - choices[k]) > np.linalg.norm(colour - shade_free(bare_bgr)):
                continue  # a shade of the board, not a piece
            centre = top.to_mm(cx + x + c0, cy + y + r0)
            near = np.nonzero(
                (boxes[:, 0] <= centre[0])
                & (centre[0] <= boxes[:, 2])
                & (boxes[:, 1] <= centre[1])
                & (centre[1] <= boxes[:, 3])
            )[0]
            region = next((regions[i] for i in near if regions[i].contains(centre)), None)
            if region is None:
                continue
            name = names[k]
            allowed = own.get(kind, colours)
            if allowed is not None and name not in allowed:
                # Named among this kind's own colours (a pink priest is not a red resource).
                keep = [i for i, n in enumerate(names) if n in allowed]
                name = names[keep[int(nearest(colour[None], choices[keep])[0])]]
            found.append(
                TokenSighting(
                    region.name,
                    kind,
                    name,
                    (round(float(centre[0]), 1), round(float(centre[1]), 1)),
                    round(max(0.0, 1 - error * 2), 3),
                )
            )
    return tuple(sorted(found, key=lambda t: t.region))
