"""The Watcher of the Green Pyramid against the rulebook (cthulhu-wars-yuggoth.txt).

Positions are on the assumed three-player side (yuggoth.toml): the Watcher Postern [6]
touches the Pyramid Slopes [5], the Nitrogen Sea and the Tholin Wastes. Seats: Black
Goat 0, Opener of the Way 1, Crawling Chaos 2.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.base import CHANCE, IllegalMove
from companion.games.yuggoth.moves import Roll, WatcherTo
from companion.games.yuggoth.state import (
    ACTIONS,
    AWAKENING,
    DECAY,
    GATHER,
    RITUALS,
    WATCHER_ATTACK,
    YuggothState,
)
from companion.games.yuggoth.watcher import begin_attacks
from tests.yuggoth_helpers import (
    GAME,
    acting,
    awake_at,
    bare,
    faction_field,
    gate,
    legal,
    new,
    play,
    put,
    seat,
    slimes,
)


def end_of_rituals(state: YuggothState) -> YuggothState:
    """The last Ritual decision of a Doom Phase is about to be made ('no ritual' ends it)."""
    return replace(state, step=RITUALS, pending=(state.first,), current=state.first)


def attacking(state: YuggothState) -> YuggothState:
    """The start of the Action Phase with the Watcher awake: its Attacks begin."""
    return begin_attacks(state)


# ---- set-up ------------------------------------------------------------------------


def test_set_up_puts_the_watcher_asleep_at_12() -> None:
    """Set Up: "Place the Watcher Token at 12 on the Doom Track, with the dark (asleep) side up"."""
    state = new()
    assert not state.watcher.awake
    assert state.watcher.position == 12
    assert state.watcher.area == ""


# ---- Awakening by the die ----------------------------------------------------------


def pyramid_gate(holder: str = "black-goat", area: str = "Pyramid Slopes") -> YuggothState:
    state = put(bare(), area, holder, acolytes=1)
    return gate(state, area, holder)


def test_a_controlled_pyramid_gate_calls_for_a_roll_after_the_rituals() -> None:
    """The Watcher Awakens: "At the end of the Doom Phase, after all players have had a chance
    to perform a Ritual of Annihilation and if there is a Controlled Gate in any Green Pyramid
    Area, roll a die."."""
    state = replace(pyramid_gate(), step=RITUALS, pending=(0, 1, 2), current=0)
    state = play(state, "no ritual", "no ritual")
    assert state.step == RITUALS, "no roll while a faction still has its Ritual to decide"
    state = play(state, "no ritual")
    assert state.step == AWAKENING
    assert GAME.to_move(state) == CHANCE
    assert GAME.chance_outcomes(state) == tuple((Roll(v), 1 / 6) for v in range(1, 7))


def test_the_number_of_an_area_with_a_controlled_gate_awakens_it_on_the_postern() -> None:
    """ "If the result equals the number printed on an Area with a Controlled Gate, the Watcher
    Awakens ... place its figure on the Watcher Postern (regardless of the number rolled)"."""
    state = play(end_of_rituals(pyramid_gate()), "no ritual", "roll 5")
    assert state.watcher.awake
    assert state.watcher.area == "Watcher Postern", (
        "the Slopes (5) were rolled, but it appears on the Postern"
    )
    assert state.watcher.position == 12
    assert state.step == WATCHER_ATTACK


def test_a_number_without_a_controlled_gate_leaves_it_asleep() -> None:
    """The Postern's 6 has no Controlled Gate: rolling it does nothing."""
    state = play(end_of_rituals(pyramid_gate()), "no ritual", "roll 6")
    assert not state.watcher.awake
    assert state.step == ACTIONS


def test_an_abandoned_pyramid_gate_calls_for_no_roll() -> None:
    """Only a Controlled Gate counts ("if there is a Controlled Gate in any Green Pyramid Area")."""
    state = gate(bare(), "Pyramid Slopes", None)
    state = play(end_of_rituals(state), "no ritual")
    assert state.step == ACTIONS
    assert not state.watcher.awake


def test_yog_sothoths_presence_counts_for_awakening() -> None:
    """ "Yog-Sothoth's presence in a Green Pyramid Area counts for Awakening the Watcher, even
    if a normal Gate is not Controlled in the same Area"."""
    state = put(bare(), "Watcher Postern", "opener-of-the-way", goo=1)
    state = play(end_of_rituals(state), "no ritual")
    assert state.step == AWAKENING
    assert play(state, "roll 6").watcher.awake


