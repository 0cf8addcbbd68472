"""Turris Action Step: which actions are legal now, what they cost and what they give
("1) Action Step"). Card effects that override these rules are not modelled here."""

from __future__ import annotations

from dataclasses import dataclass

from .beasts import BETRAYERS, Table
from .board import Board

ACTIONS = 2
REVIVE_COST, REVIVE_ALL_DEAD_COST = 3, 1


@dataclass(frozen=True)
class ActionStep:
    """What the active player has done so far this turn."""

    actions_left: int = ACTIONS
    placed: bool = False
    collected: bool = False
    gathered: int = 0
    """Gather Ichor actions taken this turn."""
    tactics_played: bool = False
    """A Tactics card played from the hand this Action Step (the limit is 1)."""


def why_not_place(board: Board, table: Table, step: ActionStep, seat: int, location: str) -> str | None:
    """None if `seat` may Place a Scout in `location` now, else the reason ("1) Action Step",
    PLACE; "EXCAVATION SITES" for empty spots; "06 Solo Play, Player Turn Phase")."""
    if step.actions_left == 0:
        return "no action left this turn"
    if step.collected:
        return "PLACE may not be taken after a COLLECT this turn"
    if location not in board.locations and (location not in board.excavation or location in table.no_site):
        return f"the {location} is not a Location Scouts can be Placed in"
    if table.tribes[seat].reserve == 0:
        return "no Scout left in your reserve"
    if (beast := table.beast_at(location)) is not None:
        return f"the {beast.name} is in the {location}: Scouts are Placed only where there are no Beasts"
    here = table.scouts_at(location)
    if any(s.seat == BETRAYERS for s in here):
        return f"a Betrayers' Scout is in the {location} (Solo Play)"
    if location in board.limited and here:
        return f"the {location} is limited to 1 Scout and one is there"
    return None


def gather_ichor_gain(step: ActionStep) -> int:
    """1 Ichor, and 1 more in total when a second action of the turn gathers Ichor
    ("1) Action Step", GATHER ICHOR)."""
    return 2 if step.gathered == 1 else 1


def force_revive_cost(graveyard: int) -> int:
    """3 Ichor to bring one Scout back, 1 if all 4 are in the Graveyard ("1) Action Step",
    FORCE REVIVE)."""
    return REVIVE_ALL_DEAD_COST if graveyard == 4 else REVIVE_COST


def why_not_collect(table: Table, step: ActionStep, seat: int, locations: tuple[str, ...]) -> str | None:
    """None if `seat` may Collect its Scouts in `locations` (one entry per Scout), paying one
    Ichor each (an Artifact may stand in for any resource): "1) Action Step", COLLECT;
    "ARTIFACTS", Wild resource."""
    if step.actions_left == 0:
        return "no action left this turn"
    if step.placed:
        return "COLLECT may not be taken after a PLACE this turn"
    if step.collected:
        return "COLLECT may only be taken once per turn"
    if not locations:
        return "choose one or more of your Scouts on the board"
    for place in set(locations):
        mine = sum(1 for s in table.scouts_at(place) if s.seat == seat)
        if locations.count(place) > mine:
            return f"you have {mine} Scout(s) in the {place}"
    tribe = table.tribes[seat]
    if tribe.resources[0] + tribe.artifacts < len(locations):
        return f"recalling {len(locations)} Scouts costs {len(locations)} Ichor"
    return None


def collect_rewards(board: Board, table: Table, locations: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each collected Scout's Location and whether its reward is gained: not for Immediate
    Locations (resolved when Placed), not where a Beast stands, not where a Betrayers' Scout
    stands ("1) Action Step", COLLECT; "06 Solo Play, Player Turn Phase")."""
    out = []
    for place in locations:
        if place in board.immediate:
            out.append((place, "no reward: Immediate, resolved when the Scout was Placed"))
        elif (beast := table.beast_at(place)) is not None:
            out.append((place, f"no reward: the {beast.name} is there"))
        elif any(s.seat == BETRAYERS for s in table.scouts_at(place)):
            out.append((place, "no reward: a Betrayers' Scout is there"))
        else:
            out.append((place, "reward"))
    return tuple(out)


def why_not_play_tactics(step: ActionStep, held: int) -> str | None:
    """None if a Tactics card may be played now: "You are limited to playing 1 Tactics card
    during your Action step"; cards played through other effects do not count (they are an
    `adjust`)."""
    if held == 0:
        return "no Tactics card in hand"
    if step.tactics_played:
        return "a Tactics card has been played this Action Step already (the limit is 1)"
    return None
