"""Position builders for the Towers of Am'harb rules tests.

Positions start from a real set-up (`AmharbGame().initial_state`) and are then
edited with `dataclasses.replace`, so every test states only what its rule needs.
Spaces are named like a chessboard seen from the south side: files a-h west to
east, ranks 1-8 south to north ("a1" is the south-west corner).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from companion.games.amharb import AmharbGame
from companion.games.amharb.board import SIDES, geometry, parse_space, space_name
from companion.games.amharb.setup import data
from companion.games.amharb.state import (
    CULTIST,
    PRIEST,
    AmharbState,
    Disciple,
    Move,
    Power,
    SkipPower,
)
from companion.games.base import ScoreSource, Setup

GAME = AmharbGame()
COLOURS = tuple(data()["resource_colours"])
assert COLOURS == ("red", "yellow", "blue"), "res() below lists the colours in this order"
KINDS = {"P": PRIEST, "c": CULTIST}


def sq(name: str) -> int:
    """The index of the space called `name` ("e4")."""
    return parse_space(name)


def names(indices: Iterable[int]) -> set[str]:
    """Space names for a collection of space indices."""
    return {space_name(i) for i in indices}


def new_game(*cults: str, south: int = 0, **options: str) -> AmharbState:
    """A fresh game, one player per cult, the cults given in cult-number order so that
    seat i plays cults[i] (turn order follows the cult number: Game Setup 4 and 7).

    `south` (4 players only) turns the seating, still clockwise S-W-N-E, so that seat
    sits on the south side, whose areas A-D are files a-b, c-d, e-f, g-h.
    """
    opts = {"cults": ",".join(cults), **options}
    if south:
        if len(cults) != 4:
            raise ValueError("south= needs a 4-player game")
        opts["sides"] = ",".join(SIDES[(seat - south) % 4] for seat in range(4))
    state = GAME.initial_state(Setup(len(cults), opts))
    if tuple(p.cult for p in state.players) != cults:
        raise ValueError(f"give the cults in cult-number order, not {cults}")
    return state


def res(red: int = 0, yellow: int = 0, blue: int = 0) -> tuple[int, int, int]:
    """A resource holding, in the engine's colour order."""
    return (red, yellow, blue)


def put(state: AmharbState, **where: str) -> AmharbState:
    """Disciples onto spaces: `put(s, e4="P0", d5="c1 P2")` - P priest, c cultist, then the seat.

    The resource tile on those spaces is gone (as after a placement). Supplies are
    left alone: set them with `with_player` when a test counts them.
    """
    spaces = list(state.spaces)
    for name, spec in where.items():
        disciples = tuple(Disciple(int(tok[1:]), KINDS[tok[0]]) for tok in spec.split())
        i = sq(name)
        assert geometry(state.board).exists[i] and not spaces[i].is_altar, name
        spaces[i] = replace(spaces[i], disciples=spaces[i].disciples + disciples, resource="")
    return replace(state, spaces=tuple(spaces))


def set_space(state: AmharbState, name: str, **changes: Any) -> AmharbState:
    """One space's fields replaced (altar, resource, lock, book, pyre, cursed...)."""
    i = sq(name)
    spaces = list(state.spaces)
    spaces[i] = replace(spaces[i], **changes)
    return replace(state, spaces=tuple(spaces))


def with_player(state: AmharbState, seat: int, **changes: Any) -> AmharbState:
    """One player's fields replaced (towers, resources, priests, cultists, tiles...)."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def turn(state: AmharbState, seat: int, phase: str, active: str = "") -> AmharbState:
    """It is `seat`'s `phase`, with `active` areas given as letters ("B", "ACD")."""
    return replace(state, current=seat, phase=phase, active=tuple("ABCD".index(a) for a in active))


def play(state: AmharbState, *moves: str | Move) -> AmharbState:
    """The state after these moves, each checked by `AmharbGame().apply`."""
    for move in moves:
        if isinstance(move, str):
            move = GAME.parse_move(move)
        state = GAME.apply(state, move)
    return state


def powers(state: AmharbState) -> list[Power]:
    """The Cosmic Power moves now legal (the Power Phase minus 'no power')."""
    return [m for m in GAME.legal_moves(state) if isinstance(m, Power)]


def empty_names(state: AmharbState, area: str, side: str = "S") -> set[str]:
    """Names of the normal spaces with nothing on them in one area of `side`."""
    geo = geometry(state.board)
    return {
        space_name(i)
        for i in geo.in_area(side, "ABCD".index(area))
        if not state.spaces[i].is_altar and not state.spaces[i].disciples and state.spaces[i].lock < 0
    }


def altar_source(state: AmharbState, name: str) -> ScoreSource:
    """The score sheet's line for the altar on space `name`."""
    (source,) = [s for s in GAME.score(state).sources if f" {name} (" in s.name]
    return source


def take_plain_turn(state: AmharbState) -> AmharbState:
    """The current player moves their first legal disc, skips the power and makes the
    first legal disciple move (a placement, or a pass when none is possible)."""
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    state = GAME.apply(state, SkipPower())
    return GAME.apply(state, GAME.legal_moves(state)[0])
