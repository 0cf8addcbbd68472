"""The Action Phase: what the current faction may do, why not, and what it does.

Each action has a check (`why_not_*` returns the IllegalMove or None), and
`legal_actions` lists the candidates that pass their check, so the list and the
explanation can never disagree. Base-game actions are the companion's minimal model
(docs/yuggoth.md); the map's own actions cite the Yuggoth rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations_with_replacement

from ..base import IllegalMove
from .battle import BRAIN_CYLINDERS, start_battle
from .board import RULEBOOK
from .control import (
    FERTILITY_CULT,
    LABORATORY,
    SLIME_SEAS,
    SPELLBOOKS,
    add_unit,
    count,
    cylinders_in_play,
    factions_in,
    goo_name,
    has_spellbook,
    laboratory_surgeons,
    logged,
    neutral_slimes,
    settle_gates,
    slime_controller,
    slimes_in_play,
    units_of,
    with_gate,
)
from .moves import (
    Awaken,
    BuildGate,
    CallSlime,
    Capture,
    Control,
    ElderSign,
    Fight,
    Move,
    MoveUnit,
    Pass,
    Recruit,
    Spellbook,
    Summon,
    Surgery,
)
from .rounds import add_doom
from .setup import data
from .state import (
    ABANDONED,
    ACOLYTE,
    ACTIONS,
    BATTLE,
    CYLINDER,
    GOO,
    MONSTER,
    NO_GATE,
    SLIME,
    SLIMES_SIDE,
    WATCHER_SIDE,
    Captive,
    YuggothState,
)
from .turns import end_turn, spend

BASE = "Cthulhu Wars base game (the companion's minimal model, docs/yuggoth.md)"
ACTION_PHASE = f"{BASE}: Action Phase"
SURGERY = f"{RULEBOOK}: Surgery"
CALL_SLIME = f"{RULEBOOK}: Call Slime Mold"
BLACK_GOAT = f"{RULEBOOK}: Special Rule for Black Goat"
WATCHER_BATTLE = f"{RULEBOOK}: Controlling the Watcher (Battle against the Watcher)"
NEUTRAL_SLIMES = f"{RULEBOOK}: The Slime Seas (uncontrolled Slime Molds)"
MOVING = (ACOLYTE, MONSTER, GOO, SLIME)
"""Units that can use the Move Action: "Brain Cylinders ... cannot use the Move Action"."""

ActionMove = (
    Recruit | BuildGate | Summon | Awaken | MoveUnit | Fight | Capture | Surgery | CallSlime | Control
)


def cost_of(state: YuggothState, move: Move) -> int:
    """The Power an action costs."""
    if isinstance(move, Recruit | MoveUnit | Fight | Capture | Surgery):
        return 1
    if isinstance(move, BuildGate):
        return 3
    if isinstance(move, Summon):
        return int(data()["summon_cost"])
    if isinstance(move, Awaken):
        return int(data()["factions"][state.factions[state.current].faction]["awaken_cost"])
    if isinstance(move, CallSlime):
        # "If there are no Slimes in play, this costs 0; if at least one Slime is in play, the cost is 1."
        return 1 if slimes_in_play(state) else 0
    return 0


def is_unlimited(state: YuggothState, move: Move) -> bool:
    """Actions that do not use up the turn: taking Control of an Abandoned Gate, recording a
    Spellbook, turning in an Elder Sign, and Black Goat's Calls under Fertility Cult."""
    if isinstance(move, Control | Spellbook | ElderSign):
        return True
    return isinstance(move, CallSlime) and has_spellbook(state, state.current, FERTILITY_CULT)


def _area(state: YuggothState, area: str) -> IllegalMove | None:
    if not state.board.has(area):
        return IllegalMove(f"{area!r} is not an Area of this map", f"{RULEBOOK}: Set Up and Map Basics")
    return None


def _afford(state: YuggothState, move: Move) -> IllegalMove | None:
    cost = cost_of(state, move)
    me = state.factions[state.current]
    if cost > me.power:
        return IllegalMove(f"{move} costs {cost} Power and {me.name} has {me.power}", ACTION_PHASE)
    return None


