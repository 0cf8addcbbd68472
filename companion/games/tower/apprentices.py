"""The Apprentices: the stand-in, the bully and the runner.

Tower: The Apprentices - one apprentice a turn, none the turn after hiring one, and an
apprentice works for one player until the start of that player's next turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from .flow import with_player
from .gems import ways_to_pay
from .market import blockers
from .moves import Hire
from .state import APPRENTICE_COST, BULLY, STAND_IN, TowerState

RULEBOOK = "Tower rulebook"
APPRENTICE_RULE = f"{RULEBOOK}: The Apprentices"
COMPATIBILITY = f"{RULEBOOK}: Compatibility"


def occupied(state: TowerState, number: int) -> bool:
    """A meeple, an apprentice or a standing Lutfi is there (the guard aside)."""
    lutfi = state.lutfi
    return (
        any(p.stall == number for p in state.players)
        or any(a.stall == number for a in state.apprentices)
        or bool(lutfi and lutfi.standing and lutfi.stall == number)
    )


def bully_targets(state: TowerState, number: int) -> bool:
    """Someone the bully can force out: another player, an apprentice, or Lutfi - "never the
    Royal Guard" (Compatibility)."""
    seat = state.turn.seat
    lutfi = state.lutfi
    return (
        any(p.stall == number for s, p in enumerate(state.players) if s != seat)
        or any(a.stall == number and a.seat != seat for a in state.apprentices)
        or bool(lutfi and lutfi.standing and lutfi.stall == number)
    )


def hireable(state: TowerState) -> tuple[str, ...]:
    """Apprentices the current player may hire now, or () with the reason in `why_not_hire`."""
    if why_not_hire(state):
        return ()
    return tuple(a.name for a in state.apprentices if a.seat < 0)


def why_not_hire(state: TowerState) -> str:
    me = state.current
    if not state.variants.apprentices:
        return "the Apprentices are not in this game"
    if state.turn.hired:
        return f"{me.name} already hired the {state.turn.hired} this turn (one apprentice per turn)"
    if me.hired_last_turn:
        return f"{me.name} hired an apprentice last turn: all three are unavailable this turn"
    return ""


def stalls_for(state: TowerState, apprentice: str) -> tuple[int, ...]:
    seat = state.turn.seat
    me = state.current
    numbers = [s.number for s in state.stalls]
    if apprentice == STAND_IN:
        # "he will occupy an available market stall"
        return tuple(n for n in numbers if not occupied(state, n))
    if apprentice == BULLY:
        return tuple(n for n in numbers if bully_targets(state, n))
    # The runner buys at a second stall: one open to you, not the one your meeple shops at.
    return tuple(
        n
        for n in numbers
        if n not in (state.turn.visited, me.stall) and not blockers(state, seat, n, sharing=False)
    )


def hire_moves(state: TowerState) -> Iterator[Hire]:
    me = state.current
    for name in hireable(state):
        payments = ways_to_pay(APPRENTICE_COST[name], me.gems)
        for number in stalls_for(state, name):
            for paid in payments:
                yield Hire(name, number, paid)


def apply_hire(state: TowerState, move: Hire) -> TowerState:
    """Pay, take the apprentice's card, and send them: the stand-in and runner occupy the
    stall; the bully forces everyone but the guard out (Lutfi is laid down, not removed)."""
    seat = state.turn.seat
    me = state.current
    state = with_player(state, seat, replace(me, gems=me.gems - move.paid))
    at = 0 if move.apprentice == BULLY else move.stall
    apprentices = tuple(
        replace(a, seat=seat, stall=at) if a.name == move.apprentice else a for a in state.apprentices
    )
    state = replace(
        state,
        salil=state.salil + move.paid,
        apprentices=apprentices,
        turn=replace(state.turn, hired=move.apprentice, acted=True, opened=True),
    )
    if move.apprentice == BULLY:
        players = tuple(
            replace(p, stall=0) if p.stall == move.stall and s != seat else p
            for s, p in enumerate(state.players)
        )
        apprentices = tuple(
            replace(a, stall=0) if a.stall == move.stall and a.seat != seat else a for a in state.apprentices
        )
        lutfi = state.lutfi
        if lutfi and lutfi.stall == move.stall:
            lutfi = replace(lutfi, standing=False)
        state = replace(state, players=players, apprentices=apprentices, lutfi=lutfi)
    return state
