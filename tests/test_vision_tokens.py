"""Tokens on a rendered Am'harb island: disciples and the resource tiles lying on the free
spaces at set-up (a tile is not a priest, a pink priest is not a red resource)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.colours import Palette, nearest, shade_free
from vision.pipeline import TableReader
from vision.profiles import load_profile
from vision.regions import TopDown
from vision.render import Camera, Scene, TokenSpec, render
from vision.tokens import Named, colour_map, kinds_by_outline, shaded_by_outline, squared, tiles_under_pieces
from vision.types import TokenSighting


@pytest.fixture(scope="module")
def reading() -> tuple[list[TokenSpec], set[tuple[str, str, str]]]:
    profile = load_profile("amharb-4p")
    tokens = [
        TokenSpec("cell/3/3", "priest", "pink"),
        TokenSpec("cell/3/4", "resource", "red", angle=8.0),
        TokenSpec("cell/4/3", "resource", "yellow", (3.0, -2.0), angle=-5.0),
        TokenSpec("cell/4/4", "cultist", "yellow"),
        TokenSpec("cell/2/2", "resource", "blue"),
        TokenSpec("cell/2/3", "priest", "blue", (4.0, 4.0)),
        TokenSpec("cell/5/5", "resource", "red"),
    ]
    scene = Scene(profile, Camera(tilt=0.05, rotation=7.0), tokens=tuple(tokens))
    frame, _ = render(scene, seed=5)
    seen = TableReader(profile).read(frame).tokens
    return tokens, {(t.region, t.kind, t.color) for t in seen}


def test_resource_tiles_are_read_by_colour_and_are_not_disciples(reading: tuple) -> None:
    tokens, seen = reading
    assert {(t.region, t.kind, t.colour) for t in tokens} == seen


def test_a_blob_the_size_of_no_piece_is_not_reported() -> None:
    """A card or a hand lying on the island is far larger than any piece."""
    profile = load_profile("amharb-4p")
    scene = Scene(profile, Camera(), tokens=(TokenSpec("cell/1/1", "priest", "green"),))
    frame, to_frame = render(scene, seed=2)
    # A 60 x 40 mm green card across cells 5/5 and 5/6 (board mm -> frame px).
    card = np.array([[230, 230], [290, 230], [290, 270], [230, 270]], np.float64)
    pts = np.c_[card, np.ones(4)] @ to_frame.T
    cv2.fillConvexPoly(frame, (pts[:, :2] / pts[:, 2:]).astype(np.int32), (70, 150, 40))
    seen = {(t.region, t.kind, t.color) for t in TableReader(profile).read(frame).tokens}
    assert seen == {("cell/1/1", "priest", "green")}


def test_a_cultist_at_the_island_edge_keeps_its_size() -> None:
    """Two pink cultists in a corner space at the island's edge (a committed held-out frame).
    Sampled straight from the frame at the tokens' coarse scale, one of them aliased into a
    priest-sized blob; straightened finer and averaged down, both stay cultists."""
    recordings = Path(__file__).resolve().parent / "recordings" / "amharb-2p"
    frame = cv2.imread(str(recordings / "0001.jpg"))
    seen = TableReader(load_profile("amharb-2p")).read(frame).tokens
    assert sorted((t.kind, t.color) for t in seen if t.region == "cell/4/0") == [
        ("cultist", "pink"),
        ("cultist", "pink"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ('kinds = ["gem"]', 'kinds = ["ruby"]', "not in pieces.tokens"),
        ('kinds = ["gem"]', 'kinds = "gem"', "kinds lists token kinds"),
        ('brown = "#7a4f2a"', 'brown = "brown"', "#rrggbb"),
        ('brown = "#7a4f2a"', 'brown = "#7a4fzz"', "#rrggbb"),
    ],
)
def test_a_profile_with_a_bad_kinds_or_colour_is_explained(old: str, new: str, says: str) -> None:
    import tomllib

    from vision.profiles import ProfileError, parse_profile

    text = (Path(__file__).parent.parent / "vision/profiles/tower.toml").read_text()
    assert old in text
    with pytest.raises(ProfileError, match=says):
        parse_profile(tomllib.loads(text.replace(old, new, 1)))


def test_gems_lying_apart_are_each_one_and_a_heap_is_counted_but_unsure() -> None:
    """Tower's gems: six green gems apart are six sure gems; four blue ones shoulder to shoulder
    are one blob, counted by its area against the single gems of the frame, and unsure."""
    profile = load_profile("tower")
    apart = [TokenSpec("player/1/gems", "gem", "green", (-60.0 + 16.0 * k, -60.0)) for k in range(6)]
    heap = [TokenSpec("player/2/gems", "gem", "blue", (-30.0 + 10.0 * k, 0.0)) for k in range(4)]
    lone = [TokenSpec("player/2/gems", "gem", "blue", (-60.0 + 16.0 * k, -60.0)) for k in range(3)]
    scene = Scene(profile, Camera(tilt=0.04, rotation=5.0), tokens=tuple(apart + heap + lone))
    frame, _ = render(scene, seed=3)
    seen = TableReader(profile).read(frame).tokens
    greens = [t for t in seen if t.region == "player/1/gems"]
    assert [t.color for t in greens] == ["green"] * 6 and all(t.confidence > 0.5 for t in greens)
    blues = [t for t in seen if t.region == "player/2/gems"]
    assert [t.color for t in blues] == ["blue"] * 7
    assert sum(t.confidence <= 0.5 for t in blues) == 4


def stadium(width: float, lean: float) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (1 px/mm) an upright round piece covers seen from above: its foot, its top
    `lean` mm further out and the side wall between them."""
    box = np.zeros((80, 80), np.uint8)
    cv2.circle(box, (30, 30), round(width / 2), 1, -1)
    cv2.circle(box, (30 + round(lean), 30), round(width / 2), 1, -1)
    cv2.rectangle(box, (30, 30 - round(width / 2)), (30 + round(lean), 30 + round(width / 2)), 1, -1)
    rows, cols = np.nonzero(box)
    return rows, cols


def test_a_priest_leaning_far_has_a_tiles_area_but_not_its_width() -> None:
    """A 20 mm priest whose top is seen 14 mm beyond its foot covers about a 25 mm tile's area;
    its narrowest width (its own, across the lean) says it is round, the lean the camera's place
    predicts for a 24 mm piece there says its area is a priest's."""
    from vision.tokens import round_misfit, square_misfit

    rows, cols = stadium(20, 14)
    area = float(rows.size)
    assert abs(area - 625) < 60  # a tile's area
    rect = cv2.minAreaRect(np.column_stack([cols, rows]).astype(np.float32))
    as_tile = square_misfit(25.0, 2 * np.sqrt(area / np.pi), 1.0, rect)
    as_priest = round_misfit(20.0, 21.0, area, 14.0)
    as_upright_priest = round_misfit(20.0, 21.0, area, 0.0)
    assert as_priest < 0.1 < as_tile
    assert as_upright_priest > as_priest  # without the lean its area would not fit


def test_a_kind_that_comes_in_the_colour_is_preferred() -> None:
    """Am'harb's resource tiles are red, yellow and blue (the rulebook's components): a green
    piece of a size between a priest's and a tile's is a priest; a yellow one is whichever it
    misfits least; a fragment of the wrong shape for every kind of its colour is nothing, even
    when another colour's kind would fit."""
    from vision.tokens import likeliest_kind

    profile = load_profile("amharb-4p")
    kinds = {"resource": 25 * 1.128, "priest": 20.0, "cultist": 12.0}
    seen = {"resource": 23.5, "priest": 23.5, "cultist": 23.5}
    shaped = {"resource": True, "priest": True, "cultist": True}
    misfit = {"resource": 0.05, "priest": 0.12, "cultist": 0.7}
    assert likeliest_kind(kinds, seen, misfit, shaped, "green", profile)[::2] == ("priest", True)
    assert likeliest_kind(kinds, seen, misfit, shaped, "yellow", profile)[::2] == ("resource", True)
    small = {"resource": 13.0, "priest": 13.0, "cultist": 13.0}
    not_round = {"resource": True, "priest": False, "cultist": False}
    assert likeliest_kind(kinds, small, misfit, not_round, "pink", profile)[2] is False


def test_the_board_in_a_shadow_is_not_a_piece() -> None:
    """A pixel nearer the bare board's colour (in less light) than any piece's is board: the
    shadow beside a piece and its edge blurred into the board are not the piece."""
    from vision.colours import Palette
    from vision.tokens import nearer_a_colour

    board = np.array([150, 165, 175], np.float32)
    bgr = np.tile(board.astype(np.uint8), (3, 4, 1))
    bgr[0, :] = (0.55 * board).astype(np.uint8)  # the board in shadow
    bgr[1, :] = (170, 140, 235)  # a pink piece
    bgr[2, :] = (0.8 * board + 0.2 * np.array([170, 140, 235])).astype(np.uint8)  # its edge blurred out
    bgr[2, 2:] = (0.3 * board + 0.7 * np.array([170, 140, 235])).astype(np.uint8)  # mostly piece
    background = cv2.cvtColor(bgr[:1, :1] * 0 + board.astype(np.uint8), cv2.COLOR_BGR2LAB)
    background = np.tile(background, (3, 4, 1)).astype(np.float32)
    _, choices = Palette().features(("pink", "blue", "green", "yellow"))
    named = nearer_a_colour(bgr, background, np.ones((3, 4), np.uint8), choices)
    kept = np.zeros((3, 4), np.uint8)
    kept[named.rows, named.cols] = 1
    assert kept[0].sum() == 0 and kept[1].all()
    assert kept[2].tolist() == [0, 0, 1, 1]


