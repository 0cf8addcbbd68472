"""A scene renderer with exact truth, for tests and recordings (`table-recording/1`).

It draws a board profile top-down (markers, spaces, disc locations) with pieces on
it, then photographs it: a perspective camera, uneven light, white balance, shadow,
blur, sensor noise and JPEG. Renders are not reality: real photos, where they
exist, are the test; renders cover what no photo shows yet (boards, stacks, tokens).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from .board import DICTIONARY
from .camera import CameraPlace, camera_place
from .colours import DEFAULT_COLOURS
from .profiles import Profile


@dataclass(frozen=True)
class StackSpec:
    region: str
    colour: str
    discs: tuple[int, ...]
    """Disc sizes bottom to top (4 = largest)."""
    offset: tuple[float, float] = (0.0, 0.0)
    """Millimetres from the region's centre."""


@dataclass(frozen=True)
class TokenSpec:
    region: str
    kind: str
    colour: str
    offset: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0
    """Degrees a square tile is turned."""
    size: float = 0.0
    """Millimetres across; 0: its kind's width (another size draws a piece the profile does
    not read, there to be ignored: a faction's figures beside the Watcher)."""


@dataclass(frozen=True)
class DieSpec:
    """A d6 pip die lying in a region, `value` on top."""

    region: str
    value: int
    colour: str
    offset: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0
    """Degrees the die is turned."""


@dataclass(frozen=True)
class ArtSpec:
    """Something printed on the board: a numeral, a filled emblem or a ring, in board mm."""

    shape: str
    """"numeral", "disc" or "ring"."""
    at: tuple[float, float]
    size: float
    """Millimetres: a numeral's height, a disc's or ring's width."""
    colour: tuple[int, int, int]
    text: str = ""


def printed_art(profile: Profile, rng: np.random.Generator, share: float = 0.6) -> tuple[ArtSpec, ...]:
    """Board art in `share` of the token regions: altar numerals, emblems, printed rings and
    dark circles, in colours that pieces also come in (yellow numerals, a red emblem)."""
    colours = [(40, 200, 230), (60, 60, 200), (200, 120, 40), (30, 30, 30), (230, 230, 230), (60, 140, 60)]
    art = []
    for region in profile.regions:
        if region.holds != "tokens" or rng.random() > share:
            continue
        x, y = np.array(region.centre()) + rng.uniform(-8, 8, 2)
        colour = colours[int(rng.integers(len(colours)))]
        shape = str(rng.choice(["numeral", "disc", "ring"]))
        size = float(rng.uniform(10, 22))
        text = str(int(rng.integers(1, 10))) if shape == "numeral" else ""
        art.append(ArtSpec(shape, (float(x), float(y)), size, colour, text))
    return tuple(art)


def draw_art(
    canvas: np.ndarray, art: tuple[ArtSpec, ...], pt: Callable[[float, float], tuple[int, int]], s: float
) -> None:
    for a in art:
        cx, cy = pt(*a.at)
        if a.shape == "numeral":
            scale = a.size * s / 22  # Hershey simplex digits are about 22 px tall at scale 1
            thickness = max(1, int(round(a.size * s / 8)))
            (w, h), _ = cv2.getTextSize(a.text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
            org = (cx - w // 2, cy + h // 2)
            cv2.putText(
                canvas, a.text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, a.colour, thickness, cv2.LINE_AA
            )
        elif a.shape == "disc":
            cv2.circle(canvas, (cx, cy), int(round(a.size / 2 * s)), a.colour, -1, cv2.LINE_AA)
        else:
            cv2.circle(
                canvas,
                (cx, cy),
                int(round(a.size / 2 * s)),
                a.colour,
                max(1, int(round(1.5 * s))),
                cv2.LINE_AA,
            )


PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Where the pips of each face lie, in quarters of a face (a pip dice's usual layout)."""


@dataclass(frozen=True)
class Camera:
    width: int = 1280
    height: int = 960
    tilt: float = 0.08
    """How oblique the view is (0 = straight down); perspective strength of the corners."""
    fill: float = 0.9
    """How much of the frame the board (with its margin) fills."""
    rotation: float = 0.0
    """Degrees the board is turned in the frame."""


@dataclass(frozen=True)
class Look:
    """Lighting and sensor: everything between the table and the pixels."""

    brightness: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    vignette: float = 0.2
    shadow: float = 0.0
    """Darkness (0..1) of a soft shadow across part of the frame."""
    blur: float = 0.0
    noise: float = 2.0
    jpeg_quality: int = 90


def random_look(rng: np.random.Generator) -> Look:
    """Indoor light and a phone-grade sensor, drawn at random (recordings and training)."""
    return Look(
        brightness=float(rng.uniform(0.6, 1.2)),
        white_balance=tuple(float(v) for v in rng.uniform(0.85, 1.15, 3)),  # type: ignore[arg-type]
        vignette=float(rng.uniform(0, 0.4)),
        shadow=float(rng.uniform(0, 0.4)),
        blur=float(rng.uniform(0, 1.2)),
        noise=float(rng.uniform(1, 6)),
        jpeg_quality=int(rng.integers(60, 95)),
    )


@dataclass(frozen=True)
class Scene:
    profile: Profile
    camera: Camera = field(default_factory=Camera)
    look: Look = field(default_factory=Look)
    table_bgr: tuple[int, int, int] = (70, 90, 110)
    board_bgr: tuple[int, int, int] = (150, 170, 150)
    stacks: tuple[StackSpec, ...] = ()
    tokens: tuple[TokenSpec, ...] = ()
    dice: tuple[DieSpec, ...] = ()
    art: tuple[ArtSpec, ...] = ()
    """Printed on the board, under the pieces."""


def _shade(bgr: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, c * factor))) for c in bgr)  # type: ignore[return-value]


