"""The score sheet: each faction's Doom, and its face-down Elder Signs (not yet Doom)."""

from __future__ import annotations

from ..base import ScoreSheet, ScoreSource, Standing
from .control import counts_as_gates
from .state import DOOM_TO_WIN, OVER, YuggothState

BASE = "Cthulhu Wars base game (the companion's minimal model, docs/yuggoth.md)"


def score(state: YuggothState) -> ScoreSheet:
    seats = range(len(state.factions))
    doom = tuple(f.doom for f in state.factions)
    gates = tuple(counts_as_gates(state, s) for s in seats)
    signs = tuple(f.elder_signs for f in state.factions)
    doom_why = "; ".join(
        f"{f.name} {f.doom} Doom ({gates[s]} Gates: +{gates[s]} per Doom Phase and per Ritual)"
        for s, f in enumerate(state.factions)
    )
    sources = (
        ScoreSource(name="Doom track", rule=f"{BASE}: Doom", measures=doom, points=doom, why=doom_why),
        ScoreSource(
            name="Elder Signs (face down)",
            rule=f"{BASE}: Elder Signs",
            measures=signs,
            points=(0,) * len(signs),
            why="each is worth 1-3 Doom once turned in ('elder sign N'); until then they count nothing here",
        ),
    )
    order = sorted(seats, key=lambda s: (-doom[s], s))
    standings = []
    for place, seat in enumerate(order, start=1):
        note = f"{signs[seat]} Elder Signs face down" if signs[seat] else ""
        if any(doom[o] == doom[seat] for o in seats if o != seat):
            tie = "tied on Doom: the base game's tie-breaks are not modelled, seat order shown"
            note = f"{note}; {tie}" if note else tie
        if doom[seat] >= DOOM_TO_WIN:
            note = f"{note}; reached {DOOM_TO_WIN} Doom" if note else f"reached {DOOM_TO_WIN} Doom"
        standings.append(Standing(seat=seat, place=place, total=doom[seat], note=note))
    return ScoreSheet(sources=sources, standings=tuple(standings), final=state.step == OVER)
