"""Who controls what, who is where, and what the map pays: pure questions about a state.

Minimal base game (docs/yuggoth.md): a faction Controls a Gate while one of its
Cultists (an Acolyte or a Brain Cylinder) is in the Gate's Area; without one the Gate
is Abandoned until a faction with a Cultist there takes Control.
"""

from __future__ import annotations

from dataclasses import replace

from .board import RULEBOOK
from .setup import data
from .state import ABANDONED, NO_GATE, SLIME, Force, YuggothState

OPENER = "opener-of-the-way"
BLACK_GOAT = "black-goat"
CRAWLING_CHAOS = "crawling-chaos"
FERTILITY_CULT = "fertility-cult"
FRENZY = "frenzy"
SPELLBOOKS = {FERTILITY_CULT: BLACK_GOAT, FRENZY: BLACK_GOAT}
"""The Spellbooks the map's rules mention, and whose they are."""

LABORATORY = f"{RULEBOOK}: The Laboratory"
SLIME_SEAS = f"{RULEBOOK}: The Slime Seas"


def goo_name(state: YuggothState, seat: int) -> str:
    return str(data()["factions"][state.factions[seat].faction]["goo"])


def opener_seat(state: YuggothState) -> int:
    return state.seat_of(OPENER)


def yog_sothoth_in(state: YuggothState, area: str) -> bool:
    """Yog-Sothoth (the Opener's Great Old One) stands in `area`."""
    seat = opener_seat(state)
    return seat >= 0 and state.force(area, seat).goo > 0


def slime_controller(state: YuggothState) -> int:
    return state.memo("slime_controller", lambda: _slime_controller(state))


def _slime_controller(state: YuggothState) -> int:
    """The seat that controls every Slime Mold (and may Call them), or -1: uncontrolled.

    Yuggoth: The Slime Seas - the Faction that Controls a Gate in the Overlook controls
    all Slime Molds; Yog-Sothoth in the Overlook may Call them, but "a normal Gate in the
    Overlook takes precedence over Yog-Sothoth" when another Faction Controls it. We take
    the Opener to control the Slimes whenever Yog-Sothoth is the one who may Call them.
    """
    overlook = state.board.overlook
    if not overlook:
        return -1
    gate = state.gate(overlook)
    if gate >= 0:
        return gate
    if yog_sothoth_in(state, overlook):
        return opener_seat(state)
    return -1


def slimes_of(state: YuggothState, seat: int, area: str) -> int:
    """Slime Molds in `area` that belong to `seat` (they follow the Overlook Gate)."""
    return state.slimes_in(area) if seat >= 0 and slime_controller(state) == seat else 0


def neutral_slimes(state: YuggothState, area: str) -> int:
    return state.slimes_in(area) if slime_controller(state) < 0 else 0


def count(state: YuggothState, seat: int, area: str, kind: str) -> int:
    """A seat's Units of one kind in an Area, its Slime Molds included."""
    if kind == SLIME:
        return slimes_of(state, seat, area)
    return state.force(area, seat).count(kind)


def units_of(state: YuggothState, seat: int, area: str) -> int:
    """Every Unit `seat` has in `area` (Brain Cylinders and controlled Slime Molds too)."""
    return state.force(area, seat).total + slimes_of(state, seat, area)


def blocking(state: YuggothState, seat: int, area: str) -> bool:
    """`seat` has Units in `area` that stop enemies being Pained there.

    Yuggoth: Brain Cylinders - "Brain Cylinders by themselves do NOT prevent Units from
    being Pained into their Areas" and "cannot surround".
    """
    return units_of(state, seat, area) > state.force(area, seat).cylinders


def factions_in(state: YuggothState, area: str) -> tuple[int, ...]:
    """Seats with Units in `area`, in seat order."""
    return tuple(seat for seat in range(len(state.factions)) if units_of(state, seat, area))


def any_faction_units(state: YuggothState, area: str) -> bool:
    """Some faction has Units here (uncontrolled Slime Molds belong to none)."""
    return bool(factions_in(state, area))


def cylinders_in_play(state: YuggothState, seat: int) -> int:
    """On the map, or Captured on another faction's card (the token is not back yet)."""
    on_map = sum(f.cylinders for f in state.placed(seat))
    held = sum(1 for f in state.factions for c in f.captives if c.owner == seat and c.kind == "cylinder")
    return on_map + held


def slimes_in_play(state: YuggothState) -> int:
    return sum(state.slimes)


def has_spellbook(state: YuggothState, seat: int, name: str) -> bool:
    return name in state.factions[seat].spellbooks


