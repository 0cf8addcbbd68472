"""Who acts, what is legal, and the state after a move: the round, the Watcher, Battles.

`apply_move` applies a legal move and then `settle` works out everything that follows
without a choice (forced losses, a single target, the end of a Battle), logging each.
"""

from __future__ import annotations

from dataclasses import replace

from ..base import CHANCE, IllegalMove
from .actions import ACTION_PHASE, apply_action, legal_actions, why_not
from .battle import (
    battle_over,
    combat_range,
    declare,
    declarer,
    end_battle,
    kill_chooser,
    kill_moves,
    killable,
    pain_chooser,
    pain_moves,
    record_roll,
    roll_outcomes,
    roll_to_make,
    start_pains,
    take_kill,
    take_kills,
    take_pain,
)
from .board import RULEBOOK
from .moves import (
    ChooseFirst,
    Combat,
    GatherPower,
    Kill,
    Kills,
    Move,
    NoRitual,
    Pain,
    Pains,
    Ritual,
    Roll,
    WatcherAttacks,
    WatcherStays,
    WatcherTo,
)
from .rounds import (
    begin_action_phase,
    doom_for_gates,
    first_player_candidates,
    gather_power,
    next_ritual,
    perform_ritual,
    ritual_cost,
    set_first,
)
from .state import (
    ACTIONS,
    AWAKENING,
    DECAY,
    FIRST_PLAYER,
    GATHER,
    OVER,
    RITUALS,
    WATCHER_ATTACK,
    YuggothState,
)
from .turns import end_turn
from .watcher import (
    ATTACKS,
    AWAKENS,
    CONTROLLING,
    DECAYS,
    attack,
    attack_moves,
    awakening_roll,
    decay,
    destinations,
    die,
    move_watcher,
    next_attack,
    stays,
)

BASE_ROUND = "Cthulhu Wars base game (the companion's minimal model, docs/yuggoth.md): the round"
BATTLES = "Cthulhu Wars base game (the companion's minimal model, docs/yuggoth.md): Battle"
DIE = tuple((Roll(v), 1 / 6) for v in range(1, 7))
Actor = int | str | None


def to_move(state: YuggothState) -> Actor:
    if state.step == OVER:
        return None
    if state.battle is not None:
        b = state.battle
        if b.stage == "dice":
            return declarer(b)
        if b.stage == "roll":
            return CHANCE
        if b.stage == "kills":
            return b.sides[kill_chooser(b)]
        return pain_chooser(b)[1]
    if state.step in (DECAY, AWAKENING):
        return CHANCE
    if state.step == WATCHER_ATTACK:
        return "watcher"
    return state.current


def chance_outcomes(state: YuggothState) -> tuple[tuple[Move, float], ...]:
    if to_move(state) != CHANCE:
        return ()
    if state.battle is not None:
        return tuple(roll_outcomes(state.battle))
    return DIE


def legal_moves(state: YuggothState) -> tuple[Move, ...]:
    return state.memo("legal_moves", lambda: _legal_moves(state))


def _legal_moves(state: YuggothState) -> tuple[Move, ...]:
    step = state.step
    if step == OVER:
        return ()
    if state.battle is not None:
        b = state.battle
        if b.stage == "dice":
            low, high = combat_range(state, declarer(b), b.area)
            return tuple(Combat(n) for n in range(low, high + 1))
        if b.stage == "roll":
            return tuple(m for m, _ in roll_outcomes(b))
        if b.stage == "kills":
            return kill_moves(state)
        return pain_moves(state)
    if step == GATHER:
        return (GatherPower(),)
    if step == FIRST_PLAYER:
        return tuple(ChooseFirst(state.factions[s].faction) for s in first_player_candidates(state))
    if step in (DECAY, AWAKENING):
        return tuple(m for m, _ in DIE)
    if step == RITUALS:
        cost = ritual_cost(state)
        if 0 <= cost <= state.factions[state.current].power:
            return (Ritual(), NoRitual())
        return (NoRitual(),)
    if step == WATCHER_ATTACK:
        return attack_moves(state)
    return legal_actions(state)


def apply_move(state: YuggothState, move: Move) -> YuggothState:
    """The state after a legal move (unchecked), with everything forced worked out."""
    return settle(_apply(state, move))


def _apply(state: YuggothState, move: Move) -> YuggothState:
    if state.battle is not None:
        if isinstance(move, Combat):
            return declare(state, move)
        if isinstance(move, Kills | Pains):
            return record_roll(state, move)
        if isinstance(move, Kill):
            return take_kill(state, move)
        if isinstance(move, Pain):
            return take_pain(state, move)
    if isinstance(move, GatherPower):
        return gather_power(state)
    if isinstance(move, ChooseFirst):
        return set_first(state, state.seat_of(move.faction))
    if isinstance(move, Roll):
        if state.step == DECAY:
            return doom_for_gates(decay(state, move.value))
        return begin_action_phase(awakening_roll(state, move.value))
    if isinstance(move, Ritual):
        return perform_ritual(state)
    if isinstance(move, NoRitual):
        return next_ritual(state)
    if isinstance(move, WatcherTo):
        return next_attack(move_watcher(state, move.area))
    if isinstance(move, WatcherStays):
        return stays(state)
    if isinstance(move, WatcherAttacks):
        return attack(state, state.seat_of(move.faction))
    return apply_action(state, move)


def settle(state: YuggothState) -> YuggothState:
    """Work out the steps that leave nobody a choice, until someone must decide or roll."""
    for _ in range(1000):
        following = _forced(state)
        if following is None:
            return state
        state = following
    raise RuntimeError("settle did not come to rest")  # pragma: no cover - a bug, not a game state


