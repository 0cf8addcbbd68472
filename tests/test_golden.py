"""Golden playthroughs replay exactly: every legal-move count, every move, the final sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.base import Setup
from companion.games.registry import get_game
from companion.present import score_json

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_playthrough_replays(path: Path) -> None:
    record = json.loads(path.read_text())
    game = get_game(record["game"])
    state = game.initial_state(Setup(record["players"], record["options"]))
    for number, step in enumerate(record["steps"]):
        assert len(game.legal_moves(state)) == step["legal"], f"step {number}: {step['move']}"
        state = game.apply(state, game.parse_move(step["move"]))
    assert game.to_move(state) is None
    assert score_json(game, state) == record["score"]


def test_there_are_playthroughs() -> None:
    assert len(GOLDEN) >= 3
