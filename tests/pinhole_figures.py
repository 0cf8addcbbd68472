"""Miniatures on an illustrated board, for issue 25: tests/pinhole.py's pinhole camera, light and
sensor, with figures as they are bought (a base of the piece's size, in the player's colour or
dark plastic, and a narrower figure on it, tens of millimetres tall) standing on a board printed
with a picture in every place (shapes in any colour, dark circles, the place's name, paths).
The empty board is seen through the same camera for the reader's reference. Built for Turris
(`turris_table`); none of its numbers come from the reader."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tests.pinhole import (
    PLANE_PX_PER_MM,
    Camera,
    Piece,
    Shot,
    board_plane,
    camera,
    dice_matched,
    draw_pieces,
    photograph,
    plane,
    random_shot,
    table_shot,
)
from tests.pinhole_dice import STYLES, Die, draw_dice, random_die
from vision.profiles import Profile

DARK_PLASTIC = (45.0, 45.0, 50.0)
Table = Callable[..., tuple[np.ndarray, np.ndarray, list[tuple[str, str, str]]]]
"""A table of a seed (`size`: the sensor's, for a full-resolution still): the frame, the empty
board seen the same way, the truth (region, kind, colour)."""
STILL = (2560, 1920)
"""The camera's full-resolution still beside 1280 x 960 frames (hardware/CAMERA.md)."""


@dataclass(frozen=True)
class Figure:
    """A miniature: a round base of the piece's size and a figure standing on it."""

    centre_mm: tuple[float, float]
    base_colour: tuple[float, float, float]
    base_width: float
    body_colour: tuple[float, float, float]
    body_width: float
    body_height: float
    base_height: float = 3.0

    def pieces(self) -> tuple[Piece, Piece]:
        base = Piece(self.centre_mm, self.base_colour, self.base_width, self.base_height)
        body = Piece(
            self.centre_mm, self.body_colour, self.body_width, self.body_height, lift=self.base_height
        )
        return base, body


def illustrate(picture: np.ndarray, profile: Profile, rng: np.random.Generator) -> None:
    """Paints a picture into every token region of the board (in place): a few shapes of any
    colour (fire, water, forest: the players' colours too), sometimes a dark circle, the place's
    name; and paths between the places."""
    s = PLANE_PX_PER_MM
    x0 = y0 = -200.0 - profile.marker_size * 2  # as tests/pinhole.py lays the board out

    def px(x: float, y: float) -> tuple[int, int]:
        return int((x - x0) * s), int((y - y0) * s)

    regions = [r for r in profile.regions if r.holds == "tokens"]
    for a, b in zip(regions, regions[1:]):
        colour = tuple(float(v) for v in rng.uniform(60, 200, 3))
        cv2.line(picture, px(*a.centre()), px(*b.centre()), colour, int(rng.uniform(3, 8) * s))
    for region in regions:
        xs, ys = zip(*region.polygon)
        for _ in range(int(rng.integers(2, 6))):
            centre = px(rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)))
            axes = (int(rng.uniform(4, 25) * s), int(rng.uniform(4, 25) * s))
            colour = tuple(float(v) for v in rng.integers(20, 250, 3))
            cv2.ellipse(picture, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        if rng.random() < 0.3:
            centre = px(rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)))
            cv2.circle(picture, centre, int(rng.uniform(10, 25) * s), (35.0, 30.0, 30.0), -1, cv2.LINE_AA)
        ink = (20.0, 20.0, 20.0) if rng.random() < 0.6 else (235.0, 235.0, 230.0)
        cv2.putText(
            picture,
            region.name,
            px(min(xs) + 3, max(ys) - 4),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.2 * s / 4 * 2,
            ink,
            int(s),
        )


def free_spot(
    rng: np.random.Generator, box: tuple[float, ...], taken: list[tuple[np.ndarray, float]], width: float
) -> tuple[float, float] | None:
    """A place for a base `width` wide inside `box` (x0, y0, x1, y1) not overlapping those
    `taken` (touching them at times), added to them; None when none is found."""
    x0, y0, x1, y1 = box
    for _ in range(40):
        at = np.array(
            [rng.uniform(x0 + width / 2, x1 - width / 2), rng.uniform(y0 + width / 2, y1 - width / 2)]
        )
        if all(np.hypot(*(at - c)) >= (width + w) / 2 + rng.uniform(0, 2) for c, w in taken):
            taken.append((at, width))
            return float(at[0]), float(at[1])
    return None


