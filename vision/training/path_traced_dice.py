"""Path-traced d6 training frames: dice sets of many styles in trays, on felt, wood, carpet and
print, lamps and daylight, seen from 0-40 degrees off the vertical, rendered by Blender's Cycles
(vision/training/blender_dice.py, in .venv-blender) and developed as a camera would
(vision/training/develop.py) into a labelled recording (../shared/design/recording-format.md):

    python -m vision.training.path_traced_dice OUT --frames 300 --seed 1

Each frame's truth is the top face's middle and value of every die, projected through the
camera the scene was rendered with; `die_px` is the dice's median side in pixels there;
`decoys` are things that are not d6 (coins, d8s, d20s, cards), never labelled. About 4-8 s a
frame on two cores. The frames are training data only: make them, train, measure on real photos
(`make train-dice` does not need them; docs/vision.md says what they did).
"""

from __future__ import annotations

import argparse
import colorsys
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .develop import developed

REPO = Path(__file__).resolve().parents[2]
BLENDER_PYTHON = REPO / ".venv-blender" / "bin" / "python"
SCENE_SCRIPT = Path(__file__).with_name("blender_dice.py")
SIZE = (512, 384)
KELVIN = {2700: (1.0, 0.66, 0.34), 3500: (1.0, 0.77, 0.55), 4500: (1.0, 0.86, 0.74), 6500: (1.0, 0.98, 0.99)}
INKS = (
    (0.95, 0.95, 0.93),
    (0.08, 0.08, 0.08),
    (0.85, 0.68, 0.2),
    (0.75, 0.1, 0.1),
    (0.75, 0.75, 0.78),
    (0.1, 0.25, 0.7),
)
"""Pip colours (sRGB): white, black, gold, red, silver, blue."""


DICE_COLOURS = (
    (0.8, 0.1, 0.1),
    (0.1, 0.3, 0.8),
    (0.1, 0.6, 0.2),
    (0.95, 0.85, 0.1),
    (0.5, 0.15, 0.6),
    (0.95, 0.95, 0.92),
    (0.08, 0.08, 0.08),
    (0.95, 0.45, 0.1),
    (0.9, 0.4, 0.6),
    (0.1, 0.6, 0.65),
)
"""Colours dice are commonly sold in (sRGB): red, blue, green, yellow, purple, white, black, orange,
pink, teal; half the sets take one of them, a little off."""


def _colour(rng: np.random.Generator, light: tuple[float, float] = (0.1, 0.95)) -> list[float]:
    h, s, v = rng.uniform(0, 1), rng.uniform(0, 1) ** 0.7, rng.uniform(*light)
    return [round(c, 3) for c in colorsys.hsv_to_rgb(h, s, v)]


def _dice_colour(rng: np.random.Generator) -> list[float]:
    if rng.random() < 0.5:
        return _colour(rng)
    base = np.array(DICE_COLOURS[int(rng.integers(len(DICE_COLOURS)))])
    return [round(float(c), 3) for c in np.clip(base * rng.uniform(0.8, 1.1, 3), 0, 1)]


def _luma(c: list[float]) -> float:
    return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]


