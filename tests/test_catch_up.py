"""Issue 19: the game keeps up with players who never wait — catch-up over several moves by any
players, moves the rules force, and ways the table cannot tell apart. Pictures stand for
readings here (what the camera reads is tested with renders in test_table_loop)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games.amharb.state import Place, SkipPower
from companion.games.base import CHANCE, Setup
from companion.games.registry import get_game
from companion.games.sight import OneOf, Seen, Unclear
from companion.inference import CATCH_UP, Desync, catch_up, forced, infer

GAME = get_game("amharb")
SIGHT = GAME.sight
assert SIGHT is not None


def seen(state: Any) -> Seen:
    return Seen(SIGHT.expected(state))


def hidden(state: Any, move: Any) -> bool:
    return bool(SIGHT.expected(GAME.apply(state, move)) == SIGHT.expected(state))


def ways_to_pay(state: Any, place: Place) -> list[Any]:
    return [
        o
        for o in GAME.legal_moves(state)
        if isinstance(o, Place) and (o.space, o.kind) == (place.space, place.kind)
    ]


def random_game(players: int, seed: int) -> list[tuple[Any, Any]]:
    """(state, move) along a random game."""
    rng = random.Random(seed)
    state = GAME.initial_state(Setup(players, {"seed": str(seed)}))
    out = []
    while GAME.to_move(state) is not None:
        move = rng.choice(GAME.legal_moves(state))
        out.append((state, move))
        state = GAME.apply(state, move)
    return out


def test_a_table_two_turns_ahead_is_followed_through_moves_nobody_saw() -> None:
    """Rulebook, Round Overview: each turn is a Tower, a Power and a Disciple Phase. The table
    shows two players' turns made (a power declined in each: nothing to see) while the game
    stood at the first: the moves are found, the hidden ones with them."""
    game = random_game(3, 4)
    state, _ = game[0]
    end = next(i for i in range(4, 8) if not hidden(*game[i - 1]))
    truth = game[end][0]
    assert infer(GAME, SIGHT, state, seen(truth)).__class__.__name__ == "Desync"
    found = catch_up(GAME, SIGHT, state, seen(truth))
    assert found is not None
    after = state
    for move in found.moves:
        after = GAME.apply(after, move)
    assert SIGHT.expected(after) == SIGHT.expected(truth)
    assert any(isinstance(m, SkipPower) for m in found.moves)
    assert len(found.moves) <= end


def test_more_than_the_bound_ahead_is_not_guessed_at() -> None:
    """Beyond CATCH_UP moves nothing is followed: the table is a desync for the players."""
    game = random_game(2, 6)
    visible = [i for i, (s, m) in enumerate(game) if not hidden(s, m)]
    far = visible[CATCH_UP + 2] + 1
    assert catch_up(GAME, SIGHT, game[0][0], seen(game[far][0])) is None


def test_ways_the_table_cannot_tell_apart_are_all_kept() -> None:
    """Rulebook, 3. Disciple Phase: a placement may be paid in several ways, and the table shows
    only the disciple. Followed from two moves back, the way taken and the others are given,
    the true one among them."""
    for seed in range(20):
        game = random_game(2, seed)
        two = next(
            (
                i
                for i, (s, m) in enumerate(game)
                if isinstance(m, Place)
                and m.payment
                and len(ways_to_pay(s, m)) > 1
                and i + 1 < len(game)
                and not hidden(*game[i + 1])
            ),
            None,
        )
        if two is not None:
            break
    assert two is not None
    start, truth = game[two][0], game[two + 2][0]
    found = catch_up(GAME, SIGHT, start, seen(truth))
    assert found is not None and found.others
    ways = [found.moves, *found.others]
    assert (game[two][1], game[two + 1][1]) in ways


def test_a_move_the_rules_force_and_nobody_sees_is_forced() -> None:
    """Rulebook, 2. Power Phase: with no power affordable, the only move is to go on without
    one; nobody need say it. A choice is never forced."""
    game = random_game(4, 11)
    for state, _ in game:
        legal = GAME.legal_moves(state)
        got = forced(GAME, SIGHT, state)
        if len(legal) == 1 and hidden(state, legal[0]):
            assert got[:1] == (legal[0],)
        else:
            assert got == ()


def as_read(picture: Any) -> Seen:
    """What a camera reads where the game expects either of several things (a finished floor
    not yet cleared) or something it cannot tell exactly: the first, the thing itself."""
    return Seen(
        {
            region: expected.options[0]
            if isinstance(expected, OneOf)
            else expected.what
            if isinstance(expected, Unclear)
            else expected
            for region, expected in picture.items()
        }
    )


SEEDS = {"yuggoth": 12}
"""Games looked at per game: on the Yuggoth map the camera sees only the Watcher, who moves
after battles whose dice the players tell (kills and pains are asked): a change or two a game
follows no unseen outcome."""
FOLLOWED = {"yuggoth": 1}
"""The fewest changes followed per game (20 but on the Yuggoth map)."""


@pytest.mark.parametrize("name", ["amharb", "turris", "tower", "arkhanos", "yuggoth"])
def test_every_game_is_followed_when_the_camera_looks_one_visible_move_late(name: str) -> None:
    """Random games of each of the five: at every change the table shows, the game is still
    where the change before left it (the camera looked late; hidden moves by anyone, forced
    moves and the dice drawn and rolled between). The change is explained (one move, a
    question between moves, or a catch-up), never a desync — but where a card or tile turned
    up unseen between (only the players can say which: the page asks) or where the Arkhanos
    players have rolled some of the round's dice and hold the rest (read once all are rolled)."""
    game = get_game(name)
    sight = game.sight
    assert sight is not None
    followed = 0
    for seed in range(SEEDS.get(name, 2)):
        rng = random.Random(seed)
        states = [game.initial_state(Setup(3 if name == "yuggoth" else 2, {"seed": str(seed)}))]
        moves: list[Any] = []
        while game.to_move(states[-1]) is not None and len(moves) < 300:
            at = states[-1]
            if game.to_move(at) == CHANCE:
                move = rng.choice([outcome for outcome, _ in game.chance_outcomes(at)])
            else:
                move = rng.choice(game.legal_moves(at))
            moves.append(move)
            states.append(game.apply(at, move))
        pictures = [sight.expected(state) for state in states]
        shown = [i for i in range(1, len(states)) if pictures[i] != pictures[i - 1]]
        for before, after in zip(shown, shown[1:]):
            between = moves[before:after]
            unseen = any(
                game.to_move(states[i]) == CHANCE and not sight.reads(moves[i]) for i in range(before, after)
            )
            holding = name == "arkhanos" and any(not die.number for die in states[after].table)
            if unseen or holding or len(between) > CATCH_UP:
                continue
            table = as_read(pictures[after])
            found = infer(game, sight, states[before], table)
            assert not isinstance(found, Desync) or catch_up(game, sight, states[before], table), (
                f"{name} seed {seed}: {[str(m) for m in between]} not followed"
            )
            followed += 1
    assert followed >= FOLLOWED.get(name, 20), f"{name}: only {followed} changes followed"