def why_not(state: YuggothState, move: Move) -> IllegalMove | None:
    """The reason `move` is not a legal action for the current faction now, or None."""
    seat = state.current
    me = state.factions[seat]
    if isinstance(move, Pass):
        return None
    areas = [a for a in _areas_named(move)]
    for a in areas:
        if bad := _area(state, a):
            return bad
    if bad := _afford(state, move):
        return bad
    if isinstance(move, Recruit):
        if me.pool <= 0:
            return IllegalMove(f"{me.name} has no Acolyte left in its pool", ACTION_PHASE)
        anywhere = not any(units_of(state, seat, a) for a in state.board.areas)
        if not anywhere and not units_of(state, seat, move.area):
            return IllegalMove(
                f"Recruit where you have a Unit (Brain Cylinders count): {me.name} has none on {move.area}",
                f"{BRAIN_CYLINDERS} / {ACTION_PHASE}",
            )
        return None
    if isinstance(move, BuildGate):
        if state.gate(move.area) != NO_GATE:
            return IllegalMove(f"{move.area} already has a Gate", ACTION_PHASE)
        if not state.force(move.area, seat).cultists:
            return IllegalMove(f"building a Gate needs one of your Cultists on {move.area}", ACTION_PHASE)
        return None
    if isinstance(move, Summon | Awaken):
        if state.gate(move.area) != seat:
            return IllegalMove(f"{me.name} does not control a Gate on {move.area}", ACTION_PHASE)
        if isinstance(move, Awaken) and any(f.goo for f in state.placed(seat)):
            return IllegalMove(f"{goo_name(state, seat)} is already on the map", ACTION_PHASE)
        return None
    if isinstance(move, MoveUnit):
        return _why_not_move(state, move)
    if isinstance(move, Fight):
        return _why_not_fight(state, move)
    if isinstance(move, Capture):
        return _why_not_capture(state, move)
    if isinstance(move, Surgery):
        return _why_not_surgery(state, move)
    if isinstance(move, CallSlime):
        if slime_controller(state) != seat:
            return IllegalMove(
                f"{me.name} neither Controls the Gate on the {state.board.overlook or 'Slime Sea Overlook'} "
                "nor may Call through Yog-Sothoth there",
                SLIME_SEAS,
            )
        if move.area not in state.board.slime_seas:
            return IllegalMove(
                f"Slime Molds are placed into a Slime Sea ({', '.join(state.board.slime_seas)}), "
                f"not {move.area}",
                CALL_SLIME if not has_spellbook(state, seat, FERTILITY_CULT) else BLACK_GOAT,
            )
        if slimes_in_play(state) >= data()["slime_molds"]:
            return IllegalMove("all 6 Slime Molds are in play", f"{RULEBOOK}: Slime Mold(6)")
        return None
    if isinstance(move, Control):
        if state.gate(move.area) != ABANDONED:
            return IllegalMove(f"there is no Abandoned Gate on {move.area}", ACTION_PHASE)
        if not state.force(move.area, seat).cultists:
            return IllegalMove(f"taking Control needs one of your Cultists on {move.area}", ACTION_PHASE)
        return None
    if isinstance(move, Spellbook):
        owner = SPELLBOOKS.get(move.name)
        if owner is None:
            return IllegalMove(f"the companion records only {', '.join(SPELLBOOKS)}", BLACK_GOAT)
        if owner != me.faction:
            return IllegalMove(f"{move.name} is a {owner} Spellbook", BLACK_GOAT)
        if move.name in me.spellbooks:
            return IllegalMove(f"{me.name} already has {move.name}", BLACK_GOAT)
        return None
    if isinstance(move, ElderSign):
        if me.elder_signs <= 0:
            return IllegalMove(f"{me.name} holds no Elder Sign", ACTION_PHASE)
        if not 1 <= move.value <= 3:
            return IllegalMove("an Elder Sign is worth 1, 2 or 3 Doom", ACTION_PHASE)
        return None
    return IllegalMove(f"'{move}' is not an Action Phase move, and it is the Action Phase", ACTION_PHASE)


