"""Towers of Arkhanos tables for Blender's Cycles path tracer (tests/blender_render.py): the four
towers built as they stand, each one to three 100 mm stone floor tiles (3 mm), each on the three
30 mm pillars of the floor below, the top floor's pillars standing free; d6 dice (16 mm, rounded
edges, pips on every face, dark pips on light dice and white on dark ones) on the top floor's
pillars, rolled into the tray and in the mana pool; wooden meeples standing in the top floor's
spaces, now and then on an empty pillar, and on the spellbooks' spells; on a painted play mat
(a painted ground with ruins, the tray's felt, the mana pool board with its ten printed spaces,
each seat's spellbook board with its labels). Built with tests/blender_turris.py's camera, lamps
and table and tests/blender_tower.py's meeples; nothing in vision/ was tuned on it.

Its numbers come from the arkhanos profile (ASSUMED layout and sizes, vision/profiles/
arkhanos.toml), the game's sight (companion/games/arkhanos/sight.py: 3 mm tiles on 30 mm
pillars) and the pinhole tables of tests/pinhole_figures.py (`arkhanos_levels`: how high each
tower of a seed stands, so the reader's profile is `arkhanos_profile(profile, seed)`), not from
the reader."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from companion.games.arkhanos.sight import PILLAR_MM, TILE_MM
from tests.blender_scene import ART_PX_PER_MM, Table, _srgb
from tests.blender_tower import INK, _box, meeple_outline
from tests.blender_turris import BOARD_THICK_MM, HFOV_DEG, SIZE, board_canvas, painted_table, vignette
from tests.pinhole_figures import ARKHANOS_DICE, ARKHANOS_MEEPLES, ARKHANOS_TILES, arkhanos_levels, free_spot
from vision.colours import DEFAULT_COLOURS
from vision.profiles import Profile

FLOOR_MM = TILE_MM + PILLAR_MM
"""How much higher each floor of a tower stands than the one below."""
PILLAR_WIDTH_MM = 16.0
"""A pillar's width: a die stands on it (ASSUMED)."""
PLAYERS = ("yellow", "red", "blue", "green")
"""The seats' colours, seat 1 first (the profile's piece colours)."""


def pillar_xy(tower: str, k: int) -> tuple[float, float]:
    """Where pillar `k` (0-2, west first) of a tower's floors stands (board mm): 32 mm apart in a
    row 18 mm north of the tile's centre (the profile's `tower/X/pillar/N`)."""
    x0, y0 = ARKHANOS_TILES[tower]
    return x0 + 50.0 + (k - 1) * 32.0, y0 + 32.0


def space_xy(tower: str, k: int) -> tuple[float, float]:
    """Where the meeple beside pillar `k` stands on its floor: 22 mm south of the tile's centre."""
    x0, y0 = ARKHANOS_TILES[tower]
    return x0 + 50.0 + (k - 1) * 32.0, y0 + 72.0


def meeple(
    at: tuple[float, float], z: float, kind: str, colour: str, rng: np.random.Generator
) -> dict[str, Any]:
    """A wooden meeple of its kind standing on `z`, turned any way: Tower's outline (16 x 16)
    stretched to its width and height."""
    width, tall, thick = ARKHANOS_MEEPLES[kind]
    outline = [(round(u * width / 16.0, 3), round(v * tall / 16.0, 3)) for u, v in meeple_outline()]
    return {
        "kind": "meeple",
        "centre": list(at),
        "z": z,
        "outline": outline,
        "depth": thick,
        "colour": _srgb(DEFAULT_COLOURS[colour], rng),
        "turn_deg": float(rng.uniform(0, 180)),
        "bevel": 0.8,
    }


