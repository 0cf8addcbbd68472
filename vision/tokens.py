"""Tokens: the pieces and tiles in each region, by colour and kind (size and shape seen from
above, as the camera's place and each kind's height predict).

In each token region, straightened top-down, pixels unlike the bare board (the empty board
seen at calibration, else a wide median) and nearer a piece's colour than the board's own are
named by their nearest colour (the players', the tiles' own, and print's: white and black);
touching pieces of different colours are told apart by colour. Each piece is the kind whose
size and silhouette where it stands fit it (an upright piece leans away from the point under
the camera; a tile covers a square), among the kinds that come in its colour first, and its
colour is then named among that kind's colours. A figure on a base may show its colour on the
figure or the base alone (`figure = true`). Several pieces may share a region; a blob the size
of no kind is not reported. A piece on a tile of its own colour is read where it leans beyond
the tile (vision/own_tile.py). A region may name the kinds that lie in it (gems, not meeples); a
kind that lies in heaps (gems) is counted: a blob of one colour is as many pieces as its area
holds.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from .camera import CameraPlace
from .colours import (
    HUE_CHROMA,
    LIGHTNESS_WEIGHT,
    SEEN_REACH,
    SEEN_SHIFT,
    MaskPixels,
    Palette,
    as_seen_here,
    distances,
    has_a_hue,
    linear_light,
    lit_sides,
    nearest,
    shade_free,
)
from .discs import StackOutline, side_of
from .own_tile import piece_on_own_tile
from .profiles import Profile, Region
from .reference import REFERENCE_SPAN_MM, relit
from .regions import TopDown, foreground, local_background
from .types import TokenSighting

TOKEN_PX_PER_MM = 1.0
"""Tokens are read at 1 px/mm: a 12 mm cultist is 12 px wide, plenty to tell from a priest."""
SQUARE_WIDTH = 2 / np.sqrt(np.pi)
"""A square of side 1 has the area of a disc this wide: sizes are compared by area."""
ONE_PIECE = 0.9
"""A blob whose main colour covers this share of it is one piece (two touching pieces of
different colours are each far from it)."""
MAX_SIZE_ERROR = 0.35
"""A blob whose size is further than this from every kind's is something else (a hand, a card)."""
MAX_ELONGATION = 1.7
MIN_FILL = 0.5
"""A piece is squarish (a disc fills 79% of its box, a square turned 45 degrees 50%)."""
PRINT_COLOURS = ("white", "black")
"""The colours of print (a tile's emblem, labels, numerals): pixels are named among them too, so
that print is not named the nearest piece colour (a white emblem pink), and a part of them is
no piece, unless the game's pieces come in them."""

FOREGROUND = 28.0
"""A pixel this far (Lab) from the bare board there is something on it."""
LIGHTER = 1.1
"""A pixel this much lighter than the bare board there is no shadow (a shadow only takes light
away), whatever its hue, so it is kept as something even when its hue is nearer the board's
than a piece's: a light emblem or frame blurred into a tile's colour at 1 px/mm is pastel, and
its hue is near any pale board's; left out, the tile showed only its inner part, priest-sized
(path-traced tables: tiles alone read as priests). 10% is beyond the sensor's noise and JPEG
(3-5 levels of 130; the lightness compared is `shade_free`'s, whose 30 added make it 11% at a
board of 130). Path-traced dev tables 209 -> 233 of 386 pieces right, with the second look at
the bare board (`pieces_view`); the flat renders and the replayed demo game as before."""
LIGHTER_REACH_MM = 2.0
"""...and only this near a pixel of a piece's colour: a tile's light frame and the margin
beyond it (1-2 mm). The bare board is a median round the pixel, which a large dark tile or the
board's edge pulls down: anywhere, the board beside a blue tile (vision/render.py's table,
amharb-2p frame 4) and beside two corner tiles (the replayed game of `companion.demo`) read 10-15%
lighter than it, and was taken with the tiles."""

FRINGE_MM = 2.5
"""A band whose every pixel lies within this of its edge (so up to about twice as thick) is a
blur's mix of a piece's edge and the board: a 20 mm token partly under another still shows a
part 5 mm thick and more."""
RING_SHARE = 0.2
"""A base seen round its dark figure shows at least this share of itself (the Watcher's pink
base a quarter to a third of it round a figure that covers half of it and leans)."""
FIGURE_TOP = 0.25
"""A figure seen from above on its dark base shows its colour over this share of the base's
width at least (a Scout's head and shoulders, 5 mm of a 20 mm base; its figure tapers)."""
PAINTED = 1.3
"""A figure's top judged on its dark base is this many times nearer its paint than dark plastic
(`paint_margin`): on pinhole Turris tables a tinted Beast's specks were 1.1-1.3, on path-traced
ones the Scouts' painted tops 1.4-3.3."""
FLAT_MM = 3.0
"""A kind this tall or less (a card token, a tile) shows no shaded side of its own colour."""
SHADOW_FLOOR = 0.5
"""A pixel named a dark colour a piece comes in (`DARK_PLASTIC`; not print's black, which is never
a piece) is a piece only when darker than this share of the
bare board there (sums of its 8-bit channels): black plastic reflects under a tenth of the light
a board does (about a third once the camera's gamma encodes it), a shadow lets through a quarter
or more of it (two thirds and more, encoded). Otherwise it is the board in a piece's shadow."""
HUE_APART = 0.1
"""How far a pixel's hue (the sum of its three channels' shares' differences) lies from the bare
board's there when it is no shadow on it: about three times an 8-bit camera's noise in a dark
pixel's hue (+-3 levels in channels of about 60: +-0.015 a share). Dark plastic lit by a lamp
shows a half to two thirds of a board's light (its gloss), as a shadow does, but keeps its own
grey: on path-traced Turris tables (tests/blender_turris.py) Beasts 15 -> 30 of 45."""
DARK_PLASTIC = ("black",)
"""The colour of a figure's base or of the figure itself whatever the piece's colour (profile:
`figure = true`), so a part of the piece's colour too narrow for its kind (a Scout's figure on
a dark base, the Watcher's pink base round its dark figure) is judged with the dark pixels round
it."""
PRINT_HUE = 2 * HUE_APART
"""Print is ink: its black names no pixel of this hue or more (its shares' distance from grey,
twice the margin that parts a piece's hue from a shadow's) beside a piece's lit side of that hue:
that is the piece's side in its own shade (a blue pawn's side named black, the pawn read by its
lit ball as a cultist). Where the empty board says what the board's own print is, its white
names none either: a pale colour (a blue tile lit to (184, 125, 90) BGR is nearer white than the
palette's blue, and was read as nothing or, with a yellow cultist on it, as a yellow tile).
Path-traced Am'harb tables with the empty board (five sets, 1977 pieces): 1641 -> 1661 right,
96 -> 86 false; without it (six sets, 2371 pieces) 1909 -> 1916, 303 -> 300 false. Not where
figures stand (a figure's dark plastic mirrors its pink base: Yuggoth's Watcher 14 -> 13 of 15),
and not white without the empty board (the board's white print under a warm lamp has a hue)."""


def hue_of(features: np.ndarray) -> np.ndarray:
    """Each colour's hue: its channels' shares less a third each (grey's), as a direction."""
    shares = features[:, :3] / np.maximum(features[:, :3].sum(axis=1, keepdims=True), 1e-6)
    return np.asarray(shares - 1 / 3)


def nearest_hue(features: np.ndarray, choices: np.ndarray) -> np.ndarray:
    """For each colour, the index of the choice whose hue points its way from grey most nearly: a
    colour washed out by light mixed with white, or in its own shade, keeps its direction from
    grey, not its distance (a pale pink under a bright lamp is as light as yellow, and pink)."""
    mine, theirs = hue_of(features), hue_of(choices)
    mine = mine / np.maximum(np.linalg.norm(mine, axis=1, keepdims=True), 1e-9)
    theirs = theirs / np.maximum(np.linalg.norm(theirs, axis=1, keepdims=True), 1e-9)
    return np.asarray((mine @ theirs.T).argmax(axis=1))


def off_grey(features: np.ndarray) -> np.ndarray:
    """How far each colour's hue is from grey: its channels' shares' distances from a third,
    summed (`shade_free` features)."""
    return np.asarray(np.abs(hue_of(features)).sum(axis=1))


def kind_sizes(profile: Profile) -> dict[str, float]:
    """Each token kind's width as a disc of the same area, millimetres (a square tile's, an
    oblong footprint's)."""
    depth = dict(profile.token_depth)
    return {
        k: w * SQUARE_WIDTH
        if k in profile.token_square
        else w * SQUARE_WIDTH * math.sqrt(depth[k] / w)
        if k in depth
        else w
        for k, w in profile.token_mm
    }


def size_error(kind: str, width: float, seen: float, profile: Profile) -> float:
    """How far (a share of it) a piece seen `seen` mm across its lean is from what a kind
    `width` wide (`kind_sizes`') may be seen as (`across_range`)."""
    narrow, wide = across_range(kind, width, profile)
    return (narrow - seen) / narrow if seen < narrow else max(seen - wide, 0.0) / wide


def across_range(kind: str, width: float, profile: Profile) -> tuple[float, float]:
    """How wide a kind's footprint may be seen across its lean (mm): a round piece its width
    (`width`, `kind_sizes`'), an oblong one from its short side (end on) to its diagonal
    (turned halfway)."""
    depth = dict(profile.token_depth)
    if kind not in depth:
        return width, width
    long = dict(profile.token_mm)[kind]
    return depth[kind], math.hypot(long, depth[kind])


def compact(rows: np.ndarray, cols: np.ndarray, area: float | None = None) -> bool:
    """Round pieces and square tiles fill most of a squarish box; the edge of a card, a sleeve
    or a shadow's rim that differs from the board in strips does not. `area`: what the piece
    covers, when not its pixels (a tile with a piece standing on it: its outline's hull)."""
    h, w = int(np.ptp(rows)) + 1, int(np.ptp(cols)) + 1
    covered = rows.size if area is None else area
    return bool(max(h, w) <= MAX_ELONGATION * min(h, w) and covered >= MIN_FILL * h * w)


def leaning(rows: np.ndarray, cols: np.ndarray, away: np.ndarray, stretch: float) -> bool:
    """Whether these pixels fill a box turned along `away` (unit x, y: from the point under the
    camera) that is squarish but `stretch` times longer along it, as a standing piece's
    silhouette is (its top seen beyond its foot): `compact` for a piece that leans."""
    along = cols * away[0] + rows * away[1]
    across = rows * away[0] - cols * away[1]
    length, width = float(np.ptp(along)) + 1, float(np.ptp(across)) + 1
    return bool(
        length <= MAX_ELONGATION * stretch * width
        and width <= MAX_ELONGATION * length
        and rows.size >= MIN_FILL * length * width
    )


def pieces_of(
    rows: np.ndarray,
    cols: np.ndarray,
    colour_index: np.ndarray,
    printed: np.ndarray | None = None,
    fringed: np.ndarray | None = None,
    fringe_px: float = 0.0,
) -> list[tuple[int, np.ndarray]]:
    """The pieces in one blob, given its pixels and each pixel's nearest colour: (colour index,
    the piece's pixels as indices into the blob's). A blob whose main colour covers ONE_PIECE
    of it, print aside (`printed`: whether each colour is print's, a tile's white emblem or a
    piece's glint), is one piece (its shading and printed emblem are not pieces of other
    colours); otherwise touching pieces of different colours are told apart by colour. A part
    of a `fringed` colour (one no tile comes in) is only its body: a band thinner than twice
    `fringe_px` running from it is the blurred rim of a tile it stands on (`without_fringe`)."""
    counts = np.bincount(colour_index)
    pieces = counts.copy()
    if printed is not None:
        pieces[printed[: counts.size]] = 0
    main = int((pieces if pieces.any() else counts).argmax())
    if (
        counts[main] >= ONE_PIECE * (pieces.sum() if pieces.any() else counts.sum())
        and counts[main] >= (1 - ONE_PIECE) * counts.sum()
    ):  # (a label with a pinkish edge is no pink piece)
        return [(main, np.arange(colour_index.size))]
    r0, c0 = rows.min(), cols.min()
    out = []
    for k in np.flatnonzero(counts):
        here = np.flatnonzero(colour_index == k)
        box = np.zeros((int(rows.max() - r0) + 1, int(cols.max() - c0) + 1), np.uint8)
        box[rows[here] - r0, cols[here] - c0] = 1
        if fringed is not None and fringed[k]:
            box = without_fringe(box, fringe_px)
        n, labels = cv2.connectedComponents(box)
        part = labels[rows[here] - r0, cols[here] - c0]
        out += [(int(k), here[part == p]) for p in range(1, n)]
    return out


def fringed_colours(coloured: Sequence[str], profile: Profile) -> np.ndarray:
    """Which of these colours ("" for print's and dark plastic) lose the thin bands round their
    parts (`without_fringe`): those no tile comes in, in a game whose pieces include tiles. Where
    no tile lies, a thin band is a piece's own (Yuggoth's Watcher shows its pink base as arcs
    round its dark figure: cut, five factions' tables lost one of 22)."""
    squares = profile.token_square
    fringed: np.ndarray = np.array(
        [bool(n and squares) and not any(profile.comes_in(t, n) for t in squares) for n in coloured], bool
    )
    return fringed


def without_fringe(mask: np.ndarray, fringe_px: float) -> np.ndarray:
    """`mask` (uint8, 0/1) without the thin bands running from its parts' bodies: the pixels
    more than a pixel further than `fringe_px` from a body (the pixels at least `fringe_px`
    inside the mask). A red tile's rim blurred into a pale board is pinkish, a band 1-3 px wide
    all round the tile, and joined to the pink priest standing on it, it made the priest
    tile-sized. Only a part with one body
    loses its bands: one with none is a sliver of a piece (kept whole), and a band that joins
    two bodies is the piece's own (a washed-out red tile named pink round a cultist on it is
    an L; cut at its narrow corner, it made two pink cultists)."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    inside = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]
    body = (inside >= fringe_px).astype(np.uint8)
    if not body.any():
        return mask
    n, labels = cv2.connectedComponents(mask)
    bodies, body_labels = cv2.connectedComponents(body)
    # The part each body lies in (a body lies wholly in one), and how many bodies each part holds.
    part_of = np.zeros(bodies, np.intp)
    part_of[body_labels[body > 0]] = labels[body > 0]
    one_body = np.bincount(part_of[1:], minlength=n) == 1
    to_body = cv2.distanceTransform(1 - body, cv2.DIST_L2, 3)
    keep: np.ndarray = ((mask > 0) & (~one_body[labels] | (to_body <= fringe_px + 1))).astype(np.uint8)
    return keep


def piece_width(
    rows: np.ndarray, cols: np.ndarray, centre_mm: tuple[float, float], place: CameraPlace | None, s: float
) -> float:
    """A round piece's width seen from above (mm).

    A standing piece leans away from the point under the camera (its top is seen further out
    than its foot, by its height's share of the camera's) and shows its side wall on the near
    side: it looks longer along that direction, never wider across it. So its width is its
    extent across the direction from that point (when the camera's place is known; else, and
    never more than, the width of a disc of its area)."""
    width = 2 * math.sqrt(rows.size / math.pi) / s
    if place is None or rows.size < 4:
        return width
    away = np.array(centre_mm) - np.array(place.nadir)
    if np.hypot(*away) < 1.0:
        return width
    across = np.array([-away[1], away[0]]) / np.hypot(*away)
    spread = cols * across[0] + rows * across[1]
    k = spread.size // 100  # the 1st and 99th percentiles: a stray pixel is not width
    ends = np.partition(spread, (k, spread.size - 1 - k))
    return min(width, (float(ends[spread.size - 1 - k] - ends[k]) + 1) / s)


@dataclass(frozen=True)
class Named:
    """The pixels of pieces (row, column), each one's `shade_free` features and nearest colour."""

    rows: np.ndarray
    cols: np.ndarray
    features: np.ndarray
    colour: np.ndarray
    to_board: np.ndarray | None = None
    """Each pixel's distance to the bare board's colour there, as `distances` gives it to a
    colour (so a pixel is nearer a colour than the board when its distance to it is smaller)."""