def all_markers_in_view(profile: Profile, shot: Shot, aim_mm: tuple[float, float]) -> bool:
    """Whether every marker lies wholly inside the frame."""
    cam = camera(shot, aim_mm)
    half = profile.marker_size / 2 + 8
    corners = [
        (x + dx, y + dy, 0.0) for _, (x, y) in profile.markers for dx in (-half, half) for dy in (-half, half)
    ]
    seen = cam.project(np.array(corners))
    return bool(((seen >= 0) & (seen < np.array(shot.size))).all())


def boards_found(profile: Profile, rng: np.random.Generator, count: int) -> int:
    """Of `count` frames of the profile's markers (tests/pinhole.py `plane`) with every marker in
    view, at 4-6 px a marker cell, up to 6 px of motion blur, tilted up to 30 degrees, in how
    many the board is found."""
    from vision.board import BoardLocator
    from vision.types import BoardNotFound

    aim = (profile.size[0] / 2, profile.size[1] / 2)
    found = total = 0
    while total < count:
        picture, to_mm = plane(profile, rng)
        shot = random_shot(rng, profile, (4.0, 6.0), 6.0)
        if not all_markers_in_view(profile, shot, aim):
            continue
        total += 1
        try:
            BoardLocator(profile).locate(photograph(picture, to_mm, shot, aim, rng))
            found += 1
        except BoardNotFound:
            pass
    return found


def turris_table(
    profile: Profile, seed: int, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str, str]]]:
    """A random Turris board: Scouts (20 mm bases, in the player's colour or dark plastic, a
    figure 10-14 mm wide and 25-35 mm tall in the player's colour), Beasts (45 mm dark bases, a
    dark figure 28-34 mm wide and 40-60 mm tall) and the Fruit token (a 30 mm orange disc, 3 mm)
    on the places, pieces sometimes touching; the board illustrated. Seen from 950-1350 mm up
    (higher when the markers are not all in view), tilted up to 25 degrees, under a light from
    a random side. The frame, the empty board seen the same way, and the truth (region, kind,
    colour)."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    players = list(profile.piece_colours or ("red", "blue", "green", "yellow"))
    sizes = dict(profile.token_mm)

    def off(bgr: tuple[float, ...]) -> tuple[float, float, float]:
        r, g, b = (float(np.clip(v + rng.uniform(-18, 18), 0, 255)) for v in bgr)
        return r, g, b

    figures: list[Figure] = []
    flat: list[Piece] = []
    truth: list[tuple[str, str, str]] = []
    fruit_placed = False
    for region in (r for r in profile.regions if r.holds == "tokens"):
        xs, ys = zip(*region.polygon)
        box = (min(xs), min(ys), max(xs), max(ys))
        taken: list[tuple[np.ndarray, float]] = []

        if rng.random() < 0.25 and (at := free_spot(rng, box, taken, sizes["beast"])) is not None:
            grey = off(DARK_PLASTIC)
            figures.append(
                Figure(at, grey, sizes["beast"], grey, float(rng.uniform(28, 34)), float(rng.uniform(40, 60)))
            )
            truth.append((region.name, "beast", "black"))
        if (
            not fruit_placed
            and rng.random() < 0.15
            and (at := free_spot(rng, box, taken, sizes["fruit"])) is not None
        ):
            flat.append(Piece(at, off(DEFAULT_COLOURS["orange"]), sizes["fruit"], 3.0))
            truth.append((region.name, "fruit", "orange"))
            fruit_placed = True
        for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3, 4]))):
            colour = str(rng.choice(players))
            body = off(DEFAULT_COLOURS[colour])
            base = body if rng.random() < 0.5 else off(DARK_PLASTIC)
            if (at := free_spot(rng, box, taken, sizes["scout"])) is None:
                break
            figures.append(
                Figure(at, base, sizes["scout"], body, float(rng.uniform(10, 14)), float(rng.uniform(25, 35)))
            )
            truth.append((region.name, "scout", colour))
    return _photographed(profile, rng, seed, flat, figures, truth, size)


FACTIONS = ("green", "blue", "red", "yellow", "purple", "orange", "white")
"""The Cthulhu Wars factions' colours as the camera names them (companion/games/yuggoth)."""
FACTION_FIGURES = ((16.0, 9.0, 20.0, 3), (30.0, 20.0, 32.0, 2), (50.0, 34.0, 60.0, 1))
"""Acolytes, Monsters and Great Old Ones: base width, figure width and height (mm), and how
many of each a faction may have in one Area."""


