"""Arkhanos turn rules: the round's dice, placing a die and a meeple, pillar bonuses, finishing
floors, new floors and the end of a round. Pure functions over `ArkhanosState`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..base import CHANCE, Actor
from .moves import Bonus, Cast, Draw, EndTurn, Move, Pass, Place, Reveal, Roll
from .scoring import score_floor
from .spells import apply_cast, casts, distinct_dice
from .state import (
    BONUS,
    BUILD,
    DRAW,
    END,
    FLOOR,
    OVER,
    PLACE,
    PRESTIGE,
    SPELL,
    ArkhanosState,
    Die,
    Floor,
    Meeple,
    Pending,
    Player,
    Tower,
)
from .tiles import entry_id, new_floor, parse_entry, parse_tile, refusal

RULEBOOK = "Towers of Arkhanos rulebook"
SETTING_UP = f"{RULEBOOK}: Setting up the Game"
HOW_TO_PLAY = f"{RULEBOOK}: How to Play"
PHASE_1 = f"{RULEBOOK}: Phase 1: Pick a Die and a Meeple"
RUN_OUT = f"{PHASE_1}, What happens if I run out of meeples?"
PHASE_2 = f"{RULEBOOK}: Phase 2: Get the Pillar Sonus"
TALLY = f"{RULEBOOK}: Step 3: Tally Up the Points"
MANA_POOL = f"{RULEBOOK}: The Mana Pool"
GAME_OVER = f"{RULEBOOK}: Game Over"
STACK_EMPTY = "docs/arkhanos.md, When the floor stack runs out (the rulebook is silent)"


# ---- who acts ----------------------------------------------------------------------


def drawing(state: ArkhanosState) -> bool:
    """How to Play: the first player draws 5 (or 4) dice from the bag, one chance move each."""
    return state.step == DRAW and len(state.table) < state.dice_per_round and sum(state.bag) > 0


def unrolled(state: ArkhanosState) -> int:
    """The index of the first die on the table still to be rolled, or -1."""
    return next((i for i, die in enumerate(state.table) if not die.number), -1)


def to_move(state: ArkhanosState) -> Actor | None:
    if state.step == OVER:
        return None
    if state.reveals or drawing(state) or unrolled(state) >= 0:
        return CHANCE
    return state.current


def tile_choices(state: ArkhanosState) -> tuple[int, ...]:
    """The tiles the next reveal may show: a starting tile for a tower's first floor
    (Setting up the Game), else any tile left in the face-down stack (Step 3)."""
    tower = state.towers[state.reveals[0]]
    return tuple(entry_id(e) for e in (state.starters if tower.built == 0 else state.stack))


def chance_outcomes(state: ArkhanosState) -> tuple[tuple[Move, float], ...]:
    if to_move(state) != CHANCE:
        return ()
    if state.reveals:
        tiles = tile_choices(state)
        return tuple((Reveal(t, state.reveals[0]), 1 / len(tiles)) for t in tiles)
    if drawing(state):
        left = sum(state.bag)
        return tuple((Draw(c), n / left) for c, n in zip(state.colours, state.bag) if n)
    colour = state.table[unrolled(state)].colour
    return tuple((Roll(colour, n), 1 / 6) for n in range(1, 7))


# ---- legal moves -------------------------------------------------------------------


def die_fits_somewhere(state: ArkhanosState) -> bool:
    """Can any die on the table go on any empty pillar? (False only once the stack ran out.)"""
    return any(True for _ in placements(state, ("",)))


def placements(state: ArkhanosState, kinds: tuple[str, ...]) -> Iterator[Place]:
    """Phase 1: each distinct die on the table, on each empty pillar of a top floor that takes
    it (the central tower takes any die), with each kind of meeple offered."""
    for die in distinct_dice(state.table):
        for t, tower in enumerate(state.towers):
            if tower.top is None:
                continue
            for i, pillar in enumerate(tower.top.pillars):
                if not pillar.occupied and not refusal(tower.top, die):
                    for kind in kinds:
                        yield Place(die, t, i, kind)


def meeple_kinds(player: Player) -> tuple[str, ...]:
    """The meeples a placement may use: from the supply; none while meeples wait on spells
    (a spell must be cast first: Phase 1, "What happens if I run out of meeples?"); and ""
    (the die alone) when the player has no meeple anywhere (docs/arkhanos.md)."""
    if player.supply:
        return player.supply_kinds()
    return () if player.in_spellbook else ("",)


def bonus_moves(state: ArkhanosState) -> Iterator[Bonus]:
    """Phase 2: where the pending meeple bonus can put a meeple, and which meeple."""
    pending = state.pending
    if pending is None:
        return
    me = state.players[state.current]
    slot = pending.number - 1
    if pending.bonus == SPELL:
        # Use the Spell: "put it in your spellbook, right on the spell that matches the number".
        if not me.spellbook[slot]:
            for kind in me.supply_kinds():
                yield Bonus(kind)
        return
    # Build Tower or Activate Spell: from the supply; from the spellbook only when it is empty.
    if me.supply:
        sources = [(kind, 0) for kind in me.supply_kinds()]
    else:
        sources = [(kind, i + 1) for i, kind in enumerate(me.spellbook) if kind]
    if not me.spellbook[slot]:
        for kind, source in sources:
            yield Bonus(kind, source=source)
    for t, tower in enumerate(state.towers):
        if t == pending.tower or tower.top is None:
            continue
        for i, pillar in enumerate(tower.top.pillars):
            if not pillar.occupied:
                for kind, source in sources:
                    yield Bonus(kind, t, i, source)


def legal_moves(state: ArkhanosState) -> tuple[Move, ...]:
    actor = to_move(state)
    if actor is None:
        return ()
    if actor == CHANCE:
        return tuple(move for move, _ in chance_outcomes(state))
    if state.step == BONUS:
        return tuple(bonus_moves(state))
    spells: tuple[Move, ...] = tuple(casts(state))
    if state.step == END:
        return (*spells, EndTurn())
    me = state.players[state.current]
    places = tuple(placements(state, meeple_kinds(me)))
    if not die_fits_somewhere(state):
        return (*spells, *places, Pass())
    return (*spells, *places)


# ---- applying moves ----------------------------------------------------------------


def with_player(state: ArkhanosState, seat: int, player: Player) -> ArkhanosState:
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1 :])


def with_floor(state: ArkhanosState, tower: int, floor: Floor) -> ArkhanosState:
    towers = list(state.towers)
    towers[tower] = replace(towers[tower], top=floor, finished=None)
    return replace(state, towers=tuple(towers))


def without(dice: tuple[Die, ...], die: Die) -> tuple[Die, ...]:
    i = dice.index(die)
    return dice[:i] + dice[i + 1 :]


def apply_reveal(state: ArkhanosState, move: Reveal) -> ArkhanosState:
    """The tile becomes the tower's next floor (Step 3; the starting floors: Setting up)."""
    entry = next(e for e in state.starters + state.stack if entry_id(e) == move.tile)
    tile = parse_tile(move.tile, move.correction) if move.correction else parse_entry(entry)
    tower = state.towers[move.tower]
    return replace(
        with_floor(state, move.tower, new_floor(tile, move.tower, tower.built + 1)),
        reveals=state.reveals[1:],
        starters=tuple(e for e in state.starters if e != entry),
        stack=tuple(e for e in state.stack if e != entry),
    )


