"""Tower (Ben Haskett, 2014): gems, exact change, Salil, the black market, and the
Citizens of Meeplestand (the Apprentices, the Royal Guard, Lutfi)."""

from __future__ import annotations

from dataclasses import replace

from ..base import Game
from .checks import check_state
from .describe import describe
from .explain import explain_illegal
from .moves import Keep, Move, UseCard, parse_move
from .rules import apply_move, chance_outcomes, legal_moves, phase, to_move
from .scoring import score
from .setup import OPTIONS, RULEBOOK, initial_state
from .sight import TowerSight
from .state import TowerState

__all__ = ["TowerGame"]


class TowerGame(Game[TowerState, Move]):
    name = "tower"
    title = "Tower"
    min_players = 1
    max_players = 4
    rulebook = RULEBOOK
    options = OPTIONS
    state_type = TowerState
    state_noun = "a Tower state"
    sight = TowerSight()

    initial_state = staticmethod(initial_state)
    to_move = staticmethod(to_move)
    legal_moves = staticmethod(legal_moves)
    chance_outcomes = staticmethod(chance_outcomes)

    def canonical(self, state: TowerState, move: Move) -> Move:
        # Card names are printed words: "common thief" is the Common Thief; kept cards are
        # a handful, listed in alphabetical order.
        spelled = {card.name.lower(): card.name for card in state.black_cards}
        if isinstance(move, UseCard):
            return replace(move, name=spelled.get(move.name.lower(), move.name))
        if isinstance(move, Keep):
            return Keep(tuple(sorted(spelled.get(n.lower(), n) for n in move.names)))
        return move

    apply_unchecked = staticmethod(apply_move)
    explain_illegal = staticmethod(explain_illegal)
    score = staticmethod(score)
    phase = staticmethod(phase)

    def phase_step(self, state: TowerState) -> int | None:
        """Draw, action and build on LEDs 1-3 (the issue's three); set-up, Lutfi's turns and
        the end of a turn on 4."""
        return {"draw": 1, "action": 2, "build": 3, "setup": 4, "lutfi": 4, "end": 4}.get(phase(state))

    def seat_names(self, state: TowerState) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    describe = staticmethod(describe)

    def check_state(self, state: TowerState) -> None:
        check_state(state)

    parse_move = staticmethod(parse_move)
