"""The table in plain lines for the phone page: towers, dice, spellbooks and what each choice gives."""

from __future__ import annotations

from ..base import CHANCE, SeatView, TableView
from .rules import chance_outcomes, meeple_kinds, placements, tile_choices, to_move
from .scoring import award, floor_values, influence, score, tower_title
from .spells import casts
from .state import (
    BONUS,
    BONUS_TITLES,
    CENTRAL,
    DRAW,
    END,
    MASTER,
    OVER,
    PLACE,
    TOWERS,
    ArkhanosState,
    Floor,
    Pillar,
)
from .tiles import new_floor, parse_entry

STEP_TITLES = {
    DRAW: "draw and roll the dice",
    PLACE: "place a die",
    BONUS: "pillar bonus",
    END: "end of turn",
}


def phase(state: ArkhanosState) -> str:
    """The named step, for the panel LEDs and the page."""
    if state.step == OVER:
        return "game over"
    if state.reveals:
        first_floor = state.towers[state.reveals[0]].built == 0
        return "set-up: starting floors" if first_floor else "new floor"
    if to_move(state) == CHANCE and state.step != DRAW:
        return "reroll"
    return STEP_TITLES[state.step]


def headline(state: ArkhanosState) -> str:
    where = f"Round {state.round} of {state.rounds}"
    if state.step == OVER:
        return f"{where} · game over"
    actor = to_move(state)
    if actor == CHANCE:
        return f"{where} · {_chance_prompt(state)}"
    return f"{where} · {state.players[state.current].name}: {phase(state)}"


def _chance_prompt(state: ArkhanosState) -> str:
    if state.reveals:
        tower = state.reveals[0]
        tiles = ", ".join(map(str, tile_choices(state)))
        return f"which tile is the new floor of {tower_title(tower)}? (one of {tiles})"
    first = chance_outcomes(state)[0][0]
    if str(first).startswith("draw"):
        drawer = state.players[state.first].name
        return f"{drawer} draws a die from the bag ({len(state.table) + 1} of {state.dice_per_round})"
    die = next(d for d in state.table if not d.number)
    return f"what does the {die.colour} die show?"


def reveal_lines(state: ArkhanosState) -> list[str]:
    """While a tile is being revealed: what each candidate shows, so the table can tell which it is."""
    if not state.reveals:
        return []
    tower = state.reveals[0]
    pool = state.starters if state.towers[tower].built == 0 else state.stack
    lines = [f"The tile for {tower_title(tower)} is one of:"]
    for entry in pool:
        tile = parse_entry(entry)
        floor = new_floor(tile, tower, 1)
        bonuses = ", ".join(BONUS_TITLES[p.bonus] for p in floor.pillars)
        takes = "any die" if tower == CENTRAL else floor.constraint.describe()
        lines.append(f"  tile {tile.id}: {takes} | {bonuses}")
    return lines


def pillar_text(name: str, pillar: Pillar, names: tuple[str, ...]) -> str:
    what = []
    if pillar.die is not None:
        what.append(str(pillar.die))
    if pillar.meeple is not None:
        owner = names[pillar.meeple.seat]
        standing = (
            "" if pillar.die is not None else " (standing on the pillar: trapped when the floor is finished)"
        )
        what.append(f"{owner} {pillar.meeple.kind}{standing}")
    return f"{name} [{BONUS_TITLES[pillar.bonus]}]: {' + '.join(what) if what else 'empty'}"


def floor_lines(state: ArkhanosState, tower: int) -> list[str]:
    t = state.towers[tower]
    names = tuple(p.name for p in state.players)
    kind = "central: any die" if tower == CENTRAL else "outer"
    trapped = f"; trapped below: {t.trapped_dice} dice, {len(t.trapped)} meeples" if t.built else ""
    if t.top is None:
        status = (
            "waiting for its next tile" if tower in state.reveals else "finished: the floor stack is empty"
        )
        return [f"Tower {TOWERS[tower]} ({kind}), {t.built} floors built: {status}{trapped}"]
    floor: Floor = t.top
    takes = "" if tower == CENTRAL else f" takes {floor.constraint.describe()}"
    lines = [f"Tower {TOWERS[tower]} floor {floor.level} (tile {floor.tile}, {kind}){takes}{trapped}"]
    lines += [
        "  " + pillar_text(f"{TOWERS[tower]}{i + 1}", pillar, names) for i, pillar in enumerate(floor.pillars)
    ]
    measures = influence(floor, len(names))
    if any(measures):
        points, why = award(measures, floor_values(state, tower), names)
        lines.append(f"  finishing it now scores: {why}")
    return lines


