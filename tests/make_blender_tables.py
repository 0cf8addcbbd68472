"""Renders Am'harb, Turris, Yuggoth, Tower or Arkhanos tables with Blender's Cycles
(tests/blender_scene.py, tests/blender_turris.py, tests/blender_yuggoth.py, tests/blender_tower.py,
tests/blender_arkhanos.py; tests/blender_render.py) into a recording with truth (the recording
format of ../shared/design/recording-format.md):

    .venv/bin/python -m tests.make_blender_tables OUT --seeds 500 512
    .venv/bin/python -m tests.make_blender_tables OUT --seeds 500 512 --empty    # OUT/empty/
    .venv/bin/python -m tests.make_blender_tables OUT --seeds 500 501 --taught   # OUT/taught/
    .venv/bin/python -m tests.make_blender_tables OUT --seeds 100 112 --profile turris
    .venv/bin/python -m tests.make_blender_tables OUT --seeds 100 112 --profile arkhanos
    .venv/bin/python -m tests.make_blender_tables OUT --seeds 100 106 --still    # OUT/still/

`--empty` renders each table's board with nothing on it (as a player shows it at calibration),
`--taught` each colour's pieces laid apart on it (as a player teaches the companion their pieces,
vision/teach.py), both under the table's own lamps.

Each frame takes about 40-90 s on two cores (`make render-tables` makes .venv-blender first). The
render is linear light; a camera's doing is applied here: exposure set so the brightest 2% of
the frame sits near the top of the range, an sRGB tone curve, sensor noise and JPEG.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from tests.blender_arkhanos import arkhanos_table
from tests.blender_scene import Table, amharb_table, taught_table, write_scene
from tests.blender_tower import tower_table
from tests.blender_turris import turris_table
from tests.blender_yuggoth import yuggoth_table
from vision.profiles import load_profile
from vision.training.develop import developed

REPO = Path(__file__).resolve().parents[1]
BLENDER_PYTHON = REPO / ".venv-blender" / "bin" / "python"
RENDER = REPO / "tests" / "blender_render.py"
TABLES = {
    "amharb-4p": amharb_table,
    "turris": turris_table,
    "yuggoth-three": yuggoth_table,
    "tower": tower_table,
    "arkhanos": arkhanos_table,
}
"""The profiles whose tables are rendered, and what lays each table out."""


TAUGHT_COLOURS = ("pink", "blue", "green", "yellow", "red")
"""The colours a player teaches on an Am'harb table: the four players' and the tiles' red."""


