"""Why a move is not legal now: the most specific reason the rulebook gives."""

from __future__ import annotations

from ..base import IllegalMove
from .moves import Move
from .state import TowerState

RULEBOOK = "Tower rulebook"


def explain_illegal(state: TowerState, move: Move) -> IllegalMove:
    return IllegalMove(f"'{move}' is not legal now", RULEBOOK)
