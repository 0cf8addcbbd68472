"""Tower turns: buying with exact change, one stall, occupancy, Salil, the build phase,
the idle bonus, the shortage and the end of the game.

Positions: a 3-player game (stalls 1-5) unless said otherwise. Seat 0's build card
shows clay, lumber, straw, straw, water.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalMove
from companion.games.tower.gems import Gems
from companion.games.tower.moves import Buy, Trade
from companion.games.tower.state import ACTION, BONUS, BUILD_DRAW, OVER, PICK, RETURN, Turn
from tests.tower_helpers import GAME, action, dealt, edit, gems, give, hand_over, legal, play, to_salil

CARDS = ("clay lumber straw straw water", "clay lumber lumber straw water", "clay clay lumber straw water")


def start(players: int = 3, **options: str) -> object:
    """Seat 0's action phase after the deal, holding nothing yet."""
    return action(dealt(players, cards=CARDS[:players], **options))


def test_draw_phase_draws_three_gems_then_the_action_phase_opens() -> None:
    """How to Play: "simply reach into the bag and randomly draw three gems"."""
    state = dealt(3, cards=CARDS)
    assert GAME.to_move(state) == CHANCE
    state = play(state, "draw green", "draw blue")
    assert GAME.to_move(state) == CHANCE
    state = play(state, "draw pass")
    assert state.turn.step == ACTION and GAME.to_move(state) == 0
    assert state.players[0].gems == Gems(1, 1, 0, 1)
    assert state.bag == Gems(44, 29, 15, 9)


def test_every_way_to_pay_is_listed() -> None:
    """The Markets, No haggling: "You must pay in exact change" - a price with alternatives
    gives one move per way the player can pay it, and only exact ones."""
    state = start(prices="3b=2 blue / 1 red")
    state = give(state, 0, "2 blue+1 red+1 green")
    buys = [m for m in legal(state) if m.startswith("buy clay at 3b")]
    assert buys == ["buy clay at 3b pay 2 blue", "buy clay at 3b pay 1 red"]
    with pytest.raises(IllegalMove, match="exact change"):
        play(state, "buy clay at 3b pay 1 red+1 green")


def test_any_gems_prices_list_each_colour_mix() -> None:
    """A price of "any" gems (the Common Thief's "gems of any type") can be paid with any
    mix the player holds: one move per mix."""
    state = give(start(prices="3b=2 any"), 0, "1 green+1 blue+1 red")
    buys = [m for m in legal(state) if m.startswith("buy clay at 3b")]
    assert buys == [
        "buy clay at 3b pay 1 green+1 blue",
        "buy clay at 3b pay 1 green+1 red",
        "buy clay at 3b pay 1 blue+1 red",
    ]


def test_buying_moves_the_meeple_and_pays_salil() -> None:
    """How to Play: "set your meeple on top of the market stall and exchange your gems for the
    item(s). Whenever gems are spent, they are discarded next to Salil"."""
    state = give(start(), 0, "1 red")
    state = play(state, "buy clay at 3b pay 1 red")
    me = state.players[0]
    assert me.materials == ("clay",) and me.stall == 3 and me.gems == Gems()
    assert state.salil == Gems(red=1)
    assert state.stall(3).slots[1].material == ""


def test_you_cannot_buy_items_you_dont_need() -> None:
    """How to Play: "you cannot buy items you don't need" - not off the card, nor a second
    clay when the card shows one."""
    state = give(start(), 0, "2 blue+1 red")
    assert not any("buy" in m and "clay at 2c" in m for m in legal(hand_over(state, 0, "3b")))
    with pytest.raises(IllegalMove, match="don't need") as error:
        play(hand_over(state, 0, "3b"), "buy clay at 2c pay 2 blue")
    assert "How to Play" in error.value.rule


