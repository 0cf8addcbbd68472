"""Tower's score sheet: tower segments built, and who won.

Endgame: "The first player to build three tower segments is the winner!" There are no
points otherwise; the sheet counts segments (one point each) and, while the game goes
on, shows how far each player's current build card is.
"""

from __future__ import annotations

from ..base import ScoreSheet, ScoreSource, Standing
from .market import open_places
from .state import LUTFI_WON, NO_WINNER, OVER, SEGMENTS_TO_WIN, TowerState

RULEBOOK = "Tower rulebook"
ENDGAME = f"{RULEBOOK}: Endgame"
BUILD_PHASE = f"{RULEBOOK}: How to Play, build phase"
SOLO = f"{RULEBOOK}: Lutfi, Solo Play"


def score(state: TowerState) -> ScoreSheet:
    names = [p.name for p in state.players]
    segments = tuple(p.segments for p in state.players)
    built = ", ".join(f"{name} {n}" for name, n in zip(names, segments))
    why = f"one point per tower segment on the palace: {built}"
    if state.lutfi and state.seats == 1:
        why += f"; Lutfi has {state.lutfi.segments} (he wins on {state.variants.lutfi_wins_at})"
    collected = tuple(
        len(state.card_of(p.card)) - max(0, open_places(state, p)) if p.card else 0 for p in state.players
    )
    progress = ", ".join(
        f"{name} {n}/{len(state.card_of(p.card))}"
        for name, n, p in zip(names, collected, state.players)
        if p.card
    )
    sources = (
        ScoreSource(name="Tower segments", rule=ENDGAME, measures=segments, points=segments, why=why),
        ScoreSource(
            name="Current build card",
            rule=BUILD_PHASE,
            measures=collected,
            points=tuple(0 for _ in names),
            why=f"materials collected for the card in hand (no points): {progress or 'no cards in hand'}",
        ),
    )
    order = sorted(range(len(names)), key=lambda seat: (-segments[seat], seat))
    standings = []
    for place, seat in enumerate(order, start=1):
        note = ""
        if state.winner == seat:
            note = f"built the third segment first: wins ({ENDGAME})"
        elif state.winner == LUTFI_WON:
            built_by_lutfi = state.lutfi.segments if state.lutfi else 0
            note = f"Lutfi built {built_by_lutfi} segments first: Lutfi wins ({SOLO})"
        elif state.winner == NO_WINNER and segments[seat] < SEGMENTS_TO_WIN:
            left = SEGMENTS_TO_WIN - segments[seat]
            note = f"{left} segment{'s' if left > 1 else ''} to go"
        standings.append(Standing(seat=seat, place=place, total=segments[seat], note=note))
    return ScoreSheet(sources=sources, standings=tuple(standings), final=state.turn.step == OVER)
