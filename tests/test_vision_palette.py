"""The players' palette: colours named by hue, calibrated from a photo, kept in a file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.colours import Palette, load_palette, measure, name_colour, save_palette
from vision.types import VisionError

RECORDING = Path(__file__).resolve().parent / "recordings" / "amharb-4p" / "0001.jpg"


def patch(bgr: tuple[int, int, int], scale: float = 1.0) -> np.ndarray:
    return np.full((20, 20, 3), np.array(bgr) * scale, np.uint8)


@pytest.mark.parametrize("name", ["red", "green", "blue", "yellow", "pink", "orange", "purple"])
@pytest.mark.parametrize("light", [1.0, 0.55])
def test_a_piece_keeps_its_name_in_shadow(name: str, light: float) -> None:
    colour = dict(Palette().colours)[name]
    assert name_colour(patch(colour, light), (10, 10), 10, Palette()) == name


def test_a_die_keeps_its_hue_when_a_lamp_washes_it_out() -> None:
    """A purple die's lit top under a bright lamp is a pale lilac (white pips and a glint grey
    it further): by lightness and saturation nearer pink, by hue still purple (the path-traced
    Arkhanos dice: purple read pink 13 times, then once). Pink and purple dice as they are stay."""
    dice = ("purple", "yellow", "pink", "blue", "green")
    arkhanos = Palette(tuple(c for c in Palette().colours if c[0] in dice))
    lilac = (218, 158, 187)  # BGR of a washed-out purple die's top, as rendered
    assert name_colour(patch(lilac), (10, 10), 10, arkhanos) == "purple"
    for name in ("purple", "pink"):
        assert name_colour(patch(dict(Palette().colours)[name]), (10, 10), 10, arkhanos) == name


def test_a_die_is_named_in_the_white_of_the_markers_paper() -> None:
    """Under a warm lamp the frame is orange-tinted; the gains that make the markers' paper white
    take the tint out before naming (the palette's colours are as seen on a white-balanced board)."""
    warm = np.array([0.6, 0.85, 1.2], np.float32)  # the lamp's gains on B, G, R
    for name, seen_as in (("white", "orange"), ("yellow", "orange"), ("purple", "pink"), ("pink", "red")):
        bgr = dict(Palette().colours)[name]
        tinted = patch(tuple(int(min(255, v * g)) for v, g in zip(bgr, warm)))  # type: ignore[arg-type]
        assert name_colour(tinted, (10, 10), 10, Palette()) == seen_as  # in the lamp's light
        assert name_colour(tinted, (10, 10), 10, Palette(), 1 / warm) == name


def test_a_calibrated_colour_is_used() -> None:
    teal = (140, 130, 20)
    assert name_colour(patch(teal), (10, 10), 10, Palette()) != "teal"
    assert name_colour(patch(teal), (10, 10), 10, Palette().with_sample("teal", teal)) == "teal"


def test_palette_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "palette.toml"
    palette = Palette().with_sample("red", (10, 20, 200)).with_sample("teal", (140, 130, 20))
    save_palette(palette, path)
    assert dict(load_palette(path).colours) == dict(palette.colours)
    assert 'red = "#c8140a"' in path.read_text()


@pytest.mark.parametrize(
    "text",
    ["", 'format = "palette/2"', 'format = "palette/1"\n[colours]\nred = "c8140a"', "not toml ["],
)
def test_a_bad_palette_file_is_a_clear_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "palette.toml"
    path.write_text(text)
    with pytest.raises(VisionError, match="palette"):
        load_palette(path)


def test_measure_refuses_a_pixel_outside_the_image() -> None:
    with pytest.raises(VisionError, match="outside"):
        measure(patch((1, 2, 3)), (20, 3))


def test_calibrate_from_the_command_line(tmp_path: Path) -> None:
    palette = tmp_path / "palette.toml"
    command = [sys.executable, "-m", "companion.cli", "vision", "calibrate", str(RECORDING)]
    command += ["--colour", "sky"]
    done = subprocess.run(
        [*command, "--at", "640,480", "--palette", str(palette), "--profile", "amharb-4p"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "sky: #" in done.stdout and "(new)" in done.stdout
    assert "sky" in dict(load_palette(palette).colours)
    bad = subprocess.run([*command, "--at", "640", "--palette", str(palette)], capture_output=True, text=True)
    assert bad.returncode != 0 and "X,Y" in bad.stderr and "Traceback" not in bad.stderr