def test_the_board_in_a_deep_shadow_is_no_black_piece() -> None:
    """A grey board in a piece's shadow is nearer black than the board in full light: it is a
    black piece only when far darker than the board there (`SHADOW_FLOOR`: black plastic
    reflects under a tenth of the light, a shadow passes a quarter or more). On Tower's mat, a
    gem's shadow counted as a black gem: false readings on tables never looked at 49 -> 37, every
    gem still read (92/92)."""
    from vision.colours import Palette
    from vision.tokens import nearer_a_colour

    board = np.array([150, 150, 150], np.float32)
    bgr = np.tile(board.astype(np.uint8), (2, 4, 1))
    bgr[0, :] = (0.55 * board).astype(np.uint8)  # the board in a piece's shadow
    bgr[1, :] = (40, 40, 40)  # a black gem
    background = np.tile(cv2.cvtColor(bgr[:1, :1] * 0 + board.astype(np.uint8), cv2.COLOR_BGR2LAB), (2, 4, 1))
    names, choices = Palette().features(("green", "blue", "red", "black"))
    dark = np.array([n == "black" for n in names])
    mask = np.ones((2, 4), np.uint8)
    shadow_named = nearer_a_colour(bgr, background.astype(np.float32), mask, choices)
    assert (shadow_named.rows == 0).any()  # without the floor the shadow passes for black
    named = nearer_a_colour(bgr, background.astype(np.float32), mask, choices, dark)
    assert named.rows.tolist() == [1, 1, 1, 1]


def test_glossy_dark_plastic_is_no_shadow_for_being_lit() -> None:
    """A dark grey Beast under a lamp shows 0.6 of a reddish board's light (its gloss), as the
    board in a shadow does; but a shadow keeps the board's hue and the plastic its own grey: the
    plastic is a piece, the shadow is not. A grey band a pixel or two wide (a green gem's shaded
    rim blurred into a purple mat) is no piece either (`band_px`)."""
    from vision.colours import Palette
    from vision.tokens import nearer_a_colour

    board = np.array([110, 115, 160], np.float32)  # BGR: a reddish brown print
    bgr = np.tile(board.astype(np.uint8), (12, 12, 1))
    bgr[:6, :6] = (0.6 * board).astype(np.uint8)  # the board in a shadow
    bgr[6:, 6:] = (0.6 * board.mean(),) * 3  # lit grey plastic, as light as that shadow
    bgr[:5, 10] = (0.6 * board.mean(),) * 3  # a thin grey rim, apart from the plastic
    background = np.tile(cv2.cvtColor(board.astype(np.uint8)[None, None], cv2.COLOR_BGR2LAB), (12, 12, 1))
    names, choices = Palette().features(("green", "blue", "red", "black"))
    dark = np.array([n == "black" for n in names])
    mask = np.ones((12, 12), np.uint8)
    named = nearer_a_colour(bgr, background.astype(np.float32), mask, choices, dark, band_px=3)
    unbanded = nearer_a_colour(bgr, background.astype(np.float32), mask, choices, dark)
    assert unbanded.rows.size > named.rows.size  # the rim passes without the band
    kept = np.zeros((12, 12), bool)
    kept[named.rows, named.cols] = True
    assert kept[7:, 7:].all() and {names[c] for c in named.colour} == {"black"}  # corner rounded off
    assert not kept[:6, :6].any() and not kept[:5, 10].any()


@pytest.mark.parametrize("bad", ['height = "tall"', "height = -3"])
def test_a_bad_piece_height_is_explained(bad: str) -> None:
    import tomllib

    from vision.profiles import ProfileError, parse_profile

    text = (Path(__file__).parent.parent / "vision/profiles/amharb-4p.toml").read_text()
    assert "height = 24" in text
    with pytest.raises(ProfileError, match="height is millimetres"):
        parse_profile(tomllib.loads(text.replace("height = 24", bad, 1)))
    assert dict(load_profile("amharb-4p").token_height) == {"priest": 24.0, "cultist": 16.0, "resource": 2.0}


def test_print_and_glints_are_not_pieces() -> None:
    """White is no Am'harb piece's colour: a tile's white emblem (a third of its pixels) does not
    split the tile into a tile and a pink cultist, and a light pink cultist whose top glints
    white (more than half its pixels) is still one pink piece; where two pieces of the game's
    colours touch, they are told apart."""
    from vision.tokens import pieces_of

    yellow, pink, white = 0, 1, 2
    printed = np.array([False, False, True])
    rows, cols = np.divmod(np.arange(120), 12)
    emblem = np.where(np.arange(120) % 3 == 0, white, yellow)
    assert [(k, p.size) for k, p in pieces_of(rows, cols, emblem, printed)] == [(yellow, 120)]
    glint = np.where(np.arange(120) < 70, white, pink)
    assert [(k, p.size) for k, p in pieces_of(rows, cols, glint, printed)] == [(pink, 120)]
    touching = np.where(cols < 6, yellow, pink)
    assert sorted((k, p.size) for k, p in pieces_of(rows, cols, touching, printed)) == [
        (yellow, 60),
        (pink, 60),
    ]


def test_a_tiles_blurred_rim_is_no_part_of_the_piece_standing_on_it() -> None:
    """A red tile's rim blurred into a pale board is pinkish, a band 2 px wide round the tile;
    a pink priest (20 mm, 1 px/mm) on the tile touches it. The priest is its own size, not the
    tile's; a band that joins two bodies (a washed-out tile round a piece on it, an L with a
    narrow corner) stays whole, and so does a sliver with no body at all."""
    from vision.tokens import FRINGE_MM, without_fringe

    yy, xx = np.mgrid[0:40, 0:40]
    ring = (np.maximum(abs(yy - 20), abs(xx - 20)) >= 13) & (np.maximum(abs(yy - 20), abs(xx - 20)) <= 14)
    priest = (yy - 24) ** 2 + (xx - 24) ** 2 <= 10**2
    mask = (ring | priest).astype(np.uint8)
    kept = without_fringe(mask, FRINGE_MM)
    assert kept[priest].all()
    far = ring & ((yy - 24) ** 2 + (xx - 24) ** 2 > 15**2)  # the rim beyond the priest's reach
    assert far.sum() > 50 and not kept[far].any()
    two_bodies = np.zeros((40, 40), np.uint8)
    two_bodies[0:8, 0:30] = 1
    two_bodies[0:30, 0:8] = 1
    two_bodies[6:9, 6:9] = 0  # a narrow inner corner
    two_bodies[0:4, 0:4] = 0
    assert np.array_equal(without_fringe(two_bodies, FRINGE_MM), two_bodies)
    sliver = np.zeros((40, 40), np.uint8)
    sliver[5:8, 2:38] = 1
    assert np.array_equal(without_fringe(sliver, FRINGE_MM), sliver)


def test_a_tile_half_hidden_by_a_priest_is_a_tile_and_no_round_piece() -> None:
    """What a 25 mm tile shows with a 20 mm priest standing on its corner (an L) lies inside a
    tile's square but not inside a round piece's silhouette; a leaning priest lies inside its own
    silhouette, and is nearer a priest than a tile (1 px/mm, the camera's nadir to the west)."""
    from vision.camera import CameraPlace
    from vision.tokens import how_each_kind_fits, inside_round, inside_square

    tile = np.zeros((60, 60), np.uint8)
    cv2.rectangle(tile, (10, 10), (34, 34), 1, -1)
    cv2.circle(tile, (32, 32), 10, 0, -1)  # the priest's top hides a corner
    rows, cols = np.nonzero(tile)
    rect = cv2.minAreaRect(cv2.convexHull(np.column_stack([cols, rows]).astype(np.int32)))
    assert inside_square(rows, cols, 25.0, rect) == 1.0
    assert inside_round(rows, cols, 20.0, 0.0, np.array([1.0, 0.0])) < 0.9
    priest_rows, priest_cols = stadium(20, 14)
    assert inside_round(priest_rows, priest_cols, 20.0, 14.0, np.array([1.0, 0.0])) >= 0.9

    profile = load_profile("amharb-4p")
    kinds = {"resource": 25 * 1.128, "priest": 20.0, "cultist": 12.0}
    place = CameraPlace((-500.0, 30.0), 900.0, 1000.0)  # 14 mm of lean for a priest at (30, 30)
    seen = {"resource": 2 * np.sqrt(625 / np.pi), "priest": 20.0, "cultist": 20.0}
    misfit, shaped = how_each_kind_fits(
        priest_rows, priest_cols, kinds, seen, profile, 1.0, place, (30.0, 30.0)
    )
    assert shaped["priest"] and not shaped["cultist"]
    assert misfit["priest"] < misfit["resource"]
    speck_rows, speck_cols = np.nonzero(np.pad(np.ones((7, 7), np.uint8), 10))
    seen = {"resource": 26.0, "priest": 7.0, "cultist": 7.0}  # its hull spans a tile's pixels
    _, shaped = how_each_kind_fits(speck_rows, speck_cols, kinds, seen, profile, 1.0, place, (30.0, 30.0))
    assert not shaped["resource"]  # a tile shows at least a quarter of itself


def test_only_where_tiles_lie_are_thin_bands_a_tiles_rim() -> None:
    """Am'harb's pink and green come in no tile, so a thin band joined to a pink piece is a
    red tile's blurred rim; red, yellow and blue come in tiles and keep their bands. Yuggoth's
    map holds no tile: a thin pink band there is the Watcher's own base, shown in arcs round its
    dark figure, and no colour loses it."""
    from vision.tokens import fringed_colours

    coloured = ["", "red", "blue", "yellow", "pink", "green"]
    amharb = fringed_colours(coloured, load_profile("amharb-4p"))
    assert amharb.tolist() == [False, False, False, False, True, True]
    yuggoth = load_profile("yuggoth-five")
    assert not yuggoth.token_square
    assert not fringed_colours(["pink", "red", "green"], yuggoth).any()


@pytest.mark.parametrize("turn", [0.0, 20.0, 45.0])
def test_a_tiles_inner_square_is_no_priest_by_its_corners(turn: float) -> None:
    """A blue tile whose light frame and outer band read as board shows its inner square, 20 mm,
    a priest's width and area at 1 px/mm: its corners fill its smallest rectangle, a round
    piece's never do (`ROUND_CORNERS`). An upright priest 20 mm wide, and a cultist 12 px across
    (whose corners a digital disc fills nearly as a square does), keep their shapes."""
    from vision.camera import CameraPlace
    from vision.tokens import how_each_kind_fits

    profile = load_profile("amharb-4p")
    kinds = {"resource": 25 * 1.128, "priest": 20.0, "cultist": 12.0}
    place = CameraPlace((30.0, 30.0), 900.0, 1000.0)  # straight above: no lean
    square = np.zeros((60, 60), np.uint8)
    cv2.fillPoly(square, [cv2.boxPoints(((30.0, 30.0), (20.0, 20.0), turn)).astype(np.int32)], 1)
    disc = np.zeros((60, 60), np.uint8)
    cv2.circle(disc, (30, 30), 10, 1, -1)
    small = np.zeros((60, 60), np.uint8)
    cv2.circle(small, (30, 30), 6, 1, -1)
    for mask, priest in ((square, False), (disc, True)):
        rows, cols = np.nonzero(mask)
        width = 2 * np.sqrt(rows.size / np.pi)
        seen = {"resource": width, "priest": width, "cultist": width}
        _, shaped = how_each_kind_fits(rows, cols, kinds, seen, profile, 1.0, place, (30.0, 30.0))
        assert shaped["priest"] == priest, (turn, rows.size)
    rows, cols = np.nonzero(small)
    seen = {"resource": 12.0, "priest": 12.0, "cultist": 12.0}
    _, shaped = how_each_kind_fits(rows, cols, kinds, seen, profile, 1.0, place, (30.0, 30.0))
    assert shaped["cultist"]