def die(
    at: tuple[float, float], z: float, colour: str, size: float, rng: np.random.Generator
) -> dict[str, Any]:
    """A d6 of `size` mm lying on `z`, a random roll, turned any way; its pips dark on a light
    die (yellow, pink), white on a dark one."""
    light = sum(DEFAULT_COLOURS[colour]) > 420
    return {
        "kind": "die",
        "centre": list(at),
        "z": z,
        "size": size,
        "value": int(rng.integers(1, 7)),
        "colour": _srgb(DEFAULT_COLOURS[colour], rng),
        "pips": _srgb((28.0, 26.0, 26.0) if light else (238.0, 238.0, 235.0), rng, 6),
        "turn_deg": float(rng.uniform(0, 360)),
        "bevel": float(rng.uniform(1.2, 2.0)),
        "roughness": float(rng.uniform(0.25, 0.5)),
    }


def tower(name: str, levels: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """A tower of `levels` floors on the mat: each a 100 mm stone tile on the three pillars of the
    floor below (the first on the mat), with three pillars of its own."""
    x0, y0 = ARKHANOS_TILES[name]
    stone = np.array([150.0, 165.0, 175.0]) * rng.uniform(0.85, 1.2)
    out: list[dict[str, Any]] = []
    for level in range(levels):
        lift = BOARD_THICK_MM + level * FLOOR_MM
        out.append(
            {
                "kind": "box",
                "centre": [x0 + 50.0 + float(rng.uniform(-1, 1)), y0 + 50.0 + float(rng.uniform(-1, 1))],
                "z": lift,
                "size": [100.0, 100.0, TILE_MM],
                "colour": _srgb(tuple(float(v) for v in stone), rng, 10),
                "turn_deg": float(rng.uniform(-1.5, 1.5)),
                "bevel": 0.6,
                "roughness": 0.85,
            }
        )
        for k in range(3):
            out.append(
                {
                    "kind": "cylinder",
                    "centre": list(pillar_xy(name, k)),
                    "z": lift + TILE_MM,
                    "width": PILLAR_WIDTH_MM,
                    "height": PILLAR_MM,
                    "colour": _srgb(tuple(float(v) for v in stone * 0.8), rng, 10),
                    "bevel": 0.8,
                    "turn_deg": 0.0,
                }
            )
    return out


def mat_art(profile: Profile, rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, ...]]:
    """The play mat's painted picture (BGR) and its extent (board mm): a painted ground with the
    ruins' shapes; under each tower a flagstone square; the tray dark felt in a wooden frame; the
    mana pool board (its title, ten framed spaces with their numerals); each spellbook board a
    paper tinted its seat's colour with a dark border, its label and six spells, each framed with
    its number."""
    s = ART_PX_PER_MM
    image, base, extent, px = board_canvas(profile, rng)

    def bgr(v: Any) -> tuple[float, float, float]:
        return tuple(float(c) for c in np.clip(v, 0, 255))  # type: ignore[return-value]

    w, h = profile.size
    vignette(image, (0.0, 0.0, w, h), px, rng, int(rng.integers(8, 16)))
    for x0, y0 in ARKHANOS_TILES.values():  # the ruins' flagstones where the towers stand
        flag = base * rng.uniform(0.7, 1.1)
        cv2.rectangle(image, px(x0 - 6, y0 - 6), px(x0 + 106, y0 + 106), bgr(flag), -1)
        for k in range(1, 4):
            cv2.line(image, px(x0 - 6, y0 - 6 + 28 * k), px(x0 + 106, y0 - 6 + 28 * k), bgr(flag * 0.6), 2)
            cv2.line(image, px(x0 - 6 + 28 * k, y0 - 6), px(x0 - 6 + 28 * k, y0 + 106), bgr(flag * 0.6), 2)
    tray = _box(profile, "tray")
    wood = np.array((42.0, 79.0, 122.0)) * rng.uniform(0.8, 1.3)
    cv2.rectangle(image, px(tray[0] - 6, tray[1] - 6), px(tray[2] + 6, tray[3] + 6), bgr(wood), -1)
    felt = rng.uniform(25, 100, 3)
    cv2.rectangle(image, px(*tray[:2]), px(*tray[2:]), bgr(felt), -1)
    left, top, right, bottom = _box(profile, "mana/", 6.0)
    board = rng.uniform(60, 200, 3)
    cv2.rectangle(image, px(left, top - 14), px(right, bottom + 4), bgr(board), -1)
    cv2.rectangle(image, px(left, top - 14), px(right, bottom + 4), INK, int(1.5 * s), cv2.LINE_AA)
    ink = INK if board.mean() > 110 else (230.0, 230.0, 225.0)
    cv2.putText(image, "MANA POOL", px(left + 4, top - 3), cv2.FONT_HERSHEY_TRIPLEX, 1.3, ink, 2, cv2.LINE_AA)
    for space in range(1, 11):
        xs, ys = zip(*profile.region(f"mana/{space}").polygon)
        cv2.rectangle(image, px(min(xs) + 1.5, min(ys) + 1.5), px(max(xs) - 1.5, max(ys) - 1.5), ink, 2)
        cv2.putText(
            image,
            str(space),
            px(min(xs) + 3, max(ys) - 3),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.8,
            ink,
            2,
            cv2.LINE_AA,
        )
    for seat, colour in enumerate(PLAYERS, start=1):
        left, top, right, bottom = _box(profile, f"spellbook/{seat}/", 5.0)
        bottom -= 3.0  # the second row's label clear of the first row's board
        paper = 0.75 * np.array((225.0, 230.0, 235.0)) * rng.uniform(0.9, 1.1) + 0.25 * np.array(
            DEFAULT_COLOURS[colour]
        )
        cv2.rectangle(image, px(left, top - 12), px(right, bottom), bgr(paper), -1)
        cv2.rectangle(image, px(left, top - 12), px(right, bottom), INK, int(2 * s), cv2.LINE_AA)
        cv2.putText(
            image,
            f"SPELLBOOK {seat}",
            px(left + 5, top - 2),
            cv2.FONT_HERSHEY_TRIPLEX,
            1.1,
            INK,
            2,
            cv2.LINE_AA,
        )
        for spell in range(1, 7):
            xs, ys = zip(*profile.region(f"spellbook/{seat}/{spell}").polygon)
            card = bgr(paper * rng.uniform(0.8, 1.0))
            cv2.rectangle(image, px(min(xs) + 1, min(ys) + 1), px(max(xs) - 1, max(ys) - 1), card, -1)
            cv2.rectangle(image, px(min(xs) + 1, min(ys) + 1), px(max(xs) - 1, max(ys) - 1), INK, 2)
            cv2.putText(
                image,
                str(spell),
                px(min(xs) + 4, min(ys) + 11),
                cv2.FONT_HERSHEY_TRIPLEX,
                1.0,
                INK,
                2,
                cv2.LINE_AA,
            )
    image = cv2.GaussianBlur(image, (0, 0), 1.2)  # print, not pixels
    return image, extent