def dice_set(rng: np.random.Generator) -> dict[str, Any]:
    """One set's look: body style and colours, pips, edges, an emblem on the 1 at times."""
    style = str(
        rng.choice(["solid", "translucent", "marbled", "swirl", "glitter"], p=[0.4, 0.2, 0.15, 0.1, 0.15])
    )
    colour = _dice_colour(rng)
    body: dict[str, Any] = {
        "style": style,
        "colour": colour,
        "second": _dice_colour(rng),
        "roughness": float(rng.uniform(0.05, 0.3) if style == "translucent" else rng.uniform(0.15, 0.6)),
        "scale": float(rng.uniform(60, 250) if style != "glitter" else rng.uniform(500, 1500)),
    }
    if style == "translucent" or (style == "glitter" and rng.random() < 0.5):
        body["clear"] = float(rng.uniform(0.6, 1.0))
    inks = [list(c) for c in INKS if abs(_luma(list(c)) - _luma(colour)) > 0.3] or [
        list(INKS[0]),
        list(INKS[1]),
    ]
    ink = inks[int(rng.integers(len(inks)))]
    return {
        "body": body,
        "ink": {
            "style": "solid",
            "colour": ink,
            "roughness": 0.5,
            "metal": 0.8 if ink in ([0.85, 0.68, 0.2], [0.75, 0.75, 0.78]) and rng.random() < 0.5 else 0.0,
        },
        "size": float(rng.uniform(12, 19)),
        "bevel_share": float(rng.uniform(0.05, 0.16)),
        "pip": float(rng.uniform(0.07, 0.11)),
        "pitch": float(rng.uniform(0.22, 0.3)),
        "sunk": float(rng.uniform(0.3, 1.2)),
        "emblem": float(rng.uniform(0.18, 0.3)) if rng.random() < 0.25 else 0.0,
    }


def _surface(rng: np.random.Generator) -> dict[str, Any]:
    style = str(rng.choice(["solid", "felt", "wood", "speckle", "marbled"], p=[0.2, 0.25, 0.2, 0.25, 0.1]))
    out: dict[str, Any] = {
        "style": style,
        "colour": _colour(rng, (0.05, 0.9)),
        "second": _colour(rng, (0.05, 0.9)),
        "third": _colour(rng, (0.05, 0.9)),
        "roughness": float(rng.uniform(0.4, 0.95)),
        "scale": float(rng.uniform(20, 80) if style == "wood" else rng.uniform(150, 900)),
    }
    if style in ("felt", "wood"):  # one colour, mottled or grained
        out["second"] = [min(1.0, c * float(rng.uniform(0.55, 1.1))) for c in out["colour"]]
    return out


def look_at(eye: np.ndarray, target: np.ndarray, roll: float) -> np.ndarray:
    """Blender's camera-to-world matrix (mm): it looks down its -Z, its +Y up the picture."""
    forward = (target - eye) / np.linalg.norm(target - eye)
    up0 = np.array([0.0, 1.0, 0.0]) if abs(forward[1]) < 0.9 else np.array([1.0, 0.0, 0.0])
    right = np.cross(forward, up0)
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    c, s = math.cos(roll), math.sin(roll)
    right, up = c * right + s * up, -s * right + c * up
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = right, up, -forward, eye
    return m


def project(camera: np.ndarray, hfov_deg: float, points: np.ndarray) -> np.ndarray:
    """World points (mm, n x 3) to pixels, as Blender's camera renders them."""
    w, h = SIZE
    f = (w / 2) / math.tan(math.radians(hfov_deg) / 2)
    local = (np.linalg.inv(camera) @ np.c_[points, np.ones(len(points))].T).T[:, :3]
    depth = -local[:, 2]
    return np.c_[w / 2 + f * local[:, 0] / depth, h / 2 - f * local[:, 1] / depth]


