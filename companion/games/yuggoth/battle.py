"""A Battle step by step: Combat dice, the rolls (CHANCE), Kills, then Pains.

Dice: a 6 is a Kill, a 4 or 5 a Pain (base game). The camera reports each side's
Kills, then its Pains among the other dice, so each roll is two small CHANCE moves.
Sides are seats, the Watcher, or uncontrolled Slime Molds.
"""

from __future__ import annotations

from dataclasses import replace
from math import comb

from .board import RULEBOOK
from .control import (
    CRAWLING_CHAOS,
    FRENZY,
    add_unit,
    blocking,
    count,
    has_spellbook,
    logged,
    neutral_slimes,
    settle_gates,
)
from .moves import Combat, Kill, Kills, Pain, Pains
from .setup import data
from .state import (
    ACOLYTE,
    CYLINDER,
    GOO,
    MONSTER,
    SLIME,
    SLIMES_SIDE,
    WATCHER_SIDE,
    Battle,
    YuggothState,
)

BRAIN_CYLINDERS = f"{RULEBOOK}: Brain Cylinders"
SLIME_COMBAT = 2  # "Slime Molds have a Combat of 2"
KILLABLE = (ACOLYTE, CYLINDER, MONSTER, GOO, SLIME)
PAINABLE = (ACOLYTE, MONSTER, GOO, SLIME)
"""Yuggoth: Brain Cylinders - "Brain Cylinders cannot be assigned Pain results in Battle"."""


def side_name(state: YuggothState, side: int) -> str:
    if side == WATCHER_SIDE:
        return "the Watcher"
    if side == SLIMES_SIDE:
        return "the uncontrolled Slime Molds"
    return state.factions[side].name


def known_combat(state: YuggothState, side: int, area: str) -> int:
    """The Combat dice the rules fix: the Watcher's token, 2 per Slime Mold, Frenzy.

    Yuggoth: "Combat dice equal to the Watcher Token's position"; Slime Molds Combat 2;
    Brain Cylinders 0 "like all Cultists" (1 with Black Goat's Frenzy).
    """
    if side == WATCHER_SIDE:
        return state.watcher.position
    if side == SLIMES_SIDE:
        return SLIME_COMBAT * neutral_slimes(state, area)
    dice = SLIME_COMBAT * count(state, side, area, SLIME)
    if has_spellbook(state, side, FRENZY):
        dice += state.force(area, side).cultists
    return dice


def combat_range(state: YuggothState, side: int, area: str) -> tuple[int, int]:
    """The dice a faction may declare: what the rules fix, plus its Monsters' and Great Old One's.

    The Yuggoth text does not give the base game's Monsters; their owner declares them,
    up to a bound per figure (yuggoth.toml) so a mistyped number is refused.
    """
    low = known_combat(state, side, area)
    if side < 0:
        return low, low
    force = state.force(area, side)
    cfg = data()
    return low, low + force.monsters * cfg["monster_max_combat"] + force.goo * cfg["goo_max_combat"]


def start_battle(state: YuggothState, area: str, attacker: int, defender: int, then: str) -> YuggothState:
    battle = Battle(area=area, sides=(attacker, defender), then=then)
    dice = []
    for side in battle.sides:
        low, high = combat_range(state, side, area)
        dice.append(low if low == high else -1)
    battle = _normalise(replace(battle, dice=(dice[0], dice[1])))
    line = f"Battle on {area}: {side_name(state, attacker)} against {side_name(state, defender)}"
    return logged(replace(state, battle=battle), line)


def _pair(values: tuple[int, int], i: int, value: int) -> tuple[int, int]:
    return (value, values[1]) if i == 0 else (values[0], value)


def _normalise(battle: Battle) -> Battle:
    """Fill in rolls that cannot vary: no dice, no dice left for Pains, Pains on the Watcher."""
    kills, pains = battle.kills, battle.pains
    for i in (0, 1):
        if battle.dice[i] == 0 and kills[i] < 0:
            kills = _pair(kills, i, 0)
        immune = battle.sides[1 - i] == WATCHER_SIDE  # "The Watcher is immune to all Pain"
        if kills[i] >= 0 and pains[i] < 0 and (battle.dice[i] - kills[i] == 0 or immune):
            pains = _pair(pains, i, 0)
    stage = battle.stage
    if stage == "dice" and min(battle.dice) >= 0:
        stage = "roll"
    return replace(battle, kills=kills, pains=pains, stage=stage)


