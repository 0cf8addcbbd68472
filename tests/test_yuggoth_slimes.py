"""The Slime Seas and Slime Molds against the rulebook (The Slime Seas, Slime Mold card).

Three-player side (yuggoth.toml): the Slime Sea Overlook touches only the North and
South Slime Seas. Seats: Black Goat 0, Opener of the Way 1, Crawling Chaos 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.base import BadSetup, IllegalMove, Setup
from companion.games.yuggoth.control import slime_controller
from companion.games.yuggoth.state import YuggothState
from tests.yuggoth_helpers import (
    GAME,
    acting,
    bare,
    gate,
    legal,
    play,
    power,
    put,
    slimes,
)

OVERLOOK = "Slime Sea Overlook"


def overlook_held_by(faction: str) -> YuggothState:
    return gate(put(bare(), OVERLOOK, faction, acolytes=1), OVERLOOK, faction)


def test_call_slime_mold_costs_0_with_none_in_play_and_1_after() -> None:
    """Call Slime Mold: "If there are no Slimes in play, this costs 0; if at least one Slime is
    in play, the cost is 1"."""
    state = power(acting(overlook_held_by("crawling-chaos"), "crawling-chaos"), "crawling-chaos", 3)
    assert {"call slime North Slime Sea", "call slime South Slime Sea"} <= set(legal(state))
    state = play(state, "call slime North Slime Sea")
    assert state.factions[2].power == 3
    assert state.slimes_in("North Slime Sea") == 1
    state = play(acting(state, "crawling-chaos"), "call slime South Slime Sea")
    assert state.factions[2].power == 2


def test_slime_molds_appear_only_in_a_slime_sea() -> None:
    """ "place a Slime Mold into any Slime Sea Area" - the Overlook is land, not a Slime Sea."""
    state = acting(overlook_held_by("crawling-chaos"), "crawling-chaos")
    for area in ("Fungus Forest", OVERLOOK):
        with pytest.raises(IllegalMove, match="placed into a Slime Sea"):
            play(state, f"call slime {area}")


def test_only_the_overlook_gates_controller_calls_them() -> None:
    """ "If you Control a Gate on the Slime Sea Overlook" - nobody else may Call."""
    state = acting(overlook_held_by("crawling-chaos"), "black-goat")
    assert not [m for m in legal(state) if m.startswith("call slime")]
    with pytest.raises(IllegalMove, match="neither Controls the Gate"):
        play(state, "call slime North Slime Sea")


def test_allegiance_follows_the_gate_and_an_abandoned_gate_frees_them() -> None:
    """ "If this Gate becomes Controlled by another Faction, all Slime Molds in play change their
    allegiance to the Gate's new Controller. If the Gate is Abandoned, the Slime Molds become
    uncontrolled"."""
    state = slimes(overlook_held_by("crawling-chaos"), "North Slime Sea", 2)
    assert slime_controller(state) == 2
    state = put(state, OVERLOOK, "black-goat", acolytes=1)
    state = play(acting(state, "crawling-chaos"), "move acolyte Slime Sea Overlook > South Slime Sea")
    assert state.gate(OVERLOOK) == -1
    assert slime_controller(state) == -1
    assert "controlled by nobody" in " ".join(GAME.describe(state).shared)
    state = play(acting(state, "black-goat"), "control Slime Sea Overlook")
    assert slime_controller(state) == 0
    assert "move slime North Slime Sea > Polar Sea" in legal(state), "Black Goat now moves them"


def test_slime_molds_cannot_move_into_the_overlook() -> None:
    """ "Slimes cannot use a Move Action to go to the Slime Sea Overlook"."""
    state = acting(slimes(overlook_held_by("crawling-chaos"), "North Slime Sea", 1), "crawling-chaos")
    moves = legal(state)
    assert "move slime North Slime Sea > Polar Sea" in moves
    assert "move slime North Slime Sea > Slime Sea Overlook" not in moves
    with pytest.raises(IllegalMove, match="cannot use a Move Action to go to the Slime Sea Overlook"):
        play(state, "move slime North Slime Sea > Slime Sea Overlook")


