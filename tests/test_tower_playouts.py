"""Seeded random playouts of Tower with the variants and expansions on (the conformance test
plays the default set-up only): every step keeps the protocol's promises and the game ends."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.base import CHANCE, Setup
from tests.tower_helpers import GAME

SETUPS = [
    (1, {"lutfi_wins_at": "2", "apprentices": "on"}),
    (2, {"lutfi": "on", "royal_guard": "on", "apprentices": "on"}),
    (3, {"lutfi": "on", "advanced": "on", "secret_cards": "on"}),
    (4, {"apprentices": "on", "royal_guard": "on", "advanced": "on"}),
]


@pytest.mark.parametrize(("players", "options"), SETUPS, ids=[f"{p}p-{'-'.join(o)}" for p, o in SETUPS])
def test_playout_with_expansions(players: int, options: dict[str, str]) -> None:
    rng = random.Random(players)
    state = GAME.initial_state(Setup(players, {"seed": str(players), **options}))
    for _ in range(2000):
        if GAME.to_move(state) is None:
            break
        moves = GAME.legal_moves(state)
        assert moves
        if GAME.to_move(state) == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(moves)
        assert GAME.parse_move(str(move)) == move
        before = json.dumps(GAME.state_to_json(state))
        after = GAME.apply(state, move)
        assert json.dumps(GAME.state_to_json(state)) == before
        assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(after)))) == after
        state = after
    else:
        pytest.fail("no end after 2000 steps")
    sheet = GAME.score(state)
    assert sheet.final
    assert state.winner != -1