def nearer_a_colour(
    bgr: np.ndarray,
    background_lab: np.ndarray,
    mask: np.ndarray,
    choices: np.ndarray,
    dark: np.ndarray | None = None,
    lighter_reach_px: int = 0,
    pixels: MaskPixels | None = None,
    band_px: int = 0,
    low: np.ndarray | None = None,
    glass: np.ndarray | None = None,
    glass_chroma: np.ndarray | None = None,
    grey_print: np.ndarray | None = None,
) -> Named:
    """The mask's pixels that are nearer some piece's colour than the bare board's there
    (`shade_free` features), named: not the board in a shadow, nor a piece's edge blurred more
    than half into the board, so that a piece's pixels cover its size, not its size widened by
    the blur; but one `LIGHTER` than the board within `lighter_reach_px` of those is no shadow,
    and kept. A pixel nearest a `dark` colour is kept only when far darker than the board
    (`SHADOW_FLOOR`), or unlike the board's hue and in a part thicker than `band_px`; where
    only low pieces lie (`low`, `low_places`), one that dark is a dark colour whatever its hue.
    Where only glass lies (`glass`: 1 there), every pixel is named by what it passes of the board's
    light (`glass_colour`, among `glass_chroma`'s colours). `grey_print`: print's colours, which
    then name no pixel of a hue (`PRINT_HUE`): one lighter than its colour is a pale colour,
    named by its hue's direction; one darker is a piece's side in its own shade, named its lit
    side's colour where that is beside it and its hue points that way. `pixels`: the mask's,
    when worked out already."""
    if pixels is None:
        pixels = MaskPixels.of(bgr, mask)
    rows, cols, features = pixels.rows, pixels.cols, pixels.features
    bare_lab = np.clip(background_lab[rows, cols], 0, 255).astype(np.uint8)[None]
    bare = shade_free(cv2.cvtColor(bare_lab, cv2.COLOR_LAB2BGR)[0]) if rows.size else np.zeros((0, 4))
    to_colours = distances(features, choices)  # |f|^2 left out, as of the board's below
    colour = to_colours.argmin(axis=-1)
    # The colours a pixel print does not name may be: those with a hue (not print's, not grey
    # dark plastic's).
    others = np.flatnonzero((off_grey(choices) >= HUE_APART) & ~(dark if dark is not None else False))
    if grey_print is not None and grey_print.any():
        hued = grey_print[colour] & (off_grey(features) >= PRINT_HUE)
        if hued.any() and others.size:
            at = np.flatnonzero(hued)
            to = others[nearest_hue(features[at], choices[others])]
            # Print's black with a hue is a piece's side in its own shade, lit by the board and
            # the sky, not the lamp: its hue says it is no ink, not whose it is. It is the colour
            # most of the pieces' pixels beside it are named (its lit side's), where any are;
            # white with a hue is a pale colour, named by its hue's direction.
            shade = choices[colour[at], 3] < choices[to, 3]
            if shade.any():
                painted = ~grey_print[colour]
                counts = np.zeros((others.size, at.size), np.float32)
                for i, c in enumerate(others):
                    mine = np.zeros(mask.shape, np.float32)
                    mine[rows[painted & (colour == c)], cols[painted & (colour == c)]] = 1
                    counts[i] = cv2.boxFilter(mine, -1, (5, 5), normalize=False)[rows[at], cols[at]]
                beside = counts.argmax(axis=0)
                lit = counts.max(axis=0) > 0
                agree = lit & (others[beside] == to)
                at, to = at[~shade | agree], to[~shade | agree]
            colour[at] = to
    to_board = np.einsum("pf,pf->p", bare, bare - 2.0 * features)
    kept = to_colours[np.arange(colour.size), colour] < to_board
    if lighter_reach_px > 0:  # no shadow: a light emblem or frame blurred into its tile
        colours = np.zeros(mask.shape, np.uint8)
        colours[rows[kept], cols[kept]] = 1
        reach = 2 * lighter_reach_px + 1
        beside = cv2.dilate(colours, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
        kept |= (features[:, 3] > LIGHTER * bare[:, 3]) & (beside[rows, cols] > 0)
    if dark is not None:  # the board in a shadow is no black piece: black is far darker
        bare_total = bare[:, 3] / LIGHTNESS_WEIGHT
        darker = features[:, 3] / LIGHTNESS_WEIGHT < SHADOW_FLOOR * bare_total
        # Glossy dark plastic under a lamp is lighter than that, but of its own hue, not the
        # board's: kept where it is thicker than a blur's band (a green gem's shaded rim blurred
        # into a purple mat is as grey).
        rescued = kept & dark[colour] & ~darker & unlike_the_board(features, bare, choices[colour])
        if band_px > 1 and rescued.any():
            dark_here = rescued | (kept & dark[colour] & darker)
            grid = np.zeros(mask.shape, np.uint8)
            grid[rows[dark_here], cols[dark_here]] = 1
            round_band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (band_px, band_px))
            rescued &= cv2.morphologyEx(grid, cv2.MORPH_OPEN, round_band)[rows, cols] > 0
        kept &= ~dark[colour] | darker | rescued
        if dark.any() and low is not None:
            # Far darker than a low piece's shadow lets the board be, whatever its hue: dark
            # plastic mirroring the board (a glossy black gem on a tan mat has the mat's hue).
            deep = ~kept & darker & (low[rows, cols] > 0)
            if deep.any():
                darks = np.flatnonzero(dark)
                colour[deep] = darks[to_colours[np.ix_(np.flatnonzero(deep), darks)].argmin(axis=-1)]
                kept |= deep
    if glass is not None and glass_chroma is not None and dark is not None:
        through = glass[rows, cols] > 0
        if through.any():
            board = cv2.cvtColor(bare_lab, cv2.COLOR_LAB2BGR)[0][through]
            colour[through] = glass_colour(
                *passed(bgr[rows[through], cols[through]], board), glass_chroma, dark
            )
            kept |= through  # the board in a shadow too, for now: the blob it is in says which
    return Named(rows[kept], cols[kept], features[kept], colour[kept], to_board[kept])


MIXED = 0.5
"""A pixel more than this much covered by a piece is the piece's (its edge, blurred)."""
THICK_CORE_PX = 2.0
"""A core this deep somewhere has pixels wholly piece all through it: the nearest is then the
piece's colour as lit there; a thinner core's only sure pixel is its innermost."""
MIX_FIT = 0.12
"""...when it is a mix of that piece's colour and the bare board's within this share of its
own light (linear): a blurred edge is such a mix, a shadow or another colour is not."""
PARALLEL = 0.98
"""A piece's colour and the board's this alike in direction (the cosine of their linear RGB) say
nothing of how much of a pixel each covers: a shadow is a mix of the board with black."""


def with_blurred_edges(
    named: Named,
    bgr: np.ndarray,
    background_lab: np.ndarray,
    mask: np.ndarray,
    chromatic: np.ndarray,
    band_px: int,
) -> Named:
    """The pixels named, each piece's blurred edge judged as the lens makes it: a mix, in linear
    light, of the piece's colour and the bare board's. A pixel of the mask within `band_px` of a
    piece's core (its pixels named a `chromatic` colour with neighbours all round named the
    same), itself no core and not named a dark or print colour, is unmixed into the colour of
    each colour's nearest core pixel and the bare board's there (p = a c + g b, least squares);
    where one explains it (`MIX_FIT`, the best), it is that piece's where more than half covered
    by it (`MIXED`), else the board's. Naming by nearness in hue could not tell: a dark piece's
    half-covered edge on a light board has the board's hue (a 10 mm gem showed a third of its
    area, a meeple half), and a red piece's edge on a green board is yellow, as red and green
    light mixed are."""
    own = chromatic[named.colour]
    if band_px < 1 or not own.any():
        return named
    colour_at = colour_map(named, mask.shape)
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    # Each colour's cores, within the box its pixels span (a blur's band round it): a frame's
    # pieces cover a small part of the board.
    boxes: dict[int, tuple[slice, slice, np.ndarray]] = {}
    for k in np.unique(named.colour[own]):
        mine = named.colour == k
        r0, r1 = max(int(named.rows[mine].min()) - band_px - 1, 0), int(named.rows[mine].max()) + band_px + 2
        c0, c1 = max(int(named.cols[mine].min()) - band_px - 1, 0), int(named.cols[mine].max()) + band_px + 2
        window = (slice(r0, r1), slice(c0, c1))
        core = cv2.erode((colour_at[window] == k).astype(np.uint8), cross)
        if core.any():
            boxes[int(k)] = (*window, core)
    if not boxes:
        return named
    any_core = np.zeros(mask.shape, bool)
    for window_rows, window_cols, core in boxes.values():
        any_core[window_rows, window_cols] |= core > 0
    open_to = (colour_at < 0) | np.isin(colour_at, np.flatnonzero(chromatic))
    reach = cv2.dilate(
        any_core.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band_px + 1,) * 2)
    )
    rows, cols = np.nonzero((mask > 0) & ~any_core & (reach > 0) & open_to)
    if not rows.size:
        return named
    p = linear_light(bgr[rows, cols])
    bare_bgr = cv2.cvtColor(
        np.clip(background_lab[rows, cols], 0, 255).astype(np.uint8)[None], cv2.COLOR_LAB2BGR
    )[0]
    b = linear_light(bare_bgr)
    light = np.linalg.norm(p, axis=1)
    best = np.full(rows.size, np.inf)
    cover = np.zeros(rows.size)
    chosen = np.full(rows.size, -1, np.int64)
    for k, (window_rows, window_cols, core) in boxes.items():
        inside = np.flatnonzero(
            (rows >= window_rows.start)
            & (rows < window_rows.start + core.shape[0])
            & (cols >= window_cols.start)
            & (cols < window_cols.start + core.shape[1])
        )
        if not inside.size:
            continue
        here_rows, here_cols = rows[inside] - window_rows.start, cols[inside] - window_cols.start
        apart, core_rows, core_cols, to_core = core_pixel_for(core, here_rows, here_cols)
        c = linear_light(bgr[core_rows[to_core] + window_rows.start, core_cols[to_core] + window_cols.start])
        a, g, misfit, apart_enough = unmixed(p[inside], c, b[inside])
        apart_enough &= apart[here_rows, here_cols] <= band_px
        fits = apart_enough & (g >= 0) & (misfit <= MIX_FIT * light[inside]) & (misfit < best[inside])
        best[inside[fits]], cover[inside[fits]], chosen[inside[fits]] = misfit[fits], a[fits], k
    mixed = chosen >= 0
    if not mixed.any():
        return named
    grid = colour_at.copy()
    grid[rows[mixed], cols[mixed]] = np.where(cover[mixed] > MIXED, chosen[mixed], -1)
    kept_rows, kept_cols = np.nonzero(grid >= 0)
    old = np.full(mask.shape, -1, np.int64)
    old[named.rows, named.cols] = np.arange(named.rows.size)
    same = old[kept_rows, kept_cols]
    added = same < 0  # an edge named now: its features and distance to the board worked out
    features = np.empty((kept_rows.size, named.features.shape[1]), named.features.dtype)
    features[~added] = named.features[same[~added]]
    features[added] = shade_free(bgr[kept_rows[added], kept_cols[added]])
    to_board = None
    if named.to_board is not None:
        to_board = np.empty(kept_rows.size, named.to_board.dtype)
        to_board[~added] = named.to_board[same[~added]]
        if added.any():
            bare_lab = np.clip(background_lab[kept_rows[added], kept_cols[added]], 0, 255).astype(np.uint8)
            bare = shade_free(cv2.cvtColor(bare_lab[None], cv2.COLOR_LAB2BGR)[0])
            to_board[added] = np.einsum("pf,pf->p", bare, bare - 2.0 * features[added])
    return Named(kept_rows, kept_cols, features, grid[kept_rows, kept_cols], to_board)