def draw_pieces(
    canvas: np.ndarray,
    scene: Scene,
    pt: Callable[[float, float], tuple[int, int]],
    s: float,
    place: CameraPlace,
) -> None:
    """Disc stacks as the camera at `place` sees them on the straightened board (each disc a
    shaded circle, its top lifted away from the point under the camera by its height, so that
    its side wall shows on the side towards it), tokens (round wooden pieces of their kind's
    width) and d6 dice."""
    p = scene.profile
    t = p.disc_height_mm
    for stack in scene.stacks:
        base = np.array(p.region(stack.region).centre()) + stack.offset
        colour = DEFAULT_COLOURS[stack.colour]
        for level, disc in enumerate(stack.discs, start=1):
            radius = int(round(p.disc_mm[disc - 1] / 2 * s * place.scale(level * t)))
            bottom, top = place.lift(np.array([base, base]), np.array([(level - 1) * t, level * t]))
            # The disc's shadow (what it falls on, in less light), then its side wall (seen where
            # the height shifts the top face), then the top face with the darker rounded edge of
            # real wooden discs.
            bx, by = pt(*bottom)
            darken(canvas, (bx + int(s), by + int(s)), radius, 0.45)
            for f in np.linspace(0, 1, 4):
                wx, wy = pt(*(bottom + (top - bottom) * f))
                cv2.circle(canvas, (wx, wy), radius, _shade(colour, 0.55), -1, cv2.LINE_AA)
            cx, cy = pt(*top)
            cv2.circle(canvas, (cx, cy), radius, _shade(colour, 0.85 + 0.04 * level), -1, cv2.LINE_AA)
            cv2.circle(
                canvas, (cx, cy), radius, _shade(colour, 0.5), max(1, int(round(0.8 * s))), cv2.LINE_AA
            )
    sizes = dict(p.token_mm)
    for token in scene.tokens:
        centre = np.array(p.region(token.region).centre()) + token.offset
        colour = DEFAULT_COLOURS.get(token.colour) or dict(p.colours)[token.colour]
        cx, cy = pt(*centre)
        width = token.size or sizes[token.kind]
        if token.kind in p.token_square:
            draw_tile(canvas, (cx, cy), width * s, token.angle, colour, scene.board_bgr, s)
            continue
        r = int(round(width / 2 * s))
        cv2.circle(canvas, (cx + int(s), cy + int(s)), r, _shade(scene.board_bgr, 0.55), -1, cv2.LINE_AA)
        cv2.circle(canvas, (cx, cy), r, colour, -1, cv2.LINE_AA)
        cv2.circle(canvas, (cx, cy), max(1, r // 2), _shade(colour, 1.15), -1, cv2.LINE_AA)
    for die in scene.dice:
        at = pt(*(np.array(p.region(die.region).centre()) + die.offset))
        draw_die(canvas, at, p.die_mm * s, die, scene.board_bgr, s)


def darken(canvas: np.ndarray, centre: tuple[int, int], radius: int, share: float) -> None:
    """A round shadow: what lies under it, `share` darker (in place; only round it is touched)."""
    x0, y0 = max(0, centre[0] - radius - 2), max(0, centre[1] - radius - 2)
    x1 = min(canvas.shape[1], centre[0] + radius + 3)
    y1 = min(canvas.shape[0], centre[1] + radius + 3)
    if x1 <= x0 or y1 <= y0:
        return
    shadow = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.circle(shadow, (centre[0] - x0, centre[1] - y0), radius, 255, -1, cv2.LINE_AA)
    window = canvas[y0:y1, x0:x1]
    window[:] = (window * (1 - share * shadow[..., None].astype(np.float32) / 255)).astype(np.uint8)


def draw_die(
    canvas: np.ndarray,
    centre: tuple[int, int],
    side: float,
    die: DieSpec,
    board: tuple[int, int, int],
    s: float,
) -> None:
    """A d6 from above: a thin shadow, a darker rounded edge, the face in the die's colour
    and its pips (white on dark dice, black on light ones)."""
    colour = DEFAULT_COLOURS[die.colour]
    box = ((float(centre[0]), float(centre[1])), (side, side), die.angle)
    corners = cv2.boxPoints(box).astype(np.int32)
    cv2.fillConvexPoly(canvas, corners + int(round(0.6 * s)), _shade(board, 0.6), cv2.LINE_AA)
    cv2.fillConvexPoly(canvas, corners, _shade(colour, 0.6), cv2.LINE_AA)
    face = cv2.boxPoints((box[0], (side * 0.9, side * 0.9), die.angle)).astype(np.int32)
    cv2.fillConvexPoly(canvas, face, colour, cv2.LINE_AA)
    pip = (240, 240, 240) if sum(colour) < 450 else (30, 30, 30)
    a = np.deg2rad(die.angle)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    for dx, dy in PIPS[die.value]:
        x, y = turn @ np.array([dx, dy]) * side * 0.25
        cv2.circle(
            canvas,
            (int(centre[0] + x), int(centre[1] + y)),
            max(1, int(round(side * 0.11))),
            pip,
            -1,
            cv2.LINE_AA,
        )


def draw_tile(
    canvas: np.ndarray,
    centre: tuple[int, int],
    side: float,
    angle: float,
    colour: tuple[int, int, int],
    board: tuple[int, int, int],
    s: float,
) -> None:
    """A printed cardboard tile: a thin shadow, a darker cut edge, its colour, and a printed
    emblem in a deeper shade of it in the middle."""
    box = ((float(centre[0]), float(centre[1])), (side, side), angle)
    corners = cv2.boxPoints(box).astype(np.int32)
    cv2.fillConvexPoly(canvas, corners + int(round(0.6 * s)), _shade(board, 0.6), cv2.LINE_AA)
    cv2.fillConvexPoly(canvas, corners, _shade(colour, 0.75), cv2.LINE_AA)
    inner = cv2.boxPoints((box[0], (side - 2 * s, side - 2 * s), angle)).astype(np.int32)
    cv2.fillConvexPoly(canvas, inner, colour, cv2.LINE_AA)
    cv2.circle(canvas, centre, max(1, int(side * 0.22)), _shade(colour, 0.7), max(1, int(s)), cv2.LINE_AA)


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """One printed marker with its white quiet zone, as on the marker sheet."""
    inner = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), marker_id, pixels)
    return inner