def test_corrected_pyramid_numbers_decide_the_roll() -> None:
    """The printed numbers are not in the text; the table's own (option `pyramid`) count."""
    state = bare(pyramid="Pyramid Slopes=2")
    state = gate(put(state, "Pyramid Slopes", "black-goat", acolytes=1), "Pyramid Slopes", "black-goat")
    assert not play(end_of_rituals(state), "no ritual", "roll 5").watcher.awake
    assert play(end_of_rituals(state), "no ritual", "roll 2").watcher.awake


# ---- Awakening by a Doom marker ----------------------------------------------------


def test_a_doom_marker_passing_the_dark_token_awakens_it() -> None:
    """ "Should any player's Doom Marker pass over the dark Watcher Token, flip it ... when a
    player first reaches or exceeds 12 Doom, the Watcher Awakens" - no die needed."""
    state = bare()
    for area in ("Fungus Forest", "Methane Sea"):
        state = gate(put(state, area, "black-goat", acolytes=1), area, "black-goat")
    state = faction_field(state, "black-goat", doom=10)
    state = play(replace(state, step=GATHER), "gather power")
    assert state.step == RITUALS  # Black Goat gained its 2 Doom for Gates: 12
    assert state.factions[seat(state, "black-goat")].doom == 12
    state = play(state, "no ritual", "no ritual", "no ritual")
    assert state.watcher.awake and state.watcher.area == "Watcher Postern"
    assert state.step == WATCHER_ATTACK


def test_doom_reached_in_the_action_phase_waits_for_the_doom_phase() -> None:
    """ "If a player's Doom reaches 12 during an Action Phase (due to turning in Elder Signs, for
    example), the Watcher won't Awaken until the following Doom Phase"."""
    state = put(bare(), "Fungus Forest", "black-goat", acolytes=1)
    state = faction_field(state, "black-goat", doom=11, elder_signs=1, power=3)
    state = play(acting(state, "black-goat"), "elder sign 2")
    assert state.factions[0].doom == 13
    assert not state.watcher.awake
    assert state.watcher.marker_passed
    assert any("next Doom Phase" in line for line in GAME.describe(state).shared)
    state = play(end_of_rituals(state), "no ritual")
    assert state.watcher.awake


def test_once_every_marker_is_past_12_only_the_die_awakens_it() -> None:
    """ "If all players have already reached or exceeded 12 Doom, then the Watcher will only
    re-Awaken via die roll"."""
    state = bare()
    state = gate(put(state, "Fungus Forest", "black-goat", acolytes=1), "Fungus Forest", "black-goat")
    for faction in ("black-goat", "opener-of-the-way", "crawling-chaos"):
        state = faction_field(state, faction, doom=14)
    state = play(replace(state, step=GATHER), "gather power")
    state = play(state, "no ritual", "no ritual", "no ritual")
    assert not state.watcher.awake
    assert state.step == ACTIONS
    assert any("only the die" in line for line in GAME.describe(state).shared)


def test_another_players_marker_reaching_12_reawakens_it() -> None:
    """ "It will re-Awaken if another player's Doom Marker reaches 12"."""
    state = bare()
    state = gate(
        put(state, "Crater Fields", "opener-of-the-way", acolytes=1), "Crater Fields", "opener-of-the-way"
    )
    state = faction_field(state, "black-goat", doom=15)
    state = faction_field(state, "opener-of-the-way", doom=11)
    state = play(replace(state, step=GATHER), "gather power")
    state = play(state, "no ritual", "no ritual", "no ritual")
    assert state.watcher.awake


# ---- Decay ---------------------------------------------------------------------------


def test_an_awake_watcher_decays_by_a_die_at_the_start_of_the_doom_phase() -> None:
    """The Watcher Decays: "If the Watcher is already Awake before the Doom Phase begins, roll a
    die and lower the Watcher Token's position on the Doom Track by that many spaces"."""
    state = awake_at(put(bare(), "Polar Sea", "black-goat", acolytes=1), "Nitrogen Sea", position=9)
    state = play(replace(state, step=GATHER), "gather power")
    assert state.step == DECAY
    assert GAME.to_move(state) == CHANCE
    state = play(state, "roll 4")
    assert state.watcher.position == 5
    assert state.watcher.awake
    assert state.step == RITUALS


