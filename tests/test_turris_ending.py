"""Turris Tower room prerequisites, Excavation refreshes, the Endgame and its tie-breakers."""

from __future__ import annotations

from companion.games.turris.ending import (
    endgame_triggered,
    may_build_room,
    missions_for_next_room,
    new_excavation_thresholds,
    solo_result,
    standings,
)


def test_tower_rooms_need_2_4_6_completed_missions() -> None:
    """3) Trionfi Step: 2 completed Missions for the first room, 4 for the second, 6 for the third."""
    assert [missions_for_next_room(built) for built in range(3)] == [2, 4, 6]


def test_trionfi_step_examples() -> None:
    """3) Trionfi Step, example: Alice has built one room and has 3 Missions: not enough; after
    completing a fourth she builds from the Grove for 5 Prestige. Bob has built none and has 2
    Missions: the Council track lets him build at once, for 3 Prestige."""
    assert not may_build_room(rooms_built=1, missions_completed=3)
    assert may_build_room(rooms_built=1, missions_completed=4)
    assert may_build_room(rooms_built=0, missions_completed=2)


def test_solo_rooms_need_an_undamaged_tower_room() -> None:
    """Solo Play, Player Turn Phase: with no Tower room free of Damaged tiles, the Grove and
    the Council track spot cannot build."""
    assert not may_build_room(rooms_built=0, missions_completed=2, undamaged_room=False)


def test_excavation_sites_change_the_first_time_a_threshold_is_reached() -> None:
    """Excavation Sites: the first time any player reaches or passes 10, 20, 30 or 40 Prestige;
    the second time a threshold is reached nothing changes."""
    assert new_excavation_thresholds([8, 3], [10, 3], frozenset()) == (10,)
    assert new_excavation_thresholds([10, 3], [10, 12], frozenset({10})) == ()
    assert new_excavation_thresholds([8, 3], [21, 3], frozenset()) == (10, 20)
    assert new_excavation_thresholds([9, 3], [9, 9], frozenset()) == ()


def test_the_endgame_is_triggered_by_six_rooms_or_40_prestige() -> None:
    assert not endgame_triggered(5, [39, 12])
    assert endgame_triggered(6, [20, 12])
    assert endgame_triggered(2, [12, 40])


def test_the_winner_and_the_tie_breakers() -> None:
    """ENDGAME: most Prestige; then most resources (I/K/R/W count 1 each); then the nearer to
    the First Player in clockwise order."""
    assert standings([30, 34, 28], [5, 0, 9], first=0)[0] == 1
    assert standings([34, 34, 28], [5, 7, 9], first=0)[0] == 1
    # Seats 0 and 2 tied on both; seat 1 is First Player: seat 2 is nearer clockwise (1, 2, 0).
    assert standings([34, 20, 34], [5, 7, 5], first=1) == (2, 0, 1)


def test_solo_endings() -> None:
    """Solo ENDGAME: the Betrayers at 40 first lose you the game; your 40, or 6 rooms with none
    damaged at the end of the Player Turn Phase, win it."""
    assert solo_result(3, 0, prestige=35, betrayers=40, turn_phase_over=False) == "lost"
    assert solo_result(3, 0, prestige=40, betrayers=31, turn_phase_over=False) == "won"
    assert solo_result(6, 1, prestige=30, betrayers=31, turn_phase_over=True) is None
    assert solo_result(6, 0, prestige=30, betrayers=31, turn_phase_over=False) is None
    assert solo_result(6, 0, prestige=30, betrayers=31, turn_phase_over=True) == "won"
