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