def _areas_named(move: Move) -> list[str]:
    if isinstance(move, MoveUnit):
        return [move.source, move.target]
    if isinstance(move, Surgery):
        return list(move.areas)
    area = getattr(move, "area", None)
    return [area] if isinstance(area, str) else []


def _why_not_move(state: YuggothState, move: MoveUnit) -> IllegalMove | None:
    seat = state.current
    if move.kind == CYLINDER:
        return IllegalMove(
            "Brain Cylinders cannot use the Move Action: another Unit carries them ('with N cylinders')",
            BRAIN_CYLINDERS,
        )
    if count(state, seat, move.source, move.kind) < 1:
        return IllegalMove(f"{state.factions[seat].name} has no {move.kind} on {move.source}", ACTION_PHASE)
    if move.target not in state.board.neighbours(move.source):
        return IllegalMove(f"{move.target} is not adjacent to {move.source}", ACTION_PHASE)
    if move.kind == SLIME and move.target == state.board.overlook:
        return IllegalMove("Slimes cannot use a Move Action to go to the Slime Sea Overlook", SLIME_SEAS)
    have = state.force(move.source, seat).cylinders
    if not 0 <= move.cylinders <= have:
        return IllegalMove(f"only {have} of your Brain Cylinders are on {move.source}", BRAIN_CYLINDERS)
    return None


def _why_not_fight(state: YuggothState, move: Fight) -> IllegalMove | None:
    seat = state.current
    if not units_of(state, seat, move.area):
        return IllegalMove(f"declaring a Battle needs your Units on {move.area}", ACTION_PHASE)
    if move.opponent == "watcher":
        if not state.watcher.awake or state.watcher.area != move.area:
            return IllegalMove(f"the Watcher is not on {move.area}", WATCHER_BATTLE)
        return None
    if move.opponent == "slimes":
        if not neutral_slimes(state, move.area):
            return IllegalMove(f"no uncontrolled Slime Molds are on {move.area}", NEUTRAL_SLIMES)
        return None
    enemy = state.seat_of(move.opponent)
    if enemy < 0 or enemy == seat:
        return IllegalMove(f"{move.opponent!r} is not an opposing faction in this game", ACTION_PHASE)
    if not units_of(state, enemy, move.area):
        return IllegalMove(f"{state.factions[enemy].name} has no Units on {move.area}", ACTION_PHASE)
    return None


def _protected(state: YuggothState, seat: int, area: str) -> bool:
    """Monsters or a Great Old One (Slime Molds too) keep a faction's Cultists from Capture."""
    return any(count(state, seat, area, kind) for kind in (MONSTER, GOO, SLIME))


def _why_not_capture(state: YuggothState, move: Capture) -> IllegalMove | None:
    seat = state.current
    victim = state.seat_of(move.faction)
    if victim < 0 or victim == seat:
        return IllegalMove(f"{move.faction!r} is not an opposing faction in this game", ACTION_PHASE)
    if move.kind not in (ACOLYTE, CYLINDER):
        return IllegalMove("only Cultists (Acolytes, Brain Cylinders) are Captured", BRAIN_CYLINDERS)
    if not _protected(state, seat, move.area):
        return IllegalMove(f"Capturing needs your Monster or Great Old One on {move.area}", ACTION_PHASE)
    if not count(state, victim, move.area, move.kind):
        return IllegalMove(f"{state.factions[victim].name} has no {move.kind} on {move.area}", ACTION_PHASE)
    if _protected(state, victim, move.area):
        return IllegalMove(f"{state.factions[victim].name}'s Monsters guard its Cultists there", ACTION_PHASE)
    if move.convert:
        if move.kind != CYLINDER:
            return IllegalMove("only a Brain Cylinder can be Converted", BRAIN_CYLINDERS)
        limit = data()["cylinder_limit"]
        if cylinders_in_play(state, seat) >= limit:
            return IllegalMove(
                f"{state.factions[seat].name} already has {limit} Brain Cylinders in play: the hard limit",
                BRAIN_CYLINDERS,
            )
    return None