def frame_xy(camera: list[list[float]], point: tuple[float, float, float]) -> list[float]:
    """Where a point (board mm, z up) falls in the rendered frame (pixels), through the scene's
    camera (tests/blender_turris.py's)."""
    matrix = np.array(camera)
    f = SIZE[0] / 2 / np.tan(np.radians(HFOV_DEG / 2))
    d = np.array([point[0], -point[1], point[2]]) - matrix[:3, 3]
    depth = -d @ matrix[:3, 2]
    u = SIZE[0] / 2 + f * (d @ matrix[:3, 0]) / depth
    v = SIZE[1] / 2 - f * (d @ matrix[:3, 1]) / depth
    return [round(float(u), 1), round(float(v), 1)]


def arkhanos_table(profile: Profile, seed: int) -> Table:
    """A random Arkhanos table: each tower one to three floors (`arkhanos_levels(seed)`), a die
    on about half of its top floor's pillars and a meeple (an apprentice, a master at three in
    ten) in about half of its spaces, now and then one on an empty pillar; zero to six dice
    rolled into the tray, spread apart; dice on about a third of the mana pool's spaces; a
    meeple of its seat's colour on about one spell in eight. The truth: tokens, dice (with their
    centres in the frame) and each tower's floors (`levels`)."""
    rng = np.random.default_rng(seed)
    players = list(profile.piece_colours or PLAYERS)
    solids: list[dict[str, Any]] = []
    tokens: list[dict[str, str]] = []
    dice: list[tuple[dict[str, Any], str, str]] = []
    levels = arkhanos_levels(seed)

    def meeple_kind() -> str:
        return "master" if rng.random() < 0.3 else "apprentice"

    def roll(at: tuple[float, float], z: float, region: str) -> None:
        colour = str(rng.choice(ARKHANOS_DICE))
        dice.append((die(at, z, colour, profile.die_mm, rng), colour, region))

    for name, floors in levels.items():
        solids += tower(name, floors, rng)
        tile = BOARD_THICK_MM + (floors - 1) * FLOOR_MM + TILE_MM
        top = tile + PILLAR_MM
        for k in range(3):
            x, y = pillar_xy(name, k)
            if rng.random() < 0.5:
                roll(
                    (x + float(rng.uniform(-1.5, 1.5)), y + float(rng.uniform(-1.5, 1.5))),
                    top,
                    f"tower/{name}/pillar/{k + 1}",
                )
            elif rng.random() < 0.15:  # a meeple stuck on an empty pillar
                kind, colour = meeple_kind(), str(rng.choice(players))
                solids.append(
                    meeple(
                        (x + float(rng.uniform(-1, 1)), y + float(rng.uniform(-1, 1))), top, kind, colour, rng
                    )
                )
                tokens.append({"region": f"tower/{name}/top/{k + 1}", "kind": kind, "color": colour})
            if rng.random() < 0.5:
                x, y = space_xy(name, k)
                kind, colour = meeple_kind(), str(rng.choice(players))
                at = (x + float(rng.uniform(-3, 3)), y + float(rng.uniform(-3, 3)))
                solids.append(meeple(at, tile, kind, colour, rng))
                tokens.append({"region": f"tower/{name}/meeple/{k + 1}", "kind": kind, "color": colour})
    xs, ys = zip(*profile.region("tray").polygon)
    taken: list[tuple[np.ndarray, float]] = []
    for _ in range(int(rng.integers(0, 7))):
        if (
            at := free_spot(rng, (min(xs), min(ys), max(xs), max(ys)), taken, profile.die_mm * 1.5)
        ) is not None:
            roll(at, BOARD_THICK_MM, "tray")
    for region in (r for r in profile.regions if r.name.startswith("mana/")):
        if rng.random() < 0.3:
            cx, cy = region.centre()
            roll(
                (cx + float(rng.uniform(-2, 2)), cy + float(rng.uniform(-2, 2))), BOARD_THICK_MM, region.name
            )
    for region in (r for r in profile.regions if r.name.startswith("spellbook/")):
        if rng.random() < 0.125:
            colour = players[int(region.name.split("/")[1]) - 1]
            kind = meeple_kind()
            cx, cy = region.centre()
            solids.append(
                meeple(
                    (cx + float(rng.uniform(-2, 2)), cy + float(rng.uniform(-3, 3))),
                    BOARD_THICK_MM,
                    kind,
                    colour,
                    rng,
                )
            )
            tokens.append({"region": region.name, "kind": kind, "color": colour})
    solids += [d for d, _, _ in dice]
    table = painted_table(profile, rng, seed, solids, tokens, mat_art)
    camera = table.scene["camera"]
    truth = [
        {
            "kind": "d6",
            "value": d["value"],
            "color": colour,
            "region": region,
            "center": frame_xy(camera, (d["centre"][0], d["centre"][1], d["z"] + d["size"])),
        }
        for d, colour, region in dice
    ]
    return replace(table, truth={**table.truth, "dice": truth, "levels": levels})
