"""A Tower table drawn as the camera would see it (the assumed `tower` mat): for the tests of
the table reading, as `ArkhanosRenderer` is for Arkhanos.

Gems lie spread out in rows on the tableaus and Salil's pile (`touching`: shoulder to
shoulder, so that one colour's gems make one blob, counted by its area); materials lie in a
row; meeples stand side by side on a stall's meeple spot; the tower's top segment in the
palace's middle; the die lies in the rolling area.
Gems are drawn as round pieces: real ones are faceted plastic (a photo would tell more).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, cast

import numpy as np

from vision.profiles import load_profile
from vision.render import Camera, DieSpec, Look, Scene, TokenSpec

from ..sight import TRAY, OneOf
from .sight import GEM_COLOURS, MATERIAL_COLOUR, PALACE, PROFILE

MEEPLE_SPOTS = {
    1: ((0.0, 0.0),),
    2: ((-10.0, 0.0), (10.0, 0.0)),
    3: ((-10.0, -9.0), (10.0, -9.0), (0.0, 10.0)),
}


class TowerRenderer:
    """One camera over one Tower table; `scene` draws a picture of it (`TowerSight.expected`)."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int] = (1280, 960), touching: bool = False):
        self.profile = load_profile(PROFILE)
        self.camera = Camera(
            size[0], size[1], tilt=float(rng.uniform(0, 0.1)), rotation=float(rng.uniform(-8, 8))
        )
        self.look = Look(
            brightness=float(rng.uniform(0.85, 1.1)), noise=float(rng.uniform(1.5, 3)), jpeg_quality=88
        )
        self.gap = 10.0 if touching else 15.0
        self.angle = float(rng.uniform(0, 90))

    def scene(self, picture: Mapping[str, Hashable], die: int = 0) -> Scene:
        """The table of `picture`, with `die` showing in the rolling area (0: none)."""
        tokens: list[TokenSpec] = []
        for region, what in sorted(picture.items()):
            value = cast(tuple[Any, ...], what.options[0] if isinstance(what, OneOf) else what)
            if region.endswith("/gems") or region == "salil":
                tokens += self._gems(region, value)
            elif region == PALACE:
                tokens += [TokenSpec(region, "segment", c) for c in value]
            elif region.endswith("/meeple"):
                spots = MEEPLE_SPOTS[len(value)] if value else ()
                tokens += [TokenSpec(region, "meeple", c, spot) for c, spot in zip(value, spots)]
            else:  # materials: one on a stall space, a row on a tableau
                row = region.startswith("player/")
                tokens += [
                    TokenSpec(
                        region,
                        "material",
                        MATERIAL_COLOUR[m],
                        (30.0 * (k % 6) - 75.0, 30.0 * (k // 6) - 30.0) if row else (0.0, 0.0),
                        self.angle,
                    )
                    for k, m in enumerate(value)
                ]
        dice = (DieSpec(TRAY, die, "white", (0.0, 0.0), self.angle),) if die else ()
        return Scene(self.profile, self.camera, self.look, tokens=tuple(tokens), dice=dice)

    def _gems(self, region: str, counts: tuple[int, ...]) -> list[TokenSpec]:
        """Each colour's gems in rows of its own, left to right; closer together when the
        region would not hold them so (Salil's pile grows large)."""
        xs0, ys0 = zip(*self.profile.region(region).polygon)
        width, height = max(xs0) - min(xs0), max(ys0) - min(ys0)
        for gap in (self.gap, 13.0, 11.5, 10.0):
            per_row = int((width - 10) // gap)
            rows = sum(-(-n // per_row) for n in counts)
            if 10 + rows * (gap + 3) <= height or gap <= 10.0:
                break
        out, row = [], 0
        for colour, n in zip(GEM_COLOURS, counts):
            for k in range(n):
                if k and k % per_row == 0:
                    row += 1
                x = -width / 2 + 5 + gap / 2 + (k % per_row) * gap
                y = -height / 2 + 5 + gap / 2 + row * (gap + 3)
                out.append(TokenSpec(region, "gem", colour, (x, y)))
            row += 1 if n else 0
        return out