def test_decaying_to_0_kills_it_and_it_cannot_reawaken_in_that_doom_phase() -> None:
    """ "If it Decays to 0, it is Killed; remove it from the Map" and "never re-Awaken the
    Watcher in the same Doom Phase in which it reaches 0" - not even with the Pyramid held."""
    state = pyramid_gate()
    state = awake_at(state, "Nitrogen Sea", position=3)
    state = play(replace(state, step=GATHER), "gather power", "roll 3")
    assert not state.watcher.awake
    assert state.watcher.position == 12 and state.watcher.area == ""
    state = play(state, "no ritual", "no ritual", "no ritual")
    assert state.step == ACTIONS, "no Awakening roll in the Doom Phase in which it reached 0"
    # The next Doom Phase rolls again.
    state = play(replace(state, step=GATHER), "gather power", "no ritual", "no ritual", "no ritual")
    assert state.step == AWAKENING


def test_a_marker_passing_12_in_the_phase_it_died_waits_for_the_next_doom_phase() -> None:
    """Killed by Decay, then a marker passes the dark token in the same Doom Phase: the
    companion awakens it at the next Doom Phase (docs/decisions.md)."""
    state = bare()
    state = gate(put(state, "Fungus Forest", "black-goat", acolytes=1), "Fungus Forest", "black-goat")
    state = faction_field(state, "black-goat", doom=11)
    state = awake_at(state, "Nitrogen Sea", position=2)
    state = play(replace(state, step=GATHER), "gather power", "roll 2")
    state = play(state, "no ritual", "no ritual", "no ritual")
    assert not state.watcher.awake and state.watcher.marker_passed
    state = play(replace(state, step=GATHER), "gather power", "no ritual", "no ritual", "no ritual")
    assert state.watcher.awake


def test_it_never_decays_in_the_doom_phase_in_which_it_awakens() -> None:
    """ "Never Decay the Watcher on the Doom Phase in which it Awakens": it awakens at the end of
    the Doom Phase, and the next Doom Phase is the first to roll its Decay."""
    state = play(end_of_rituals(pyramid_gate()), "no ritual", "roll 5")
    assert state.watcher.position == 12
    assert state.step == WATCHER_ATTACK


# ---- the Attacks ---------------------------------------------------------------------


def three_armies() -> YuggothState:
    state = bare()
    state = put(state, "Pyramid Slopes", "black-goat", acolytes=2)
    state = put(state, "Tholin Wastes", "crawling-chaos", acolytes=1)
    state = put(state, "Laboratory", "opener-of-the-way", acolytes=1)
    return awake_at(replace(state, first=1), "Watcher Postern")


def test_it_attacks_once_per_player_starting_with_the_first_player() -> None:
    """Action Phase: "The Watcher Attacks once per player. The First Player Controls its first
    Attack, followed by the next player, and so forth"."""
    state = attacking(three_armies())
    assert state.watcher.attackers == (1, 2, 0)
    assert GAME.to_move(state) == "watcher"
    assert "Opener of the Way controls this Attack" in " ".join(GAME.describe(state).shared)


def test_it_moves_into_an_adjacent_area_with_units() -> None:
    """ "the controlling player must Move the Watcher into an adjacent Area of his choice that
    contains Units belonging to any Faction" - not the empty Nitrogen Sea, not the far Laboratory."""
    state = attacking(three_armies())
    assert legal(state) == ["watcher > Pyramid Slopes", "watcher > Tholin Wastes"]
    with pytest.raises(IllegalMove, match="adjacent Area with Units"):
        play(state, "watcher > Laboratory")


def test_with_no_units_adjacent_it_may_teleport_anywhere_with_units() -> None:
    """ "If no player's Units are in an adjacent Area, the Watcher may be teleported to any Area
    containing any player's Units"."""
    state = bare()
    state = put(state, "Laboratory", "opener-of-the-way", acolytes=1)
    state = put(state, "Methane Sea", "black-goat", monsters=1)
    state = attacking(awake_at(state, "Watcher Postern"))
    assert legal(state) == ["watcher > Laboratory", "watcher > Methane Sea"]
    assert "teleport" in " ".join(GAME.describe(state).shared)


