"""The Citizens of Meeplestand: the Apprentices, the Royal Guard, Lutfi, and Compatibility."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.base import CHANCE, IllegalMove
from companion.games.tower.gems import Gems
from companion.games.tower.state import HUNT, LUTFI, OVER, RETURN, REWARD, Apprentice, Lutfi
from tests.tower_helpers import GAME, action, dealt, edit, give, hand_over, legal, play, to_salil

CARDS = ("clay lumber straw straw water", "clay lumber lumber straw water", "clay clay lumber straw water")


def start(**options: str) -> object:
    return action(dealt(3, cards=CARDS, **options))


# ---- the Apprentices -----------------------------------------------------------------


def test_apprentice_costs() -> None:
    """The Apprentices: the Stand-In costs "any single gem", the Bully "either 1 blue or 1
    red gem", the Runner "1 red gem"."""
    state = give(edit(start(apprentices="on"), 1, stall=2), 0, "1 green+1 blue+1 red")
    hires = [m for m in legal(state) if m.startswith("hire")]
    assert [m for m in hires if m.startswith("hire stand-in at 1")] == [
        "hire stand-in at 1 pay 1 green",
        "hire stand-in at 1 pay 1 blue",
        "hire stand-in at 1 pay 1 red",
    ]
    assert [m for m in hires if m.startswith("hire bully")] == [
        "hire bully at 2 pay 1 blue",
        "hire bully at 2 pay 1 red",
    ]
    assert [m for m in hires if m.startswith("hire runner at 1")] == ["hire runner at 1 pay 1 red"]
    assert not any(m.startswith("hire stand-in at 2") for m in hires), "stall 2 is occupied"


def test_one_apprentice_a_turn_and_not_two_turns_running() -> None:
    """The Apprentices: "You can only hire one apprentice during your turn"; "if you hire any
    apprentice one turn, all three apprentices will be unavailable to you on your following
    turn"; "if you hire an apprentice, the helper is unavailable to other players until the
    start of your next turn"."""
    state = give(start(apprentices="on"), 0, "2 green")
    state = play(state, "hire stand-in at 4 pay 1 green")
    assert not any(m.startswith("hire") for m in legal(state))
    with pytest.raises(IllegalMove, match="one apprentice per turn"):
        play(state, "hire stand-in at 5 pay 1 green")
    state = play(state, "end actions")
    # Seat 1 cannot have the stand-in, and stall 4 is occupied by him.
    state = give(action(state, 1), 1, "1 green+1 red")
    hires = [m for m in legal(state) if m.startswith("hire")]
    assert hires and not any(m.startswith("hire stand-in") for m in hires)
    with pytest.raises(IllegalMove, match="works for Purple"):
        play(state, "hire stand-in at 5 pay 1 green")
    assert not any(m.startswith("buy") and " at 4" in m for m in legal(give(state, 1, "2 green")))
    # Seat 0's next turn: the stand-in is back on his card; seat 0 may not hire anyone.
    state = play(state, "end actions", "draw green", "draw green")
    state = play(action(state, 2), "end actions", "draw green", "draw green")
    state = play(state, "draw green", "draw green", "draw green")
    assert state.turn.seat == 0 and state.apprentices[0] == Apprentice("stand-in")
    with pytest.raises(IllegalMove, match="unavailable this turn"):
        play(state, "hire stand-in at 5 pay 1 green")


def test_the_bully_forces_a_player_out() -> None:
    """The Bully: "he will go to a market stall occupied by another player or apprentice and
    force 'em out! Afterwards, you are free to shop there"."""
    state = give(edit(start(apprentices="on"), 1, stall=3), 0, "1 blue+1 red")
    state = play(state, "hire bully at 3 pay 1 blue")
    assert state.players[1].stall == 0
    assert "buy clay at 3b pay 1 red" in legal(state)