def yuggoth_table(
    profile: Profile, seed: int, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str, str]]]:
    """A random Yuggoth map: about twenty faction figures (Acolytes, Monsters, Great Old Ones on
    bases of their faction's colour or dark plastic, Gates as flat 30 mm discs) in the Areas,
    and the Watcher (a dark figure 26-32 mm wide, 45-60 mm tall, on a pink-painted 50 mm base)
    in one Area or none; the map painted. Seen as `turris_table`'s boards are; the truth is the
    Watcher alone (the factions' figures are not read)."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)

    def off(bgr: tuple[float, ...]) -> tuple[float, float, float]:
        r, g, b = (float(np.clip(v + rng.uniform(-18, 18), 0, 255)) for v in bgr)
        return r, g, b

    areas = [r for r in profile.regions if r.holds == "tokens"]
    boxes = {
        r.name: (
            min(x for x, _ in r.polygon),
            min(y for _, y in r.polygon),
            max(x for x, _ in r.polygon),
            max(y for _, y in r.polygon),
        )
        for r in areas
    }
    taken: dict[str, list[tuple[np.ndarray, float]]] = {r.name: [] for r in areas}
    figures: list[Figure] = []
    flat: list[Piece] = []
    truth: list[tuple[str, str, str]] = []
    if rng.random() < 0.8:
        where = areas[int(rng.integers(len(areas)))].name
        if (at := free_spot(rng, boxes[where], taken[where], 50.0)) is not None:
            figures.append(
                Figure(
                    at,
                    off(DEFAULT_COLOURS["pink"]),
                    50.0,
                    off(DARK_PLASTIC),
                    float(rng.uniform(26, 32)),
                    float(rng.uniform(45, 60)),
                )
            )
            truth.append((where, "watcher", "pink"))
    factions = [str(c) for c in rng.choice(FACTIONS, size=int(rng.integers(3, 6)), replace=False)]
    for _ in range(int(rng.integers(16, 26))):
        where = areas[int(rng.integers(len(areas)))].name
        colour = off(DEFAULT_COLOURS[factions[int(rng.integers(len(factions)))]])
        if rng.random() < 0.1:
            if (at := free_spot(rng, boxes[where], taken[where], 30.0)) is not None:
                flat.append(Piece(at, colour, 30.0, 3.0))
            continue
        base_w, body_w, body_h, _ = FACTION_FIGURES[int(rng.choice(3, p=[0.5, 0.35, 0.15]))]
        if (at := free_spot(rng, boxes[where], taken[where], base_w)) is not None:
            base = colour if rng.random() < 0.5 else off(DARK_PLASTIC)
            figures.append(Figure(at, base, base_w, colour, body_w, body_h * float(rng.uniform(0.85, 1.15))))
    return _photographed(profile, rng, seed, flat, figures, truth, size)


BUILDERS = ("purple", "orange", "pink", "green")
BROWN = (42.0, 79.0, 122.0)
"""Lumber, as the tower profile names it (#7a4f2a)."""


def tower_table(
    profile: Profile, seed: int, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str, str]]]:
    """A random Tower play mat: material tokens (20 mm card squares) on the stalls' spaces and
    the tableaus, standing wooden meeples (16 mm wide, 8 thick, 16 tall) at the stalls, the
    palace's top segment (30 mm, 15 tall), gems (10 mm, 6 tall, green, blue, red or black) on
    the tableaus and Salil's pile, spread or shoulder to shoulder; the mat painted. Seen as
    `turris_table`'s boards are."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)

    def off(bgr: tuple[float, ...]) -> tuple[float, float, float]:
        r, g, b = (float(np.clip(v + rng.uniform(-18, 18), 0, 255)) for v in bgr)
        return r, g, b

    material = {
        "yellow": DEFAULT_COLOURS["yellow"],
        "brown": BROWN,
        "red": DEFAULT_COLOURS["red"],
        "blue": DEFAULT_COLOURS["blue"],
    }
    gem = {c: DEFAULT_COLOURS[c] for c in ("green", "blue", "red", "black")}
    flat: list[Piece] = []
    truth: list[tuple[str, str, str]] = []
    for region in (r for r in profile.regions if r.holds == "tokens"):
        xs, ys = zip(*region.polygon)
        box = (min(xs), min(ys), max(xs), max(ys))
        taken: list[tuple[np.ndarray, float]] = []
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        kind = region.kinds[0] if region.kinds else None
        if region.name.startswith("stall/") and kind == "material" and rng.random() < 0.6:
            colour = str(rng.choice(list(material)))
            at = (middle[0] + float(rng.uniform(-2, 2)), middle[1] + float(rng.uniform(-2, 2)))
            flat.append(Piece(at, off(material[colour]), 20.0, 2.0, True, float(rng.uniform(-15, 15))))
            truth.append((region.name, "material", colour))
        elif kind == "meeple" and rng.random() < 0.6:
            colour = str(rng.choice(BUILDERS))
            at = (middle[0] + float(rng.uniform(-3, 3)), middle[1] + float(rng.uniform(-3, 3)))
            flat.append(
                Piece(
                    at, off(DEFAULT_COLOURS[colour]), 16.0, 16.0, True, float(rng.uniform(0, 180)), depth=8.0
                )
            )
            truth.append((region.name, "meeple", colour))
        elif kind == "segment" and rng.random() < 0.8:
            colour = str(rng.choice(BUILDERS))
            flat.append(Piece(middle, off(DEFAULT_COLOURS[colour]), 30.0, 15.0))
            truth.append((region.name, "segment", colour))
        elif kind == "gem":
            for _ in range(int(rng.integers(0, 9))):
                colour = str(rng.choice(list(gem)))
                if (at := free_spot(rng, box, taken, 10.0 + (0.0 if rng.random() < 0.3 else 4.0))) is None:
                    break
                flat.append(Piece(at, off(gem[colour]), 10.0, 6.0))
                truth.append((region.name, "gem", colour))
        elif region.name.startswith("player/") and kind == "material":
            for _ in range(int(rng.integers(0, 5))):
                colour = str(rng.choice(list(material)))
                if (at := free_spot(rng, box, taken, 29.0)) is None:
                    break
                flat.append(Piece(at, off(material[colour]), 20.0, 2.0, True, float(rng.uniform(-15, 15))))
                truth.append((region.name, "material", colour))
    return _photographed(profile, rng, seed, flat, [], truth, size)


ARKHANOS_TILES = {"A": (60.0, 60.0), "B": (300.0, 60.0), "C": (180.0, 280.0), "M": (180.0, 165.0)}
"""Each tower's floor tile's north-west corner on the mat (the arkhanos profile's assumed layout)."""


def arkhanos_table(
    profile: Profile, seed: int, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str, str]]]:
    """Towers of Arkhanos built as they stand: each tower one to three 100 mm floor tiles (3 mm),
    each on the three 30 mm pillars of the floor below, and meeples (apprentices 14 mm, masters
    20 mm across, 18 and 24 mm tall) in the top floor's spaces; the mat painted, seen as the
    other tables are; the floors' heights for the reader: `arkhanos_profile(profile, seed)`."""
    from companion.games.arkhanos.sight import PILLAR_MM, TILE_MM
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    turns = np.random.default_rng([seed, 11])  # its own, so the tables stay as they were laid
    pieces: list[Piece] = []
    truth: list[tuple[str, str, str]] = []
    for tower, levels in arkhanos_levels(seed).items():
        x0, y0 = ARKHANOS_TILES[tower]
        cx, cy = x0 + 50.0, y0 + 50.0
        pieces += arkhanos_floors(rng, (cx, cy), levels)
        top = (levels - 1) * (TILE_MM + PILLAR_MM) + TILE_MM
        for k in range(3):
            if rng.random() < 0.5:
                kind = "master" if rng.random() < 0.3 else "apprentice"
                colour = str(rng.choice(list(profile.piece_colours or ("yellow", "red", "blue", "green"))))
                at = (cx + (k - 1) * 32.0 + float(rng.uniform(-3, 3)), cy + 22.0 + float(rng.uniform(-3, 3)))
                bgr = tuple(float(np.clip(v + rng.uniform(-18, 18), 0, 255)) for v in DEFAULT_COLOURS[colour])
                pieces.append(replace(arkhanos_meeple(at, (bgr[0], bgr[1], bgr[2]), kind, turns), lift=top))
                truth.append((f"tower/{tower}/meeple/{k + 1}", kind, colour))
    return _photographed(profile, rng, seed, pieces, [], truth, size)


