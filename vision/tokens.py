"""Tokens: the wooden pieces in each region, by colour and kind (size seen from above).

In each token region, straightened top-down, pixels unlike the board are grouped by
their nearest player colour; each group that is piece-sized is a piece, and its size
says its kind (a priest is wider than a cultist). Several pieces may share a region.
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
    names, choices = palette.features(colours)
    bgr = top.image[r0:r1, c0:c1]
    widths = dict(profile.token_mm)
    smallest = min(widths.values())
    s = top.px_per_mm
    min_area = np.pi * (0.3 * smallest * s) ** 2
    found: list[TokenSighting] = []
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    for c in range(1, count):
        x, y, w, h, area = stats[c]
        if area < min_area:
            continue
        box = labels[y : y + h, x : x + w] == c
        features = shade_free(bgr[y : y + h, x : x + w])
        nearest_k = np.full(box.shape, -1, np.int64)
        nearest_k[box] = nearest(features[box], choices)
        # Touching pieces of different colours are told apart by colour.
        for k in np.unique(nearest_k[box]):
            part = (nearest_k == k).astype(np.uint8)
            n, plabels, pstats, pcentroids = cv2.connectedComponentsWithStats(part)
            for p in range(1, n):
                width_mm = 2 * np.sqrt(float(pstats[p, cv2.CC_STAT_AREA]) / np.pi) / s
                if width_mm < 0.6 * smallest:
                    continue
                here = plabels == p
                colour = np.median(features[here], axis=0)
                bare_lab = np.median(background[y : y + h, x : x + w][here], axis=0)
                bare_bgr = cv2.cvtColor(bare_lab.astype(np.uint8)[None, None], cv2.COLOR_LAB2BGR)[0, 0]
                bare = shade_free(bare_bgr)
                if np.linalg.norm(colour - choices[k]) > np.linalg.norm(colour - bare):
                    continue  # a shade of the board, not a piece
                centre = top.to_mm(pcentroids[p][0] + x + c0, pcentroids[p][1] + y + r0)
                region = next((r for r in regions if r.contains(centre)), None)
                if region is None:
                    continue
                kind = min(widths, key=lambda name: abs(widths[name] - width_mm))
                error = abs(widths[kind] - width_mm) / widths[kind]
                found.append(
                    TokenSighting(
                        region.name,
                        kind,
                        names[k],
                        (round(float(centre[0]), 1), round(float(centre[1]), 1)),
                        round(max(0.0, 1 - error * 2), 3),
                    )
                )
    return tuple(sorted(found, key=lambda t: t.region))
