"""What the camera sees of a game of Tower: the die rolled into the rolling area (the
`dice-tray` profile: the marker sheet round a tray), when the game waits for it — Lutfi's
starting stall and the Royal Guard's hunt. A face that names no stall in play is not offered
("roll again"). The offer is for one tap or NEXT, never taken alone. The gems, the stalls
and the meeples are not read (the stalls' printed layout is not known).
"""

from __future__ import annotations

from typing import cast

from ..sight import TRAY, Seen, TraySight
from .moves import Roll
from .rules import die_faces
from .state import HUNT, LUTFI_DIE, TowerState


class TowerSight(TraySight):
    def chance_from(self, state: TowerState, seen: Seen) -> tuple[Roll, ...] | None:
        if state.turn.step not in (LUTFI_DIE, HUNT):
            return None
        values = cast(tuple[int, ...], seen.picture.get(TRAY, ()))
        if len(values) != 1 or values[0] not in die_faces(state):
            return None
        return (Roll(values[0]),)