def band_and_cover(turn_deg: float, covered_rows: int) -> tuple[np.ndarray, ...]:
    """A 25 mm tile at (40, 40), turned, at 1 px/mm: what shows of it (a band 5 px wide along its
    west edge) and a piece over the rest of it, covering its first `covered_rows` rows (all 25:
    the whole rest), as rows and columns of each."""
    a = np.radians(turn_deg)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    v, u = np.mgrid[0:100, 0:100] / 4.0 - 12.5  # a quarter-pixel grid over the tile's square
    at = np.column_stack([u.ravel(), v.ravel()]) @ turn.T + 40.0
    pixels = np.unique(np.floor(at).astype(int), axis=0)  # the tile's pixels, once each
    local = (pixels + 0.5 - 40.0) @ turn  # back in the tile's own directions
    inside = (np.abs(local) <= 12.5).all(axis=1)
    band = inside & (local[:, 0] < -7.5)
    cover = inside & ~band & (local[:, 1] < -12.5 + covered_rows)
    return pixels[band, 1], pixels[band, 0], pixels[cover, 1], pixels[cover, 0]


@pytest.mark.parametrize("turn", [0.0, 17.0])
def test_a_tile_showing_only_a_band_beside_a_priest_fills_its_square_with_it(turn: float) -> None:
    """A priest leaning over a tile may leave only a band of it showing, whose hull is a sliver;
    with the priest it fills the tile's square (Am'harb's "Disciple Phase" 3.3: a disciple stands
    on the tile when its stack is higher than the cost). The share is what band and piece cover of
    the best-placed square: the band alone a fifth, with a piece over half the rest three fifths;
    a band longer than a tile's side fits none. The square holds the piece's foot."""
    from vision.tokens import square_covered

    rows, cols, over_rows, over_cols = band_and_cover(turn, 25)
    whole = square_covered(rows, cols, over_rows, over_cols, 25.0)
    assert whole is not None and whole.filled == pytest.approx(1.0, abs=0.06)
    assert whole.holds(over_rows, over_cols).mean() > 0.9
    assert not whole.holds(np.array([40]), np.array([75])).any()  # a piece 35 mm east
    alone = square_covered(rows, cols, over_rows[:0], over_cols[:0], 25.0)
    assert alone is not None and alone.filled == pytest.approx(0.2, abs=0.04)
    half = square_covered(*band_and_cover(turn, 12), 25.0)
    assert half is not None and half.filled == pytest.approx(0.2 + 0.8 * 12 / 25, abs=0.06)
    assert square_covered(rows, cols, over_rows, over_cols, 15.0) is None


def test_a_band_of_a_tile_is_a_tile_unless_it_is_a_round_piece_itself() -> None:
    """The band that fills a tile's square with the priest on it is that tile, sized as the tile;
    a yellow priest on a red tile fills the red tile's square as well, but it is a priest."""
    from vision.tokens import as_hidden_tile

    profile = load_profile("amharb-4p")
    kinds = {"resource": 25 * 1.128, "priest": 20.0, "cultist": 12.0}
    seen = {"resource": 14.0, "priest": 9.0, "cultist": 9.0}
    misfit = {"resource": 0.7, "priest": 0.8, "cultist": 0.3}
    band = {"resource": False, "priest": False, "cultist": False}
    seen_as, misfit_as, shaped_as = as_hidden_tile(kinds, seen, misfit, band, 0.9, 150, profile, 1.0)
    assert shaped_as["resource"] and abs(seen_as["resource"] / kinds["resource"] - 0.95) < 0.01
    assert misfit_as["resource"] < misfit_as["cultist"]
    assert not as_hidden_tile(kinds, seen, misfit, band, 0.9, 40, profile, 1.0)[2]["resource"]
    priest = {"resource": True, "priest": True, "cultist": False}
    assert as_hidden_tile(kinds, seen, misfit, priest, 0.95, 400, profile, 1.0) == (seen, misfit, priest)


def test_a_tile_a_priest_splits_in_two_is_one_tile() -> None:
    """A priest standing across a tile leaves two parts of it showing, apart: they are one tile
    when together they lie within its square and a part of another colour (the priest) lies
    with them; two parts of a colour further apart stay two, and so do two cultists of a tile's
    colour parted only by their dark edges."""
    from vision.tokens import parts_made_whole

    tile = np.zeros((90, 90), np.uint8)
    cv2.rectangle(tile, (28, 28), (52, 52), 1, -1)
    cv2.rectangle(tile, (36, 20), (44, 60), 0, -1)  # a priest's lean across the middle
    far = np.zeros_like(tile)
    cv2.circle(far, (80, 80), 5, 1, -1)  # a yellow cultist beyond the tile
    priest = np.zeros_like(tile)
    cv2.rectangle(priest, (37, 20), (43, 60), 1, -1)
    rows, cols = np.nonzero(tile | far | priest)
    yellow = [
        (1, np.flatnonzero((cols < 36) & (rows >= 28) & (rows <= 52))),
        (1, np.flatnonzero((cols > 44) & (cols < 60))),
        (1, np.flatnonzero(cols >= 70)),
    ]
    pink = (2, np.flatnonzero((cols >= 37) & (cols <= 43)))
    whole = parts_made_whole([*yellow, pink], rows, cols, {1: 25.0}, {1, 2})
    assert sorted(p.size for k, p in whole if k == 1) == sorted(
        [yellow[2][1].size, yellow[0][1].size + yellow[1][1].size]
    )
    assert len(parts_made_whole([*yellow[:2], pink], rows, cols, {}, {1, 2})) == 3  # no tile is yellow
    assert len(parts_made_whole(yellow[:2], rows, cols, {1: 25.0}, {1, 2})) == 2  # nothing between them


def test_only_a_tile_may_be_stood_on() -> None:
    """`stood_on` is said of square tiles only, as true or false; Am'harb's resource tiles are stood
    on, Tower's materials are not."""
    import tomllib

    from vision.profiles import ProfileError, parse_profile

    text = (Path(__file__).parent.parent / "vision/profiles/amharb-4p.toml").read_text()
    for players in (2, 3, 4):
        assert load_profile(f"amharb-{players}p").token_stood_on == ("resource",)
    bad = text.replace("height = 16   # ASSUMED", "height = 16\nstood_on = true", 1)
    with pytest.raises(ProfileError, match="stood_on is for square tiles"):
        parse_profile(tomllib.loads(bad))
    with pytest.raises(ProfileError, match="stood_on is true"):
        parse_profile(tomllib.loads(text.replace("stood_on = true", 'stood_on = "yes"', 1)))
    assert load_profile("tower").token_stood_on == ()


def test_a_round_piece_standing_on_a_tile_is_no_tile() -> None:
    """A yellow priest on a red tile fills the red tile's square with what shows of it: it stands
    on that tile, so it is a priest even where a yellow tile's size would fit it as well (tiles
    do not lie on tiles); a part of no round shape keeps its shapes."""
    from vision.tokens import standing_on_a_tile

    profile = load_profile("amharb-4p")
    both = {"resource": True, "priest": True, "cultist": False}
    assert standing_on_a_tile(both, profile) == {"resource": False, "priest": True, "cultist": False}
    flat = {"resource": True, "priest": False, "cultist": False}
    assert standing_on_a_tile(flat, profile) == flat


def test_a_pixel_is_named_among_the_colours_its_place_can_hold() -> None:
    """Tower's stall holds a meeple (a builder's colour) beside its material spaces (yellow,
    brown, red, blue): an orange meeple's shaded side named brown is orange there, since no
    material lies in a meeple's space; a dark pixel where no dark piece lies (a black gem's colour
    in a material's space) is a shadow or an edge, and dropped; a pixel named green in a material's
    space (a card's own colour under this light: a place of flat cards only) is named among the
    cards' colours; a material's brown stays brown; a pixel renamed is kept only when nearer its
    new colour than the board (else it is the board in shade). Tower's mat from the frame, seeds
    300-305 never looked at: meeples 20 -> 24/28, false readings 37 -> 19, every gem still read;
    cards renamed, path-traced materials 212 -> 217/226 (docs/vision.md)."""
    from vision.colours import Palette, distances, shade_free
    from vision.regions import TopDown
    from vision.tokens import Named, named_in_their_places

    tower = load_profile("tower")
    places = [r for r in tower.regions if r.name in ("stall/5/meeple", "stall/5/a")]
    top = TopDown(np.zeros((60, 160, 3), np.uint8), (180.0, 100.0), 1.0)  # x 180-340, y 100-160
    names, choices = (
        Palette()
        .with_sample("brown", (42, 79, 122))
        .features(("purple", "orange", "pink", "green", "yellow", "brown", "red", "blue", "black"))
    )
    brown, orange, black = names.index("brown"), names.index("orange"), names.index("black")
    shaded_orange = np.array([[20, 62, 120]], np.float32)  # orange in shade, nearer brown
    feature = shade_free(shaded_orange)[0]
    green = names.index("green")
    rows = np.array([20, 20, 20, 20])
    cols = np.array([127, 20, 22, 24])  # in the meeple's space (x 307), then the material's (x 200-204)
    named = Named(rows, cols, np.stack([feature] * 4), np.array([brown, brown, black, green]))
    dark = np.array([n == "black" for n in names])
    out = named_in_their_places(named, top, places, names, choices, dark, tower, (0, 0))
    assert out.cols.tolist() == [127, 20, 24]
    assert out.colour.tolist() == [orange, brown, brown]
    to_orange = float(distances(feature[None], choices)[0, orange])
    nearer_board = replace(named, to_board=np.full(4, to_orange - 1.0))  # the board in shade
    assert named_in_their_places(
        nearer_board, top, places, names, choices, dark, tower, (0, 0)
    ).cols.tolist() == [20]


