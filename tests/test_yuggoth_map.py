"""The map, the Green Pyramid's Power, set-up, the round, and the protocol's edges.

The map data is assumed (yuggoth.toml says so); these tests hold it to everything the
text does say, and the rest of the engine to the rulebook and the minimal base game.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.base import BadMoveText, BadSetup, BadState, IllegalMove, Setup
from companion.games.yuggoth.board import is_ocean
from companion.games.yuggoth.control import income
from companion.games.yuggoth.setup import data
from companion.games.yuggoth.state import FIRST_PLAYER, GATHER, OVER, RITUALS
from tests.yuggoth_helpers import (
    FIVE,
    GAME,
    THREE,
    acting,
    bare,
    faction_field,
    gate,
    legal,
    new,
    play,
    put,
)

# ---- the map -----------------------------------------------------------------------


@pytest.mark.parametrize("side", ["three", "five"])
def test_both_sides_hold_the_areas_the_text_names(side: str) -> None:
    """Set Up and Map Basics names the Laboratory, the Slime Sea Overlook, the Pyramid Slopes and
    the Watcher Postern; the Nitrogen and Polar Seas are ocean Areas."""
    board = new(side=side).board
    for name in ("Laboratory", "Slime Sea Overlook", "Watcher Postern", "Nitrogen Sea", "Polar Sea"):
        assert board.has(name)
    assert board.postern == "Watcher Postern" and board.postern in board.pyramid_areas
    assert board.laboratories == ("Laboratory",)
    assert set(board.chevron) == {"Laboratory", "Slime Sea Overlook", *board.pyramid_areas}


def test_the_green_pyramid_has_2_to_4_areas_by_side() -> None:
    """ "The Green Pyramid consists of 2-4 Areas, depending on which side of the Map you are using"."""
    assert len(new(side="three").board.pyramid) == 2
    assert len(new(FIVE).board.pyramid) == 4
    assert new(FIVE).board.title.startswith("Yuggoth, five-player side")


@pytest.mark.parametrize("side", ["three", "five"])
def test_the_overlook_is_reached_only_through_the_slime_seas(side: str) -> None:
    board = new(side=side).board
    assert set(board.neighbours(board.overlook)) == set(board.slime_seas)


def test_ocean_areas_are_the_ones_named_sea_and_the_overlook_is_land() -> None:
    """ "Ocean Area names all end in the word 'Sea.'" ... "The Slime Sea Overlook is a land Area,
    even though 'Sea' appears in its name"."""
    assert is_ocean("Nitrogen Sea") and is_ocean("Polar Sea") and is_ocean("North Slime Sea")
    assert not is_ocean("Slime Sea Overlook")
    assert not is_ocean("Laboratory")


def test_a_broken_map_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "map.toml"
    path.write_text('[maps.x]\n[maps.x.areas]\n"A" = ["B"]\n"B" = []\n', encoding="utf-8")
    with pytest.raises(BadSetup, match="touches 'B' but not the other way round"):
        GAME.initial_state(Setup(2, {"map": str(path), "starts": "black-goat=A,crawling-chaos=B"}))
    with pytest.raises(BadSetup, match="cannot read"):
        GAME.initial_state(Setup(2, {"map": str(tmp_path / "missing.toml")}))


# ---- the Green Pyramid's Power -------------------------------------------------------


def test_controlled_gates_on_the_pyramid_produce_3_power() -> None:
    """The Green Pyramid: "Controlled Gates on any Green Pyramid Area (including the Watcher
    Postern) produce 3 Power in each Gather Power Phase instead of 2"."""
    state = bare()
    for area in ("Watcher Postern", "Pyramid Slopes", "Fungus Forest"):
        state = gate(put(state, area, "black-goat", acolytes=1), area, "black-goat")
    assert income(state, 0) == (
        ("3 Cultists (Brain Cylinders earn like Acolytes)", 3),
        ("Gate on Fungus Forest", 2),
        ("Gate on Pyramid Slopes: Green Pyramid, 3 instead of 2", 3),
        ("Gate on Watcher Postern: Green Pyramid, 3 instead of 2", 3),
    )
    state = play(replace(state, step=GATHER), "gather power")
    assert state.factions[0].power == 11


