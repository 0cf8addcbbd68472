"""Position builders for the Yuggoth rules tests.

Positions start from a real set-up (`YuggothGame().initial_state`), are usually
emptied (`bare`), and are then edited with the same helpers the rules use, so each
test states only what its rule needs. Areas are named as in yuggoth.toml (the
three-player side unless a test says otherwise).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.base import Setup
from companion.games.yuggoth import YuggothGame
from companion.games.yuggoth.control import add_unit, with_force, with_gate
from companion.games.yuggoth.moves import Move
from companion.games.yuggoth.state import ABANDONED, ACTIONS, NO_GATE, Force, Watcher, YuggothState

GAME = YuggothGame()
THREE = "black-goat,opener-of-the-way,crawling-chaos"
FIVE = "black-goat,opener-of-the-way,crawling-chaos,great-cthulhu,yellow-sign"


def new(factions: str = THREE, **options: str) -> YuggothState:
    players = len(factions.split(","))
    return GAME.initial_state(Setup(players, {"factions": factions, **options}))


def bare(factions: str = THREE, **options: str) -> YuggothState:
    """A set-up with every Unit and Gate taken off the map: tests place what they need."""
    state = new(factions, **options)
    return replace(state, units=(), gates=(NO_GATE,) * len(state.board.areas), log=())


def seat(state: YuggothState, faction: str) -> int:
    found = state.seat_of(faction)
    assert found >= 0, f"{faction} is not playing"
    return found


def put(state: YuggothState, area: str, faction: str, **counts: int) -> YuggothState:
    """Set `faction`'s Units in `area` (acolytes=, cylinders=, monsters=, goo=)."""
    return with_force(state, area, seat(state, faction), Force(**counts))


def gate(state: YuggothState, area: str, faction: str | None) -> YuggothState:
    """A Gate on `area` controlled by `faction`, or Abandoned with None."""
    return with_gate(state, area, ABANDONED if faction is None else seat(state, faction))


def slimes(state: YuggothState, area: str, n: int) -> YuggothState:
    return add_unit(state, area, -1, "slime", n - state.slimes_in(area))


def power(state: YuggothState, faction: str, value: int) -> YuggothState:
    return faction_field(state, faction, power=value)


def faction_field(state: YuggothState, faction: str, **changes: Any) -> YuggothState:
    factions = list(state.factions)
    s = seat(state, faction)
    factions[s] = replace(factions[s], **changes)
    return replace(state, factions=tuple(factions))


def acting(state: YuggothState, faction: str) -> YuggothState:
    """The Action Phase with `faction` to act (everyone else still in the phase)."""
    return replace(state, step=ACTIONS, current=seat(state, faction), battle=None, turn_done=False)


def awake_at(state: YuggothState, area: str, position: int = 12, **changes: Any) -> YuggothState:
    return replace(state, watcher=Watcher(awake=True, position=position, area=area, **changes))


def play(state: YuggothState, *moves: str) -> YuggothState:
    """Apply moves given as text through the checked entry point."""
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(text))
    return state


def texts(moves: tuple[Move, ...]) -> list[str]:
    return [str(m) for m in moves]


def legal(state: YuggothState) -> list[str]:
    return texts(GAME.legal_moves(state))