def test_it_may_never_remain_in_the_same_area() -> None:
    """ "The Watcher may never remain in the same Area": Units only where it stands leave its
    Attack nothing to do (the text is silent; the companion skips it, docs/decisions.md)."""
    state = put(bare(), "Watcher Postern", "crawling-chaos", monsters=1)
    state = attacking(awake_at(state, "Watcher Postern"))
    assert legal(state) == ["watcher has no target"]
    with pytest.raises(IllegalMove, match="never remain"):
        GAME.apply(state, WatcherTo("Watcher Postern"))
    state = play(state, "watcher has no target")
    assert state.watcher.attackers == (1, 2)


def test_uncontrolled_slime_molds_neither_draw_it_nor_are_attacked() -> None:
    """ "If the Slime Molds are neutral, it does not attack them"; they belong to no Faction."""
    state = slimes(bare(), "Nitrogen Sea", 2)
    state = slimes(state, "Pyramid Slopes", 1)
    state = put(state, "Pyramid Slopes", "black-goat", acolytes=1)
    state = attacking(awake_at(state, "Watcher Postern"))
    assert legal(state) == ["watcher > Pyramid Slopes"]
    state = play(state, "watcher > Pyramid Slopes")
    assert state.battle is not None and state.battle.sides == (-1, 0), "only Black Goat is attacked"


def test_controlled_slime_molds_are_their_controllers_units() -> None:
    """Slime Molds belong to the Overlook Gate's controller: an Area with only them draws the Watcher."""
    state = bare()
    state = gate(
        put(state, "Slime Sea Overlook", "crawling-chaos", acolytes=1), "Slime Sea Overlook", "crawling-chaos"
    )
    state = slimes(state, "Nitrogen Sea", 1)
    state = attacking(awake_at(state, "Watcher Postern"))
    assert legal(state) == ["watcher > Nitrogen Sea"]