def roll_to_make(battle: Battle) -> tuple[int, str] | None:
    """The next roll the table must report: (side index, "kills" or "pains")."""
    if battle.stage != "roll":
        return None
    for i in (0, 1):
        if battle.kills[i] < 0:
            return i, "kills"
        if battle.pains[i] < 0:
            return i, "pains"
    return None


def _binomial(n: int, p: float) -> tuple[float, ...]:
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def roll_outcomes(battle: Battle) -> tuple[tuple[Kills | Pains, float], ...]:
    """Kills among all the side's dice (1 in 6); then Pains among the rest (2 of the other 5 faces)."""
    roll = roll_to_make(battle)
    if roll is None:
        return ()
    i, what = roll
    if what == "kills":
        return tuple((Kills(k), p) for k, p in enumerate(_binomial(battle.dice[i], 1 / 6)))
    rest = battle.dice[i] - battle.kills[i]
    return tuple((Pains(k), p) for k, p in enumerate(_binomial(rest, 2 / 5)))


def declare(state: YuggothState, move: Combat) -> YuggothState:
    battle = state.battle
    assert battle is not None
    i = 0 if battle.dice[0] < 0 else 1
    battle = _normalise(replace(battle, dice=_pair(battle.dice, i, move.dice)))
    return logged(
        replace(state, battle=battle), f"{side_name(state, battle.sides[i])} rolls {move.dice} dice"
    )


def declarer(battle: Battle) -> int:
    """The seat that must declare its Combat dice now, or -1."""
    if battle.stage != "dice":
        return -1
    return battle.sides[0] if battle.dice[0] < 0 else battle.sides[1]


def record_roll(state: YuggothState, move: Kills | Pains) -> YuggothState:
    battle = state.battle
    assert battle is not None
    roll = roll_to_make(battle)
    assert roll is not None
    i, what = roll
    if what == "kills":
        battle = replace(battle, kills=_pair(battle.kills, i, move.count))
    else:
        battle = replace(battle, pains=_pair(battle.pains, i, move.count))
    battle = _normalise(battle)
    line = f"{side_name(state, battle.sides[i])} rolls {move.count} {what.capitalize()}"
    return logged(replace(state, battle=battle), line)


def killable(state: YuggothState, side: int, area: str) -> dict[str, int]:
    if side < 0:
        return {}
    return {kind: n for kind in KILLABLE if (n := count(state, side, area, kind))}


def painable(state: YuggothState, side: int, area: str) -> dict[str, int]:
    if side == SLIMES_SIDE:
        n = neutral_slimes(state, area)
        return {SLIME: n} if n else {}
    if side < 0:
        return {}
    return {kind: n for kind in PAINABLE if (n := count(state, side, area, kind))}


def take_kills(state: YuggothState) -> YuggothState:
    """Both sides have rolled: Kills hit the Watcher and uncontrolled Slimes at once; a
    faction chooses its own losses (Kills before Pains)."""
    battle = state.battle
    assert battle is not None
    area = battle.area
    losses = [0, 0]
    for i, side in enumerate(battle.sides):
        hits = battle.kills[1 - i]
        enemy = battle.sides[1 - i]
        if side == WATCHER_SIDE:
            # "each Kill rolled drops the Watcher Token down 1 point on the Doom Track"
            watcher = replace(state.watcher, position=max(0, state.watcher.position - hits))
            state = replace(state, watcher=watcher)
            if hits:
                state = logged(state, f"The Watcher drops {hits} to {watcher.position} on the Doom track")
            if (
                hits
                and enemy >= 0
                and state.factions[enemy].faction == CRAWLING_CHAOS
                and count(state, enemy, area, GOO)
            ):
                # Yuggoth: "the Watcher can provide Nyarlathotep with 2 Elder Signs for scoring a
                # Kill against it" - once, however many Kills.
                faction = state.factions[enemy]
                factions = list(state.factions)
                factions[enemy] = replace(faction, elder_signs=faction.elder_signs + 2)
                state = logged(
                    replace(state, factions=tuple(factions)), f"{faction.name} gains 2 Elder Signs"
                )
        elif side == SLIMES_SIDE:
            dead = min(hits, neutral_slimes(state, area))
            if dead:
                state = logged(
                    add_unit(state, area, -1, SLIME, -dead), f"{dead} uncontrolled Slime Molds die"
                )
        else:
            losses[i] = min(hits, sum(killable(state, side, area).values()))
    battle = replace(battle, stage="kills", losses=(losses[0], losses[1]))
    return replace(state, battle=battle)