def test_a_base_its_dark_figure_splits_is_one_ring_and_judged_by_its_hull() -> None:
    """The Watcher's pink 50 mm base seen round its dark figure, which covers its middle and
    leans: the pink shows as arcs the figure parts. They are joined while together they lie
    within the base's disc (`parts_made_whole`), and the ring, a quarter of the base, is looked
    at by its hull when what that hull holds besides it is dark (`round_dark`); a fringe of one
    colour round a piece of another is not."""
    from vision.tokens import parts_made_whole, round_dark

    base = np.zeros((80, 80), np.uint8)
    cv2.circle(base, (40, 40), 25, 1, -1)
    figure = np.zeros_like(base)
    cv2.circle(figure, (43, 36), 20, 1, -1)  # the figure leans north-east over its base
    cv2.rectangle(figure, (0, 38), (20, 42), 1, -1)  # its shadow parts the ring in the west
    rows, cols = np.nonzero(base | figure)
    pink_pixels = (base & (1 - figure))[rows, cols].astype(bool)
    north = pink_pixels & (rows < 40)
    south = pink_pixels & (rows >= 40)
    dark = (1, np.flatnonzero(~pink_pixels))
    arcs = [(2, np.flatnonzero(north)), (2, np.flatnonzero(south))]
    whole = parts_made_whole([*arcs, dark], rows, cols, {}, {2}, {2: 50.0})
    rings = [p for k, p in whole if k == 2]
    assert len(rings) == 1 and rings[0].size == pink_pixels.sum()
    assert len(parts_made_whole([*arcs, dark], rows, cols, {}, {2}, {2: 30.0})) == 3  # wider than a base
    is_dark = np.where(pink_pixels, False, True)
    assert round_dark(rings[0], rows, cols, is_dark)
    assert not round_dark(rings[0], rows, cols, np.zeros_like(is_dark))  # round a red piece: a fringe


def test_a_band_a_blur_wide_round_a_token_is_its_rim_not_a_material() -> None:
    """A red 20 mm token on a green mat: its edge, blurred into the mat, leaves a brownish rim
    two pixels wide round it, whose hull is a token's square. A band nowhere thicker than a
    blur's (`fringe`) is not measured by its hull where no piece stands on a tile (Tower's
    materials); a material half under another still shows a part many pixels thick."""
    from vision.tokens import fringe

    rim = np.zeros((30, 30), np.uint8)
    cv2.rectangle(rim, (3, 3), (25, 25), 1, -1)
    cv2.rectangle(rim, (5, 5), (23, 23), 0, -1)
    assert fringe(*np.nonzero(rim), 1.0)
    half = np.zeros((30, 30), np.uint8)
    cv2.rectangle(half, (3, 3), (12, 22), 1, -1)  # 10 x 20 mm showing
    assert not fringe(*np.nonzero(half), 1.0)
    assert not fringe(*np.nonzero(rim), 0.25)  # at 0.25 px/mm the same band is 8 mm thick


def test_a_standing_piece_is_squarish_but_for_its_lean() -> None:
    """A meeple 16 x 8 mm seen from above, 16 mm tall, leaning 14 mm away from the point under
    the camera (east): its silhouette is 16 x 30, too long for a round piece's `compact`, but
    squarish once its lean along `away` is allowed (`leaning`); a strip as long lying across its
    lean is not, nor is the meeple seen without a lean."""
    from vision.tokens import compact, leaning

    meeple = np.zeros((50, 50), np.uint8)
    cv2.rectangle(meeple, (10, 12), (39, 27), 1, -1)  # 30 along x (8 + its lean and blur), 16 across
    cv2.rectangle(meeple, (10, 12), (13, 14), 0, -1)  # a corner in shade
    rows, cols = np.nonzero(meeple)
    east, north = np.array([1.0, 0.0]), np.array([0.0, -1.0])
    assert not compact(rows, cols)
    assert leaning(rows, cols, east, 1 + 14 / 16)
    assert not leaning(rows, cols, north, 1 + 14 / 16)  # lying across its lean: a strip
    assert not leaning(rows, cols, east, 1.0)  # no lean, no stretch


def test_a_figures_top_on_its_dark_base_is_judged_with_it() -> None:
    """A Scout on a dark base seen from above: its colour shows on its head and shoulders only
    (7 px of a 20 px base at 1 px/mm), far under a Scout's size, with dark plastic round it. It
    is judged with the dark pixels (no speck); the same top with no base round it, or a speck
    of its colour, is not."""
    from vision.tokens import on_a_dark_base

    rows, cols = np.mgrid[0:24, 0:24]
    rows, cols = rows.ravel(), cols.ravel()
    off = np.hypot(rows - 12, cols - 12)
    base, top, speck = off <= 10, off <= 3.5, off <= 1.5
    blob = base | top
    blob_rows, blob_cols = rows[blob], cols[blob]
    part = np.flatnonzero(top[blob])
    dark = base[blob] & ~top[blob]
    assert on_a_dark_base(part, blob_rows, blob_cols, dark, 20.0)
    assert not on_a_dark_base(part, blob_rows, blob_cols, np.zeros_like(dark), 20.0)
    assert not on_a_dark_base(np.flatnonzero(speck[blob]), blob_rows, blob_cols, dark, 20.0)


def test_a_figures_paint_is_plainly_its_colour_a_dark_pieces_tint_is_not() -> None:
    """A red Scout's lit top is far nearer red than black; a speck of a brownish Beast's dark
    plastic is only just nearer red (`paint_margin`, against `PAINTED`)."""
    from vision.colours import Palette, shade_free
    from vision.tokens import PAINTED, paint_margin

    names, choices = Palette().features(("red", "green", "black"))
    dark = np.array([n == "black" for n in names])
    red = names.index("red")
    scout = shade_free(np.array([50.0, 45.0, 190.0]))
    beast = shade_free(np.array([40.0, 38.0, 62.0]))
    assert paint_margin(scout, choices, red, dark) >= PAINTED > paint_margin(beast, choices, red, dark)


def test_a_beast_on_dark_print_is_known_by_its_outline() -> None:
    """A dark Beast on the Crossroad's dark circle differs from the print by its sheen and rim
    alone: what the empty board shows differs is a crescent, a few highlights, its outline 45 mm
    round. Where nothing was read and no player's paint is, that outline is a Beast; not where a
    Scout was read from its paint in it, nor a crescent of a player's paint, nor an outline a
    Scout wide. A "Scout" read from a speck of paint in it (under `LIT_SPECKS` of it: a Beast's
    highlight named yellow under a warm lamp) is the Beast's: the Beast is read, the speck is not."""
    from vision.regions import TopDown
    from vision.tokens import dark_by_outline
    from vision.types import TokenSighting

    profile = load_profile("turris")
    regions = [r for r in profile.regions if r.holds == "tokens"]
    top = TopDown(np.zeros((700, 760, 3), np.uint8), (0.0, 0.0), 1.0)
    mask = np.zeros((700, 760), np.uint8)
    cx, cy = (int(v) for v in profile.region("Crossroad West").centre())
    cv2.circle(mask, (cx, cy), 22, 1, -1)
    cv2.circle(mask, (cx + 6, cy - 4), 17, 0, -1)  # the body, as dark as the print
    painted = np.zeros_like(mask)
    found, dropped = dark_by_outline(mask, painted, [], profile, regions, top, (0, 0), None)
    assert [(t.region, t.kind, t.color) for t in found] == [("Crossroad West", "beast", "black")]
    assert dropped == []
    scout = TokenSighting("Crossroad West", "scout", "red", (cx - 15.0, cy), 0.9)
    its_paint = np.zeros_like(mask)
    cv2.circle(its_paint, (cx - 15, cy), 9, 1, -1)
    assert dark_by_outline(mask, its_paint & mask, [scout], profile, regions, top, (0, 0), None) == ([], [])
    speck = np.zeros_like(mask)
    cv2.circle(speck, (cx - 15, cy), 3, 1, -1)
    found, dropped = dark_by_outline(mask, speck & mask, [scout], profile, regions, top, (0, 0), None)
    assert [t.kind for t in found] == ["beast"] and dropped == [scout]
    assert dark_by_outline(mask, mask, [], profile, regions, top, (0, 0), None) == ([], [])
    small = np.zeros_like(mask)
    cv2.circle(small, (cx, cy), 10, 1, -1)
    assert dark_by_outline(small, painted, [], profile, regions, top, (0, 0), None) == ([], [])


