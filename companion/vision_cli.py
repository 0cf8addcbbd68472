"""`companion vision eval | read`: the vision package from the command line."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.board import BoardLocator
from vision.colours import PALETTE_FILE, Palette, hex_colour, load_palette, load_sizes, measure, save_palette
from vision.dice import DiceReader
from vision.evaluate import evaluate, table_reader
from vision.frames import load
from vision.pipeline import TableReader, VisionConfig, draw, taught_config
from vision.profiles import load_profile
from vision.reference import capture, kept_empty_board, reference_path, save_empty_board
from vision.regions import paper_points, white_gains
from vision.teach import (
    DICE_FILE,
    dice_in_photo,
    finds_on_bare_table,
    load_dice,
    save_dice,
    teach_colours,
    teach_dice,
    with_bare_table,
)
from vision.types import VisionError


def vision_eval(
    path: Path,
    as_json: bool,
    show_misses: bool,
    every: int = 1,
    palette: str | None = None,
    data_dir: str | None = None,
) -> None:
    empty_boards = Path(data_dir) if data_dir else None
    result, misses = evaluate(path, table_reader(vision_config(palette, data_dir), empty_boards), every)
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for rec in result.get("recordings", [result]):
            _print_result(rec.get("recording", str(path)), rec)
        if "recordings" in result:
            _print_result("total", result)
    if show_misses:
        for miss in misses:
            print(f"  miss {miss.recording}/{miss.frame}: {miss.what}")


def _print_result(name: str, r: dict[str, Any]) -> None:
    parts = [f"{r['frames_scored']}/{r['frames']} frames scored"]
    if "board" in r:
        parts.append(f"board found in {r['board']['found']}/{r['board']['frames']}")
    if "dice" in r:
        d = r["dice"]
        parts.append(
            f"dice {d['correct']}/{d['truth']} correct ({d['accuracy']:.1%}), "
            f"{d['found']} found, {d['false_positives']} false positives"
        )
    for key in ("stacks", "tokens"):
        if key in r:
            x = r[key]
            fp = f", {x['false_positives']} false positives"
            if "empty_places" in x:
                fp += f" on {x['empty_places']} empty places"
            parts.append(f"{key} {x['correct']}/{x['truth']} correct ({x['accuracy']:.1%}){fp}")
    if "ms_per_frame" in r:
        parts.append(f"{r['ms_per_frame']['median']} ms/frame median, p95 {r['ms_per_frame']['p95']}")
    print(f"{name}: " + "; ".join(parts))
    for key, breakdown, what in (
        ("dice", "by_value", "showing"),
        ("stacks", "by_height", "discs"),
        ("tokens", "by_kind", ""),
    ):
        rows = r.get(key, {}).get(breakdown, {})
        if rows:
            print(
                f"  {key} by {breakdown[3:]}: "
                + ", ".join(_row(f"{what} {k}".strip(), x) for k, x in rows.items())
            )


def _row(label: str, x: dict[str, Any]) -> str:
    text = f"{label} {x.get('correct', 0)}/{x.get('truth', 0)}"
    return text + (f" (+{x['false_positives']} false)" if x.get("false_positives") else "")


def vision_config(palette: str | None, data_dir: str | None = None) -> VisionConfig:
    """The vision settings: what the players taught in `data_dir`, and the palette file when
    one is given."""
    config = taught_config(Path(data_dir)) if data_dir else VisionConfig()
    if not palette:
        return config
    return replace(config, dice=replace(config.dice, palette=load_palette(Path(palette))))


def vision_read(
    image_path: Path,
    profile: str | None,
    as_json: bool,
    debug_dir: str | None,
    palette: str | None = None,
    data_dir: str | None = None,
    full: Path | None = None,
) -> None:
    image = load(image_path)
    board = load_profile(profile) if profile else None
    empty = kept_empty_board(Path(data_dir), board) if data_dir and board else None
    reader = TableReader(board, vision_config(palette, data_dir), empty)
    obs = reader.read(image, full=load(full) if full else None)
    if as_json:
        print(json.dumps(asdict(obs), indent=2))
    else:
        if obs.pose:
            print(f"board: markers {list(obs.pose.markers)}, error {obs.pose.error_px} px")
        for st in obs.stacks:
            print(f"stack {st.region}: {st.color} {list(st.discs)} (confidence {st.confidence:.2f})")
        for tk in obs.tokens:
            print(f"token {tk.region}: {tk.color} {tk.kind} (confidence {tk.confidence:.2f})")
        for d in obs.dice:
            where = f" in {d.region}" if d.region else ""
            print(f"{d.kind} {d.value} ({d.color}) at {d.center}{where}, confidence {d.confidence:.2f}")
        print(f"{len(obs.dice)} dice; " + ", ".join(f"{k} {v:.1f} ms" for k, v in obs.timings_ms.items()))
    if debug_dir:
        out = Path(debug_dir)
        out.mkdir(parents=True, exist_ok=True)
        target = out / f"{image_path.stem}-seen.jpg"
        cv2.imwrite(str(target), draw(image, obs, board))
        print(f"wrote {target}")


def vision_calibrate(
    image_path: Path, name: str, at: tuple[int, int], palette_path: Path, profile: str | None
) -> None:
    """Measures one colour from a photo of a real piece and writes it into the palette file."""
    image = load(image_path)
    gains = None
    if profile:
        board = load_profile(profile)
        gains = white_gains(image, paper_points(BoardLocator(board).locate(image), board))
    palette = load_palette(palette_path) if palette_path.exists() else Palette()
    before = dict(palette.colours).get(name)
    measured = measure(image, at, gains)
    sizes = load_sizes(palette_path) if palette_path.exists() else ()  # what `vision teach` measured
    save_palette(palette.with_sample(name, measured), palette_path, sizes)
    was = f" (was {hex_colour(before)})" if before else " (new)"
    print(f"{name}: {hex_colour(measured)}{was}; written to {palette_path}")


def vision_empty(image_path: Path, profile: str, data_dir: Path) -> None:
    """Keeps a photo of the empty board where `serve` and `vision read --data-dir` find it."""
    board = load_profile(profile)
    path = reference_path(data_dir, board.name)
    save_empty_board(capture(load(image_path), board), path)
    print(f"the empty {board.name} board: written to {path}; its print is no longer read as pieces")


def vision_teach(shown: list[tuple[str, Path]], profile: str, data_dir: Path) -> None:
    """Learns each colour from a photo of its pieces on the empty board, with the colours taught
    before, and writes the palette and the pieces' sizes to the data directory, unless two
    colours cannot be told apart."""
    board = load_profile(profile)
    lesson, pieces = teach_colours([(colour, load(image)) for colour, image in shown], board, data_dir)
    for colour in dict.fromkeys(c for c, _ in shown):
        mine = [p for p in pieces if p.colour == colour]
        kinds = ", ".join(
            f"{sum(p.kind == k for p in mine)} {k}" for k in dict.fromkeys(p.kind for p in mine)
        )
        print(f"{colour}: {hex_colour(dict(lesson.palette.colours)[colour])} from {kinds}")
    print("sizes: " + ", ".join(f"{kind} {width:g} mm" for kind, width in lesson.sizes))
    if lesson.confusions:
        raise VisionError("nothing written: " + "; ".join(lesson.confusions))
    print(f"written to {data_dir / PALETTE_FILE}")


def vision_teach_dice(shown: list[tuple[int, Path]], data_dir: Path, table: Path | None = None) -> None:
    """Learns the players' dice from a photo of them showing each value, and (`table`) from a
    photo of the bare table or tray they are rolled on; later reads (`serve`, `vision read
    --data-dir`) read each die half by these examples, half by the network, and with the bare
    table shown drop what looks more like it than like the dice."""
    reader = DiceReader()
    seen = [(value, *dice_in_photo(reader, load(image), value)) for value, image in shown]
    for value, embeddings, _ in seen:  # for the players to check: a stray find shows here
        print(f"{value}: {len(embeddings)} {'die' if len(embeddings) == 1 else 'dice'} in the photo")
    before = load_dice(data_dir)
    examples = before
    if seen:  # the faces taught afresh; the bare table shown before stays, as on the page
        examples = teach_dice(
            [(value, embeddings) for value, embeddings, _ in seen],
            float(np.median([die_px for _, _, die_px in seen])),
        )
        examples = examples if before is None else replace(examples, bare=before.bare)
    if table is not None:
        bare = finds_on_bare_table(reader, load(table), examples)
        examples = with_bare_table(examples, bare)
        print(
            f"the bare table: {len(bare)} {'find' if len(bare) == 1 else 'finds'} the dice may be taken for"
        )
    if examples is None:
        raise VisionError("show your dice (VALUE=IMAGE) or the bare table (table=IMAGE)")
    save_dice(examples, data_dir)
    print(f"faces taught: {', '.join(map(str, examples.values))}; written to {data_dir / DICE_FILE}")
