"""The Royal Guard: stealing from Salil, wanted cards, the hunt, arrest, jail and release.

Tower: The Royal Guard. The start-of-action-phase steps (release, steal, clear your
name) come before any other action; the hunt die is rolled at the end of each player's
turn while anyone is wanted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from .blackmarket import handfuls
from .flow import next_turn, with_player
from .gems import COLOURS, Gems, any_gems, one
from .moves import ClearName, Release, Steal
from .state import REWARD, TowerState

RULEBOOK = "Tower rulebook"
GUARD_RULE = f"{RULEBOOK}: The Royal Guard"
STEAL = 2  # "you may steal any two gems from Salil's current supply"
BAIL = 3  # "you must pay three gems to be released from jail"
CLEAR_PRICE = one("red")  # "'clear your name' ... by paying Salil one red gem"


def release_moves(state: TowerState) -> tuple[Release, ...]:
    """Every three gems the prisoner can pay; with fewer, all they hold (ASSUMED)."""
    held = state.current.gems
    if held.gems < BAIL:
        return (Release(Gems(held.green, held.blue, held.red)),)
    return tuple(Release(paid) for paid in any_gems(BAIL, held))


def start_moves(state: TowerState) -> Iterator[Steal | ClearName]:
    """At the start of the action phase: steal two gems (not when wanted), or clear your name."""
    me = state.current
    if not state.variants.royal_guard or state.turn.opened:
        return
    if me.wanted:
        if me.gems.covers(CLEAR_PRICE):
            yield ClearName()
    elif state.salil.gems >= STEAL:
        for taken in handfuls(state.salil, STEAL, COLOURS):
            yield Steal(taken)


def apply_release(state: TowerState, move: Release) -> TowerState:
    me = state.current
    state = replace(state, salil=state.salil + move.paid)
    return with_player(state, state.turn.seat, replace(me, gems=me.gems - move.paid, jailed=False))


def apply_steal(state: TowerState, move: Steal) -> TowerState:
    """Two gems from Salil earn a wanted card; "your turn will continue as normal"."""
    me = state.current
    state = replace(state, salil=state.salil - move.taken, turn=replace(state.turn, opened=True))
    return with_player(state, state.turn.seat, replace(me, gems=me.gems + move.taken, wanted=True))


def apply_clear(state: TowerState) -> TowerState:
    me = state.current
    state = replace(state, salil=state.salil + CLEAR_PRICE, turn=replace(state.turn, opened=True))
    return with_player(state, state.turn.seat, replace(me, gems=me.gems - CLEAR_PRICE, wanted=False))


def hunt(state: TowerState, face: int) -> TowerState:
    """The guard rushes to stall `face`. A wanted player whose meeple is there is arrested:
    to jail with the guard, the wanted card discarded; an opponent's roll earns that
    opponent one gem per arrest (a REWARD draw)."""
    roller = state.turn.seat
    arrested = [s for s, p in enumerate(state.players) if p.wanted and p.stall == face]
    for seat in arrested:
        player = state.players[seat]
        state = with_player(state, seat, replace(player, wanted=False, jailed=True, stall=0))
    state = replace(state, guard=0 if arrested else face)
    rewards = sum(1 for seat in arrested if seat != roller)
    if rewards:
        return replace(state, turn=replace(state.turn, step=REWARD, count=rewards))
    return next_turn(state)
