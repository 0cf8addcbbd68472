"""What the bag may give: the chance of drawing what you need.

The companion knows exactly what is in the bag (90 gems and 10 passes less everything
drawn, plus Salil's returns), so it can say how likely the next draws are to make a
needed purchase affordable.
"""

from __future__ import annotations

from functools import cache
from math import comb

from .gems import Gems, ways_to_pay
from .market import wants
from .state import TowerState


@cache
def draw_odds(bag: Gems, draws: int) -> tuple[tuple[Gems, float], ...]:
    """Every handful `draws` gems from `bag` can make, with its probability (without
    replacement; fewer draws when the bag holds fewer - a refill from Salil in the middle
    of a draw phase is not foreseen)."""
    draws = min(draws, bag.total)
    total = comb(bag.total, draws)
    found = []
    g_all, b_all, r_all, p_all = bag.counts()
    for g in range(min(g_all, draws) + 1):
        for b in range(min(b_all, draws - g) + 1):
            for r in range(min(r_all, draws - g - b) + 1):
                p = draws - g - b - r
                if p > p_all:
                    continue
                ways = comb(g_all, g) * comb(b_all, b) * comb(r_all, r) * comb(p_all, p)
                if ways:
                    found.append((Gems(g, b, r, p), ways / total))
    return tuple(found)


def affordable_items(state: TowerState, seat: int, gems: Gems) -> tuple[str, ...]:
    """Spaces ("3b clay") holding a needed material that `gems` could pay for exactly,
    at any stall in play (whoever stands there now)."""
    player = state.players[seat]
    found = []
    for stall in state.stalls:
        for i, slot in enumerate(stall.slots):
            if slot.material and wants(state, player, slot.material) and ways_to_pay(slot.price, gems):
                found.append(f"{stall.number}{'abcdefghij'[i]} {slot.material}")
    return tuple(found)


def chance_to_afford(state: TowerState, seat: int, draws: int) -> float:
    """The chance that after `draws` more gems from the bag the player can pay for at least
    one needed material on the markets (occupancy aside: stalls change hands between turns)."""
    player = state.players[seat]
    return sum(
        p for hand, p in draw_odds(state.bag, draws) if affordable_items(state, seat, player.gems + hand)
    )