def test_the_runner_buys_at_a_second_stall() -> None:
    """The Runner: "you can buy one or more items at two different stalls! The runner will
    book it to whatever stall you send her to, buy the item(s), and occupy the stall until
    the start of your next turn"."""
    state = give(start(apprentices="on"), 0, "2 red+2 green")
    state = play(state, "buy clay at 3b pay 1 red", "hire runner at 4 pay 1 red")
    assert "buy lumber at 4a pay 2 green" in legal(state)
    state = play(state, "buy lumber at 4a pay 2 green", "end actions")
    assert state.players[0].materials == ("clay", "lumber")
    assert state.players[0].stall == 3 and state.apprentices[2].stall == 4
    state = give(action(state, 1), 1, "1 red")
    assert not any(" at 4" in m and m.startswith("buy") for m in legal(state)), "the runner occupies stall 4"


# ---- the Royal Guard -----------------------------------------------------------------


def guard_game() -> object:
    return to_salil(start(royal_guard="on"), "1 green+1 blue+1 red")


def test_stealing_from_salil_earns_a_wanted_card() -> None:
    """The Royal Guard: "At the start of your action phase, you may steal any two gems from
    Salil's current supply; however, doing so will earn you a 'wanted' card" - after which
    you can no longer "steal from/make trades with Salil"."""
    state = give(guard_game(), 0, "1 red")
    steals = [m for m in legal(state) if m.startswith("steal")]
    assert steals == [
        "steal 1 green+1 blue from Salil",
        "steal 1 green+1 red from Salil",
        "steal 1 blue+1 red from Salil",
    ]
    state = play(state, "steal 1 blue+1 red from Salil")
    me = state.players[0]
    assert me.wanted and me.gems == Gems(blue=1, red=2) and state.salil == Gems(green=1)
    assert not any(m.startswith(("trade", "steal")) for m in legal(state))
    with pytest.raises(IllegalMove, match="wanted"):
        play(state, "trade 1 red for 1 green")


def test_stealing_only_at_the_start_of_the_action_phase() -> None:
    """ "At the start of your action phase" - not after another action."""
    state = give(guard_game(), 0, "1 red+1 blue")
    state = play(state, "buy straw at 3a pay 1 blue")
    with pytest.raises(IllegalMove, match="only at the start"):
        play(state, "steal 1 green+1 red from Salil")


def test_the_hunt_arrests_a_wanted_player_and_rewards_the_roller() -> None:
    """Hunted: "players will roll the die at the end of their turns and the Royal Guard will
    rush to the market stall that matches the die result ... if the guard goes to a stall that
    a wanted player does occupy, then he/she will be arrested and go to jail with the guard.
    If a player goes to jail as the result of an opponent's roll, then that opponent draws one
    gem as a reward." "If you get arrested, discard the wanted card immediately.\""""
    state = edit(guard_game(), 1, wanted=True, stall=2)
    state = play(state, "end actions", "draw green", "draw green")
    assert state.turn.step == HUNT and GAME.to_move(state) == CHANCE
    assert [str(m) for m, _ in GAME.chance_outcomes(state)] == [f"roll {n}" for n in range(1, 6)]
    state = play(state, "roll 2")
    ben = state.players[1]
    assert ben.jailed and not ben.wanted and ben.stall == 0 and state.guard == 0
    assert state.turn.step == REWARD
    state = play(state, "draw red")
    assert state.players[0].gems == Gems(green=2, red=1)
    assert state.turn.seat == 1


def test_the_guard_closes_a_stall_to_wanted_players_only() -> None:
    """ "If the guard goes to a market stall that a wanted player does not occupy, then the shop
    is unoccupied to all players that are not wanted while the guard investigates"; a wanted
    player "will not be able to shop at a market stall occupied by the Royal Guard"."""
    state = give(replace(guard_game(), guard=3), 0, "1 red")
    assert "buy clay at 3b pay 1 red" in legal(state)
    state = edit(state, 0, wanted=True)
    assert "buy clay at 3b pay 1 red" not in legal(state)
    with pytest.raises(IllegalMove, match="Royal Guard") as error:
        play(state, "buy clay at 3b pay 1 red")
    assert "Royal Guard" in error.value.rule


def test_no_hunt_when_nobody_is_wanted() -> None:
    """ "Unless no one has a wanted card" the die is rolled; with none, play passes on."""
    state = play(guard_game(), "end actions", "draw green", "draw green")
    assert state.turn.seat == 1 and state.turn.step == "draw"


