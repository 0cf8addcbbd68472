"""The black market: entry, the three cards, keeping, the hand limit, using the cards.

The card effects other than the Common Thief's cost are assumed (tower.toml); the tests
pin down what the rulebook says and what the assumed effects do.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalMove
from companion.games.tower.gems import Gems
from companion.games.tower.moves import EnterBlackMarket, UseCard
from companion.games.tower.state import BLACK_DRAW, KEEP
from tests.tower_helpers import GAME, action, dealt, edit, gems, give, hand_over, legal, play, to_salil

CARDS = ("clay lumber straw straw water", "clay lumber lumber straw water", "clay clay lumber straw water")
THIEF, EXPERIENCED, CONCOCTION, PREFERRED = 1, 2, 3, 4  # card numbers in tower.toml order


def start(**options: str) -> object:
    return action(dealt(3, cards=CARDS, **options))


def test_entry_costs_a_pass_or_6_green_4_blue_or_2_red_per_card() -> None:
    """The Black Market: "There are 10 black market passes in the bag which grant immediate
    access, but players may also buy their way in with gems (to the tune of 6 green, 4 blue,
    or 2 red gems)" - "(repeated for each card you plan to take)"."""
    state = give(start(), 0, "6 green+4 blue+2 red+1 pass")
    entries = [m for m in legal(state) if m.startswith("black market")]
    assert entries[:4] == [
        "black market 1 pay 1 pass",
        "black market 1 pay 6 green",
        "black market 1 pay 4 blue",
        "black market 1 pay 2 red",
    ]
    assert "black market 2 pay 6 green+1 pass" in entries
    assert "black market 3 pay 6 green+4 blue+2 red" in entries
    assert "black market 2 pay 2 red+1 pass" in entries
    with pytest.raises(IllegalMove, match="entry costs"):
        play(state, EnterBlackMarket(1, gems("3 green+2 blue")))


def test_erins_black_market_visit() -> None:
    """The Black Market, the worked example: "after gaining entry to the black market with two
    black market passes, Erin selects both a Common Thief card and a Dubious Concoction card
    to keep. To use the Common Thief card, Erin must first pay the thief four gems ... These
    can be gems of any type"; "draw 3 cards ... place the remaining 2 cards back on top of
    the deck" (here the one card not kept)."""
    state = edit(give(start(), 0, "2 passes"), 0, name="Erin")
    state = play(state, "black market 2 pay 2 passes")
    assert state.turn.step == BLACK_DRAW and GAME.to_move(state) == CHANCE
    assert state.salil == Gems(passes=2)
    odds = dict((str(m), p) for m, p in GAME.chance_outcomes(state))
    assert odds == {
        f"reveal {n}": 0.25
        for n in ("Common Thief", "Dubious Concoction", "Experienced Thief", "Preferred Customer")
    }
    state = play(state, "reveal Common Thief", "reveal Dubious Concoction", "reveal Preferred Customer")
    assert state.turn.step == KEEP
    assert legal(state) == [
        "keep Common Thief+Dubious Concoction",
        "keep Common Thief+Preferred Customer",
        "keep Dubious Concoction+Preferred Customer",
    ]
    state = play(state, "keep Dubious Concoction+Common Thief")  # any order: the same handful
    erin = state.players[0]
    assert sorted(erin.black_cards) == [THIEF, CONCOCTION]
    assert state.black_top == (PREFERRED,)
    # The thief wants four gems of any type; with three Erin cannot hire him.
    state = hand_over(state, 1, "3b")  # Orange holds a clay Erin needs
    state = give(state, 0, "1 green+1 blue+1 red")
    assert not any(m.startswith("use Common Thief") for m in legal(state))
    state = give(state, 0, "1 blue")
    uses = [m for m in legal(state) if m.startswith("use Common Thief")]
    assert uses == ["use Common Thief on player 2 take clay pay 1 green+2 blue+1 red"]
    state = play(state, uses[0])
    assert state.players[0].materials == ("clay",) and state.players[1].materials == ()
    assert THIEF not in state.players[0].black_cards and state.black_discard[THIEF - 1] == 1
    with pytest.raises(IllegalMove, match="once per turn"):
        play(give(state, 0, "2 red"), "black market 1 pay 2 red")