def apply_roll(state: ArkhanosState, move: Roll) -> ArkhanosState:
    i = unrolled(state)
    table = state.table[:i] + (Die(move.colour, move.number),) + state.table[i + 1 :]
    state = replace(state, table=table)
    if state.step == DRAW and not drawing(state) and unrolled(state) < 0:
        # How to Play: the dice are rolled and the first player begins their turn.
        state = replace(state, step=PLACE, current=state.first)
    return state


def apply_place(state: ArkhanosState, move: Place) -> ArkhanosState:
    """Phase 1 (die and meeple on the pillar) and Phase 2 (the pillar's bonus)."""
    seat = state.current
    me = state.players[seat]
    tower = state.towers[move.tower]
    assert tower.top is not None
    floor = tower.top
    pillar = floor.pillars[move.pillar]
    meeple = Meeple(seat, move.kind) if move.kind else None
    pillars = list(floor.pillars)
    pillars[move.pillar] = replace(pillar, die=move.die, meeple=meeple)
    floor = replace(floor, pillars=tuple(pillars))
    if move.kind:
        me = me.with_supply(move.kind, -1)
    # Phase 2: "Get 2 Prestige" and "Boost Prestige from the Floor" are immediate.
    if pillar.bonus == PRESTIGE:
        me = replace(me, pillar_prestige=me.pillar_prestige + 2)
    elif pillar.bonus == FLOOR:
        me = replace(me, floor_prestige=me.floor_prestige + floor.level)
    state = with_player(with_floor(state, move.tower, floor), seat, me)
    state = replace(
        state,
        table=without(state.table, move.die),
        completed=state.completed + ((move.tower,) if floor.full else ()),
    )
    if pillar.bonus in (SPELL, BUILD):
        waiting = replace(state, pending=Pending(pillar.bonus, move.tower, move.die.number), step=BONUS)
        # "if the spell ... already has another meeple, then this little bonus won't work";
        # "if you don't have any meeples in your supply or spellbook, this bonus doesn't do anything".
        if any(True for _ in bonus_moves(waiting)):
            return waiting
    return finish_floors(state)