ARKHANOS_MEEPLES = {"master": (20.0, 24.0, 10.0), "apprentice": (14.0, 18.0, 8.0)}
"""A meeple's width, height and thickness (mm; the arkhanos profile's, ASSUMED)."""


def arkhanos_meeple(
    at: tuple[float, float], bgr: tuple[float, float, float], kind: str, turns: np.random.Generator
) -> Piece:
    """A wooden meeple standing at `at`, turned any way: from above an oblong its width by its
    thickness."""
    width, tall, thick = ARKHANOS_MEEPLES[kind]
    return Piece(at, bgr, width, tall, True, float(turns.uniform(0, 180)), depth=thick)


def arkhanos_floors(rng: np.random.Generator, centre: tuple[float, float], levels: int) -> list[Piece]:
    """A tower of `levels` floor tiles (100 mm, 3 mm) round `centre`, each on the three 30 mm
    pillars of the floor below, the top floor's pillars standing free."""
    from companion.games.arkhanos.sight import PILLAR_MM, TILE_MM

    cx, cy = centre
    pieces = []
    for level in range(1, levels + 1):
        lift = (level - 1) * (TILE_MM + PILLAR_MM)
        stone = tuple(float(v) for v in rng.uniform(170, 215, 3))
        pieces.append(Piece((cx, cy), (stone[0], stone[1], stone[2]), 100.0, TILE_MM, True, lift=lift))
        for k in range(3):
            pieces.append(
                Piece(
                    (cx + (k - 1) * 32.0, cy - 18.0), (70.0, 70.0, 75.0), 12.0, PILLAR_MM, lift=lift + TILE_MM
                )
            )
    return pieces