def _why_not_surgery(state: YuggothState, move: Surgery) -> IllegalMove | None:
    seat = state.current
    if seat not in laboratory_surgeons(state):
        return IllegalMove(
            "Surgery needs Control of the Laboratory Gate (or Yog-Sothoth in the Laboratory)", LABORATORY
        )
    limit = data()["cylinder_limit"]
    room = min(4, limit - cylinders_in_play(state, seat))
    if not 1 <= len(move.areas) <= room:
        return IllegalMove(
            f"Surgery replaces 1 to 4 Cultists, and {state.factions[seat].name} has room for "
            f"{max(0, room)} more Brain Cylinders (hard limit {limit})",
            SURGERY,
        )
    for area in set(move.areas):
        wanted = move.areas.count(area)
        have = state.force(area, seat).acolytes
        if wanted > have:
            return IllegalMove(
                f"{state.factions[seat].name} has {have} Acolytes on {area}, not {wanted}", SURGERY
            )
    return None


# ---- candidates --------------------------------------------------------------------


def _candidates(state: YuggothState) -> Iterator[Move]:
    seat = state.current
    me = state.factions[seat]
    board = state.board
    mine = [a for a in board.areas if units_of(state, seat, a)]
    for area in mine or board.areas:
        yield Recruit(area)
    for area in mine:
        yield BuildGate(area)
    for area in board.areas:
        if state.gate(area) == seat:
            yield Summon(area)
            yield Awaken(area)
        if state.gate(area) == ABANDONED:
            yield Control(area)
    for area in mine:
        cylinders = state.force(area, seat).cylinders
        for kind in MOVING:
            if count(state, seat, area, kind):
                for near in board.neighbours(area):
                    for carried in range(cylinders + 1):
                        yield MoveUnit(kind, area, near, carried)
    for area in mine:
        if state.watcher.awake and state.watcher.area == area:
            yield Fight(area, "watcher")
        if neutral_slimes(state, area):
            yield Fight(area, "slimes")
        for other in factions_in(state, area):
            if other != seat:
                yield Fight(area, state.factions[other].faction)
                for kind in (ACOLYTE, CYLINDER):
                    yield Capture(state.factions[other].faction, kind, area)
                yield Capture(state.factions[other].faction, CYLINDER, area, convert=True)
    if seat in laboratory_surgeons(state):
        acolytes = [a for a in board.areas for _ in range(state.force(a, seat).acolytes)]
        for size in range(1, 5):
            for chosen in sorted(
                set(combinations_with_replacement(sorted(set(acolytes), key=board.areas.index), size))
            ):
                yield Surgery(chosen)
    for area in board.slime_seas:
        yield CallSlime(area)
    for name, owner in SPELLBOOKS.items():
        if owner == me.faction:
            yield Spellbook(name)
    for value in (1, 2, 3):
        yield ElderSign(value)
    yield Pass()


def legal_actions(state: YuggothState) -> tuple[Move, ...]:
    return tuple(m for m in _candidates(state) if why_not(state, m) is None)


# ---- applying ----------------------------------------------------------------------


