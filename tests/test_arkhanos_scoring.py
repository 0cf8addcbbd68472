"""Towers of Arkhanos: influence and floor scoring (Step 3), the end of the game, the final
scoring and the three tie-breakers (Game Over)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.arkhanos.scoring import award, influence
from companion.games.arkhanos.state import CENTRAL, OVER, ArkhanosState, Die, Values
from companion.games.base import IllegalMove
from tests.arkhanos_helpers import GAME, lay, play, put, started, with_player, with_table

NAMES = ("Ana", "Ben", "Cy", "Di")
OUTER = Values(most=5, second=3, tie=2)
ANY = "prestige,prestige,prestige"


def test_influence_apprentice_1_master_2() -> None:
    """Step 3: "Apprentices contribute 1 influence each, while masters carry 2 influence." """
    state = put(put(started(3), "M1", "green1", (0, "master")), "M2", "green2", (2, "apprentice"))
    state = put(state, "M3", "", (0, "apprentice"))  # standing on a pillar (built there) counts too
    top = state.towers[CENTRAL].top
    assert top is not None and influence(top, 3) == (3, 0, 1)


@pytest.mark.parametrize(
    ("measures", "points", "words"),
    [
        ((3, 1, 0, 2), (5, 0, 0, 3), "Ana has the most influence (3): 5; Di is second (2): 3"),
        ((2, 2, 1, 0), (2, 2, 0, 0), "Ana and Ben tie for most influence (2): 2 each; nobody scores second"),
        (
            (4, 1, 1, 0),
            (5, 2, 2, 0),
            "Ana has the most influence (4): 5; Ben and Cy tie for second (1): 2 each",
        ),
        ((0, 2, 0, 0), (0, 5, 0, 0), "Ben has the most influence (2): 5"),
        ((0, 0, 0, 0), (0, 0, 0, 0), "nobody has influence here"),
    ],
)
def test_highest_and_second_with_the_tie_rules(
    measures: tuple[int, ...], points: tuple[int, ...], words: str
) -> None:
    """Step 3: "The players who have the highest and second-highest influence on the floor earn
    prestige points ... In the event of a tie for most or second-most influence, all tied players
    earn prestige points as indicated in the 'tie' section. However, if two players have the same
    highest influence, the player with the second-most influence does not receive any prestige
    points." Nobody without influence is ranked."""
    got, why = award(measures, OUTER, NAMES)
    assert got == points
    assert why.startswith(words)


def test_central_floors_fetch_fewer_points() -> None:
    """Step 3: "Surprisingly, the floors on the central tower fetch fewer points!" The same
    influence scores less on M than on an outer tower (mana pool values of arkhanos.toml)."""
    state = lay(started(2), "A", f"any/any prestige,prestige,prestige|{ANY}")
    state = lay(state, "M", f"any/any prestige,prestige,prestige|{ANY}")
    for tower in ("A", "M"):
        state = put(
            put(state, f"{tower}2", "green2", (0, "master")), f"{tower}3", "green3", (1, "apprentice")
        )
    outer_state = play(state, "place pink2 A1 apprentice")
    central_state = play(state, "place pink2 M1 apprentice")
    assert outer_state.scored[-1].influence == central_state.scored[-1].influence == (3, 1)
    outer, central = finished_points(outer_state)[-1], finished_points(central_state)[-1]
    assert outer == (5, 3) and central == (3, 2)
    assert sum(central) < sum(outer)


def test_mana_pool_values_can_be_corrected() -> None:
    state = started(2, scoring="outer:7/4/1")
    state = lay(state, "A", f"any/any prestige,prestige,prestige|{ANY}")
    state = put(put(state, "A2", "green2", (1, "apprentice")), "A3", "green3", (1, "apprentice"))
    assert finished_points(play(state, "place pink2 A1 apprentice")) == [(4, 7)]


def finished_points(state: ArkhanosState) -> list[tuple[int, ...]]:
    return [s.points for s in GAME.score(state).sources if "finished in round" in s.name]


def last_turn(players: int = 2) -> object:
    """The last turn of the last round: one die left to place, then the game ends."""
    state = started(players)
    state = replace(
        state,
        round=state.rounds,
        pool=tuple(Die("green", 1) for _ in range(state.rounds - 1)) + (None,) * (11 - state.rounds),
    )
    return with_table(state, "pink2", "green6")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_after_the_last_round(players: int) -> None:
    """Game Over: "If you're playing with 2 or 4 players, the game will end after 8 rounds. But if
    you have 3 players, the game will go on for one more round and end after 9 rounds." """
    state = last_turn(players)
    state = play(state, "place pink2 M2 apprentice", "end turn")  # type: ignore[arg-type]
    assert state.step == OVER and GAME.to_move(state) is None and GAME.legal_moves(state) == ()
    assert state.pool[state.rounds - 1] == Die("green", 6)
    assert GAME.score(state).final
    with pytest.raises(IllegalMove, match="the game is over"):
        play(state, "end turn")
    assert GAME.describe(state).headline.endswith("game over")


