"""Am'harb turn rules: the Tower, Power and Disciple Phases and the end of the game.

Pure functions over `AmharbState`; each rule cites its rulebook section.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import product

from ..base import IllegalMove
from .board import area_of, geometry
from .state import (
    CULTIST,
    DISCIPLE,
    OVER,
    POWER,
    PRIEST,
    TOWER,
    AmharbState,
    Disciple,
    Move,
    MoveDisc,
    Pass,
    Place,
    Player,
    Power,
    SkipPower,
    Space,
)

RULEBOOK = "Towers of Am'harb rulebook"
GOLDEN_RULES = f"{RULEBOOK}: Tower Phase, Golden Rules of Tower Movement"
POWER_RULE = f"{RULEBOOK}: Power Phase"
CHOOSE_SPACE = f"{RULEBOOK}: Disciple Phase, 3.1 Choose a Space"
PAY_RESOURCES = f"{RULEBOOK}: Disciple Phase, 3.2 Pay Resources"
PLACE_AND_GAIN = f"{RULEBOOK}: Disciple Phase, 3.3 Place & Gain"
ROUND_OVERVIEW = f"{RULEBOOK}: Round Overview"
END_OF_GAME = f"{RULEBOOK}: End of Game"
POWER_OF = {
    "yog-sothoth": ("lock", f"{RULEBOOK}: Cosmic Power List, 1. Yog-Sothoth"),
    "nyog-sothep": ("rearrange", f"{RULEBOOK}: Cosmic Power List, 2. Nyog Sothep"),
    "shub-niggurath": ("stack", f"{RULEBOOK}: Cosmic Power List, 3. Shub-Niggurath"),
    "dagon-hydra": ("shift", f"{RULEBOOK}: Cosmic Power List, 4. Dagon & Hydra"),
    "nyarlathotep": ("exchange", f"{RULEBOOK}: Cosmic Power List, 5. Nyarlathotep"),
    "cthugha": ("pyre", f"{RULEBOOK}: Cosmic Power List, 6. Cthugha"),
    "hastur": ("book", f"{RULEBOOK}: Cosmic Power List, 7. Hastur"),
    "cthulhu": ("curse", f"{RULEBOOK}: Cosmic Power List, 8. Cthulhu"),
}
POWER_COST = 2  # Am'harb: Power Phase — "2 resources of the same color"


# ---- what a space holds ------------------------------------------------------------


def is_empty(space: Space) -> bool:
    """Am'harb: 3.1 — a normal space with no disciple, cursed altar or Lock tile.

    An unclaimed resource tile does not stop a space being empty.
    """
    return not space.is_altar and not space.disciples and space.lock < 0


def occupied_around(state: AmharbState, index: int) -> int:
    """Surrounding spaces holding a disciple of anyone; a stacked space counts once.

    Am'harb: 3.2 Pay Resources; Shub-Niggurath note 3 ("only count as ONE").
    """
    spaces = state.spaces
    return sum(1 for i in geometry(state.board).surrounding[index] if spaces[i].disciples)


def in_active_area(state: AmharbState, index: int) -> bool:
    me = state.players[state.current]
    return geometry(state.board).exists[index] and area_of(me.side, index) in state.active


def placement_cost(state: AmharbState, index: int) -> int:
    """(surrounding disciples) - (height of your stack in this space's area), never below 0.

    Am'harb: 3.2 Pay Resources — a higher stack makes placement free but gives nothing back.
    """
    me = state.players[state.current]
    return max(0, occupied_around(state, index) - me.height(area_of(me.side, index)))


def payments(cost: int, held: tuple[int, ...], colours: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every way to pay `cost` resources in any colours from `held` (Am'harb: 3.2)."""
    if cost == 0:
        yield ()
        return
    if sum(held) < cost:
        return
    for counts in product(*(range(min(n, cost), -1, -1) for n in held)):
        if sum(counts) == cost:
            yield tuple(c for c, n in zip(colours, counts) for _ in range(n))


# ---- legal moves -------------------------------------------------------------------


def tower_moves(player: Player) -> Iterator[MoveDisc]:
    """Am'harb: Tower Phase, Golden Rules — only a top disc moves, never onto a smaller one."""
    for source, stack in enumerate(player.towers):
        if not stack:
            continue
        disc = stack[-1]
        for target, other in enumerate(player.towers):
            if target != source and (not other or other[-1] > disc):
                yield MoveDisc(disc, source, target)


def power_moves(state: AmharbState) -> Iterator[Power]:
    """Am'harb: Cosmic Power List — the current cult's power, for each colour it can pay."""
    me = state.players[state.current]
    seat = state.current
    colours = [c for c, n in zip(state.resource_colours, me.resources) if n >= POWER_COST]
    kind = POWER_OF[me.cult][0]
    spaces = state.spaces
    active = [i for i in geometry(state.board).spaces() if in_active_area(state, i)]
    own = [
        (i, k)
        for i, space in enumerate(spaces)
        for k in sorted({d.kind for d in space.disciples if d.seat == seat})
    ]
    for colour in colours:
        if kind in ("lock", "curse") and me.tiles:
            for i in active:
                if is_empty(spaces[i]):
                    yield Power(kind, colour, space=i)
        elif kind == "pyre" and me.tiles:
            for i in active:
                if spaces[i].is_altar and spaces[i].pyre < 0:
                    yield Power(kind, colour, space=i)
        elif kind == "book" and me.tiles:
            for i in active:
                if not spaces[i].book and any(d.seat == seat for d in spaces[i].disciples):
                    yield Power(kind, colour, space=i)
        elif kind == "rearrange":
            for towers in arrangements():
                yield Power(kind, colour, towers=towers)
        elif kind == "stack":
            for origin, disciple in own:
                for i in active:
                    target = spaces[i].disciples
                    if (
                        i != origin
                        and target
                        and not (disciple == PRIEST and any(d.kind == PRIEST for d in target))
                    ):
                        yield Power(kind, colour, space=i, origin=origin, disciple=disciple)
        elif kind == "shift":
            for origin, disciple in own:
                for i in active:
                    if is_empty(spaces[i]):
                        yield Power(kind, colour, space=i, origin=origin, disciple=disciple)
        elif kind == "exchange":
            priests = [i for i, k in own if k == PRIEST]
            cultists = [i for i, k in own if k == CULTIST]
            for p in priests:
                for c in cultists:
                    if p != c and (in_active_area(state, p) or in_active_area(state, c)):
                        yield Power(kind, colour, space=c, origin=p)


def arrangements() -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to lay discs 4..1 over four areas, larger under smaller (Nyog Sothep)."""
    for where in product(range(4), repeat=4):
        yield tuple(tuple(disc for disc, area in zip((4, 3, 2, 1), where) if area == a) for a in range(4))


def placements(state: AmharbState) -> Iterator[Place]:
    """Am'harb: Disciple Phase 3.1-3.2, and Yog-Sothoth's free placement on its Lock tiles."""
    seat = state.current
    me = state.players[seat]
    kinds = [k for k, n in ((PRIEST, me.priests), (CULTIST, me.cultists)) if n]
    if not kinds:
        return
    for i, space in enumerate(state.spaces):
        if space.lock == seat and not space.disciples:
            for kind in kinds:
                yield Place(kind, i)
        elif is_empty(space) and in_active_area(state, i):
            for paid in payments(placement_cost(state, i), me.resources, state.resource_colours):
                for kind in kinds:
                    yield Place(kind, i, paid)


def legal_moves(state: AmharbState) -> tuple[Move, ...]:
    if state.phase == TOWER:
        return tuple(tower_moves(state.players[state.current]))
    if state.phase == POWER:
        return (SkipPower(),) + tuple(power_moves(state))
    if state.phase == DISCIPLE:
        places = tuple(placements(state))
        # Am'harb: 3 Note — pass if and only if nothing in the active area is affordable (or
        # nothing there is empty). Yog-Sothoth's Lock placement is a "may", so it never
        # forces a placement (docs/decisions.md).
        if any(state.spaces[m.space].lock < 0 for m in places):
            return places
        return (*places, Pass())
    return ()


# ---- applying moves ----------------------------------------------------------------


def _with_space(spaces: tuple[Space, ...], index: int, space: Space) -> tuple[Space, ...]:
    return spaces[:index] + (space,) + spaces[index + 1 :]


def _with_player(state: AmharbState, player: Player) -> tuple[Player, ...]:
    seat = state.current
    return state.players[:seat] + (player,) + state.players[seat + 1 :]


def _pay(state: AmharbState, player: Player, colours: tuple[str, ...]) -> Player:
    held = list(player.resources)
    for colour in colours:
        held[state.resource_colours.index(colour)] -= 1
    return replace(player, resources=tuple(held))


def _gain(state: AmharbState, player: Player, colour: str) -> Player:
    if not colour:
        return player
    held = list(player.resources)
    held[state.resource_colours.index(colour)] += 1
    return replace(player, resources=tuple(held))


def _remove_one(disciples: tuple[Disciple, ...], gone: Disciple) -> tuple[Disciple, ...]:
    i = disciples.index(gone)
    return disciples[:i] + disciples[i + 1 :]


def apply_power(state: AmharbState, move: Power) -> AmharbState:
    seat = state.current
    me = _pay(state, state.players[seat], (move.colour,) * POWER_COST)
    spaces = state.spaces
    active = state.active
    target = spaces[move.space] if move.space >= 0 else Space()
    if move.kind == "lock":
        spaces = _with_space(spaces, move.space, replace(target, lock=seat))
        me = replace(me, tiles=me.tiles - 1)
    elif move.kind == "curse":
        # The resource tile under the cursed altar goes back to the box.
        spaces = _with_space(spaces, move.space, replace(target, cursed=True, resource=""))
        me = replace(me, tiles=me.tiles - 1)
    elif move.kind == "pyre":
        spaces = _with_space(spaces, move.space, replace(target, pyre=seat))
        me = replace(me, tiles=me.tiles - 1)
    elif move.kind == "book":
        spaces = _with_space(spaces, move.space, replace(target, book=True))
        me = replace(me, tiles=me.tiles - 1)
    elif move.kind == "rearrange":
        me = replace(me, towers=move.towers)
        # Nyog Sothep: every area holding a disc is active for the rest of the turn.
        active = tuple(a for a, stack in enumerate(move.towers) if stack)
    elif move.kind in ("stack", "shift"):
        moving = Disciple(seat, move.disciple)
        origin = spaces[move.origin]
        left = _remove_one(origin.disciples, moving)
        spaces = _with_space(spaces, move.origin, replace(origin, disciples=left))
        target = spaces[move.space]
        # Dagon & Hydra: no cost and no resource gained; the tile stays on the space.
        spaces = _with_space(spaces, move.space, replace(target, disciples=target.disciples + (moving,)))
    elif move.kind == "exchange":
        swap = {PRIEST: CULTIST, CULTIST: PRIEST}
        for i, kind in ((move.origin, PRIEST), (move.space, CULTIST)):
            space = spaces[i]
            mine = space.disciples.index(Disciple(seat, kind))
            changed = space.disciples[:mine] + (Disciple(seat, swap[kind]),) + space.disciples[mine + 1 :]
            spaces = _with_space(spaces, i, replace(space, disciples=changed))
    players = _with_player(state, me)
    return replace(state, spaces=spaces, players=players, active=active, phase=DISCIPLE)


def apply_place(state: AmharbState, move: Place) -> AmharbState:
    """Am'harb: 3.2 pay, then 3.3 place and gain the resource on the space."""
    seat = state.current
    me = _pay(state, state.players[seat], move.payment)
    space = state.spaces[move.space]
    me = _gain(state, me, space.resource)
    if move.kind == PRIEST:
        me = replace(me, priests=me.priests - 1)
    else:
        me = replace(me, cultists=me.cultists - 1)
    placed = replace(space, disciples=space.disciples + (Disciple(seat, move.kind),), resource="")
    return replace(
        state, spaces=_with_space(state.spaces, move.space, placed), players=_with_player(state, me)
    )


def end_turn(state: AmharbState) -> AmharbState:
    """Am'harb: Round Overview (next player clockwise) and End of Game (one last turn each)."""
    seats = len(state.players)
    last = state.last_turns
    if last is None and state.players[state.current].disciples_left == 0:
        last = tuple((state.current + k) % seats for k in range(1, seats))
    if last is None:
        upcoming = (state.current + 1) % seats
    elif last:
        upcoming, last = last[0], last[1:]
    else:
        return replace(state, phase=OVER, active=(), last_turns=())
    return replace(state, current=upcoming, phase=TOWER, active=(), last_turns=last, turn=state.turn + 1)


def apply_move(state: AmharbState, move: Move) -> AmharbState:
    """The state after a legal move (unchecked: the caller vouches for legality)."""
    if isinstance(move, MoveDisc):
        me = state.players[state.current]
        towers = list(me.towers)
        towers[move.source] = towers[move.source][:-1]
        towers[move.target] = towers[move.target] + (move.disc,)
        # Tower Phase: the new location becomes the Active Area for this turn.
        players = _with_player(state, replace(me, towers=tuple(towers)))
        return replace(state, players=players, phase=POWER, active=(move.target,))
    if isinstance(move, SkipPower):
        return replace(state, phase=DISCIPLE)
    if isinstance(move, Power):
        return apply_power(state, move)
    if isinstance(move, Place):
        return end_turn(apply_place(state, move))
    return end_turn(state)


# ---- why a move is not legal -------------------------------------------------------


def explain_illegal(state: AmharbState, move: Move) -> IllegalMove:
    """The most specific reason the rulebook gives for refusing `move` now."""
    me = state.players[state.current]
    wanted = {MoveDisc: TOWER, SkipPower: POWER, Power: POWER, Place: DISCIPLE, Pass: DISCIPLE}
    if state.phase == OVER:
        return IllegalMove("the game is over", END_OF_GAME)
    if wanted[type(move)] != state.phase:
        return IllegalMove(
            f"it is {me.name}'s {state.phase} phase, not the {wanted[type(move)]} phase", ROUND_OVERVIEW
        )
    if isinstance(move, MoveDisc):
        stack = me.towers[move.source] if 0 <= move.source < 4 else ()
        if not stack or stack[-1] != move.disc:
            return IllegalMove(f"L{move.disc} is not the top disc of that area", GOLDEN_RULES + " 1")
        if move.source == move.target:
            return IllegalMove("a disc must move to another area", GOLDEN_RULES)
        return IllegalMove("a disc cannot go on top of a smaller disc", GOLDEN_RULES + " 3")
    if isinstance(move, Power):
        kind, rule = POWER_OF[me.cult]
        if move.kind != kind:
            return IllegalMove(f"{me.cult}'s Cosmic Power is '{kind}', not '{move.kind}'", rule)
        if move.colour not in state.resource_colours or (
            me.resources[state.resource_colours.index(move.colour)] < POWER_COST
        ):
            return IllegalMove(f"{me.name} does not hold 2 {move.colour} resources", POWER_RULE)
        if kind in ("lock", "pyre", "book", "curse") and not me.tiles:
            return IllegalMove(f"{me.name} has no {kind} tile left", rule)
        return IllegalMove(f"'{move}' does not fit the power's conditions here", rule)
    if isinstance(move, Place):
        space = state.spaces[move.space] if 0 <= move.space < len(state.spaces) else Space(altar=1)
        left = me.priests if move.kind == PRIEST else me.cultists
        if not left:
            return IllegalMove(f"{me.name} has no {move.kind} left", PLACE_AND_GAIN)
        if space.lock == state.current and not space.disciples:
            return IllegalMove("placing on your Lock tile is free: pay nothing", POWER_OF["yog-sothoth"][1])
        if not is_empty(space):
            return IllegalMove("a disciple can only go on an empty space", CHOOSE_SPACE)
        if not in_active_area(state, move.space):
            return IllegalMove("the space is not in the active area", f"{RULEBOOK}: 1. Tower Phase")
        cost = placement_cost(state, move.space)
        if len(move.payment) != cost:
            return IllegalMove(f"this space costs {cost} resources, not {len(move.payment)}", PAY_RESOURCES)
        return IllegalMove(f"{me.name} cannot pay {'+'.join(move.payment)}", PAY_RESOURCES)
    if isinstance(move, Pass):
        return IllegalMove(
            "you may pass only if you cannot afford any space in your active area",
            f"{RULEBOOK}: 3. Disciple Phase, Note",
        )
    return IllegalMove(f"'{move}' is not legal now", ROUND_OVERVIEW)
