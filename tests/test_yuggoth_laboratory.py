"""The Laboratory, Surgery and Brain Cylinders against the rulebook.

Three-player side (yuggoth.toml): the Laboratory touches the Polar Sea, the Black Towers
and the Cyclopean Bridge. Seats: Black Goat 0, Opener of the Way 1, Crawling Chaos 2.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import BadSetup, IllegalMove, Setup
from companion.games.yuggoth.control import cylinders_in_play, income, laboratory_surgeons
from companion.games.yuggoth.state import GATHER, YuggothState
from companion.games.yuggoth.watcher import begin_attacks
from tests.yuggoth_helpers import (
    GAME,
    acting,
    awake_at,
    bare,
    faction_field,
    gate,
    legal,
    play,
    power,
    put,
    texts,
)

LAB = "Laboratory"


def lab_held_by_black_goat(**elsewhere: int) -> YuggothState:
    state = gate(put(bare(), LAB, "black-goat", acolytes=1), LAB, "black-goat")
    if elsewhere:
        state = put(state, "Polar Sea", "black-goat", **elsewhere)
    return acting(state, "black-goat")


def surgeries(state: YuggothState) -> list[str]:
    return [m for m in legal(state) if m.startswith("surgery")]


def test_surgery_replaces_acolytes_with_cylinders_where_they_stand() -> None:
    """Surgery (Cost: 1 Power): "If you Control the Laboratory Gate, Eliminate up to 4 of your
    Cultists in play and replace them with an equal number of Brain Cylinder tokens ... in the
    same Area(s) as the Cultists they replace"."""
    state = lab_held_by_black_goat(acolytes=2)
    before = state.factions[0]
    state = play(state, "surgery Laboratory, Polar Sea, Polar Sea")
    assert state.force(LAB, 0).cylinders == 1 and state.force(LAB, 0).acolytes == 0
    assert state.force("Polar Sea", 0).cylinders == 2 and state.force("Polar Sea", 0).acolytes == 0
    assert state.factions[0].power == before.power - 1
    assert state.factions[0].pool == before.pool + 3, "the Eliminated Acolytes go back to the pool"


def test_surgery_replaces_up_to_four() -> None:
    """ "Eliminate up to 4 of your Cultists"."""
    state = lab_held_by_black_goat(acolytes=5)
    assert max(len(m.split(",")) for m in surgeries(state)) == 4
    with pytest.raises(IllegalMove, match="1 to 4"):
        play(state, "surgery Polar Sea, Polar Sea, Polar Sea, Polar Sea, Polar Sea")


def test_surgery_needs_the_acolytes_it_names() -> None:
    state = lab_held_by_black_goat(acolytes=1)
    with pytest.raises(IllegalMove, match="has 1 Acolytes on Polar Sea, not 2"):
        play(state, "surgery Polar Sea, Polar Sea")


def test_surgery_counts_against_the_hard_limit_of_four_cylinders() -> None:
    """ "Each Faction has a hard limit of 4 Cylinders"."""
    state = put(lab_held_by_black_goat(acolytes=3), "Fungus Forest", "black-goat", cylinders=3)
    assert {len(m.split(",")) for m in surgeries(state)} == {1}
    with pytest.raises(IllegalMove, match="room for 1 more"):
        play(state, "surgery Polar Sea, Polar Sea")


def test_a_cylinder_replacing_a_gate_cultist_keeps_the_gate() -> None:
    """ "they can replace your Cultists on Gates, immediately retaking Control of those Gates"."""
    state = play(lab_held_by_black_goat(), "surgery Laboratory")
    assert state.gate(LAB) == 0
    assert state.force(LAB, 0).cylinders == 1


def test_only_the_laboratory_gates_controller_may_operate() -> None:
    state = put(lab_held_by_black_goat(), "Polar Sea", "crawling-chaos", acolytes=2)
    state = acting(state, "crawling-chaos")
    assert surgeries(state) == []
    with pytest.raises(IllegalMove, match="Control of the Laboratory Gate"):
        play(state, "surgery Polar Sea")


