"""A Towers of Arkhanos table drawn as the camera would see it (the assumed `arkhanos` mat): for
the tests of the table reading, as Am'harb's `TableRenderer` is for its games.

Dice lie in the rolling area in a loose grid, each turned its own way; a die on a pillar or
a mana pool space lies in its middle; meeples stand in the middle of their space, or on the
pillar itself when it has no die (as the rulebook says: "Stick your meeple on an empty
pillar"). A region that may be seen several ways (`OneOf`) is drawn as it first stands.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, cast

import numpy as np

from vision.profiles import load_profile
from vision.render import Camera, DieSpec, Look, Scene, TokenSpec

from ..sight import TRAY, OneOf
from .sight import PROFILE

TRAY_SPOTS = tuple((x, y) for y in (-60.0, -15.0, 30.0, 75.0) for x in (-90.0, -45.0, 0.0, 45.0, 90.0))
"""Millimetres from the rolling area's centre: room for twenty dice."""


class ArkhanosRenderer:
    """One camera over one Arkhanos table; `scene` draws a picture of it (`ArkhanosSight.expected`)."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int] = (1280, 960)) -> None:
        self.profile = load_profile(PROFILE)
        self.camera = Camera(
            size[0], size[1], tilt=float(rng.uniform(0, 0.1)), rotation=float(rng.uniform(-8, 8))
        )
        self.look = Look(
            brightness=float(rng.uniform(0.8, 1.1)), noise=float(rng.uniform(1.5, 3)), jpeg_quality=88
        )
        self.angles = tuple(float(a) for a in rng.uniform(0, 90, len(TRAY_SPOTS) + 64))

    def scene(self, picture: Mapping[str, Hashable]) -> Scene:
        dice: list[DieSpec] = []
        tokens: list[TokenSpec] = []
        for n, (region, what) in enumerate(sorted(picture.items())):
            things = cast(tuple[tuple[Any, Any], ...], what.options[0] if isinstance(what, OneOf) else what)
            if region == TRAY:
                if len(things) > len(TRAY_SPOTS):
                    raise ValueError(f"too many dice to draw in the rolling area: {len(things)}")
                for k, ((colour, number), spot) in enumerate(zip(things, TRAY_SPOTS)):
                    dice.append(DieSpec(region, number, colour, spot, self.angles[k]))
                continue
            for a, b in things:
                if isinstance(b, int):  # a die: (colour, number)
                    dice.append(DieSpec(region, b, a, (0.0, 0.0), self.angles[len(TRAY_SPOTS) + n % 64]))
                else:  # a meeple: (kind, colour), on its pillar if that has no die
                    on_pillar = (
                        "/meeple/" in region and picture.get(region.replace("/meeple/", "/pillar/")) == ()
                    )
                    tokens.append(
                        TokenSpec(region.replace("/meeple/", "/top/") if on_pillar else region, a, b)
                    )
        return Scene(self.profile, self.camera, self.look, tokens=tuple(tokens), dice=tuple(dice))
