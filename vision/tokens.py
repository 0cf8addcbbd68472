"""Tokens: the wooden pieces in each region, by colour and kind (size seen from above).

In each token region, straightened top-down, pixels unlike the board are grouped by
their nearest player colour; each group that is piece-sized is a piece, and its size
says its kind (a priest is wider than a cultist). Several pieces may share a region.
"""

from __future__ import annotations

import cv2
import numpy as np

from .colours import Palette
from .profiles import Profile
from .regions import TopDown, foreground, local_background, nearest_colour
from .types import TokenSighting


def read_tokens(
    top: TopDown, profile: Profile, palette: Palette, colours: tuple[str, ...] | None = None
) -> tuple[TokenSighting, ...]:
    """Every piece in every token region."""
    regions = [r for r in profile.regions if r.holds == "tokens"]
    if not regions:
        return ()
    inside = np.zeros(top.lab.shape[:2], bool)
    for region in regions:
        rows, cols, _ = top.window(region)
        inside[rows, cols] = True
    background = local_background(top.lab, top.px_per_mm)
    mask = foreground(top.lab, background, threshold=28.0) & inside
    names, lab_palette = palette.lab()
    allowed = [i for i, n in enumerate(names) if colours is None or n in colours]
    nearest = np.full(mask.shape, -1, np.int64)
    nearest[mask > 0] = nearest_colour(top.lab[mask > 0], lab_palette[allowed])
    widths = dict(profile.token_mm)
    smallest = min(widths.values())
    s = top.px_per_mm
    found: list[TokenSighting] = []
    for k, palette_index in enumerate(allowed):
        count, labels, stats, centroids = cv2.connectedComponentsWithStats((nearest == k).astype(np.uint8))
        for c in range(1, count):
            width_mm = 2 * np.sqrt(float(stats[c, cv2.CC_STAT_AREA]) / np.pi) / s
            if width_mm < 0.6 * smallest:
                continue
            x, y, w, h = stats[c, :4]
            box = labels[y : y + h, x : x + w] == c
            colour = np.median(top.lab[y : y + h, x : x + w][box], axis=0)
            bare = np.median(background[y : y + h, x : x + w][box], axis=0)
            if np.linalg.norm(colour - lab_palette[palette_index]) > np.linalg.norm(colour - bare):
                continue  # a shade of the board, not a piece
            centre = top.to_mm(*centroids[c])
            region = next((r for r in regions if r.contains(centre)), None)
            if region is None:
                continue
            kind = min(widths, key=lambda name: abs(widths[name] - width_mm))
            error = abs(widths[kind] - width_mm) / widths[kind]
            found.append(
                TokenSighting(
                    region.name,
                    kind,
                    names[palette_index],
                    (round(float(centre[0]), 1), round(float(centre[1]), 1)),
                    round(max(0.0, 1 - error * 2), 3),
                )
            )
    return tuple(sorted(found, key=lambda t: t.region))