def test_abandoned_gates_on_the_pyramid_still_produce_1_for_everyone() -> None:
    """ "Abandoned Gates on the Green Pyramid still only produce 1 Power for all Factions"."""
    state = gate(bare(), "Pyramid Slopes", None)
    for seat in range(3):
        assert income(state, seat) == (("Abandoned Gate on Pyramid Slopes: 1 for every faction", 1),)


def test_yog_sothoth_produces_3_power_on_the_pyramid() -> None:
    """ "(Yog-Sothoth produces 3 Power if he is in a Green Pyramid Area during this Phase)"."""
    on = put(bare(), "Pyramid Slopes", "opener-of-the-way", goo=1)
    off = put(bare(), "Crater Fields", "opener-of-the-way", goo=1)
    assert income(on, 1) == (("Yog-Sothoth on Pyramid Slopes: Green Pyramid, 3", 3),)
    assert income(off, 1) == (("Yog-Sothoth on Crater Fields", 2),)


# ---- set-up --------------------------------------------------------------------------


def test_set_up_places_a_gate_and_six_acolytes_in_each_start_area() -> None:
    state = new()
    for seat, f in enumerate(state.factions):
        assert state.gate(f.start) == seat
        assert state.force(f.start, seat).acolytes == 6
        assert f.power == 8 and f.doom == 0
    assert state.step == "action phase" and state.current == 0


@pytest.mark.parametrize("area", ["Laboratory", "Slime Sea Overlook", "Pyramid Slopes", "Watcher Postern"])
def test_the_opener_may_not_set_up_on_a_chevron_area(area: str) -> None:
    """ "If the Opener of the Way Faction is in play, it may NOT set up on any Area marked with the
    Yellow Sign's Chevron glyph (these are the Laboratory, Slime Sea Overlook, and all of the
    Green Pyramid Areas)"."""
    with pytest.raises(BadSetup, match="may NOT set up"):
        new(starts=f"opener-of-the-way={area}")


def test_the_opener_may_set_up_in_any_other_unoccupied_area() -> None:
    """ "The Opener of the Way may set up in any other unoccupied Area"."""
    assert new(starts="opener-of-the-way=nitrogen sea").factions[1].start == "Nitrogen Sea"
    with pytest.raises(BadSetup, match="unoccupied"):
        new(starts="opener-of-the-way=Fungus Forest")  # Black Goat's start


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "2 to 5 players"),
        (6, {}, "2 to 5 players"),
        (3, {"colour": "red"}, "unknown options"),
        (3, {"seed": "x"}, "whole number"),
        (2, {"factions": "black-goat,black-goat"}, "different names"),
        (2, {"factions": "black-goat,azathoth"}, "different names"),
        (2, {"factions": "black-goat"}, "needs 2 comma-separated values"),
        (2, {"colours": "red,red"}, "own colour"),
        (2, {"side": "moon"}, "'side' is one of"),
        (2, {"pyramid": "Laboratory=3"}, "not a Green Pyramid Area"),
        (2, {"pyramid": "Watcher Postern=7"}, "1-6"),
        (2, {"pyramid": "Watcher Postern"}, "name=value"),
        (2, {"starts": "sleeper=Polar Sea", "factions": "black-goat,crawling-chaos"}, "not playing"),
        (2, {"laboratory_token": "Atlantis"}, "not an Area"),
        (2, {"ritual_track": "5,six"}, "whole numbers"),
    ],
)
def test_bad_set_up_options_are_refused_with_a_reason(
    players: int, options: dict[str, str], message: str
) -> None:
    with pytest.raises(BadSetup, match=message):
        GAME.initial_state(Setup(players, options))


def test_the_side_follows_the_player_count_unless_chosen() -> None:
    assert new("black-goat,crawling-chaos").board.title.startswith("Yuggoth, three")
    assert new(FIVE).board.title.startswith("Yuggoth, five")
    assert new(THREE, side="five").board.title.startswith("Yuggoth, five")


def test_factions_are_dealt_from_the_seed_when_not_given() -> None:
    a = GAME.initial_state(Setup(4, {"seed": "3"}))
    b = GAME.initial_state(Setup(4, {"seed": "3"}))
    assert [f.faction for f in a.factions] == [f.faction for f in b.factions]
    assert set(f.faction for f in a.factions) <= set(data()["factions"])


# ---- the round -----------------------------------------------------------------------


