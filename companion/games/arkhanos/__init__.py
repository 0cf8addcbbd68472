"""Towers of Arkhanos: 2-4 magic schools build four wizard towers from dice and meeples."""

from __future__ import annotations

from dataclasses import replace

from ..base import CHANCE, BadState, Game, IllegalMove
from .explain import explain_illegal
from .moves import Move, Reveal, parse_move
from .rules import RULEBOOK, SETTING_UP, apply_move, chance_outcomes, legal_moves, to_move
from .scoring import score
from .setup import EFFECTS, OPTIONS, initial_state
from .sight import ArkhanosSight
from .state import BONUSES, KINDS, POOL_SPACES, SPELLS, STEPS, ArkhanosState, Die, Meeple
from .tiles import RULES, parse_entry, parse_tile
from .view import describe, phase

__all__ = ["ArkhanosGame"]


class ArkhanosGame(Game[ArkhanosState, Move]):
    name = "arkhanos"
    title = "Towers of Arkhanos"
    min_players = 2
    max_players = 4
    rulebook = RULEBOOK
    options = OPTIONS
    state_type = ArkhanosState
    state_noun = "an Arkhanos state"
    sight = ArkhanosSight()

    initial_state = staticmethod(initial_state)
    to_move = staticmethod(to_move)
    legal_moves = staticmethod(legal_moves)
    chance_outcomes = staticmethod(chance_outcomes)

    def apply(self, state: ArkhanosState, move: Move) -> ArkhanosState:
        """The checked entry point; a revealed tile may carry the players' correction of it."""
        if isinstance(move, Reveal) and move.correction and to_move(state) == CHANCE:
            if replace(move, correction="") in legal_moves(state):
                unknown = set(parse_tile(move.tile, move.correction).outer.colours) - set(state.colours)
                if unknown:
                    raise IllegalMove(
                        f"the corrected tile names dice colours not in the bag: {', '.join(sorted(unknown))}",
                        SETTING_UP,
                    )
                return apply_move(state, move)
        return super().apply(state, move)

    apply_unchecked = staticmethod(apply_move)
    explain_illegal = staticmethod(explain_illegal)
    score = staticmethod(score)
    phase = staticmethod(phase)

    def phase_step(self, state: ArkhanosState) -> int | None:
        """Draw and roll (and new floors) on LED 1, placing a die 2, its pillar bonus 3, the
        end of the turn (spells, the mana pool) 4."""
        if state.step == "over":
            return None
        return 1 if state.reveals else 1 + STEPS.index(state.step)

    def seat_names(self, state: ArkhanosState) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    describe = staticmethod(describe)

    def check_state(self, state: ArkhanosState) -> None:
        check_state(state)

    parse_move = staticmethod(parse_move)


def check_state(state: ArkhanosState) -> None:
    """BadState unless every part of `state` is something the rules can play on."""

    def fail(why: str) -> None:
        raise BadState(why)

    n = len(state.players)
    if not 2 <= n <= 4:
        fail("Arkhanos has 2 to 4 players")
    if len(state.towers) != 4 or len(state.spells) != SPELLS or len(state.pool) != POOL_SPACES:
        fail(f"a state has 4 towers, {SPELLS} spells and {POOL_SPACES} mana pool spaces")
    if len(state.colours) != len(state.bag) or min(state.bag, default=0) < 0:
        fail("bag lists a count (not negative) for each dice colour")
    if state.step not in STEPS or not 0 <= state.current < n or not 0 <= state.first < n:
        fail("step, current or first is out of range")
    if not 1 <= state.round <= state.rounds < POOL_SPACES:
        fail("round must be between 1 and rounds (at most 9)")
    if any(s.effect not in EFFECTS for s in state.spells):
        fail(f"spell effects are {', '.join(EFFECTS)}")
    tiles = []
    for entry in state.starters + state.stack:
        try:
            tiles.append(parse_entry(entry))
        except ValueError as error:
            fail(f"tile entry {entry!r}: {error}")
    if len({t.id for t in tiles}) != len(tiles):
        fail("a tile appears twice in starters and stack")
    if any(not 0 <= t < 4 for t in state.reveals + state.completed):
        fail("reveals and completed name towers 0-3")
    for tile in tiles:
        if len(tile.outer_bonuses) != 3 or len(tile.central_bonuses) != 3 or tile.outer.rule not in RULES:
            fail(f"tile {tile.id} needs 3 bonuses per side and a known floor rule")
        if set(tile.outer.colours) - set(state.colours):
            fail(f"tile {tile.id} names dice colours not in the bag")
        if set(tile.outer_bonuses + tile.central_bonuses) - set(BONUSES):
            fail(f"tile {tile.id}: bonuses are {', '.join(BONUSES)}")

    def check_die(die: Die | None) -> None:
        if die is not None and (die.colour not in state.colours or not 0 <= die.number <= 6):
            fail(f"{die} is not a die of this bag")

    def check_meeple(meeple: Meeple | None) -> None:
        if meeple is not None and (not 0 <= meeple.seat < n or meeple.kind not in KINDS):
            fail(f"bad meeple {meeple}")

    for die in state.table + state.set_aside:
        check_die(die)
    for pooled in state.pool:
        check_die(pooled)
    for tower in state.towers:
        for meeple in tower.trapped:
            check_meeple(meeple)
        if tower.top is not None:
            if len(tower.top.pillars) != 3 or tower.top.level < 1:
                fail("a floor has 3 pillars and a level from 1")
            for pillar in tower.top.pillars:
                check_die(pillar.die)
                check_meeple(pillar.meeple)
                if pillar.bonus not in BONUSES:
                    fail(f"unknown pillar bonus {pillar.bonus!r}")
    for p in state.players:
        if p.apprentices < 0 or p.masters < 0 or len(p.spellbook) != SPELLS:
            fail(f"{p.name}'s supply or spellbook is out of range")
        if set(p.spellbook) - {"", *KINDS}:
            fail(f"{p.name}'s spellbook holds something other than meeples")
    if state.pending is not None and (state.step != "bonus" or not 1 <= state.pending.number <= 6):
        fail("a pending bonus belongs to the bonus step")
    if state.step == "bonus" and state.pending is None:
        fail("the bonus step needs a pending bonus")