def test_slime_molds_may_be_pained_into_the_overlook() -> None:
    """ "(but they may be Pained there or arrive via other means ...)"."""
    state = slimes(overlook_held_by("crawling-chaos"), "North Slime Sea", 1)
    state = acting(put(state, "North Slime Sea", "black-goat", monsters=1), "black-goat")
    state = play(state, "battle North Slime Sea vs crawling-chaos", "combat 2")
    assert state.battle is not None and state.battle.dice == (2, 2), "a Slime Mold rolls 2 dice"
    state = play(state, "kills 0", "pains 1", "kills 0", "pains 0")
    assert "pain slime > Slime Sea Overlook" in legal(state)
    state = play(state, "pain slime > Slime Sea Overlook")
    assert state.slimes_in(OVERLOOK) == 1


def uncontrolled_slimes() -> YuggothState:
    state = slimes(bare(), "South Slime Sea", 2)
    state = put(state, "South Slime Sea", "black-goat", monsters=1)
    state = put(state, "South Slime Sea", "opener-of-the-way", acolytes=2)
    state = put(state, "Fungus Forest", "black-goat", acolytes=1)
    return acting(state, "black-goat")


def test_a_battle_against_uncontrolled_slimes_affects_no_other_faction() -> None:
    """ "It is possible to declare Battle against uncontrolled Slime Molds without affecting any
    other Faction. The Slime Molds do fight back - roll dice for them and mark losses normally"."""
    state = uncontrolled_slimes()
    assert "battle South Slime Sea vs slimes" in legal(state)
    state = play(state, "battle South Slime Sea vs slimes", "combat 3")
    assert state.battle is not None and state.battle.dice == (3, 4), "2 Combat per Slime Mold"
    state = play(state, "kills 1", "pains 0", "kills 1", "pains 0")
    assert state.slimes_in("South Slime Sea") == 1
    assert state.force("South Slime Sea", 0).monsters == 0, "the Slimes' Kill took Black Goat's Monster"
    assert state.force("South Slime Sea", 1).acolytes == 2, "the Opener was not in this Battle"


def test_the_attacker_chooses_where_uncontrolled_slimes_are_pained() -> None:
    """ "If an uncontrolled Slime Mold is Pained (or Retreated) and Madness is not in effect,
    their attacker chooses the Area to which they are Pained, following normal Pain rules" -
    never into an Area holding the attacker's Units."""
    state = play(uncontrolled_slimes(), "battle South Slime Sea vs slimes", "combat 3")
    state = play(state, "kills 0", "pains 1", "kills 0", "pains 0")
    assert GAME.to_move(state) == 0, "Black Goat, the attacker, chooses"
    moves = legal(state)
    assert "pain slime > Fungus Forest" not in moves, "Black Goat's Acolyte is there"
    assert moves == [
        "pain slime > Slime Sea Overlook",
        "pain slime > North Slime Sea",
        "pain slime > Methane Sea",
        "pain slime > Tholin Wastes",
    ]


def test_yog_sothoth_in_the_overlook_may_call_them() -> None:
    """ "If Opener of the Way is in play, Yog-Sothoth may perform the Call Slime Mold Action by
    being in the Slime Sea Overlook"."""
    state = acting(put(bare(), OVERLOOK, "opener-of-the-way", goo=1), "opener-of-the-way")
    assert "call slime North Slime Sea" in legal(state)
    state = play(state, "call slime North Slime Sea")
    assert slime_controller(state) == 1


def test_a_normal_gate_controlled_by_another_faction_takes_precedence() -> None:
    """ "if there is also a normal Gate in the Overlook and it is Controlled by a different
    Faction, then Yog-Sothoth CANNOT perform this Action ... a normal Gate in the Overlook takes
    precedence over Yog-Sothoth"."""
    state = put(overlook_held_by("black-goat"), OVERLOOK, "opener-of-the-way", goo=1)
    assert slime_controller(state) == 0
    with pytest.raises(IllegalMove):
        play(acting(state, "opener-of-the-way"), "call slime North Slime Sea")
    assert "call slime North Slime Sea" in legal(acting(state, "black-goat"))
    # An Abandoned normal Gate does not stop Yog-Sothoth.
    state = put(state, OVERLOOK, "black-goat")
    state = gate(state, OVERLOOK, None)
    assert slime_controller(state) == 1