def test_yog_sothoth_in_the_laboratory_operates_beside_the_gates_controller() -> None:
    """ "If Opener of the Way is in play, Yog-Sothoth can perform the Surgery Action when in the
    Laboratory Area. If a different Faction Controls a normal Gate in the Laboratory at the same
    time that Yog-Sothoth is present, both Factions may perform Surgery"."""
    state = put(lab_held_by_black_goat(), LAB, "opener-of-the-way", goo=1)
    state = put(state, "Crater Fields", "opener-of-the-way", acolytes=2)
    assert laboratory_surgeons(state) == (0, 1)
    assert "surgery Crater Fields, Crater Fields" in surgeries(acting(state, "opener-of-the-way"))
    assert "Surgery for Black Goat, Opener of the Way" in " ".join(GAME.describe(state).shared)


def test_cylinders_cannot_use_the_move_action() -> None:
    """Brain Cylinders: "They cannot use the Move Action"."""
    state = put(lab_held_by_black_goat(), "Polar Sea", "black-goat", cylinders=2)
    assert not [m for m in legal(state) if m.startswith("move cylinder")]
    with pytest.raises(IllegalMove, match="cannot use the Move Action"):
        play(state, "move cylinder Polar Sea > Fungus Forest")


def test_one_unit_carries_any_number_of_cylinders_for_free() -> None:
    """ "Your Brain Cylinders accompany your other Unit(s) for free in a Move Action, and a single
    Unit can carry multiple Cylinders"."""
    state = put(lab_held_by_black_goat(), "Polar Sea", "black-goat", monsters=1, cylinders=3)
    state = power(state, "black-goat", 2)
    moves = legal(state)
    assert "move monster Polar Sea > Fungus Forest with 3 cylinders" in moves
    assert "move monster Polar Sea > Fungus Forest with 2 cylinders" in moves
    state = play(state, "move monster Polar Sea > Fungus Forest with 3 cylinders")
    assert state.force("Fungus Forest", 0).cylinders == 3 and state.force("Fungus Forest", 0).monsters == 1
    assert state.factions[0].power == 1, "1 Power for the Monster; the Cylinders ride free"
    with pytest.raises(IllegalMove, match="only 0 of your Brain Cylinders"):
        play(acting(state, "black-goat"), "move acolyte Laboratory > Polar Sea with 1 cylinder")


def test_cylinders_earn_power_and_permit_recruiting_in_their_area() -> None:
    """ "they earn Power during the Gather Power Phase, Create, Control, and Abandon Gates, and
    permit the Recruitment of Cultists in their Areas"."""
    state = put(bare(), "Fungus Forest", "black-goat", cylinders=2)
    state = faction_field(state, "black-goat", pool=3)
    lines = income(state, 0)
    assert lines[0] == ("2 Cultists (Brain Cylinders earn like Acolytes)", 2)
    state = acting(state, "black-goat")
    assert "recruit Fungus Forest" in legal(state)
    assert "gate Fungus Forest" in legal(state)
    state = gate(state, "Fungus Forest", None)
    assert "control Fungus Forest" in legal(acting(state, "black-goat"))


def test_frenzy_gives_cylinders_their_combat() -> None:
    """ "Black Goat's Frenzy provides them with 1 Combat"; otherwise "Brain Cylinders have 0
    Combat like all Cultists"."""
    state = put(bare(), "Pyramid Slopes", "black-goat", cylinders=2)
    state = awake_at(state, "Watcher Postern")
    plain = play(begin_attacks(state), "watcher > Pyramid Slopes")
    assert plain.battle is not None and plain.battle.dice == (12, 0)
    frenzied = begin_attacks(faction_field(state, "black-goat", spellbooks=("frenzy",)))
    frenzied = play(frenzied, "watcher > Pyramid Slopes")
    assert frenzied.battle is not None and frenzied.battle.dice == (12, 2)