def test_final_scoring_incomplete_floors_and_spellbooks() -> None:
    """Game Over: "If you have the most influence on an incomplete floor tile, you score ... 3";
    "If you come in second place ... 2"; "In case there's a tie for influence ... You'll each score
    1"; "you also earn 1 prestige point for each meeple you have in your spellbook"."""
    state = last_turn(3)
    state = put(
        put(state, "A1", "purple2", (0, "master")), "A2", "purple4", (1, "apprentice")
    )  # Ana 2, Ben 1
    state = put(put(state, "B1", "yellow5", (1, "apprentice")), "B2", "yellow6", (2, "apprentice"))  # tie
    state = with_player(state, 2, spellbook=("apprentice", "", "master", "", "", ""))
    state = play(state, "place pink2 M3 apprentice", "end turn")  # type: ignore[arg-type]
    sheet = GAME.score(state)
    by_name = {s.name: s for s in sheet.sources}
    a = by_name["outer tower A, floor 1 (incomplete)"]
    assert (a.measures, a.points) == ((2, 1, 0), (3, 2, 0))
    b = by_name["outer tower B, floor 1 (incomplete)"]
    assert b.points == (0, 1, 1) and "nobody scores second" in b.why
    m = by_name["central tower M, floor 1 (incomplete)"]
    assert m.points == (3, 0, 0)  # the last die of the game, with Ana's apprentice
    assert by_name["meeples in the spellbook"].points == (0, 0, 2)
    assert sheet.final and "if the game ended now" not in a.why


def test_live_sheet_says_what_would_score_now() -> None:
    state = put(started(2), "A1", "purple2", (0, "master"))
    sheet = GAME.score(state)
    a = next(s for s in sheet.sources if s.name.startswith("outer tower A"))
    assert not sheet.final and a.why.endswith("if the game ended now") and a.points == (3, 0)


def standings_for(spellbooks: tuple[int, int]) -> list[tuple[int, int, str]]:
    """Two players on equal prestige with the given spellbook meeple counts."""
    state = started(2)
    books = [("apprentice",) * n + ("",) * (6 - n) for n in spellbooks]
    state = with_player(with_player(state, 0, spellbook=books[0]), 1, spellbook=books[1])
    # Equal prestige: whoever has fewer spellbook meeples gets the difference as pillar prestige.
    diff = spellbooks[0] - spellbooks[1]
    state = with_player(state, 1 if diff > 0 else 0, pillar_prestige=abs(diff))
    sheet = GAME.score(state)
    return [(s.seat, s.total, s.note) for s in sheet.standings]


def test_tie_broken_by_spellbook_meeples() -> None:
    """Game Over: "If there happens to be a tie for first place ... First, we look at the number
    of meeples in each player's spellbook. The player with the most meeples takes the lead." """
    rows = standings_for((1, 3))
    assert rows[0][0] == 1 and rows[0][1] == rows[1][1]
    assert "broken by spellbook meeples" in rows[0][2]


def test_tie_broken_by_meeples_on_the_top_floors() -> None:
    """Game Over: "But if there's still a tie, we check the number of meeples on the top floors of
    the towers. The player with the most meeples up there steals the show." Ana has 2 meeples on
    top floors, Ben 1 (a master); equal prestige and equal (empty) spellbooks."""
    state = started(2)
    state = put(put(state, "A1", "", (0, "apprentice")), "B1", "", (0, "apprentice"))
    state = put(state, "C1", "", (1, "master"))
    # End scoring now: Ana 3 (A) + 3 (B), Ben 3 (C): give Ben 3 pillar prestige to tie on 6.
    state = with_player(state, 1, pillar_prestige=3)
    sheet = GAME.score(state)
    assert [s.total for s in sheet.standings] == [6, 6]
    assert sheet.standings[0].seat == 0 and "top-floor meeples (2)" in sheet.standings[0].note


def test_still_tied_players_share_the_victory() -> None:
    """Game Over: "if, by some chance, there's still a tie, all the tied players will be crowned
    victors together." """
    rows = standings_for((2, 2))
    assert rows[0][1] == rows[1][1]
    assert "share the place" in rows[0][2] and "share the place" in rows[1][2]


def test_winner_is_shown_at_the_end() -> None:
    state = last_turn(2)
    state = with_player(state, 1, pillar_prestige=10)  # type: ignore[arg-type]
    state = play(state, "place pink2 M2 apprentice", "end turn")
    assert "Winner: Red with 10 prestige" in GAME.describe(state).shared