def render(
    seed: int,
    out_jpg: Path,
    empty: bool = False,
    taught: str | None = None,
    profile_name: str = "amharb-4p",
    scale: int = 1,
) -> dict[str, object]:
    """One table rendered and developed into `out_jpg` (the render itself kept beside it as
    .hdr when `out_jpg`'s folder has a `linear` folder); its truth. `empty`: the same table
    under the same lamps with nothing on the board, as the players show it at calibration (the
    camera's exposure, white balance and noise its own). `taught`: instead, every piece of this
    colour laid apart on the empty board, as a player shows them when teaching. `scale`: the
    same view at so many times the frame's size (the camera's full-resolution still)."""
    profile = load_profile(profile_name)
    table: Table = TABLES[profile_name](profile, seed)
    if scale != 1:
        table = replace(table, scene={**table.scene, "size": [scale * v for v in table.scene["size"]]})
    if empty:
        table = replace(table, scene={**table.scene, "solids": []}, truth={"stacks": [], "tokens": []})
    if taught is not None:
        table = taught_table(table, profile, taught)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_scene(table, folder)
        hdr = folder / "render.hdr"
        subprocess.run(
            [str(BLENDER_PYTHON), str(RENDER), str(folder), str(hdr)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        linear = cv2.imread(str(hdr), cv2.IMREAD_UNCHANGED)
        if (out_jpg.parent / "linear").is_dir():
            hdr.replace(out_jpg.parent / "linear" / out_jpg.with_suffix(".hdr").name)
    if linear is None:
        raise RuntimeError(f"Blender wrote no picture for seed {seed}")
    develop = seed + (8 if empty else 7) + (0 if taught is None else 10 * (1 + TAUGHT_COLOURS.index(taught)))
    cv2.imwrite(str(out_jpg), developed(linear[..., :3], np.random.default_rng(develop)))
    return table.truth


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, nargs=2, default=(500, 512), metavar=("FIRST", "END"))
    parser.add_argument(
        "--empty", action="store_true", help="render each table's empty board into OUT/empty/ as well"
    )
    parser.add_argument(
        "--taught",
        action="store_true",
        help="render, for each table, each colour's pieces laid apart on its empty board into OUT/taught/",
    )
    parser.add_argument(
        "--still",
        action="store_true",
        help="render each table of a recording made before at twice its size into OUT/still/, as the "
        "camera's full-resolution still of that frame",
    )
    parser.add_argument("--profile", choices=sorted(TABLES), default="amharb-4p")
    args = parser.parse_args(argv)
    if args.taught and args.profile != "amharb-4p":
        parser.error("--taught lays out Am'harb's pieces only (tests/blender_scene.py taught_table)")
    if args.taught:  # beside a recording made before, as a player teaches the companion
        (args.out / "taught").mkdir(parents=True, exist_ok=True)
        for seed in range(*args.seeds):
            for colour in TAUGHT_COLOURS:
                render(seed, args.out / "taught" / f"{seed:04d}-{colour}.jpg", taught=colour)
            print(f"seed {seed}'s pieces shown for teaching rendered", file=sys.stderr)
        return
    if args.still:  # the full-resolution stills of a recording made before (same lamps, same camera)
        (args.out / "still").mkdir(parents=True, exist_ok=True)
        meta = json.loads((args.out / "recording.json").read_text())
        for frame in meta["frames"]:
            if args.seeds[0] <= frame["blender_seed"] < args.seeds[1]:
                name = f"still/{frame['blender_seed']:04d}.jpg"
                render(frame["blender_seed"], args.out / name, profile_name=meta["profile"], scale=2)
                frame["full"] = name
                print(f"seed {frame['blender_seed']}'s still rendered", file=sys.stderr)
        (args.out / "recording.json").write_text(json.dumps(meta, indent=1))
        return
    if args.empty:  # only the empty boards, beside a recording made before
        (args.out / "empty").mkdir(parents=True, exist_ok=True)
        for seed in range(*args.seeds):
            render(seed, args.out / "empty" / f"{seed:04d}.jpg", empty=True, profile_name=args.profile)
            print(f"seed {seed}'s empty board rendered", file=sys.stderr)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    frames = []
    for n, seed in enumerate(range(*args.seeds)):
        name = f"{seed:04d}.jpg"
        truth = render(seed, args.out / name, profile_name=args.profile)
        frames.append({"file": name, "t": float(n), "truth": truth, "blender_seed": seed})
        print(f"seed {seed} rendered", file=sys.stderr)
    (args.out / "recording.json").write_text(
        json.dumps(
            {
                "format": "table-recording/1",
                "description": f"{args.profile} tables path-traced by Blender Cycles "
                "(tests/make_blender_tables.py)",
                "source": f"{TABLES[args.profile].__module__} seeds {args.seeds[0]}-{args.seeds[1] - 1}, "
                f"Blender {blender_version()}",
                "game": load_profile(args.profile).game,
                "profile": args.profile,
                "camera": {"width": 1280, "height": 960, "fps": 1},
                "frames": frames,
            },
            indent=1,
        )
    )


def blender_version() -> str:
    done = subprocess.run(
        [str(BLENDER_PYTHON), "-c", "import bpy; print(bpy.app.version_string)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


if __name__ == "__main__":
    main()