def test_release_from_jail_costs_three_gems_first() -> None:
    """ "If you were arrested, you must pay three gems to be released from jail at the start of
    your next action phase.\""""
    state = give(edit(guard_game(), 0, jailed=True), 0, "2 green+2 blue")
    assert legal(state) == [
        "release pay 2 green+1 blue",
        "release pay 1 green+2 blue",
    ]
    with pytest.raises(IllegalMove, match="jail"):
        play(state, "end actions")
    state = play(state, "release pay 1 green+2 blue")
    assert not state.players[0].jailed and state.players[0].gems == Gems(green=1)


def test_clearing_your_name_costs_one_red() -> None:
    """ "At the start of your action phase, you may 'clear your name' and discard the wanted
    card by paying Salil one red gem.\""""
    state = give(edit(guard_game(), 0, wanted=True), 0, "1 red")
    assert "clear name pay 1 red" in legal(state)
    state = play(state, "clear name pay 1 red")
    assert not state.players[0].wanted and state.salil.red == 2


# ---- Lutfi ---------------------------------------------------------------------------


def lutfi_game(roll: int = 1, players: int = 2, cards: tuple[str, ...] = CARDS, **options: str) -> object:
    """Players and Lutfi dealt cards[0..players]; Lutfi placed by `roll`."""
    return dealt(players, cards=cards[: players + 1], lutfi_roll=roll, lutfi="on", **options)


def to_lutfi(state: object) -> object:
    """Skip to Lutfi's turn (after the last player)."""
    return replace(state, turn=replace(state.turn, seat=state.seats, step=LUTFI))  # type: ignore[attr-defined]


def lutfi_takes(state: object, *spaces: str) -> object:
    """Lutfi holds the materials on these spaces, as if collected on earlier turns."""
    for space in spaces:
        number, index = int(space[0]), "abc".index(space[1])
        material = state.stall(number).slots[index].material  # type: ignore[attr-defined]
        stalls = tuple(s.with_material(index, "") if s.number == number else s for s in state.stalls)  # type: ignore[attr-defined]
        lutfi = state.lutfi  # type: ignore[attr-defined]
        lutfi = replace(lutfi, materials=tuple(sorted(lutfi.materials + (material,))))
        state = replace(state, stalls=stalls, lutfi=lutfi)
    return state


def test_lutfi_moves_clockwise_to_the_nearest_unoccupied_shop() -> None:
    """Lutfi: "on Lutfi's turn (he should always go last), move Lutfi clockwise to the nearest,
    unoccupied shop" (clockwise = ascending stall numbers, assumed)."""
    state = to_lutfi(edit(lutfi_game(roll=1), 0, stall=2))
    assert GAME.to_move(state) == "lutfi"
    moves = legal(state)
    assert all(m.startswith("lutfi to 3") for m in moves)


def test_lutfi_takes_the_cheapest_item_he_needs() -> None:
    """ "If the market ... has a building material in stock that Lutfi needs, he will take the
    cheapest, valid item ... This market is now occupied by Lutfi." Lutfi's card: clay clay
    lumber straw water; at stall 3 straw costs 1 blue, clay 1 red, water 3 green (worth 1 red)."""
    state = to_lutfi(lutfi_game(roll=2))
    assert legal(state) == ["lutfi to 3 take straw at 3a"]
    state = play(state, "lutfi to 3 take straw at 3a")
    assert state.lutfi is not None and state.lutfi.materials == ("straw",) and state.lutfi.standing
    assert state.stall(3).slots[0].material == "" and state.turn.seat == 0


def test_equally_cheap_items_are_the_players_choice() -> None:
    """ "(players must agree on what item is the cheapest)": equal prices are all offered."""
    state = to_lutfi(lutfi_game(roll=2, prices="3a=1 red"))
    assert legal(state) == [
        "lutfi to 3 take straw at 3a",
        "lutfi to 3 take clay at 3b",
        "lutfi to 3 take water at 3c",
    ]


def test_lutfi_lies_down_when_nothing_he_needs_is_there() -> None:
    """ "If the market does not have a material in stock that Lutfi needs, then he collects
    nothing; lay Lutfi down flat until his next turn, indicating that the shop is now unoccupied.\""""
    state = to_lutfi(hand_over(lutfi_game(roll=2), 0, "3a", "3b"))
    state = replace(state, stalls=tuple(s.with_material(2, "") if s.number == 3 else s for s in state.stalls))
    assert legal(state) == ["lutfi to 3 lie down"]
    state = play(state, "lutfi to 3 lie down")
    assert state.lutfi is not None and not state.lutfi.standing and state.lutfi.stall == 3


