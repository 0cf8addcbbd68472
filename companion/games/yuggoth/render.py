"""A Yuggoth table drawn as the camera would see it (the assumed `yuggoth-*` profiles): for the
tests of the table reading, as `TowerRenderer` is for Tower.

Each Area shows the Watcher's figure (pink, 50 mm) where it stands and, to be ignored, the
factions' figures in their colours: a Great Old One the Watcher's size, Monsters 30 mm,
Acolytes 16 mm. The dice of a roll lie in the rolling area. Figures are drawn as flat
pieces: real miniatures would tell more (no photo of the map exists in our fixtures).
"""

from __future__ import annotations

import numpy as np

from vision.profiles import load_profile
from vision.render import Camera, DieSpec, Look, Scene, TokenSpec

from ..sight import TRAY
from .sight import FACTION_COLOUR, WATCHER, WATCHER_COLOUR, YuggothSight, area
from .state import YuggothState

GOO_MM, MONSTER_MM, ACOLYTE_MM = 50.0, 30.0, 16.0


class YuggothRenderer:
    """One camera over one Yuggoth table; `scene` draws a state of it."""

    def __init__(self, rng: np.random.Generator, state: YuggothState, size: tuple[int, int] = (1280, 960)):
        self.profile = load_profile(YuggothSight().profile_name(state))
        self.camera = Camera(
            size[0], size[1], tilt=float(rng.uniform(0, 0.1)), rotation=float(rng.uniform(-8, 8))
        )
        self.look = Look(
            brightness=float(rng.uniform(0.85, 1.1)), noise=float(rng.uniform(1.5, 3)), jpeg_quality=88
        )
        self.angles = tuple(float(a) for a in rng.uniform(0, 90, 8))

    def scene(self, state: YuggothState, dice: tuple[int, ...] = ()) -> Scene:
        """The table of `state`, with `dice` lying in the rolling area."""
        known = {r.name for r in self.profile.regions}
        tokens: list[TokenSpec] = []
        if state.watcher.area and area(state.watcher.area) in known:
            tokens.append(TokenSpec(area(state.watcher.area), WATCHER, WATCHER_COLOUR, (-33.0, -28.0)))
        by_area: dict[str, int] = {}
        for force in state.units:  # the Watcher top left; each faction's figures elsewhere
            name = area(force.area)
            if name not in known:
                continue
            colour = FACTION_COLOUR.get(state.factions[force.seat].colour, "white")
            k = by_area.get(name, 0)
            by_area[name] = k + 1
            if force.goo and k < 2:
                tokens.append(TokenSpec(name, WATCHER, colour, (35.0, -30.0 + 55.0 * k), size=GOO_MM))
            for m in range(min(force.monsters, 2) if k == 0 else 0):
                tokens.append(TokenSpec(name, WATCHER, colour, (-50.0 + 34.0 * m, 22.0), size=MONSTER_MM))
            for a in range(min(force.acolytes, 3)):
                tokens.append(
                    TokenSpec(
                        name, WATCHER, colour, (-58.0 + 19.0 * a, 50.0 - 20.0 * (k % 2)), size=ACOLYTE_MM
                    )
                )
        spots = (
            (-100.0, -30.0),
            (-60.0, -30.0),
            (-20.0, -30.0),
            (20.0, -30.0),
            (60.0, -30.0),
            (-100.0, 20.0),
        )
        rolled = tuple(
            DieSpec(TRAY, v, "white", spots[k % len(spots)], self.angles[k % len(self.angles)])
            for k, v in enumerate(dice)
        )
        return Scene(self.profile, self.camera, self.look, tokens=tuple(tokens), dice=rolled)
