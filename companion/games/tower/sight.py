"""What the camera sees of a game of Tower: the die rolled into the rolling area (the
`dice-tray` profile: the marker sheet round a tray), when the game waits for it — Lutfi's
starting stall and the Royal Guard's hunt. A face that names no stall in play is not offered
("roll again"). The offer is for one tap or NEXT, never taken alone. The gems, the stalls
and the meeples are not read (the stalls' printed layout is not known).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

from vision.types import Observation

from ..sight import UNSURE, Seen
from .moves import Roll
from .rules import die_faces
from .state import HUNT, LUTFI_DIE, TowerState

TRAY = "tray"


class TowerSight:
    def profile_name(self, state: TowerState) -> str:
        return "dice-tray"

    def piece_colours(self, state: TowerState) -> tuple[str, ...]:
        return ()

    def dice_colours(self, state: TowerState) -> tuple[str, ...] | None:
        return None

    def region_name(self, state: TowerState, region: str) -> str:
        return "the rolling area" if region == TRAY else region

    def expected(self, state: TowerState) -> dict[str, Hashable]:
        """Nothing the state fixes: the die stays in the tray between rolls."""
        return {}

    def seen(self, state: TowerState, observation: Observation, regions: frozenset[str]) -> Seen:
        dice = [d for d in observation.dice if d.region == TRAY and d.kind == "d6"]
        unsure = frozenset({TRAY}) if any(d.confidence <= UNSURE for d in dice) else frozenset()
        return Seen({TRAY: tuple(sorted(d.value for d in dice))}, unsure)

    def chance_from(self, state: TowerState, seen: Seen) -> tuple[Roll, ...] | None:
        if state.turn.step not in (LUTFI_DIE, HUNT):
            return None
        values = cast(tuple[int, ...], seen.picture.get(TRAY, ()))
        if len(values) != 1 or values[0] not in die_faces(state):
            return None
        return (Roll(values[0]),)

    def reads(self, outcome: object) -> bool:
        return False

    def on_the_way(self, state: TowerState, seen: Seen) -> bool:
        return False

    def setup_profile(self, players: int) -> str:
        return "dice-tray"

    def setup_options(self, players: int, observation: Observation) -> dict[str, str]:
        return {}