def arkhanos_levels(seed: int) -> dict[str, int]:
    """How many floors each tower of `arkhanos_table(_, seed)` has (1-3)."""
    rng = np.random.default_rng([seed, 7])
    return {tower: int(rng.integers(1, 4)) for tower in ARKHANOS_TILES}


def arkhanos_profile(profile: Profile, seed: int) -> Profile:
    """The profile with each tower's top floor at the height `arkhanos_table(profile, seed)`
    built it, as the game's sight gives it to the reader."""
    from companion.games.arkhanos.sight import PILLAR_MM, TILE_MM

    heights: dict[str, float] = {}
    for tower, levels in arkhanos_levels(seed).items():
        tile = (levels - 1) * (TILE_MM + PILLAR_MM) + TILE_MM
        for k in range(1, 4):
            heights[f"tower/{tower}/meeple/{k}"] = tile
            heights[f"tower/{tower}/pillar/{k}"] = heights[f"tower/{tower}/top/{k}"] = tile + PILLAR_MM
    return replace(
        profile, regions=tuple(replace(r, height=heights.get(r.name, r.height)) for r in profile.regions)
    )


def laid_scouts(profile: Profile, colour: str, seed: int, count: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Turris Scouts of one colour (the palette's), every other one on a dark base, one to a
    random place, as a player lays them out to teach the companion their pieces: the frame and
    the empty board, through `turris_table`'s camera and light."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    regions = [r for r in profile.regions if r.holds == "tokens"]
    body = tuple(float(v) for v in DEFAULT_COLOURS[colour])
    width = dict(profile.token_mm)["scout"]
    figures = []
    for i, index in enumerate(rng.choice(len(regions), size=count, replace=False)):
        xs, ys = zip(*regions[int(index)].polygon)
        at = free_spot(rng, (min(xs), min(ys), max(xs), max(ys)), [], width)
        if at is not None:
            base = body if i % 2 else DARK_PLASTIC
            figures.append(
                Figure(at, base, width, body, float(rng.uniform(10, 14)), float(rng.uniform(25, 35)))
            )
    frame, empty, _ = _photographed(profile, rng, seed, [], figures, [])
    return frame, empty


def laid_meeples(profile: Profile, colour: str, seed: int) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Two Arkhanos masters and four apprentices of one colour (`arkhanos_table`'s sizes and
    heights) on the mat, each in a meeple's space with no tower built, as a player lays them out
    to teach the companion: the frame, the empty mat, and how many of each kind."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    spaces = [r for r in profile.regions if r.holds == "tokens"]
    bgr = tuple(float(v) for v in DEFAULT_COLOURS[colour])
    turns = np.random.default_rng([seed, 11])  # its own, so the tables stay as they were laid
    pieces = [
        arkhanos_meeple(spaces[int(index)].centre(), bgr, "master" if i < 2 else "apprentice", turns)
        for i, index in enumerate(rng.choice(len(spaces), size=6, replace=False))
    ]
    frame, empty, _ = _photographed(profile, rng, seed, pieces, [], [])
    return frame, empty, {"master": 2, "apprentice": 4}


def laid_watcher(
    profile: Profile,
    seed: int,
    figure: tuple[float, float, float] = DARK_PLASTIC,
    base: tuple[float, float, float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The Watcher alone (`yuggoth_table`'s: a dark figure on a pink-painted 50 mm base) in a
    random Area, as a player lays it out to teach the companion: the frame and the empty map.
    `figure`: its figure's colour (BGR), to stand another figure on a pink base; `base`: its base's
    (default the palette's pink)."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    areas = [r for r in profile.regions if r.holds == "tokens"]
    xs, ys = zip(*areas[int(rng.integers(len(areas)))].polygon)
    at = free_spot(rng, (min(xs), min(ys), max(xs), max(ys)), [], 50.0)
    pink = base or tuple(float(v) for v in DEFAULT_COLOURS["pink"])
    figures = (
        []
        if at is None
        else [Figure(at, pink, 50.0, figure, float(rng.uniform(26, 32)), float(rng.uniform(45, 60)))]
    )
    frame, empty, _ = _photographed(profile, rng, seed, [], figures, [])
    return frame, empty


def laid_tower(profile: Profile, colour: str, seed: int) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """Six Tower pieces of one colour, each in a place of its own kind, as a player lays them out
    to teach the companion: a builder's colour as standing meeples; a material's as material
    tokens, a gem's too as gems every other piece. The frame, the empty board, and how many of
    each kind, through `tower_table`'s camera and light."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    bgr = BROWN if colour == "brown" else tuple(float(v) for v in DEFAULT_COLOURS[colour])
    gems = profile.colours_of("gem") or ()
    free = [r for r in profile.regions if r.holds == "tokens" and r.kinds]
    flat: list[Piece] = []
    laid: dict[str, int] = {}
    for i in range(6):
        kind = "meeple" if colour in BUILDERS else "gem" if colour in gems and i % 2 else "material"
        pool = [r for r in free if r.kinds[0] == kind]
        region = pool[int(rng.integers(len(pool)))]
        free.remove(region)
        at = region.centre()
        if kind == "meeple":
            flat.append(Piece(at, bgr, 16.0, 16.0, True, float(rng.uniform(0, 180)), depth=8.0))
        elif kind == "material":
            flat.append(Piece(at, bgr, 20.0, 2.0, True, float(rng.uniform(-15, 15))))
        else:
            flat.append(Piece(at, bgr, 10.0, 6.0))
        laid[kind] = laid.get(kind, 0) + 1
    frame, empty, _ = _photographed(profile, rng, seed, flat, [], [])
    return frame, empty, laid


def _photographed(
    profile: Profile,
    rng: np.random.Generator,
    seed: int,
    flat: list[Piece],
    figures: list[Figure],
    truth: list[tuple[str, str, str]],
    size: tuple[int, int] | None = None,
    dice: tuple[Die, ...] = (),
) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str, str]]]:
    """The painted board with these pieces (and dice), and without them, through one camera
    and light (`size`: the sensor's, for a full-resolution still of the same view)."""
    picture, to_mm = board_plane(profile, rng)
    illustrate(picture, profile, rng)
    shot, light = table_shot(rng)
    shot = replace(shot, height_mm=float(rng.uniform(950, 1350)))
    middle = (profile.size[0] / 2, profile.size[1] / 2)
    while not all_markers_in_view(profile, shot, middle) and shot.height_mm < 2000:
        shot = replace(shot, height_mm=shot.height_mm + 50)  # the players set the camera to see the board
    if size is not None:
        shot = replace(shot, size=size, focus_blur=shot.focus_blur * size[0] / shot.size[0])
    pieces = (*flat, *(p for f in figures for p in f.pieces()))

    def draw(image: np.ndarray, cam: Camera) -> None:
        draw_pieces(image, cam, pieces, light)
        draw_dice(image, cam, dice, light, seed)

    frame = photograph(picture, to_mm, shot, middle, np.random.default_rng(seed + 1), draw)
    empty = photograph(picture, to_mm, shot, middle, np.random.default_rng(seed + 2))
    return frame, empty, truth


def figures_read(
    profile: Profile, seeds: range, with_empty: bool = True, table: Table | None = None, still: bool = False
) -> tuple[dict[str, tuple[int, int]], int, int]:
    """The tables (`turris_table` unless said) of these seeds read (with the empty board seen
    first, or not; with the camera's full-resolution still beside each frame, the frames then
    made from it as the camera's small stream is, or not): per kind (pieces right, pieces),
    pieces read that are not there, and pieces on frames whose board was not found (read as
    missed)."""
    from vision.pipeline import TableReader
    from vision.reference import capture
    from vision.types import BoardNotFound

    per_kind: dict[str, list[int]] = {}
    false = lost = 0
    for seed in seeds:
        frame, empty, truth = (table or turris_table)(profile, seed, STILL if still else None)
        full = frame if still else None
        if still:
            frame = cv2.resize(frame, (STILL[0] // 2, STILL[1] // 2), interpolation=cv2.INTER_AREA)
            empty = cv2.resize(empty, (STILL[0] // 2, STILL[1] // 2), interpolation=cv2.INTER_AREA)
        for _, kind, _ in truth:
            per_kind.setdefault(kind, [0, 0])[1] += 1
        try:
            reader = TableReader(profile, empty=capture(empty, profile) if with_empty else None)
            seen = [(t.region, t.kind, t.color) for t in reader.read(frame, full=full).tokens]
        except BoardNotFound:
            lost += len(truth)
            continue
        for piece in truth:
            if piece in seen:
                seen.remove(piece)
                per_kind[piece[1]][0] += 1
        false += len(seen)
    return {k: (v[0], v[1]) for k, v in per_kind.items()}, false, lost


ARKHANOS_DICE = ("purple", "yellow", "pink", "blue", "green")
"""Arkhanos's dice colours (companion/games/arkhanos/arkhanos.toml)."""
DieTruth = tuple[str, str, int]
"""A die where it lies: region, colour, value."""


def dice_table(
    profile: Profile, seed: int, size: tuple[int, int] | None = None, with_dice: bool = True
) -> tuple[np.ndarray, np.ndarray, list[DieTruth]]:
    """A random table of the profile's game with its dice where they lie in play, drawn as cubes
    (tests/pinhole_dice.py): 0-6 in the rolling area (Tower: 0-2), and on Arkhanos also on the
    top floor's pillars of towers 1-3 floors high (`arkhanos_levels(seed)`; read with
    `arkhanos_profile(profile, seed)`) and in the mana pool. The dice of a table are one set:
    one style, their colours a little off the palette's. The frame, the empty table seen the same
    way, the truth (`with_dice=False`: the same table without its dice, photographed twice)."""
    from companion.games.arkhanos.sight import PILLAR_MM, TILE_MM
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng([seed, 5])
    style = str(rng.choice(STYLES, p=[0.6, 0.25, 0.15]))
    names = ARKHANOS_DICE if profile.game == "arkhanos" else tuple(DEFAULT_COLOURS)

    def die(at: tuple[float, float], lift: float = 0.0) -> tuple[Die, str]:
        name = str(rng.choice(names))
        bgr = tuple(float(np.clip(v + rng.uniform(-18, 18), 0, 255)) for v in DEFAULT_COLOURS[name])
        return random_die(rng, at, (bgr[0], bgr[1], bgr[2]), lift, profile.die_mm, style), name

    pieces: list[Piece] = []
    dice: list[tuple[Die, str, str]] = []
    if profile.game == "arkhanos":
        for tower, levels in arkhanos_levels(seed).items():
            x0, y0 = ARKHANOS_TILES[tower]
            pieces += arkhanos_floors(rng, (x0 + 50.0, y0 + 50.0), levels)
            top = levels * (TILE_MM + PILLAR_MM)
            for k in range(3):
                if rng.random() < 0.5:
                    at = (
                        x0 + 50.0 + (k - 1) * 32.0 + float(rng.uniform(-1.5, 1.5)),
                        y0 + 32.0 + float(rng.uniform(-1.5, 1.5)),
                    )
                    dice.append((*die(at, top), f"tower/{tower}/pillar/{k + 1}"))
        for region in (r for r in profile.regions if r.name.startswith("mana/")):
            if rng.random() < 0.3:
                cx, cy = region.centre()
                dice.append(
                    (*die((cx + float(rng.uniform(-2, 2)), cy + float(rng.uniform(-2, 2)))), region.name)
                )
    tray = profile.region("tray")
    xs, ys = zip(*tray.polygon)
    taken: list[tuple[np.ndarray, float]] = []
    for _ in range(int(rng.integers(0, 3 if profile.game == "tower" else 7))):
        if (
            at := free_spot(rng, (min(xs), min(ys), max(xs), max(ys)), taken, profile.die_mm * 1.5)
        ) is not None:
            dice.append((*die(at), "tray"))
    if not with_dice:
        dice = []
    truth = [(region, name, d.value) for d, name, region in dice]
    frame, empty, _ = _photographed(profile, rng, seed, pieces, [], [], size, tuple(d for d, _, _ in dice))
    return frame, empty, truth


def dice_read(profile: Profile, seeds: range, still: bool = False) -> tuple[int, int, int, int, int]:
    """`dice_table`s of these seeds read (with the camera's full-resolution still beside each
    frame, or not), Arkhanos's towers at the heights the game's state gives: dice whose value is
    right where they lie, those whose colour is right too, dice, dice read that are not there,
    and dice on frames whose board was not found (read as missed)."""
    from vision.pipeline import TableReader, VisionConfig
    from vision.reference import capture
    from vision.types import BoardNotFound

    config = VisionConfig()
    if profile.game == "arkhanos":  # the dice named among the game's dice colours, as the table loop does
        config = config.dice_among(ARKHANOS_DICE)
    value = both = total = false = lost = 0
    for seed in seeds:
        frame, empty, truth = dice_table(profile, seed, STILL if still else None)
        full = frame if still else None
        if still:
            frame = cv2.resize(frame, (STILL[0] // 2, STILL[1] // 2), interpolation=cv2.INTER_AREA)
            empty = cv2.resize(empty, (STILL[0] // 2, STILL[1] // 2), interpolation=cv2.INTER_AREA)
        total += len(truth)
        seen_by = arkhanos_profile(profile, seed) if profile.game == "arkhanos" else profile
        try:
            reader = TableReader(seen_by, config, capture(empty, seen_by))
            seen = [(d.region, d.color, d.value) for d in reader.read(frame, full=full).dice]
        except BoardNotFound:
            lost += len(truth)
            continue
        right, coloured, extra = dice_matched(truth, seen)
        value, both, false = value + right, both + coloured, false + extra
    return value, both, total, false, lost


__all__ = [
    "dice_read",
    "dice_table",
    "Figure",
    "figures_read",
    "illustrate",
    "tower_table",
    "turris_table",
    "yuggoth_table",
]
