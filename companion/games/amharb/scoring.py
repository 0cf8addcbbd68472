"""Am'harb final scoring: altar resolution and the winner."""

from __future__ import annotations

from ..base import ScoreSheet, ScoreSource, Standing
from .board import geometry, space_name
from .state import INFLUENCE, OVER, AmharbState

RULEBOOK = "Towers of Am'harb rulebook"
ALTAR_RESOLUTION = f"{RULEBOOK}: Scoring, Altar Resolution"
HASTUR = f"{RULEBOOK}: Cosmic Power List, 7. Hastur"
CTHUGHA = f"{RULEBOOK}: Cosmic Power List, 6. Cthugha"
DETERMINE_WINNER = f"{RULEBOOK}: Scoring, Determine Winner"


def influence(state: AmharbState, altar: int) -> tuple[int, ...]:
    """Each seat's influence on an altar: 3 per priest and 1 per cultist on the surrounding
    spaces (a stacked space gives all its disciples' influence), plus 1 for a Cthugha pyre."""
    totals = [0] * len(state.players)
    for i in geometry(state.board).surrounding[altar]:
        for d in state.spaces[i].disciples:
            totals[d.seat] += INFLUENCE[d.kind]
    pyre = state.spaces[altar].pyre
    if pyre >= 0:
        totals[pyre] += 1
    return tuple(totals)


def resolve_altar(state: AmharbState, altar: int) -> ScoreSource:
    space = state.spaces[altar]
    names = [p.name for p in state.players]
    measures = influence(state, altar)
    doom = space.doom
    label = "cursed altar" if space.cursed else "altar"
    shown = f"{doom:+d}" if space.cursed else f"{doom}"
    name = f"{label} {space_name(altar)} ({shown} Doom)"
    best = max(measures)
    rule = ALTAR_RESOLUTION
    if best == 0:
        # The rulebook is silent on an altar nobody influences; nobody controls it (docs/decisions.md).
        winners: list[int] = []
        why = "nobody has influence here: nobody scores it"
    else:
        winners = [seat for seat, value in enumerate(measures) if value == best]
        if len(winners) == 1:
            why = f"{names[winners[0]]} has the most influence ({best})"
        else:
            tied = " and ".join(names[s] for s in winners)
            hastur = [s for s in winners if state.players[s].cult == "hastur"]
            books = any(state.spaces[i].book for i in geometry(state.board).surrounding[altar])
            if hastur and books:
                winners = hastur
                rule = HASTUR
                why = f"{tied} tie on {best}; a Book tile is beside it, so only {names[hastur[0]]} scores"
            else:
                why = f"{tied} tie on {best}: all tied players score"
    if space.pyre >= 0:
        why += f" (includes {names[space.pyre]}'s pyre, +1: {CTHUGHA})"
    points = tuple(doom if seat in winners else 0 for seat in range(len(state.players)))
    return ScoreSource(name=name, rule=rule, measures=measures, points=points, why=why)


def score(state: AmharbState) -> ScoreSheet:
    """Every altar resolved (provisionally while the game goes on) and the standings.

    Ties on Doom go to the smallest cult number, i.e. the earlier seat (Determine Winner).
    """
    sources = tuple(resolve_altar(state, i) for i, space in enumerate(state.spaces) if space.is_altar)
    totals = [sum(s.points[seat] for s in sources) for seat in range(len(state.players))]
    order = sorted(range(len(state.players)), key=lambda seat: (-totals[seat], seat))
    standings = []
    for place, seat in enumerate(order, start=1):
        tied = [s for s in order if totals[s] == totals[seat] and s != seat]
        note = ""
        if tied:
            note = f"tie on {totals[seat]} Doom broken by cult number ({DETERMINE_WINNER})"
        standings.append(Standing(seat=seat, place=place, total=totals[seat], note=note))
    return ScoreSheet(sources=sources, standings=tuple(standings), final=state.phase == OVER)
