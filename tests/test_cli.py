"""The CLI: JSON in and out, one-line errors, non-zero exits, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_amharb(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    listed = json.loads(out)
    assert code == 0 and listed[0]["name"] == "amharb" and listed[0]["players"] == [2, 4]
    assert "cults" in listed[0]["options"]


def test_new_moves_apply_score_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        capsys, "new", "--game", "amharb", "--players", "3", "--option", "cults=hastur,cthulhu,cthugha"
    )
    assert code == 0
    state = tmp_path / "state.json"
    state.write_text(out)
    assert [p["cult"] for p in json.loads(out)["players"]] == ["cthugha", "hastur", "cthulhu"]
    code, out, _ = run(capsys, "moves", "--game", "amharb", "--state", str(state))
    listed = json.loads(out)
    assert listed["to_move"] == 0 and listed["phase"] == "tower"
    assert listed["moves"] == ["tower L1 D>A", "tower L1 D>B", "tower L1 D>C"]
    code, out, _ = run(capsys, "apply", "--game", "amharb", "--state", str(state), "--move", "tower L1 D>B")
    after = json.loads(out)
    assert code == 0 and after["phase"] == "power" and after["active"] == [1]
    state.write_text(out)
    code, out, _ = run(capsys, "score", "--game", "amharb", "--state", str(state))
    sheet = json.loads(out)
    assert code == 0 and len(sheet["sources"]) == 14 and sheet["totals"] == [0, 0, 0]
    assert sheet["final"] is False


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "--game", "chess", "--players", "2"], "unknown game 'chess'"),
        (["new", "--game", "amharb", "--players", "5"], "2 to 4 players"),
        (["new", "--game", "amharb", "--players", "2", "--option", "cults=hastur"], "needs 2"),
        (["new", "--game", "amharb", "--players", "2", "--option", "nonsense"], "key=value"),
        (["moves", "--game", "amharb", "--state", "/nonexistent.json"], "cannot read state"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert message in err and err.count("\n") == 1


def test_malformed_state_and_illegal_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "amharb", "players": 7}')
    code, _, err = run(capsys, "moves", "--game", "amharb", "--state", str(bad))
    assert code == 1 and err.startswith("companion moves: ") and err.count("\n") == 1
    bad.write_text("{not json")
    code, _, err = run(capsys, "score", "--game", "amharb", "--state", str(bad))
    assert code == 1 and "not JSON" in err
    code, out, _ = run(capsys, "new", "--game", "amharb", "--players", "2")
    good = tmp_path / "good.json"
    good.write_text(out)
    code, _, err = run(capsys, "apply", "--game", "amharb", "--state", str(good), "--move", "tower L4 D>A")
    assert code == 1 and "not the top disc" in err and "Golden Rules" in err


def test_stdin_state_and_usage_error_in_a_real_process(tmp_path: Path) -> None:
    """The installed console script reads '-' from stdin; argparse errors stay one line too."""
    new = subprocess.run(
        [sys.executable, "-m", "companion.cli", "new", "--game", "amharb", "--players", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    moves = subprocess.run(
        [sys.executable, "-m", "companion.cli", "moves", "--game", "amharb", "--state", "-"],
        input=new.stdout,
        capture_output=True,
        text=True,
    )
    assert moves.returncode == 0 and json.loads(moves.stdout)["to_move"] == 0
    usage = subprocess.run(
        [sys.executable, "-m", "companion.cli", "apply", "--game", "amharb"], capture_output=True, text=True
    )
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1 and "Traceback" not in usage.stderr