def test_only_one_stall_per_turn() -> None:
    """How to Play: "You may only visit one stall per turn"."""
    state = give(start(), 0, "1 red+1 blue")
    state = play(state, "buy clay at 3b pay 1 red")
    assert "buy straw at 3a pay 1 blue" in legal(state)
    with pytest.raises(IllegalMove, match="one stall per turn"):
        play(state, Buy("lumber", 2, 1, gems("1 blue+1 green")))


def test_an_occupied_stall_is_closed_to_everyone_else() -> None:
    """Maximum Occupancy of One: "if your meeple shops at a stall, that stall is inaccessible
    to everyone else until you leave"."""
    state = give(edit(start(), 1, stall=3), 0, "1 red")
    assert not any(m.startswith("buy clay at 3b") for m in legal(state))
    with pytest.raises(IllegalMove, match="occupied by Orange") as error:
        play(state, "buy clay at 3b pay 1 red")
    assert "Maximum Occupancy of One" in error.value.rule


def test_no_loitering() -> None:
    """No loitering: "You may only end your turn with your meeple on a market stall if you
    purchased something from that stall earlier in the same turn." The meeple stays (and
    keeps the stall closed) until its next turn; a turn without a purchase there sends it home."""
    state = give(start(), 0, "1 red")
    state = play(state, "buy clay at 3b pay 1 red", "end actions")
    assert state.players[0].stall == 3
    # Seat 0's next turn: nothing bought, so the meeple leaves at the end of it.
    state = action(state, 0)
    state = play(state, "end actions", "draw green", "draw green")
    assert state.players[0].stall == 0


def test_a_turn_without_actions_draws_two_more_gems() -> None:
    """How to Play: "If you did not execute any of the above actions during the action or
    build phases, then draw 2 more gems from the bag before ending your turn"."""
    state = play(start(), "end actions")
    assert state.turn.step == BONUS and state.turn.count == 2 and GAME.to_move(state) == CHANCE
    state = play(state, "draw red", "draw blue")
    assert state.players[0].gems == Gems(0, 1, 1)
    assert state.turn.seat == 1 and state.turn.step == "draw"


def test_a_trade_counts_as_an_action() -> None:
    """Salil's trades are actions of the action phase: no bonus gems after one."""
    state = give(to_salil(start(), "1 blue"), 0, "1 red")
    state = play(state, "trade 1 red for 1 blue", "end actions")
    assert state.turn.seat == 1 and state.turn.step == "draw"


def test_salil_has_nothing_to_offer_at_the_start() -> None:
    """Salil: "At the beginning of the game ... he has nothing to offer"."""
    state = give(start(), 0, "3 green+2 blue+1 red+1 pass")
    assert not any(m.startswith("trade") for m in legal(state))


def test_salil_rates() -> None:
    """Salil: "3 green gems for any gem in the discard pile, 2 blue gems for any gem ..., one
    red gem for any gem ..., or one black market pass for any two gems"."""
    state = give(to_salil(start(), "1 green+1 blue+1 red+1 pass"), 0, "3 green+2 blue+1 red+1 pass")
    trades = [m for m in legal(state) if m.startswith("trade")]
    assert trades == [
        "trade 3 green for 1 blue",
        "trade 3 green for 1 red",
        "trade 2 blue for 1 green",
        "trade 2 blue for 1 red",
        "trade 1 red for 1 green",
        "trade 1 red for 1 blue",
        "trade 1 pass for 1 green+1 blue",
        "trade 1 pass for 1 green+1 red",
        "trade 1 pass for 1 blue+1 red",
    ]


def test_passes_cannot_be_obtained_from_salil() -> None:
    """Salil: "Black market passes cannot be obtained from Salil"."""
    state = give(to_salil(start(), "2 passes"), 0, "1 red")
    assert not any(m.startswith("trade") for m in legal(state))
    with pytest.raises(IllegalMove, match="cannot be obtained from Salil"):
        play(state, Trade(gems("1 red"), gems("1 pass")))


