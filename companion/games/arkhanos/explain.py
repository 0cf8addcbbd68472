"""Why a move is not legal now: the most specific reason the rulebook gives, with its section."""

from __future__ import annotations

from ..base import CHANCE, IllegalMove
from .moves import Bonus, Cast, Draw, EndTurn, Move, Pass, Place, Reveal, Roll, pillar_name
from .rules import (
    GAME_OVER,
    HOW_TO_PLAY,
    PHASE_1,
    PHASE_2,
    RUN_OUT,
    SETTING_UP,
    STACK_EMPTY,
    TALLY,
    drawing,
    tile_choices,
    to_move,
    unrolled,
)
from .spells import SPELLBOOK, WHAT_SPELLS_DO, spell_index, spell_rule
from .state import BONUS, CENTRAL, END, KINDS, PLACE, POOL_SPACES, SPELL, TOWERS, ArkhanosState
from .tiles import refusal

CHANCE_MOVES = (Reveal, Draw, Roll)


def explain_illegal(state: ArkhanosState, move: Move) -> IllegalMove:
    actor = to_move(state)
    if actor is None:
        return IllegalMove("the game is over", GAME_OVER)
    if actor == CHANCE:
        return _chance(state, move)
    if isinstance(move, CHANCE_MOVES):
        return IllegalMove(
            f"no die or tile is waiting to be reported: it is {_name(state)}'s turn", HOW_TO_PLAY
        )
    if isinstance(move, Place):
        return _place(state, move)
    if isinstance(move, Bonus):
        return _bonus(state, move)
    if isinstance(move, Cast):
        return _cast(state, move)
    if isinstance(move, EndTurn):
        if state.step == BONUS:
            return IllegalMove("first choose where the pillar bonus puts your meeple", PHASE_2)
        return IllegalMove("place a die and a meeple before ending your turn", HOW_TO_PLAY)
    if isinstance(move, Pass):
        return IllegalMove("you may pass only when no die on the table fits any empty pillar", STACK_EMPTY)
    return IllegalMove(f"'{move}' is not legal now", HOW_TO_PLAY)


def _name(state: ArkhanosState) -> str:
    return state.players[state.current].name


def _chance(state: ArkhanosState, move: Move) -> IllegalMove:
    if state.reveals:
        tower = state.reveals[0]
        where = f"the next floor of tower {TOWERS[tower]}"
        if not isinstance(move, Reveal):
            return IllegalMove(f"first reveal the tile for {where}", TALLY)
        if move.tower != tower:
            return IllegalMove(f"the tile to reveal now is {where}", TALLY)
        if state.towers[tower].built == 0:
            return IllegalMove(
                f"tile {move.tile} is not one of the starting tiles left ({_ids(tile_choices(state))})",
                SETTING_UP,
            )
        return IllegalMove(f"tile {move.tile} is not in the floor stack ({_ids(tile_choices(state))})", TALLY)
    if drawing(state):
        if not isinstance(move, Draw):
            return IllegalMove("the dice for this round are still being drawn from the bag", HOW_TO_PLAY)
        return IllegalMove(f"there is no {move.colour} die left in the bag", HOW_TO_PLAY)
    die = state.table[unrolled(state)]
    if not isinstance(move, Roll):
        return IllegalMove(f"first roll the {die.colour} die", HOW_TO_PLAY)
    if move.colour != die.colour:
        return IllegalMove(f"the die to roll now is the {die.colour} one", HOW_TO_PLAY)
    return IllegalMove("a die shows 1 to 6", HOW_TO_PLAY)


def _ids(tiles: tuple[int, ...]) -> str:
    return ", ".join(map(str, tiles)) or "none"


def _place(state: ArkhanosState, move: Place) -> IllegalMove:
    me = state.players[state.current]
    if state.step == BONUS:
        return IllegalMove("first choose where the pillar bonus puts your meeple", PHASE_2)
    if state.step == END:
        return IllegalMove("you have already placed a die this turn", HOW_TO_PLAY)
    if move.die not in state.table:
        return IllegalMove(f"there is no {move.die} on the table", PHASE_1)
    top = state.towers[move.tower].top
    where = pillar_name(move.tower, move.pillar)
    if top is None:
        return IllegalMove(
            f"tower {TOWERS[move.tower]} has no floor left to build (the stack ran out)", STACK_EMPTY
        )
    if top.pillars[move.pillar].occupied:
        return IllegalMove(f"pillar {where} is not empty", PHASE_1)
    why = refusal(top, move.die)
    if why:
        return IllegalMove(f"{why}; the central tower M takes any die", PHASE_1)
    if not move.kind:
        if me.supply:
            return IllegalMove("place one of your meeples with the die (apprentice or master)", PHASE_1)
        return IllegalMove("your supply is empty: cast a spell first to free a meeple", RUN_OUT)
    if not me.supply and me.in_spellbook:
        return IllegalMove("your supply is empty: cast a spell first to free a meeple", RUN_OUT)
    if not me.supply:
        return IllegalMove(
            "you have no meeple anywhere: place the die alone", "docs/arkhanos.md, No meeple anywhere"
        )
    return IllegalMove(f"you have no {move.kind} in your supply", PHASE_1)