def battle_in_polar_sea(**black_goat: int) -> YuggothState:
    """Crawling Chaos attacks Black Goat in the Polar Sea with a Monster."""
    state = put(bare(), "Polar Sea", "black-goat", **black_goat)
    state = put(state, "Polar Sea", "crawling-chaos", monsters=1)
    return play(acting(state, "crawling-chaos"), "battle Polar Sea vs black-goat", "combat 3")


def test_kills_may_fall_on_cylinders_but_pains_never() -> None:
    """ "Brain Cylinders cannot be assigned Pain results in Battle ... Kills can still be assigned
    to them (remember, Kills must be assigned before Pains)"."""
    state = battle_in_polar_sea(acolytes=1, cylinders=2)
    state = play(state, "kills 1", "pains 2")  # Black Goat rolled no dice
    assert set(legal(state)) == {"kill acolyte", "kill cylinder"}
    state = play(state, "kill cylinder")
    assert all(m.startswith("pain acolyte") for m in legal(state)), "only the Acolyte can be Pained"
    with pytest.raises(IllegalMove, match="cannot be assigned Pain"):
        play(state, "pain cylinder > Fungus Forest")
    state = play(state, "pain acolyte > Fungus Forest")
    assert state.battle is None, "the second Pain found nobody to move"
    assert state.force("Polar Sea", 0).cylinders == 1, "the Cylinder is left behind"


def test_cylinders_alone_do_not_stop_a_retreat_or_surround() -> None:
    """ "Brain Cylinders by themselves do NOT prevent Units from being Pained into their Areas in a
    Battle. Brain Cylinders by themselves cannot surround and therefore Eliminate enemy Units"."""
    state = bare()
    for area in ("North Slime Sea", "Laboratory", "Fungus Forest"):
        state = put(state, area, "crawling-chaos", cylinders=1)
    state = put(state, "Polar Sea", "black-goat", monsters=1)
    state = put(state, "Polar Sea", "crawling-chaos", monsters=1)
    state = play(acting(state, "crawling-chaos"), "battle Polar Sea vs black-goat", "combat 1")
    state = play(state, "combat 1", "kills 0", "pains 1", "kills 0", "pains 0")
    assert legal(state) == [
        "pain monster > North Slime Sea",
        "pain monster > Laboratory",
        "pain monster > Fungus Forest",
    ]


def test_real_units_all_around_eliminate_a_pained_unit() -> None:
    """The contrast: with the attacker's Acolytes in every adjacent Area the Pained Unit has
    nowhere to go and is Eliminated (the surround the Cylinders cannot make)."""
    state = bare()
    for area in ("North Slime Sea", "Laboratory", "Fungus Forest"):
        state = put(state, area, "crawling-chaos", acolytes=1)
    state = put(state, "Polar Sea", "black-goat", monsters=1, acolytes=1)
    state = put(state, "Polar Sea", "crawling-chaos", monsters=1)
    state = play(acting(state, "crawling-chaos"), "battle Polar Sea vs black-goat", "combat 1")
    state = play(state, "combat 1", "kills 0", "pains 1", "kills 0", "pains 0")
    assert legal(state) == ["pain acolyte eliminated", "pain monster eliminated"]
    state = play(state, "pain monster eliminated")
    assert state.force("Polar Sea", 0).monsters == 0 and state.force("Fungus Forest", 0).monsters == 0


def capture_position(cylinders: int = 0) -> YuggothState:
    state = put(bare(), "Crater Fields", "opener-of-the-way", cylinders=1)
    state = gate(state, "Crater Fields", "opener-of-the-way")
    state = put(state, "Crater Fields", "crawling-chaos", monsters=1)
    if cylinders:
        state = put(state, "Black Towers", "crawling-chaos", cylinders=cylinders)
    return acting(state, "crawling-chaos")


