"""Arkhanos scoring: finished floors (Step 3), the end of the game and the winner (Game Over)."""

from __future__ import annotations

from ..base import ScoreSheet, ScoreSource, Standing
from .state import CENTRAL, INFLUENCE, OVER, TOWERS, ArkhanosState, Floor, FloorScore, Values

RULEBOOK = "Towers of Arkhanos rulebook"
TALLY = f"{RULEBOOK}: Step 3: Tally Up the Points"
PILLAR_BONUS = f"{RULEBOOK}: Phase 2: Get the Pillar Sonus"
GAME_OVER = f"{RULEBOOK}: Game Over"
END_FLOORS = Values(most=3, second=2, tie=1)
"""Game Over: most influence on an incomplete floor 3, second-most 2, tied 1 each."""


def influence(floor: Floor, seats: int) -> tuple[int, ...]:
    """Each seat's influence on a floor: apprentices 1, masters 2 (Step 3), whether beside a
    die or standing on a pillar of their own."""
    totals = [0] * seats
    for pillar in floor.pillars:
        if pillar.meeple is not None:
            totals[pillar.meeple.seat] += INFLUENCE[pillar.meeple.kind]
    return tuple(totals)


def meeples_on(floor: Floor, seats: int) -> tuple[int, ...]:
    counts = [0] * seats
    for pillar in floor.pillars:
        if pillar.meeple is not None:
            counts[pillar.meeple.seat] += 1
    return tuple(counts)


def award(measures: tuple[int, ...], values: Values, names: tuple[str, ...]) -> tuple[tuple[int, ...], str]:
    """Points for the highest and second-highest influence, with the rulebook's ties.

    Arkhanos: Step 3 — "In the event of a tie for most or second-most influence, all tied
    players earn prestige points as indicated in the 'tie' section. However, if two players
    have the same highest influence, the player with the second-most influence does not
    receive any prestige points." A player with no influence is never ranked.
    """
    points = [0] * len(measures)
    levels = sorted({m for m in measures if m > 0}, reverse=True)
    if not levels:
        return tuple(points), "nobody has influence here: nobody scores"

    def who(value: int) -> list[int]:
        return [seat for seat, m in enumerate(measures) if m == value]

    def listed(seats: list[int]) -> str:
        return " and ".join(names[s] for s in seats)

    first = who(levels[0])
    if len(first) > 1:
        for seat in first:
            points[seat] = values.tie
        why = f"{listed(first)} tie for most influence ({levels[0]}): {values.tie} each; nobody scores second"
        return tuple(points), why
    points[first[0]] = values.most
    why = f"{names[first[0]]} has the most influence ({levels[0]}): {values.most}"
    if len(levels) > 1:
        second = who(levels[1])
        if len(second) > 1:
            for seat in second:
                points[seat] = values.tie
            why += f"; {listed(second)} tie for second ({levels[1]}): {values.tie} each"
        else:
            points[second[0]] = values.second
            why += f"; {names[second[0]]} is second ({levels[1]}): {values.second}"
    return tuple(points), why


def floor_values(state: ArkhanosState, tower: int) -> Values:
    """Step 3: "the floors on the central tower fetch fewer points" (the mana pool board)."""
    return state.central_values if tower == CENTRAL else state.outer_values


def score_floor(state: ArkhanosState, tower: int, floor: Floor) -> FloorScore:
    return FloorScore(tower, floor.level, state.round, influence(floor, len(state.players)))


def tower_title(tower: int) -> str:
    return "central tower M" if tower == CENTRAL else f"outer tower {TOWERS[tower]}"


def score(state: ArkhanosState) -> ScoreSheet:
    """Every prestige source so far, plus the end scoring as it would stand now."""
    n = len(state.players)
    names = tuple(p.name for p in state.players)
    final = state.step == OVER
    sources = []
    for f in state.scored:
        points, why = award(f.influence, floor_values(state, f.tower), names)
        sources.append(
            ScoreSource(
                name=f"{tower_title(f.tower)}, floor {f.level} (finished in round {f.round})",
                rule=TALLY,
                measures=f.influence,
                points=points,
                why=why,
            )
        )
    pillars = tuple(p.pillar_prestige for p in state.players)
    sources.append(
        ScoreSource(
            "'Get 2 Prestige' pillars",
            PILLAR_BONUS,
            tuple(v // 2 for v in pillars),
            pillars,
            "2 Prestige for each die placed on such a pillar (measure: dice)",
        )
    )
    floors = tuple(p.floor_prestige for p in state.players)
    sources.append(
        ScoreSource(
            "'Prestige from the Floor' pillars",
            PILLAR_BONUS,
            floors,
            floors,
            "as much Prestige as the floor's number, for each die placed on such a pillar",
        )
    )
    when = "" if final else " if the game ended now"
    for index, tower in enumerate(state.towers):
        if tower.top is None:
            continue
        measures = influence(tower.top, n)
        points, why = award(measures, END_FLOORS, names)
        sources.append(
            ScoreSource(
                name=f"{tower_title(index)}, floor {tower.top.level} (incomplete)",
                rule=f"{GAME_OVER} (most influence 3, second 2, tied 1 each)",
                measures=measures,
                points=points,
                why=why + when,
            )
        )
    book = tuple(p.in_spellbook for p in state.players)
    sources.append(
        ScoreSource(
            "meeples in the spellbook", GAME_OVER, book, book, f"1 Prestige per meeple on a spell{when}"
        )
    )
    return ScoreSheet(tuple(sources), standings(state, sources), final)


def top_floor_meeples(state: ArkhanosState) -> tuple[int, ...]:
    """Game Over, second tie-breaker: meeples on the top floors of the towers."""
    n = len(state.players)
    counts = [0] * n
    for tower in state.towers:
        if tower.top is not None:
            for seat, c in enumerate(meeples_on(tower.top, n)):
                counts[seat] += c
    return tuple(counts)


def standings(state: ArkhanosState, sources: list[ScoreSource]) -> tuple[Standing, ...]:
    """Most prestige; ties go to the most meeples in the spellbook, then the most meeples on
    the towers' top floors; still tied, the players share the place (Game Over)."""
    n = len(state.players)
    totals = [sum(s.points[seat] for s in sources) for seat in range(n)]
    book = [p.in_spellbook for p in state.players]
    tops = top_floor_meeples(state)

    def key(seat: int) -> tuple[int, int, int]:
        return (-totals[seat], -book[seat], -tops[seat])

    order = sorted(range(n), key=lambda seat: (key(seat), seat))
    out = []
    for place, seat in enumerate(order, start=1):
        level = [s for s in range(n) if totals[s] == totals[seat] and s != seat]
        note = ""
        if level:
            tied = [s for s in level if key(s) == key(seat)]
            if tied:
                note = (
                    f"tied with {', '.join(state.players[s].name for s in tied)} on prestige, spellbook "
                    f"meeples ({book[seat]}) and top-floor meeples ({tops[seat]}): they share the place"
                )
            else:
                note = (
                    f"tie on {totals[seat]} prestige broken by spellbook meeples ({book[seat]}), "
                    f"then top-floor meeples ({tops[seat]})"
                )
        out.append(
            Standing(
                seat=seat, place=place, total=totals[seat], note=note + (f" ({GAME_OVER})" if note else "")
            )
        )
    return tuple(out)