def _bonus(state: ArkhanosState, move: Bonus) -> IllegalMove:
    pending = state.pending
    if pending is None:
        return IllegalMove("no pillar bonus is waiting for a choice", PHASE_2)
    me = state.players[state.current]
    number = pending.number
    if pending.bonus == SPELL and move.tower >= 0:
        return IllegalMove(f"this pillar's bonus puts a meeple on spell {number}, not on a pillar", PHASE_2)
    if pending.bonus == SPELL and move.source:
        return IllegalMove("Use the Spell takes a meeple from your supply", PHASE_2)
    if move.kind not in KINDS:
        return IllegalMove("a meeple is an apprentice or a master", PHASE_2)
    if move.source and me.supply:
        return IllegalMove(
            "take the meeple from your supply; the spellbook only when the supply is empty", PHASE_2
        )
    if move.source and me.spellbook[move.source - 1] != move.kind:
        return IllegalMove(f"spell {move.source} holds no {move.kind} of yours", PHASE_2)
    if not move.source and move.kind not in me.supply_kinds():
        return IllegalMove(f"you have no {move.kind} in your supply", PHASE_2)
    if move.tower < 0:
        return IllegalMove(f"spell {number} already has a meeple on it", PHASE_2)
    if move.tower == pending.tower:
        return IllegalMove(
            "the meeple must go to a tower different from the one that gave the bonus", PHASE_2
        )
    top = state.towers[move.tower].top
    if top is None or top.pillars[move.pillar].occupied:
        return IllegalMove(f"pillar {pillar_name(move.tower, move.pillar)} is not empty", PHASE_2)
    return IllegalMove(f"'{move}' is not a choice this bonus offers", PHASE_2)


def _cast(state: ArkhanosState, move: Cast) -> IllegalMove:
    if state.step not in (PLACE, END):
        return IllegalMove("spells are cast on your turn, before or after placing your die", SPELLBOOK)
    index = spell_index(state, move.spell)
    if index < 0:
        names = ", ".join(s.slug for s in state.spells)
        return IllegalMove(f"this spellbook has no spell called {move.spell!r} ({names})", SPELLBOOK)
    spell = state.spells[index]
    if not state.players[state.current].spellbook[index]:
        return IllegalMove(f"{spell.name} is not active: none of your meeples is on it", SPELLBOOK)
    effect = spell.effect
    if move.via:
        other = spell_index(state, move.via)
        if spell.effect != "manipulate":
            return IllegalMove(f"only Manipulate uses another spell; {spell.name} does not", WHAT_SPELLS_DO)
        if other < 0 or state.spells[other].effect in ("manipulate", "none"):
            return IllegalMove(f"Manipulate cannot be used as {move.via!r}", WHAT_SPELLS_DO)
        spell = state.spells[other]
        effect = spell.effect
    elif effect == "manipulate" and move.die is not None:
        return IllegalMove(
            "say which spell Manipulate is used as: 'cast manipulate as exchange ...'", WHAT_SPELLS_DO
        )
    rule = spell_rule(spell)
    if move.die is None:
        return IllegalMove(f"'{move}' is not a way to cast {spell.name}", rule)
    if move.die not in state.table:
        return IllegalMove(f"there is no {move.die} on the table", rule)
    if effect == "exchange":
        if not 1 <= move.pool <= POOL_SPACES or state.pool[move.pool - 1] is None:
            return IllegalMove(f"mana pool space {move.pool} holds no die", rule)
        return IllegalMove(f"write Exchange as 'cast {move.spell} ... {move.die} pool{move.pool}'", rule)
    if effect == "swap":
        top = state.towers[CENTRAL].top
        if top is None or not 1 <= move.pillar <= 3 or top.pillars[move.pillar - 1].die is None:
            return IllegalMove(f"pillar M{move.pillar} of the central tower holds no die", rule)
        return IllegalMove("Swap trades a table die with a different die on the central tower", rule)
    if effect == "turn":
        return IllegalMove(f"Turn shows the opposite face: {move.die} becomes {7 - move.die.number}", rule)
    if effect == "nudge":
        return IllegalMove(f"Nudge changes {move.die} by 1, to a number from 1 to 6", rule)
    if effect == "reroll":
        return IllegalMove(f"Reroll names only the die: 'cast {move.spell} {move.die}'", rule)
    return IllegalMove(f"{spell.name} has no effect the companion tracks: cast it bare", rule)
