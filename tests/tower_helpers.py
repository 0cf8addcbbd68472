"""Position builders for the Tower rules tests.

Positions start from a real set-up (`TowerGame().initial_state`), the deal played as
chance moves, and are then edited with `dataclasses.replace` so that every test states
only what its rule needs. Gems always move out of the bag (`give`), so a position keeps
all 90 gems and 10 passes and still passes `check_state`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.games.base import Setup
from companion.games.tower import TowerGame
from companion.games.tower.gems import Gems, parse_gems
from companion.games.tower.moves import Move
from companion.games.tower.state import ACTION, TowerState, Turn

GAME = TowerGame()


def new_game(players: int = 3, **options: str) -> TowerState:
    """A fresh set-up (before the deal)."""
    return GAME.initial_state(Setup(players, options))


def card_number(state: TowerState, materials: str) -> int:
    """The first build card in play showing exactly these materials ("clay lumber straw straw water")."""
    wanted = tuple(sorted(materials.split()))
    for number in range(1, len(state.build_cards) + 1):
        if state.card_of(number) == wanted and number in state.build_deck:
            return number
    raise AssertionError(f"no build card {materials!r} left in the deck")


def dealt(players: int = 3, cards: Iterable[str] = (), lutfi_roll: int = 0, **options: str) -> TowerState:
    """A game after the deal: seat i gets the card showing cards[i] (Lutfi the next one), then
    Lutfi's die if he plays. Returns the state at the first player's draw phase."""
    state = new_game(players, **options)
    for materials in cards:
        state = play(state, f"draw card {card_number(state, materials)}")
    if lutfi_roll:
        state = play(state, f"roll {lutfi_roll}")
    return state


def play(state: TowerState, *moves: str | Move) -> TowerState:
    """Apply moves through the checked entry point (text is parsed first)."""
    for move in moves:
        parsed = GAME.parse_move(move) if isinstance(move, str) else move
        state = GAME.apply(state, parsed)
    return state


def give(state: TowerState, seat: int, gems: str) -> TowerState:
    """Move `gems` ("2 blue+1 pass") from the bag to a player."""
    hand = parse_gems(gems)
    player = state.players[seat]
    players = state.players[:seat] + (replace(player, gems=player.gems + hand),) + state.players[seat + 1 :]
    return replace(state, bag=state.bag - hand, players=players)


def to_salil(state: TowerState, gems: str) -> TowerState:
    """Move `gems` from the bag to Salil's pile."""
    hand = parse_gems(gems)
    return replace(state, bag=state.bag - hand, salil=state.salil + hand)


def action(state: TowerState, seat: int = 0, **turn: object) -> TowerState:
    """The position at the start of `seat`'s action phase (its draws skipped)."""
    return replace(state, turn=Turn(seat=seat, step=ACTION, **turn))  # type: ignore[arg-type]


def edit(state: TowerState, seat: int, **fields: object) -> TowerState:
    player = replace(state.players[seat], **fields)  # type: ignore[arg-type]
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1 :])


def texts(moves: Iterable[object]) -> list[str]:
    return [str(m) for m in moves]


def legal(state: TowerState) -> list[str]:
    return texts(GAME.legal_moves(state))


def gems(text: str) -> Gems:
    return parse_gems(text)


def hand_over(state: TowerState, seat: int, *spaces: str) -> TowerState:
    """Move the materials on these spaces ("3b") to a player, as if bought earlier."""
    for space in spaces:
        number, index = int(space[0]), "abcdefghij".index(space[1])
        material = state.stall(number).slots[index].material
        assert material, f"space {space} is empty"
        stalls = tuple(s.with_material(index, "") if s.number == number else s for s in state.stalls)
        player = state.players[seat]
        state = edit(
            replace(state, stalls=stalls), seat, materials=tuple(sorted(player.materials + (material,)))
        )
    return state