def test_the_most_power_is_first_player_and_a_tie_is_the_first_players_choice() -> None:
    state = play(replace(new(), step=GATHER, first=2), "gather power")
    assert state.step == FIRST_PLAYER, "8 Power each: a three-way tie"
    assert state.current == 2, "the previous First Player chooses"
    assert legal(state) == [
        "first player crawling-chaos",
        "first player black-goat",
        "first player opener-of-the-way",
    ]
    state = play(state, "first player opener-of-the-way")
    assert state.first == 1 and state.step == RITUALS and state.current == 1


def test_a_ritual_pays_the_track_and_gains_doom_per_gate_and_elder_signs_per_great_old_one() -> None:
    state = gate(put(bare(), "Fungus Forest", "black-goat", acolytes=1, goo=1), "Fungus Forest", "black-goat")
    state = faction_field(faction_field(state, "black-goat", power=7), "opener-of-the-way", power=5)
    state = replace(state, step=RITUALS, pending=(0, 1, 2), current=0)
    state = play(state, "ritual")
    f = state.factions[0]
    assert (f.power, f.doom, f.elder_signs, state.rituals) == (2, 1, 1, 1)
    assert legal(state) == ["no ritual"], "the Opener's 5 Power do not pay the next Ritual (6)"


def test_the_game_ends_at_the_end_of_a_doom_phase_with_30_doom() -> None:
    state = faction_field(new(), "crawling-chaos", doom=29)
    state = play(replace(state, step=GATHER), "gather power", "first player black-goat")
    assert state.factions[2].doom == 30
    state = play(state, "no ritual", "no ritual", "no ritual")
    assert state.step == OVER and GAME.to_move(state) is None
    sheet = GAME.score(state)
    assert sheet.final and sheet.standings[0].seat == 2 and sheet.standings[0].total == 30
    with pytest.raises(IllegalMove, match="over"):
        play(state, "pass")


def test_the_game_ends_when_the_ritual_track_reaches_its_end() -> None:
    state = replace(new(ritual_track="5"), step=RITUALS, pending=(0, 1, 2), current=0)
    state = play(state, "ritual", "no ritual", "no ritual")
    assert state.step == OVER


def test_the_score_sheet_shows_doom_and_face_down_elder_signs() -> None:
    state = faction_field(faction_field(new(), "black-goat", doom=7, elder_signs=2), "crawling-chaos", doom=7)
    sheet = GAME.score(state)
    assert [s.name for s in sheet.sources] == ["Doom track", "Elder Signs (face down)"]
    assert sheet.sources[1].measures == (2, 0, 0) and sheet.sources[1].points == (0, 0, 0)
    assert [(s.seat, s.total) for s in sheet.standings] == [(0, 7), (2, 7), (1, 0)]
    assert "tied on Doom" in sheet.standings[0].note and "2 Elder Signs" in sheet.standings[0].note


def test_passing_gives_up_the_rest_of_the_phase_and_the_round_goes_on() -> None:
    state = new("black-goat,crawling-chaos")
    state = play(state, "pass", "pass")
    assert state.step == GATHER and state.round == 2


# ---- the protocol's edges ------------------------------------------------------------


def test_perft_the_opening_position() -> None:
    """Black Goat opens on the Fungus Forest (6 Acolytes, a Gate, 8 Power): Summon (2) and
    Awaken Shub-Niggurath (8) there, move an Acolyte to any of its 5 neighbours, record one of
    its 2 Spellbooks, or pass: 10 moves. No Recruit (the pool is empty), no second Gate."""
    state = new()
    assert legal(state) == [
        "summon Fungus Forest",
        "awaken Fungus Forest",
        "move acolyte Fungus Forest > Polar Sea",
        "move acolyte Fungus Forest > North Slime Sea",
        "move acolyte Fungus Forest > South Slime Sea",
        "move acolyte Fungus Forest > Cyclopean Bridge",
        "move acolyte Fungus Forest > Methane Sea",
        "spellbook fertility-cult",
        "spellbook frenzy",
        "pass",
    ]


def test_perft_a_monster_carrying_cylinders() -> None:
    """A Monster with 2 Cylinders in the Polar Sea (3 neighbours): 3 x 3 carrying moves, plus
    Recruit there (pool 1), a Gate there (its Cylinders are Cultists), and pass."""
    state = put(bare(), "Polar Sea", "crawling-chaos", monsters=1, cylinders=2)
    state = acting(faction_field(state, "crawling-chaos", pool=1), "crawling-chaos")
    assert len(legal(state)) == 9 + 3
    assert "move monster Polar Sea > Laboratory with 2 cylinders" in legal(state)


