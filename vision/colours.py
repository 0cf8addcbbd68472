"""Naming a piece's colour from a palette the players can calibrate."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .types import VisionError

PALETTE_FORMAT = "palette/1"
PALETTE_FILE = "palette.toml"
"""The players' palette in the companion's data directory (read by `serve`)."""

# Typical colours of dice and wooden pieces under indoor light (BGR). Players calibrate
# by showing their own pieces (`Palette.with_sample`).
DEFAULT_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (225, 225, 225),
    "black": (40, 40, 40),
    "red": (50, 40, 190),
    "green": (70, 150, 40),
    "blue": (170, 60, 30),
    "yellow": (40, 200, 225),
    "purple": (120, 40, 100),
    "orange": (30, 120, 230),
    "pink": (170, 140, 235),
}


@dataclass(frozen=True)
class Palette:
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = field(
        default_factory=lambda: tuple(DEFAULT_COLOURS.items())
    )

    def with_sample(self, name: str, bgr: tuple[int, int, int]) -> Palette:
        """The palette with `name` re-measured (or added) from a real piece."""
        rest = tuple(c for c in self.colours if c[0] != name)
        return Palette(rest + ((name, bgr),))

    def as_seen(self, names: Sequence[str], features: np.ndarray) -> Palette:
        """The palette with these colours as seen (`shade_free` features, inverted: the
        channels' shares of their sum, and the sum from the lightness)."""
        total = features[:, 3:4] / LIGHTNESS_WEIGHT * 3.0  # the channels' sum and shade_free's offset
        bgr = np.clip(np.round(features[:, :3] * total / 300.0), 0, 255).astype(int)
        seen = {name: (int(b), int(g), int(r)) for name, (b, g, r) in zip(names, bgr, strict=True)}
        return Palette(tuple((n, seen.get(n, c)) for n, c in self.colours))

    def has_hue(self, name: str) -> bool:
        """Whether a palette colour has a hue of its own (`has_a_hue`)."""
        return has_a_hue(np.array(dict(self.colours)[name], np.float32))

    def features(self, allowed: tuple[str, ...] | None = None) -> tuple[list[str], np.ndarray]:
        """The (allowed) colours' names and their `shade_free` features."""
        chosen = [(n, c) for n, c in self.colours if allowed is None or n in allowed]
        return [n for n, _ in chosen], shade_free(np.array([c for _, c in chosen], np.float32))


HUE_CHROMA = 16.0
"""A colour whose Lab a and b are this far from grey has a hue of its own."""


def has_a_hue(bgr: np.ndarray) -> bool:
    """Whether a colour (BGR) has a hue of its own (HUE_CHROMA): a light shifts it, and a shadow
    leaves it; a grey, black or white piece's shade is the shading's."""
    pixel = np.clip(np.round(np.asarray(bgr, np.float32)), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    _, a, b = cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32) - 128.0
    return bool(np.hypot(a, b) >= HUE_CHROMA)


LIGHTNESS_WEIGHT = 0.3
"""How much brightness counts beside hue when naming a colour: enough to tell black, grey
and white apart, little enough that a shadow does not turn yellow into green."""


def shade_free(bgr: np.ndarray) -> np.ndarray:
    """Features of BGR colours (..., 3) that a shadow barely changes: chromaticity (each
    channel's share of the sum, which a darker light scales away), plus a little lightness."""
    bgr = np.asarray(bgr, np.float32)
    # The offset keeps near-black pixels from noisy hues. (Channel by channel: numpy's reductions
    # over a last axis of 3 are several times slower.)
    total = bgr[..., 0] + bgr[..., 1] + bgr[..., 2] + 30.0
    features = np.empty((*bgr.shape[:-1], 4), np.float32)
    np.multiply(bgr, (300.0 / total)[..., None], out=features[..., :3])
    features[..., 3] = LIGHTNESS_WEIGHT * total / 3.0
    return features


@dataclass(frozen=True)
class MaskPixels:
    """A mask's pixels (rows, columns) and their colours' `shade_free` features: worked out once
    a frame for the pieces' view, which the palette (`as_seen_here`) and the token reader both
    name."""

    rows: np.ndarray
    cols: np.ndarray
    features: np.ndarray

    @classmethod
    def of(cls, bgr: np.ndarray, mask: np.ndarray) -> MaskPixels:
        rows, cols = np.nonzero(mask)
        return cls(rows, cols, shade_free(bgr[rows, cols]))


def distances(features: np.ndarray, choices: np.ndarray) -> np.ndarray:
    """Each feature vector's squared distance to each of `choices`, less its own squared length
    (the same for every choice, so the nearest is the same; subtract |c|'s part of another
    point's distance likewise to compare with it)."""
    # |f - c|^2 = |f|^2 - 2 f.c + |c|^2: one matrix product instead of a (pixels x choices x
    # channels) array.
    choices = np.asarray(choices, np.float64)
    apart: np.ndarray = np.asarray(features, np.float64) @ (-2.0 * choices.T)
    apart += (choices**2).sum(axis=-1)  # in place: a new array for the sum costs 3 times the product
    return apart


def nearest(features: np.ndarray, choices: np.ndarray) -> np.ndarray:
    """Index of the nearest of `choices` for every feature vector."""
    index: np.ndarray = distances(features, choices).argmin(axis=-1)
    return index


SEEN_REACH = 60.0
"""How far (`shade_free` units) from the palette's a colour may be seen under a table's light:
a blue tile lit partly by the light its lavender board throws back is seen 30-45 away."""

SEEN_SHIFT = 20.0
"""A colour seen nearer its palette's than this is left as it is: the pieces of one set differ
by about as much, so a smaller shift is no evidence of the light."""

SEEN_PIECES = 3
"""Pieces that must show a colour alike before it is taken as the light's doing, not one odd
object's (a single brown card on Tower's mat)."""


def mixed(features: np.ndarray, bare: np.ndarray, choices: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Which pixels (`shade_free` features, the bare board's under each) lie nearer the line
    from the bare board to another colour than their own nearest colour (`own`): a red tile's
    rim blurred into a pale board is pinkish, but it is red and board, not pink."""
    features, bare, choices = (np.asarray(a, np.float32) for a in (features, bare, choices))
    mine = features - choices[own]
    nearest_own = np.einsum("pf,pf->p", mine, mine)  # (einsum: sums over 4 features, fast)
    towards = choices[None] - bare[:, None]  # (pixels, colours, features): board to each colour
    from_board = features - bare
    lengths = np.einsum("pcf,pcf->pc", towards, towards)
    t = np.einsum("pf,pcf->pc", from_board, towards) / np.maximum(lengths, 1e-6)
    off = from_board[:, None] - np.clip(t, 0, 1)[..., None] * towards
    apart = np.einsum("pcf,pcf->pc", off, off)
    apart[np.arange(own.size), own] = np.inf  # its own colour's line is no mix of another
    apart = apart.min(axis=-1)
    mix: np.ndarray = apart < nearest_own
    return mix


def as_seen_here(
    bgr: np.ndarray,
    bare_lab: np.ndarray,
    mask: np.ndarray,
    choices: np.ndarray,
    movable: np.ndarray,
    piece_px: float,
    pixels: MaskPixels | None = None,
) -> np.ndarray:
    """The colours `choices` (`shade_free` features) as this frame's pieces (`mask`'s pixels)
    show them. White paper balances the light over the table, not the light round each piece:
    a lamp of another colour, the light a coloured board throws back on it, the camera's own
    curve. So each `movable` colour is moved to where its pieces are seen: the densest hue
    among the pixels nearest it (within `SEEN_REACH`), when at least `SEEN_PIECES` pieces show
    that hue. Each colour's pixels are first shrunk by one, and by two where they are `mixed`
    (a rim blurred into the board is a mix of both, and a ring of it round many tiles would be
    dense too); a colour's pixels are those nearer its palette colour than any other's, so it
    is never moved into another's place. `pixels`: the mask's, when worked out already."""
    if pixels is None:
        pixels = MaskPixels.of(bgr, mask)
    rows, cols, features = pixels.rows, pixels.cols, pixels.features
    if rows.size == 0 or not movable.any():
        return choices
    lengths = np.einsum("ij,ij->i", features, features, dtype=np.float64)  # |f|^2, as distances leaves out
    apart = distances(features, choices) + lengths[:, None]
    own = apart.argmin(axis=-1)
    labels = np.full(mask.shape, -1, np.int8)
    labels[rows, cols] = own
    smallest = 0.25 * np.pi * (piece_px / 2) ** 2  # a quarter of the smallest piece's top
    seen = choices.copy()
    for i in np.flatnonzero(movable):
        mine = np.flatnonzero((own == i) & (apart[:, i] <= SEEN_REACH**2))
        if mine.size < SEEN_PIECES * smallest:
            continue
        # Its pixels less a pixel's rim, and less a mix with another colour two pixels in.
        region = (labels == i).astype(np.uint8)
        inner = cv2.erode(region, np.ones((3, 3), np.uint8))
        at_rows, at_cols = rows[mine], cols[mine]
        ring = mine[
            (inner[at_rows, at_cols] > 0)
            & (cv2.erode(region, np.ones((5, 5), np.uint8))[at_rows, at_cols] == 0)
        ]
        if ring.size:
            bare = cv2.cvtColor(
                np.clip(bare_lab[rows[ring], cols[ring]], 0, 255).astype(np.uint8)[None], cv2.COLOR_LAB2BGR
            )
            inner[rows[ring], cols[ring]] = ~mixed(features[ring], shade_free(bare[0]), choices, own[ring])
        _, pieces = cv2.connectedComponents(inner)
        piece = pieces[at_rows, at_cols]
        hue, piece = features[mine[piece > 0]], piece[piece > 0]
        # The densest hue: a histogram of the blue and red shares in bins of 3, summed 5 x 5.
        b, r = (np.clip(hue[:, c] / 3.0, 0, 100).astype(np.intp) for c in (0, 2))
        counts = np.bincount(b * 101 + r, minlength=101 * 101).astype(np.float32).reshape(101, 101)
        near = cv2.boxFilter(counts, -1, (5, 5), normalize=False, borderType=cv2.BORDER_CONSTANT)
        at_b, at_r = np.unravel_index(int(near.argmax()), near.shape)
        there = (np.abs(b - at_b) <= 2) & (np.abs(r - at_r) <= 2)
        per_piece = np.bincount(piece[there])
        if (per_piece >= smallest).sum() < SEEN_PIECES:
            continue
        moved = np.median(hue[there], axis=0)
        if np.linalg.norm(moved - choices[i]) >= SEEN_SHIFT:
            seen[i] = moved
    return seen.astype(choices.dtype)


def body_colour(image: np.ndarray, center: tuple[float, float], size: float) -> np.ndarray:
    """The median colour of the middle of a piece (pips and edges are the minority)."""
    x, y = center
    r = max(2, int(size * 0.3))
    h, w = image.shape[:2]
    patch = image[max(0, int(y) - r) : min(h, int(y) + r), max(0, int(x) - r) : min(w, int(x) + r)]
    if patch.size == 0:
        return np.zeros(3, np.float32)
    colour: np.ndarray = np.median(patch.reshape(-1, 3), axis=0).astype(np.float32)
    return colour


def name_colour(
    image: np.ndarray,
    center: tuple[float, float],
    size: float,
    palette: Palette,
    gains: np.ndarray | None = None,
) -> str:
    """The palette's colour nearest the die's body, by hue first when it has one: a lamp that
    washes out a purple die's lit top (a pale lilac, nearer pink by lightness and saturation)
    leaves its hue, and white pips or a glint only grey it. `gains`: the per-channel gains that
    make the markers' paper white in this frame (the palette's colours are as seen on a
    white-balanced board; a die named in the raw frame is named in the lamp's light)."""
    body = body_colour(image, center, size)
    if gains is not None:
        body = np.clip(body * gains, 0, 255).astype(np.float32)
    among = None  # every colour of the palette
    if has_a_hue(body):
        hue = lab_hue(body)
        apart = {
            n: abs(math.remainder(lab_hue(np.array(c, np.float32)) - hue, 2 * math.pi))
            for n, c in palette.colours
            if has_a_hue(np.array(c, np.float32))
        }
        if apart:
            among = tuple(n for n, a in apart.items() if a <= min(apart.values()) + HUE_TIE)
    names, choices = palette.features(among)
    return names[int(nearest(shade_free(body), choices))]


HUE_TIE = math.radians(15)
"""Palette colours whose hue is within this of the nearest one's are told apart by lightness
and saturation as well (brown lumber from orange); farther hues are not the die's."""


def lab_hue(bgr: np.ndarray) -> float:
    """A colour's hue (radians) in Lab, the angle of its a and b."""
    pixel = np.clip(np.round(np.asarray(bgr, np.float32)), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    _, a, b = cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32) - 128.0
    return math.atan2(float(b), float(a))


def hex_colour(bgr: tuple[int, int, int]) -> str:
    b, g, r = bgr
    return f"#{r:02x}{g:02x}{b:02x}"


def load_palette(path: Path) -> Palette:
    """A palette file (`palette/1`): the default colours with the file's colours re-measured
    or added. Colours are "#rrggbb" as the camera sees them (white-balanced on a board)."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise VisionError(f"{path}: cannot read the palette: {error}") from error
    if data.get("format") != PALETTE_FORMAT:
        raise VisionError(f"{path}: not a {PALETTE_FORMAT} file (format = {data.get('format')!r})")
    palette = Palette()
    for name, text in data.get("colours", {}).items():
        if not (isinstance(text, str) and len(text) == 7 and text.startswith("#")):
            raise VisionError(f'{path}: colour {name!r} must be "#rrggbb", not {text!r}')
        try:
            r, g, b = (int(text[i : i + 2], 16) for i in (1, 3, 5))
        except ValueError as error:
            raise VisionError(f'{path}: colour {name!r} must be "#rrggbb", not {text!r}') from error
        palette = palette.with_sample(name, (b, g, r))
    return palette


def save_palette(palette: Palette, path: Path, sizes: Sequence[tuple[str, float]] = ()) -> None:
    """Writes every colour of `palette` (so the file says exactly what is used) and the pieces'
    sizes the players taught (`[sizes]`), in one write that a power cut cannot leave half done."""
    lines = [
        f'format = "{PALETTE_FORMAT}"',
        "# Colours as the camera sees them; `companion vision calibrate` re-measures one.",
        "[colours]",
        *(f'{name} = "{hex_colour(bgr)}"' for name, bgr in palette.colours),
    ]
    if sizes:
        lines += ["", "[sizes]  # each kind's width (a tile's side) as your pieces measure, mm"]
        lines += [f"{kind} = {width}" for kind, width in sizes]
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text("\n".join(lines) + "\n")
    temporary.replace(path)


def load_sizes(path: Path) -> tuple[tuple[str, float], ...]:
    """The `[sizes]` of a palette file (none: empty)."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise VisionError(f"{path}: cannot read the sizes: {error}") from error
    sizes = data.get("sizes", {})
    if not all(isinstance(v, int | float) and 0 < v < 500 for v in sizes.values()):
        raise VisionError(f"{path}: [sizes] must give each kind's width in millimetres")
    return tuple((str(k), float(v)) for k, v in sizes.items())


def measure(image: np.ndarray, at: tuple[int, int], gains: np.ndarray | None = None) -> tuple[int, int, int]:
    """The colour of a piece at pixel `at` (the median of a small patch, so pips and edges
    count little), white-balanced by `gains` when the board's paper is in view."""
    x, y = at
    h, w = image.shape[:2]
    if not (0 <= x < w and 0 <= y < h):
        raise VisionError(f"({x}, {y}) is outside the {w}x{h} image")
    patch = image[max(0, y - 4) : y + 5, max(0, x - 4) : x + 5].reshape(-1, 3).astype(np.float32)
    colour = np.median(patch, axis=0) * (gains if gains is not None else 1.0)
    b, g, r = (int(v) for v in np.clip(colour.round(), 0, 255))
    return (b, g, r)


def linear_light(bgr: np.ndarray) -> np.ndarray:
    """8-bit sRGB values as linear light (0-1): what a lens's blur mixes."""
    v = np.asarray(bgr, np.float32) / 255.0
    out: np.ndarray = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    return out


LIT_FIT = 0.1
"""A colour is another's lit side when its direction in linear RGB lies this near (unit vectors'
distance) to that colour brightened and washed towards white (`lit_sides`): red lit is pink
(0.04 with the default palette), orange lit yellow (0.02), any colour white; red is no lit pink,
purple no lit blue (0.37), brown no lit yellow (0.15)."""
LIT_GAINS = np.linspace(1.0, 10.0, 19)
LIT_WASH = np.linspace(0.0, 1.0, 21)
"""The brightenings and washes tried (steps of 0.5 and 0.05: finer steps, 46 x 51, named the
same lit sides for the default palette at six times the cost: 13 ms a frame against 2)."""


def lit_sides(bgrs: np.ndarray) -> np.ndarray:
    """Which colours (BGR, one per row) may be seen on another's side turned to the light: `[x,
    y]` when y is lighter than x and as x's light reflected brighter, the sensor clipping it at
    full scale, plus the lamp's white from a glossy or sunlit face (min(1, k x + w), k >= 1,
    w >= 0, in linear light, any exposure). A red meeple's lit top is pink to the camera, a
    pink one's white."""
    lin = linear_light(np.asarray(bgrs, np.float32)[:, ::-1])
    unit = lin / np.maximum(np.linalg.norm(lin, axis=1, keepdims=True), 1e-9)
    lit = np.minimum(
        1.0, LIT_GAINS[None, :, None, None] * lin[:, None, None, :] + LIT_WASH[None, None, :, None]
    )
    lit = lit.reshape(len(lin), -1, 3)
    lit /= np.linalg.norm(lit, axis=2, keepdims=True)
    apart = np.linalg.norm(lit[:, :, None, :] - unit[None, None, :, :], axis=3).min(axis=1)
    lighter: np.ndarray = lin.sum(1)[None, :] > lin.sum(1)[:, None]
    out: np.ndarray = (apart <= LIT_FIT) & lighter
    return out