def kill_chooser(battle: Battle) -> int:
    """The side index that must take a Kill now, or -1."""
    if battle.stage != "kills":
        return -1
    for i in (0, 1):
        if battle.losses[i]:
            return i
    return -1


def kill_moves(state: YuggothState) -> tuple[Kill, ...]:
    battle = state.battle
    if battle is None or (i := kill_chooser(battle)) < 0:
        return ()
    return tuple(Kill(kind) for kind in killable(state, battle.sides[i], battle.area))


def take_kill(state: YuggothState, move: Kill) -> YuggothState:
    battle = state.battle
    assert battle is not None
    i = kill_chooser(battle)
    seat = battle.sides[i]
    state = add_unit(state, battle.area, seat, move.kind, -1)
    battle = replace(battle, losses=_pair(battle.losses, i, battle.losses[i] - 1))
    return logged(replace(state, battle=battle), f"{side_name(state, seat)} loses a {move.kind} (Kill)")


def start_pains(state: YuggothState) -> YuggothState:
    """Kills are taken: now each side's Pains, on Units that can be Pained."""
    battle = state.battle
    assert battle is not None
    retreats = [0, 0]
    for i, side in enumerate(battle.sides):
        if side == WATCHER_SIDE:
            continue  # "The Watcher is immune to all Pain"
        retreats[i] = min(battle.pains[1 - i], sum(painable(state, side, battle.area).values()))
    return replace(state, battle=replace(battle, stage="pains", retreats=(retreats[0], retreats[1])))


def pain_chooser(battle: Battle) -> tuple[int, int]:
    """(side index taking a Pain, seat that chooses where it goes), or (-1, -1).

    The owner chooses; for uncontrolled Slime Molds "their attacker chooses" (Madness is
    not modelled).
    """
    if battle.stage != "pains":
        return -1, -1
    for i in (0, 1):
        if battle.retreats[i]:
            side = battle.sides[i]
            return i, (battle.sides[1 - i] if side == SLIMES_SIDE else side)
    return -1, -1


def retreat_areas(state: YuggothState, battle: Battle, i: int) -> tuple[str, ...]:
    """Adjacent Areas a Pained Unit of side `i` may go to: none holding the enemy's Units.

    Yuggoth: Brain Cylinders by themselves do not stop Units being Pained into their Area.
    """
    enemy = battle.sides[1 - i]
    areas = []
    for near in state.board.neighbours(battle.area):
        if enemy >= 0 and blocking(state, enemy, near):
            continue
        if enemy == SLIMES_SIDE and neutral_slimes(state, near):
            continue
        if enemy == WATCHER_SIDE and state.watcher.area == near:
            continue
        areas.append(near)
    return tuple(areas)


def pain_moves(state: YuggothState) -> tuple[Pain, ...]:
    battle = state.battle
    if battle is None:
        return ()
    i, _ = pain_chooser(battle)
    if i < 0:
        return ()
    kinds = painable(state, battle.sides[i], battle.area)
    areas = retreat_areas(state, battle, i)
    if not areas:
        return tuple(Pain(kind, "") for kind in kinds)
    return tuple(Pain(kind, to) for kind in kinds for to in areas)


def take_pain(state: YuggothState, move: Pain) -> YuggothState:
    battle = state.battle
    assert battle is not None
    i, _ = pain_chooser(battle)
    seat = battle.sides[i]
    state = add_unit(state, battle.area, seat, move.kind, -1)
    if move.to:
        state = add_unit(state, move.to, seat, move.kind, 1)
        line = f"{side_name(state, seat)}'s {move.kind} is Pained to {move.to}"
    else:
        line = f"{side_name(state, seat)}'s {move.kind} has nowhere to retreat and is Eliminated"
    battle = replace(battle, retreats=_pair(battle.retreats, i, battle.retreats[i] - 1))
    return logged(replace(state, battle=battle), line)


def battle_over(battle: Battle) -> bool:
    return battle.stage == "pains" and battle.retreats == (0, 0)


def end_battle(state: YuggothState) -> YuggothState:
    """Gates left without a Cultist are Abandoned; the Battle record goes."""
    return settle_gates(replace(state, battle=None))