def _rot_z(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rot_x(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def scene(rng: np.random.Generator, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """One frame's scene (for blender_dice.py) and its truth."""
    sets = [dice_set(rng) for _ in range(int(rng.integers(1, 4)))]
    hfov = float(rng.uniform(45, 70))
    f = (SIZE[0] / 2) / math.tan(math.radians(hfov) / 2)
    mean_side = float(np.mean([s["size"] for s in sets]))
    dist = mean_side * f / float(rng.uniform(26, 62))
    tilt, azimuth = math.radians(rng.uniform(0, 40)), rng.uniform(0, 2 * math.pi)
    target = np.array([*rng.uniform(-10, 10, 2), 0.0])
    eye = target + dist * np.array(
        [math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)]
    )
    camera = look_at(eye, target, float(rng.uniform(-math.pi, math.pi)))
    reach = dist * math.tan(math.radians(hfov) / 2)
    spec: dict[str, Any] = {
        "name": name,
        "size": list(SIZE),
        "samples": int(rng.integers(12, 24)),
        "hfov_deg": hfov,
        "camera": camera.tolist(),
        "ground": _surface(rng),
        "ambient": float(rng.uniform(0.05, 0.6)),
        "ambient_rgb": [float(v) for v in rng.uniform(0.7, 1.0, 3)],
    }
    floor_z = 0.0
    if rng.random() < 0.6:  # a tray or a mat under the dice, walls round it at times
        thick = float(rng.uniform(2, 6))
        size = [float(rng.uniform(1.2, 2.4) * reach), float(rng.uniform(1.0, 2.0) * reach)]
        turn = float(rng.uniform(0, 180))
        centre = [float(v) for v in rng.uniform(-0.3, 0.3, 2) * reach]
        spec["floor"] = {
            "centre": centre,
            "size": size,
            "thick": thick,
            "turn_deg": turn,
            "surface": _surface(rng),
        }
        floor_z = thick
        if rng.random() < 0.6:
            wall_surface = _surface(rng)
            tall, wide = float(rng.uniform(12, 40)), float(rng.uniform(6, 15))
            rot = _rot_z(turn)[:2, :2]
            walls = []
            for sx, sy, along in ((0, 1, 0), (0, -1, 0), (1, 0, 1), (-1, 0, 1)):
                offset = rot @ np.array([sx * (size[0] + wide) / 2, sy * (size[1] + wide) / 2])
                length = (size[0] if along == 0 else size[1]) + 2 * wide
                walls.append(
                    {
                        "centre": [centre[0] + float(offset[0]), centre[1] + float(offset[1]), 0.0],
                        "size": [length, wide, tall] if along == 0 else [wide, length, tall],
                        "turn_deg": turn,
                        "surface": wall_surface,
                    }
                )
            spec["walls"] = walls
    dice: list[dict[str, Any]] = []
    placed: list[tuple[np.ndarray, float]] = []
    heaps = [rng.uniform(-0.6, 0.6, 2) * reach for _ in range(int(rng.integers(1, 4)))]
    wanted = int(rng.integers(3, 25))
    for _ in range(200):
        if len(dice) == wanted:
            break
        look = sets[int(rng.integers(len(sets)))]
        side = look["size"] * float(rng.uniform(0.97, 1.03))
        heap = heaps[int(rng.integers(len(heaps)))]
        at = (
            heap + rng.normal(0, rng.uniform(0.5, 2.5) * side, 2)
            if rng.random() < 0.6
            else rng.uniform(-0.8, 0.8, 2) * reach
        )
        if any(np.linalg.norm(at - p) < 0.72 * (side + s) for p, s in placed):
            continue
        placed.append((at, side))
        dice.append(
            {
                "at": [float(at[0]), float(at[1]), floor_z],
                "size": side,
                "value": int(rng.integers(1, 7)),
                "turn_deg": float(rng.uniform(0, 360)),
                "lean_deg": float(rng.normal(0, 2)),
                "bevel": look["bevel_share"] * side,
                **{k: look[k] for k in ("body", "ink", "pip", "pitch", "sunk", "emblem")},
            }
        )
    decoys = []
    for _ in range(int(rng.integers(0, 4))):
        size = float(rng.uniform(14, 26))
        at = rng.uniform(-0.8, 0.8, 2) * reach
        if any(np.linalg.norm(at - p) < 0.72 * s + 0.6 * size for p, s in placed):
            continue
        placed.append((at, size))
        decoys.append(
            {
                "kind": str(rng.choice(["coin", "d20", "d8", "card"])),
                "at": [float(at[0]), float(at[1]), floor_z],
                "size": size,
                "turn": [float(v) for v in rng.uniform(0, 360, 3)],
                "surface": {**_surface(rng), "style": "solid", "metal": float(rng.random() < 0.4)},
            }
        )
    spec["dice"], spec["decoys"] = dice, decoys
    spec["lamps"] = [_lamp(rng, dist) for _ in range(int(rng.integers(1, 4)))]
    return spec, _truth(spec, camera, hfov)


def _lamp(rng: np.random.Generator, dist: float) -> dict[str, Any]:
    rgb = list(KELVIN[int(rng.choice(list(KELVIN)))])
    if rng.random() < 0.35:
        return {
            "kind": "sun",
            "strength": float(rng.uniform(1.5, 6)),
            "angle_deg": float(rng.uniform(0.5, 15)),
            "elevation_deg": float(rng.uniform(25, 85)),
            "azimuth_deg": float(rng.uniform(0, 360)),
            "rgb": rgb,
        }
    up = float(rng.uniform(250, 1200))
    away = rng.uniform(-1, 1, 2) * up * 0.8
    return {
        "kind": "area",
        "watts": float(rng.uniform(4, 40) * (up / 600) ** 2),
        "size_mm": float(rng.uniform(20, 400)),
        "at": [float(away[0]), float(away[1]), up],
        "rgb": rgb,
    }


def _truth(spec: dict[str, Any], camera: np.ndarray, hfov: float) -> dict[str, Any]:
    dice, sides = [], []
    for item in spec["dice"]:
        half = item["size"] / 2
        turn = _rot_z(item["turn_deg"]) @ _rot_x(item["lean_deg"])
        centre = np.array(item["at"]) + [0, 0, half]
        top = centre + turn @ np.array([0, 0, half])
        across = turn @ np.array([half, 0, 0])
        px = project(camera, hfov, np.array([top, top - across, top + across]))
        x, y = px[0]
        if 0 <= x < SIZE[0] and 0 <= y < SIZE[1]:
            dice.append(
                {"kind": "d6", "value": item["value"], "center": [round(float(x), 1), round(float(y), 1)]}
            )
            sides.append(float(np.linalg.norm(px[2] - px[1])))
    decoys = []
    for item in spec.get("decoys", []):
        (x, y), (x2, _) = project(
            camera, hfov, np.array([item["at"], np.array(item["at"]) + [item["size"], 0, 0]])
        )
        decoys.append([round(float(x), 1), round(float(y), 1), round(abs(float(x2 - x)), 1)])
    return {"dice": dice, "die_px": round(float(np.median(sides)), 1) if sides else 30.0, "decoys": decoys}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=20, help="scenes rendered by one Blender process")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    frames = []
    for first in range(0, args.frames, args.batch):
        made = [scene(rng, f"{n:05d}") for n in range(first, min(args.frames, first + args.batch))]
        todo = [(s, t) for s, t in made if not (args.out / f"{s['name']}.jpg").exists()]
        if todo:
            scenes = args.out / "scenes.json"
            scenes.write_text(json.dumps([s for s, _ in todo]))
            subprocess.run(
                [str(BLENDER_PYTHON), str(SCENE_SCRIPT), str(scenes), str(args.out / "linear")],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            for s, _ in todo:
                hdr = args.out / "linear" / f"{s['name']}.hdr"
                linear = cv2.imread(str(hdr), cv2.IMREAD_UNCHANGED)
                develop = np.random.default_rng([args.seed, int(s["name"])])
                cv2.imwrite(str(args.out / f"{s['name']}.jpg"), developed(linear[..., :3], develop))
                hdr.unlink()
        for s, truth in made:
            frames.append({"file": f"{s['name']}.jpg", "t": float(len(frames)), "truth": truth})
        print(f"{len(frames)}/{args.frames} frames", file=sys.stderr, flush=True)
    (args.out / "recording.json").write_text(
        json.dumps(
            {
                "format": "table-recording/1",
                "description": "d6 dice path-traced by Blender Cycles for training "
                "(vision/training/path_traced_dice.py)",
                "source": f"seed {args.seed}, {args.frames} frames",
                "game": None,
                "profile": None,
                "camera": {"width": SIZE[0], "height": SIZE[1], "fps": None},
                "frames": frames,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