def test_daniels_trade_with_salil() -> None:
    """Salil, the worked example: "Daniel spent two blue gems on an item, and then traded a
    red gem to reclaim one of the blue gems that he had just spent. He then bought a second
    item from the store he occupied." (Players may trade "in the same turn that they spend gems".)

    Daniel needs clay and lumber; at stall 2 both cost 2 blue here. He holds 3 blue and 1 red."""
    state = give(start(prices="2b=2 blue"), 0, "3 blue+1 red")
    state = edit(state, 0, name="Daniel")
    assert not any(m.startswith("trade") for m in legal(state)), "Salil is empty before Daniel spends"
    state = play(state, "buy clay at 2c pay 2 blue")
    assert "buy lumber at 2b pay 2 blue" not in legal(state), "one blue left: not enough yet"
    state = play(state, "trade 1 red for 1 blue")
    assert state.players[0].gems == Gems(blue=2)
    state = play(state, "buy lumber at 2b pay 2 blue")
    assert state.players[0].materials == ("clay", "lumber")
    assert state.players[0].stall == 2
    assert state.salil == Gems(blue=3, red=1)


def test_the_bag_refills_from_salil_when_empty() -> None:
    """Salil: "If the gem bag becomes empty, all of the gems and passes with Salil are put
    back into the bag."""
    state = dealt(3, cards=CARDS)
    everything = state.bag
    state = replace(state, bag=Gems(green=1), salil=everything - Gems(green=1))
    state = play(state, "draw green")
    assert state.salil == Gems() and state.bag == everything - Gems(green=1)


def full_hand(state: object) -> object:
    """Seat 0 holds every material of card 1 (clay lumber straw straw water)."""
    return hand_over(state, 0, "3b", "4a", "2a", "3a", "3c")  # type: ignore[arg-type]


def test_building_returns_the_materials_and_places_a_segment() -> None:
    """Build phase: "return the items to the markets (any available space is fine, so long
    as the space matches the item), set 1 of your 3 tower segments in the center of the
    palace tile, discard your build card, and finally, draw 3 new build cards—pick 1 to
    keep, and discard the other 2"."""
    state = full_hand(start())
    state = play(state, "end actions")
    assert state.turn.step == RETURN and GAME.to_move(state) == 0
    assert legal(state) == [
        "return clay to 3b",
        "return lumber to 4a",
        "return straw to 2a",
        "return straw to 3a",
        "return water to 3c",
    ]
    state = play(state, "return clay to 3b", "return lumber to 4a", "return straw to 3a")
    assert legal(state) == ["return straw to 2a", "return water to 3c"]
    state = play(state, "return straw to 2a", "return water to 3c")
    assert state.players[0].segments == 1 and state.players[0].card == 0
    assert state.palace == (0,)  # "Subsequent tower segments ... are stacked on top"
    assert state.turn.step == BUILD_DRAW and state.turn.count == 3
    card = state.build_discard[-1]
    state = play(state, *(f"draw card {c}" for c in sorted(state.build_deck)[:3]))
    assert state.turn.step == PICK
    offer = state.turn.offer
    state = play(state, f"pick card {offer[1]}")
    assert state.players[0].card == offer[1]
    assert set(state.build_discard) == {card, offer[0], offer[2]}
    assert state.turn.seat == 1, "building is an action: no bonus gems"


def test_returns_in_the_advanced_game_go_to_any_open_space() -> None:
    """Variants, advanced: "he/she can return the materials to any open space at all—the
    material does not have to match the space!"""
    state = play(full_hand(start(advanced="on", layout="slw/slc/scw/lcw/slc")), "end actions")
    assert "return clay to 3a" in legal(state) and "return water to 2a" in legal(state)


def test_the_build_deck_is_reshuffled_when_exhausted() -> None:
    """Build phase: "If the build deck is exhausted, shuffle the discard pile to form a new deck.\""""
    state = play(full_hand(start()), "end actions")
    state = play(state, "return clay to 3b", "return lumber to 4a", "return straw to 2a")
    state = play(state, "return straw to 3a", "return water to 3c")
    deck = state.build_deck
    state = replace(state, build_deck=deck[:1], build_discard=state.build_discard + deck[1:])
    discard = set(state.build_discard)
    state = play(state, f"draw card {deck[0]}")
    assert set(state.build_deck) == discard and state.build_discard == ()
    assert len(GAME.chance_outcomes(state)) == len(discard)


