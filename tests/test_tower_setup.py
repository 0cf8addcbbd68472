"""Tower set-up: stalls and build cards per player count, the bag, the deal, the options.

The default data (companion/games/tower/tower.toml) is assumed; the tests below check
what the rulebook says about it (counts, removals) and that a table can replace it.

Default stalls (space: material, price):
  1 Hesham's General Store  1a straw 2 green+1 blue · 1b lumber 1 red+1 green · 1c water 2 blue+1 green
  2 Farmer's Stand          2a straw 2 green · 2b lumber 1 blue+1 green · 2c clay 2 blue
  3 Potter's Yard           3a straw 1 blue · 3b clay 1 red · 3c water 3 green
  4 Timber Merchant         4a lumber 2 green · 4b clay 1 blue+2 green · 4c water 1 red
  5 Well-Keeper's Cart      (3+ players) 5a straw · 5b lumber · 5c clay
  6 Caravan Tent            (4 players) 6a straw · 6b lumber · 6c water
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.base import CHANCE, BadSetup
from companion.games.tower.gems import Gems
from companion.games.tower.state import DEAL, DRAW, LUTFI_DIE
from tests.tower_helpers import GAME, dealt, new_game, play


def materials_in_play(state: object) -> Counter[str]:
    return Counter(slot.material for stall in state.stalls for slot in stall.slots if slot.material)  # type: ignore[attr-defined]


def test_four_players_use_every_stall_and_build_card() -> None:
    """Setup: "For a 4-player game, use all market stall tiles and build cards" - 6 stalls
    holding the 18 building material tokens, 18 build cards."""
    state = new_game(4)
    assert [s.number for s in state.stalls] == [1, 2, 3, 4, 5, 6]
    assert sum(materials_in_play(state).values()) == 18
    assert len(state.build_cards) == len(state.build_deck) == 18


def test_three_players_remove_a_stall_its_materials_and_cards() -> None:
    """Setup: "For a 3-player game, remove the market stall and all build cards with a ()
    icon ... Also return the 3 building materials indicated on the returned market stall."""
    four, three = new_game(4), new_game(3)
    assert [s.number for s in three.stalls] == [1, 2, 3, 4, 5]
    assert sum(materials_in_play(three).values()) == sum(materials_in_play(four).values()) - 3
    assert len(three.build_cards) == 12


def test_two_players_repeat_the_removal() -> None:
    """Setup: "For a 2-player game, follow the above instructions and repeat for all
    components with a () icon" - and build cards are kept secret with 2 players."""
    two = new_game(2)
    assert [s.number for s in two.stalls] == [1, 2, 3, 4]
    assert sum(materials_in_play(two).values()) == 12
    assert len(two.build_cards) == 8
    assert two.variants.secret_cards
    assert not new_game(3).variants.secret_cards


def test_each_material_starts_on_its_own_space() -> None:
    """Setup: "place one straw token in each yellow space, one lumber token in each brown
    space, one clay token in each red space, and one water barrel in each blue space"."""
    state = new_game(4)
    assert all(slot.material == slot.space for stall in state.stalls for slot in stall.slots)


def test_the_bag_holds_90_gems_and_10_passes_and_salil_nothing() -> None:
    """Setup: "Take the 90 gems and the 10 black market passes and place them in the bag";
    Salil: "At the beginning of the game ... he has nothing to offer"."""
    state = new_game(3)
    assert state.bag.gems == 90 and state.bag.passes == 10
    assert state.salil == Gems()