@pytest.mark.parametrize(
    "text",
    [
        "gather power",
        "first player black-goat",
        "ritual",
        "no ritual",
        "roll 4",
        "kills 2",
        "pains 0",
        "combat 7",
        "kill cylinder",
        "pain monster > Polar Sea",
        "pain slime eliminated",
        "watcher > Watcher Postern",
        "watcher has no target",
        "watcher attacks opener-of-the-way",
        "recruit Laboratory",
        "gate Nitrogen Sea",
        "summon Fungus Forest",
        "awaken Crater Fields",
        "move monster Polar Sea > Laboratory with 2 cylinders",
        "move acolyte Polar Sea > Laboratory with 1 cylinder",
        "move slime North Slime Sea > Polar Sea",
        "battle Polar Sea vs slimes",
        "capture opener-of-the-way cylinder at Crater Fields and convert",
        "surgery Laboratory, Polar Sea, Polar Sea",
        "call slime North Slime Sea",
        "control Slime Sea Overlook",
        "spellbook fertility-cult",
        "elder sign 3",
        "pass",
    ],
)
def test_every_move_is_its_own_text(text: str) -> None:
    assert str(GAME.parse_move(text)) == text


@pytest.mark.parametrize("text", ["", "dance", "roll", "kill watcher", "move Polar Sea", "elder sign x"])
def test_malformed_move_text_is_refused(text: str) -> None:
    with pytest.raises(BadMoveText):
        GAME.parse_move(text)


def test_area_names_may_be_typed_in_any_case() -> None:
    state = play(new(), "move acolyte fungus forest > POLAR SEA")
    assert state.force("Polar Sea", 0).acolytes == 1


def test_an_unknown_area_is_explained() -> None:
    with pytest.raises(IllegalMove, match="not an Area of this map"):
        play(new(), "summon Atlantis")


def test_states_round_trip_and_bad_state_json_is_refused() -> None:
    state = new(FIVE)
    encoded = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(encoded) == state
    bad: list[object] = [
        [],
        {"game": "amharb"},
        {**encoded, "gates": [0]},
        {**encoded, "map": "not json"},
        {**encoded, "step": "tea time"},
        {**encoded, "units": [{"area": "Atlantis", "seat": 0, "acolytes": 1}]},
        {**encoded, "units": [{"area": "Polar Sea", "seat": 0, "acolytes": -1}]},
        {**encoded, "surprise": 1},
    ]
    for data_ in bad:
        with pytest.raises(BadState):
            GAME.state_from_json(data_)


def test_describe_tells_a_player_what_matters() -> None:
    state = gate(put(new(), "Pyramid Slopes", "black-goat", acolytes=1), "Pyramid Slopes", "black-goat")
    view = GAME.describe(state)
    assert view.headline == "Round 1 · Action Phase · Black Goat"
    assert view.seats[0].current and view.seats[0].colour == "firebrick"
    assert "Gates: Fungus Forest, Pyramid Slopes (Green Pyramid: 3 Power)" in view.seats[0].lines
    shared = " ".join(view.shared)
    assert "The Watcher sleeps" in shared
    assert "a roll of 5 Awakens it" in shared
    assert "Ritual of Annihilation: next costs 5" in shared


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("recruit Fungus Forest", "no Acolyte left in its pool"),
        ("gate Fungus Forest", "already has a Gate"),
        ("summon Polar Sea", "does not control a Gate on Polar Sea"),
        ("move acolyte Fungus Forest > Laboratory", "not adjacent"),
        ("battle Fungus Forest vs crawling-chaos", "has no Units on Fungus Forest"),
        ("battle Polar Sea vs slimes", "needs your Units on Polar Sea"),
        ("capture crawling-chaos acolyte at Fungus Forest", "needs your Monster or Great Old One"),
        ("surgery Fungus Forest", "Control of the Laboratory Gate"),
        ("spellbook frenzy", "already has frenzy"),
        ("elder sign 2", "holds no Elder Sign"),
        ("ritual", "not an Action Phase move"),
    ],
)
def test_an_illegal_action_says_why(move: str, reason: str) -> None:
    state = faction_field(new(), "black-goat", spellbooks=("frenzy",))
    with pytest.raises(IllegalMove, match=reason):
        play(state, move)
