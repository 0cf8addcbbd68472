"""Yuggoth maps for Blender's Cycles path tracer (tests/blender_render.py), for issue 25: the
Watcher (a bulky dark figure on a pink-painted 50 mm base) among about twenty faction figures
(Acolytes, Monsters and Great Old Ones sculpted on bases of their faction's colour or dark
plastic, Gates as flat discs), on a painted map (each Area a vignette with its name), and zero to
six d6 rolled into the rolling area (tests/blender_arkhanos.py's dice). Built with
tests/blender_turris.py's figures and board; nothing in vision/ was tuned on it.

Its numbers come from issue 25's text and the Cthulhu Wars figures' sizes as
tests/pinhole_figures.py assumes them (FACTION_FIGURES), not from the reader. The truth is the
Watcher and the dice: the factions' figures are not read (companion/games/yuggoth)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from tests.blender_arkhanos import die, frame_xy
from tests.blender_scene import Table, _srgb
from tests.blender_turris import BOARD_THICK_MM, _cylinder, beast, painted_table, scout
from tests.pinhole_figures import FACTION_FIGURES, FACTIONS, free_spot
from vision.colours import DEFAULT_COLOURS
from vision.profiles import Profile

WATCHER_BASE_MM = 50.0


def yuggoth_table(profile: Profile, seed: int) -> Table:
    """A random Yuggoth map: the Watcher in one Area (four tables in five) and 16-25 figures of
    three to five factions, each on a base of its faction's colour or dark plastic, or a Gate."""
    rng = np.random.default_rng(seed)
    areas = [r for r in profile.regions if r.holds == "tokens"]
    boxes = {}
    for area in areas:
        xs, ys = zip(*area.polygon)
        boxes[area.name] = (min(xs), min(ys), max(xs), max(ys))
    taken: dict[str, list[tuple[np.ndarray, float]]] = {r.name: [] for r in areas}
    solids: list[dict[str, Any]] = []
    tokens: list[dict[str, str]] = []
    if rng.random() < 0.8:
        where = areas[int(rng.integers(len(areas)))].name
        if (at := free_spot(rng, boxes[where], taken[where], WATCHER_BASE_MM)) is not None:
            pink = _srgb(DEFAULT_COLOURS["pink"], rng)
            solids += beast(at, rng, WATCHER_BASE_MM, pink, (45, 60))
            tokens.append({"region": where, "kind": "watcher", "color": "pink"})
    factions = [str(c) for c in rng.choice(FACTIONS, size=int(rng.integers(3, 6)), replace=False)]
    dark_bases = {f: bool(rng.random() < 0.5) for f in factions}
    for _ in range(int(rng.integers(16, 26))):
        where = areas[int(rng.integers(len(areas)))].name
        faction = factions[int(rng.integers(len(factions)))]
        if rng.random() < 0.1:  # a Gate
            if (at := free_spot(rng, boxes[where], taken[where], 30.0)) is not None:
                solids.append(
                    _cylinder(at, BOARD_THICK_MM, 30.0, 3.0, _srgb(DEFAULT_COLOURS[faction], rng), rng)
                )
            continue
        base, body, tall, _ = FACTION_FIGURES[int(rng.choice(3, p=[0.5, 0.35, 0.15]))]
        if (at := free_spot(rng, boxes[where], taken[where], base)) is not None:
            size = (base, (0.9 * body, 1.1 * body), (0.85 * tall, 1.15 * tall))
            solids += scout(at, faction, dark_bases[faction], rng, size)
    dice = rolled(profile, seed)
    table = painted_table(profile, rng, seed, solids + [d for d, _ in dice], tokens)
    camera = table.scene["camera"]
    truth = [
        {
            "kind": "d6",
            "value": d["value"],
            "color": colour,
            "region": "tray",
            "center": frame_xy(camera, (d["centre"][0], d["centre"][1], d["z"] + d["size"])),
        }
        for d, colour in dice
    ]
    return replace(table, truth={**table.truth, "dice": truth})


def rolled(profile: Profile, seed: int) -> list[tuple[dict[str, Any], str]]:
    """Zero to six d6 of any of the palette's colours rolled into the rolling area, apart (drawn
    from a generator of their own, so the maps rendered before dice were added keep their
    layout, lamps and camera)."""
    rng = np.random.default_rng([seed, 6])
    xs, ys = zip(*profile.region("tray").polygon)
    taken: list[tuple[np.ndarray, float]] = []
    dice = []
    for _ in range(int(rng.integers(0, 7))):
        at = free_spot(rng, (min(xs), min(ys), max(xs), max(ys)), taken, profile.die_mm * 1.5)
        if at is not None:
            colour = str(rng.choice(sorted(DEFAULT_COLOURS)))
            dice.append((die(at, BOARD_THICK_MM, colour, profile.die_mm, rng), colour))
    return dice
