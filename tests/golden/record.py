"""Record golden playthroughs: `python -m tests.golden.record` rewrites tests/golden/*.json.

A playthrough is a seeded random game: every move, the number of legal moves
before it (python-chess's "perft" idea), and the final score sheet. Replaying it
catches any unintended change in the rules; re-record only for a deliberate one,
and say why in the commit.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.games.base import Setup
from companion.games.registry import get_game
from companion.present import score_json

HERE = Path(__file__).parent
PLAYTHROUGHS = {
    "amharb-2p": ("amharb", 2, {"seed": "11", "cults": "shub-niggurath,hastur"}),
    "amharb-3p": (
        "amharb",
        3,
        {"seed": "12", "cults": "yog-sothoth,dagon-hydra,cthulhu", "altars": "random"},
    ),
    "amharb-4p": ("amharb", 4, {"seed": "13", "cults": "nyog-sothep,nyarlathotep,cthugha,hastur"}),
    "arkhanos-2p": ("arkhanos", 2, {"names": "Ana,Ben"}),
    "arkhanos-3p": ("arkhanos", 3, {"names": "Ana,Ben,Cy"}),
    "arkhanos-4p": ("arkhanos", 4, {"names": "Ana,Ben,Cy,Di"}),
    "yuggoth-3p": ("yuggoth", 3, {"seed": "21", "factions": "black-goat,opener-of-the-way,crawling-chaos"}),
    "yuggoth-5p": (
        "yuggoth",
        5,
        {"seed": "22", "factions": "great-cthulhu,crawling-chaos,black-goat,yellow-sign,opener-of-the-way"},
    ),
}


def play(name: str) -> dict[str, Any]:
    game_name, players, options = PLAYTHROUGHS[name]
    game = get_game(game_name)
    state = game.initial_state(Setup(players, options))
    # Prefer powers and placements over "no power", so every cult's power is exercised.
    rng = random.Random(name)
    steps = []
    while game.to_move(state) is not None:
        moves = game.legal_moves(state)
        eager = [m for m in moves if str(m) != "no power"] or list(moves)
        move = rng.choice(eager)
        steps.append({"legal": len(moves), "move": str(move)})
        state = game.apply(state, move)
    return {
        "game": game_name,
        "players": players,
        "options": options,
        "steps": steps,
        "score": score_json(game, state),
    }


def main() -> None:
    for name in PLAYTHROUGHS:
        (HERE / f"{name}.json").write_text(json.dumps(play(name), indent=1) + "\n")
        print(f"recorded {name}")


if __name__ == "__main__":
    main()