def core_pixel_for(
    core: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each pixel (rows, cols) near a colour's cores: how far the nearest core lies, the
    cores' pixels, and which of them stands for the piece there: the nearest, or where its core
    is thinner than `THICK_CORE_PX` (a gem's) the core's innermost, the likeliest wholly piece
    (the core's rim is still part board where the naming reached past the piece's edge)."""
    apart, label = cv2.distanceTransformWithLabels(1 - core, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL)
    core_rows, core_cols = np.nonzero(core)
    count, part = cv2.connectedComponents(core)
    depth = cv2.distanceTransform(core, cv2.DIST_L2, 3)[core_rows, core_cols]
    which = part[core_rows, core_cols]
    order = np.lexsort((depth, which))
    innermost = np.zeros(count, np.int64)
    innermost[which[order]] = order  # the last of each part, its deepest, wins
    index = np.zeros(core_rows.size + 1, np.int64)
    index[label[core_rows, core_cols]] = np.arange(core_rows.size)
    nearest = index[label[rows, cols]]
    deepest = innermost[which[nearest]]
    return apart, core_rows, core_cols, np.where(depth[deepest] < THICK_CORE_PX, deepest, nearest)


def unmixed(
    p: np.ndarray, c: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each pixel p (linear light) as a c + g b, least squares: a and g, what is left over, and
    whether c and b are apart enough in direction to tell (`PARALLEL`)."""
    cc, bb, cb = (c * c).sum(1), (b * b).sum(1), (c * b).sum(1)
    cp, bp = (c * p).sum(1), (b * p).sum(1)
    apart = cb * cb < PARALLEL**2 * cc * bb
    det = np.where(apart, cc * bb - cb * cb, 1.0)
    a = (bb * cp - cb * bp) / det
    g = (cc * bp - cb * cp) / det
    return a, g, np.linalg.norm(p - a[:, None] * c - g[:, None] * b, axis=1), apart


def unlike_the_board(features: np.ndarray, bare: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Whether each pixel's hue (its channels' shares: `shade_free` features) is `HUE_APART` or
    more from the bare board's there and nearer its own colour's (`own`, per pixel): a shadow
    dims the board's light, it leaves the board's hue."""
    mine = hue_of(features)
    off_board = np.abs(mine - hue_of(bare)).sum(axis=1)
    apart: np.ndarray = (off_board >= HUE_APART) & (np.abs(mine - hue_of(own)).sum(axis=1) < off_board)
    return apart


def named_in_their_places(
    named: Named,
    top: TopDown,
    regions: Sequence[Region],
    names: Sequence[str],
    choices: np.ndarray,
    dark: np.ndarray,
    profile: Profile,
    origin: tuple[int, int],
) -> Named:
    """The pixels named, each among the colours that can lie where it is: in a place that holds
    only some kinds (Tower's stall holds a meeple), a pixel named a colour none of them comes in
    is named the nearest colour one of them does, or print's, when it is nearer that than the
    board and a piece with a shaded side of its own stands there (an orange meeple's shaded side
    is no brown material: no material lies there) or a place that holds only flat tiles or cards
    (a card lit evenly is its own colour under this light: a brown lumber token named pink is
    lumber); otherwise it is the board in shade, a flat piece's edge or a shadow, and dropped (a
    dark pixel where no dark piece lies, always, and one renamed a dark colour)."""
    if not any(r.kinds for r in regions):
        return named
    pieces = {n for n in names for k, _ in profile.token_mm if profile.comes_in(k, n)}
    every = np.ones(len(names), bool)
    allowed = np.zeros((named.rows.size, len(names)), bool)
    placed = np.zeros(named.rows.size, bool)
    standing = np.zeros(named.rows.size, bool)  # a place where a piece with a shaded side stands
    tiles = np.zeros(named.rows.size, bool)  # a place that holds only flat tiles or cards
    heights = dict(profile.token_height)
    for region in regions:
        rows, cols, _ = top.window(region)
        inside = (
            (named.rows >= rows.start - origin[0])
            & (named.rows < rows.stop - origin[0])
            & (named.cols >= cols.start - origin[1])
            & (named.cols < cols.stop - origin[1])
        )
        if not region.kinds:
            allowed[inside] = every
        else:
            # Print's colours may lie anywhere.
            comes = {n for n in names for k in region.kinds if profile.comes_in(k, n)} | (set(names) - pieces)
            allowed[inside] |= np.array([n in comes for n in names])
            standing[inside] |= any(heights.get(k, 0.0) > FLAT_MM for k in region.kinds)
            tiles[inside] |= all(k in profile.token_square for k in region.kinds)
        placed |= inside
    allowed[~placed] = every
    wrong = ~allowed[np.arange(named.rows.size), named.colour]
    if not wrong.any():
        return named
    apart = distances(named.features[wrong], choices)
    apart[~allowed[wrong]] = np.inf
    colour = named.colour.copy()
    colour[wrong] = apart.argmin(axis=-1)
    # A dark pixel where no dark piece lies is a shadow or an edge, not a lighter colour's piece;
    # another is kept where a standing piece may show its shaded side, and only when nearer a
    # colour that can lie there than the board, else it is the board in shade.
    kept = ~(wrong & (dark[named.colour] | dark[colour] | ~(standing | tiles)))
    if named.to_board is not None:
        kept[np.flatnonzero(wrong)] &= apart.min(axis=-1) < named.to_board[wrong]
    board = named.to_board[kept] if named.to_board is not None else None
    return Named(named.rows[kept], named.cols[kept], named.features[kept], colour[kept], board)


def lean_mm(place: CameraPlace | None, centre_mm: tuple[float, float], height_mm: float) -> float:
    """How far a standing piece's top is seen from its foot, away from the point under the
    camera (0 when the camera's place is not known)."""
    if place is None or height_mm <= 0 or height_mm >= place.height:
        return 0.0
    away = math.hypot(centre_mm[0] - place.nadir[0], centre_mm[1] - place.nadir[1])
    return away * height_mm / (place.height - height_mm)


Rect = tuple[Sequence[float], Sequence[float], float]
"""A rotated rectangle as `cv2.minAreaRect` gives it: centre, sides, angle (degrees)."""
SILHOUETTE_SHARE = 0.9
"""A piece of a kind has this share of its pixels inside that kind's silhouette where it stands
(a tile's L left uncovered by a priest on it is no round piece; a leaning priest is no tile)."""

TILE_SHOWS = 0.25
"""A tile shows at least this share of itself: a piece standing on it hides less (a 20 mm priest
with its lean on a 25 mm tile hides at most about 70%); a speck whose hull spans a tile is none."""


FILLED = 0.8
"""A part of a tile's colour that, with the piece standing on it, fills this share of a tile's
square is that tile, mostly hidden (`square_covered`; 0.83-1.0 measured where a priest leans
over a tile, the blur and the tile's shadowed edge taking the rest)."""
HIDDEN_TILE_SHOWS = 0.1
"""A tile mostly hidden shows at least this share of itself (a band along one edge)."""


def inside_round(
    rows: np.ndarray, cols: np.ndarray, width_px: float, lean_px: float, away: np.ndarray
) -> float:
    """The share of these pixels inside an upright round piece's silhouette centred on them: its
    foot and its top `lean_px` further along `away` (unit x, y) and the wall between them,
    widened by a tenth and a pixel for the blur and the piece's own size."""
    x, y = cols - cols.mean(), rows - rows.mean()
    t = np.clip(x * away[0] + y * away[1], -lean_px / 2, lean_px / 2)
    reach = width_px / 2 * 1.1 + 1
    return float(np.mean((x - t * away[0]) ** 2 + (y - t * away[1]) ** 2 <= reach * reach))


def inside_square(rows: np.ndarray, cols: np.ndarray, side_px: float, rect: Rect) -> float:
    """The share of these pixels inside a square tile of this side laid on their smallest
    rectangle `rect` (`cv2.minAreaRect`), widened as `inside_round`'s: a tile partly hidden is
    wholly inside."""
    (cx, cy), (w, h), angle = rect
    half = side_px / 2 * 1.1 + 1
    if max(w, h) / 2 <= half:
        return 1.0
    a = math.radians(angle)
    x, y = cols - cx, rows - cy
    along, across = x * math.cos(a) + y * math.sin(a), y * math.cos(a) - x * math.sin(a)
    return float(np.mean((np.abs(along) <= half) & (np.abs(across) <= half)))


def square_misfit(side_mm: float, flat_mm: float, s: float, rect: Rect) -> float:
    """How far (in proportion) a piece covering a disc `flat_mm` wide (its area), whose smallest
    rectangle is `rect`, is from a square tile of this side: by its area, by its narrowest
    width (a square's is its side; an upright round piece's is its own width, its lean
    lengthening it only one way, so that a priest leaning far has a tile's area, never its
    width), and by its longest when longer than the side (a priest 20 mm wide leaning 15 mm is
    35 mm long: no 25 mm tile)."""
    by_area = abs(math.log(max(flat_mm, 1e-3) / (side_mm * SQUARE_WIDTH)))
    narrowest, longest = (min(rect[1]) + 1) / s, (max(rect[1]) + 1) / s
    return max(by_area, abs(math.log(max(narrowest, 1e-3) / side_mm)), math.log(max(longest / side_mm, 1.0)))


def how_each_kind_fits(
    rows: np.ndarray,
    cols: np.ndarray,
    kinds: dict[str, float],
    seen: dict[str, float],
    profile: Profile,
    s: float,
    place: CameraPlace | None,
    centre: tuple[float, float],
) -> tuple[dict[str, float], dict[str, bool]]:
    """For each kind, how far a piece of these pixels is from it in proportion (`round_misfit`,
    `square_misfit`), and whether it has its shape: squarish and solid (`compact`; a tile with
    a piece on it by its hull) and nine tenths of it inside the kind's silhouette where it stands
    (`inside_round`, `inside_square`). A kind whose size is far off is not looked at closely."""
    heights, oblong = dict(profile.token_height), dict(profile.token_depth)
    away = np.array(centre) - (place.nadir if place is not None else centre)
    away = away / max(float(np.hypot(*away)), 1e-9)
    solid = compact(rows, cols)
    tiled = any(n in profile.token_square for n in kinds)
    outline: tuple[np.ndarray, Rect] | None = None  # its hull and smallest rectangle, once
    misfit: dict[str, float] = {}
    shaped: dict[str, bool] = {}
    for n, width in kinds.items():
        near = size_error(n, width, seen[n], profile) <= MAX_SIZE_ERROR
        if n in oblong:  # as narrow as one end on, but no smaller than its footprint
            near = near and 2 * math.sqrt(rows.size / math.pi) / s >= (1 - MAX_SIZE_ERROR) * width
        if n in profile.token_square:
            side = width / SQUARE_WIDTH
            if not near:
                misfit[n], shaped[n] = abs(math.log(max(seen[n], 1e-3) / width)), False
                continue
            hull, rect = outline = outline or hull_and_rect(rows, cols)
            misfit[n] = square_misfit(side, seen[n], s, rect)
            shaped[n] = (
                rows.size >= TILE_SHOWS * (side * s) ** 2
                and (solid or compact(rows, cols, hull_area(hull)))
                and inside_square(rows, cols, side * s, rect) >= SILHOUETTE_SHARE
            )
        else:
            lean = lean_mm(place, centre, heights.get(n, 0.0))
            narrow, wide = across_range(n, width, profile)
            misfit[n] = round_misfit(width, seen[n], rows.size / s**2, lean, narrow, wide)
            # Squarish but for its lean: a standing piece is seen longer by its lean, away from
            # the point under the camera (not a strip lying any other way); not where a tile may
            # lie too, whose part a piece leaves uncovered may be as long (Am'harb's spaces).
            # An oblong one may stand end on: its footprint alone is width by depth along its lean.
            stretch = (width + lean) / oblong[n] if n in oblong else 1 + lean / width
            upright = solid or (lean > 0 and not tiled and leaning(rows, cols, away, stretch))
            shaped[n] = (
                near and upright and inside_round(rows, cols, wide * s, lean * s, away) >= SILHOUETTE_SHARE
            )
            if shaped[n] and tiled:  # a tile may lie here: no round piece has corners
                hull, rect = outline = outline or hull_and_rect(rows, cols)
                (_, _), (w, h), _ = rect
                fill = hull_area(hull) / ((w + 1) * (h + 1))
                shaped[n] = fill <= round_fill(width, lean) + ROUND_CORNERS + 1 / (width * s)
    return misfit, shaped


def hull_and_rect(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, Rect]:
    """The hull round these pixels (`cv2.convexHull` of their x, y) and its smallest rectangle."""
    hull = cv2.convexHull(np.column_stack([cols, rows]).astype(np.int32))
    return hull, cv2.minAreaRect(hull)


ROUND_CORNERS = 0.03
"""A round piece's hull fills its smallest rectangle no more than a disc drawn out by its lean
does (`round_fill`), give or take this and one pixel's share of its width: a digital disc's
corners fill more of its box the fewer pixels it spans (simulated, blurred and thresholded
anyhow: at most pi/4 + 0.15 at 8 px across, + 0.11 at 10, + 0.08 at 16-20, + 0.06 at 24),
and a square tile fills it nearly whole (at least 0.92 from 16 px across; 0.85-0.90 at 10-12,
where corners tell nothing). A tile whose light frame and outer band read as board shows its
inner square, as wide as a priest: by its corners it is no priest."""


def round_fill(width: float, lean: float) -> float:
    """The share of its smallest rectangle a round piece `width` wide whose top is seen `lean`
    beyond its foot covers (a disc, pi/4, drawn out into a stadium by the lean)."""
    r = width / 2
    return (math.pi * r * r + 2 * r * lean) / (2 * r * (2 * r + lean))


def others_of(
    part: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A part's pixels and the rest of its blob's (rows, columns of each)."""
    others = np.ones(rows.size, bool)
    others[part] = False
    return rows[part], cols[part], rows[others], cols[others]


def round_shaped(shaped: dict[str, bool], profile: Profile) -> bool:
    """Whether a part has some round kind's shape (`how_each_kind_fits`)."""
    return any(ok for n, ok in shaped.items() if n not in profile.token_square)


def standing_on_a_tile(shaped: dict[str, bool], profile: Profile) -> dict[str, bool]:
    """The shapes of a part that stands on a tile (it fills a tile's square with what shows of
    that tile): a round piece, when it has a round kind's shape (a yellow priest on a red tile
    is no yellow tile: tiles do not lie on tiles)."""
    if not round_shaped(shaped, profile):
        return shaped
    return {n: ok and n not in profile.token_square for n, ok in shaped.items()}


def as_hidden_tile(
    kinds: dict[str, float],
    seen: dict[str, float],
    misfit: dict[str, float],
    shaped: dict[str, bool],
    filled: float,
    shows_px: int,
    profile: Profile,
    s: float,
) -> tuple[dict[str, float], dict[str, float], dict[str, bool]]:
    """A part of a tile's colour that, with the piece standing on it, fills a tile's square
    (`filled`, `square_covered`) is that tile mostly hidden, when it is no round piece itself
    (a yellow priest on a red tile fills the tile's square too): seen the tile's size, as well
    as it fills the square, if it shows at least HIDDEN_TILE_SHOWS of it."""
    if round_shaped(shaped, profile):
        return seen, misfit, shaped
    seen, misfit, shaped = dict(seen), dict(misfit), dict(shaped)
    for n in kinds:
        if n in profile.token_stood_on:
            seen[n] = kinds[n] * math.sqrt(filled)
            misfit[n] = -math.log(filled)
            shaped[n] = shows_px >= HIDDEN_TILE_SHOWS * (kinds[n] / SQUARE_WIDTH * s) ** 2
    return seen, misfit, shaped


def standing_area(width_mm: float, lean: float) -> float:
    """What a standing piece whose footprint is a disc `width_mm` wide (or has its area) covers
    seen from above with its top `lean` mm beyond its foot: the disc and a band `lean` long."""
    return math.pi * (width_mm / 2) ** 2 + width_mm * lean


def round_misfit(
    width_mm: float,
    across_mm: float,
    area_mm2: float,
    lean: float,
    narrow: float | None = None,
    wide: float | None = None,
) -> float:
    """How far (in proportion) a piece seen `across_mm` wide across its lean, covering
    `area_mm2`, is from a standing piece whose footprint has the area of a disc `width_mm` wide
    and whose top leans `lean` mm: its foot, its top and the side wall between them cover that
    disc and a band `lean` long. Across its lean it is `width_mm` wide if round, or anywhere from
    `narrow` to `wide` (`across_range`: an oblong one turned any way)."""
    expected = standing_area(width_mm, lean)
    across = max(across_mm, 1e-3)
    off = max(math.log((narrow or width_mm) / across), math.log(across / (wide or width_mm)), 0.0)
    return max(off, abs(math.log(max(area_mm2, 1e-3) / expected)) / 2)


def likeliest_kind(
    kinds: dict[str, float],
    seen: dict[str, float],
    misfit: dict[str, float],
    shaped: dict[str, bool],
    colour: str,
    profile: Profile,
) -> tuple[str, float, bool]:
    """The kind a piece of this colour, these seen widths (`seen`, for the tolerance), misfits
    (`misfit`, for the choice) and shapes (`shaped`: whether it has each kind's shape) is, its
    size's relative error, and whether it fits. A kind whose size and shape fit, among those
    that come in this colour when one of them is of about this size (a green piece is no
    resource tile when resource tiles are red, yellow and blue); among several, or when none
    fits, the one it misfits least (in proportion: 12 and 20 mm meet at 15.5, not 15)."""

    def error(kind: str) -> float:
        return size_error(kind, kinds[kind], seen[kind], profile)

    sized = [n for n in kinds if error(n) <= MAX_SIZE_ERROR]
    coloured = [n for n in sized if (allowed := profile.colours_of(n)) is None or colour in allowed]
    # Another colour's kind only when no kind of this colour is near this size (a blue tile
    # named pink), never for a fragment of the wrong shape for its own colour's kinds.
    fitting = [n for n in (coloured or sized) if shaped[n]]
    kind = min(fitting or kinds, key=lambda n: misfit[n])
    return kind, error(kind), bool(fitting)


def hull_mask(
    rows: np.ndarray, cols: np.ndarray, around: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, int, int]:
    """The hull of these pixels filled in a box round them (or round `around`'s pixels, which
    hold them), and the box's first row and column."""
    box_rows, box_cols = around if around is not None else (rows, cols)
    r0, c0 = int(box_rows.min()), int(box_cols.min())
    box = np.zeros((int(box_rows.max()) - r0 + 1, int(box_cols.max()) - c0 + 1), np.uint8)
    cv2.fillConvexPoly(box, cv2.convexHull(np.column_stack([cols - c0, rows - r0]).astype(np.int32)), 1)
    return box, r0, c0


RIM_HOLDS = 0.5
"""A part whose hull is this much another part of its blob, wholly inside it, is that piece's rim."""


def rim_of_another(
    part: np.ndarray, index: int, parts: list[tuple[int, np.ndarray]], rows: np.ndarray, cols: np.ndarray
) -> bool:
    """Whether a part (pixel indices into its blob) runs round another part of another colour:
    nine tenths of that one under its hull and filling `RIM_HOLDS` of it. A 2 mm card's bevelled
    edge, in shade or blurred with a dark mat, is a darker band all round it (a red card's
    brown) whose hull is the card; a card lying partly under another holds only a corner of it."""
    box, r0, c0 = hull_mask(rows[part], cols[part], (rows, cols))
    hull = int(box.sum())
    for j, (k, other) in enumerate(parts):
        if j == index or k == parts[index][0] or other.size < RIM_HOLDS * hull:
            continue
        if box[rows[other] - r0, cols[other] - c0].sum() >= 0.9 * other.size:
            return True
    return False


def under_hull(rows: np.ndarray, cols: np.ndarray, blob_rows: np.ndarray, blob_cols: np.ndarray) -> int:
    """How many of the blob's pixels lie under the hull of some of them (a tile's, with a piece
    standing on it: what the tile covers, the piece's foot included)."""
    box, r0, c0 = hull_mask(rows, cols, (blob_rows, blob_cols))
    return int(box[blob_rows - r0, blob_cols - c0].sum())


def hull_pixels(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pixels under the hull of these (a base seen round the figure standing on it)."""
    box, r0, c0 = hull_mask(rows, cols)
    inside_rows, inside_cols = np.nonzero(box)
    return inside_rows + r0, inside_cols + c0


def judged_as_figure(
    rows: np.ndarray,
    cols: np.ndarray,
    figures: dict[str, float],
    colour: str,
    profile: Profile,
    s: float,
    place: CameraPlace | None,
    top: TopDown,
    origin: tuple[int, int],
) -> tuple[str, float, bool]:
    """The figure kind (`likeliest_kind`) these pixels are, as a whole (a base and its figure)."""
    footing = top.to_mm(float(cols.mean()) + origin[1], float(rows.mean()) + origin[0])
    across = piece_width(rows, cols, footing, place, s)
    seen = {n: across for n in figures}
    misfit, shaped = how_each_kind_fits(rows, cols, figures, seen, profile, s, place, footing)
    return likeliest_kind(figures, seen, misfit, shaped, colour, profile)


def dark_in_the_middle(
    bgr: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    colours: np.ndarray,
    at: tuple[float, float],
    radius_px: float,
    is_dark: np.ndarray,
    piece_colour: np.ndarray,
    own: int,
) -> bool:
    """Whether a base whose figure is dark plastic shows that figure in its middle (within half its
    radius of where its colour was read): no more pixels there plainly of another piece's colour
    than dark ones (a flat disc of the base's colour, as vision/render.py draws the Watcher, shows
    neither). A figure stands on its base's middle and, seen from above, covers it whatever its
    lean; a red or purple faction figure on a base a lamp turns pink shows its own colour there,
    and so does a faction figure of a colour near the base's on a dark base. Plainly: a chroma of
    twice `HUE_CHROMA` (the least that says a colour has a hue of its own), since dark plastic
    gives back too little light for more than a tint (the light's, or its pink base's reflected)
    and that tint may be named any colour. Path-traced Yuggoth maps: 13 Watchers read, 110-481
    dark pixels in the middle against 0-37 of other colours; 6 faction figures read as Watchers,
    4-142 dark against 121-441 (chroma 36-56); a pinhole Watcher's purple-tinted dark figure,
    chroma 21: 434 dark, none other. Not told apart: a white figure (white has no chroma) on a
    base named pink would count as dark; no such piece was seen named pink."""
    near = (rows - at[0]) ** 2 + (cols - at[1]) ** 2 <= radius_px * radius_px
    middle = colours[near]
    other = piece_colour[middle] & (middle != own)
    lab = cv2.cvtColor(bgr[rows[near], cols[near]][None].astype(np.uint8), cv2.COLOR_BGR2LAB)[0].astype(
        np.float32
    )
    plain = np.hypot(lab[:, 1] - 128.0, lab[:, 2] - 128.0) >= 2 * HUE_CHROMA
    dark = is_dark[middle] | (other & ~plain)
    return int(dark.sum()) >= int((other & plain).sum())


def paint_margin(feature: np.ndarray, choices: np.ndarray, k: int, dark: np.ndarray) -> float:
    """How many times nearer its colour (`choices[k]`) than any `dark` one a colour's features
    are: a figure's painted top is plainly its paint; a speck of a dark piece's own tint (a
    brownish Beast) is only just nearer red than black."""
    apart = ((choices - feature) ** 2).sum(axis=1)
    return float(np.sqrt(apart[dark].min() / max(float(apart[k]), 1e-6)))


def on_a_dark_base(
    part: np.ndarray,
    blob_rows: np.ndarray,
    blob_cols: np.ndarray,
    dark: np.ndarray,
    base_px: float,
) -> bool:
    """Whether a small part of a figure's colour (its head and shoulders seen from above, a
    `FIGURE_TOP` of its base at least) has round it, within its base's reach, dark plastic
    (`dark`: which of its blob's pixels are, not taken by another figure) that with it fills
    half its base: a figure on a dark base, judged with them."""
    if 2 * math.sqrt(part.size / math.pi) < FIGURE_TOP * base_px:
        return False
    cy, cx = float(blob_rows[part].mean()), float(blob_cols[part].mean())
    reach = base_px / 2 + 1
    near = dark & ((blob_rows - cy) ** 2 + (blob_cols - cx) ** 2 <= reach * reach)
    return int(near.sum()) + part.size >= 0.5 * math.pi * (base_px / 2) ** 2


def round_dark(part: np.ndarray, blob_rows: np.ndarray, blob_cols: np.ndarray, dark: np.ndarray) -> bool:
    """Whether what the hull of a part (indices into its blob's pixels) holds of the rest of its
    blob is mostly dark (`dark`: for each of the blob's pixels): a base round its dark figure,
    not a fringe of one colour round a piece of another."""
    box, r0, c0 = hull_mask(blob_rows[part], blob_cols[part], (blob_rows, blob_cols))
    inside = box[blob_rows - r0, blob_cols - c0].astype(bool)
    inside[part] = False
    return bool(inside.any() and dark[inside].mean() >= 0.5)


def fringe(rows: np.ndarray, cols: np.ndarray, s: float) -> bool:
    """Whether every one of these pixels lies within `FRINGE_MM` of their outline's edge: the
    rim a piece's edge leaves where it mixes with the board, not a piece."""
    box = np.zeros((int(np.ptp(rows)) + 3, int(np.ptp(cols)) + 3), np.uint8)
    box[rows - rows.min() + 1, cols - cols.min() + 1] = 1
    return bool(cv2.distanceTransform(box, cv2.DIST_L2, 3).max() < FRINGE_MM * s)


def hull_width(rows: np.ndarray, cols: np.ndarray, s: float) -> float:
    """The width (mm, as a disc of its area) of the hull round these pixels."""
    hull = cv2.convexHull(np.column_stack([cols, rows]).astype(np.int32))
    return 2 * math.sqrt(hull_area(hull) / math.pi) / s


def hull_area(hull: np.ndarray) -> float:
    """The area (px) of a hull round some pixels (`cv2.convexHull` of their x, y): how much of its
    box a tile covers, with a piece standing on it hiding part of it."""
    return float(cv2.contourArea(hull) + cv2.arcLength(hull, True) / 2 + 1)  # pixels, not centres


@dataclass(frozen=True)
class PiecesView:
    """Where pieces are in the token regions: the bare board under this frame's light (Lab),
    the pixels unlike it (1) inside the regions, and where these lie in the top-down view."""

    background: np.ndarray
    mask: np.ndarray
    origin: tuple[int, int]
    """Row and column of the first pixel in the top-down view."""
    pixels: MaskPixels
    """The mask's pixels and their features, named once for the palette and the tokens."""
    lab: np.ndarray
    """The view itself in Lab (float), as compared with `background`."""

    @cached_property
    def index_at(self) -> np.ndarray:
        """Each pixel's index among `pixels` (-1 outside the mask), for their features."""
        at = np.full(self.mask.shape, -1, np.int32)
        at[self.pixels.rows, self.pixels.cols] = np.arange(self.pixels.rows.size, dtype=np.int32)
        return at

    @cached_property
    def parts(self) -> tuple[int, np.ndarray, np.ndarray]:
        """The mask's connected parts (count, labels, stats), worked out once a frame."""
        count, labels, stats, _ = cv2.connectedComponentsWithStats(self.mask)
        return count, labels, stats


def on_the_board(profile: Profile) -> bool:
    """Whether the token regions lie on the board itself, whose bare surface round a piece a
    median sees (`LIGHTER`, the second look at the bare board), not on a tower's top, a few
    centimetres of it mostly under its pieces: there each cost Arkhanos's meeples 2-4 of 125
    (pinhole tables, seeds 100-119)."""
    return all(r.height == 0 for r in profile.regions if r.holds == "tokens")


def pieces_view(top: TopDown, profile: Profile, empty: np.ndarray | None = None) -> PiecesView:
    """The pixels unlike the bare board in the profile's token regions. The bare board is the
    empty board seen at calibration, relit (vision/reference.py), else a wide median round
    each pixel."""
    windows = [top.window(r) for r in profile.regions if r.holds == "tokens"]
    r0, r1 = min(w[0].start for w in windows), max(w[0].stop for w in windows)
    c0, c1 = min(w[1].start for w in windows), max(w[1].stop for w in windows)
    pixels = top.lab(slice(r0, r1), slice(c0, c1))
    inside = np.zeros(pixels.shape[:2], np.uint8)
    for window_rows, window_cols, _ in windows:
        inside[
            window_rows.start - r0 : window_rows.stop - r0, window_cols.start - c0 : window_cols.stop - c0
        ] = 1
    # The median must look wide enough that the largest piece covers under half of it (a 50 mm
    # Watcher would be its own background), not so wide that a card passes for a piece. Against
    # the empty board, only the pieces differ from it: the light's difference is matched wider, so
    # that a 45 mm Beast leaning beyond its base among Scouts does not relight its own place.
    widest = max(kind_sizes(profile).values())
    span, board = max(50.0, 1.5 * widest), on_the_board(profile)
    if empty is not None:
        reference = cv2.cvtColor(empty[r0:r1, c0:c1], cv2.COLOR_BGR2LAB).astype(np.float32)
        background = relit(reference, pixels, top.px_per_mm, max(REFERENCE_SPAN_MM, 2.5 * widest))
    else:
        background = local_background(pixels, top.px_per_mm, span, inside if board else None)
    open_px = max(3, int(round(2.5 * top.px_per_mm)) | 1)
    mask = foreground(pixels, background, threshold=FOREGROUND, open_px=open_px) & inside
    if empty is None and board:
        # Again without what was found on it: pieces covering much of a corner's places (a tile
        # by the board's edge) pulled the median of the bare board there towards their colour.
        grown = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (open_px, open_px))) > 0
        background = local_background(pixels, top.px_per_mm, span, (inside > 0) & ~grown)
        mask = foreground(pixels, background, threshold=FOREGROUND, open_px=open_px) & inside
    return PiecesView(background, mask, (r0, c0), MaskPixels.of(top.image[r0:r1, c0:c1], mask), pixels)


def colours_read(
    profile: Profile, palette: Palette
) -> tuple[Palette, tuple[str, ...] | None, tuple[str, ...]]:
    """The palette with the game's own colours (brown lumber) unless calibrated, the colours
    pieces are named among (the players', those of kinds with colours of their own such as
    resource tiles, and print's; None: all), and print's among them."""
    players = profile.piece_colours
    every = (*(players or ()), *(c for _, kind_colours in profile.token_colours for c in kind_colours))
    known = {name for name, _ in palette.colours}
    for name, sample in profile.colours:
        palette = palette if name in known else palette.with_sample(name, sample)
    printed = tuple(c for c in PRINT_COLOURS if c not in every and c in {n for n, _ in palette.colours})
    return palette, (tuple(dict.fromkeys(every + printed)) if players is not None else None), printed


def palette_here(
    top: TopDown, profile: Profile, palette: Palette, empty: np.ndarray | None = None
) -> tuple[Palette, PiecesView]:
    """The palette as this frame's pieces show its colours (`as_seen_here`: the markers' paper
    balances the light over the table, not the light round each piece), and where the pieces
    are, for `read_tokens`. The stacks are named by it too: their discs are the same players'."""
    view = pieces_view(top, profile, empty)
    palette, among, printed = colours_read(profile, palette)
    names, choices = palette.features(among)
    movable = np.array([n not in printed and n not in DARK_PLASTIC and palette.has_hue(n) for n in names])
    r0, c0 = view.origin
    bgr = top.image[r0 : r0 + view.mask.shape[0], c0 : c0 + view.mask.shape[1]]
    smallest = min(kind_sizes(profile).values(), default=0.0) * top.px_per_mm
    seen = as_seen_here(bgr, view.background, view.mask, choices, movable, smallest, view.pixels)
    unpainted = np.array([n in printed or n in DARK_PLASTIC for n in names])
    seen = tiles_seen_here(view, profile, names, seen, unpainted, top)
    return palette.as_seen(names, seen), view


LONE_TILE = 0.15
"""A blob is a lone tile when its smallest rectangle's sides are within this share of the tile's
side and it fills that rectangle nearly whole (`FILLED`)."""


def squared(rows: np.ndarray, cols: np.ndarray, side_px: float) -> bool:
    """Whether these pixels' outline is a tile's square of this side: its smallest rectangle's
    sides within `LONE_TILE` of it, and its hull filling that rectangle more than halfway from a
    disc's pi/4 to a square's 1 (a piece standing on the tile bites into it, not into its hull)."""
    if rows.size < 3:
        return False
    hull, ((_, _), (w, h), _) = hull_and_rect(rows, cols)
    sides = all(abs(v + 1 - side_px) <= LONE_TILE * side_px for v in (w, h))
    return sides and hull_area(hull) >= (1 + math.pi / 4) / 2 * (w + 1) * (h + 1)


def tiles_seen_here(
    view: PiecesView,
    profile: Profile,
    names: Sequence[str],
    choices: np.ndarray,
    printed: np.ndarray,
    top: TopDown,
) -> np.ndarray:
    """The colours only tiles come in (Am'harb's red resource tiles) as this frame's lone tiles
    show them. A tile is known by its shape whatever its colour: a flat square of the profile's
    side, alone in its blob, in a place where any kind may lie (a place of cards only names its
    cards among their colours already: `named_in_their_places`). Each such square is named among
    the tiles' own colours only (a red tile under a warm lamp is salmon, nearer a pale pink
    player's colour than red: split between the two, it was read as neither), and a colour no
    other kind comes in is moved to its squares' median. One square is evidence enough: no piece
    of another kind is a flat square of that side (its hull fills its rectangle more than halfway
    from a disc's pi/4 to a square's 1), and as with `as_seen_here` it moves a colour no farther
    than `SEEN_REACH`, by the square's pixels nearer a piece's colour than print's or dark
    plastic's (`printed`: its emblem is print). A colour the players' pieces come in too is left
    to them (`as_seen_here`): the tiles are printed card, the pieces painted wood."""
    square_kinds = [k for k in profile.token_square if profile.colours_of(k)]
    others = {c for k, _ in profile.token_mm if k not in square_kinds for c in profile.colours_of(k) or ()}
    others |= set(profile.piece_colours or ())
    tile_colours = [i for i, n in enumerate(names) if any(profile.comes_in(k, n) for k in square_kinds)]
    if not any(names[i] not in others for i in tile_colours):
        return choices
    s, (r0, c0) = top.px_per_mm, view.origin
    side = max(w for k, w in profile.token_mm if k in square_kinds) * s
    regions = [r for r in profile.regions if r.holds == "tokens"]
    boxes = np.array([(min(xs), min(ys), max(xs), max(ys)) for xs, ys in (zip(*r.polygon) for r in regions)])
    _, labels, stats = view.parts
    areas = stats[:, cv2.CC_STAT_AREA]
    sized = np.flatnonzero(
        (((1 - LONE_TILE) * side) ** 2 <= areas) & (areas <= ((1 + LONE_TILE) * side) ** 2)
    )
    sized = sized[sized > 0]
    if not sized.size:
        return choices
    inner = cv2.erode(view.mask, np.ones((5, 5), np.uint8))
    found: dict[int, list[np.ndarray]] = {}
    for c in sized:
        rows, cols = part_pixels(labels, stats, int(c))
        mine = view.index_at[rows, cols]
        points = np.stack([cols, rows], axis=1).astype(np.float32)
        (cx, cy), (w, h), _ = cv2.minAreaRect(points)
        region = region_at(top.to_mm(cx + c0, cy + r0), regions, boxes)
        if region is None or region.kinds:
            continue  # a place of cards only names its cards among their colours already
        square = all(abs(v + 1 - side) <= LONE_TILE * side for v in (w, h))
        if not square or mine.size < (1 + math.pi / 4) / 2 * (w + 1) * (h + 1):
            continue
        body = view.pixels.features[mine[inner[rows, cols] > 0]]
        body = body[~printed[nearest(body, choices)]]
        if body.shape[0] < 4:
            continue
        own = nearest(body, choices[tile_colours])
        k = int(np.bincount(own).argmax())
        found.setdefault(tile_colours[k], []).append(np.median(body[own == k], axis=0))
    seen = choices.copy()
    for i, shown in found.items():
        if names[i] in others:
            continue  # a player's colour too: the players' pieces say how it looks (`as_seen_here`)
        moved = np.median(np.array(shown), axis=0)
        if SEEN_SHIFT <= np.linalg.norm(moved - choices[i]) <= SEEN_REACH:
            seen[i] = moved
    return seen


def as_their_discs(
    palette: Palette, outlines: Sequence[StackOutline], sides: dict[str, str], profile: Profile
) -> Palette:
    """The palette with each side's colour (`sides_colours`) as its discs show it (the median of
    their lit faces), where the players' other pieces are of the same stuff and colour (a
    player's priests are painted as their discs) and nothing else comes in it: a yellow shared
    with printed resource tiles is left to the tiles' own evidence (a warm lamp turns yellow
    discs orange, and a red tile would be named yellow). A colour seen nearer its palette's
    than SEEN_SHIFT is left as it is; so is one whose discs show no hue (`has_a_hue`): a grey
    blob of print in a disc location is no evidence of how a lamp shows pink, nor are pink discs
    washed out by a bright lamp as white as the tiles' printed emblems (named pink, the emblems
    were read as pink pieces)."""
    shared = {c for _, kind_colours in profile.token_colours for c in kind_colours}
    _, among, _ = colours_read(profile, palette)
    names, choices = palette.features(among)
    for side, colour in sides.items():
        if colour in shared or colour not in names:
            continue
        faces = np.median(np.array([o.faces for o in outlines if side_of(o.region) == side]), axis=0)
        shift = np.linalg.norm(shade_free(np.asarray(faces, np.float32)) - choices[names.index(colour)])
        if shift >= SEEN_SHIFT and has_a_hue(faces):
            b, g, r = (int(round(float(v))) for v in faces)
            palette = palette.with_sample(colour, (b, g, r))
    return palette


def read_tokens(
    top: TopDown,
    profile: Profile,
    palette: Palette,
    empty: np.ndarray | None = None,
    place: CameraPlace | None = None,
    view: PiecesView | None = None,
) -> tuple[TokenSighting, ...]:
    """Every piece in every token region. `empty`: the empty board seen the same way
    (vision/reference.py): a piece is then what differs from the board's own print, not from
    the bare board round it. `place`: where the camera is, so that a standing piece's lean is
    not taken for width (`piece_width`). `view`: where the pieces are, when `palette_here`
    has found it already."""
    regions = [r for r in profile.regions if r.holds == "tokens"]
    if not regions:
        return ()
    widths = kind_sizes(profile)
    view = view or pieces_view(top, profile, empty)
    background, mask, (r0, c0) = view.background, view.mask, view.origin
    r1, c1 = r0 + mask.shape[0], c0 + mask.shape[1]
    palette, among, printed = colours_read(profile, palette)
    names, choices = palette.features(among)
    is_print = np.array([n in printed for n in names])
    is_dark = np.array([n in DARK_PLASTIC for n in names])
    lightness = choices[:, 3]  # a glint is print's colour lighter than its piece's
    bgr = top.image[r0:r1, c0:c1]
    smallest = min(widths.values())
    s = top.px_per_mm
    min_area = np.pi * (0.3 * smallest * s) ** 2
    boxes = np.array([(min(xs), min(ys), max(xs), max(ys)) for xs, ys in (zip(*r.polygon) for r in regions)])
    found: list[TokenSighting] = []
    heaps: list[tuple[TokenSighting, int, bool, int]] = []
    others: list[TokenSighting] = []  # pieces not of this game's kinds (a faction's figures)

    # The side (px) of the largest tile each colour comes in (for a tile a piece splits in two),
    # and of one that pieces may stand on; print's colours and dark plastic come in none.
    coloured = [n if not (is_print[i] or is_dark[i]) else "" for i, n in enumerate(names)]
    pieces_colours = {i for i, n in enumerate(coloured) if n}
    untiled = fringed_colours(coloured, profile)
    tile_sides = tile_sides_of(profile.token_square, coloured, profile, s)
    stood_on_sides = tile_sides_of(profile.token_stood_on, coloured, profile, s)
    # The width (px) of the widest base of a figure each colour comes in (its figure parts it).
    base_widths = {
        i: max(w for n, w in widths.items() if n in profile.token_figures and profile.comes_in(n, name)) * s
        for i, name in enumerate(coloured)
        if name and any(profile.comes_in(n, name) for n in profile.token_figures)
    }
    glass = glass_places(top, regions, profile, (r0, c0), mask.shape) if profile.token_glass else None
    glass_kinds_colours = {c for n in profile.token_glass for c in profile.colours_of(n) or names}
    glass_chroma = glass_chroma_of(palette, names, sorted(glass_kinds_colours)) if glass is not None else None
    named = named_in_their_places(
        nearer_a_colour(
            bgr,
            background,
            mask,
            choices,
            is_dark & ~is_print,
            round(LIGHTER_REACH_MM * s) if on_the_board(profile) else 0,
            view.pixels,
            max(3, round(FRINGE_MM * s) | 1),
            low_places(top, regions, profile, (r0, c0), mask.shape),
            glass,
            glass_chroma,
            None if profile.token_figures else is_print if empty is not None else is_print & is_dark,
        ),
        top,
        regions,
        names,
        choices,
        is_dark,
        profile,
        (r0, c0),
    )
    if empty is not None:  # the bare board measured, not a median round the piece pulled by it
        named = with_blurred_edges(
            named, bgr, background, mask, ~(is_dark | is_print), round(FRINGE_MM * s) + 1
        )
    pieces = np.zeros_like(mask)
    pieces[named.rows, named.cols] = 1
    heights = dict(profile.token_height)
    # For each colour a tile that pieces stand on comes in, the standing round kinds of it too
    # (a blue priest on a blue tile is one blob with it).
    on_own_colour = {
        i: {
            n: (w, heights.get(n, 0.0))
            for n, w in profile.token_mm
            if n not in profile.token_square and heights.get(n, 0.0) > FLAT_MM and profile.comes_in(n, name)
        }
        for i, name in enumerate(coloured)
        if name and any(profile.comes_in(t, name) for t in profile.token_stood_on)
    }
    # Which colour may be which one's side turned to the light, among the pieces' own colours
    # (print's white is an emblem's, a label's: no lit side).
    piece_colour = np.array(coloured) != ""
    lit = lit_sides(np.array([dict(palette.colours)[n] for n in names])) & np.outer(
        piece_colour, piece_colour
    )
    # ...and of those whose base may be dark plastic, the colour on the figure alone.
    dark_based = {
        i: max((widths[n], n) for n in profile.token_dark_based if profile.comes_in(n, name))
        for i, name in enumerate(coloured)
        if name and any(profile.comes_in(n, name) for n in profile.token_dark_based)
    }
    has_dark_kinds = any(only_dark(profile.colours_of(n)) for n in widths)
    faint = (
        faintly_unlike(view.lab, background, top, regions, (r0, c0))
        if dark_based or has_dark_kinds
        else np.zeros_like(mask)
    )
    lone_tops: list[tuple[str, str, float, float]] = []
    count, labels, stats, _ = cv2.connectedComponentsWithStats(pieces)
    # Every blob's pixels at once, grouped by blob, each with its nearest colour.
    ids = labels[named.rows, named.cols]
    order = np.argsort(ids, kind="stable")
    rows, cols, ids = named.rows[order], named.cols[order], ids[order]
    features, colour_index = named.features[order], named.colour[order]
    starts = np.searchsorted(ids, np.arange(count + 1))
    base_fill: np.ndarray | None = None  # made when a small painted top first asks for it
    for c in range(1, count):
        if stats[c, cv2.CC_STAT_AREA] < min_area:
            if dark_based:
                blob = slice(starts[c], starts[c + 1])
                top_of = small_painted_top(
                    colour_index[blob], features[blob], choices, is_dark, dark_based, s
                )
                if top_of is not None:
                    k, part = top_of
                    if base_fill is None:
                        base_fill = faint_base_fill(faint | mask, max(w for w, _ in dark_based.values()) * s)
                    cy, cx = float(rows[blob][part].mean()), float(cols[blob][part].mean())
                    base = fitted_base(base_fill, cy, cx, dark_based[k][0] * s)
                    if base is not None:  # read where its base is: it leans over it
                        lone_tops.append((dark_based[k][1], names[k], base[1], base[0]))
            continue
        blob = slice(starts[c], starts[c + 1])
        blob_rows, blob_cols, blob_features = rows[blob], cols[blob], features[blob]
        blob_colours = colour_index[blob]
        one_gem = False
        if glass is not None and glass_chroma is not None and glass[blob_rows, blob_cols].all():
            board = cv2.cvtColor(
                np.clip(background[blob_rows, blob_cols], 0, 255).astype(np.uint8)[None], cv2.COLOR_LAB2BGR
            )[0]
            gems = max(standing_area(widths[n], 0.0) for n in profile.token_glass) * s * s
            gem, blob_colours, one_gem = as_glass(
                bgr[blob_rows, blob_cols], board, blob_colours, glass_chroma, is_dark, gems
            )
            blob_rows, blob_cols, blob_features = blob_rows[gem], blob_cols[gem], blob_features[gem]
        consumed = np.zeros(blob_colours.size, bool)  # dark pixels taken as a figure's base
        split = pieces_of(blob_rows, blob_cols, blob_colours, is_print, untiled, FRINGE_MM * s)
        parts = sorted(  # darker first (a piece before its lit side), dark plastic last
            parts_made_whole(split, blob_rows, blob_cols, tile_sides, pieces_colours, base_widths),
            key=lambda kp: (bool(is_dark[kp[0]]), lightness[kp[0]]),
        )
        # The square of a tile each part of a stood-on tile's colour fills with the others (a
        # tile mostly hidden under a piece): a round piece with its foot in it stands on that
        # tile, so it is no tile itself.
        squares = [
            square_covered(*others_of(part, blob_rows, blob_cols), stood_on_sides[k])
            if k in stood_on_sides
            and len(parts) > 1
            and part.size >= HIDDEN_TILE_SHOWS * stood_on_sides[k] ** 2  # no speck of a rim
            else None
            for k, part in parts
        ]
        squares = [q if q is not None and q.filled >= FILLED else None for q in squares]
        # A part whose outline is a tile's square by itself is that tile, a piece on it biting
        # into it: no other part is a tile hidden under it (one tile lies on a space).
        a_tile = [
            k in stood_on_sides and squared(blob_rows[part], blob_cols[part], stood_on_sides[k])
            for k, part in parts
        ]
        squares = [
            None if any(w for j, w in enumerate(a_tile) if j != i) else q for i, q in enumerate(squares)
        ]
        for index, (k, part) in enumerate(parts):
            if is_print[k]:
                continue  # a tile's emblem, a label: no piece of this game is of its colour
            part = part[~consumed[part]]
            if not part.size:
                continue
            if lit[k].any() and len(parts) > 1:
                # Its side turned to the light may be named a lighter colour (a red meeple's top
                # pink): joined while the whole is no larger than one piece of its colour there.
                at = top.to_mm(float(blob_cols[part].mean()) + c0, float(blob_rows[part].mean()) + r0)
                here = region_at(at, regions, boxes)
                room = [
                    standing_area(w, lean_mm(place, at, heights.get(n, 0.0))) * s * s
                    for n, w in widths.items()
                    if here is not None
                    and (not here.kinds or n in here.kinds)
                    and profile.comes_in(n, names[k])
                    and heights.get(n, 0.0) > FLAT_MM  # a card or tile lies flat: no side of it is lit apart
                ]
                if room:
                    whole = with_its_lit_side(
                        k, part, parts, blob_rows, blob_cols, lit, consumed, max(room) * (1 + MAX_SIZE_ERROR)
                    )
                    consumed[whole[part.size :]] = True  # its lit side, read with it only
                    part = whole
            width_mm = 2 * math.sqrt(part.size / math.pi) / s
            prows, pcols = blob_rows[part], blob_cols[part]
            if (
                width_mm < 0.6 * smallest
                and not (
                    k in base_widths
                    and part.size >= RING_SHARE * math.pi * (base_widths[k] / 2) ** 2
                    and hull_width(prows, pcols, s) >= 0.6 * smallest
                    and round_dark(part, blob_rows, blob_cols, is_dark[blob_colours])
                )
                and not (
                    k in base_widths
                    and paint_margin(np.median(blob_features[part], axis=0), choices, k, is_dark) >= PAINTED
                    and on_a_dark_base(
                        part, blob_rows, blob_cols, is_dark[blob_colours] & ~consumed, base_widths[k]
                    )
                )
            ):
                if (
                    k in dark_based
                    and a_painted_top(
                        part.size, blob_features[part], choices, k, is_dark, dark_based[k][0] * s
                    )
                    and on_a_faint_base(faint, float(prows.mean()), float(pcols.mean()), dark_based[k][0] * s)
                ):
                    lone_tops.append((dark_based[k][1], names[k], float(pcols.mean()), float(prows.mean())))
                continue  # a speck; but a base shows a ring round its dark figure, its hull the
                # base; and a figure's top on its dark base is judged with it
            cx, cy = float(pcols.mean()), float(prows.mean())
            centre = top.to_mm(cx + c0, cy + r0)
            region = region_at(centre, regions, boxes)
            if region is None:
                continue
            kinds = {n: w for n, w in widths.items() if not region.kinds or n in region.kinds}
            # Across its lean, by its own colour's pixels and its glints (not the board in its
            # shadow): a piece split from others by colour has no other; a whole blob may.
            own_rows, own_cols = prows, pcols
            if part.size == blob_colours.size:
                mine = (blob_colours == k) | (is_print & (lightness > lightness[k]))[blob_colours]
                if 4 <= int(mine.sum()) < mine.size:
                    own_rows, own_cols = blob_rows[mine], blob_cols[mine]
            round_mm = piece_width(own_rows, own_cols, centre, place, s)
            # A round piece by its width across its lean; a flat tile by its area.
            flat_mm = width_mm
            square: Square | None = None
            tiles = any(n in profile.token_square for n in kinds)
            if (
                tiles
                and part.size < blob_colours.size
                and (k in stood_on_sides or not fringe(prows, pcols, s))
            ):
                # A tile with a piece standing on it: the piece hides part of it. (Where no piece
                # stands on a tile, a band a blur wide round a piece is that piece's edge mixed
                # with the board: a red token's rim on a green mat is brownish, no material.)
                if k not in stood_on_sides and rim_of_another(part, index, parts, blob_rows, blob_cols):
                    continue  # a card's shaded edge round it (its bevel, its side): no card
                under = under_hull(prows, pcols, blob_rows, blob_cols)
                flat_mm = 2 * math.sqrt(under / math.pi) / s
                square = squares[index]  # or the square it is part of, the rest under that piece
            seen = {n: flat_mm if n in profile.token_square else round_mm for n in kinds}
            misfit, shaped = how_each_kind_fits(own_rows, own_cols, kinds, seen, profile, s, place, centre)
            if any(
                q is not None and q.holds(prows, pcols).any() for i, q in enumerate(squares) if i != index
            ):
                shaped = standing_on_a_tile(shaped, profile)
            if square is not None:
                seen, misfit, shaped = as_hidden_tile(
                    kinds, seen, misfit, shaped, square.filled, part.size, profile, s
                )
            kind, error, single = likeliest_kind(kinds, seen, misfit, shaped, names[k], profile)
            figures = {n: w for n, w in kinds.items() if n in profile.token_figures}
            if not single and figures and not is_dark[k]:
                # A base of this colour under a figure of another: the base is its outline's hull.
                hull_rows, hull_cols = hull_pixels(own_rows, own_cols)
                kind, error, single = judged_as_figure(
                    hull_rows, hull_cols, figures, names[k], profile, s, place, top, (r0, c0)
                )
            if not single and figures and not is_dark[k]:
                # A figure of this colour on a dark base, or a base under a dark figure: judged
                # with the dark pixels round it, which are then no piece of their own.
                reach = (max(figures.values()) / 2 + 2) * s
                dark = np.flatnonzero(
                    is_dark[blob_colours]
                    & ~consumed
                    & ((blob_rows - cy) ** 2 + (blob_cols - cx) ** 2 <= reach * reach)
                )
                if dark.size:
                    own_rows = np.concatenate([own_rows, blob_rows[dark]])
                    own_cols = np.concatenate([own_cols, blob_cols[dark]])
                    kind, error, single = judged_as_figure(
                        own_rows, own_cols, figures, names[k], profile, s, place, top, (r0, c0)
                    )
                    if single:
                        consumed[dark] = True
            if k in on_own_colour and (kind in profile.token_stood_on or not single):
                # A tile, or a blob no kind fits, may be a tile with a piece of its colour on it.
                standing = {n: v for n, v in on_own_colour[k].items() if n in kinds}
                tile = next(
                    (t for t in profile.token_stood_on if t in kinds and profile.comes_in(t, names[k])), None
                )
                if standing and tile is not None:
                    on = piece_on_own_tile(
                        prows, pcols, stood_on_sides[k], standing, heights.get(tile, 0.0), centre, place, s
                    )
                    if on is not None:
                        at = top.to_mm(on.foot[0] + c0, on.foot[1] + r0)
                        found.append(
                            TokenSighting(
                                region.name,
                                on.kind,
                                names[k],
                                (round(float(at[0]), 1), round(float(at[1]), 1)),
                                round(on.overlap, 3),
                            )
                        )
                        if not single:  # the rest of the blob is the tile, as sure as the piece
                            kind, error, single = tile, 1 - on.overlap, True
            if not single and kind not in profile.token_counted:
                footprint = standing_area(widths[kind], 0.0) * s * s
                if part.size >= 2 * footprint and (halves := split_at_waist(prows, pcols)) is not None:
                    # No piece, but two footprints' area: pieces of one colour touching (two
                    # meeples side by side on a stall), split at their waist, each half judged.
                    own = [part[half] for half in halves if (blob_colours[part[half]] == k).any()]
                    parts += [(k, half) for half in own]
                    squares += [None] * len(own)
                continue
            # The median colour of its own colour's pixels (not a glint or an emblem).
            painted = blob_features[part][blob_colours[part] == k]
            colour = np.partition(painted, painted.shape[0] // 2, axis=0)[painted.shape[0] // 2]
            name = names[k]
            allowed = profile.colours_of(kind)
            if allowed is not None and name not in allowed:
                if kind in profile.token_exclusive:
                    continue  # another colour's piece of this size (a faction's Great Old One)
                # Named among this kind's own colours (a pink priest is not a red resource).
                keep = [i for i, n in enumerate(names) if n in allowed]
                name = names[keep[int(nearest(colour[None], choices[keep])[0])]]
            if kind in profile.token_dark_figures and not dark_in_the_middle(
                bgr,
                blob_rows,
                blob_cols,
                blob_colours,
                (cy, cx),
                widths[kind] * s / 4,
                is_dark,
                piece_colour,
                k,
            ):
                # Another piece's figure stands on it (a faction's, on a base of a near colour): no
                # piece to read, nor for a second look by its outline.
                others.append(TokenSighting(region.name, "", name, (float(centre[0]), float(centre[1])), 0.0))
                continue
            sighting = TokenSighting(
                region.name,
                kind,
                name,
                (round(float(centre[0]), 1), round(float(centre[1]), 1)),
                round(max(0.0, 1 - error * 2), 3),
            )
            if kind in profile.token_counted:
                single = single or one_gem
                bumps = 1 if single else humps(prows, pcols, kinds[kind] * s)
                heaps.append((sighting, part.size, single, bumps))
            else:
                found.append(sighting)
    if has_dark_kinds:
        painted = np.zeros_like(mask)
        paint = ~(is_dark | is_print)[named.colour]
        painted[named.rows[paint], named.cols[paint]] = 1
        read = found + [h[0] for h in heaps] + others
        beasts, specks = dark_by_outline(mask, painted, read, profile, regions, top, (r0, c0), place)
        found = [t for t in found if t not in specks] + beasts
        # Then by what differs faintly throughout (a Beast alone on a Crossroad's dark circle shows
        # the mask a few highlights only), where no piece was read: a second look, so that the
        # faint rest of a place does not join a Beast found by its mask to other things.
        read = found + [h[0] for h in heaps] + others
        beasts, specks = dark_by_outline(mask | faint, painted, read, profile, regions, top, (r0, c0), place)
        found = [t for t in found if t not in specks] + beasts
    found += figures_on_faint_bases(
        lone_tops, found + [h[0] for h in heaps] + others, profile, top, regions, (r0, c0), place
    )
    if empty is not None and not has_dark_kinds:  # the outline is a piece's only where print is known
        colour_at = colour_map(named, mask.shape)
        found = kinds_by_outline(
            found, view.parts, colour_at, names, is_print | is_dark, profile, top, (r0, c0), place
        )
        read = found + [h[0] for h in heaps] + others
        found += shaded_by_outline(
            view.parts, colour_at, names, is_print | is_dark, read, profile, regions, top, (r0, c0), place
        )
        read = found + [h[0] for h in heaps] + others
        found += pale_by_outline(
            view, colour_at, names, choices, is_print | is_dark, read, profile, regions, top, (r0, c0), place
        )
        read = found + [h[0] for h in heaps] + others
        found += pale_bases_round_dark_figures(
            view, colour_at, names, is_dark, read, profile, regions, top, (r0, c0), place
        )
    found += tiles_under_pieces(
        found,
        named,
        names,
        choices,
        is_print | is_dark,
        profile,
        top,
        (r0, c0),
        place,
        is_print & ~is_dark if empty is not None else None,
    )
    return tuple(sorted(found + counted(heaps, profile, s), key=lambda t: t.region))


def colour_map(named: Named, shape: tuple[int, ...]) -> np.ndarray:
    """Each pixel's named colour (index into the names; -1: none), to look at a part or a window."""
    colour_at = np.full(shape[:2], -1, np.int32)
    colour_at[named.rows, named.cols] = named.colour
    return colour_at


def standing_kinds(profile: Profile) -> dict[str, float]:
    """The kinds that stand (taller than `FLAT_MM`), one by one (no tile, no counted heap), and
    their widths: those an outline on the board can be."""
    heights = dict(profile.token_height)
    return {
        n: w
        for n, w in profile.token_mm
        if heights.get(n, 0.0) > FLAT_MM and n not in profile.token_square and n not in profile.token_counted
    }


def named_at(named: Named) -> np.ndarray:
    """Which of the named pixels each pixel of the view is (-1: none), for looking in a window."""
    if not named.rows.size:
        return np.full((0, 0), -1, np.int32)
    index = np.full((int(named.rows.max()) + 1, int(named.cols.max()) + 1), -1, np.int32)
    index[named.rows, named.cols] = np.arange(named.rows.size, dtype=np.int32)
    return index


def tiles_under_pieces(
    found: Sequence[TokenSighting],
    named: Named,
    names: Sequence[str],
    choices: np.ndarray,
    unhued: np.ndarray,
    profile: Profile,
    top: TopDown,
    origin: tuple[int, int],
    place: CameraPlace | None,
    print_shows: np.ndarray | None = None,
) -> list[TokenSighting]:
    """The tile under the standing pieces read in a place where no tile was: what shows of it
    beyond them (a disciple stands on its space's resource tile when its stack is higher than the
    cost: the rulebook's "Disciple Phase", the profile's `stood_on`). A priest on a tile hides
    most of it, and what is left (an L, a band, corners, parted from each other by the piece and
    by its blurred rim) is too little, and too often named a player's colour (a red tile's band
    pink), to be read as a piece of its own. Here it is judged with the pieces: the pixels of a
    hue in the place, farther from each piece's centre than its top reaches and of none of their
    colours, are a tile when they are `HIDDEN_TILE_SHOWS` of one or more and lie within a tile's
    square with the first piece's foot. Its colour is the tiles' colour most of them are named,
    when half that many are named one; else the tiles' colour most of them are nearest (a red
    tile's band named pink is nearest red). `print_shows`: print's colours that show a tile too
    (its printed white frame), given where the empty board says what the board's own print is."""
    tiles = [t for t in profile.token_stood_on if profile.colours_of(t)]
    if not tiles or not found:
        return []
    tile = tiles[0]
    s = top.px_per_mm
    side = dict(profile.token_mm)[tile] * s
    colours = np.array([i for i, n in enumerate(names) if profile.comes_in(tile, n)], np.intp)
    if not colours.size:
        return []
    widths, heights = dict(profile.token_mm), dict(profile.token_height)
    regions = {r.name: r for r in profile.regions if r.holds == "tokens"}
    standing: dict[str, list[TokenSighting]] = {}
    for t in found:
        standing.setdefault(t.region, []).append(t)
    hued = ~unhued[named.colour]
    shows = hued | (print_shows[named.colour] if print_shows is not None else False)
    index_at = named_at(named)
    out: list[TokenSighting] = []
    for name, pieces in standing.items():
        region = regions.get(name)
        if region is None or any(t.kind in tiles or heights.get(t.kind, 0.0) <= FLAT_MM for t in pieces):
            continue
        rows, cols, _ = top.window(region)
        box = index_at[
            max(0, rows.start - origin[0]) : max(0, rows.stop - origin[0]),
            max(0, cols.start - origin[1]) : max(0, cols.stop - origin[1]),
        ]
        at = box[box >= 0]
        at = at[
            shows[at] & ~np.isin(named.colour[at], [names.index(t.color) for t in pieces if t.color in names])
        ]
        centres = []
        for t in pieces:
            cx, cy = in_view(t.center, top, origin)
            lean = lean_mm(place, t.center, heights[t.kind]) * s
            at = at[
                np.hypot(named.rows[at] - cy, named.cols[at] - cx) > widths[t.kind] / 2 * s + lean / 2 + 2
            ]
            centres.append((cx, cy, lean))
        if at.size < HIDDEN_TILE_SHOWS * side * side:
            continue
        # The piece's foot is on the tile: it and what shows lie within the tile's square (a
        # piece's centre is half its lean beyond its foot; the blur a pixel each side).
        cx, cy, lean = centres[0]
        points = np.concatenate([np.stack([named.cols[at], named.rows[at]], axis=1), [[cx, cy]]])
        _, (w, h), _ = cv2.minAreaRect(points.astype(np.float32))
        if max(w, h) > side + 2 + lean / 2:
            continue
        at = at[hued[at]]  # its colour is its card's, not its printed frame's
        if not at.size:
            continue
        shown = np.bincount(named.colour[at], minlength=len(names))[colours]
        if shown.max() < HIDDEN_TILE_SHOWS * side * side / 2:
            shown = np.bincount(nearest(named.features[at], choices[colours]), minlength=colours.size)
        out.append(TokenSighting(name, tile, names[int(colours[int(shown.argmax())])], pieces[0].center, 0.5))
    return out


def split_at_waist(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """These pixels in two (indices), cut across their longest axis where they are narrowest in
    its middle half: two round or oblong pieces touching are narrowest where they meet (none
    when either side would be under a quarter of them)."""
    x, y = cols - cols.mean(), rows - rows.mean()
    cov = np.cov(np.vstack([x, y]))
    _, vectors = np.linalg.eigh(cov)
    along = x * vectors[0, 1] + y * vectors[1, 1]  # the largest eigenvalue's vector
    start = math.floor(float(along.min()))
    bins = np.bincount((along - start).astype(np.intp))
    lo, hi = np.quantile(along, [0.25, 0.75]) - start
    middle = np.arange(math.ceil(lo), math.floor(hi) + 1)
    if not middle.size:
        return None
    cut = start + middle[int(np.argmin(bins[middle]))] + 0.5
    first, second = np.flatnonzero(along < cut), np.flatnonzero(along >= cut)
    if min(first.size, second.size) < along.size / 4:
        return None
    return first, second


def low_places(
    top: TopDown, regions: Sequence[Region], profile: Profile, origin: tuple[int, int], shape: tuple[int, ...]
) -> np.ndarray:
    """Where (a mask over the pieces' view, whose top-left is `origin`) only pieces lower than
    they are wide lie (a gem, a card): such a piece leaves the sky and the room lighting the
    ground beside it, so its shadow there is shallow (`SHADOW_FLOOR`); a tall figure's is not
    (a 50 mm Beast's on a light board is 0.23-0.47 of its light, as dark as a black gem's mirror
    of the mat, and as parallel to the board)."""
    heights, widths = dict(profile.token_height), dict(profile.token_mm)
    low = [r for r in regions if all(heights.get(k, 0.0) < widths[k] for k in r.kinds or tuple(widths))]
    return windows_of(top, low, origin, shape)


def windows_of(
    top: TopDown, regions: Sequence[Region], origin: tuple[int, int], shape: tuple[int, ...]
) -> np.ndarray:
    """A mask (1) over the pieces' view (whose top-left is `origin`) of these regions' windows."""
    out = np.zeros(shape[:2], np.uint8)
    for rows, cols, _ in (top.window(r) for r in regions):
        out[
            max(rows.start - origin[0], 0) : max(rows.stop - origin[0], 0),
            max(cols.start - origin[1], 0) : max(cols.stop - origin[1], 0),
        ] = 1
    return out


GLASS_DARK = 0.5**2.2
"""Glass or glossy plastic passing (or mirroring) less than this share of the board's light in
every colour is dark plastic (black): `SHADOW_FLOOR` in linear light, where a low piece's
shadow leaves more."""
GLASS_ONE = 1.5
"""A blob in a place for glass no larger than this many gems' footprints is one gem: one colour,
from what its darker half passes (its lit facets and glints are the lamp's)."""


def glass_places(
    top: TopDown, regions: Sequence[Region], profile: Profile, origin: tuple[int, int], shape: tuple[int, ...]
) -> np.ndarray:
    """Where (a mask over the pieces' view, whose top-left is `origin`) only glass lies (profile
    `glass = true`: Tower's gem supplies)."""
    glass = [r for r in regions if r.kinds and all(k in profile.token_glass for k in r.kinds)]
    return windows_of(top, glass, origin, shape)


LIT_SHARE = 0.1
"""A colour the board reflects less than this share of its brightest one of tells little of how
much of its light a piece passes: stray light and noise are most of it (a matte black gem on a
yellow mat shows half the mat's faint blue)."""


def passed(bgr: np.ndarray, board_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What share of the bare board's light (linear, per colour) each pixel shows: through a
    translucent gem its tint times the board's light, off a glossy one the board's light dimmed
    alike in every colour, so the board's own colour and the lamp's divide out. And the most of
    it in a colour the board is lit in (`LIT_SHARE`); and the shares a matte grey piece would
    show (as much light of every colour as any, so the board's colours turned about)."""
    board = np.maximum(linear_light(board_bgr), 1e-3)
    ratio: np.ndarray = linear_light(bgr) / board
    lit = board >= LIT_SHARE * board.max(axis=1, keepdims=True)
    most: np.ndarray = np.where(lit, ratio, 0.0).max(axis=1)
    matte: np.ndarray = (1 / board) / (1 / board).sum(axis=1, keepdims=True)
    return ratio, most, matte


def glass_chroma_of(palette: Palette, names: Sequence[str], allowed: Sequence[str]) -> np.ndarray:
    """Each palette colour's direction in linear light (its channels' shares), NaN for those glass
    does not come in: what a gem of that colour passes more of."""
    light = linear_light(np.array([dict(palette.colours)[n] for n in names], np.float32))
    out: np.ndarray = light / np.maximum(light.sum(axis=1, keepdims=True), 1e-6)
    out[[n not in allowed for n in names]] = np.nan
    return out


def glass_colour(
    ratio: np.ndarray, most: np.ndarray, matte: np.ndarray, chroma: np.ndarray, dark: np.ndarray
) -> np.ndarray:
    """The colour (index) of glass passing `ratio` (pixels x 3) of the board's light (`passed`):
    dark plastic where it passes under `GLASS_DARK` in every colour the board is lit in (`most`)
    and its shares are grey (within `HUE_APART`: a glossy black gem mirrors the board, dimmed
    alike in every colour) or nearer a matte grey piece's (`matte`) than any colour's direction;
    else the colour whose direction its shares lie nearest (a dark blue gem on a light mat
    passes little, but mostly blue; a green one on a blue mat 30% of the green, 9% of the blue)."""
    usable = ~np.isnan(chroma[:, 0])
    darks, hues = np.flatnonzero(usable & dark), np.flatnonzero(usable & ~dark)
    shares = ratio / np.maximum(ratio.sum(axis=1, keepdims=True), 1e-6)
    if not hues.size:
        return np.full(len(ratio), darks[0] if darks.size else 0)
    apart = ((shares[:, None, :] - chroma[None, hues, :]) ** 2).sum(axis=2)
    out: np.ndarray = hues[apart.argmin(axis=1)]
    if darks.size:
        grey = np.abs(shares - 1 / 3).sum(axis=1) < HUE_APART
        like_matte = ((shares - matte) ** 2).sum(axis=1) < apart.min(axis=1)
        out = np.where((most < GLASS_DARK) & (grey | like_matte), darks[0], out)
    return out


def like_the_board(ratio: np.ndarray, most: np.ndarray, chroma: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """Whether pixels passing `ratio` of the board's light are the board in a shadow: as much of
    every colour (their shares nearer grey, the board's own, than any glass colour's direction)
    and not under `GLASS_DARK`."""
    hues = np.flatnonzero(~np.isnan(chroma[:, 0]) & ~dark)
    shares = ratio / np.maximum(ratio.sum(axis=1, keepdims=True), 1e-6)
    apart = ((shares[:, None, :] - chroma[None, hues, :]) ** 2).sum(axis=2).min(axis=1)
    out: np.ndarray = (((shares - 1 / 3) ** 2).sum(axis=1) < apart) & (most >= GLASS_DARK)
    return out


def one_glass_colour(
    ratio: np.ndarray, most: np.ndarray, matte: np.ndarray, chroma: np.ndarray, dark: np.ndarray
) -> int:
    """The colour (index) of one gem from what its pixels pass (`passed`): that of its darker
    half, what it lets through or mirrors of the board (its brighter half is the lamp's glints
    and the board blurred into its rim)."""
    total = ratio.sum(axis=1)
    darker = total <= np.median(total)
    core = (
        ratio[darker].mean(axis=0)[None],
        most[darker].mean(keepdims=True),
        matte[darker].mean(axis=0)[None],
    )
    return int(glass_colour(*core, chroma, dark)[0])


def as_glass(
    bgr: np.ndarray,
    board_bgr: np.ndarray,
    colours: np.ndarray,
    chroma: np.ndarray,
    dark: np.ndarray,
    one_px: float,
) -> tuple[np.ndarray, np.ndarray, bool]:
    """A blob in a place for glass (its pixels, the bare board under them, their colours): which
    of its pixels to keep, their colours, and whether it is one gem. Its shadow (`like_the_board`)
    left out, no larger than `GLASS_ONE` gems' footprints (`one_px`): one gem, of one colour
    (`one_glass_colour`), its shadow kept with it as its area; else gems touching, each pixel its
    own colour, their shadows left out."""
    ratio, most, matte = passed(bgr, board_bgr)
    gem = ~like_the_board(ratio, most, chroma, dark)
    gem = gem if gem.any() else ~gem
    if gem.sum() <= GLASS_ONE * one_px:
        colour = one_glass_colour(ratio[gem], most[gem], matte[gem], chroma, dark)
        return np.ones(len(colours), bool), np.full_like(colours, colour), True
    return gem, colours[gem], False


def region_at(centre: tuple[float, float], regions: Sequence[Region], boxes: np.ndarray) -> Region | None:
    """The region holding this point (mm), `boxes` each region's bounding box (x0, y0, x1, y1)."""
    near = np.nonzero(
        (boxes[:, 0] <= centre[0])
        & (centre[0] <= boxes[:, 2])
        & (boxes[:, 1] <= centre[1])
        & (centre[1] <= boxes[:, 3])
    )[0]
    return next((regions[int(i)] for i in near if regions[int(i)].contains(centre)), None)


def with_its_lit_side(
    k: int,
    part: np.ndarray,
    parts: list[tuple[int, np.ndarray]],
    rows: np.ndarray,
    cols: np.ndarray,
    lit: np.ndarray,
    taken: np.ndarray,
    room_px: float,
) -> np.ndarray:
    """A part of colour `k` (pixel indices into its blob) and the parts touching it, in turn, of
    its own colour or its lit side's (`lit[k]`, `lit_sides`), none `taken`, while together they
    cover no more than `room_px` (one piece of its colour there, its lean and tolerance
    included) and its own colour at least half: a pink meeple's top lit white parts its pink
    sides in two; a white meeple beside it is a second piece's area, and stays its own."""
    r0, c0 = rows.min(), cols.min()
    which = np.full((int(rows.max() - r0) + 1, int(cols.max() - c0) + 1), -1, np.intp)
    for i, (_, other) in enumerate(parts):
        free = other[~taken[other]]
        which[rows[free] - r0, cols[free] - c0] = i
    group = np.zeros(which.shape, np.uint8)
    group[rows[part] - r0, cols[part] - c0] = 1
    which[group > 0] = -1
    joined, own, size = [part], part.size, part.size
    while True:
        touching = which[(cv2.dilate(group, np.ones((3, 3), np.uint8)) > 0) & (which >= 0)]
        fits = [
            i
            for i in np.unique(touching)
            if (parts[i][0] == k or lit[k, parts[i][0]]) and size + int((which == i).sum()) <= room_px
        ]
        if not fits:
            break
        more = np.flatnonzero(which[rows - r0, cols - c0] == fits[0])
        joined.append(more)
        own += more.size if parts[fits[0]][0] == k else 0
        size += more.size
        group[rows[more] - r0, cols[more] - c0] = 1
        which[which == fits[0]] = -1
    return np.concatenate(joined) if len(joined) > 1 and 2 * own >= size else part


def only_dark(colours: Sequence[str] | None) -> bool:
    """Whether a kind comes in dark plastic only (Turris's Beasts), not in the players' colours."""
    return bool(colours) and all(c in DARK_PLASTIC for c in colours or ())


OUTLINE_FIT = 0.2
"""A dark piece known by its outline alone is its kind's width across, give or take a fifth (the
profile's kinds are a third apart or more)."""


FAINT = 12.0
"""Over `FAINT_MM` square, pixels this far (Lab, on average) from the bare board are something on
it, though none is `FOREGROUND` from it: a dark figure on dark print, its base 10-30 lighter than
the print, its crevices darker. The bare board's own pixels differ from it by the sensor's noise,
JPEG and the relighting's error: 3-9 on Turris's path-traced Crossroads."""
FAINT_MM = 5.0
"""...averaged over this (a quarter of a 20 mm base): the noise of single pixels evens out, a
dark figure's sheen and shade do not."""


def faintly_unlike(
    lab: np.ndarray, background: np.ndarray, top: TopDown, regions: Sequence[Region], origin: tuple[int, int]
) -> np.ndarray:
    """Where, in the token regions, the view (`lab`: Lab, as `pieces_view` saw it) differs faintly
    but throughout from the bare board (`FAINT`): the whole of a dark piece on print as dark as
    it, of which the mask holds only its highlights and rim."""
    distance = np.sqrt(((lab - background) ** 2).sum(axis=2))
    k = max(3, int(round(FAINT_MM * top.px_per_mm)) | 1)
    out = (cv2.blur(distance, (k, k)) > FAINT).astype(np.uint8)
    faint: np.ndarray = out & windows_of(top, regions, origin, out.shape)
    return faint


def on_a_faint_base(faint: np.ndarray, cy: float, cx: float, base_px: float) -> bool:
    """Whether round a figure's painted top (centred at `cy`, `cx`), within its base's reach,
    what differs faintly from the board (`faintly_unlike`) fills half its base: a dark base on
    print as dark as it, which the mask does not see."""
    reach = base_px / 2 + 1
    r0, c0 = max(0, int(cy - reach)), max(0, int(cx - reach))
    window = faint[r0 : int(cy + reach) + 1, c0 : int(cx + reach) + 1]
    rr, cc = np.mgrid[r0 : r0 + window.shape[0], c0 : c0 + window.shape[1]]
    return (
        int(window[(rr - cy) ** 2 + (cc - cx) ** 2 <= reach * reach].sum())
        >= 0.5 * math.pi * (base_px / 2) ** 2
    )


BASE_FILLED = 0.75
"""A figure's base differs from the board throughout: the disc of its size, placed where it best
fits near a painted top, is this much unlike the board at least (a speck of print or a glint has
no such disc round it)."""


def faint_base_fill(unlike: np.ndarray, base_px: float) -> np.ndarray:
    """For each pixel, the share of a disc of a base's size centred there that is unlike the
    board (`unlike`: the mask and what differs faintly)."""
    r = max(1, int(round(base_px / 2)))
    disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    cv2.circle(disc, (r, r), r, 1.0, -1)
    fill: np.ndarray = cv2.filter2D(
        unlike.astype(np.float32), -1, disc / disc.sum(), borderType=cv2.BORDER_CONSTANT
    )
    return fill


def fitted_base(fill: np.ndarray, cy: float, cx: float, base_px: float) -> tuple[float, float] | None:
    """Where (row, column) a base's disc, centred within half a base of a painted top (the
    figure leans over its base), is likeliest: the place most unlike the board, when that is
    `BASE_FILLED` at least."""
    reach = base_px / 2
    r0, c0 = max(0, int(cy - reach)), max(0, int(cx - reach))
    window = fill[r0 : int(cy + reach) + 1, c0 : int(cx + reach) + 1].copy()
    rr, cc = np.mgrid[r0 : r0 + window.shape[0], c0 : c0 + window.shape[1]]
    window[(rr - cy) ** 2 + (cc - cx) ** 2 > reach * reach] = 0
    if not window.size or window.max() < BASE_FILLED:
        return None
    at = np.unravel_index(int(window.argmax()), window.shape)
    return float(at[0] + r0), float(at[1] + c0)


def small_painted_top(
    colours: np.ndarray,
    features: np.ndarray,
    choices: np.ndarray,
    is_dark: np.ndarray,
    dark_based: dict[int, tuple[float, str]],
    s: float,
) -> tuple[int, np.ndarray] | None:
    """A blob too small for any piece that may be a figure's painted top on a dark base: its
    commonest colour, one a dark-based figure comes in, a `FIGURE_TOP` of its base wide and
    plainly paint (`PAINTED`); that colour and its pixels (indices into the blob)."""
    painted = colours[np.isin(colours, list(dark_based))]
    if not painted.size:
        return None
    k = int(np.bincount(painted).argmax())
    part = np.flatnonzero(colours == k)
    return (
        (k, part)
        if a_painted_top(part.size, features[part], choices, k, is_dark, dark_based[k][0] * s)
        else None
    )


def a_painted_top(
    size: int, features: np.ndarray, choices: np.ndarray, k: int, is_dark: np.ndarray, base_px: float
) -> bool:
    """Whether `size` pixels of colour `k` (their `features`) may be a figure's painted top on a
    dark base `base_px` wide: a `FIGURE_TOP` of it wide, and plainly paint (`PAINTED`)."""
    return (
        2 * math.sqrt(size / math.pi) >= FIGURE_TOP * base_px
        and paint_margin(np.median(features, axis=0), choices, k, is_dark) >= PAINTED
    )


def figures_on_faint_bases(
    tops: Sequence[tuple[str, str, float, float]],
    read: Sequence[TokenSighting],
    profile: Profile,
    top: TopDown,
    regions: Sequence[Region],
    origin: tuple[int, int],
    place: CameraPlace | None,
) -> list[TokenSighting]:
    """Figures known by their painted top alone (kind, colour, column and row in the view) on a
    faint base: each where its base, wherever under its leaning top, would overlap no piece read
    (else the top is a speck of that piece: its lit side, a glint, a Beast's highlight)."""
    widths, heights = kind_sizes(profile), dict(profile.token_height)
    out: list[TokenSighting] = []
    for kind, colour, cx, cy in tops:
        centre = top.to_mm(cx + origin[1], cy + origin[0])
        apart = widths[kind] / 2 + lean_mm(place, centre, heights.get(kind, 0.0))
        if any(math.dist(centre, t.center) < apart + widths.get(t.kind, 0.0) / 2 for t in (*read, *out)):
            continue
        region = next((r for r in regions if r.contains(centre)), None)
        if region is not None and (not region.kinds or kind in region.kinds):
            at = (round(float(centre[0]), 1), round(float(centre[1]), 1))
            out.append(TokenSighting(region.name, kind, colour, at, 0.5))
    return out


def in_view(centre_mm: tuple[float, float], top: TopDown, origin: tuple[int, int]) -> tuple[float, float]:
    """Where a point on the board (mm) lies in the pieces' view (x, y px from its first pixel)."""
    s = top.px_per_mm
    x = (centre_mm[0] - top.origin_mm[0]) * s - origin[1]
    return x, (centre_mm[1] - top.origin_mm[1]) * s - origin[0]


def part_pixels(labels: np.ndarray, stats: np.ndarray, part: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of one connected part's pixels, looked for in its box only."""
    x, y, w, h = (int(v) for v in stats[part, :4])
    rows, cols = np.nonzero(labels[y : y + h, x : x + w] == part)
    return rows + y, cols + x


def round_outline(across: float, along: float, fill: float, width_px: float, lean_px: float) -> bool:
    """Whether a hull `across` by `along` px, filling `fill` of its smallest rectangle, is the
    outline of a round standing piece `width_px` wide whose top leans `lean_px`: as wide across
    (`OUTLINE_FIT`), as long as that and its lean and a third of its width of shadow along, and
    without corners (`round_fill`), as `how_each_kind_fits` asks of a round piece."""
    return (
        abs(across - width_px) <= OUTLINE_FIT * width_px
        and along <= across + lean_px + width_px / 3
        and fill <= round_fill(width_px, lean_px) + ROUND_CORNERS + 1 / width_px
    )


LIT_SPECKS = 0.1
"""A dark figure's lit parts are at most this share of its outline: pieces read from so little of
a part whose outline is a dark kind's are its highlights (a Beast's top named yellow under a warm
lamp read as Scouts)."""


def dark_by_outline(
    mask: np.ndarray,
    painted: np.ndarray,
    read: Sequence[TokenSighting],
    profile: Profile,
    regions: Sequence[Region],
    top: TopDown,
    origin: tuple[int, int],
    place: CameraPlace | None,
) -> tuple[list[TokenSighting], list[TokenSighting]]:
    """Pieces of a kind that comes only in dark plastic (Turris's Beasts) known by the outline of
    what differs from the bare board, where their colour names too little of them: dark plastic
    on dark print differs from it by its sheen and its rim alone, so only a crescent or a few
    highlights are named. A part of the mask no piece was read in, mostly of no player's paint
    (`painted`: 1 where a pixel is), whose hull is as wide as the kind across and round (as
    `how_each_kind_fits` asks of a round piece, its figure's lean and a third of its width of
    shadow allowed along), is one."""
    s = top.px_per_mm
    dark_kinds = {n: w for n, w in profile.token_mm if only_dark(profile.colours_of(n))}
    heights = dict(profile.token_height)
    seen_at = [in_view(t.center, top, origin) for t in read]
    out: list[TokenSighting] = []
    dropped: list[TokenSighting] = []
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    for c in range(1, count):
        x, y, w, h = (int(v) for v in stats[c, :4])
        if max(w, h) < (1 - OUTLINE_FIT) * min(dark_kinds.values()) * s:
            continue
        rows, cols = part_pixels(labels, stats, c)
        share = painted[rows, cols].mean()
        if share > 0.5:
            continue  # a player's pieces, missed for another reason
        hull, ((cx, cy), sides, _) = hull_and_rect(rows, cols)
        inside = [
            t
            for t, (px, py) in zip(read, seen_at)
            if cv2.pointPolygonTest(hull, (float(px), float(py)), False) >= 0
        ]
        if inside and (share > LIT_SPECKS or any(t.kind in dark_kinds for t in inside)):
            continue
        centre = top.to_mm(cx + origin[1], cy + origin[0])
        region = next((r for r in regions if r.contains(centre)), None)
        if region is None:
            continue
        across, along = min(sides), max(sides)
        fill = cv2.contourArea(hull) / max(sides[0] * sides[1], 1.0)
        for kind, width in dark_kinds.items():
            if region.kinds and kind not in region.kinds:
                continue
            lean = lean_mm(place, centre, heights.get(kind, 0.0)) * s
            if round_outline(across, along, fill, width * s, lean):
                at = (round(float(centre[0]), 1), round(float(centre[1]), 1))
                colour = (profile.colours_of(kind) or DARK_PLASTIC)[0]
                out.append(TokenSighting(region.name, kind, colour, at, 0.5))
                dropped += inside
                break
    return out, dropped


@dataclass(frozen=True)
class Outline:
    """A part of the mask no piece was read in, less what is named dark (its cast shadow): its
    pixels (rows, columns, named colours; -1 for none), its hull, its smallest rectangle's centre
    (x, y px) and sides across and along, and how much of that rectangle the hull fills."""

    rows: np.ndarray
    cols: np.ndarray
    colours: np.ndarray
    hull: np.ndarray
    centre: tuple[float, float]
    across: float
    along: float
    fill: float


def unread_outlines(
    parts: tuple[int, np.ndarray, np.ndarray],
    colour_at: np.ndarray,
    dark: np.ndarray,
    read_at: Sequence[tuple[float, float]],
    widest_px: float,
    least_px: float,
) -> Iterator[Outline]:
    """The outline of each part of the mask of `least_px` pixels or more and about `widest_px`
    wide or wider (`OUTLINE_FIT`) whose hull, less the pixels named one of the `dark` colours,
    holds none of the points pieces were read at (x, y px): what shows of a standing piece its
    colours did not name."""
    count, labels, stats = parts
    for c in range(1, count):
        if max(stats[c, 2], stats[c, 3]) < (1 - OUTLINE_FIT) * widest_px or stats[c, 4] < least_px:
            continue
        rows, cols = part_pixels(labels, stats, c)
        colours = colour_at[rows, cols]
        keep = ~np.isin(colours, dark)
        if keep.sum() < 4:
            continue
        rows, cols, colours = rows[keep], cols[keep], colours[keep]
        hull, ((cx, cy), sides, _) = hull_and_rect(rows, cols)
        if any(cv2.pointPolygonTest(hull, (float(px), float(py)), False) >= 0 for px, py in read_at):
            continue
        fill = cv2.contourArea(hull) / max(sides[0] * sides[1], 1.0)
        yield Outline(rows, cols, colours, hull, (cx, cy), min(sides), max(sides), fill)


def round_kind(
    outline: Outline,
    region: Region,
    standing: dict[str, float],
    may_be: Collection[str],
    profile: Profile,
    place: CameraPlace | None,
    centre: tuple[float, float],
    s: float,
) -> tuple[str, float] | None:
    """The standing kind (and its width, mm) nearest the outline's width across that may lie in
    the region and is among `may_be` (those of the colour seen), when the outline is that kind's,
    round with its lean along (`round_outline`); else None."""
    heights = dict(profile.token_height)
    for kind, width in sorted(standing.items(), key=lambda kw: abs(outline.across / s - kw[1])):
        if (region.kinds and kind not in region.kinds) or kind not in may_be:
            continue
        lean = lean_mm(place, centre, heights[kind]) * s
        return (
            (kind, width)
            if round_outline(outline.across, outline.along, outline.fill, width * s, lean)
            else None
        )
    return None


LIT_CAP = 0.15
"""A standing piece in its own shade shows at least this share of its footprint lit, in its
colour (its cap, a highlight)."""


def shaded_by_outline(
    parts: tuple[int, np.ndarray, np.ndarray],
    colour_at: np.ndarray,
    names: Sequence[str],
    unpainted: np.ndarray,
    read: Sequence[TokenSighting],
    profile: Profile,
    regions: Sequence[Region],
    top: TopDown,
    origin: tuple[int, int],
    place: CameraPlace | None,
) -> list[TokenSighting]:
    """Standing pieces lit from the side, known by the outline of what differs from the bare
    board: a pawn under a low lamp is in its own shade but for a lit cap, its body a dark mauve
    nearer the board than any colour, so its colour names too little of it to be a piece. A
    part of the mask no piece was read in, less what is named dark (its cast shadow), whose hull
    is as wide as a standing kind across and round (its lean allowed along), and of which at
    least `LIT_CAP` of that kind's footprint, and under half of it (the rest in shade: a part
    mostly of one colour that was read as no piece is no piece in shade, but a tile with a piece
    on it, say), is named one colour the kind comes in, is one. Only
    where the empty board was shown: without it the mask holds the board's print too, and an
    altar's numeral is as round as a cultist (path-traced tables: 14 more pieces, 35 more false)."""
    s = top.px_per_mm
    standing = standing_kinds(profile)
    if not standing:
        return []
    dark = np.flatnonzero(unpainted & np.isin(names, DARK_PLASTIC))
    read_at = [in_view(t.center, top, origin) for t in read]
    smallest = min(standing.values()) * s
    out: list[TokenSighting] = []
    for o in unread_outlines(
        parts, colour_at, dark, read_at, smallest, LIT_CAP * math.pi * (smallest / 2) ** 2
    ):
        painted = o.colours[o.colours >= 0]
        painted = painted[~unpainted[painted]]
        if not painted.size:
            continue
        k = int(np.bincount(painted).argmax())
        lit = int((painted == k).sum())
        centre = top.to_mm(o.centre[0] + origin[1], o.centre[1] + origin[0])
        region = next((r for r in regions if r.contains(centre)), None)
        if region is None:
            continue
        fit = round_kind(
            o,
            region,
            standing,
            {n for n in standing if profile.comes_in(n, names[k])},
            profile,
            place,
            centre,
            s,
        )
        if fit is not None and LIT_CAP * math.pi * (fit[1] * s / 2) ** 2 <= lit <= o.rows.size / 2:
            at = (round(float(centre[0]), 1), round(float(centre[1]), 1))
            out.append(TokenSighting(region.name, fit[0], names[k], at, 0.5))
    return out


WASHED_OUT = 0.5
"""A piece washed out to white shows at least this share of its footprint white: its top, whole
(a misplaced empty board's print shows crescents of white round what moved)."""
PALE_SIDE = 0.5 * HUE_APART
"""A piece washed out to print's white under a bright lamp shows its colour only on its side in
its own shade: what is not white of its outline differs from the bare board's hue there (its
shadow keeps the board's hue) by at least this, the way its colour points."""


def pale_by_outline(
    view: PiecesView,
    colour_at: np.ndarray,
    names: Sequence[str],
    choices: np.ndarray,
    unpainted: np.ndarray,
    read: Sequence[TokenSighting],
    profile: Profile,
    regions: Sequence[Region],
    top: TopDown,
    origin: tuple[int, int],
    place: CameraPlace | None,
) -> list[TokenSighting]:
    """Standing pieces washed out to print's white: under a bright lamp a blue or green cultist's
    top is (235, 228, 206) or (238, 253, 255) BGR, its hue lost to the camera's clipping. Where
    the empty board was shown, white in the mask is no board's print; a part of the mask no piece
    was read in, named white for at least `WASHED_OUT` of a standing kind's footprint and no piece's
    colour beyond `OTHER_COLOURS` of it, whose outline less what is named dark (its cast shadow)
    is that kind's across and round (as `shaded_by_outline` asks), is one, of the colour its side
    in shade points to (`PALE_SIDE`): the rest of its outline's hue less the bare board's there."""
    s = top.px_per_mm
    standing = standing_kinds(profile)
    whites = [i for i, n in enumerate(names) if unpainted[i] and n not in DARK_PLASTIC]
    painted_in = {
        k: [i for i, n in enumerate(names) if not unpainted[i] and profile.comes_in(k, n)] for k in standing
    }
    if not standing or not whites:
        return []
    dark = np.flatnonzero(unpainted & np.isin(names, DARK_PLASTIC))
    read_at = [in_view(t.center, top, origin) for t in read]
    smallest = min(standing.values()) * s
    least = WASHED_OUT * math.pi * (smallest / 2) ** 2
    out: list[TokenSighting] = []
    for o in unread_outlines(view.parts, colour_at, dark, read_at, smallest, least):
        white = np.isin(o.colours, whites)
        if white.sum() < least:
            continue
        if ((o.colours >= 0) & ~unpainted[np.maximum(o.colours, 0)]).sum() > OTHER_COLOURS * o.rows.size:
            continue
        centre = top.to_mm(o.centre[0] + origin[1], o.centre[1] + origin[0])
        region = next((r for r in regions if r.contains(centre)), None)
        side = view.index_at[o.rows[~white], o.cols[~white]]
        side = side[side >= 0]
        if region is None or side.size < 4:
            continue
        bare_lab = np.clip(view.background[o.rows[~white], o.cols[~white]], 0, 255).astype(np.uint8)[None]
        bare = shade_free(cv2.cvtColor(bare_lab, cv2.COLOR_LAB2BGR)[0])
        towards = hue_of(view.pixels.features[side]).mean(axis=0) - hue_of(bare).mean(axis=0)
        if np.abs(towards).sum() < PALE_SIDE:
            continue
        fit = round_kind(
            o,
            region,
            standing,
            {n for n, painted in painted_in.items() if painted},
            profile,
            place,
            centre,
            s,
        )
        if fit is not None and white.sum() >= WASHED_OUT * math.pi * (fit[1] * s / 2) ** 2:
            allowed = painted_in[fit[0]]
            hues = hue_of(choices[allowed])
            k = allowed[int((hues @ towards / np.maximum(np.linalg.norm(hues, axis=1), 1e-9)).argmax())]
            at = (round(float(centre[0]), 1), round(float(centre[1]), 1))
            out.append(TokenSighting(region.name, fit[0], names[k], at, 0.5))
    return out


def pale_bases_round_dark_figures(
    view: PiecesView,
    colour_at: np.ndarray,
    names: Sequence[str],
    is_dark: np.ndarray,
    read: Sequence[TokenSighting],
    profile: Profile,
    regions: Sequence[Region],
    top: TopDown,
    origin: tuple[int, int],
    place: CameraPlace | None,
) -> list[TokenSighting]:
    """Figures whose figure is dark plastic (`dark_figure`: the Watcher) on a base a bright lamp
    washes out toward white: the pale pink base named white but at its shaded rim, too little pink
    to be read as the base. A part of the mask no piece was read in whose outline less its dark
    pixels (the figure, its shadow) is the base's, round, whose middle (half the base's radius
    round the outline's centre) is mostly dark (the figure stands there), and whose other pixels
    are named white or the kind's colours (beyond `OTHER_COLOURS` of them no other), is one. Its
    colour is not judged by hue: a washed-out base's is too faint to tell pink from the board's
    light (path-traced maps: as often orange, blue or purple as pink), and no other piece is a
    dark figure on a pale base (a faction's figures are of its colour throughout, on bases of it
    or dark plastic). Path-traced Yuggoth maps: 4 more of 33 Watchers, none false."""
    s = top.px_per_mm
    figures = {n: w for n, w in standing_kinds(profile).items() if n in profile.token_dark_figures}
    if not figures:
        return []
    dark = np.flatnonzero(is_dark)
    read_at = [in_view(t.center, top, origin) for t in read]
    narrowest = min(figures.values()) * s
    least = RING_SHARE * math.pi * (narrowest / 2) ** 2
    white = [i for i, n in enumerate(names) if n == "white"]
    out: list[TokenSighting] = []
    for o in unread_outlines(view.parts, colour_at, dark, read_at, narrowest, least):
        centre = top.to_mm(o.centre[0] + origin[1], o.centre[1] + origin[0])
        region = next((r for r in regions if r.contains(centre)), None)
        if region is None:
            continue
        fit = round_kind(o, region, figures, set(figures), profile, place, centre, s)
        if fit is None:
            continue
        kind, width = fit
        own = [i for i, n in enumerate(names) if profile.comes_in(kind, n)]
        if not own:
            continue
        named = o.colours[o.colours >= 0]
        if np.isin(named, own + white, invert=True).sum() > OTHER_COLOURS * o.rows.size:
            continue
        radius = width * s / 4
        r0, c0 = int(o.centre[1] - radius), int(o.centre[0] - radius)
        window = colour_at[max(0, r0) : r0 + int(2 * radius) + 1, max(0, c0) : c0 + int(2 * radius) + 1]
        yy, xx = np.mgrid[: window.shape[0], : window.shape[1]]
        inside = (yy + max(0, r0) - o.centre[1]) ** 2 + (xx + max(0, c0) - o.centre[0]) ** 2 <= radius**2
        middle = window[inside]
        counts = np.bincount(middle[middle >= 0], minlength=len(names))
        if not middle.size or counts[dark].sum() * 2 < middle.size:
            continue  # its middle is not its dark figure
        at = (round(float(centre[0]), 1), round(float(centre[1]), 1))
        out.append(TokenSighting(region.name, kind, names[own[0]], at, 0.5))
    return out


OTHER_COLOURS = 0.1
"""A piece alone in its part of the mask: at most this share of that part's pixels named a piece's
colour (not print's, not dark plastic's) are of another than its own (a blurred rim, a glint),
not a tile or another piece."""


def kinds_by_outline(
    found: Sequence[TokenSighting],
    parts: tuple[int, np.ndarray, np.ndarray],
    colour_at: np.ndarray,
    names: Sequence[str],
    unpainted: np.ndarray,
    profile: Profile,
    top: TopDown,
    origin: tuple[int, int],
    place: CameraPlace | None,
) -> list[TokenSighting]:
    """Each standing piece read alone, of the kind its outline says. A wooden pawn's ball hides its
    steep body from above, lit less than the ball: its colour names the ball, as wide as a smaller
    kind's whole top (a priest's 12 mm ball read as a cultist), while what differs from the empty
    board is the whole pawn. A piece alone in its part of the mask (no other piece read there, and
    no more than `OTHER_COLOURS` of its named pixels of another colour but dark), whose outline
    less what is named dark (its cast shadow) is another standing kind's across and round (as
    `shaded_by_outline` asks), is that kind. A piece sharing its part with a tile (it stands on
    it) or another piece is outlined by its own colour's pixels and the unnamed ones round them
    (its shaded body), a tile's blurred rim opened off (`opened_round`), when no other piece but
    a tile is inside that outline."""
    s = top.px_per_mm
    heights = dict(profile.token_height)
    oblong = dict(profile.token_depth)  # an oblong one is as wide across as it is turned
    standing = {n: w for n, w in standing_kinds(profile).items() if n not in oblong}
    if len(standing) < 2:
        return list(found)
    count, labels, stats = parts
    dark = np.flatnonzero(unpainted & np.isin(names, DARK_PLASTIC))
    places = {r.name: r for r in profile.regions if r.holds == "tokens"}
    at = [(int(round(y)), int(round(x))) for x, y in (in_view(t.center, top, origin) for t in found)]
    inside = [
        int(labels[r, c]) if 0 <= r < labels.shape[0] and 0 <= c < labels.shape[1] else 0 for r, c in at
    ]
    out = list(found)
    for i, t in enumerate(found):
        if t.color is None or t.color not in names or t.kind not in standing or inside[i] == 0:
            continue
        rows, cols = part_pixels(labels, stats, inside[i])
        colours = colour_at[rows, cols]
        own = names.index(t.color)
        if inside.count(inside[i]) == 1:  # alone: its outline is what differs, less its shadow
            painted = (colours >= 0) & ~unpainted[np.maximum(colours, 0)]
            if (painted & (colours != own)).sum() > OTHER_COLOURS * painted.sum():
                continue
            keep = ~np.isin(colours, dark)
        else:  # beside a tile, another piece: its colour's and unnamed pixels, the rims opened off
            keep = opened_round(rows, cols, (colours < 0) | (colours == own), in_view(t.center, top, origin))
            hull = hull_and_rect(rows[keep], cols[keep])[0] if keep.sum() >= 4 else None
            if hull is None or any(
                cv2.pointPolygonTest(hull, (float(at[j][1]), float(at[j][0])), False) >= 0
                for j, u in enumerate(found)
                if j != i and inside[j] == inside[i] and u.kind not in profile.token_stood_on
            ):
                continue
        if keep.sum() < 4:
            continue
        hull, (_, sides, _) = hull_and_rect(rows[keep], cols[keep])
        across, along = min(sides), max(sides)
        fill = cv2.contourArea(hull) / max(sides[0] * sides[1], 1.0)
        kind, width = min(standing.items(), key=lambda kw: abs(across / s - kw[1]))
        place_kinds = places[t.region].kinds if t.region in places else ()
        if kind == t.kind or not profile.comes_in(kind, t.color) or (place_kinds and kind not in place_kinds):
            continue
        lean = lean_mm(place, t.center, heights[kind]) * s
        if round_outline(across, along, fill, width * s, lean):
            out[i] = replace(t, kind=kind)
    return out


def opened_round(rows: np.ndarray, cols: np.ndarray, keep: np.ndarray, at: tuple[float, float]) -> np.ndarray:
    """Of the pixels kept, those of the blob round `at` (x, y px) once a pixel's width is opened
    off every edge: a tile's blurred rim is a band a pixel or two wide, a piece's body is not."""
    r0, c0 = int(rows.min()) - 2, int(cols.min()) - 2
    box = np.zeros((int(rows.max()) - r0 + 3, int(cols.max()) - c0 + 3), np.uint8)
    box[rows[keep] - r0, cols[keep] - c0] = 1
    opened = cv2.morphologyEx(box, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    _, labels = cv2.connectedComponents(opened)
    x, y = int(round(at[0])) - c0, int(round(at[1])) - r0
    inside = labels[y, x] if 0 <= y < box.shape[0] and 0 <= x < box.shape[1] else 0
    if inside == 0:
        return np.zeros_like(keep)
    return np.asarray(keep & (labels[rows - r0, cols - c0] == inside))


def tile_sides_of(
    squares: Sequence[str], names: Sequence[str], profile: Profile, s: float
) -> dict[int, float]:
    """For each of `names` (by index; "" for none) that one of these square kinds comes in, the
    side in pixels (`s` px/mm) of the largest such tile."""
    widths = kind_sizes(profile)
    return {
        i: max(widths[n] / SQUARE_WIDTH for n in squares if profile.comes_in(n, name)) * s
        for i, name in enumerate(names)
        if name and any(profile.comes_in(n, name) for n in squares)
    }


def parts_made_whole(
    parts: list[tuple[int, np.ndarray]],
    rows: np.ndarray,
    cols: np.ndarray,
    tile_sides: dict[int, float],
    others: set[int],
    base_widths: dict[int, float] | None = None,
) -> list[tuple[int, np.ndarray]]:
    """The parts of one blob (`pieces_of`), with parts of a colour that tiles come in joined,
    largest first, while together they lie within a tile's square (`tile_sides`, px), and parts
    of a colour a figure's base comes in while together they lie within the base's disc
    (`base_widths`, px): a tile's when a part of another of the pieces' colours (`others`) lies
    with them, a base's when one of any other colour does (its figure, dark or painted). A piece
    standing across a tile splits what shows of it in two or three (a priest on a corner leaves
    two arms of an L), a figure standing on its base splits the ring of it that shows round it;
    two cultists parted by their dark edges stay two. A colour that both come in is joined as a
    tile's."""
    out: list[tuple[int, np.ndarray]] = []
    present = {kp[0] for kp in parts}
    bases = base_widths or {}
    for k in dict.fromkeys(kp[0] for kp in parts):
        same = sorted((part for colour, part in parts if colour == k), key=lambda part: -part.size)
        parted = (present - {k}) & others if k in tile_sides else present - {k}
        if (k not in tile_sides and k not in bases) or not parted:
            out += [(k, part) for part in same]
            continue
        groups: list[np.ndarray] = []
        for part in same:
            for g, group in enumerate(groups):
                joined = np.concatenate([group, part])
                points = np.column_stack([cols[joined], rows[joined]]).astype(np.float32)
                if k in tile_sides:
                    _, sides, _ = cv2.minAreaRect(points)
                    whole = max(sides) <= tile_sides[k] * 1.1 + 1
                else:
                    _, radius = cv2.minEnclosingCircle(points)
                    whole = 2 * radius <= bases[k] * 1.1 + 1
                if whole:
                    groups[g] = joined
                    break
            else:
                groups.append(part)
        out += [(k, group) for group in groups]
    return out


@dataclass(frozen=True)
class Square:
    """A tile's square placed on the straightened view (`square_covered`): turned by `turn`
    (rotating x, y into its sides' directions), its corner there and its side, in pixels; and
    the share of it covered."""

    turn: np.ndarray
    corner: np.ndarray
    side: int
    filled: float

    def holds(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Which of these pixels lie inside the square."""
        at = np.column_stack([cols, rows]) @ self.turn.T - self.corner
        return np.asarray(((at >= 0) & (at < self.side)).all(axis=1))


def square_covered(
    rows: np.ndarray, cols: np.ndarray, other_rows: np.ndarray, other_cols: np.ndarray, side_px: float
) -> Square | None:
    """The square of a tile `side_px` wide that these pixels (what shows of the tile) and the
    others (a piece standing on it) cover most of, turned as these pixels' smallest rectangle and
    holding all of these; None when these do not fit in one tile. A priest leaning over a tile
    may leave only a band along one edge of it: the band's hull is a sliver of the tile, but the
    band and the priest fill its square."""
    side = int(round(side_px))
    if rows.size < 3 or side < 1:
        return None
    _, _, angle = cv2.minAreaRect(np.column_stack([cols, rows]).astype(np.float32))
    a = math.radians(angle)
    turn = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    mine = np.column_stack([cols, rows]) @ turn.T
    low, high = mine.min(axis=0), mine.max(axis=0)
    if (high - low > side_px * 1.1 + 1).any():  # (blurred by a pixel or two, as `inside_square`)
        return None
    every = np.concatenate([mine, np.column_stack([other_cols, other_rows]) @ turn.T])
    # The square's corner lies between where it holds these from their far and their near side.
    start = np.floor(np.minimum(low, high - side)).astype(int)
    reach = np.ceil(np.maximum(low, high - side)).astype(int) - start + 1
    span = int(reach.max()) + side
    grid = np.floor(every).astype(int) - start
    keep = ((grid >= 0) & (grid < span)).all(axis=1)
    counts = np.bincount(grid[keep, 1] * span + grid[keep, 0], minlength=span * span)
    sums = cv2.integral(counts.reshape(span, span).astype(np.float32))
    v, u = np.mgrid[0 : reach[1], 0 : reach[0]]
    inside = sums[v + side, u + side] - sums[v, u + side] - sums[v + side, u] + sums[v, u]
    best = np.unravel_index(int(inside.argmax()), inside.shape)
    corner = start + np.array([best[1], best[0]])
    return Square(turn, corner.astype(np.float64), side, min(1.0, float(inside[best]) / (side * side)))


def humps(rows: np.ndarray, cols: np.ndarray, width_px: float) -> int:
    """How many pieces a heap's outline shows: the peaks of its distance to the edge, at least
    a piece's width apart (gems shoulder to shoulder each keep a hump; 0: none stands out)."""
    r0, c0 = rows.min(), cols.min()
    box = np.zeros((int(rows.max() - r0) + 3, int(cols.max() - c0) + 3), np.uint8)
    box[rows - r0 + 1, cols - c0 + 1] = 255
    depth = cv2.distanceTransform(box, cv2.DIST_L2, 3)
    k = max(3, int(0.8 * width_px) | 1)
    top = (depth >= cv2.dilate(depth, np.ones((k, k), np.uint8))) & (depth >= 0.3 * width_px)
    return int(cv2.connectedComponents(top.astype(np.uint8))[0]) - 1


def counted(
    heaps: list[tuple[TokenSighting, int, bool, int]], profile: Profile, px_per_mm: float
) -> list[TokenSighting]:
    """Pieces that lie in heaps (gems). A blob the size and shape of one piece is one piece;
    any other is as many as the humps its outline shows (`humps`), or when it shows fewer than
    two, as many as its area holds, one piece's area being the median of the single pieces of
    its colour in this very frame (the light and the foreground's edges shrink a dark gem more
    than a light one), else of its kind, else its nominal size. A heap's count
    is an estimate (piled or shoulder to shoulder, its area is not exactly its pieces'): it is
    always unsure, never deciding a move alone."""
    out: list[TokenSighting] = []
    widths = kind_sizes(profile)
    singles: dict[tuple[str, str | None], list[int]] = {}
    lone: dict[tuple[str, str | None], list[int]] = {}  # one hump, whatever its size
    for sighting, area, single, bumps in heaps:
        for key in ((sighting.kind, sighting.color), (sighting.kind, None)):
            if single:
                singles.setdefault(key, []).append(area)
            if single or bumps == 1:
                lone.setdefault(key, []).append(area)
    for sighting, area, single, bumps in heaps:
        if single:
            out.append(sighting)
            continue
        same = (
            singles.get((sighting.kind, sighting.color))
            or lone.get((sighting.kind, sighting.color))
            or singles.get((sighting.kind, None))
            or lone.get((sighting.kind, None))
        )
        unit = float(np.median(same)) if same else math.pi * (widths[sighting.kind] / 2 * px_per_mm) ** 2
        units = area / unit
        many = bumps if bumps >= 2 else round(units)
        if many >= 1:
            out += [replace(sighting, confidence=round(min(0.5, 1 - abs(units - many)), 3))] * many
    return out