def test_cards_put_back_on_top_are_drawn_first() -> None:
    """ "place the remaining 2 cards back on top of the deck": the next visitor draws them
    (known) and one more off the deck."""
    state = give(start(), 0, "1 pass")
    state = play(state, "black market 1 pay 1 pass", "reveal Common Thief", "reveal Common Thief")
    state = play(state, "reveal Preferred Customer", "keep Preferred Customer", "end actions")
    assert sorted(state.black_top) == [THIEF, THIEF]
    state = give(action(state, 1), 1, "1 pass")
    state = play(state, "black market 1 pay 1 pass")
    assert sorted(state.turn.offer) == [THIEF, THIEF] and state.turn.count == 1
    assert state.black_top == ()


def test_no_more_than_three_cards_in_hand() -> None:
    """The Black Market: "You are limited to having no more than 3 black market cards at any time.\""""
    state = give(edit(start(), 0, black_cards=(1, 2)), 0, "2 passes")
    state = replace(state, black_deck=(4, 6, 6, 6))
    entries = [m for m in legal(state) if m.startswith("black market")]
    assert entries == ["black market 1 pay 1 pass"]
    with pytest.raises(IllegalMove, match="no more than 3"):
        play(state, "black market 2 pay 2 passes")


def test_the_deck_is_reshuffled_from_the_discard_pile() -> None:
    """ "If the black market deck is exhausted, shuffle the discard pile to form a new deck.\""""
    state = give(start(), 0, "1 pass")
    state = replace(state, black_deck=(1, 0, 0, 0), black_discard=(5, 6, 6, 6))
    state = play(state, "black market 1 pay 1 pass", "reveal Common Thief")
    assert state.black_deck == (5, 6, 6, 6) and state.black_discard == ()
    assert len(GAME.chance_outcomes(state)) == 4


def test_dubious_concoction_stands_in_for_a_needed_material() -> None:
    """ASSUMED effect (tower.toml): a Dubious Concoction counts as one material the card still
    needs; it is discarded at the build, not returned to a market."""
    state = give(edit(start(), 0, black_cards=(CONCOCTION,)), 0, "3 green")
    uses = [m for m in legal(state) if m.startswith("use Dubious")]
    assert uses == [
        f"use Dubious Concoction as {m} pay 3 green" for m in ("clay", "lumber", "straw", "water")
    ]
    state = play(state, "use Dubious Concoction as water pay 3 green")
    assert state.players[0].concoctions == ("water",)
    state = give(state, 0, "3 green")
    assert not any("buy water" in m for m in legal(state)), "water is covered"
    state = hand_over(state, 0, "3b", "4a", "2a", "3a")
    state = play(state, "end actions")
    assert legal(state)[0].startswith("return clay") and "water" not in " ".join(legal(state))


def test_experienced_thief_never_takes_passes_from_salil() -> None:
    """Salil: "Black market passes cannot be obtained from Salil, even with an Experienced
    Thief card"; from another player he may take any two (ASSUMED effect)."""
    state = to_salil(give(edit(start(), 0, black_cards=(EXPERIENCED,)), 0, "1 green"), "1 red+2 passes")
    uses = [m for m in legal(state) if m.startswith("use Experienced")]
    assert "use Experienced Thief on Salil take 1 red pay 1 green" in uses
    assert not any("Salil take" in m and "pass" in m for m in uses)
    state = give(state, 1, "1 blue+1 pass")
    assert "use Experienced Thief on player 2 take 1 blue+1 pass pay 1 green" in legal(state)
    with pytest.raises(IllegalMove, match="cannot be obtained from Salil"):
        play(state, UseCard("Experienced Thief", gems("1 green"), target="Salil", take="1 red+1 pass"))


def test_preferred_customer_shares_an_occupied_stall() -> None:
    """ASSUMED effect: "granting access to occupied market stalls" - with a Preferred
    Customer the player may shop where another meeple stands (Compatibility: "share a market
    with an apprentice or Lutfi")."""
    state = give(edit(edit(start(), 0, black_cards=(PREFERRED,)), 1, stall=3), 0, "1 red+1 green")
    assert "buy clay at 3b pay 1 red" not in legal(state)
    state = play(state, "use Preferred Customer pay 1 green")
    assert "buy clay at 3b pay 1 red" in legal(state)
    state = play(state, "buy clay at 3b pay 1 red")
    assert state.players[0].stall == 3 and state.players[1].stall == 3


def test_card_names_are_forgiven_their_case() -> None:
    state = give(edit(start(), 0, black_cards=(PREFERRED,)), 0, "1 green")
    state = play(state, "use preferred customer pay 1 green")
    assert state.turn.preferred