def _forced(state: YuggothState) -> YuggothState | None:
    b = state.battle
    if b is None:
        return None
    if b.stage == "roll" and roll_to_make(b) is None:
        return take_kills(state)
    if b.stage == "kills":
        i = kill_chooser(b)
        if i < 0:
            return start_pains(state)
        choices = kill_moves(state)
        if len(choices) == 1 or b.losses[i] >= sum(killable(state, b.sides[i], b.area).values()):
            return take_kill(state, choices[0])
        return None
    if b.stage == "pains":
        if battle_over(b):
            return _after_battle(state)
        retreats = pain_moves(state)
        if len(retreats) == 1:
            return take_pain(state, retreats[0])
    return None


def _after_battle(state: YuggothState) -> YuggothState:
    """A Watcher at 0 dies; a Watcher Attack goes on; a player's Battle ends their turn."""
    then = state.battle.then if state.battle else ACTIONS
    state = end_battle(state)
    if state.watcher.awake and state.watcher.position <= 0:
        state = die(state, in_doom_phase=False)
        state = replace(state, watcher=replace(state.watcher, attackers=(), targets=()))
    if then == WATCHER_ATTACK:
        return next_attack(state)
    return end_turn(replace(state, step=ACTIONS))


# ---- why not -----------------------------------------------------------------------


def explain_illegal(state: YuggothState, move: Move) -> IllegalMove:
    """The most specific reason the rules give for refusing `move` now."""
    step = state.step
    if step == OVER:
        return IllegalMove("the game is over", f"{BASE_ROUND}: the end of the game")
    b = state.battle
    if b is not None:
        if isinstance(move, Combat):
            low, high = combat_range(state, max(declarer(b), 0), b.area)
            return IllegalMove(f"this side's Combat is {low} to {high} dice here", BATTLES)
        if b.stage == "dice" and not isinstance(move, Combat):
            seat = declarer(b)
            return IllegalMove(f"first {state.factions[seat].name} declares its Combat dice", BATTLES)
        if isinstance(move, Kills | Pains | Roll):
            return IllegalMove(f"the dice can show {', '.join(str(m) for m in legal_moves(state))}", BATTLES)
        if isinstance(move, Kill):
            return IllegalMove(f"no {move.kind} of this side can take the Kill", BATTLES)
        if isinstance(move, Pain):
            if move.kind == "cylinder":
                return IllegalMove(
                    "Brain Cylinders cannot be assigned Pain results in Battle",
                    f"{RULEBOOK}: Brain Cylinders",
                )
            return IllegalMove(
                f"a Pained Unit retreats to an adjacent Area without the enemy's Units: {move} is not one of "
                f"{', '.join(str(m) for m in legal_moves(state)) or 'the choices'}",
                f"{BATTLES} / {RULEBOOK}: Brain Cylinders (they do not block a retreat)",
            )
        return IllegalMove(f"a Battle on {b.area} is being fought: finish it first", BATTLES)
    if step == WATCHER_ATTACK:
        if isinstance(move, WatcherTo):
            return _why_not_watcher_to(state, move)
        if isinstance(move, WatcherAttacks):
            if not state.watcher.targets:
                return IllegalMove("first the Watcher moves; then it attacks the factions there", CONTROLLING)
            return IllegalMove(
                f"{move.faction} is not among the factions it has still to attack here", CONTROLLING
            )
        if isinstance(move, WatcherTo | WatcherStays) and state.watcher.targets:
            return IllegalMove("the Watcher has moved: choose whom it attacks next", CONTROLLING)
        if isinstance(move, WatcherStays):
            return IllegalMove("an Area with Units is within its reach", CONTROLLING)
        return IllegalMove("the Watcher Attacks before the First Player's first turn", ATTACKS)
    if step in (DECAY, AWAKENING):
        if isinstance(move, Roll):
            return IllegalMove("a die shows 1 to 6", DECAYS if step == DECAY else AWAKENS)
        return IllegalMove(
            "the table must roll a die for the Watcher now", DECAYS if step == DECAY else AWAKENS
        )
    if step == RITUALS:
        if isinstance(move, Ritual):
            cost = ritual_cost(state)
            if cost < 0:
                return IllegalMove("the Ritual track is at its end", f"{BASE_ROUND}: Ritual of Annihilation")
            return IllegalMove(f"a Ritual costs {cost} Power", f"{BASE_ROUND}: Ritual of Annihilation")
        return IllegalMove("each faction now decides on a Ritual ('ritual' or 'no ritual')", BASE_ROUND)
    if step == GATHER:
        return IllegalMove("the round begins with Gather Power", BASE_ROUND)
    if step == FIRST_PLAYER:
        return IllegalMove("the First Player is one of the factions with the most Power", BASE_ROUND)
    if step == ACTIONS:
        reason = why_not(state, move)
        if reason is not None:
            return reason
    return IllegalMove(f"{move} is not legal in the {step}", ACTION_PHASE)


def _why_not_watcher_to(state: YuggothState, move: WatcherTo) -> IllegalMove:
    areas, teleport = destinations(state)
    if move.area == state.watcher.area:
        return IllegalMove("The Watcher may never remain in the same Area", CONTROLLING)
    if not state.board.has(move.area):
        return IllegalMove(f"{move.area!r} is not an Area of this map", CONTROLLING)
    if teleport:
        return IllegalMove(f"no Units of any faction are on {move.area}", CONTROLLING)
    return IllegalMove(
        f"the Watcher must move into an adjacent Area with Units: {', '.join(areas)}", CONTROLLING
    )
