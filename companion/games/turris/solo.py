"""Turris solo mode: the Betrayers' Scouts move in the Betrayer Phase ("06 Appendix 1")."""

from __future__ import annotations

from dataclasses import dataclass

from .beasts import BETRAYERS, Event, Table
from .board import Board

RULE = "06 Solo Play, Betrayer Phase"
DAMAGE_PRESTIGE = 4
PHASE_PRESTIGE = 1
ROOMS = 6
"""Six Damaged tiles, one per Tower room: with every room damaged no tile is placed (ASSUMED)."""


@dataclass(frozen=True)
class BetrayerPhase:
    table: Table
    events: tuple[Event, ...]
    damaged: int
    """Damaged tiles on the Tower rooms after the phase."""
    prestige: int
    """Prestige the Betrayers gained for Damaged tiles (PHASE_PRESTIGE comes at the phase's end)."""


def betrayer_phase(board: Board, table: Table, damaged: int) -> BetrayerPhase:
    """Each Betrayers' Scout, the lower-numbered first, moves to the next higher-numbered
    Location with no Beast and no Scout; with none, to the lowest-numbered such Location and
    a Damaged tile goes on a Tower room (4 Prestige). From an Excavation Site it goes to the
    lowest-numbered free Location, with no Damaged tile. The Beast Movement card drawn next is
    resolved as a Beast's turn (`beast_turn(..., beast_phase=False)`); only then do the
    Betrayers gain PHASE_PRESTIGE, which the caller adds, since the race to 40 can turn on it.
    ASSUMED: a Scout on an Excavation Site (no number) moves first."""
    events: list[Event] = []
    prestige = 0
    numbers = dict(board.numbers)
    ours = sorted((s for s in table.scouts if s.seat == BETRAYERS), key=lambda s: numbers.get(s.location, 0))
    for scout in ours:
        free = [
            name for name, _ in board.numbers if table.beast_at(name) is None and not table.scouts_at(name)
        ]
        if not free:
            events.append(Event(f"The Betrayers' Scout in the {scout.location} has nowhere to go", RULE))
            continue
        here = numbers.get(scout.location)
        higher = [name for name in free if here is not None and numbers[name] > here]
        if here is None:
            to, why = free[0], "from an Excavation Site: the lowest-numbered free Location"
        elif higher:
            to, why = higher[0], "the next higher-numbered free Location"
        else:
            to, why = free[0], "no higher-numbered Location is free: the lowest-numbered one"
            if damaged < ROOMS:
                damaged += 1
                prestige += DAMAGE_PRESTIGE
                why += (
                    f"; a Damaged tile goes on a Tower room and the Betrayers gain {DAMAGE_PRESTIGE} Prestige"
                )
        table = table.moved(scout, to)
        events.append(Event(f"The Betrayers' Scout moves from the {scout.location} to the {to}: {why}", RULE))
    return BetrayerPhase(table, tuple(events), damaged, prestige)
