"""Towers of Am'harb (Chu-Lan Kao, Moaideas 2019): 2-4 doom cults, Tower-of-Brahma discs."""

from __future__ import annotations

from dataclasses import replace

from ..base import BadState, Game
from .board import SIDES, geometry
from .rules import RULEBOOK, apply_move, explain_illegal, legal_moves
from .scoring import score
from .setup import OPTIONS, data, initial_state
from .sight import AmharbSight
from .state import OVER, PHASES, AmharbState, Move, Pass, Place, SkipPower, parse_move

__all__ = ["AmharbGame"]


class AmharbGame(Game[AmharbState, Move]):
    name = "amharb"
    title = "Towers of Am'harb"
    min_players = 2
    max_players = 4
    rulebook = RULEBOOK
    options = OPTIONS
    state_type = AmharbState
    state_noun = "an Am'harb state"
    sight = AmharbSight()

    initial_state = staticmethod(initial_state)

    def to_move(self, state: AmharbState) -> int | None:
        return None if state.phase == OVER else state.current

    legal_moves = staticmethod(legal_moves)

    def canonical(self, state: AmharbState, move: Move) -> Move:
        # Am'harb: 3.2 Pay Resources - "Paid resources do NOT have to match in color": a
        # payment is a handful of tiles, so "pay blue+yellow" is the legal "pay yellow+blue".
        if isinstance(move, Place) and set(move.payment) <= set(state.resource_colours):
            order = state.resource_colours.index
            return replace(move, payment=tuple(sorted(move.payment, key=order)))
        return move

    apply_unchecked = staticmethod(apply_move)
    explain_illegal = staticmethod(explain_illegal)
    score = staticmethod(score)

    def phase(self, state: AmharbState) -> str:
        return state.phase

    def phase_step(self, state: AmharbState) -> int | None:
        """Tower, Power, Disciple: LEDs 1 to 3."""
        return None if state.phase == OVER else PHASES.index(state.phase) + 1

    def next_button(self, state: AmharbState) -> Move | None:
        """NEXT in the Power Phase declines the power; in the Disciple Phase it passes, when
        passing is legal (Am'harb: 3 Note)."""
        for move in legal_moves(state):
            if isinstance(move, SkipPower | Pass):
                return move
        return None

    def seat_names(self, state: AmharbState) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    def check_state(self, state: AmharbState) -> None:
        check_state(state)

    parse_move = staticmethod(parse_move)


def check_state(state: AmharbState) -> None:
    """BadState unless every part of `state` is something the rules can play on."""
    try:
        geo = geometry(state.board)
    except ValueError as error:
        raise BadState(str(error)) from error
    n = len(state.players)
    colours = state.resource_colours

    def fail(why: str) -> None:
        raise BadState(why)

    if not 2 <= n <= 4:
        fail("Am'harb has 2 to 4 players")
    if len(state.spaces) != 64:
        fail("spaces lists all 64 squares of the 8 x 8 grid")
    if not 0 <= state.current < n or state.phase not in PHASES or state.turn < 1:
        fail("current, phase or turn is out of range")
    if any(not 0 <= a < 4 for a in state.active) or (
        state.phase in ("power", "disciple") and not state.active
    ):
        fail("active areas are 0-3, and set during the power and disciple phases")
    if state.last_turns is not None and any(not 0 <= s < n for s in state.last_turns):
        fail("last_turns names seats that do not exist")
    cults = data()["cults"]
    for p in state.players:
        if p.cult not in cults or p.side not in SIDES:
            fail(f"unknown cult {p.cult!r} or side {p.side!r}")
        discs = sorted(d for stack in p.towers for d in stack)
        descending = all(list(s) == sorted(s, reverse=True) for s in p.towers)
        if len(p.towers) != 4 or discs != [1, 2, 3, 4] or not descending:
            fail(f"{p.name}'s towers must hold discs 1-4, larger under smaller, in 4 areas")
        if len(p.resources) != len(colours) or min(p.resources) < 0:
            fail(f"{p.name}'s resources must be {len(colours)} counts, none negative")
        if not (0 <= p.priests <= 3 and 0 <= p.cultists <= 6 and p.tiles >= 0):
            fail(f"{p.name}'s supply is out of range")
    for i, space in enumerate(state.spaces):
        if not geo.exists[i] and space != type(space)():
            fail(f"space {i} is off the island but holds something")
        if space.altar and (not geo.altar_space[i] or space.altar not in (3, 4, 5)):
            fail(f"space {i}: altar tiles (3, 4, 5 Doom) lie on altar spaces only")
        if space.resource and space.resource not in colours:
            fail(f"space {i}: unknown resource {space.resource!r}")
        for d in space.disciples:
            if not 0 <= d.seat < n or d.kind not in ("priest", "cultist"):
                fail(f"space {i}: bad disciple {d}")
        if not -1 <= space.lock < n or not -1 <= space.pyre < n:
            fail(f"space {i}: lock or pyre names a seat that does not exist")