def test_a_dark_figure_on_dark_print_differs_faintly_throughout() -> None:
    """A Beast on a Crossroad's dark circle: its base 15 lighter than the print, its figure's
    crevices 15 darker, none of it `FOREGROUND` from the print; averaged over a few millimetres it
    is all unlike the bare board, while the bare print's noise (up to 9 either way) is not."""
    from vision.regions import TopDown
    from vision.tokens import FAINT, FOREGROUND, faintly_unlike

    profile = load_profile("turris")
    regions = [r for r in profile.regions if r.holds == "tokens"]
    rng = np.random.default_rng(3)
    board = np.full((700, 760, 3), 90.0, np.float32)
    frame = board + rng.uniform(-9, 9, board.shape).astype(np.float32)
    cx, cy = (int(v) for v in profile.region("Crossroad West").centre())
    beast = np.zeros((700, 760), np.uint8)
    cv2.circle(beast, (cx, cy), 22, 1, -1)
    crevices = (np.indices(beast.shape).sum(axis=0) // 4) % 2 == 1
    frame[(beast > 0) & ~crevices] += 15
    frame[(beast > 0) & crevices] -= 15
    bgr = np.clip(frame, 0, 255).astype(np.uint8)
    background = cv2.cvtColor(board.astype(np.uint8), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    assert np.sqrt(((lab - background) ** 2).sum(axis=2)).max() < FOREGROUND > FAINT
    top = TopDown(bgr, (0.0, 0.0), 1.0)
    faint = faintly_unlike(lab, background, top, regions, (0, 0))
    inner = np.zeros_like(beast)
    cv2.circle(inner, (cx, cy), 18, 1, -1)
    assert faint[inner > 0].all()
    assert faint[beast == 0].sum() < 0.2 * beast.sum()  # a blur's width round it, no more
    noise = np.clip(board + rng.uniform(-9, 9, board.shape), 0, 255).astype(np.uint8)
    bare = faintly_unlike(
        cv2.cvtColor(noise, cv2.COLOR_BGR2LAB).astype(np.float32),
        background,
        top,
        regions,
        (0, 0),
    )
    assert not bare.any()


def test_a_scouts_painted_top_on_a_faint_base_is_a_scout_where_no_other_piece_is() -> None:
    """A Scout on a dark base on a Crossroad's dark circle: the mask sees its painted top, 11 mm
    across, too small for a 20 mm Scout, and what differs faintly round it (its base, its
    shadow). Where its base would overlap no piece read, wherever under its leaning top, it is
    a Scout; beside a read Scout (its lit side) or within a Beast's base (a highlight) it is not."""
    from vision.regions import TopDown
    from vision.tokens import figures_on_faint_bases, on_a_faint_base
    from vision.types import TokenSighting

    profile = load_profile("turris")
    regions = [r for r in profile.regions if r.holds == "tokens"]
    top = TopDown(np.zeros((700, 760, 3), np.uint8), (0.0, 0.0), 1.0)
    cx, cy = profile.region("Crossroad West").centre()
    faint = np.zeros((700, 760), np.uint8)
    cv2.circle(faint, (int(cx), int(cy)), 10, 1, -1)  # the base round the top
    assert on_a_faint_base(faint, cy, cx, 20.0)
    assert not on_a_faint_base(np.zeros_like(faint), cy, cx, 20.0)
    top_alone = [("scout", "red", cx, cy)]
    found = figures_on_faint_bases(top_alone, [], profile, top, regions, (0, 0), None)
    assert [(t.region, t.kind, t.color) for t in found] == [("Crossroad West", "scout", "red")]
    beside = TokenSighting("Crossroad West", "scout", "red", (cx + 15.0, cy), 0.9)
    assert figures_on_faint_bases(top_alone, [beside], profile, top, regions, (0, 0), None) == []
    beast = TokenSighting("Crossroad West", "beast", "black", (cx + 30.0, cy), 0.5)
    assert figures_on_faint_bases(top_alone, [beast], profile, top, regions, (0, 0), None) == []
    apart = TokenSighting("Crossroad West", "scout", "blue", (cx + 25.0, cy), 0.9)
    assert len(figures_on_faint_bases(top_alone, [apart], profile, top, regions, (0, 0), None)) == 1
    assert figures_on_faint_bases([("scout", "red", 2.0, 2.0)], [], profile, top, regions, (0, 0), None) == []


def test_a_painted_top_too_small_for_a_piece_is_a_scout_where_a_base_fits_beside_it() -> None:
    """Three Scouts on dark bases crowded on a Crossroad (crops of the path-traced dev set): the
    mask holds only their painted tops, 9-11 mm across, under the size of any piece. A base is a
    disc unlike the board throughout, so such a top is a Scout where a base's disc fits at least
    `BASE_FILLED` unlike the board within half a base of it, read where that base is; a speck
    of colour on bare print has no disc round it, nor does a blob a fifth of a base wide."""
    from vision.colours import Palette
    from vision.tokens import BASE_FILLED, faint_base_fill, fitted_base, small_painted_top

    unlike = np.zeros((100, 100), np.uint8)
    cv2.circle(unlike, (40, 50), 10, 1, -1)  # the base, 20 px, its figure leaning to the right
    fill = faint_base_fill(unlike, 20.0)
    assert fill[50, 40] > BASE_FILLED > fill[50, 58]
    base = fitted_base(fill, 50.0, 47.0, 20.0)
    assert base is not None and abs(base[0] - 50) <= 1 and abs(base[1] - 40) <= 1
    assert fitted_base(fill, 50.0, 75.0, 20.0) is None  # too far from the base to stand on it
    speck = np.zeros_like(unlike)
    cv2.circle(speck, (40, 50), 5, 1, -1)  # a speck of print's colour, its own size only
    assert fitted_base(faint_base_fill(speck, 20.0), 50.0, 40.0, 20.0) is None

    names, choices = Palette().features(("red", "black", "white"))
    red, black = names.index("red"), names.index("black")
    is_dark = np.array([n == "black" for n in names])
    dark_based = {red: (20.0, "scout")}
    paint = np.tile(choices[red], (60, 1))
    colours = np.array([red] * 60 + [black] * 30)
    features = np.vstack([paint, np.tile(choices[black], (30, 1))])
    k, part = small_painted_top(colours, features, choices, is_dark, dark_based, 1.0) or (None, None)
    assert k == red and part is not None and part.size == 60
    assert small_painted_top(colours[50:], features[50:], choices, is_dark, dark_based, 1.0) is None
    assert small_painted_top(colours[60:], features[60:], choices, is_dark, dark_based, 1.0) is None


def test_a_gem_is_named_by_what_it_passes_of_the_boards_light() -> None:
    """Tower's gems are glass or glossy (profile `glass = true`). Measured on path-traced mats
    (crops checked): a green gem on a blue mat is (64, 71, 45), barely green, nearer black by its
    own colour; of the mat's (200, 126, 130) light it passes 9% of the blue, 30% of the green,
    12% of the red: green. A glossy black gem mirrors the mat, dimmed alike; a matte black one is
    grey itself, what it passes the mat's colours turned about (a yellow mat's faint blue the
    most); a dark blue gem on a light mat passes little, but mostly blue; a gem's shadow dims the
    mat alike, and less."""
    from vision.colours import Palette
    from vision.tokens import glass_chroma_of, glass_colour, like_the_board, passed

    profile = load_profile("tower")
    assert profile.token_glass == ("gem",)
    names, _ = Palette().features(("green", "blue", "red", "black", "purple"))
    chroma = glass_chroma_of(Palette(), names, ("green", "blue", "red", "black"))
    assert np.isnan(chroma[names.index("purple")]).all()
    dark = np.array([n == "black" for n in names])
    mat_blue, mat_light, mat_yellow = (200, 126, 130), (230, 200, 185), (60, 200, 225)
    seen = {  # pixel (BGR), the mat under it
        "green": ((64, 71, 45), mat_blue),
        "glossy black": ((30, 19, 20), mat_blue),
        "matte black": ((42, 40, 41), mat_yellow),
        "navy": ((120, 50, 40), mat_light),
        "red": ((40, 30, 150), mat_light),
    }
    named = {
        what: names[
            int(
                glass_colour(*passed(np.array([pixel], np.uint8), np.array([mat], np.uint8)), chroma, dark)[0]
            )
        ]
        for what, (pixel, mat) in seen.items()
    }
    assert named == {
        "green": "green",
        "glossy black": "black",
        "matte black": "black",
        "navy": "blue",
        "red": "red",
    }
    ratio, most, _ = passed(
        np.array([[120, 76, 78], [64, 71, 45]], np.uint8), np.array([mat_blue] * 2, np.uint8)
    )
    assert like_the_board(ratio, most, chroma, dark).tolist() == [True, False]  # a shadow, a gem


def _lens(picture: np.ndarray, sigma: float) -> np.ndarray:
    """A picture (8-bit sRGB) blurred as a lens blurs it: in linear light."""
    from vision.colours import linear_light

    light = cv2.GaussianBlur(linear_light(picture), (0, 0), sigma)
    encoded = np.where(light <= 0.0031308, 12.92 * light, 1.055 * np.power(light, 1 / 2.4) - 0.055)
    return np.clip(encoded * 255 + 0.5, 0, 255).astype(np.uint8)


def _named_area(bgr: np.ndarray, board: tuple[int, int, int], names: tuple[str, ...], edges: bool) -> dict:
    """Pixels named each colour on a plain board (the bare board known), with the blurred edges
    unmixed or not."""
    from vision.colours import Palette
    from vision.tokens import nearer_a_colour, with_blurred_edges

    bare = np.zeros_like(bgr)
    bare[:] = board
    background = cv2.cvtColor(bare, cv2.COLOR_BGR2LAB).astype(np.float32)
    mask = np.ones(bgr.shape[:2], np.uint8)
    order, choices = Palette().features(names)
    named = nearer_a_colour(bgr, background, mask, choices)
    if edges:
        named = with_blurred_edges(named, bgr, background, mask, np.ones(len(order), bool), 3)
    return {n: int((named.colour == k).sum()) for k, n in enumerate(order)}


def test_a_dark_piece_blurred_on_a_light_board_keeps_its_area() -> None:
    """A lens mixes light: a blue gem's half-covered edge on a pale board is half the light of
    each, which in the camera's encoding has the board's hue. Named by nearness the gem shows a
    fraction of its area; its edge unmixed in linear light, the pixels more than half gem are
    about its area (path-traced Tower tables: gems 140 -> 202 of 267)."""
    board = (150, 200, 215)
    picture = np.zeros((60, 60, 3), np.uint8)
    picture[:] = board
    cv2.circle(picture, (30, 30), 6, (170, 60, 30), -1)
    true_area = int((picture[..., 0] == 170).sum())
    frame = _lens(picture, 1.5)
    by_nearness = _named_area(frame, board, ("blue", "red"), edges=False)["blue"]
    unmixed = _named_area(frame, board, ("blue", "red"), edges=True)
    assert by_nearness < 0.85 * true_area
    assert abs(unmixed["blue"] - true_area) <= 0.15 * true_area and unmixed["red"] == 0


def test_a_red_pieces_blurred_edge_on_green_is_no_yellow() -> None:
    """Red and green light mixed are yellow: a red piece's blurred edge on a green board is named
    yellow by nearness. Unmixed into the red piece's colour and the board's, it is the piece where
    more than half covered and the board elsewhere. A yellow piece, lighter than the board, is read
    a little large by nearness; its rim's nearest core pixel is itself part board, so it stays as
    nearness named it (no smaller than the piece, no larger than before)."""
    board = (60, 170, 80)
    picture = np.zeros((50, 80, 3), np.uint8)
    picture[:] = board
    cv2.circle(picture, (22, 25), 9, (50, 40, 190), -1)
    cv2.circle(picture, (60, 25), 9, (40, 200, 225), -1)
    frame = _lens(picture, 1.5)
    names = ("red", "yellow")
    by_nearness = _named_area(frame[:, :40], board, names, edges=False)
    unmixed = _named_area(frame[:, :40], board, names, edges=True)
    disc = int((picture[:, :40, 2] == 190).sum())
    assert by_nearness["yellow"] > 0.3 * disc
    assert unmixed["yellow"] <= by_nearness["yellow"] / 3  # the rest beyond the band: a fringe
    assert abs(unmixed["red"] - disc) <= 0.15 * disc
    yellow_alone = _named_area(frame[:, 40:], board, names, edges=True)
    yellow_by_nearness = _named_area(frame[:, 40:], board, names, edges=False)
    assert disc <= yellow_alone["yellow"] <= yellow_by_nearness["yellow"] and yellow_alone["red"] == 0


def test_a_shadow_beside_a_piece_is_not_unmixed_into_it() -> None:
    """The board in a piece's shadow is the board with less light, no mix of the piece's colour:
    it stays board, however near the piece."""
    board = (150, 200, 215)
    picture = np.zeros((40, 60, 3), np.uint8)
    picture[:] = board
    picture[10:30, 30:42] = (np.array(board) * 0.5).astype(np.uint8)  # the shadow
    cv2.circle(picture, (22, 20), 8, (170, 60, 30), -1)
    frame = _lens(picture, 1.0)
    named = _named_area(frame, board, ("blue",), edges=True)["blue"]
    assert named <= 1.15 * np.pi * 64


def test_a_heap_is_counted_by_the_frames_lone_pieces_when_none_fits_its_size() -> None:
    """Gems a blur makes larger than their nominal size fit it alone nowhere in the frame: a
    heap is then counted by the area of the frame's blobs of one hump (most gems lie alone), not
    by the nominal size, which counted each lone gem twice."""
    from vision.tokens import counted
    from vision.types import TokenSighting

    profile = load_profile("tower")
    gem = TokenSighting("salil", "gem", "blue", (0.0, 0.0), 0.5)
    nominal = np.pi * 5**2
    lone = [(gem, int(1.9 * nominal), False, 1)] * 3  # one hump each, too large to fit alone
    heap = (gem, int(3.8 * nominal), False, 1)  # two of them touching, one hump
    read = counted([*lone, heap], profile, 1.0)
    assert len(read) == 3 + 2


def test_a_meeple_turned_any_way_fits_its_oblong_footprint() -> None:
    """A standing meeple (profile tower: 16 x 8 mm, 16 mm tall) is seen across its lean anywhere
    from 8 mm (end on) to 18 mm (turned halfway): end on or side on it fits a meeple; a round
    piece of the same area would be 12.8 mm across, and a 30 mm smear is no meeple either way."""
    from vision.tokens import across_range, kind_sizes, round_misfit

    profile = load_profile("tower")
    width = kind_sizes(profile)["meeple"]
    assert abs(width - 2 * np.sqrt(16 * 8 / np.pi)) < 0.01
    narrow, wide = across_range("meeple", width, profile)
    assert (narrow, round(wide, 1)) == (8.0, 17.9)
    lean = 5.0
    for across, area in [(8.5, 8 * 16 + 8 * lean), (15.5, 8 * 16 + 16 * lean)]:
        assert round_misfit(width, across, area, lean, narrow, wide) < 0.1
        assert round_misfit(width, across, area, lean) > round_misfit(width, across, area, lean, narrow, wide)
    assert round_misfit(width, 30.0, 30 * 16, lean, narrow, wide) > 0.5
    assert across_range("gem", 10.0, profile) == (10.0, 10.0)


@pytest.mark.parametrize("bad", ["depth = 20", "depth = 0", 'depth = "thin"'])
def test_a_bad_footprint_depth_is_explained(bad: str) -> None:
    import tomllib

    from vision.profiles import ProfileError, parse_profile

    text = (Path(__file__).parent.parent / "vision/profiles/tower.toml").read_text()
    assert "depth = 8" in text
    with pytest.raises(ProfileError, match="depth"):
        parse_profile(tomllib.loads(text.replace("depth = 8", bad, 1)))


def test_a_colour_lit_is_its_lit_side_not_the_other_way() -> None:
    """Red lit is pink to the camera (clipped and washed by the lamp), orange lit yellow, any
    colour white; pink is no lit red, purple no lit blue, and no colour is a darker one lit."""
    from vision.colours import DEFAULT_COLOURS, lit_sides

    names = list(DEFAULT_COLOURS)
    lit = lit_sides(np.array([DEFAULT_COLOURS[n] for n in names]))

    def sides(x: str) -> set[str]:
        return {names[y] for y in np.flatnonzero(lit[names.index(x)])}

    assert sides("red") == {"pink", "white"}
    assert sides("orange") == {"yellow", "white"}
    assert sides("pink") == sides("purple") == sides("blue") == {"white"}
    assert not sides("white")


def test_a_pieces_lit_side_is_joined_to_it_a_second_piece_is_not() -> None:
    """A pink meeple whose top is lit white: white parts its pink in two (47 + 47 px and 67 px
    white between). Joined, the three are one piece; the same white the size of a whole meeple
    beside a whole pink one is another piece, and a white part larger than its pink is no lit
    side of it."""
    from vision.tokens import with_its_lit_side

    box = np.zeros((30, 40), np.intp) - 1
    box[5:15, 5:10] = 0  # pink
    box[5:15, 10:16] = 1  # white, its top
    box[5:15, 16:21] = 2  # pink
    rows, cols = np.nonzero(box >= 0)
    colour = box[rows, cols]
    pink, white = 0, 1
    parts = [
        (pink, np.flatnonzero(colour == 0)),
        (white, np.flatnonzero(colour == 1)),
        (pink, np.flatnonzero(colour == 2)),
    ]
    lit = np.array([[False, True], [False, False]])
    taken = np.zeros(rows.size, bool)
    whole = with_its_lit_side(pink, parts[0][1], parts, rows, cols, lit, taken, 200.0)
    assert whole.size == rows.size
    assert with_its_lit_side(pink, parts[0][1], parts, rows, cols, lit, taken, 100.0).size < rows.size
    no_light = np.zeros_like(lit)
    assert with_its_lit_side(pink, parts[0][1], parts, rows, cols, no_light, taken, 200.0).size == 50
    big_white = [(pink, parts[0][1]), (white, np.flatnonzero(colour >= 1))]
    assert with_its_lit_side(pink, parts[0][1], big_white, rows, cols, lit, taken, 200.0).size == 50


def test_two_pieces_of_one_colour_touching_are_cut_at_their_waist() -> None:
    """Two meeples side by side, one blob of one colour (issue 25 item 3): cut across their
    length where they meet, each half one meeple; a strip is cut at its narrowest in its middle
    half."""
    from vision.tokens import split_at_waist

    box = np.zeros((30, 50), np.uint8)
    cv2.ellipse(box, (14, 15), (9, 6), 20, 0, 360, 1, -1)
    cv2.ellipse(box, (31, 14), (9, 6), -15, 0, 360, 1, -1)
    rows, cols = np.nonzero(box)
    halves = split_at_waist(rows, cols)
    assert halves is not None
    first, second = halves
    assert first.size + second.size == rows.size
    assert {round(float(cols[h].mean()) / 5) * 5 for h in halves} == {15, 30}
    notched = np.zeros((30, 50), np.uint8)
    notched[10:20, 5:45] = 1
    notched[10:17, 29:31] = 0  # narrowest at x = 29-30, off its middle
    rows, cols = np.nonzero(notched)
    cut = split_at_waist(rows, cols)
    assert cut is not None
    assert 28 <= min(cols[cut[0]].max(), cols[cut[1]].max()) <= 31


def test_a_cards_shaded_edge_round_it_is_its_rim_not_a_card() -> None:
    """A red card with its bevelled edge a brown band all round it: the band's hull is the card,
    the red wholly inside and filling it, so the band is the card's rim; a brown card lying
    partly under the red one holds only a corner of it under its hull, and is a card."""
    from vision.tokens import rim_of_another

    box = np.zeros((40, 40), np.intp) - 1
    box[5:27, 5:27] = 1  # brown band
    box[8:24, 8:24] = 0  # red card inside it
    rows, cols = np.nonzero(box >= 0)
    colour = box[rows, cols]
    parts = [(0, np.flatnonzero(colour == 0)), (1, np.flatnonzero(colour == 1))]
    assert rim_of_another(parts[1][1], 1, parts, rows, cols)
    assert not rim_of_another(parts[0][1], 0, parts, rows, cols)
    box[:] = -1
    box[15:37, 15:37] = 1  # a brown card under ...
    box[5:25, 5:25] = 0  # ... the red one, over its corner
    rows, cols = np.nonzero(box >= 0)
    colour = box[rows, cols]
    parts = [(0, np.flatnonzero(colour == 0)), (1, np.flatnonzero(colour == 1))]
    assert not rim_of_another(parts[1][1], 1, parts, rows, cols)


def test_dark_plastic_mirroring_the_board_is_no_board_for_its_hue() -> None:
    """A glossy black gem on a tan mat shows the mat's hue at under a third of its light (path-
    traced Tower, 0103: (38, 60, 75) on (126, 164, 175)): by hue it is nearer the mat than black,
    but no shadow is that dark (`SHADOW_FLOOR`), so it is the dark colour; the mat in a piece's
    shadow, at two thirds of its light, is not. Only where low pieces lie (`low`): beside a tall
    figure a shadow is that dark too. Where no dark colour is named among, it is not."""
    from vision.colours import Palette
    from vision.tokens import nearer_a_colour

    board = np.array([126, 164, 175], np.uint8)
    bgr = np.tile(board, (2, 4, 1))
    bgr[0, :] = (84, 110, 117)  # the mat in a shadow
    bgr[1, :] = (38, 60, 75)  # a black gem mirroring it
    background = np.tile(cv2.cvtColor(board.reshape(1, 1, 3), cv2.COLOR_BGR2LAB), (2, 4, 1)).astype(
        np.float32
    )
    names, choices = Palette().features(("green", "blue", "red", "black"))
    dark = np.array([n == "black" for n in names])
    mask = np.ones((2, 4), np.uint8)
    low = np.ones((2, 4), np.uint8)
    named = nearer_a_colour(bgr, background, mask, choices, dark, low=low)
    assert named.rows.tolist() == [1, 1, 1, 1]
    assert {names[c] for c in named.colour} == {"black"}
    beside_a_tall_piece = nearer_a_colour(bgr, background, mask, choices, dark, low=low * 0)
    assert not (beside_a_tall_piece.rows == 1).any()
    no_dark = nearer_a_colour(bgr, background, mask, choices, np.zeros_like(dark), low=low)
    assert not (no_dark.rows == 1).any()


def test_only_places_of_low_pieces_are_low() -> None:
    """Tower's gem and material places hold pieces lower than they are wide (6 mm gems 10 mm
    across, cards); its meeple spots (16 mm tall and wide) and Turris's places (Scouts, Beasts)
    do not."""
    from vision.regions import TopDown
    from vision.tokens import low_places

    tower = load_profile("tower")
    top = TopDown(np.zeros((560, 800, 3), np.uint8), (0.0, 0.0), 1.0)
    tokens = [r for r in tower.regions if r.holds == "tokens"]
    low = low_places(top, tokens, tower, (0, 0), (560, 800))
    gems, meeple = tower.region("player/1/gems"), tower.region("stall/1/meeple")
    gx, gy = (int(v) for v in np.mean(gems.polygon, axis=0))
    mx, my = (int(v) for v in np.mean(meeple.polygon, axis=0))
    assert low[gy, gx] == 1 and low[my, mx] == 0
    turris = load_profile("turris")
    places = [r for r in turris.regions if r.holds == "tokens"]
    assert not low_places(top, places, turris, (0, 0), (560, 800)).any()


def hidden_tile_scene(
    band_colour: tuple[int, int, int], apart: int = 0, corner: tuple[int, int, int] | None = None
) -> tuple[Named, list[str], np.ndarray, TopDown, TokenSighting]:
    """A blue priest (20 mm) read on cell/2/3 of Am'harb's island, seen at 1 px/mm, over a 25 mm
    tile whose uncovered L shows a band of `band_colour` (its far 5 mm corner of `corner`), every
    pixel unlike the board named its nearest colour; or, `apart` mm away across the place, beside
    it."""
    board = (90, 120, 100)
    image = np.full((360, 360, 3), board, np.uint8)
    x, y = 45 * 3 + 10, 45 * 2 + 10
    image[y : y + 25, x : x + 25] = band_colour
    if corner is not None:
        image[y + 20 : y + 25, x + 20 : x + 25] = corner
    cv2.circle(image, (x + 8 - apart, y + 8 - apart), 10, (170, 60, 30), -1)  # the priest, to a corner
    rows, cols = np.nonzero(np.abs(image.astype(int) - board).sum(axis=-1) > 30)
    names, choices = Palette().features(("pink", "blue", "green", "yellow", "red", "white", "black"))
    features = shade_free(image[rows, cols].astype(np.float32))
    named = Named(rows, cols, features, nearest(features, choices))
    priest = TokenSighting("cell/2/3", "priest", "blue", (x + 8.5 - apart, y + 8.5 - apart), 0.9)
    return named, names, choices, TopDown(image, (0.0, 0.0), 1.0), priest


def test_a_tile_mostly_hidden_under_a_piece_is_read_with_it() -> None:
    """A priest on a tile hides most of it; what shows (an L) is read as the tile, in the tiles'
    colour most of it is named, else the one most of it is nearest: a red tile's L under a warm
    lamp named pink is red (path-traced tables: 65 tiles under pieces not read, docs/vision.md)."""
    profile = load_profile("amharb-4p")
    bands = (
        ((50, 40, 190), "red"),
        ((150, 130, 235), "red"),  # named pink: nearest red among the tiles' colours
        ((150, 170, 40), "blue"),  # named green: nearest blue among them
        ((40, 200, 225), "yellow"),
    )
    for band, colour in bands:
        named, names, choices, top, priest = hidden_tile_scene(band)
        unhued = np.array([n in ("white", "black") for n in names])
        tiles = tiles_under_pieces([priest], named, names, choices, unhued, profile, top, (0, 0), None)
        assert [(t.region, t.kind, t.color) for t in tiles] == [("cell/2/3", "resource", colour)], band


def test_no_tile_where_what_shows_is_the_pieces_own_or_beyond_a_tile() -> None:
    """The priest's own colour beyond its top (its lean, its rim) is no tile, nor is a tile's
    colour whose square cannot hold the priest's foot."""
    profile = load_profile("amharb-4p")
    for band, apart in (((170, 60, 30), 0), ((50, 40, 190), 12)):
        named, names, choices, top, priest = hidden_tile_scene(band, apart)
        unhued = np.array([n in ("white", "black") for n in names])
        assert tiles_under_pieces([priest], named, names, choices, unhued, profile, top, (0, 0), None) == []


def shaded_pawn(cap_px: int, read: list[TokenSighting]) -> list[TokenSighting]:
    """A pink cultist (12 mm) on cell/3/3 of Am'harb's island lit from the side, seen at 1 px/mm
    against the empty board: the mask holds its round outline and its cast shadow beside it; a
    lit cap `cap_px` across is named pink, its shaded body nothing, its shadow black."""
    profile = load_profile("amharb-4p")
    names, _ = Palette().features(("pink", "blue", "green", "yellow", "red", "white", "black"))
    mask = np.zeros((360, 360), np.uint8)
    cx, cy = 45 * 3 + 22, 45 * 3 + 22
    cv2.circle(mask, (cx, cy), 6, 1, -1)
    shadow = np.zeros_like(mask)
    cv2.ellipse(shadow, (cx + 9, cy + 2), (7, 4), 0, 0, 360, 1, -1)
    shadow[mask > 0] = 0
    mask |= shadow
    cap = np.zeros_like(mask)
    cv2.circle(cap, (cx - 2, cy - 2), cap_px // 2, 1, -1)
    rows, cols = np.nonzero(cap | shadow)
    colour = np.where(shadow[rows, cols] > 0, names.index("black"), names.index("pink"))
    named = Named(rows, cols, np.zeros((rows.size, 4), np.float32), colour)
    unpainted = np.array([n in ("white", "black") for n in names])
    regions = [r for r in profile.regions if r.holds == "tokens"]
    top = TopDown(np.zeros((360, 360, 3), np.uint8), (0.0, 0.0), 1.0)
    parts = cv2.connectedComponentsWithStats(mask)[:3]
    colours = colour_map(named, mask.shape)
    return shaded_by_outline(parts, colours, names, unpainted, read, profile, regions, top, (0, 0), None)


def test_a_piece_in_its_own_shade_is_known_by_its_outline_and_lit_cap() -> None:
    """A pawn under a low lamp shows a lit cap in its colour and a body in its own shade, nearer
    the board than any colour (path-traced held table 0608: six such pieces not read): its
    outline less its shadow is a cultist's, its cap says pink. A speck of colour is no cap, a part
    named pink all over is not in shade (what kept it from being read is not its light), and a
    place where a piece was read is not read again."""
    assert [(t.region, t.kind, t.color) for t in shaded_pawn(7, [])] == [("cell/3/3", "cultist", "pink")]
    assert shaded_pawn(3, []) == []
    assert shaded_pawn(13, []) == []  # named pink all over, yet read as nothing: no piece in shade
    there = TokenSighting("cell/3/3", "cultist", "pink", (157.0, 157.0), 0.9)
    assert shaded_pawn(7, [there]) == []


def pawn_read_by_its_ball(foot_mm: int, touching: bool = False) -> list[TokenSighting]:
    """A blue pawn `foot_mm` wide on cell/3/3 of Am'harb's island, seen at 1 px/mm against the
    empty board, read as a cultist by its ball (12 mm, named blue; its body in shade, named
    nothing; its shadow black); or a blue cultist with a red piece touching it, unread, the two
    as wide together."""
    profile = load_profile("amharb-4p")
    names, _ = Palette().features(("pink", "blue", "green", "yellow", "red", "white", "black"))
    cx, cy = 45 * 3 + 22, 45 * 3 + 22
    mask = np.zeros((360, 360), np.uint8)
    cv2.circle(mask, (cx, cy), foot_mm // 2, 1, -1)
    red = np.zeros_like(mask)
    if touching:
        red[:, cx + 6 :] = mask[:, cx + 6 :]
    shadow = np.zeros_like(mask)
    cv2.ellipse(shadow, (cx + foot_mm // 2 + 4, cy), (6, 4), 0, 0, 360, 1, -1)
    shadow[(mask | red) > 0] = 0
    ball = np.zeros_like(mask)
    cv2.circle(ball, (cx, cy), 6, 1, -1)
    mask |= shadow | red
    rows, cols = np.nonzero(ball | shadow | red)
    colour = np.select(
        [ball[rows, cols] > 0, shadow[rows, cols] > 0],
        [names.index("blue"), names.index("black")],
        names.index("red"),
    )
    named = Named(rows, cols, np.zeros((rows.size, 4), np.float32), colour)
    unpainted = np.array([n in ("white", "black") for n in names])
    top = TopDown(np.zeros((360, 360, 3), np.uint8), (0.0, 0.0), 1.0)
    read = [TokenSighting("cell/3/3", "cultist", "blue", (cx + 0.5, cy + 0.5), 0.8)]
    parts = cv2.connectedComponentsWithStats(mask)[:3]
    colours = colour_map(named, mask.shape)
    return kinds_by_outline(read, parts, colours, names, unpainted, profile, top, (0, 0), None)


def test_a_pawn_seen_by_its_ball_is_the_kind_its_outline_says() -> None:
    """A wooden pawn's ball hides its steep body from above: a priest's 12 mm ball is read as a
    cultist (path-traced tables: 88 priests of pawn sets read as cultists, docs/vision.md). What
    differs from the empty board is the whole pawn: a 20 mm outline is a priest's, a 12 mm one a
    cultist's; an outline shared with a piece of another colour is no one piece's."""
    assert [t.kind for t in pawn_read_by_its_ball(20)] == ["priest"]
    assert [t.kind for t in pawn_read_by_its_ball(12)] == ["cultist"]
    assert [t.kind for t in pawn_read_by_its_ball(20, touching=True)] == ["cultist"]


def pawn_on_a_tile(foot_mm: int, beside: str = "resource") -> list[TokenSighting]:
    """A blue pawn `foot_mm` wide standing on a red 25 mm tile on cell/3/3, at 1 px/mm against
    the empty board, read as a cultist by its 12 mm ball (named blue; its body in shade, named
    nothing). The tile is named red, a band a pixel wide round it unnamed (its blurred rim), its
    own shadow and the pawn's black; the tile read as `beside` (a resource, or a piece)."""
    profile = load_profile("amharb-4p")
    names, _ = Palette().features(("pink", "blue", "green", "yellow", "red", "white", "black"))
    cx, cy = 45 * 3 + 22, 45 * 3 + 22
    tile = np.zeros((360, 360), np.uint8)
    tile[cy - 12 : cy + 13, cx - 12 : cx + 13] = 1
    rim = cv2.dilate(tile, np.ones((3, 3), np.uint8)) - tile
    pawn = np.zeros_like(tile)
    cv2.circle(pawn, (cx + 2, cy), foot_mm // 2, 1, -1)
    ball = np.zeros_like(tile)
    cv2.circle(ball, (cx + 2, cy), 6, 1, -1)
    shadow = np.zeros_like(tile)
    cv2.ellipse(shadow, (cx + 2 + foot_mm // 2 + 3, cy), (5, 4), 0, 0, 360, 1, -1)
    shadow[pawn > 0] = 0
    mask = tile | rim | pawn | shadow
    red = tile & ~pawn & ~shadow
    rows, cols = np.nonzero(ball | shadow | red)
    colour = np.select(
        [ball[rows, cols] > 0, shadow[rows, cols] > 0],
        [names.index("blue"), names.index("black")],
        names.index("red"),
    )
    named = Named(rows, cols, np.zeros((rows.size, 4), np.float32), colour)
    unpainted = np.array([n in ("white", "black") for n in names])
    top = TopDown(np.zeros((360, 360, 3), np.uint8), (0.0, 0.0), 1.0)
    read = [
        TokenSighting("cell/3/3", "cultist", "blue", (cx + 2.5, cy + 0.5), 0.8),
        TokenSighting("cell/3/3", beside, "red", (cx + 0.5, cy + 0.5), 0.9),
    ]
    parts = cv2.connectedComponentsWithStats(mask)[:3]
    colours = colour_map(named, mask.shape)
    return kinds_by_outline(read, parts, colours, names, unpainted, profile, top, (0, 0), None)


def test_a_pawn_on_a_tile_is_the_kind_its_outline_says() -> None:
    """A priest standing on a tile of another colour (Disciple Phase: its stack higher than the
    cost) is read by its ball as a cultist (path-traced tables with the empty board: 58 such
    priests): its outline is its colour's pixels and the unnamed ones round them, the tile's
    blurred rim opened off. A 20 mm outline is a priest's, a 12 mm one a cultist's; a piece of
    another colour where the tile is read is no tile it stands on, but the other piece's."""
    assert [(t.kind, t.color) for t in pawn_on_a_tile(20)] == [("priest", "blue"), ("resource", "red")]
    assert [(t.kind, t.color) for t in pawn_on_a_tile(12)] == [("cultist", "blue"), ("resource", "red")]
    assert [t.kind for t in pawn_on_a_tile(20, beside="cultist")][0] == "cultist"


def test_a_tile_bitten_by_the_piece_on_it_is_still_a_tile_square() -> None:
    """A part whose outline is a tile's square is that tile, whatever piece stands on it biting
    into it (path-traced dev 0500: a yellow cultist on a blue tile was read as a yellow tile
    hidden under the blue one); a priest's round top, leaning or not, is no square."""
    tile = np.zeros((60, 60), np.uint8)
    tile[10:35, 10:35] = 1
    cv2.circle(tile, (24, 22), 6, 0, -1)  # the cultist's part, another colour
    assert squared(*np.nonzero(tile), 25)
    assert not squared(*np.nonzero(tile), 40)
    priest = np.zeros_like(tile)
    cv2.circle(priest, (30, 30), 10, 1, -1)
    assert not squared(*np.nonzero(priest), 25)
    cv2.circle(priest, (30, 34), 10, 1, -1)  # leaning
    assert not squared(*np.nonzero(priest), 25)


def test_a_hidden_tiles_printed_frame_shows_it_where_the_board_is_known() -> None:
    """A tile's printed white frame round what shows of its colour is the tile's too, where the
    empty board says no white is printed there (path-traced tables: a blue tile under a green
    priest showed its frame and a corner of blue): read by the corner's colour (red here). Without the
    empty board, white may be the board's own print, and the corner alone is too little."""
    profile = load_profile("amharb-4p")
    named, names, choices, top, priest = hidden_tile_scene((235, 235, 235), corner=(50, 40, 190))
    unhued = np.array([n in ("white", "black") for n in names])
    printed = np.array([n == "white" for n in names])
    read = tiles_under_pieces([priest], named, names, choices, unhued, profile, top, (0, 0), None, printed)
    assert [(t.kind, t.color) for t in read] == [("resource", "red")]
    assert tiles_under_pieces([priest], named, names, choices, unhued, profile, top, (0, 0), None) == []


def test_print_names_no_pixel_of_a_hue() -> None:
    """Print's black names no pixel with a hue (`PRINT_HUE`) beside a piece's lit side of that
    hue: it is that piece's side in its own shade (a blue pawn's side named black, the pawn read
    by its lit ball as a cultist); alone, a dark pixel's hue says it is no ink, not whose it is.
    With the empty board shown, white and black in the mask are a tile's print or a piece's light
    and shade, not the board's, and white names no pixel of a hue either: a blue tile lit pale
    (path-traced dev 0507: (184, 125, 90) BGR, nearer white than the palette's blue) is blue.
    Without the empty board the pale tile is left white (the board's own white print under a
    warm lamp has a hue); a white emblem and a grey one stay print's."""
    from vision.colours import Palette
    from vision.tokens import nearer_a_colour

    board = np.array([120, 170, 170], np.float32)  # khaki
    bgr = np.tile(board.astype(np.uint8), (1, 7, 1))
    bgr[0, 0] = (184, 125, 90)  # a pale blue tile
    bgr[0, 2] = (170, 60, 30)  # a blue piece's lit side
    bgr[0, 3] = (70, 45, 32)  # its shaded side
    bgr[0, 5] = (70, 45, 32)  # as dark and blue, alone
    bgr[0, 1] = (235, 240, 238)  # a white emblem
    bgr[0, 6] = (50, 50, 52)  # a black one
    background = np.tile(cv2.cvtColor(bgr[:1, :1] * 0 + board.astype(np.uint8), cv2.COLOR_BGR2LAB), (1, 7, 1))
    names, choices = Palette().features(("pink", "blue", "green", "yellow", "red", "white", "black"))
    mask = np.zeros((1, 7), np.uint8)
    mask[0, [0, 1, 2, 3, 5, 6]] = 1

    def named(grey_print: np.ndarray | None) -> list[str]:
        seen = nearer_a_colour(bgr, background.astype(np.float32), mask, choices, grey_print=grey_print)
        return [names[c] for c in seen.colour[np.argsort(seen.cols)]]

    assert named(None) == ["white", "white", "blue", "black", "black", "black"]  # the bare palette's
    printed = np.array([n in ("white", "black") for n in names])
    assert named(printed) == ["blue", "white", "blue", "blue", "black", "black"]
    black = np.array([n == "black" for n in names])  # without the empty board: its ink only
    assert named(black) == ["white", "white", "blue", "blue", "black", "black"]


def pale_piece(side_bgr: tuple[int, int, int], read: list[TokenSighting]) -> list[TokenSighting]:
    """A cultist (12 mm) on cell/3/3 of Am'harb's island under a bright lamp, at 1 px/mm against
    its empty board: its top washed out to white, named print's white; its side in its own shade a
    crescent of `side_bgr`, named nothing; the board round it khaki."""
    from vision.colours import MaskPixels
    from vision.tokens import PiecesView, pale_by_outline

    profile = load_profile("amharb-4p")
    names, choices = Palette().features(("pink", "blue", "green", "yellow", "red", "white", "black"))
    board = (120, 170, 170)
    image = np.full((360, 360, 3), board, np.uint8)
    cx, cy = 45 * 3 + 22, 45 * 3 + 22
    cv2.circle(image, (cx, cy + 2), 6, side_bgr, -1)
    cv2.circle(image, (cx, cy), 6, (238, 240, 238), -1)
    mask = (np.abs(image.astype(int) - board).sum(axis=-1) > 0).astype(np.uint8)
    rows, cols = np.nonzero((image == (238, 240, 238)).all(axis=-1))
    named = Named(rows, cols, shade_free(image[rows, cols]), np.full(rows.size, names.index("white")))
    background = cv2.cvtColor(np.full_like(image, board), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    view = PiecesView(background, mask, (0, 0), MaskPixels.of(image, mask), lab)
    unpainted = np.array([n in ("white", "black") for n in names])
    regions = [r for r in profile.regions if r.holds == "tokens"]
    top = TopDown(image, (0.0, 0.0), 1.0)
    colours = colour_map(named, mask.shape)
    return pale_by_outline(
        view, colours, names, choices, unpainted, read, profile, regions, top, (0, 0), None
    )


def test_a_piece_washed_out_white_is_named_by_its_side_in_shade() -> None:
    """Under a bright lamp a blue or green cultist's top is (235, 228, 206) or (238, 253, 255) BGR,
    named print's white (path-traced tables: 23 lone cultists not read). With the empty board its
    round outline is a cultist's, and its side in its own shade, less the board's hue there,
    points to its colour: blue, green. A side of the board's own hue (its shadow) says nothing,
    and a place where a piece was read is not read again."""
    assert [(t.kind, t.color) for t in pale_piece((150, 90, 60), [])] == [("cultist", "blue")]
    assert [(t.kind, t.color) for t in pale_piece((70, 140, 60), [])] == [("cultist", "green")]
    assert pale_piece((60, 85, 85), []) == []  # the board's khaki in shade
    there = TokenSighting("cell/3/3", "cultist", "blue", (157.0, 157.0), 0.9)
    assert pale_piece((150, 90, 60), [there]) == []