def test_each_player_draws_a_build_card_then_the_first_player_draws_gems() -> None:
    """Setup: "each player draws a build card"; How to Play: the draw phase draws three gems."""
    state = new_game(2)
    assert state.turn.step == DEAL and GAME.to_move(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 8 and all(p == pytest.approx(1 / 8) for _, p in outcomes)
    state = play(state, "draw card 3", "draw card 5")
    assert [p.card for p in state.players] == [3, 5]
    assert state.turn.step == DRAW and state.turn.count == 3 and state.turn.seat == 0
    assert 3 not in state.build_deck and 5 not in state.build_deck


def test_a_gem_draw_has_the_bags_real_odds() -> None:
    """How to Play: "randomly draw three gems" - one chance move per gem, with the bag's
    contents as its odds (45 green, 30 blue, 15 red and 10 passes: 100 pieces)."""
    state = dealt(2, cards=("clay lumber straw straw water", "clay lumber lumber straw water"))
    odds = {str(m): p for m, p in GAME.chance_outcomes(state)}
    assert odds == {"draw green": 0.45, "draw blue": 0.30, "draw red": 0.15, "draw pass": 0.10}
    state = play(state, "draw red")
    odds = {str(m): p for m, p in GAME.chance_outcomes(state)}
    assert odds["draw red"] == pytest.approx(14 / 99)


def test_lutfi_makes_a_two_player_game_use_the_three_player_set_up() -> None:
    """Lutfi: "Two players can include Lutfi to use the three-player setup ... You can also
    include Lutfi to enjoy a solo game by using the two-player setup"."""
    assert len(new_game(2, lutfi="on").stalls) == 5
    assert len(new_game(3, lutfi="on").stalls) == 6
    solo = new_game(1)
    assert solo.lutfi is not None and len(solo.stalls) == 4


def test_lutfi_draws_a_card_and_is_placed_by_the_die() -> None:
    """Lutfi: "Draw a single build card and give it to Lutfi. At the start of the game, roll
    the die and place Lutfi on the market tile that matches the die result (if ... the die
    would send Lutfi to a tile that is not in play, roll again)"."""
    state = new_game(1)
    state = play(state, "draw card 1", "draw card 2")
    assert state.lutfi is not None and state.lutfi.card == 2
    assert state.turn.step == LUTFI_DIE
    assert [str(m) for m, _ in GAME.chance_outcomes(state)] == ["roll 1", "roll 2", "roll 3", "roll 4"]
    state = play(state, "roll 4")
    assert state.lutfi is not None and state.lutfi.stall == 4 and state.lutfi.standing


def test_advanced_variant_places_materials_on_any_space() -> None:
    """Variants, advanced: "randomly place all of the materials in any open space at the
    start of the game" - the same tokens, shuffled (seeded), or as the table laid them."""
    state = new_game(2, advanced="on", seed="4")
    assert materials_in_play(state) == materials_in_play(new_game(2))
    assert any(slot.material != slot.space for stall in state.stalls for slot in stall.slots)
    laid = new_game(2, advanced="on", layout="wls/cls/wcs/lcw")
    assert [slot.material for slot in laid.stall(1).slots] == ["water", "lumber", "straw"]


def test_players_can_correct_prices_and_data() -> None:
    """The markets' prices are not printed in the rulebook: the table can give its own."""
    state = new_game(2, prices="3b=2 blue / 1 red, 1a=4 any")
    assert state.stall(3).slots[1].price == "2 blue / 1 red"
    assert state.stall(1).slots[0].price == "4 any"
    data = "[gems]\ngreen = 40\nblue = 30\nred = 20\npasses = 10\n"
    assert new_game(2, data=data).bag == Gems(40, 30, 20, 10)
    assert new_game(2, gems="50,25,15").bag == Gems(50, 25, 15, 10)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (5, {}, "1 to 4 players"),
        (1, {"lutfi": "off"}, "solo game is played against Lutfi"),
        (4, {"lutfi": "on"}, "four-player game"),
        (2, {"lutfi": "maybe"}, "auto, on or off"),
        (2, {"apprentices": "yes"}, "on or off"),
        (2, {"colour": "red"}, "unknown options"),
        (2, {"names": "Ann"}, "needs 2"),
        (2, {"names": "Ann,ann"}, "own name"),
        (2, {"lutfi_wins_at": "2"}, "only for a solo game"),
        (1, {"lutfi_wins_at": "4"}, "3, 2 or 1"),
        (2, {"seed": "x"}, "whole numbers"),
        (2, {"prices": "9a=1 red"}, "stall in play"),
        (2, {"prices": "1d=1 red"}, "no space"),
        (2, {"prices": "1a=1 purple"}, "not a handful"),
        (2, {"prices": "1a=1 pass"}, "passes are not gems"),
        (2, {"layout": "sss/sss"}, "one letter per space"),
        (2, {"layout": "wls/cls/wcs/lcw"}, "own colour"),
        (2, {"gems": "1,2"}, "three whole numbers"),
        (2, {"data": "stalls = ["}, "not TOML"),
        (2, {"data": "[cards]\nx = 1"}, "unknown tables"),
        (2, {"data": '[[black_market]]\nname = "Spy"\neffect = "spy"\nprice = "1 any"'}, "effect is one of"),
    ],
)
def test_bad_setups_are_refused_with_a_reason(players: int, options: dict[str, str], message: str) -> None:
    with pytest.raises(BadSetup, match=message):
        new_game(players, **options)


def test_the_phase_leds_follow_the_turn() -> None:
    """Issue 8, panel: draw, action and build on LEDs 1-3; set-up, Lutfi and the end of a
    turn on 4 (the rules' own phases, `phase`)."""
    state = new_game()
    assert GAME.phase(state) == "setup" and GAME.phase_step(state) == 4
    while GAME.phase(state) == "setup":
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.phase(state) == "draw" and GAME.phase_step(state) == 1
    while GAME.phase(state) == "draw":
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.phase(state) == "action" and GAME.phase_step(state) == 2


def test_the_die_in_the_rolling_area_places_lutfi() -> None:
    """Lutfi: the die read from the rolling area is offered for one tap; a face naming no
    stall in play (5 or 6 in the solo game: "roll again") is not offered."""
    from companion.games.sight import Seen
    from companion.games.tower.sight import TRAY, TowerSight
    from companion.inference import Ambiguous, NoChange, infer

    sight = TowerSight()
    state = play(new_game(1), "draw card 1", "draw card 2")
    assert state.turn.step == LUTFI_DIE
    offered = infer(GAME, sight, state, Seen({TRAY: (3,)}))
    assert isinstance(offered, Ambiguous) and [str(m) for m in offered.candidates[0].moves] == ["roll 3"]
    assert infer(GAME, sight, state, Seen({TRAY: (6,)})) == NoChange()  # roll again
    assert infer(GAME, sight, play(state, "roll 3"), Seen({TRAY: (3,)})) == NoChange()  # no roll awaited
