"""Position builders for the Towers of Arkhanos tests.

Games start from a real set-up and are played through the checked `apply` (reveals,
draws, rolls); positions a test needs beyond that are edited with `dataclasses.replace`
so each test states only what its rule needs. Pillars are named like the moves: A1-C3
on the outer towers, M1-M3 on the central one; dice like `purple4`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.games.arkhanos import ArkhanosGame
from companion.games.arkhanos.moves import Move
from companion.games.arkhanos.state import (
    TOWERS,
    ArkhanosState,
    Die,
    Floor,
    Meeple,
    Pillar,
    Player,
)
from companion.games.arkhanos.tiles import new_floor, parse_tile
from companion.games.base import Setup

GAME = ArkhanosGame()


def die(text: str) -> Die:
    """`purple4` -> Die("purple", 4)."""
    return Die(text[:-1], int(text[-1]))


def play(state: ArkhanosState, *moves: str) -> ArkhanosState:
    """Apply moves given as text, each through the checked entry point."""
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(text))
    return state


def new_game(players: int = 2, starts: Iterable[int] = (1, 2, 3, 4), **options: str) -> ArkhanosState:
    """A game after set-up: starting tiles `starts` revealed on towers A, B, C and M."""
    state = GAME.initial_state(Setup(players, options))
    return play(state, *(f"reveal {tile} on {tower}" for tile, tower in zip(starts, TOWERS)))


def deal(state: ArkhanosState, *dice: str) -> ArkhanosState:
    """The round's dice drawn from the bag, then rolled, as the table reports them."""
    state = play(state, *(f"draw {die(d).colour}" for d in dice))
    return play(state, *(f"roll {die(d).colour} {die(d).number}" for d in dice))


def started(players: int = 2, dice: Iterable[str] = (), **options: str) -> ArkhanosState:
    """A new game whose first round's dice are `dice` (the default: 5 or 4 assorted dice)."""
    state = new_game(players, **options)
    default = ["purple4", "yellow5", "pink2", "blue3", "green6"][: state.dice_per_round]
    return deal(state, *(list(dice) or default))


def locate(name: str) -> tuple[int, int]:
    """`B2` -> (tower 1, pillar 1)."""
    return TOWERS.index(name[0].upper()), int(name[1]) - 1


def with_floor(state: ArkhanosState, tower: str, floor: Floor) -> ArkhanosState:
    towers = list(state.towers)
    t = TOWERS.index(tower)
    towers[t] = replace(towers[t], top=floor, built=floor.level - 1)
    return replace(state, towers=tuple(towers))


def lay(state: ArkhanosState, tower: str, tile_text: str, level: int = 1) -> ArkhanosState:
    """Put a floor with the given tile notation on `tower` (e.g. 'any/any prestige,spell,build|...')."""
    t = TOWERS.index(tower)
    return with_floor(state, tower, new_floor(parse_tile(99, tile_text), t, level))


def put(
    state: ArkhanosState, pillar: str, dice: str = "", meeple: tuple[int, str] | None = None
) -> ArkhanosState:
    """Occupy a pillar: a die and/or a meeple (seat, kind) on it."""
    t, i = locate(pillar)
    floor = state.towers[t].top
    assert floor is not None
    pillars = list(floor.pillars)
    pillars[i] = replace(
        pillars[i], die=die(dice) if dice else None, meeple=Meeple(*meeple) if meeple else None
    )
    return with_floor(state, TOWERS[t], replace(floor, pillars=tuple(pillars)))


def pillar(state: ArkhanosState, name: str) -> Pillar:
    t, i = locate(name)
    floor = state.towers[t].top
    assert floor is not None
    return floor.pillars[i]


def with_player(state: ArkhanosState, seat: int, **changes: object) -> ArkhanosState:
    player: Player = replace(state.players[seat], **changes)  # type: ignore[arg-type]
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1 :])


def with_table(state: ArkhanosState, *dice: str) -> ArkhanosState:
    return replace(state, table=tuple(die(d) for d in dice))


def texts(moves: Iterable[Move]) -> list[str]:
    return [str(m) for m in moves]


def legal(state: ArkhanosState) -> list[str]:
    return texts(GAME.legal_moves(state))


def turn(state: ArkhanosState, placement: str, end: bool = True) -> ArkhanosState:
    """One plain turn: `placement`, the first choice of any pillar bonus, the first tile of any
    reveal it causes, then (if `end`) 'end turn'."""
    state = play(state, placement)
    bonuses = [m for m in legal(state) if m.startswith("bonus")]
    state = play(state, *bonuses[:1])
    while state.reveals:
        state = play(state, str(GAME.legal_moves(state)[0]))
    return play(state, "end turn") if end else state
