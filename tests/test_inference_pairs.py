"""Inference of two visible moves seen in one look, on a toy game small enough to see whole.

Two players take turns putting a token on a spot; the star spot gives its player a bonus:
they put a second token at once. Each player's supply is on the table too, so both moves
change it. The camera may look only after both moves (a die placed, then its bonus meeple,
in Towers of Arkhanos): the pair is found when it is one player's, never when a second
player has moved too (that player's move is never taken without its own look)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace

from companion.games.sight import Seen, Sight
from companion.inference import Desync, Found, infer

SPOTS = ("star", "a", "b", "c")
COLOURS = ("red", "blue")


@dataclass(frozen=True)
class Toy:
    turn: int = 0
    tokens: tuple[tuple[str, int], ...] = ()
    """(spot, seat) for every token put."""
    bonus: bool = False
    """The player to move has a bonus token to put."""
    supply: tuple[int, int] = (5, 5)


class ToyGame:
    """Only what inference asks of a game."""

    def to_move(self, state: Toy) -> int:
        return state.turn

    def legal_moves(self, state: Toy) -> tuple[str, ...]:
        taken = {spot for spot, _ in state.tokens}
        return tuple(spot for spot in SPOTS if spot not in taken and not (state.bonus and spot == "star"))

    def chance_outcomes(self, state: Toy) -> tuple[()]:
        return ()

    def apply_unchecked(self, state: Toy, move: str) -> Toy:
        supply = list(state.supply)
        supply[state.turn] -= 1
        put = replace(state, tokens=(*state.tokens, (move, state.turn)), supply=(supply[0], supply[1]))
        if move == "star":
            return replace(put, bonus=True)
        return replace(put, bonus=False, turn=1 - state.turn)


class ToySight(Sight):
    def expected(self, state: Toy) -> dict[str, Hashable]:
        picture: dict[str, Hashable] = {spot: () for spot in SPOTS}
        for spot, seat in state.tokens:
            picture[spot] = (COLOURS[seat],)
        for seat, left in enumerate(state.supply):
            picture[f"supply/{seat}"] = left
        return picture


GAME, SIGHT = ToyGame(), ToySight()


def after(state: Toy, *moves: str) -> Seen:
    for move in moves:
        state = GAME.apply_unchecked(state, move)
    return Seen(SIGHT.expected(state))


def test_a_move_and_its_bonus_seen_together_are_both_found() -> None:
    """Both change red's supply: the first move's regions are seen changed, not as it left them."""
    result = infer(GAME, SIGHT, Toy(), after(Toy(), "star", "b"))  # type: ignore[arg-type]
    assert isinstance(result, Found) and result.moves == ("star", "b")


def test_two_players_moves_seen_together_are_not_taken() -> None:
    """Red puts on a, blue on b, and only then does the camera look: a desync, not a pair."""
    result = infer(GAME, SIGHT, Toy(), after(Toy(), "a", "b"))  # type: ignore[arg-type]
    assert isinstance(result, Desync)
    assert {d.region for d in result.differences} == {"a", "b", "supply/0", "supply/1"}


def test_one_move_seen_alone_is_that_move() -> None:
    result = infer(GAME, SIGHT, Toy(), after(Toy(), "a"))  # type: ignore[arg-type]
    assert isinstance(result, Found) and result.moves == ("a",)


def test_a_bonus_put_without_its_first_move_is_a_desync() -> None:
    """Red's second token on b with nothing on the star: no move of red's explains it."""
    seen = Seen({**SIGHT.expected(Toy()), "a": ("red",), "b": ("red",), "supply/0": 3})
    assert isinstance(infer(GAME, SIGHT, Toy(), seen), Desync)  # type: ignore[arg-type]