def placement_lines(state: ArkhanosState) -> list[str]:
    """For the current player: every die, where it fits and what the pillar gives."""
    me = state.players[state.current]
    kinds = meeple_kinds(me)
    if not kinds:
        return ["Your supply is empty: cast a spell first to free a meeple (Phase 1)."]
    by_die: dict[str, list[str]] = {}
    for move in placements(state, kinds[:1]):
        top = state.towers[move.tower].top
        assert top is not None
        bonus = BONUS_TITLES[top.pillars[move.pillar].bonus]
        by_die.setdefault(str(move.die), []).append(f"{TOWERS[move.tower]}{move.pillar + 1} ({bonus})")
    lines = [f"{die} → {', '.join(spots)}" for die, spots in by_die.items()]
    if kinds == ("",):
        lines.append("You have no meeple anywhere: the die goes alone.")
    return lines or ["No die fits any pillar: pass."]


def seat_lines(state: ArkhanosState, seat: int, totals: tuple[int, int]) -> tuple[str, ...]:
    p = state.players[seat]
    earned, provisional = totals
    lines = [
        f"Prestige {earned + provisional} ({earned} earned, {provisional} from the end scoring as it stands)"
    ]
    master = "1 master" if p.masters == 1 else f"{p.masters} masters"
    lines.append(f"Supply: {p.apprentices} apprentices, {master}")
    active = [
        f"{i + 1} {state.spells[i].name}: {kind}{' (2 influence)' if kind == MASTER else ''}"
        for i, kind in enumerate(p.spellbook)
        if kind
    ]
    lines.append("Spellbook: " + ("; ".join(active) if active else "no active spell"))
    trapped = sum(1 for t in state.towers for m in t.trapped if m.seat == seat)
    if trapped:
        lines.append(f"Trapped in the towers for good: {trapped}")
    if to_move(state) == seat:
        if state.step == PLACE:
            lines += placement_lines(state)
        if state.step == BONUS and state.pending is not None:
            lines.append(
                f"Choose where the bonus '{BONUS_TITLES[state.pending.bonus]}' puts a meeple "
                f"(spell {state.pending.number} matches the die)"
            )
        spells = sum(1 for _ in casts(state)) if state.step in (PLACE, END) else 0
        if spells:
            lines.append(f"{spells} ways to cast your active spells this turn")
    return tuple(lines)


def describe(state: ArkhanosState) -> TableView:
    sheet = score(state)
    n = len(state.players)
    earned = [0] * n
    provisional = [0] * n
    for source in sheet.sources:
        bucket = provisional if "incomplete" in source.name or "spellbook" in source.name else earned
        for seat in range(n):
            bucket[seat] += source.points[seat]
    actor = to_move(state)
    seats = tuple(
        SeatView(
            p.name,
            p.colour,
            seat_lines(state, seat, (earned[seat], provisional[seat])),
            current=actor == seat,
        )
        for seat, p in enumerate(state.players)
    )
    shared = [f"Table: {', '.join(map(str, state.table)) or 'no dice'}"]
    for tower in range(len(state.towers)):
        shared += floor_lines(state, tower)
    pool = [f"{i + 1}: {die}" for i, die in enumerate(state.pool) if die is not None]
    shared.append(f"Mana pool: {', '.join(pool) or 'empty'}")
    bag = ", ".join(f"{c} {k}" for c, k in zip(state.colours, state.bag))
    shared.append(f"Bag: {bag}; floor stack: {len(state.stack)} tiles")
    shared.append(
        f"Finished floors score most/second/tie: outer {state.outer_values}, central {state.central_values}"
    )
    spells = "; ".join(
        f"{i + 1} {s.name}{' (assumed)' if s.assumed else ''}: {s.effect}" for i, s in enumerate(state.spells)
    )
    shared.append(f"Spells: {spells}")
    shared += reveal_lines(state)
    if state.set_aside:
        shared.append(f"Set aside (fitted nowhere): {', '.join(map(str, state.set_aside))}")
    if state.step == OVER:
        winner = sheet.standings[0]
        shared.append(f"Winner: {state.players[winner.seat].name} with {winner.total} prestige")
    return TableView(headline=headline(state), seats=seats, shared=tuple(shared))
