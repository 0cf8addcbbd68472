"""Tower (Ben Haskett, 2014): gems, exact change, Salil, the black market, and the
Citizens of Meeplestand (the Apprentices, the Royal Guard, Lutfi)."""

from __future__ import annotations

from dataclasses import replace

from ..base import Game, IllegalMove, ScoreSheet, Setup, TableView
from .checks import check_state
from .describe import describe
from .explain import explain_illegal
from .moves import Keep, Move, UseCard, parse_move
from .rules import apply_move, chance_outcomes, legal_moves, phase, to_move
from .scoring import score
from .setup import OPTIONS, RULEBOOK, initial_state
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

    def initial_state(self, setup: Setup) -> TowerState:
        return initial_state(setup)

    def to_move(self, state: TowerState) -> int | str | None:
        return to_move(state)

    def legal_moves(self, state: TowerState) -> tuple[Move, ...]:
        return legal_moves(state)

    def chance_outcomes(self, state: TowerState) -> tuple[tuple[Move, float], ...]:
        return chance_outcomes(state)

    def canonical(self, state: TowerState, move: Move) -> Move:
        # Card names are printed words: "common thief" is the Common Thief; kept cards are
        # a handful, listed in alphabetical order.
        spelled = {card.name.lower(): card.name for card in state.black_cards}
        if isinstance(move, UseCard):
            return replace(move, name=spelled.get(move.name.lower(), move.name))
        if isinstance(move, Keep):
            return Keep(tuple(sorted(spelled.get(n.lower(), n) for n in move.names)))
        return move

    def apply_unchecked(self, state: TowerState, move: Move) -> TowerState:
        return apply_move(state, move)

    def explain_illegal(self, state: TowerState, move: Move) -> IllegalMove:
        return explain_illegal(state, move)

    def score(self, state: TowerState) -> ScoreSheet:
        return score(state)

    def phase(self, state: TowerState) -> str:
        return phase(state)

    def seat_names(self, state: TowerState) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    def describe(self, state: TowerState) -> TableView:
        return describe(state)

    def check_state(self, state: TowerState) -> None:
        check_state(state)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)
