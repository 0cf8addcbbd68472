"""Render an Am'harb state as the camera would see it, for whole-game tests of inference.

Pieces keep their place on the table from frame to frame (a real table does not shuffle
itself); a stack is nudged only when it changes, as a hand leaves it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np

from companion.games.amharb.sight import AmharbSight
from companion.games.sight import Unclear
from vision.profiles import load_profile
from vision.render import Camera, Look, Scene, StackSpec, TokenSpec

SPOTS = ((-9.0, -9.0), (9.0, 9.0), (9.0, -9.0), (-9.0, 9.0))
"""Where the 1st..4th piece of a space lies (mm from its centre)."""


class TableRenderer:
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

    def scene(self, picture: Mapping[str, Hashable]) -> Scene:
        stacks, tokens = [], []
        for region, what in sorted(picture.items()):
            if region not in self.regions or not what:
                continue
            if region.startswith("seat"):
                colour, discs = what  # type: ignore[misc]
                kept = self._stacks.get(region)
                if kept is None or kept[0] != what:
                    kept = (what, tuple(float(v) for v in self.rng.uniform(-6, 6, 2)))  # type: ignore[assignment]
                    self._stacks[region] = kept  # type: ignore[assignment]
                stacks.append(StackSpec(region, colour, discs, kept[1]))  # type: ignore[index]
                continue
            pieces = list(what.what if isinstance(what, Unclear) else what)  # type: ignore[call-overload]
            # A resource tile lies flat on its space; a disciple stands on it (Dagon's and
            # Hydra's powers move disciples onto spaces without claiming the tile).
            for kind, colour in pieces:
                if kind == "resource":
                    if region not in self._tiles:
                        dx, dy = self.rng.uniform(-4, 4, 2)
                        self._tiles[region] = (float(dx), float(dy), float(self.rng.uniform(-12, 12)))
                    dx, dy, angle = self._tiles[region]
                    tokens.append(TokenSpec(region, "resource", colour, (dx, dy), angle))
            disciples = [p for p in pieces if p[0] != "resource"]
            for (kind, colour), spot in zip(disciples, SPOTS):
                tokens.append(TokenSpec(region, kind, colour, spot if len(disciples) > 1 else (0.0, 0.0)))
        look = Look(brightness=self.brightness, noise=float(self.rng.uniform(1.5, 4)), jpeg_quality=88)
        return Scene(self.profile, self.camera, look, stacks=tuple(stacks), tokens=tuple(tokens))


def sight_regions(players: int) -> frozenset[str]:
    return frozenset(r.name for r in load_profile(f"amharb-{players}p").regions)


__all__ = ["AmharbSight", "TableRenderer", "sight_regions"]
