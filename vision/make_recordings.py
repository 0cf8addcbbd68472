"""Render recordings of random Am'harb tables with exact truth (`table-recording/1`).

    python -m vision.make_recordings OUT_DIR --players 4 --frames 8 --seed 1

Each frame is a new random table (disc stacks, disciples, sometimes two in a
space) under a random camera and light, so a recording exercises the readers,
not one lucky view.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from .profiles import load_profile
from .render import Camera, Scene, StackSpec, TokenSpec, random_look, render
from .types import RECORDING_FORMAT


def random_scene(players: int, rng: np.random.Generator, size: tuple[int, int]) -> Scene:
    profile = load_profile(f"amharb-{players}p")
    colours = list(profile.piece_colours or ())[:players]
    stacks = []
    for seat in range(players):
        where = rng.integers(0, 4, size=4)
        for area in range(4):
            discs = tuple(d for d, a in zip((4, 3, 2, 1), where) if a == area)
            if discs:
                offset = tuple(float(v) for v in rng.uniform(-6, 6, 2))
                stacks.append(StackSpec(f"seat{seat}/area{area}", colours[seat], discs, offset))  # type: ignore[arg-type]
    cells = [r.name for r in profile.regions if r.holds == "tokens"]
    tokens = []
    for cell in rng.choice(cells, size=int(rng.integers(4, 24)), replace=False):
        if rng.random() < 0.15:  # two disciples share a space (Shub-Niggurath)
            for offset in ((-9.0, -9.0), (9.0, 9.0)):
                tokens.append(TokenSpec(str(cell), "cultist", str(rng.choice(colours)), offset))
        else:
            kind = "priest" if rng.random() < 0.35 else "cultist"
            offset = tuple(float(v) for v in rng.uniform(-5, 5, 2))
            tokens.append(TokenSpec(str(cell), kind, str(rng.choice(colours)), offset))  # type: ignore[arg-type]
    # Resource tiles: one on each normal space at set-up (rulebook, "Island Map Boards": normal
    # space), taken by the disciple placed there ("Disciple Phase" 3.3, Place & Gain). The
    # renderer does not know which spaces are altar spaces (their altar tiles are not read or
    # drawn), so some free spaces are left bare to stand for them.
    taken = {t.region for t in tokens}
    tile_colours = profile.colours_of("resource") or ()
    for cell in cells:
        if cell not in taken and tile_colours and rng.random() < 0.6:
            offset = tuple(float(v) for v in rng.uniform(-4, 4, 2))
            colour = str(rng.choice(tile_colours))
            angle = float(rng.uniform(-12, 12))
            tokens.append(TokenSpec(str(cell), "resource", colour, offset, angle))  # type: ignore[arg-type]
    width, height = size
    camera = Camera(width, height, tilt=float(rng.uniform(0, 0.15)), rotation=float(rng.uniform(-15, 15)))
    return Scene(profile, camera, random_look(rng), stacks=tuple(stacks), tokens=tuple(tokens))


def truth(scene: Scene) -> dict[str, object]:
    return {
        "stacks": [{"region": s.region, "color": s.colour, "discs": list(s.discs)} for s in scene.stacks],
        "tokens": [{"region": t.region, "kind": t.kind, "color": t.colour} for t in scene.tokens],
        "settled": True,
    }


def make(out: Path, players: int, frames: int, seed: int, size: tuple[int, int] = (1280, 960)) -> None:
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for n in range(frames):
        scene = random_scene(players, rng, size)
        image, _ = render(scene, seed=int(rng.integers(1 << 30)))
        name = f"{n + 1:04d}.jpg"
        cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        entries.append({"file": name, "t": n * 1.0, "truth": truth(scene)})
    meta = {
        "format": RECORDING_FORMAT,
        "description": f"Rendered Towers of Am'harb tables, {players} players, a new random table each frame",
        "source": f"vision.make_recordings --players {players} --frames {frames} --seed {seed} "
        f"--size {size[0]}x{size[1]}",
        "game": "amharb",
        "profile": f"amharb-{players}p",
        "camera": {"width": size[0], "height": size[1], "fps": 1},
        "frames": entries,
    }
    (out / "recording.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x960", help="frame size, e.g. 1920x1080")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    make(args.out, args.players, args.frames, args.seed, (width, height))


if __name__ == "__main__":
    main()
