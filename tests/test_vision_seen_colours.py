"""The palette's colours as this frame's pieces show them (`as_seen_here`): the light round a
piece is not the light on the markers' white paper (path-traced tables, docs/vision.md)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.colours import DEFAULT_COLOURS, SEEN_SHIFT, Palette, as_seen_here, nearest, shade_free
from vision.profiles import load_profile
from vision.regions import TopDown
from vision.tokens import pieces_view, tiles_seen_here

LAVENDER = (155, 110, 98)  # BGR: the board of a path-traced table under a cold lamp
BLUE_SEEN = (180, 72, 62)  # its blue tiles there: 30 from the palette's blue, 49 from the board


def table(
    board: tuple[int, int, int], pieces: list[tuple[tuple[int, int, int], int, int, int]]
) -> np.ndarray:
    """A board with square pieces (colour, x, y, side), a little blurred as a lens blurs."""
    image = np.full((240, 320, 3), board, np.uint8)
    for colour, x, y, side in pieces:
        image[y : y + side, x : x + side] = colour
    return cv2.GaussianBlur(image, (5, 5), 1.0)


def unlike(image: np.ndarray, board: tuple[int, int, int]) -> np.ndarray:
    mask: np.ndarray = (np.abs(image.astype(int) - board).sum(axis=-1) > 30).astype(np.uint8)
    return mask


def lab_of(image: np.ndarray, board: tuple[int, int, int]) -> np.ndarray:
    """The bare board under every pixel (Lab), as the token reader works it out."""
    bare = np.full(image.shape, board, np.uint8)
    lab: np.ndarray = cv2.cvtColor(bare, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab


def palette_of(names: tuple[str, ...]) -> tuple[list[str], np.ndarray]:
    return Palette().features(names)


def test_blue_tiles_seen_off_the_palette_move_blue_to_them() -> None:
    pieces = [(BLUE_SEEN, 20 + 70 * i, 30, 25) for i in range(3)]
    pieces += [((170, 140, 235), 40 + 60 * i, 150, 12) for i in range(3)]  # pink, as the palette's
    image = table(LAVENDER, pieces)
    names, choices = palette_of(("pink", "blue", "white"))
    movable = np.array([n != "white" for n in names])
    seen = as_seen_here(image, lab_of(image, LAVENDER), unlike(image, LAVENDER), choices, movable, 12.0)
    blue, pink = names.index("blue"), names.index("pink")
    assert np.linalg.norm(choices[blue] - shade_free(np.array(BLUE_SEEN, np.float32))) > 25
    assert np.linalg.norm(seen[blue] - shade_free(np.array(BLUE_SEEN, np.float32))) < 5
    assert np.array_equal(seen[pink], choices[pink])  # seen as the palette's: left
    assert np.array_equal(seen[names.index("white")], choices[names.index("white")])


def test_fewer_than_three_pieces_are_no_evidence_of_the_light() -> None:
    image = table(LAVENDER, [(BLUE_SEEN, 20 + 70 * i, 30, 25) for i in range(2)])
    names, choices = palette_of(("pink", "blue"))
    seen = as_seen_here(
        image, lab_of(image, LAVENDER), unlike(image, LAVENDER), choices, np.ones(len(names), bool), 12.0
    )
    assert np.array_equal(seen, choices)


def test_rims_blurred_into_the_board_do_not_move_a_colour() -> None:
    """Red tiles on a pale green board: their blurred rims are a pinkish mix, a ring round each,
    many pixels in all; the three small pink pieces, seen as the palette's, keep pink where it
    is (the flat renders lost three pink cultists when a ring moved pink)."""
    green = (150, 190, 160)
    pieces = [((50, 40, 190), 15 + 60 * i, 20 + 90 * j, 25) for i in range(5) for j in range(2)]
    pieces += [((170, 140, 235), 40 + 90 * i, 200, 12) for i in range(3)]
    image = cv2.GaussianBlur(table(green, pieces), (7, 7), 2.0)
    names, choices = palette_of(("pink", "red"))
    seen = as_seen_here(
        image, lab_of(image, green), unlike(image, green), choices, np.ones(len(names), bool), 12.0
    )
    pink = names.index("pink")
    assert np.linalg.norm(seen[pink] - choices[pink]) < SEEN_SHIFT


def test_only_colours_with_a_hue_are_moved() -> None:
    """The stacks' reader and the colours as seen share one notion of a hue."""
    assert not Palette().has_hue("white") and not Palette().has_hue("black")
    assert all(Palette().has_hue(n) for n in DEFAULT_COLOURS if n not in ("white", "black"))


