"""Turris thresholds and the end: Tower room prerequisites, Excavation refreshes, the Endgame
trigger and the winner with the rulebook's tie-breakers."""

from __future__ import annotations

from collections.abc import Sequence

ROOMS = 6
ENDGAME_PRESTIGE = 40
EXCAVATION_THRESHOLDS = (10, 20, 30, 40)
ROOM_PRESTIGE = {"Grove": 5, "Council": 3}
"""Prestige for a Tower room built from the Grove or from the Council track: the rulebook says
"as indicated by the source of the effect"; these are the values of the Trionfi Step example,
to be corrected from the printed board."""


def missions_for_next_room(rooms_built: int) -> int:
    """ "3) Trionfi Step": 2 completed Missions for the first Tower room, 2 more for each next."""
    return 2 * (rooms_built + 1)


def may_build_room(rooms_built: int, missions_completed: int, undamaged_room: bool = True) -> bool:
    """Enough completed Missions; in solo also a Tower room with no Damaged tile to take
    ("06 Solo Play, Player Turn Phase": otherwise the Grove and the Council track spot do nothing)."""
    return undamaged_room and missions_completed >= missions_for_next_room(rooms_built)


def new_excavation_thresholds(
    before: Sequence[int], after: Sequence[int], passed: frozenset[int]
) -> tuple[int, ...]:
    """Thresholds (10/20/30/40 Prestige) some player reaches or passes for the first time in the
    game between `before` and `after`; the Excavation Sites change after the action is fully
    resolved ("Excavation Sites"). ASSUMED: passing two thresholds in one action changes the
    sites once and uses up both (the rulebook does not say)."""
    best_before, best_after = max(before), max(after)
    return tuple(t for t in EXCAVATION_THRESHOLDS if t not in passed and best_before < t <= best_after)


def endgame_triggered(rooms_built_in_all: int, prestige: Sequence[int]) -> bool:
    """ "ENDGAME": all 6 Tower rooms constructed, or a player at 40 Prestige or more."""
    return rooms_built_in_all >= ROOMS or max(prestige) >= ENDGAME_PRESTIGE


def standings(prestige: Sequence[int], resources: Sequence[int], first: int) -> tuple[int, ...]:
    """Seats, winner first: most Prestige; on a tie the most resources (I/K/R/W each 1;
    Artifacts are not resources for any effect but spending); then the nearer to the First
    Player in clockwise (turn) order."""
    n = len(prestige)
    return tuple(sorted(range(n), key=lambda s: (-prestige[s], -resources[s], (s - first) % n)))


def solo_result(
    rooms_built: int, damaged_rooms: int, prestige: int, betrayers: int, turn_phase_over: bool
) -> str | None:
    """Solo "ENDGAME": "lost" once the Betrayers reach 40 Prestige first; "won" at 40 Prestige
    first, or with 6 Tower rooms and none damaged at the end of the Player Turn Phase; else
    None (the game goes on). Checked after every change, so the first to 40 is the one
    that reaches it while the other is below."""
    if betrayers >= ENDGAME_PRESTIGE and prestige < ENDGAME_PRESTIGE:
        return "lost"
    if prestige >= ENDGAME_PRESTIGE:
        return "won"
    if turn_phase_over and rooms_built >= ROOMS and damaged_rooms == 0:
        return "won"
    return None
