"""The Watcher of the Green Pyramid: Awakening, Decay, its Attacks, death and reset."""

from __future__ import annotations

from dataclasses import replace

from .battle import start_battle
from .board import RULEBOOK
from .control import any_faction_units, factions_in, logged, yog_sothoth_in
from .moves import WatcherAttacks, WatcherStays, WatcherTo
from .state import BATTLE, WATCHER_ATTACK, WATCHER_SIDE, WATCHER_START, Watcher, YuggothState
from .turns import begin_turns

AWAKENS = f"{RULEBOOK}: Doom Phase - The Watcher Awakens"
DECAYS = f"{RULEBOOK}: The Watcher Decays"
ATTACKS = f"{RULEBOOK}: Action Phase - The Watcher Attacks"
CONTROLLING = f"{RULEBOOK}: Controlling the Watcher"


def awakening_areas(state: YuggothState) -> tuple[tuple[str, int, str], ...]:
    """Green Pyramid Areas that count for the Awakening roll: (Area, number, why).

    Yuggoth: a Controlled Gate there, or Yog-Sothoth's presence "even if a normal Gate is
    not Controlled in the same Area". An Abandoned Gate does not count.
    """
    found = []
    for area, number in state.board.pyramid:
        gate = state.gate(area)
        if gate >= 0:
            found.append((area, number, f"{state.factions[gate].name} controls the Gate"))
        elif yog_sothoth_in(state, area):
            found.append((area, number, "Yog-Sothoth is there"))
    return tuple(found)


def awakening_numbers(state: YuggothState) -> tuple[int, ...]:
    return tuple(sorted({number for _, number, _ in awakening_areas(state)}))


def may_awaken(state: YuggothState) -> bool:
    """Asleep, not killed earlier in this Doom Phase, and the map has a Watcher Postern."""
    w = state.watcher
    return not w.awake and not w.died_this_doom and bool(state.board.postern)


def awaken(state: YuggothState, why: str) -> YuggothState:
    """Flip the token to its Awakened side and place the figure on the Watcher Postern."""
    postern = state.board.postern
    watcher = replace(state.watcher, awake=True, position=WATCHER_START, area=postern, marker_passed=False)
    return logged(replace(state, watcher=watcher), f"The Watcher Awakens ({why}) on the {postern}")


def awakening_roll(state: YuggothState, value: int) -> YuggothState:
    """End of the Doom Phase: the die against the numbers of Areas with a Controlled Gate."""
    numbers = awakening_numbers(state)
    if value in numbers:
        return awaken(state, f"rolled {value}")
    shown = ", ".join(map(str, numbers))
    return logged(state, f"Rolled {value}: not {shown}, the Watcher sleeps")


def decay(state: YuggothState, value: int) -> YuggothState:
    """Lower the token by the die; at 0 the Watcher is Killed (Yuggoth: The Watcher Decays)."""
    position = state.watcher.position - value
    state = logged(state, f"The Watcher Decays by {value} to {max(0, position)}")
    if position <= 0:
        return die(state, in_doom_phase=True)
    return replace(state, watcher=replace(state.watcher, position=position))


def die(state: YuggothState, in_doom_phase: bool) -> YuggothState:
    """At 0 the figure leaves the map and the token goes back to 12, dark side up."""
    watcher = Watcher(
        marker_passed=state.watcher.marker_passed,
        died_this_doom=in_doom_phase,
    )
    return logged(replace(state, watcher=watcher), "The Watcher is Killed: its token goes back to 12, asleep")


def doom_moved(state: YuggothState, seat: int, before: int) -> YuggothState:
    """A Doom marker that passes the dark Watcher token (at 12) will awaken it.

    "Should any player's Doom Marker pass over the dark Watcher Token, flip it"; reached in
    an Action Phase, "the Watcher won't Awaken until the following Doom Phase". The
    companion awakens it at the end of the Doom Phase (same effect: it cannot Decay in the
    phase it awakens), or at the next one if it was Killed in this one.
    """
    after = state.factions[seat].doom
    if state.watcher.awake or not before < WATCHER_START <= after or state.watcher.marker_passed:
        return state
    line = f"{state.factions[seat].name}'s Doom marker passes the dark Watcher token at 12"
    return logged(replace(state, watcher=replace(state.watcher, marker_passed=True)), line)


# ---- the Attacks -------------------------------------------------------------------


def begin_attacks(state: YuggothState) -> YuggothState:
    """Awake at the start of the Action Phase: one Attack per player, the First Player's first."""
    watcher = replace(state.watcher, attackers=state.order(), targets=())
    return replace(state, watcher=watcher, step=WATCHER_ATTACK)


def destinations(state: YuggothState) -> tuple[tuple[str, ...], bool]:
    """Where the Watcher may move, and whether that is a teleport.

    Yuggoth: Controlling the Watcher - "an adjacent Area ... that contains Units belonging
    to any Faction"; with none, "teleported to any Area containing any player's Units";
    "The Watcher may never remain in the same Area."
    """
    here = state.watcher.area
    near = tuple(a for a in state.board.neighbours(here) if any_faction_units(state, a)) if here else ()
    if near:
        return near, False
    anywhere = tuple(a for a in state.board.areas if a != here and any_faction_units(state, a))
    return anywhere, True


def attack_moves(state: YuggothState) -> tuple[WatcherTo | WatcherStays | WatcherAttacks, ...]:
    w = state.watcher
    if not w.attackers or state.battle is not None:
        return ()
    if w.targets:
        return tuple(WatcherAttacks(state.factions[seat].faction) for seat in w.targets)
    areas, _ = destinations(state)
    if not areas:
        return (WatcherStays(),)
    return tuple(WatcherTo(a) for a in areas)


def move_watcher(state: YuggothState, area: str) -> YuggothState:
    _, teleport = destinations(state)
    controller = state.factions[state.watcher.attackers[0]].name
    targets = factions_in(state, area)
    watcher = replace(state.watcher, area=area, targets=targets)
    how = "teleports" if teleport else "moves"
    line = f"{controller} {how} the Watcher to {area} ({len(targets)} factions there)"
    return logged(replace(state, watcher=watcher), line)


def attack(state: YuggothState, seat: int) -> YuggothState:
    """The Watcher battles one faction in its Area, with dice equal to its token's position."""
    watcher = replace(state.watcher, targets=tuple(s for s in state.watcher.targets if s != seat))
    state = replace(state, watcher=watcher, step=BATTLE)
    return start_battle(state, watcher.area, WATCHER_SIDE, seat, then=WATCHER_ATTACK)


def next_attack(state: YuggothState) -> YuggothState:
    """After a Battle or an idle Attack: the next target, the next controller, or the turns."""
    w = state.watcher
    if not w.awake:
        return begin_turns(state)
    if w.targets:
        if len(w.targets) == 1:
            return attack(state, w.targets[0])
        return replace(state, step=WATCHER_ATTACK)
    attackers = w.attackers[1:]
    state = replace(state, watcher=replace(w, attackers=attackers), step=WATCHER_ATTACK)
    if not attackers:
        return begin_turns(state)
    return state


def stays(state: YuggothState) -> YuggothState:
    """No Area but its own holds Units: nothing to attack (the rulebook is silent; we skip)."""
    controller = state.factions[state.watcher.attackers[0]].name
    state = logged(state, f"No Area holds Units the Watcher can reach: {controller}'s Attack is lost")
    return next_attack(state)