def test_a_captured_cylinder_may_be_converted_and_takes_its_gate() -> None:
    """ "when a Cylinder is Captured, you may choose instead to 'Convert' it into a Cylinder of
    your own Faction's Color, leaving it on the Map" - sitting on the Gate, it now controls it."""
    state = capture_position()
    moves = legal(state)
    assert "capture opener-of-the-way cylinder at Crater Fields" in moves
    assert "capture opener-of-the-way cylinder at Crater Fields and convert" in moves
    state = play(state, "capture opener-of-the-way cylinder at Crater Fields and convert")
    assert state.force("Crater Fields", 2).cylinders == 1
    assert state.force("Crater Fields", 1).total == 0
    assert state.gate("Crater Fields") == 2


def test_a_captured_cylinder_not_converted_is_sacrificed_next_gather_power() -> None:
    """ "Capturing a Brain Cylinder is like Capturing any other Cultist": on the faction card, to
    be Sacrificed in the next Gather Power Phase (1 Power to the captor)."""
    state = play(capture_position(), "capture opener-of-the-way cylinder at Crater Fields")
    assert state.gate("Crater Fields") == -1, "the Opener lost its only Cultist there"
    assert [(c.owner, c.kind) for c in state.factions[2].captives] == [(1, "cylinder")]
    assert ("1 Captured Cultists Sacrificed", 1) in income(state, 2)
    assert cylinders_in_play(state, 1) == 1, "the token is on Crawling Chaos's card, still in play"
    state = play(replace(state, step=GATHER), "gather power")
    assert state.factions[2].captives == ()
    assert cylinders_in_play(state, 1) == 0


def test_a_fifth_cylinder_cannot_be_converted() -> None:
    """ "if you already have four Brain Cylinders in play and Capture a fifth, it cannot be
    Converted. It must be placed on your Faction Card to be Sacrificed"."""
    state = capture_position(cylinders=4)
    moves = legal(state)
    assert "capture opener-of-the-way cylinder at Crater Fields" in moves
    assert "capture opener-of-the-way cylinder at Crater Fields and convert" not in moves
    with pytest.raises(IllegalMove, match="hard limit"):
        play(state, "capture opener-of-the-way cylinder at Crater Fields and convert")


def test_the_bonus_laboratory_token_gives_a_second_surgery_area() -> None:
    """Note: "you may play a variant where Yuggoth has 2 Areas where you can perform the Surgery
    Action"."""
    state = GAME.initial_state(
        Setup(
            3, {"factions": "black-goat,opener-of-the-way,crawling-chaos", "laboratory_token": "nitrogen sea"}
        )
    )
    assert state.board.laboratories == ("Laboratory", "Nitrogen Sea")
    state = gate(put(state, "Nitrogen Sea", "crawling-chaos", acolytes=2), "Nitrogen Sea", "crawling-chaos")
    assert "surgery Nitrogen Sea" in texts(GAME.legal_moves(acting(state, "crawling-chaos")))


@pytest.mark.parametrize("area", ["Slime Sea Overlook", "Watcher Postern", "Pyramid Slopes"])
def test_the_laboratory_token_stays_off_the_overlook_and_the_pyramid(area: str) -> None:
    """ "If you use the token on Yuggoth, we suggest not putting it on the Slime Sea Overlook, nor
    anywhere on the Green Pyramid" - the companion keeps the suggestion."""
    with pytest.raises(BadSetup, match="neither on the Slime Sea Overlook nor on the Green Pyramid"):
        GAME.initial_state(Setup(3, {"laboratory_token": area}))


def test_no_start_area_in_the_laboratory_tokens_area() -> None:
    """ "We suggest a hard rule that no player may have a Start Area in the Laboratory Area
    (including Opener of the Way)"."""
    options = {"factions": "black-goat,crawling-chaos", "laboratory_token": "Fungus Forest"}
    with pytest.raises(BadSetup, match="Start Area in the Laboratory token's Area"):
        GAME.initial_state(Setup(2, options))
