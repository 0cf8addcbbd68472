"""Lutfi, the automated player: where he goes, what he takes, his new cards, solo play.

Tower: Lutfi, the Automated Player; Compatibility ("If Lutfi cannot move to any market
at all, have him shop at the same stall again"). The engine resolves his turn as one
explicit move; where the players must agree (which item is "the cheapest"), every
equally cheap item is offered.
"""

from __future__ import annotations

from dataclasses import replace

from .flow import next_turn
from .gems import price_value
from .market import lutfi_needs, missing
from .moves import LutfiShop
from .state import RETURN, TowerState

RULEBOOK = "Tower rulebook"
LUTFI_RULE = f"{RULEBOOK}: Lutfi, the Automated Player"


def occupied_for_lutfi(state: TowerState, number: int) -> bool:
    """A player's meeple or an apprentice stands there. The Royal Guard leaves a stall
    "unoccupied to all players that are not wanted", and Lutfi is never wanted."""
    return any(p.stall == number for p in state.players) or any(a.stall == number for a in state.apprentices)


def destination(state: TowerState) -> int:
    """ "move Lutfi clockwise to the nearest, unoccupied shop" (clockwise: ascending numbers,
    ASSUMED); with none free, the same stall again (Compatibility)."""
    lutfi = state.lutfi
    assert lutfi is not None
    numbers = [s.number for s in state.stalls]
    here = numbers.index(lutfi.stall) if lutfi.stall in numbers else -1
    for step in range(1, len(numbers) + 1):
        number = numbers[(here + step) % len(numbers)]
        if number != lutfi.stall and not occupied_for_lutfi(state, number):
            return number
    return lutfi.stall


def lutfi_moves(state: TowerState) -> tuple[LutfiShop, ...]:
    """The cheapest needed item at his next stall, every one of them when prices tie (the
    players agree; prices are ranked by Salil's rates, ASSUMED), or lying down."""
    to = destination(state)
    needs = set(lutfi_needs(state))
    stall = state.stall(to)
    candidates = [
        (price_value(slot.price), i, slot.material)
        for i, slot in enumerate(stall.slots)
        if slot.material in needs
    ]
    if not candidates:
        return (LutfiShop(to),)
    cheapest = min(value for value, _, _ in candidates)
    return tuple(LutfiShop(to, i, material) for value, i, material in candidates if value == cheapest)


def apply_lutfi(state: TowerState, move: LutfiShop) -> TowerState:
    lutfi = state.lutfi
    assert lutfi is not None
    if move.slot < 0:
        # "lay Lutfi down flat until his next turn, indicating that the shop is now unoccupied".
        return next_turn(replace(state, lutfi=replace(lutfi, stall=move.stall, standing=False)))
    stalls = tuple(s.with_material(move.slot, "") if s.number == move.stall else s for s in state.stalls)
    taken = tuple(sorted(lutfi.materials + (move.material,)))
    lutfi = replace(lutfi, stall=move.stall, standing=True, materials=taken)
    state = replace(state, stalls=stalls, lutfi=lutfi)
    if not missing(state.card_of(lutfi.card), taken):
        # "Each time Lutfi collects all the materials on his build card, put all of the materials back".
        lutfi = replace(lutfi, materials=())
        return replace(state, lutfi=lutfi, turn=replace(state.turn, step=RETURN, returns=taken))
    return next_turn(state)


def place_lutfi(state: TowerState, face: int) -> TowerState:
    """ "At the start of the game, roll the die and place Lutfi on the market tile that matches"
    (standing: ASSUMED, the stall is occupied until his first turn)."""
    lutfi = state.lutfi
    assert lutfi is not None
    return replace(state, lutfi=replace(lutfi, stall=face, standing=True))
