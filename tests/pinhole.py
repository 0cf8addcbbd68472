"""A second renderer for tests, unlike vision/render.py: the board is a textured plane with
printed shapes, photographed by a pinhole camera (focal length from the field of view, a real
3-D pose: height, tilt, turn), then focus blur, motion blur along a random direction, noise
and JPEG. vision/render.py warps a top-down drawing by a 2-D homography; tuning on one and
testing on the other keeps either's quirks from being learned."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.board import DICTIONARY
from vision.profiles import Profile

PLANE_PX_PER_MM = 4.0
MARGIN_MM = 200.0


@dataclass(frozen=True)
class Shot:
    height_mm: float = 1000.0
    tilt_deg: float = 0.0
    turn_deg: float = 0.0
    hfov_deg: float = 62.2
    """The Pi Camera Module 2's horizontal field of view."""
    focus_blur: float = 0.0
    motion_px: float = 0.0
    noise: float = 3.0
    jpeg: int = 85
    size: tuple[int, int] = (1280, 960)


def focal_px(shot: Shot) -> float:
    return shot.size[0] / 2 / np.tan(np.radians(shot.hfov_deg / 2))


def height_for(cell_px: float, profile: Profile, shot: Shot) -> float:
    """The camera height at which a marker cell (a sixth of the marker) is `cell_px` wide."""
    return focal_px(shot) * profile.marker_size / 6 / cell_px


def random_shot(
    rng: np.random.Generator, profile: Profile, cells: tuple[float, float], motion: float
) -> Shot:
    """A camera at a height where a marker cell is `cells` px wide, tilted up to 30 degrees,
    turned any way, with up to `motion` px of motion blur, noise and JPEG."""
    base = Shot(motion_px=float(rng.uniform(0, motion)), focus_blur=float(rng.uniform(0, 1.0)))
    return Shot(
        height_mm=height_for(float(rng.uniform(*cells)), profile, base),
        tilt_deg=float(rng.uniform(0, 30)),
        turn_deg=float(rng.uniform(-180, 180)),
        focus_blur=base.focus_blur,
        motion_px=base.motion_px,
        noise=float(rng.uniform(1, 6)),
        jpeg=int(rng.integers(55, 92)),
    )


