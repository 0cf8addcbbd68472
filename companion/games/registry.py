"""The registered games, by name. Built on demand: no module-level mutable state."""

from __future__ import annotations

from typing import Any

from .amharb import AmharbGame
from .arkhanos import ArkhanosGame
from .base import Game
from .tower import TowerGame
from .turris import TurrisGame
from .yuggoth import YuggothGame


def games() -> dict[str, Game[Any, Any]]:
    """Every game the companion knows, by its short name."""
    return {
        game.name: game for game in (AmharbGame(), ArkhanosGame(), TowerGame(), TurrisGame(), YuggothGame())
    }


def get_game(name: str) -> Game[Any, Any]:
    """The game called `name`; KeyError with the known names otherwise."""
    known = games()
    if name not in known:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(known))}")
    return known[name]