def top_down_extent(scene: Scene, px_per_mm: float, margin_mm: float) -> tuple[tuple[int, int], np.ndarray]:
    """The top-down drawing's size (rows, columns) and the matrix board-mm -> its pixels."""
    p = scene.profile
    xs = [x for _, (x, _) in p.markers] + [0.0, p.size[0]]
    ys = [y for _, (_, y) in p.markers] + [0.0, p.size[1]]
    x0, y0 = min(xs) - p.marker_size - margin_mm, min(ys) - p.marker_size - margin_mm
    x1, y1 = max(xs) + p.marker_size + margin_mm, max(ys) + p.marker_size + margin_mm
    s = px_per_mm
    to_px = np.array([[s, 0, -x0 * s], [0, s, -y0 * s], [0, 0, 1]], np.float64)
    return (int((y1 - y0) * s), int((x1 - x0) * s)), to_px


def draw_top_down(
    scene: Scene, px_per_mm: float, margin_mm: float, place: CameraPlace
) -> tuple[np.ndarray, np.ndarray]:
    """The table seen from straight above (what stands on it as the camera at `place` sees
    it), and the matrix board-mm -> these pixels."""
    p = scene.profile
    shape, to_px = top_down_extent(scene, px_per_mm, margin_mm)
    s = px_per_mm
    x0, y0 = -to_px[0, 2] / s, -to_px[1, 2] / s
    canvas = np.full((*shape, 3), scene.table_bgr, np.uint8)

    def pt(x: float, y: float) -> tuple[int, int]:
        return (int(round((x - x0) * s)), int(round((y - y0) * s)))

    cv2.rectangle(canvas, pt(0, 0), pt(*p.size), scene.board_bgr, -1)
    for region in p.regions:
        poly = np.array([pt(x, y) for x, y in region.polygon], np.int32)
        if region.holds == "tokens":
            cv2.polylines(canvas, [poly], True, (90, 110, 90), max(1, int(s)))
        else:
            cv2.fillPoly(canvas, [poly], (120, 140, 160))
    draw_art(canvas, scene.art, pt, s)
    side = int(p.marker_size * s)
    quiet = int(side * 0.25)
    for marker_id, (mx, my) in p.markers:
        cx, cy = pt(mx, my)
        cv2.rectangle(
            canvas,
            (cx - side // 2 - quiet, cy - side // 2 - quiet),
            (cx + side // 2 + quiet, cy + side // 2 + quiet),
            (255, 255, 255),
            -1,
        )
        img = cv2.cvtColor(marker_image(marker_id, side), cv2.COLOR_GRAY2BGR)
        canvas[cy - side // 2 : cy - side // 2 + side, cx - side // 2 : cx - side // 2 + side] = img
    draw_pieces(canvas, scene, pt, s, place)
    return canvas, to_px


def camera_matrix(scene: Scene, top_shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A perspective mapping top-down pixels -> frame pixels for the scene's camera."""
    cam = scene.camera
    h, w = top_shape
    cx, cy = cam.width / 2, cam.height / 2
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - [w / 2, h / 2]
    angle = np.deg2rad(cam.rotation)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    turned = corners @ rot.T
    extent = turned.max(axis=0) - turned.min(axis=0)
    placed = turned * cam.fill * min(cam.width / extent[0], cam.height / extent[1])
    jitter = rng.normal(0, cam.tilt * min(cam.width, cam.height) * 0.1, placed.shape)
    # The far edge looks smaller: pull the top corners in.
    placed[:2, 0] *= 1 - cam.tilt
    target = (placed + jitter + [cx, cy]).astype(np.float32)
    source = (corners + [w / 2, h / 2]).astype(np.float32)
    return cv2.getPerspectiveTransform(source, target).astype(np.float64)


def photograph(top: np.ndarray, to_frame: np.ndarray, scene: Scene, rng: np.random.Generator) -> np.ndarray:
    cam, look = scene.camera, scene.look
    frame = cv2.warpPerspective(
        top,
        to_frame,
        (cam.width, cam.height),
        flags=cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=scene.table_bgr,
    )
    img = frame.astype(np.float32) * look.brightness * np.array(look.white_balance, np.float32)
    ys, xs = np.mgrid[0 : cam.height, 0 : cam.width].astype(np.float32)
    r = np.hypot((xs - cam.width / 2) / cam.width, (ys - cam.height / 2) / cam.height)
    img *= (1 - look.vignette * r**2 * 2)[..., None]
    if look.shadow:
        a = rng.uniform(0, np.pi)
        edge = (xs - cam.width / 2) * np.cos(a) + (ys - cam.height / 2) * np.sin(a)
        img *= (1 - look.shadow * (1 / (1 + np.exp(-edge / 40))))[..., None]
    if look.blur:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), look.blur), np.float64)
    img += rng.normal(0, look.noise, img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return decoded


def render(
    scene: Scene, seed: int = 0, px_per_mm: float = 3.0, camera_seed: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The photographed frame and the true homography board-mm -> frame px. `camera_seed`:
    the camera's pose from a seed of its own, so that tables rendered with the same one are
    seen by a camera that stayed still (the noise of each photograph still differs)."""
    rng = np.random.default_rng(seed)
    shape, board_to_top = top_down_extent(scene, px_per_mm, margin_mm=20)
    pose = rng if camera_seed is None else np.random.default_rng(camera_seed)
    top_to_frame = camera_matrix(scene, shape, pose)
    # Heights are drawn as the camera that this perspective implies would see them.
    place = camera_place(top_to_frame @ board_to_top, (scene.camera.width, scene.camera.height))
    top, _ = draw_top_down(scene, px_per_mm, 20, place)
    frame = photograph(top, top_to_frame, scene, rng)
    return frame, top_to_frame @ board_to_top
