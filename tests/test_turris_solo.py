"""Turris solo mode, the Betrayer Phase ("06 Appendix 1: Solo Play"), on the assumed
numbering of companion/games/turris/turris.toml (1 Spire ... 10 Abyss, 11 Grove, 12 Garden)."""

from __future__ import annotations

from companion.games.turris.beasts import BETRAYERS, Scout
from companion.games.turris.solo import betrayer_phase
from tests.test_turris_beasts import ALICE, BOARD, table


def betrayers_at(result: object) -> list[str]:
    return sorted(s.location for s in result.table.scouts if s.seat == BETRAYERS)  # type: ignore[attr-defined]


def test_betrayers_move_to_the_next_higher_free_location_and_gain_1_prestige() -> None:
    """Setup 6 puts them in locations 1 and 10; each moves to the next higher number."""
    result = betrayer_phase(BOARD, table([(BETRAYERS, "Spire"), (BETRAYERS, "Abyss")], players=1), damaged=0)
    assert betrayers_at(result) == ["Forge", "Grove"]
    assert (result.prestige, result.damaged) == (0, 0)  # the phase's 1 Prestige comes after the card


def test_occupied_locations_are_skipped_and_need_not_be_adjacent() -> None:
    """ "a location with the next higher number which has no Beasts or Scouts"."""
    start = table([(BETRAYERS, "Spire"), (ALICE, "Guild")], {"Pain": "Forge"}, players=1)
    assert betrayers_at(betrayer_phase(BOARD, start, damaged=0)) == ["Shrine"]


def test_the_lower_numbered_scout_moves_first() -> None:
    """From 3 and 4: the Scout in 3 goes first, past its partner in 4, to 5; then 4 goes to 6
    (in the other order they would end in 4 and 5)."""
    start = table([(BETRAYERS, "Shrine"), (BETRAYERS, "Guild")], players=1)
    assert betrayers_at(betrayer_phase(BOARD, start, damaged=0)) == ["Circle", "Isle"]


def test_no_higher_location_damages_a_tower_room_for_4_prestige() -> None:
    """From location 12 it goes to the lowest-numbered free Location, a Damaged tile is placed
    and the Betrayers gain 4 Prestige."""
    start = table([(BETRAYERS, "Garden"), (ALICE, "Spire")], players=1)
    result = betrayer_phase(BOARD, start, damaged=2)
    assert betrayers_at(result) == ["Forge"]
    assert (result.damaged, result.prestige) == (3, 4)


def test_from_an_excavation_site_to_the_lowest_free_location_without_damage() -> None:
    start = table([(BETRAYERS, "A")], {"Pain": "Spire"}, players=1)
    result = betrayer_phase(BOARD, start, damaged=0)
    assert betrayers_at(result) == ["Forge"]
    assert (result.damaged, result.prestige) == (0, 0)
    assert Scout(BETRAYERS, "A") not in result.table.scouts
