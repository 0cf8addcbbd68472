"""Spells: which casts the current player has, and what each effect does to the table.

Arkhanos: Welcome to Your Spellbook! — "you have the ability to cast as many of your
active spells as you want"; casting returns the spell's meeple to the supply, "then
resolve the spell's effect" (a "can": resolving is optional, so a bare `cast swap` only
frees the meeple). What do the Spells do? — Manipulate "allows me to use any spell I
want", Exchange swaps "a die on the table with one on the mana pool board", Swap
exchanges a table die "with a die on the central tower".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from .moves import Cast
from .state import CENTRAL, ArkhanosState, Die, Spell

RULEBOOK = "Towers of Arkhanos rulebook"
SPELLBOOK = f"{RULEBOOK}: Welcome to Your Spellbook!"
WHAT_SPELLS_DO = f"{RULEBOOK}: What do the Spells do?"
MANA_POOL = f"{RULEBOOK}: The Mana Pool"
ASSUMED_SPELL = "arkhanos.toml (assumed spell: the rulebook does not describe it)"


def spell_rule(spell: Spell) -> str:
    if spell.assumed:
        return ASSUMED_SPELL
    return MANA_POOL if spell.effect == "exchange" else WHAT_SPELLS_DO


def distinct_dice(dice: tuple[Die, ...]) -> list[Die]:
    """The table's dice without repeats: two purple 4s are the same choice."""
    seen: list[Die] = []
    for die in dice:
        if die not in seen and die.number:
            seen.append(die)
    return seen


def effect_casts(state: ArkhanosState, spell: str, via: str, effect: str) -> Iterator[Cast]:
    """Every way to resolve `effect` now (Cast moves for `spell`, through `via`)."""
    table = distinct_dice(state.table)
    if effect == "exchange":
        for die in table:
            for space, pooled in enumerate(state.pool, start=1):
                if pooled is not None and pooled != die:
                    yield Cast(spell, via, die, pool=space)
    elif effect == "swap":
        top = state.towers[CENTRAL].top
        for die in table:
            for index, pillar in enumerate(top.pillars if top else ()):
                if pillar.die is not None and pillar.die != die:
                    yield Cast(spell, via, die, pillar=index + 1)
    elif effect == "reroll":
        for die in table:
            yield Cast(spell, via, die)
    elif effect == "turn":
        for die in table:
            yield Cast(spell, via, die, number=7 - die.number)
    elif effect == "nudge":
        for die in table:
            for number in (die.number - 1, die.number + 1):
                if 1 <= number <= 6:
                    yield Cast(spell, via, die, number=number)


def casts(state: ArkhanosState) -> Iterator[Cast]:
    """The current player's casts: each active spell, bare or with each way to resolve it."""
    me = state.players[state.current]
    for index, spell in enumerate(state.spells):
        if not me.spellbook[index]:
            continue
        yield Cast(spell.slug)
        if spell.effect == "manipulate":
            for other in state.spells:
                if other.effect not in ("manipulate", "none"):
                    yield from effect_casts(state, spell.slug, other.slug, other.effect)
        else:
            yield from effect_casts(state, spell.slug, "", spell.effect)


def spell_index(state: ArkhanosState, slug: str) -> int:
    """The spell's place in the book (0-5), or -1."""
    return next((i for i, s in enumerate(state.spells) if s.slug == slug), -1)


def _swap_table_die(table: tuple[Die, ...], old: Die, new: Die) -> tuple[Die, ...]:
    i = table.index(old)
    return table[:i] + (new,) + table[i + 1 :]


def apply_cast(state: ArkhanosState, move: Cast) -> ArkhanosState:
    """The meeple returns to the supply, then the effect (if any) is resolved."""
    seat = state.current
    me = state.players[seat]
    index = spell_index(state, move.spell)
    me = me.with_spell(index, "").with_supply(me.spellbook[index], 1)
    state = replace(state, players=state.players[:seat] + (me,) + state.players[seat + 1 :])
    if move.die is None:
        return state
    effect = state.spells[spell_index(state, move.via or move.spell)].effect
    die = move.die
    if effect == "exchange":
        pooled = state.pool[move.pool - 1]
        assert pooled is not None
        pool = state.pool[: move.pool - 1] + (die,) + state.pool[move.pool :]
        return replace(state, table=_swap_table_die(state.table, die, pooled), pool=pool)
    if effect == "swap":
        tower = state.towers[CENTRAL]
        assert tower.top is not None
        pillars = tower.top.pillars
        target = pillars[move.pillar - 1]
        assert target.die is not None
        pillars = pillars[: move.pillar - 1] + (replace(target, die=die),) + pillars[move.pillar :]
        towers = state.towers[:CENTRAL] + (replace(tower, top=replace(tower.top, pillars=pillars)),)
        return replace(state, table=_swap_table_die(state.table, die, target.die), towers=towers)
    if effect == "reroll":
        return replace(state, table=_swap_table_die(state.table, die, Die(die.colour, 0)))
    return replace(state, table=_swap_table_die(state.table, die, Die(die.colour, move.number)))