def test_black_goats_fertility_cult_calls_as_many_as_desired_in_a_slime_sea() -> None:
    """Special Rule for Black Goat: "Fertility Cult will allow it to Call as many Slime Molds as
    desired, and in conjunction with Summoning other Monsters. The Slime Molds must still appear
    in the Slime Sea"."""
    state = power(acting(overlook_held_by("black-goat"), "black-goat"), "black-goat", 5)
    state = play(state, "spellbook fertility-cult")
    assert state.current == 0, "recording the Spellbook is not Black Goat's action"
    state = play(
        state, "call slime North Slime Sea", "call slime South Slime Sea", "call slime North Slime Sea"
    )
    assert state.current == 0 and sum(state.slimes) == 3
    assert state.factions[0].power == 3, "0, then 1 and 1 Power"
    with pytest.raises(IllegalMove, match="Special Rule for Black Goat"):
        play(state, "call slime Fungus Forest")
    state = play(state, "summon Slime Sea Overlook")
    assert state.current != 0, "the Summon was the turn's action"


def test_without_fertility_cult_a_call_is_the_turns_action() -> None:
    state = play(acting(overlook_held_by("black-goat"), "black-goat"), "call slime North Slime Sea")
    assert state.current != 0


def test_six_slime_molds_at_most() -> None:
    """Components: "Slime Mold(6)"."""
    state = slimes(overlook_held_by("crawling-chaos"), "North Slime Sea", 6)
    state = acting(state, "crawling-chaos")
    assert not [m for m in legal(state) if m.startswith("call slime")]
    with pytest.raises(IllegalMove, match="all 6 Slime Molds"):
        play(state, "call slime South Slime Sea")


def test_slime_molds_guard_their_controllers_cultists_and_capture() -> None:
    """ "Slimes are Monsters": they keep enemy Capture off their controller's Cultists there."""
    state = slimes(overlook_held_by("crawling-chaos"), "North Slime Sea", 1)
    state = put(state, "North Slime Sea", "crawling-chaos", acolytes=1)
    state = put(state, "North Slime Sea", "black-goat", monsters=1, acolytes=1)
    assert "capture crawling-chaos acolyte at North Slime Sea" not in legal(acting(state, "black-goat"))
    assert "capture black-goat acolyte at North Slime Sea" not in legal(acting(state, "crawling-chaos"))
    state = put(state, "North Slime Sea", "black-goat", acolytes=1)
    assert "capture black-goat acolyte at North Slime Sea" in legal(acting(state, "crawling-chaos"))


MAP = """
[maps.earth]
title = "A small table map"
yuggoth = false
[maps.earth.starts]
black-goat = "Africa"
crawling-chaos = "Asia"
[maps.earth.areas]
"Africa" = ["Asia", "Europe"]
"Asia" = ["Africa", "Europe", "Pacific Ocean"]
"Europe" = ["Africa", "Asia"]
"Pacific Ocean" = ["Asia"]
"""


def test_the_bonus_slime_tokens_work_on_another_map(tmp_path: Path) -> None:
    """Note: "place each one in a separate Area of another Map ... You can perform the Call Slime
    Mold Action in the 'No Slimes Allowed' Area, if you Control a Gate there. The other Area is
    where the Slimes must appear when Called"."""
    path = tmp_path / "earth.toml"
    path.write_text(MAP, encoding="utf-8")
    options = {
        "factions": "black-goat,crawling-chaos",
        "map": str(path),
        "slime_tokens": "Europe,Pacific Ocean",
    }
    state = GAME.initial_state(Setup(2, options))
    assert state.board.overlook == "Europe" and state.board.slime_seas == ("Pacific Ocean",)
    state = gate(put(state, "Europe", "crawling-chaos", acolytes=1), "Europe", "crawling-chaos")
    moves = legal(acting(state, "crawling-chaos"))
    assert [m for m in moves if m.startswith("call slime")] == ["call slime Pacific Ocean"]
    assert not state.board.postern, "no Green Pyramid there: the Watcher never appears"


def test_the_bonus_slime_tokens_cannot_be_used_on_yuggoth() -> None:
    """ "These cannot be used on the Yuggoth Map, as they would lead to confusion"."""
    with pytest.raises(BadSetup, match="cannot be used on the Yuggoth Map"):
        GAME.initial_state(Setup(2, {"slime_tokens": "Fungus Forest,Polar Sea"}))