def apply_bonus(state: ArkhanosState, move: Bonus) -> ArkhanosState:
    seat = state.current
    pending = state.pending
    assert pending is not None
    me = state.players[seat]
    me = me.with_spell(move.source - 1, "") if move.source else me.with_supply(move.kind, -1)
    if move.tower < 0:
        state = with_player(state, seat, me.with_spell(pending.number - 1, move.kind))
    else:
        # A Different Tower: the meeple stands on the empty pillar; no bonus for that pillar.
        floor = state.towers[move.tower].top
        assert floor is not None
        pillars = list(floor.pillars)
        pillars[move.pillar] = replace(pillars[move.pillar], meeple=Meeple(seat, move.kind))
        floor = replace(floor, pillars=tuple(pillars))
        state = with_player(with_floor(state, move.tower, floor), seat, me)
        if floor.full and move.tower not in state.completed:
            state = replace(state, completed=state.completed + (move.tower,))
    return finish_floors(replace(state, pending=None))


def finish_floors(state: ArkhanosState) -> ArkhanosState:
    """Step 3: score each filled floor in the order it filled, clear it, and ask for the next tile.

    Meeples beside dice go home; meeples on pillars without dice stay, trapped, as do the
    dice. The next floor comes from the stack (a chance move); when the stack is empty the
    tower stays finished (docs/arkhanos.md).
    """
    for t in state.completed:
        tower = state.towers[t]
        floor = tower.top
        assert floor is not None
        result = score_floor(state, t, floor)
        trapped = list(tower.trapped)
        for pillar in floor.pillars:
            if pillar.meeple is None:
                continue
            if pillar.die is None:
                trapped.append(pillar.meeple)
            else:
                owner = state.players[pillar.meeple.seat]
                state = with_player(state, pillar.meeple.seat, owner.with_supply(pillar.meeple.kind, 1))
        dice = sum(1 for p in floor.pillars if p.die is not None)
        towers = list(state.towers)
        towers[t] = Tower(
            top=None,
            built=tower.built + 1,
            trapped_dice=tower.trapped_dice + dice,
            trapped=tuple(trapped),
            finished=floor if len(state.stack) > len(state.reveals) else None,
        )
        reveals = state.reveals + ((t,) if len(state.stack) > len(state.reveals) else ())
        state = replace(state, towers=tuple(towers), scored=state.scored + (result,), reveals=reveals)
    return replace(state, completed=(), step=END)


def end_round(state: ArkhanosState) -> ArkhanosState:
    """How to Play: the last die goes on the mana pool space of the round; the bag passes left.

    Game Over: after the last round (8, or 9 with 3 players) the game ends.
    """
    pool = state.pool
    aside = state.set_aside
    if state.table:
        pool = pool[: state.round - 1] + (state.table[0],) + pool[state.round :]
        aside += state.table[1:]
    state = replace(state, pool=pool, set_aside=aside, table=())
    if state.round >= state.rounds:
        return replace(state, step=OVER)
    first = (state.first + 1) % len(state.players)
    return replace(state, round=state.round + 1, first=first, current=first, step=DRAW)


def apply_move(state: ArkhanosState, move: Move) -> ArkhanosState:
    """The state after a legal move (unchecked: the caller vouches for legality)."""
    if isinstance(move, Reveal):
        return apply_reveal(state, move)
    if isinstance(move, Draw):
        bag = tuple(n - (c == move.colour) for c, n in zip(state.colours, state.bag))
        return replace(state, bag=bag, table=state.table + (Die(move.colour),))
    if isinstance(move, Roll):
        return apply_roll(state, move)
    if isinstance(move, Place):
        return apply_place(state, move)
    if isinstance(move, Bonus):
        return apply_bonus(state, move)
    if isinstance(move, Cast):
        return apply_cast(state, move)
    if isinstance(move, EndTurn) and len(state.table) > 1:
        # How to Play: "You go after me, in the order we're sitting."
        return replace(state, current=(state.current + 1) % len(state.players), step=PLACE)
    # End of turn with one die left, or a pass (no die fits anywhere): the round ends.
    return end_round(state)