def test_lutfi_shops_at_the_same_stall_when_he_cannot_move() -> None:
    """Compatibility: "If Lutfi cannot move to any market at all, have him shop at the same stall again.\""""
    state = lutfi_game(roll=3)
    state = edit(edit(state, 0, stall=4), 1, stall=5)
    state = replace(state, apprentices=(Apprentice("stand-in", 0, 1), Apprentice("runner", 1, 2)))
    assert all(m.startswith("lutfi to 3") for m in legal(to_lutfi(state)))


def test_lutfi_gets_a_new_card_when_his_is_full() -> None:
    """ "Each time Lutfi collects all the materials on his build card, put all of the
    materials back and give Lutfi a new build card"; he builds nothing outside solo play."""
    state = to_lutfi(lutfi_takes(lutfi_game(roll=2), "2c", "4b", "1b", "1c"))
    state = play(state, "lutfi to 3 take straw at 3a")
    assert state.turn.step == RETURN and GAME.to_move(state) == "lutfi"
    for _ in range(5):
        state = play(state, GAME.legal_moves(state)[0])
    assert GAME.to_move(state) == CHANCE and state.turn.count == 1
    state = play(state, f"draw card {state.build_deck[0]}")
    assert state.lutfi is not None and state.lutfi.card and state.lutfi.segments == 0
    assert state.turn.seat == 0


def test_solo_lutfi_builds_and_can_win() -> None:
    """Solo Play: "Lutfi will build a tower segment whenever he fills a build card"; "try to
    build all three segments before Lutfi can build two... or ... before he can even build one"."""
    cards = ("clay lumber straw straw water", "clay clay lumber straw water")
    state = dealt(1, cards=cards, lutfi_roll=2, lutfi_wins_at="1")
    state = play(to_lutfi(lutfi_takes(state, "2c", "4b", "1b", "1c")), "lutfi to 3 take straw at 3a")
    for _ in range(5):
        state = play(state, GAME.legal_moves(state)[0])
    assert state.turn.step == OVER and GAME.to_move(state) is None
    sheet = GAME.score(state)
    assert "Lutfi wins" in sheet.standings[0].note


def test_the_bully_lays_lutfi_down_but_never_moves_the_guard() -> None:
    """Compatibility: "The Bully can kick Lutfi out of a market (lay Lutfi down; do not remove
    him), but never the Royal Guard.\""""
    state = action(lutfi_game(roll=3, apprentices="on", royal_guard="on"))
    state = replace(give(state, 0, "1 blue"), guard=4)
    assert "hire bully at 3 pay 1 blue" in legal(state)
    assert "hire bully at 4 pay 1 blue" not in legal(state)
    state = play(state, "hire bully at 3 pay 1 blue")
    assert state.lutfi == Lutfi(stall=3, standing=False, card=state.lutfi.card)  # type: ignore[union-attr]


def test_preferred_customer_is_no_help_against_the_guard_when_wanted() -> None:
    """Compatibility: "A Preferred Customer card will let you share a market with an
    apprentice or Lutfi, but not the Royal Guard if you are wanted.\""""
    state = action(lutfi_game(roll=3, royal_guard="on"))
    state = replace(give(edit(state, 0, wanted=True, black_cards=(4,)), 0, "1 green+2 red"), guard=4)
    state = play(state, "use Preferred Customer pay 1 green")
    assert "buy clay at 3b pay 1 red" in legal(state), "shared with Lutfi"
    assert "buy water at 4c pay 1 red" not in legal(state), "not with the guard"


def test_a_preferred_customer_does_not_send_the_runner_to_an_occupied_stall() -> None:
    """The Preferred Customer lets *you* share a stall; the runner still needs a free one."""
    state = give(edit(edit(start(apprentices="on"), 0, black_cards=(4,)), 1, stall=3), 0, "1 green+1 red")
    state = play(state, "use Preferred Customer pay 1 green")
    assert "hire runner at 3 pay 1 red" not in legal(state)
    assert "hire runner at 4 pay 1 red" in legal(state)
