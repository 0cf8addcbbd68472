"""`companion vision eval` scores every frame honestly: a frame whose board is not found
counts every piece in it as missed (it does not stop the evaluation), stacks read where the
truth has none are false positives, and the figures come per kind (issue 18, item 6)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np

from companion.cli import main
from vision.evaluate import evaluate, table_reader
from vision.profiles import load_profile

RECORDING = Path(__file__).resolve().parent / "recordings" / "amharb-2p"


def copy_recording(tmp_path: Path, frames: int = 3) -> tuple[Path, dict]:
    out = tmp_path / "rec"
    out.mkdir()
    meta = json.loads((RECORDING / "recording.json").read_text())
    meta["frames"] = meta["frames"][:frames]
    for frame in meta["frames"]:
        shutil.copy(RECORDING / frame["file"], out / frame["file"])
    return out, meta


def write(out: Path, meta: dict) -> None:
    (out / "recording.json").write_text(json.dumps(meta))


def test_a_frame_without_a_board_counts_its_pieces_as_missed(tmp_path: Path) -> None:
    out, meta = copy_recording(tmp_path)
    # The second frame: a hand over the whole board (a grey frame, no marker in it).
    blank = np.full((960, 1280, 3), 120, np.uint8)
    cv2.imwrite(str(out / meta["frames"][1]["file"]), blank)
    write(out, meta)
    result, misses = evaluate(out, table_reader())
    pieces = [len(f["truth"]["stacks"]) for f in meta["frames"]]
    tokens = [len(f["truth"]["tokens"]) for f in meta["frames"]]
    assert result["frames_scored"] == 3
    assert result["board"] == {"frames": 3, "found": 2}
    assert result["stacks"]["truth"] == sum(pieces)
    assert result["stacks"]["correct"] == sum(pieces) - pieces[1]
    assert result["tokens"]["correct"] == sum(tokens) - tokens[1]
    assert any("not read" in m.what and "marker" in m.what for m in misses)


def test_a_corrupt_frame_is_scored_as_missed_too(tmp_path: Path) -> None:
    out, meta = copy_recording(tmp_path, frames=2)
    (out / meta["frames"][0]["file"]).write_bytes(b"not a jpeg")
    write(out, meta)
    result, _ = evaluate(out, table_reader())
    assert result["frames_scored"] == 2
    assert result["board"]["found"] == 1
    assert result["stacks"]["correct"] == len(meta["frames"][1]["truth"]["stacks"])


def test_a_stack_where_the_truth_has_none_is_a_false_positive(tmp_path: Path) -> None:
    out, meta = copy_recording(tmp_path, frames=1)
    truth = meta["frames"][0]["truth"]
    dropped = truth["stacks"].pop(0)  # the stack is on the table; the truth says the place is empty
    write(out, meta)
    result, misses = evaluate(out, table_reader())
    stacks = result["stacks"]
    assert stacks["false_positives"] == 1
    places = sum(r.holds == "stack" for r in load_profile("amharb-2p").regions)  # 2 seats x 4 areas
    assert stacks["empty_places"] == places - len(truth["stacks"])
    assert stacks["false_positive_rate"] == round(1 / stacks["empty_places"], 4)
    assert any(f"no stack in {dropped['region']}" in m.what for m in misses)


def test_figures_per_kind_add_up(tmp_path: Path) -> None:
    out, meta = copy_recording(tmp_path, frames=2)
    truth = meta["frames"][0]["truth"]
    priest = next(t for t in truth["tokens"] if t["kind"] == "priest")
    priest["kind"] = "cultist"  # the truth is wrong about one piece: a miss and a false priest
    write(out, meta)
    result, _ = evaluate(out, table_reader())
    tokens = result["tokens"]
    by_kind = tokens["by_kind"]
    assert sum(row["truth"] for row in by_kind.values()) == tokens["truth"]
    assert sum(row.get("correct", 0) for row in by_kind.values()) == tokens["correct"]
    assert by_kind["priest"]["false_positives"] == 1 == tokens["false_positives"]
    assert tokens["correct"] == tokens["truth"] - 1
    heights = result["stacks"]["by_height"]
    assert sum(row["truth"] for row in heights.values()) == result["stacks"]["truth"]


def test_the_command_prints_figures_even_when_boards_are_lost(tmp_path: Path, capsys) -> None:
    out, meta = copy_recording(tmp_path, frames=2)
    cv2.imwrite(str(out / meta["frames"][0]["file"]), np.full((960, 1280, 3), 90, np.uint8))
    write(out, meta)
    main(["vision", "eval", str(out)])
    printed = capsys.readouterr().out
    assert "board found in 1/2" in printed
    assert "tokens by kind:" in printed
    main(["vision", "eval", str(out), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert result["board"] == {"frames": 2, "found": 1}
