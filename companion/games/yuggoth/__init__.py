"""Cthulhu Wars on the Yuggoth map (Petersen Games): the map's own machinery - the Watcher
of the Green Pyramid, Slime Molds, the Laboratory and Brain Cylinders - on a minimal,
stated model of the base game (docs/yuggoth.md). 2-5 players."""

from __future__ import annotations

from dataclasses import replace

from ..base import BadState, Game, TableView
from .board import RULEBOOK, BoardError
from .describe import describe
from .moves import (
    Awaken,
    BuildGate,
    CallSlime,
    Capture,
    Control,
    Fight,
    Move,
    MoveUnit,
    Pain,
    Recruit,
    Summon,
    Surgery,
    WatcherTo,
    parse_move,
)
from .rules import apply_move, chance_outcomes, explain_illegal, legal_moves, to_move
from .scoring import score
from .setup import OPTIONS, data, initial_state
from .sight import YuggothSight
from .state import (
    ACTIONS,
    AWAKENING,
    BATTLE,
    DECAY,
    FIRST_PLAYER,
    GATHER,
    NO_GATE,
    OVER,
    RITUALS,
    SLIMES_SIDE,
    STEPS,
    WATCHER_ATTACK,
    WATCHER_SIDE,
    YuggothState,
)

__all__ = ["YuggothGame"]

YUGGOTH_LEDS = {
    GATHER: 1,
    FIRST_PLAYER: 1,
    DECAY: 2,
    RITUALS: 2,
    AWAKENING: 2,
    ACTIONS: 3,
    WATCHER_ATTACK: 4,
    BATTLE: 4,
}


class YuggothGame(Game[YuggothState, Move]):
    name = "yuggoth"
    title = "Cthulhu Wars: Yuggoth"
    min_players = 2
    max_players = 5
    rulebook = RULEBOOK
    options = OPTIONS
    state_type = YuggothState
    state_noun = "a Yuggoth state"
    sight = YuggothSight()

    initial_state = staticmethod(initial_state)
    to_move = staticmethod(to_move)
    legal_moves = staticmethod(legal_moves)
    chance_outcomes = staticmethod(chance_outcomes)

    def canonical(self, state: YuggothState, move: Move) -> Move:
        """Area names typed in any case become the map's spelling; Surgery lists in map order."""
        spell = state.board.spelled
        if isinstance(move, Recruit | BuildGate | Summon | Awaken | CallSlime | Control | WatcherTo | Fight):
            move = replace(move, area=spell(move.area))
        elif isinstance(move, Capture):
            move = replace(move, area=spell(move.area))
        elif isinstance(move, MoveUnit):
            move = replace(move, source=spell(move.source), target=spell(move.target))
        elif isinstance(move, Pain) and move.to:
            move = replace(move, to=spell(move.to))
        elif isinstance(move, Surgery):
            areas = [spell(a) for a in move.areas]
            if all(state.board.has(a) for a in areas):
                areas.sort(key=state.board.areas.index)
            move = Surgery(tuple(areas))
        return move

    apply_unchecked = staticmethod(apply_move)
    explain_illegal = staticmethod(explain_illegal)
    score = staticmethod(score)

    def phase(self, state: YuggothState) -> str:
        return state.step

    def phase_step(self, state: YuggothState) -> int | None:
        """Gather Power and the First Player on LED 1, the Doom Phase (decay, rituals,
        awakening) 2, the Action Phase 3, the Watcher's attacks and battles 4."""
        return YUGGOTH_LEDS.get(state.step)

    def alarm(self, before: YuggothState, after: YuggothState) -> str | None:
        """The Watcher awakens: the table should look up (Yuggoth: The Watcher)."""
        if after.watcher.awake and not before.watcher.awake:
            return "the Watcher of the Green Pyramid awakens"
        return None

    def seat_names(self, state: YuggothState) -> tuple[str, ...]:
        return tuple(f.name for f in state.factions)

    def describe(self, state: YuggothState) -> TableView:
        return describe(state, to_move(state))

    def check_state(self, state: YuggothState) -> None:
        check_state(state)

    parse_move = staticmethod(parse_move)


def check_state(state: YuggothState) -> None:
    """BadState unless every part of `state` is something the rules can play on."""

    def fail(why: str) -> None:
        raise BadState(why)

    try:
        board = state.board
    except BoardError as error:
        raise BadState(str(error)) from error
    n = len(state.factions)
    areas = len(board.areas)
    if not 2 <= n <= 5:
        fail("Yuggoth is played by 2 to 5 factions")
    known = data()["factions"]
    if any(f.faction not in known for f in state.factions) or len({f.faction for f in state.factions}) != n:
        fail(f"factions are different names from {', '.join(sorted(known))}")
    if len(state.gates) != areas or len(state.slimes) != areas:
        fail("gates and slimes need one entry per Area of the map")
    keys = [(f.area, f.seat) for f in state.units]
    if any(not board.has(a) or not 0 <= s < n for a, s in keys):
        fail("every Unit entry names an Area of the map and a seat")
    if keys != sorted(set(keys), key=lambda k: (board.areas.index(k[0]), k[1])) or any(
        not f.total for f in state.units
    ):
        fail("Unit entries are in map and seat order, one per (Area, seat), none empty")
    if any(not NO_GATE <= g < n for g in state.gates):
        fail("a Gate is -2 (none), -1 (Abandoned) or a seat")
    if any(s < 0 for s in state.slimes) or sum(state.slimes) > data()["slime_molds"]:
        fail("Slime Molds per Area are 0 or more, 6 at most in all")
    for force in state.units:
        if min(force.acolytes, force.cylinders, force.monsters, force.goo) < 0 or force.goo > 1:
            fail("Unit counts are never negative, and a faction has one Great Old One")
    for f in state.factions:
        if f.power < 0 or f.doom < 0 or f.elder_signs < 0 or f.pool < 0 or not board.has(f.start):
            fail(f"{f.name}: Power, Doom, Elder Signs and pool are never negative; the start is an Area")
        if any(not 0 <= c.owner < n or c.kind not in ("acolyte", "cylinder") for c in f.captives):
            fail(f"{f.name}: a Captive is an Acolyte or a Brain Cylinder of a faction in the game")
    if state.step not in STEPS or not 0 <= state.current < n or not 0 <= state.first < n:
        fail("step, current or first is out of range")
    if any(not 0 <= s < n for s in state.pending) or state.rituals < 0 or state.round < 1:
        fail("pending seats, rituals or round out of range")
    w = state.watcher
    if w.awake and not board.has(w.area) or not w.awake and w.area:
        fail("an awake Watcher stands in an Area of the map; a sleeping one is off the map")
    if not 0 <= w.position <= 30 or any(not 0 <= s < n for s in (*w.attackers, *w.targets)):
        fail("the Watcher's token or its attackers are out of range")
    b = state.battle
    if (b is None) != (state.step != BATTLE):
        fail("a Battle record exists exactly during the battle step")
    if b is not None:
        if not board.has(b.area) or b.stage not in ("dice", "roll", "kills", "pains"):
            fail("the Battle's Area or stage is unknown")
        if any(not (0 <= s < n or s in (WATCHER_SIDE, SLIMES_SIDE)) for s in b.sides):
            fail("a Battle side is a seat, -1 (the Watcher) or -2 (uncontrolled Slime Molds)")
    if state.step == OVER and b is not None:
        fail("no Battle after the game is over")