def test_a_palette_as_seen_keeps_what_was_not_moved_and_takes_what_was() -> None:
    """The stacks are named by the colours the frame's pieces show (`palette_here`): the palette
    is made again from the features, each colour as it was but those moved."""
    names, choices = Palette().features()
    seen = choices.copy()
    seen[names.index("blue")] = shade_free(np.array(BLUE_SEEN, np.float32))
    again = dict(Palette().as_seen(names, seen).colours)
    for name, colour in Palette().colours:
        expected = BLUE_SEEN if name == "blue" else colour
        assert np.abs(np.array(again[name]) - expected).max() <= 1, name


def amharb_top(shapes: list[tuple[str, tuple[int, int, int], int, int]]) -> TopDown:
    """Am'harb's island seen from above at 1 px/mm, a square 25 mm tile or a round piece as large
    (28 mm across) (shape, colour) in cells (row, column)."""
    image = np.full((360, 360, 3), (90, 120, 100), np.uint8)
    for shape, colour, row, col in shapes:
        x, y = 45 * col + 10, 45 * row + 10
        if shape == "square":
            image[y : y + 25, x : x + 25] = colour
        else:
            cv2.circle(image, (x + 12, y + 12), 14, colour, -1)
    return TopDown(cv2.GaussianBlur(image, (5, 5), 0.8), (0.0, 0.0), 1.0)


SALMON = (100, 110, 220)  # BGR: a red resource tile under a warm lamp (path-traced dev 0503)


def test_lone_tiles_say_how_their_own_colour_looks_here() -> None:
    """Am'harb's red resource tiles under a warm lamp are salmon, nearer the palette's pink than
    its red: a tile split into pink and red parts was read as neither (path-traced tables, issue
    18). A flat square of the tile's side is a tile whatever its colour, and only tiles come in
    red: red is moved to the tiles, pink left where it is."""
    profile = load_profile("amharb-4p")
    names, choices = Palette().features(("pink", "red", "yellow"))
    red, pink = names.index("red"), names.index("pink")
    salmon = shade_free(np.array([SALMON], np.float32))
    assert int(nearest(salmon, choices)[0]) == pink  # as the palette names it
    top = amharb_top([("square", SALMON, 1, 1), ("square", SALMON, 5, 6)])
    seen = tiles_seen_here(
        pieces_view(top, profile), profile, names, choices, np.zeros(len(names), bool), top
    )
    assert np.linalg.norm(seen[red] - salmon[0]) < 5
    assert np.array_equal(seen[pink], choices[pink])


def test_only_a_tile_shaped_lone_piece_moves_a_tile_colour() -> None:
    """A round salmon piece as large as a tile is no tile; and yellow, which the players' pieces
    come in too, is left to them (`as_seen_here`) even when lone yellow tiles look otherwise."""
    profile = load_profile("amharb-4p")
    names, choices = Palette().features(("pink", "red", "yellow"))
    top = amharb_top(
        [("round", SALMON, 1, 1), ("square", (60, 150, 200), 5, 6), ("square", (60, 150, 200), 2, 2)]
    )
    seen = tiles_seen_here(
        pieces_view(top, profile), profile, names, choices, np.zeros(len(names), bool), top
    )
    assert np.array_equal(seen, choices)
