"""Action Phase turn order (minimal base game): one action per turn, in turn order from
the First Player, until every faction has passed or spent its Power."""

from __future__ import annotations

from dataclasses import replace

from .control import logged
from .state import ACTIONS, GATHER, YuggothState


def begin_turns(state: YuggothState) -> YuggothState:
    """The First Player takes the first turn; a faction with no Power sits the phase out."""
    factions = tuple(replace(f, out=f.power <= 0) for f in state.factions)
    state = replace(state, factions=factions, step=ACTIONS, current=state.first, turn_done=False)
    if factions[state.first].out:
        return end_turn(state)
    return state


def end_turn(state: YuggothState) -> YuggothState:
    """The next faction in turn order still in the phase acts; with none, the round ends."""
    order = state.order()
    at = order.index(state.current)
    for k in range(1, len(order) + 1):
        seat = order[(at + k) % len(order)]
        if not state.factions[seat].out and state.factions[seat].power > 0:
            return replace(state, step=ACTIONS, current=seat, turn_done=False)
    # Every faction is out: the Action Phase ends and a new round begins.
    factions = tuple(replace(f, out=False) for f in state.factions)
    state = replace(state, factions=factions, step=GATHER, current=state.first, round=state.round + 1)
    return logged(state, f"Round {state.round} begins: Gather Power")


def spend(state: YuggothState, seat: int, power: int) -> YuggothState:
    factions = list(state.factions)
    factions[seat] = replace(factions[seat], power=factions[seat].power - power)
    return replace(state, factions=tuple(factions))
