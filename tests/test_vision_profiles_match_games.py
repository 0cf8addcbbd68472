"""The Am'harb board profiles describe the same island as the rules' default layouts."""

from __future__ import annotations

import pytest

from companion.games.amharb.setup import data
from vision.profiles import load_profile


@pytest.mark.parametrize("players", [2, 3, 4])
def test_profile_cells_are_the_islands_spaces(players: int) -> None:
    board = data()["layouts"][str(players)]["board"]
    spaces = {f"cell/{r}/{c}" for r, row in enumerate(board) for c, ch in enumerate(row) if ch != "#"}
    profile = load_profile(f"amharb-{players}p")
    assert {r.name for r in profile.regions if r.name.startswith("cell/")} == spaces
    seats = {r.name.split("/")[0] for r in profile.regions if r.holds == "stack"}
    assert seats == {f"seat{s}" for s in range(players)}
