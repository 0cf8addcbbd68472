"""An Am'harb state drawn as the camera would see it: recordings of whole games
(`companion.demo`) and the tests of the table loop.

Pieces keep their place on the table from frame to frame (a real table does not shuffle
itself); a stack is nudged only when it changes, as a hand leaves it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import cast

import numpy as np

from vision.profiles import load_profile
from vision.render import Camera, Look, Scene, StackSpec, TokenSpec

from ..sight import Unclear

SPOTS = ((-9.0, -9.0), (9.0, 9.0), (9.0, -9.0), (-9.0, 9.0))
"""Where the 1st..4th piece of a space lies (mm from its centre)."""


class TableRenderer:
    """One camera over one table for a whole game; `scene` draws a picture of it
    (`AmharbSight.expected`)."""

    def __init__(self, players: int, rng: np.random.Generator, size: tuple[int, int] = (1280, 960)) -> None:
        self.profile = load_profile(f"amharb-{players}p")
        self.rng = rng
        self.camera = Camera(
            size[0], size[1], tilt=float(rng.uniform(0, 0.12)), rotation=float(rng.uniform(-12, 12))
        )
        self.brightness = float(rng.uniform(0.75, 1.1))
        self.regions = frozenset(r.name for r in self.profile.regions)
        self._stacks: dict[str, tuple[Hashable, tuple[float, float]]] = {}
        self._tiles: dict[str, tuple[float, float, float]] = {}

    def _nudge(self, n: int, span: float) -> tuple[float, ...]:
        return tuple(float(v) for v in self.rng.uniform(-span, span, n))

    def scene(self, picture: Mapping[str, Hashable]) -> Scene:
        stacks: list[StackSpec] = []
        tokens: list[TokenSpec] = []
        for region, what in sorted(picture.items()):
            if region not in self.regions or not what:
                continue
            if region.startswith("seat"):
                colour, discs = cast(tuple[str, tuple[int, ...]], what)
                kept = self._stacks.get(region)
                if kept is None or kept[0] != what:
                    dx, dy = self._nudge(2, 6.0)
                    kept = self._stacks[region] = (what, (dx, dy))
                stacks.append(StackSpec(region, colour, discs, kept[1]))
                continue
            pieces = cast(tuple[tuple[str, str], ...], what.what if isinstance(what, Unclear) else what)
            # A resource tile lies flat on its space; a disciple stands on it (Dagon's and
            # Hydra's powers move disciples onto spaces without claiming the tile).
            for kind, colour in pieces:
                if kind == "resource":
                    if region not in self._tiles:
                        dx, dy = self._nudge(2, 4.0)
                        self._tiles[region] = (dx, dy, self._nudge(1, 12.0)[0])
                    dx, dy, angle = self._tiles[region]
                    tokens.append(TokenSpec(region, "resource", colour, (dx, dy), angle))
            disciples = [p for p in pieces if p[0] != "resource"]
            for (kind, colour), spot in zip(disciples, SPOTS):
                tokens.append(TokenSpec(region, kind, colour, spot if len(disciples) > 1 else (0.0, 0.0)))
        look = Look(brightness=self.brightness, noise=float(self.rng.uniform(1.5, 4)), jpeg_quality=88)
        return Scene(self.profile, self.camera, look, stacks=tuple(stacks), tokens=tuple(tokens))
