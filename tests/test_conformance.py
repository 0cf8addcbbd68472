"""Every registered game keeps the protocol's promises (OpenSpiel's games_sim_test, ours).

Seeded random playouts run to the end; at every step: legal moves are deterministic
and non-empty, `apply` never mutates its input, states and moves round-trip through
JSON exactly, and the score sheet adds up.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.games.base import CHANCE, Game, IllegalMove, Setup
from companion.games.registry import games

SEEDS = range(6)
MAX_STEPS = 2000


def cases() -> list[tuple[str, int, int]]:
    return [
        (name, players, seed)
        for name, game in games().items()
        for players in range(game.min_players, game.max_players + 1)
        for seed in SEEDS
    ]


def check_score(game: Game[Any, Any], state: Any) -> None:
    sheet = game.score(state)
    seats = len(game.seat_names(state))
    assert all(len(s.points) == seats and len(s.measures) == seats for s in sheet.sources)
    totals = [sum(s.points[seat] for s in sheet.sources) for seat in range(seats)]
    assert [st.total for st in sheet.standings] == sorted(totals, reverse=True)
    assert sorted(st.seat for st in sheet.standings) == list(range(seats))
    assert [st.place for st in sheet.standings] == list(range(1, seats + 1))
    for st in sheet.standings:
        assert st.total == totals[st.seat] == sheet.total(st.seat)
    assert sheet.final == (game.to_move(state) is None)


@pytest.mark.parametrize(("name", "players", "seed"), cases())
def test_random_playout(name: str, players: int, seed: int) -> None:
    game = games()[name]
    rng = random.Random(seed)
    state = game.initial_state(Setup(players, {"seed": str(seed)}))
    for step in range(MAX_STEPS):
        actor = game.to_move(state)
        if actor is None:
            break
        moves = game.legal_moves(state)
        assert moves, f"no legal move before the end, step {step}"
        assert moves == game.legal_moves(state), "legal moves must be deterministic"
        if actor == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(moves)
        assert game.parse_move(str(move)) == move
        assert game.move_from_json(json.loads(json.dumps(game.move_to_json(move)))) == move
        before = json.dumps(game.state_to_json(state))
        after = game.apply(state, move)
        assert json.dumps(game.state_to_json(state)) == before, "apply mutated its input"
        encoded = json.dumps(game.state_to_json(after))
        assert game.state_from_json(json.loads(encoded)) == after
        if step % 10 == 0:
            check_score(game, after)
        state = after
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps")
    assert game.legal_moves(state) == ()
    check_score(game, state)
    with pytest.raises(IllegalMove):
        game.apply(state, move)
