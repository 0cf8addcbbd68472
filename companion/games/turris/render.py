"""A Turris table drawn as the camera would see it (the assumed `turris` profile): for the tests
of the table reading, as Am'harb's `TableRenderer` is for its games.

Each place keeps its pieces where they were put from frame to frame: a Beast on the left of
the place, the Fruit token below it, the Scouts in two columns on the right.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import cast

import numpy as np

from vision.profiles import load_profile
from vision.render import Camera, Look, Scene, TokenSpec

from .sight import BEAST_PIECE, FRUIT, PROFILE

BEAST_SPOT = (-26.0, -14.0)
FRUIT_SPOT = (-26.0, 28.0)
SCOUT_SPOTS = ((12.0, -28.0), (37.0, -28.0), (12.0, 0.0), (37.0, 0.0), (12.0, 28.0), (37.0, 28.0))
LEFT_SPOTS = tuple((x - 49.0, y) for x, y in SCOUT_SPOTS)
"""Millimetres from a place's centre: six Scouts beside a Beast and the Fruit token, twelve
on a place without them; a Crossroad holds a Beast alone, at its centre."""
COLOURS = {BEAST_PIECE: "black", FRUIT: "orange"}


class TurrisRenderer:
    """One camera over one Turris table; `scene` draws a picture of it (`TurrisSight.expected`)."""

    def __init__(self, rng: np.random.Generator, size: tuple[int, int] = (1280, 960)) -> None:
        self.profile = load_profile(PROFILE)
        self.camera = Camera(
            size[0], size[1], tilt=float(rng.uniform(0, 0.1)), rotation=float(rng.uniform(-8, 8))
        )
        self.look = Look(
            brightness=float(rng.uniform(0.8, 1.1)), noise=float(rng.uniform(1.5, 3)), jpeg_quality=88
        )

    def scene(self, picture: Mapping[str, Hashable]) -> Scene:
        tokens: list[TokenSpec] = []
        for place, what in sorted(picture.items()):
            pieces = cast(tuple[str, ...], what)
            crossroad = place.startswith("Crossroad")
            free = BEAST_PIECE not in pieces and FRUIT not in pieces
            scouts = iter(SCOUT_SPOTS + (LEFT_SPOTS if free else ()))
            for piece in pieces:
                if piece == BEAST_PIECE:
                    tokens.append(
                        TokenSpec(
                            place, "beast", COLOURS[BEAST_PIECE], (0.0, 0.0) if crossroad else BEAST_SPOT
                        )
                    )
                elif piece == FRUIT:
                    tokens.append(TokenSpec(place, "fruit", COLOURS[FRUIT], FRUIT_SPOT))
                else:
                    spot = next(scouts, None)
                    if spot is None:
                        raise ValueError(f"too many pieces to draw on the {place}: {pieces}")
                    tokens.append(TokenSpec(place, "scout", piece.removesuffix(" Scout"), spot))
        return Scene(self.profile, self.camera, self.look, tokens=tuple(tokens))