def test_combat_dice_equal_its_position_and_each_kill_lowers_it() -> None:
    """ "the Watcher initiates a Battle with Combat dice equal to the Watcher Token's position";
    "each Kill rolled drops the Watcher Token down 1 point on the Doom Track"."""
    state = put(bare(), "Pyramid Slopes", "black-goat", acolytes=2, monsters=1)
    state = attacking(awake_at(state, "Watcher Postern", position=9))
    state = play(state, "watcher > Pyramid Slopes")
    assert GAME.to_move(state) == 0  # Black Goat declares its Monster's Combat
    state = play(state, "combat 3")
    assert GAME.to_move(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    assert [str(m) for m, _ in outcomes] == [f"kills {k}" for k in range(10)], "nine dice"
    state = play(state, "kills 0", "pains 0", "kills 2")
    assert state.watcher.position == 7
    assert state.watcher.awake


def test_the_watcher_is_immune_to_pain() -> None:
    """ "The Watcher is immune to all Pain": the defender reports no Pains, the Watcher stays."""
    state = put(bare(), "Pyramid Slopes", "black-goat", monsters=1)
    state = attacking(awake_at(state, "Watcher Postern", position=5))
    state = play(state, "watcher > Pyramid Slopes", "combat 4", "kills 0", "pains 0", "kills 1")
    assert state.battle is None, "no Pains roll was asked of Black Goat"
    assert state.watcher.area == "Pyramid Slopes" and state.watcher.position == 4


def test_the_controller_may_have_himself_attacked_second() -> None:
    """Example: "if two Factions, including the player's Units, are in the Area, the player can
    choose to have himself attacked second, hoping the Watcher will have lost strength by the
    time it gets to him"."""
    state = bare()
    state = put(state, "Pyramid Slopes", "black-goat", monsters=2)
    state = put(state, "Pyramid Slopes", "crawling-chaos", acolytes=3)
    state = attacking(awake_at(replace(state, first=2), "Watcher Postern", position=10))
    state = play(state, "watcher > Pyramid Slopes")
    assert legal(state) == ["watcher attacks black-goat", "watcher attacks crawling-chaos"]
    state = play(state, "watcher attacks black-goat", "combat 6", "kills 0", "pains 0", "kills 3")
    assert state.battle is not None and state.battle.sides == (-1, 2), "then Crawling Chaos, without a choice"
    assert state.battle.dice == (7, 0), "the Watcher lost strength: 7 dice, not 10"
    state = play(state, "kills 0", "pains 0")
    # "Any number of Battles in a single Area, against multiple Factions, counts as a single
    # Watcher Attack": Black Goat controls the next one.
    assert state.step == WATCHER_ATTACK and state.watcher.attackers == (0, 1)


def test_the_defender_chooses_its_losses_then_where_its_pained_units_go() -> None:
    """The Watcher's Kills and Pains are marked "as normal": Kills before Pains, the owner
    choosing; a Pained Unit retreats to an adjacent Area."""
    state = put(bare(), "Pyramid Slopes", "black-goat", acolytes=1, monsters=1)
    state = put(state, "Cyclopean Bridge", "crawling-chaos", monsters=1)
    state = attacking(awake_at(state, "Watcher Postern", position=4))
    state = play(state, "watcher > Pyramid Slopes", "combat 1", "kills 1", "pains 1", "kills 0")
    assert GAME.to_move(state) == 0
    assert legal(state) == ["kill acolyte", "kill monster"]
    state = play(state, "kill acolyte")
    # The Monster is Pained: not into the Cyclopean Bridge? Only the enemy in this Battle (the
    # Watcher) blocks a retreat, so every adjacent Area is open.
    assert legal(state) == [
        "pain monster > Black Towers",
        "pain monster > Cyclopean Bridge",
        "pain monster > Watcher Postern",
        "pain monster > Tholin Wastes",
    ]
    state = play(state, "pain monster > Tholin Wastes")
    assert state.force("Tholin Wastes", 0).monsters == 1
    assert state.force("Pyramid Slopes", 0).total == 0


def test_killing_it_ends_the_attacks_and_resets_it_asleep_at_12() -> None:
    """ "until each player has had a chance to Control it once or until it has been destroyed";
    at 0 "its figure is removed ... flipped back to the dark, sleeping side ... placed back at 12"."""
    state = put(bare(), "Pyramid Slopes", "black-goat", monsters=1)
    state = attacking(awake_at(state, "Watcher Postern", position=2))
    state = play(state, "watcher > Pyramid Slopes", "combat 4", "kills 0", "pains 0", "kills 2")
    assert not state.watcher.awake
    assert state.watcher.position == 12 and state.watcher.area == ""
    assert state.step == ACTIONS and state.current == state.first, "the First Player takes his first turn"


def test_after_every_attack_the_first_player_takes_his_first_turn() -> None:
    """ "At that point, the First Player takes his own first turn as normal"."""
    state = attacking(three_armies())
    for _ in range(3):
        state = play(state, str(GAME.legal_moves(state)[0]))
        while GAME.to_move(state) == CHANCE:
            state = play(state, str(GAME.chance_outcomes(state)[0][0]))
    assert state.step == ACTIONS
    assert state.current == 1


def test_tip_it_may_return_to_the_postern_on_its_second_attack() -> None:
    """Tip: "you might at first feel safe by having a Gate on the Watcher Postern itself. Be
    aware that the Watcher may simply return to the Postern on its second Attack!"; and "A
    player may return the Watcher to Attack an Area it moved from earlier"."""
    state = bare()
    state = gate(
        put(state, "Watcher Postern", "opener-of-the-way", acolytes=1), "Watcher Postern", "opener-of-the-way"
    )
    state = put(state, "Pyramid Slopes", "crawling-chaos", acolytes=1)
    state = attacking(awake_at(state, "Watcher Postern"))
    assert "watcher > Watcher Postern" not in legal(state), "the first Attack cannot stay"
    state = play(state, "watcher > Pyramid Slopes", "kills 0", "pains 0")
    assert state.step == WATCHER_ATTACK and state.watcher.attackers == (1, 2)
    assert "watcher > Watcher Postern" in legal(state)
    state = play(state, "watcher > Watcher Postern", "kills 1", "pains 0")
    assert state.gate("Watcher Postern") == -1, "the Opener's only Cultist died: the Gate is Abandoned"


def test_nyarlathotep_earns_two_elder_signs_for_kills_on_it_once() -> None:
    """ "the Watcher can provide Nyarlathotep with 2 Elder Signs for scoring a Kill against it ...
    (multiple Kills against the Watcher do not provide Nyarlathotep with additional Elder Signs)"."""
    state = nyarlathotep_beside_the_watcher(goo=1)
    state = play(state, "battle Black Towers vs watcher", "combat 6", "kills 3")
    assert state.factions[2].elder_signs == 0, "Kills rolled, the Watcher's dice still to come"
    state = play(state, "kills 0", "pains 0")
    assert state.factions[2].elder_signs == 2
    assert state.watcher.position == 5


def nyarlathotep_beside_the_watcher(**units: int) -> YuggothState:
    state = put(awake_at(bare(), "Black Towers", position=8), "Black Towers", "crawling-chaos", **units)
    return acting(state, "crawling-chaos")


def test_no_elder_signs_without_a_kill_or_without_nyarlathotep() -> None:
    """Pains cannot hurt it ("Nyarlathotep must actually score a Kill"), and the Elder Signs are
    Nyarlathotep's: Crawling Chaos Monsters alone earn none."""
    state = play(
        nyarlathotep_beside_the_watcher(goo=1), "battle Black Towers vs watcher", "combat 6", "kills 0"
    )
    state = play(state, "kills 0", "pains 0")
    assert state.factions[2].elder_signs == 0
    state = play(nyarlathotep_beside_the_watcher(monsters=2), "battle Black Towers vs watcher", "combat 4")
    state = play(state, "kills 2", "kills 0", "pains 0")
    assert state.watcher.position == 6
    assert state.factions[2].elder_signs == 0


def test_any_player_may_battle_it_in_the_action_phase_for_1_power() -> None:
    """ "During the rest of the Action Phase, any player may initiate a Battle against the
    Watcher. It will roll its Combat dice and ignore all Pains as normal"."""
    state = put(bare(), "Black Towers", "black-goat", acolytes=1, monsters=1)
    state = acting(awake_at(state, "Black Towers", position=6), "black-goat")
    assert "battle Black Towers vs watcher" in legal(state)
    power_before = state.factions[0].power
    state = play(state, "battle Black Towers vs watcher")
    assert state.factions[0].power == power_before - 1
    assert state.battle is not None and state.battle.dice == (-1, 6)
    state = play(state, "combat 2", "kills 1", "kills 0", "pains 0")
    assert state.watcher.position == 5
    assert state.step == ACTIONS and state.current != 0, "the Battle was Black Goat's action"


def test_the_page_shows_the_battle_and_what_to_roll() -> None:
    state = put(bare(), "Pyramid Slopes", "black-goat", monsters=1)
    state = attacking(awake_at(state, "Watcher Postern", position=9))
    view = GAME.describe(state)
    assert (
        view.headline == "Round 1 · Action Phase: the Watcher Attacks · the Watcher, controlled by Black Goat"
    )
    assert "The Watcher is AWAKE on Watcher Postern, its token at 9: it rolls 9 Combat dice" in view.shared
    state = play(state, "watcher > Pyramid Slopes")
    shared = GAME.describe(state).shared
    assert "Battle on Pyramid Slopes: the Watcher (9 dice) against Black Goat (? dice)" in shared
    assert "Black Goat declares its Combat: 0 to 4 dice" in shared
    state = play(state, "combat 2")
    assert "Roll the Watcher's dice and report its Kills" in GAME.describe(state).shared
    with pytest.raises(IllegalMove, match="the dice can show kills 0"):
        play(state, "kills 10")


def test_watcher_moves_out_of_order_are_explained() -> None:
    state = attacking(three_armies())
    with pytest.raises(IllegalMove, match="first the Watcher moves"):
        play(state, "watcher attacks black-goat")
    with pytest.raises(IllegalMove, match="within its reach"):
        play(state, "watcher has no target")
    with pytest.raises(IllegalMove, match="Attacks before the First Player"):
        play(state, "pass")


def test_the_table_hears_the_watcher_awaken(tmp_path: Path) -> None:
    """Issue 9, panel: when the Watcher awakens the status LED asks for attention (and a
    wired buzzer sounds); the phase LEDs show the Doom Phase, then the Watcher's attack."""
    from gpiozero.pins.mock import MockFactory

    from companion.games.registry import get_game
    from companion.service import CameraWatch, Devices
    from companion.store import Store
    from companion.table import Table
    from hardware.panel import Panel, load_pinmap

    game = get_game("yuggoth")
    store = Store(tmp_path / "db.sqlite3")
    first = end_of_rituals(pyramid_gate())
    game_id = store.create_game("yuggoth", {"players": 3, "options": {}}, game.state_to_json(first))
    table = Table(store)
    session = table.resume(game_id)
    panel = Panel(load_pinmap(), MockFactory(), ticking=False)
    devices = Devices(CameraWatch(None), panel, table)
    devices._show_game()
    assert panel.phase_leds[1].value and panel.status == "off"
    session.play("no ritual")
    session.play("roll 5")
    devices._show_game()
    assert session.state.watcher.awake
    assert panel.status == "attention" and panel.phase_leds[3].value
    panel.close()
