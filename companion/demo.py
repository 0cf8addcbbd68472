"""A rendered recording of a whole game of Am'harb, to watch the companion follow a table.

    python -m companion.demo OUT --players 4 --seed 11

Plays a random game (the seed decides it), draws the table after every move the camera
can see (from a camera that stays still, as one on a stand does; each picture's noise its
own), and writes a `table-recording/1` in OUT: each table held for a second or so as
a real one would be between moves (the same picture repeated; frames name their file),
with the truth of each table, the moves since the last one, and the game's set-up under
the extra key "setup". Start that game (same players and seed) and replay the recording
as the camera: the companion takes every move it can see; NEXT or the phone gives it the
others (declining a power, a pass, a Lock tile) and answers its questions.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.make_recordings import truth
from vision.render import render
from vision.types import RECORDING_FORMAT

from .games.amharb.render import TableRenderer
from .games.base import Setup
from .games.registry import get_game
from .games.sight import Picture

HOLD_FRAMES = 8
"""Frames each table is held for (at 4 frames a second: two seconds), enough for the
stillness gate and K agreeing readings."""


def make_demo(out: Path, players: int = 4, seed: int = 11, fps: float = 4.0) -> int:
    """Writes the recording; returns how many moves the game took."""
    game = get_game("amharb")
    sight = game.sight
    assert sight is not None
    options = {"seed": str(seed)}
    state = game.initial_state(Setup(players, options))
    rng, nrng = random.Random(seed), np.random.default_rng(seed)
    renderer = TableRenderer(players, nrng)
    out.mkdir(parents=True, exist_ok=True)
    frames: list[dict[str, Any]] = []
    moves: list[str] = []
    total = 0

    def show(picture: Picture) -> None:
        name = f"{len(frames) // HOLD_FRAMES + 1:04d}.jpg"
        scene = renderer.scene(picture)
        image, _ = render(scene, seed=int(nrng.integers(1 << 30)), camera_seed=seed)  # a camera held still
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        for k in range(HOLD_FRAMES):
            entry: dict[str, Any] = {"file": name, "t": round(len(frames) / fps, 3)}
            if k == 0:
                entry.update(truth=truth(scene), moves=list(moves))
            frames.append(entry)
        moves.clear()

    picture = sight.expected(state)
    show(picture)
    while game.to_move(state) is not None:
        move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)
        moves.append(game.move_to_json(move))
        total += 1
        if (after := sight.expected(state)) != picture:
            picture = after
            show(picture)
    if moves:  # the last moves hid nothing new: the final table, with them
        show(picture)
    meta = {
        "format": RECORDING_FORMAT,
        "description": f"A rendered game of Towers of Am'harb, {players} players, seed {seed}: each table "
        f"held {HOLD_FRAMES} frames after every move the camera can see",
        "source": f"companion.demo --players {players} --seed {seed}",
        "game": "amharb",
        "profile": f"amharb-{players}p",
        "camera": {"width": renderer.camera.width, "height": renderer.camera.height, "fps": fps},
        "setup": {"game": "amharb", "players": players, "options": options, "moves": total},
        "frames": frames,
    }
    (out / "recording.json").write_text(json.dumps(meta, indent=1) + "\n")
    return total


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    moves = make_demo(args.out, args.players, args.seed)
    print(f"wrote {args.out}: a {args.players}-player game of {moves} moves (seed {args.seed})")


if __name__ == "__main__":
    main()