def test_the_third_segment_ends_the_game_at_once() -> None:
    """Endgame: "The first player to build three tower segments is the winner!" and "The game
    ends immediately after a player builds her third tower segment."""
    state = edit(full_hand(start()), 0, segments=2)
    state = play(state, "end actions", "return clay to 3b", "return lumber to 4a", "return straw to 2a")
    state = play(state, "return straw to 3a", "return water to 3c")
    assert state.turn.step == OVER and GAME.to_move(state) is None and GAME.legal_moves(state) == ()
    sheet = GAME.score(state)
    assert sheet.final and sheet.standings[0].seat == 0 and "wins" in sheet.standings[0].note
    assert [s.total for s in sheet.standings] == [3, 0, 0]


def test_kingdom_wide_shortage_starts_when_no_needed_material_is_in_stock() -> None:
    """Salil, kingdom-wide shortage: "On the rare occasion that no players at all are able to
    buy any needed materials due to a shortage, players can substitute their needed
    materials for any other material until the next tower segment is built."

    Seat 0 still needs clay and water, seat 1 clay and water too; the markets' clay and
    water are taken away (in other hands). The next move notices the shortage."""
    state = dealt(2, cards=CARDS[:2])
    state = hand_over(state, 0, "1a", "2a", "1b")  # straw, straw, lumber
    state = hand_over(state, 1, "2b", "4a", "3a")  # lumber, lumber, straw
    assert not play(state, "draw green").shortage
    gone = {1: (2,), 2: (2,), 3: (1, 2), 4: (1, 2)}  # 1c water, 2c clay, 3b clay, 3c water, 4b clay, 4c water
    stalls = state.stalls
    for number, slots in gone.items():
        for slot in slots:
            stalls = tuple(s.with_material(slot, "") if s.number == number else s for s in stalls)
    state = play(replace(state, stalls=stalls), "draw green")
    assert state.shortage
    assert "Kingdom-wide shortage" in " ".join(GAME.describe(state).shared)


def test_substitutes_may_be_bought_during_a_shortage() -> None:
    """During a shortage a player may buy a material the card does not show, in place of a
    needed one, and builds when the card's count is filled."""
    state = give(start(), 0, "2 green")
    state = hand_over(state, 0, "3b", "4a", "3a", "3c")  # needs one more straw
    state = replace(state, shortage=True, turn=Turn(seat=0, step=ACTION))
    assert "buy lumber at 4a pay 2 green" not in legal(state)  # 4a is empty now
    assert "buy straw at 2a pay 2 green" in legal(state)
    state = hand_over(state, 1, "2a", "1a", "5a")  # every straw gone
    assert "buy lumber at 1b pay 1 red+1 green" not in legal(state)  # no red
    state = give(state, 0, "1 red")
    state = play(state, "buy lumber at 1b pay 1 red+1 green")
    assert state.players[0].materials == ("clay", "lumber", "lumber", "straw", "water")
    state = play(state, "end actions")
    assert state.turn.step == RETURN


def test_illegal_moves_name_the_rule() -> None:
    state = start()
    with pytest.raises(IllegalMove, match="nothing is being drawn") as error:
        play(state, "draw red")
    assert error.value.rule.startswith("Tower rulebook")
    with pytest.raises(IllegalMove, match="no space 9a"):
        play(state, Buy("clay", 9, 0, gems("1 red")))
    with pytest.raises(IllegalMove, match="holds clay, not straw"):
        play(state, "buy straw at 3b pay 1 red")
    with pytest.raises(IllegalMove, match="does not hold 1 red"):
        play(state, "buy clay at 3b pay 1 red")
    with pytest.raises(IllegalMove, match="Salil takes"):
        play(give(to_salil(state, "1 red"), 0, "2 green"), "trade 2 green for 1 red")