def apply_action(state: YuggothState, move: Move) -> YuggothState:
    """The state after a legal action; a normal action ends the turn, an unlimited one does not."""
    seat = state.current
    name = state.factions[seat].name
    if isinstance(move, Pass):
        factions = list(state.factions)
        factions[seat] = replace(factions[seat], power=0, out=True)
        return end_turn(logged(replace(state, factions=tuple(factions)), f"{name} passes"))
    state = spend(state, seat, cost_of(state, move))
    unlimited = is_unlimited(state, move)
    if isinstance(move, Recruit):
        factions = list(state.factions)
        factions[seat] = replace(factions[seat], pool=factions[seat].pool - 1)
        state = add_unit(replace(state, factions=tuple(factions)), move.area, seat, ACOLYTE)
        state = logged(state, f"{name} Recruits an Acolyte on {move.area}")
    elif isinstance(move, BuildGate):
        state = logged(with_gate(state, move.area, seat), f"{name} builds a Gate on {move.area}")
    elif isinstance(move, Summon):
        state = logged(add_unit(state, move.area, seat, MONSTER), f"{name} Summons a Monster on {move.area}")
    elif isinstance(move, Awaken):
        state = add_unit(state, move.area, seat, GOO)
        state = logged(state, f"{name} Awakens {goo_name(state, seat)} on {move.area}")
    elif isinstance(move, MoveUnit):
        state = add_unit(state, move.source, seat, move.kind, -1)
        state = add_unit(state, move.target, seat, move.kind, 1)
        if move.cylinders:
            state = add_unit(state, move.source, seat, CYLINDER, -move.cylinders)
            state = add_unit(state, move.target, seat, CYLINDER, move.cylinders)
        state = settle_gates(logged(state, f"{name}: {move}"))
    elif isinstance(move, Fight):
        opponent = {"watcher": WATCHER_SIDE, "slimes": SLIMES_SIDE}.get(move.opponent)
        if opponent is None:
            opponent = state.seat_of(move.opponent)
        return start_battle(replace(state, step=BATTLE), move.area, seat, opponent, then=ACTIONS)
    elif isinstance(move, Capture):
        state = _capture(state, move)
    elif isinstance(move, Surgery):
        for area in move.areas:
            state = add_unit(state, area, seat, ACOLYTE, -1)
            state = add_unit(state, area, seat, CYLINDER, 1)
        factions = list(state.factions)
        factions[seat] = replace(factions[seat], pool=factions[seat].pool + len(move.areas))
        state = replace(state, factions=tuple(factions))
        state = logged(
            state, f"{name} performs Surgery: {len(move.areas)} Brain Cylinders ({', '.join(move.areas)})"
        )
    elif isinstance(move, CallSlime):
        state = add_unit(state, move.area, seat, SLIME)
        state = logged(state, f"{name} Calls a Slime Mold into {move.area}")
    elif isinstance(move, Control):
        state = logged(with_gate(state, move.area, seat), f"{name} takes Control of the Gate on {move.area}")
    elif isinstance(move, Spellbook):
        factions = list(state.factions)
        factions[seat] = replace(factions[seat], spellbooks=(*factions[seat].spellbooks, move.name))
        state = logged(replace(state, factions=tuple(factions)), f"{name} records the {move.name} Spellbook")
    elif isinstance(move, ElderSign):
        factions = list(state.factions)
        factions[seat] = replace(factions[seat], elder_signs=factions[seat].elder_signs - 1)
        state = replace(state, factions=tuple(factions))
        state = add_doom(
            logged(state, f"{name} turns in an Elder Sign for {move.value} Doom"), seat, move.value
        )
    if unlimited:
        return replace(state, turn_done=True)
    return end_turn(state)


def _capture(state: YuggothState, move: Capture) -> YuggothState:
    """The Cultist goes onto the capturer's card, or a Brain Cylinder is Converted in place.

    Yuggoth: "when a Cylinder is Captured, you may choose instead to 'Convert' it into a
    Cylinder of your own Faction's Color, leaving it on the Map." A Converted Cylinder that
    was its owner's last Cultist by a Gate takes that Gate over (it sits on it).
    """
    seat = state.current
    victim = state.seat_of(move.faction)
    name = state.factions[seat].name
    state = add_unit(state, move.area, victim, move.kind, -1)
    if move.convert:
        state = add_unit(state, move.area, seat, CYLINDER, 1)
        if state.gate(move.area) == victim and not state.force(move.area, victim).cultists:
            state = with_gate(state, move.area, seat)
        return logged(state, f"{name} Captures and Converts {state.factions[victim].name}'s Brain Cylinder")
    factions = list(state.factions)
    factions[seat] = replace(factions[seat], captives=(*factions[seat].captives, Captive(victim, move.kind)))
    state = replace(state, factions=tuple(factions))
    state = logged(state, f"{name} Captures {state.factions[victim].name}'s {move.kind} on {move.area}")
    return settle_gates(state)
