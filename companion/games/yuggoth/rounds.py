"""The round (minimal base game with the map's machinery in its place):

Gather Power -> First Player -> Doom Phase (the Watcher Decays; Doom for Gates; Rituals;
the Watcher Awakens) -> Action Phase (the Watcher Attacks; then the players' turns).
The game ends at the end of a Doom Phase in which a faction has 30 Doom or the Ritual
track reached its end.
"""

from __future__ import annotations

from dataclasses import replace

from .control import counts_as_gates, income, logged
from .state import (
    AWAKENING,
    DECAY,
    DOOM_TO_WIN,
    FIRST_PLAYER,
    OVER,
    RITUALS,
    YuggothState,
)
from .turns import begin_turns
from .watcher import awaken, awakening_areas, begin_attacks, doom_moved, may_awaken


def gather_power(state: YuggothState) -> YuggothState:
    """Every faction's Power is its income; Captured Cultists are Sacrificed and go home."""
    factions = list(state.factions)
    for seat, f in enumerate(factions):
        factions[seat] = replace(f, power=sum(n for _, n in income(state, seat)), captives=(), out=False)
    for f in state.factions:
        for c in f.captives:
            if c.kind == "acolyte":
                owner = factions[c.owner]
                factions[c.owner] = replace(owner, pool=owner.pool + 1)
    state = replace(state, factions=tuple(factions))
    powers = ", ".join(f"{f.name} {f.power}" for f in factions)
    state = logged(state, f"Gather Power: {powers}")
    return choose_first_or_ask(state)


def first_player_candidates(state: YuggothState) -> tuple[int, ...]:
    """The factions with the most Power (base game: the First Player breaks a tie)."""
    most = max(f.power for f in state.factions)
    return tuple(seat for seat in state.order() if state.factions[seat].power == most)


def choose_first_or_ask(state: YuggothState) -> YuggothState:
    tied = first_player_candidates(state)
    if len(tied) == 1:
        return set_first(state, tied[0])
    # The previous First Player chooses among the tied factions.
    return replace(state, step=FIRST_PLAYER, current=state.first)


def set_first(state: YuggothState, seat: int) -> YuggothState:
    state = logged(replace(state, first=seat), f"{state.factions[seat].name} is First Player")
    return begin_doom(state)


def begin_doom(state: YuggothState) -> YuggothState:
    """Doom Phase: a Watcher awake before it begins Decays first (a CHANCE roll)."""
    state = replace(state, watcher=replace(state.watcher, died_this_doom=False))
    if state.watcher.awake:
        return replace(state, step=DECAY)
    return doom_for_gates(state)


def add_doom(state: YuggothState, seat: int, amount: int) -> YuggothState:
    before = state.factions[seat].doom
    factions = list(state.factions)
    factions[seat] = replace(factions[seat], doom=before + amount)
    return doom_moved(replace(state, factions=tuple(factions)), seat, before)


def doom_for_gates(state: YuggothState) -> YuggothState:
    """Each faction gains 1 Doom per Controlled Gate; then the Rituals, in turn order."""
    for seat in state.order():
        gates = counts_as_gates(state, seat)
        if gates:
            state = add_doom(state, seat, gates)
    order = state.order()
    return replace(state, step=RITUALS, pending=order, current=order[0])


def ritual_cost(state: YuggothState) -> int:
    """The next Ritual's cost, or -1 once the track is at its end (Instant Death)."""
    return state.ritual_track[state.rituals] if state.rituals < len(state.ritual_track) else -1


def perform_ritual(state: YuggothState) -> YuggothState:
    """Ritual of Annihilation (base game): Doom per Gate, an Elder Sign per Great Old One."""
    seat = state.current
    cost = ritual_cost(state)
    f = state.factions[seat]
    goos = sum(f.goo for f in state.placed(seat))
    factions = list(state.factions)
    factions[seat] = replace(f, power=f.power - cost, elder_signs=f.elder_signs + goos)
    state = replace(state, factions=tuple(factions), rituals=state.rituals + 1)
    gates = counts_as_gates(state, seat)
    state = logged(state, f"{f.name} performs a Ritual for {cost}: {gates} Doom, {goos} Elder Signs")
    return next_ritual(add_doom(state, seat, gates))


def next_ritual(state: YuggothState) -> YuggothState:
    pending = state.pending[1:]
    if pending:
        return replace(state, pending=pending, current=pending[0])
    return end_doom(replace(state, pending=()))


def game_over(state: YuggothState) -> str:
    """Why the game ends now, or "" (checked at the end of the Doom Phase)."""
    top = max(f.doom for f in state.factions)
    if top >= DOOM_TO_WIN:
        return f"a Doom marker reached {DOOM_TO_WIN}"
    if state.rituals >= len(state.ritual_track):
        return "the Ritual track reached Instant Death"
    return ""


def end_doom(state: YuggothState) -> YuggothState:
    """After every Ritual: the end of the game, or the Watcher's Awakening, then the Actions.

    Yuggoth: "At the end of the Doom Phase, after all players have had a chance to perform
    a Ritual of Annihilation and if there is a Controlled Gate in any Green Pyramid Area,
    roll a die."
    """
    why = game_over(state)
    if why:
        return logged(replace(state, step=OVER), f"The game ends: {why}")
    if may_awaken(state):
        if state.watcher.marker_passed:
            return begin_action_phase(awaken(state, "a Doom marker passed its token"))
        if awakening_areas(state):
            return replace(state, step=AWAKENING)
    return begin_action_phase(state)


def begin_action_phase(state: YuggothState) -> YuggothState:
    """If the Watcher is awake it Attacks before the First Player's first turn."""
    if state.watcher.awake:
        return begin_attacks(state)
    return begin_turns(state)