def laboratory_surgeons(state: YuggothState) -> tuple[int, ...]:
    """Seats that may perform Surgery now (Yuggoth: The Laboratory).

    The controller of a Laboratory Gate; Yog-Sothoth in a Laboratory lets the Opener too
    ("both Factions may perform Surgery").
    """
    seats: list[int] = []
    for lab in state.board.laboratories:
        gate = state.gate(lab)
        if gate >= 0:
            seats.append(gate)
        if yog_sothoth_in(state, lab):
            seats.append(opener_seat(state))
    return tuple(sorted(set(seats)))


def gates_controlled(state: YuggothState, seat: int) -> tuple[str, ...]:
    return tuple(a for a, g in zip(state.board.areas, state.gates) if g == seat)


def counts_as_gates(state: YuggothState, seat: int) -> int:
    """Controlled Gates, with Yog-Sothoth counted as the Opener's Gate (base game, assumed)."""
    yog = 1 if state.factions[seat].faction == OPENER and any(f.goo for f in state.placed(seat)) else 0
    return len(gates_controlled(state, seat)) + yog


def income(state: YuggothState, seat: int) -> tuple[tuple[str, int], ...]:
    """Gather Power for one seat, line by line with the reason.

    Yuggoth: The Green Pyramid - Controlled Gates there produce 3 Power instead of 2,
    Yog-Sothoth 3 in a Pyramid Area; Abandoned Gates still 1 for all Factions.
    Base game (minimal model): 1 per Cultist (Brain Cylinders too), 2 per Controlled
    Gate, 1 per Abandoned Gate to every faction, 1 per Captured Cultist Sacrificed.
    """
    board = state.board
    lines: list[tuple[str, int]] = []
    cultists = sum(f.cultists for f in state.placed(seat))
    if cultists:
        lines.append((f"{cultists} Cultists (Brain Cylinders earn like Acolytes)", cultists))
    for area, gate in zip(board.areas, state.gates):
        if gate == seat:
            if area in board.pyramid_areas:
                lines.append((f"Gate on {area}: Green Pyramid, 3 instead of 2", 3))
            else:
                lines.append((f"Gate on {area}", 2))
        elif gate == ABANDONED:
            lines.append((f"Abandoned Gate on {area}: 1 for every faction", 1))
    if state.factions[seat].faction == OPENER:
        for area in board.areas:
            if state.force(area, seat).goo:
                if area in board.pyramid_areas:
                    lines.append((f"Yog-Sothoth on {area}: Green Pyramid, 3", 3))
                else:
                    lines.append((f"Yog-Sothoth on {area}", 2))
    captives = len(state.factions[seat].captives)
    if captives:
        lines.append((f"{captives} Captured Cultists Sacrificed", captives))
    return tuple(lines)


def settle_gates(state: YuggothState) -> YuggothState:
    """Gates whose controller has no Cultist left in their Area become Abandoned."""
    gates = list(state.gates)
    log = list(state.log)
    for i, (area, gate) in enumerate(zip(state.board.areas, state.gates)):
        if gate >= 0 and state.force(area, gate).cultists == 0:
            gates[i] = ABANDONED
            log.append(f"The Gate on {area} is Abandoned: {state.factions[gate].name} has no Cultist there")
            if area == state.board.overlook and slime_controller(state) == gate:
                log.append("The Slime Molds follow the Overlook Gate")
    if gates == list(state.gates):
        return state
    return replace(state, gates=tuple(gates), log=tuple(log[-8:]))


def with_force(state: YuggothState, area: str, seat: int, force: Force) -> YuggothState:
    """The state with `seat`'s Units in `area` replaced (entries stay in map and seat order)."""
    force = replace(force, area=area, seat=seat)
    others = [f for f in state.units if (f.area, f.seat) != (area, seat)]
    if force.total:
        others.append(force)
    index = state.area_index
    return replace(state, units=tuple(sorted(others, key=lambda f: (index(f.area), f.seat))))


def add_unit(state: YuggothState, area: str, seat: int, kind: str, n: int = 1) -> YuggothState:
    """Add (or with negative `n`, remove) Units; Slime Molds are counted per Area."""
    if kind == SLIME:
        i = state.area_index(area)
        slimes = state.slimes[:i] + (state.slimes[i] + n,) + state.slimes[i + 1 :]
        return replace(state, slimes=slimes)
    return with_force(state, area, seat, state.force(area, seat).add(kind, n))


def with_gate(state: YuggothState, area: str, value: int) -> YuggothState:
    i = state.area_index(area)
    return replace(state, gates=state.gates[:i] + (value,) + state.gates[i + 1 :])


def logged(state: YuggothState, *lines: str) -> YuggothState:
    """Add lines to the short log the page shows (the last 8 are kept)."""
    return replace(state, log=(*state.log, *lines)[-8:])


def gate_word(state: YuggothState, area: str) -> str:
    gate = state.gate(area)
    if gate == NO_GATE:
        return "no Gate"
    if gate == ABANDONED:
        return "an Abandoned Gate"
    return f"{state.factions[gate].name}'s Gate"