def plane(profile: Profile, rng: np.random.Generator, spacing: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The table and board as a flat picture, the markers `spacing` times as far from the
    board's centre as the profile says; and the matrix plane px -> board mm."""
    s = PLANE_PX_PER_MM
    w, h = profile.size
    x0, y0 = -MARGIN_MM - profile.marker_size * 2, -MARGIN_MM - profile.marker_size * 2
    width, height = int((w - 2 * x0) * s), int((h - 2 * y0) * s)
    grain = rng.normal(0, 25, (height // 8, width // 8, 1)).astype(np.float32)
    image = rng.uniform(70, 190) + cv2.resize(grain, (width, height))[..., None] * np.ones(3, np.float32)
    for _ in range(60):  # the board's printed art
        colour = tuple(float(v) for v in rng.integers(0, 255, 3))
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        cv2.circle(image, centre, int(rng.uniform(5, 40) * s), colour, -1)
    middle = np.array(profile.size) / 2
    at = [(i, tuple(middle + (np.array(xy) - middle) * spacing)) for i, xy in profile.markers]
    return paste_markers(image, profile, at, (x0, y0))


def paste_markers(
    image: np.ndarray,
    profile: Profile,
    markers: list[tuple[int, tuple[float, float]]],
    origin: tuple[float, float],
) -> tuple[np.ndarray, np.ndarray]:
    """The markers on their white paper at their places (mm); the picture and the matrix
    plane px -> board mm."""
    s, (x0, y0) = PLANE_PX_PER_MM, origin
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side, quiet = int(profile.marker_size * s), int(8 * s)
    for marker_id, (mx, my) in markers:
        cx, cy = int((mx - x0) * s), int((my - y0) * s)
        image[
            cy - side // 2 - quiet : cy + side // 2 + quiet, cx - side // 2 - quiet : cx + side // 2 + quiet
        ] = 240
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side).astype(np.float32)
        image[cy - side // 2 : cy - side // 2 + side, cx - side // 2 : cx - side // 2 + side] = marker[
            ..., None
        ]
    to_mm = np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
    return np.clip(image, 0, 255).astype(np.uint8), to_mm


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: frame px = K (R X + t) for a board point X (mm; z into the table, so a
    point h mm above the board has z = -h)."""

    k: np.ndarray
    r: np.ndarray
    t: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        """Board points (n, 3) -> frame pixels (n, 2)."""
        seen = (self.k @ (self.r @ np.asarray(points, np.float64).T + self.t[:, None])).T
        return seen[:, :2] / seen[:, 2:3]

    @property
    def position(self) -> np.ndarray:
        return -self.r.T @ self.t


def camera(shot: Shot, aim_mm: tuple[float, float]) -> Camera:
    """The camera `shot.height_mm` above the board, looking at `aim_mm`, tilted and turned."""
    w, h = shot.size
    f = focal_px(shot)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    t, a = -np.radians(shot.tilt_deg), np.radians(shot.turn_deg)
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    r = tilt @ turn
    position = np.array([*aim_mm, 0.0]) - shot.height_mm / np.cos(t) * (r.T @ np.array([0, 0, 1.0]))
    return Camera(k, r, -r @ position)


def photograph(
    picture: np.ndarray,
    to_mm: np.ndarray,
    shot: Shot,
    aim_mm: tuple[float, float],
    rng: np.random.Generator,
    pieces: Callable[[np.ndarray, Camera], None] | None = None,
) -> np.ndarray:
    """The plane seen by a pinhole camera `shot.height_mm` above it, looking at `aim_mm`,
    tilted and turned (world: x east, y south, z into the table); `pieces` draws what stands
    on the board into the frame, through the same camera, before the lens and sensor."""
    w, h = shot.size
    cam = camera(shot, aim_mm)
    homography = cam.k @ np.column_stack([cam.r[:, 0], cam.r[:, 1], cam.t]) @ to_mm
    image = cv2.warpPerspective(picture, homography, (w, h), flags=cv2.INTER_AREA, borderValue=(90, 100, 110))
    if pieces is not None:
        pieces(image, cam)
    image = image.astype(np.float32)
    if shot.focus_blur:
        image = cv2.GaussianBlur(image, (0, 0), shot.focus_blur)
    if shot.motion_px:
        reach = int(np.ceil(shot.motion_px))
        kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.float32)
        angle = rng.uniform(0, np.pi)
        for step in np.linspace(-shot.motion_px / 2, shot.motion_px / 2, 4 * reach + 1):
            kernel[int(round(reach + step * np.sin(angle))), int(round(reach + step * np.cos(angle)))] += 1
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    image += rng.normal(0, shot.noise, image.shape)
    ok, data = cv2.imencode(
        ".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg]
    )
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def board_plane(profile: Profile, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The table with the board on it: a wood-grey table, the board in a muted colour with
    its disc locations and spaces printed a shade off, and the markers on their white paper."""
    s = PLANE_PX_PER_MM
    w, h = profile.size
    x0, y0 = -MARGIN_MM - profile.marker_size * 2, -MARGIN_MM - profile.marker_size * 2
    width, height = int((w - 2 * x0) * s), int((h - 2 * y0) * s)
    grain = cv2.resize(rng.normal(0, 10, (height // 16, width // 16, 1)).astype(np.float32), (width, height))
    table = np.array(rng.uniform(60, 120, 3), np.float32)
    image = table + grain[..., None] * np.ones(3, np.float32)

    def px(x: float, y: float) -> tuple[int, int]:
        return int((x - x0) * s), int((y - y0) * s)

    board = tuple(float(v) for v in rng.uniform(110, 190, 3))
    cv2.rectangle(image, px(0, 0), px(w, h), board, -1)
    for region in profile.regions:
        poly = np.array([px(x, y) for x, y in region.polygon], np.int32)
        if region.holds == "stack":
            cv2.fillPoly(image, [poly], tuple(0.85 * v for v in board))
        else:
            cv2.polylines(image, [poly], True, tuple(0.7 * v for v in board), int(s))
    return paste_markers(image, profile, list(profile.markers), (x0, y0))


@dataclass(frozen=True)
class Stack:
    """Discs of real thickness standing on the board: sizes bottom to top (4 = largest)."""

    centre_mm: tuple[float, float]
    colour: tuple[int, int, int]
    discs: tuple[int, ...]
    nudges: tuple[tuple[float, float], ...] = ()
    """Each disc's offset (mm) from the one below: careless stacking."""


def draw_stacks(
    image: np.ndarray, cam: Camera, profile: Profile, stacks: tuple[Stack, ...], light: tuple[float, float]
) -> None:
    """Each disc as a cylinder of the profile's thickness with a rounded top edge: its shadow
    on the table (a light from the direction `light`, mm of shift per mm of height), its side
    wall in shade, its top face lit. Painted bottom to top, the camera being above them all."""
    angles = np.linspace(0, 2 * np.pi, 96, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    thick = profile.disc_height_mm

    def outline(centre: np.ndarray, radius: float, height: float) -> np.ndarray:
        points = np.column_stack([centre + radius * ring, np.full(len(ring), -height)])
        return cam.project(points)

    for stack in stacks:
        centres, centre = [], np.array(stack.centre_mm, np.float64)
        for level in range(len(stack.discs)):
            if level and level - 1 < len(stack.nudges):
                centre = centre + stack.nudges[level - 1]
            centres.append(centre)
        shadow = []
        for (size, c), level in zip(zip(stack.discs, centres), range(len(centres))):
            radius = profile.disc_mm[size - 1] / 2
            top = (level + 1) * thick
            cast = np.array(light) * top
            shadow.append(outline(c + cast, radius, 0.0))
            shadow.append(outline(c, radius, 0.0))
        hull = cv2.convexHull(np.concatenate(shadow).astype(np.float32)).astype(np.int32)
        shade = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(shade, hull, 255, cv2.LINE_AA)
        soft = cv2.GaussianBlur(shade, (0, 0), 1.5).astype(np.float32)[..., None] / 255
        image[:] = (image * (1 - 0.45 * soft)).astype(np.uint8)
        overlay = image
        for level, (size, c) in enumerate(zip(stack.discs, centres)):
            radius = profile.disc_mm[size - 1] / 2
            bottom, top = level * thick, (level + 1) * thick
            wall = np.concatenate([outline(c, radius, bottom), outline(c, radius - 0.8, top)])
            hull = cv2.convexHull(wall.astype(np.float32)).astype(np.int32)
            cv2.fillConvexPoly(overlay, hull, tuple(0.5 * v for v in stack.colour), cv2.LINE_AA)
            edge = outline(c, radius - 0.4, top - 0.3).astype(np.int32)
            cv2.fillPoly(overlay, [edge], tuple(0.7 * v for v in stack.colour), cv2.LINE_AA)
            face = outline(c, radius - 1.2, top).astype(np.int32)
            cv2.fillPoly(
                overlay,
                [face],
                tuple(min(255.0, (0.9 + 0.03 * level) * v) for v in stack.colour),
                cv2.LINE_AA,
            )


def table_shot(rng: np.random.Generator) -> tuple[Shot, tuple[float, float]]:
    """A camera 800-1200 mm above the table, tilted up to 25 degrees and turned any way, a
    little out of focus, noisy and JPEG'd; and a light from a random side (mm of shadow per mm
    of height)."""
    shot = Shot(
        height_mm=float(rng.uniform(800, 1200)),
        tilt_deg=float(rng.uniform(0, 25)),
        turn_deg=float(rng.uniform(-180, 180)),
        focus_blur=float(rng.uniform(0.3, 1.0)),
        noise=float(rng.uniform(1, 4)),
        jpeg=int(rng.integers(70, 92)),
    )
    return shot, (float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.6, 0.6)))


def stacks_read(profile: Profile, seeds: range) -> tuple[int, int, int, int]:
    """`stacked_table`s of these seeds read: stacks exactly right, stacks, stacks on frames whose
    board was found, stacks read where there is none."""
    from vision.pipeline import TableReader
    from vision.types import BoardNotFound

    right = total = on_found = false = 0
    for seed in seeds:
        frame, truth = stacked_table(profile, seed)
        total += len(truth)
        try:
            seen = {s.region: (s.color, s.discs) for s in TableReader(profile).read(frame).stacks}
        except BoardNotFound:
            continue
        on_found += len(truth)
        for region, colour, discs in truth:
            right += seen.pop(region, None) == (colour, discs)
        false += len(seen)
    return right, total, on_found, false


def stacked_table(profile: Profile, seed: int) -> tuple[np.ndarray, list[tuple[str, str, tuple[int, ...]]]]:
    """A random Am'harb table of disc stacks (each player's four discs spread over their four
    locations, stacked carelessly), seen from 800-1200 mm up, tilted up to 25 degrees, under a
    light from a random side: the frame and the truth (region, colour, discs)."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    colours = list(profile.piece_colours or ("pink", "blue", "green", "yellow"))
    seats = sorted({r.name.split("/")[0] for r in profile.regions if r.holds == "stack"})
    stacks, truth = [], []
    for seat, colour in zip(seats, colours):
        where = rng.integers(0, 4, size=4)
        for area in range(4):
            discs = tuple(d for d, a in zip((4, 3, 2, 1), where) if a == area)
            if discs:
                region = f"{seat}/area{area}"
                centre = np.array(profile.region(region).centre()) + rng.uniform(-6, 6, 2)
                nudges = tuple((float(x), float(y)) for x, y in rng.normal(0, 0.7, (len(discs) - 1, 2)))
                stacks.append(
                    Stack((float(centre[0]), float(centre[1])), DEFAULT_COLOURS[colour], discs, nudges)
                )
                truth.append((region, colour, discs))
    picture, to_mm = board_plane(profile, rng)
    shot, light = table_shot(rng)
    middle = (profile.size[0] / 2, profile.size[1] / 2)

    def pieces(image: np.ndarray, cam: Camera) -> None:
        draw_stacks(image, cam, profile, tuple(stacks), light)

    return photograph(picture, to_mm, shot, middle, rng, pieces), truth


@dataclass(frozen=True)
class Piece:
    """A piece standing on the board: an upright cylinder (a priest, a cultist) or a flat square
    tile with an emblem printed on its top, `lift` mm up (standing on a tile)."""

    centre_mm: tuple[float, float]
    colour: tuple[float, float, float]
    width: float
    height: float
    square: bool = False
    turn_deg: float = 0.0
    emblem: tuple[float, float, float] | None = None
    lift: float = 0.0
    depth: float | None = None
    """A square piece's other side, when it is a rectangle (a standing meeple seen from above)."""


PRIEST_HEIGHT_MM = 24.0
CULTIST_HEIGHT_MM = 16.0
TILE_HEIGHT_MM = 2.0
"""ASSUMED (the rulebook gives no heights): wooden pawns and a cardboard tile."""


def draw_pieces(
    image: np.ndarray, cam: Camera, pieces: tuple[Piece, ...], light: tuple[float, float]
) -> None:
    """Each piece, lowest first: its shadow on what is under it (a light from the direction
    `light`, mm of shift per mm of height), its side wall in shade, its top face lit, and a
    tile's emblem on its top."""

    def outline(
        piece: Piece, z: float, inset: float = 0.0, shift: tuple[float, float] = (0.0, 0.0)
    ) -> np.ndarray:
        if piece.square:
            half = piece.width / 2 - inset
            deep = (piece.depth if piece.depth is not None else piece.width) / 2 - inset
            a = np.radians(piece.turn_deg)
            corners = np.array([[-half, -deep], [half, -deep], [half, deep], [-half, deep]])
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            flat = corners @ rot.T
        else:
            angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
            flat = (piece.width / 2 - inset) * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        points = np.column_stack([flat + np.array(piece.centre_mm) + shift, np.full(len(flat), -z)])
        return cam.project(points)

    for piece in sorted(pieces, key=lambda p: p.lift):
        bottom, top = piece.lift, piece.lift + piece.height
        cast = (light[0] * piece.height, light[1] * piece.height)
        shade_hull = cv2.convexHull(
            np.concatenate([outline(piece, bottom), outline(piece, bottom, shift=cast)]).astype(np.float32)
        ).astype(np.int32)
        shade = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(shade, shade_hull, 255, cv2.LINE_AA)
        soft = cv2.GaussianBlur(shade, (0, 0), 1.5).astype(np.float32)[..., None] / 255
        image[:] = (image * (1 - 0.45 * soft)).astype(np.uint8)
        wall = cv2.convexHull(
            np.concatenate([outline(piece, bottom), outline(piece, top)]).astype(np.float32)
        )
        cv2.fillConvexPoly(image, wall.astype(np.int32), tuple(0.55 * v for v in piece.colour), cv2.LINE_AA)
        face = outline(piece, top, inset=0.4).astype(np.int32)
        cv2.fillPoly(image, [face], tuple(min(255.0, 0.95 * v) for v in piece.colour), cv2.LINE_AA)
        if piece.emblem is not None:
            mark = replace(piece, width=0.45 * piece.width, square=False)
            cv2.fillPoly(image, [outline(mark, top).astype(np.int32)], piece.emblem, cv2.LINE_AA)


def token_table(
    profile: Profile, seed: int, size: tuple[int, int] | None = None
) -> tuple[np.ndarray, list[tuple[str, str, str]]]:
    """A random Am'harb island: resource tiles (25 mm squares with a printed emblem, turned a
    little) on most spaces, and priests and cultists of the players' colours on some spaces,
    some standing on a tile; each colour a little off the palette's. Seen from 800-1200 mm up,
    tilted up to 25 degrees, under a light from a random side. The frame and the truth
    (region, kind, colour)."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    sizes = dict(profile.token_mm)
    players = list(profile.piece_colours or ("pink", "blue", "green", "yellow"))
    cells = [r for r in profile.regions if r.holds == "tokens"]
    chosen = rng.choice(len(cells), size=min(len(cells), 30), replace=False)

    def off(name: str) -> tuple[float, float, float]:
        return tuple(float(np.clip(v + rng.uniform(-18, 18), 0, 255)) for v in DEFAULT_COLOURS[name])

    pieces, truth = [], []
    for index in chosen:
        region = cells[int(index)]
        middle = np.array(region.centre())
        lift = 0.0
        if rng.random() < 0.6:
            colour = str(rng.choice(["red", "yellow", "blue"]))
            emblem = (230.0, 230.0, 225.0) if rng.random() < 0.5 else tuple(0.4 * v for v in off(colour))
            at = middle + rng.uniform(-4, 4, 2)
            pieces.append(
                Piece(
                    (float(at[0]), float(at[1])),
                    off(colour),
                    sizes["resource"],
                    TILE_HEIGHT_MM,
                    True,
                    float(rng.uniform(-20, 20)),
                    emblem,
                )
            )
            truth.append((region.name, "resource", colour))
            lift = TILE_HEIGHT_MM
        if rng.random() < 0.5:
            kind = str(rng.choice(["priest", "cultist"]))
            colour = str(rng.choice(players))
            at = middle + rng.uniform(-6, 6, 2)
            height = PRIEST_HEIGHT_MM if kind == "priest" else CULTIST_HEIGHT_MM
            pieces.append(Piece((float(at[0]), float(at[1])), off(colour), sizes[kind], height, lift=lift))
            truth.append((region.name, kind, colour))
    picture, to_mm = board_plane(profile, rng)
    shot, light = table_shot(rng)
    if size is not None:  # a full-resolution still of the same view
        shot = replace(shot, size=size, focus_blur=shot.focus_blur * size[0] / shot.size[0])
    middle = (profile.size[0] / 2, profile.size[1] / 2)

    def draw(image: np.ndarray, cam: Camera) -> None:
        draw_pieces(image, cam, tuple(pieces), light)

    return photograph(picture, to_mm, shot, middle, np.random.default_rng(seed + 1), draw), truth


def tokens_read(profile: Profile, seeds: range) -> tuple[int, int, int]:
    """`token_table`s of these seeds read: pieces right (kind and colour in their region),
    pieces, pieces read that are not there (a frame whose board is not found reads none)."""
    from vision.pipeline import TableReader
    from vision.types import BoardNotFound

    right = total = false = 0
    for seed in seeds:
        frame, truth = token_table(profile, seed)
        total += len(truth)
        try:
            seen = [(t.region, t.kind, t.color) for t in TableReader(profile).read(frame).tokens]
        except BoardNotFound:
            continue
        found, extra = pieces_matched(truth, seen)
        right, false = right + found, false + extra
    return right, total, false


def pieces_matched(truth: Sequence[tuple[str, ...]], seen: Sequence[tuple[str, ...]]) -> tuple[int, int]:
    """Pieces right (each piece there matched once by one read in its region, of its kind and
    colour) and pieces read that are not there."""
    right = sum((Counter(truth) & Counter(seen)).values())
    return right, len(seen) - right


def dice_matched(
    truth: Sequence[tuple[str, str, int]], seen: Sequence[tuple[str, str, int]]
) -> tuple[int, int, int]:
    """Dice (region, colour, value) there against dice read: those whose value is right where
    they lie (each matched once, by colour and value first, else by value), those whose colour is
    right too, and dice read that are not there."""
    left = list(seen)
    value = both = 0
    for region, colour, number in truth:
        if (region, colour, number) in left:
            left.remove((region, colour, number))
            value, both = value + 1, both + 1
        elif (hit := next((s for s in left if s[0] == region and s[2] == number), None)) is not None:
            left.remove(hit)
            value += 1
    return value, both, len(left)


def laid_out(
    profile: Profile, colour: str, seed: int, priests: int = 3, cultists: int = 5
) -> tuple[np.ndarray, np.ndarray]:
    """Priests and cultists of one colour (the palette's), upright cylinders of real height
    (ASSUMED, as `token_table`'s), each in the middle of a random space, as a player lays them
    out to teach the companion their pieces; and the empty board, both through the same random
    camera (`table_shot`). The frame and the empty board's frame."""
    from vision.colours import DEFAULT_COLOURS

    rng = np.random.default_rng(seed)
    cells = [r for r in profile.regions if r.holds == "tokens"]
    chosen = rng.choice(len(cells), size=priests + cultists, replace=False)
    sizes = dict(profile.token_mm)
    pieces = tuple(
        Piece(
            cells[int(index)].centre(),
            tuple(float(v) for v in DEFAULT_COLOURS[colour]),
            sizes["priest" if i < priests else "cultist"],
            PRIEST_HEIGHT_MM if i < priests else CULTIST_HEIGHT_MM,
        )
        for i, index in enumerate(chosen)
    )
    picture, to_mm = board_plane(profile, rng)
    shot, light = table_shot(rng)
    middle = (profile.size[0] / 2, profile.size[1] / 2)

    def draw(image: np.ndarray, cam: Camera) -> None:
        draw_pieces(image, cam, pieces, light)

    frame = photograph(picture, to_mm, shot, middle, np.random.default_rng(seed + 1), draw)
    return frame, photograph(picture, to_mm, shot, middle, np.random.default_rng(seed + 2))
