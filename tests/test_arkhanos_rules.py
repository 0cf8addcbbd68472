"""Towers of Arkhanos: placing dice and meeples, the pillar bonuses, spells and finishing floors.

Every example of the rulebook's Phase 1, Phase 2, Step 3 and spell sections is a test here.
Default starting floors (helpers): A = tile 1 (purple 2/4/6; pillars 2 Prestige, spell,
build), B = tile 2 (yellow or pink 5/6; spell, build, 2 Prestige), C = tile 3 (yellow, all
different numbers; build, 2 Prestige, floor), M = tile 4's central side (build, 2 Prestige,
floor). Seat 0 is Yellow, seat 1 Red.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games.arkhanos.moves import Bonus, Cast, Draw, EndTurn, Move, Pass, Place, Reveal, Roll
from companion.games.arkhanos.scoring import influence
from companion.games.arkhanos.state import BONUS, CENTRAL, END, ArkhanosState, Die, Meeple
from companion.games.base import CHANCE, IllegalMove, Setup
from tests.arkhanos_helpers import (
    GAME,
    lay,
    legal,
    pillar,
    play,
    put,
    started,
    turn,
    with_player,
    with_table,
)

ANY = "prestige,prestige,prestige"  # a central side nobody looks at in these tests


def finished_points(state: ArkhanosState) -> list[tuple[int, ...]]:
    """The points of each finished floor, from the score sheet, in the order they were scored."""
    return [s.points for s in GAME.score(state).sources if "finished in round" in s.name]


def places(state: object, prefix: str) -> list[str]:
    return [m for m in legal(state) if m.startswith(prefix)]  # type: ignore[arg-type]


# ---- Phase 1: which dice a floor takes ---------------------------------------------------


def test_purple_2_4_6_floor_takes_two_purple_fours_and_a_purple_six() -> None:
    """Phase 1: "a cool spot to keep your purple dice with numbers 2, 4, and 6"; "you can fill
    this special space with two purple dice that have the number 4 on them, and one purple die
    with the number 6"."""
    state = started(2, ["purple4", "purple4", "purple6", "purple3", "yellow4"])
    assert places(state, "place purple4 A") and places(state, "place purple6 A")
    assert not places(state, "place purple3 A") and not places(state, "place yellow4 A")
    with pytest.raises(IllegalMove, match="only the numbers 2, 4, 6, not 3") as info:
        play(state, "place purple3 A1 apprentice")
    assert "Phase 1" in info.value.rule
    with pytest.raises(IllegalMove, match="only purple dice, not yellow"):
        play(state, "place yellow4 A1 apprentice")
    state = turn(state, "place purple4 A1 apprentice")
    state = turn(state, "place purple4 A2 apprentice")
    state = turn(state, "place purple6 A3 master", end=False)
    finished = state.scored[0]
    assert (finished.tower, finished.level) == (0, 1)
    assert finished.influence == (3, 1)  # Yellow apprentice + master, Red apprentice


def test_yellow_and_pink_5_6_floor_takes_two_yellow_fives_and_a_pink_five() -> None:
    """Phase 1: "a spot just right for some yellow and pink dice with numbers 5 and 6"; "you can
    have two yellow dice with the number 5, and add in one pink die with the number 5 too"."""
    state = started(2, ["yellow5", "yellow5", "pink5", "pink4", "purple5"])
    assert places(state, "place yellow5 B") and places(state, "place pink5 B")
    assert not places(state, "place pink4 B") and not places(state, "place purple5 B")
    state = turn(state, "place yellow5 B1 apprentice")
    state = turn(state, "place yellow5 B2 apprentice")
    state = turn(state, "place pink5 B3 apprentice", end=False)
    assert [s.tower for s in state.scored] == [1]


@pytest.mark.parametrize(
    ("numbers", "fits"),
    [((1, 4, 6), True), ((2, 2, 2), False), ((5, 5, 1), False)],
)
def test_yellow_different_numbers_floor(numbers: tuple[int, int, int], fits: bool) -> None:
    """Phase 1: "Got some yellow dice with different numbers? ... This spot can hold yellow dice
    with numbers like 1, 4, 6. But it can't take dice with numbers like 2, 2, 2 or 5, 5, 1."
    The dice go on C one by one; the set fits only if every die can follow the ones before."""
    state = started(2)
    placed = True
    for i, number in enumerate(numbers):
        state = with_table(state, f"yellow{number}", "green1")
        move = f"place yellow{number} C{i + 1} apprentice"
        if move not in legal(state):
            placed = False
            with pytest.raises(IllegalMove, match=f"different number, and a {number} is already here"):
                play(state, move)
            break
        state = put(state, f"C{i + 1}", f"yellow{number}", (0, "apprentice"))
    assert placed is fits


def test_central_tower_always_takes_the_die() -> None:
    """Phase 1, "Can I always put my meeple on the central tower? Yes, indeed! Even if there's a
    die on the table that could go on an outer tower, you always have the choice to put it on the
    central tower"; "The main part of the tower ... can hold dice of any number and color"."""
    state = started(2, ["purple4", "yellow5", "pink2", "blue3", "green6"])
    for die in ("purple4", "yellow5", "pink2", "blue3", "green6"):
        assert {m.split()[2] for m in places(state, f"place {die} M")} == {"M1", "M2", "M3"}


def test_a_pillar_holds_one_die() -> None:
    """Phase 1: the die goes "on an empty pillar of any floor tile"."""
    state = put(started(2), "M1", "green2", (1, "apprentice"))
    with pytest.raises(IllegalMove, match="pillar M1 is not empty"):
        play(state, "place pink2 M1 apprentice")


def test_out_of_meeples_cast_a_spell_first() -> None:
    """Phase 1, "What happens if I run out of meeples? ... you have to place a meeple with your
    die. If you don't have any left to place, it's probably because some are on your spellbook ...
    you'll need to cast a spell. That way, you'll free up the meeple and be able to place it." """
    state = with_player(started(2), 0, apprentices=0, masters=0, spellbook=("", "", "apprentice", "", "", ""))
    assert not places(state, "place")
    assert "cast swap" in legal(state)
    with pytest.raises(IllegalMove, match="cast a spell first") as info:
        play(state, "place pink2 M1 apprentice")
    assert "run out of meeples" in info.value.rule
    state = play(state, "cast swap")
    assert state.players[0].apprentices == 1 and state.players[0].spellbook[2] == ""
    assert places(state, "place pink2 M1") == ["place pink2 M1 apprentice"]


def test_no_meeple_anywhere_the_die_goes_alone() -> None:
    """The rulebook is silent when a player has no meeple in the supply or the spellbook (all on
    floors or trapped): the die is placed alone (docs/arkhanos.md)."""
    state = with_player(started(2), 0, apprentices=0, masters=0)
    assert "place pink2 M1" in legal(state) and "place pink2 M1 apprentice" not in legal(state)
    state = play(state, "place pink2 M1")
    assert pillar(state, "M1").die == Die("pink", 2) and pillar(state, "M1").meeple is None


def test_master_or_apprentice_is_the_players_choice() -> None:
    state = started(2)
    assert {"place pink2 M1 apprentice", "place pink2 M1 master"} <= set(legal(state))
    state = play(state, "place pink2 M2 master")
    assert pillar(state, "M2").meeple == Meeple(0, "master") and state.players[0].masters == 0
    assert "place blue3 M3 master" not in legal(play(state, "end turn", "place green6 M1 apprentice"))


# ---- Phase 2: the pillar bonuses ------------------------------------------------------------


def test_get_2_prestige() -> None:
    """Phase 2, "Get 2 Prestige": "take some prestige tokens ... that add up to a total of 2"."""
    state = play(started(2), "place purple4 A1 apprentice")  # A1: 2 Prestige
    assert state.players[0].pillar_prestige == 2 and state.step == END
    sheet = GAME.score(state)
    source = next(s for s in sheet.sources if s.name == "'Get 2 Prestige' pillars")
    assert source.points == (2, 0)


@pytest.mark.parametrize("level", [1, 3])
def test_prestige_from_the_floor(level: int) -> None:
    """Phase 2, "Boost Prestige from the Floor": "I gain a certain amount of prestige that
    corresponds to the floor I am on in the tower"."""
    state = lay(started(2), "C", f"any/any floor,prestige,prestige|{ANY}", level=level)
    state = play(state, "place pink2 C1 apprentice")
    assert state.players[0].floor_prestige == level


def test_use_the_spell_matching_the_die() -> None:
    """Phase 2, "Use the Spell": "grab one of your meeples and put it in your spellbook, right on
    the spell that matches the number of the die you just placed"."""
    state = play(started(2), "place purple4 A2 apprentice")  # A2: the spell bonus
    assert state.step == BONUS and legal(state) == ["bonus spell apprentice", "bonus spell master"]
    state = play(state, "bonus spell master")
    assert state.players[0].spellbook == ("", "", "", "master", "", "")
    assert state.players[0].masters == 0 and state.step == END


def test_use_the_spell_does_nothing_when_the_spell_is_taken() -> None:
    """Phase 2: "if the spell you're trying to put your meeple on already has another meeple,
    then this little bonus won't work"; Spellbook: "each spell can only have one meeple"."""
    state = with_player(started(2), 0, spellbook=("", "", "", "apprentice", "", ""))
    state = play(state, "place purple4 A2 apprentice")
    assert state.step == END and state.pending is None
    assert state.players[0].spellbook[3] == "apprentice" and state.players[0].apprentices == 6


def test_build_example_meeple_on_another_tower_counts_when_scored() -> None:
    """Phase 2, A Different Tower: "Yellow puts a purple "1" die on a pillar that gives them the
    Build Tower or Activate Spell bonus. They choose to take a meeple from their supply and put it
    on a pillar of a different tower. They don't get the 2 prestige from that pillar, but they do
    get to count this meeple towards their prestige when they score that tower floor later on."
    "If I decided to put the meeple in my spellbook, I would have placed it on the first spell
    that matched the number rolled on the die." Step 3: meeples "on pillars without dice" stay."""
    state = lay(
        started(2, ["purple1", "yellow5", "pink2", "blue3", "green6"]),
        "A",
        f"purple/any build,spell,floor|{ANY}",
    )
    state = play(state, "place purple1 A1 apprentice")
    options = legal(state)
    assert options[:2] == ["bonus spell apprentice", "bonus spell master"]  # spell 1, the die's number
    assert "bonus M2 apprentice" in options and "bonus B3 master" in options
    assert not [m for m in options if m.startswith("bonus A")]
    with pytest.raises(IllegalMove, match="different from the one that gave the bonus"):
        play(state, "bonus A2 apprentice")
    state = play(state, "bonus M2 apprentice")  # M2 is a 2 Prestige pillar
    assert state.players[0].pillar_prestige == 0
    assert pillar(state, "M2").meeple == Meeple(0, "apprentice") and pillar(state, "M2").die is None
    top = state.towers[CENTRAL].top
    assert top is not None and influence(top, 2) == (1, 0)
    state = turn(play(state, "end turn"), "place pink2 M1 apprentice")  # Red
    state = turn(state, "place green6 M3 apprentice", end=False)  # Yellow finishes the floor
    finished = state.scored[-1]
    assert finished.tower == CENTRAL and finished.influence == (2, 1)
    assert finished_points(state)[-1] == (3, 2)  # central tower: most 3, second 2 (arkhanos.toml)
    assert state.towers[CENTRAL].trapped == (Meeple(0, "apprentice"),)
    # The meeple beside the die came home, the standing one did not: 7 - 3 placed + 1 back.
    assert state.players[0].apprentices == 5


def test_build_takes_from_the_spellbook_when_the_supply_is_empty() -> None:
    """Phase 2: "If you've got no meeples in your supply but you do have some in your spellbook,
    you can take one from there." """
    state = lay(
        started(2, ["purple1", "yellow5", "pink2", "blue3", "green6"]),
        "A",
        f"purple/any build,spell,floor|{ANY}",
    )
    state = with_player(
        state, 0, apprentices=0, masters=0, spellbook=("", "apprentice", "master", "", "", "")
    )
    state = play(state, "cast exchange", "place purple1 A1 apprentice")
    options = legal(state)
    assert "bonus spell master from spell 3" in options and "bonus M1 master from spell 3" in options
    assert not [m for m in options if "from" not in m]
    state = play(state, "bonus M1 master from spell 3")
    assert state.players[0].spellbook == ("",) * 6 and pillar(state, "M1").meeple == Meeple(0, "master")


def test_build_does_nothing_without_meeples() -> None:
    """Phase 2: "But if you don't have any meeples in your supply or spellbook, this bonus doesn't
    do anything." """
    state = lay(
        started(2, ["purple1", "yellow5", "pink2", "blue3", "green6"]),
        "A",
        f"purple/any build,spell,floor|{ANY}",
    )
    state = with_player(state, 0, apprentices=1, masters=0)
    state = play(state, "place purple1 A1 apprentice")
    assert state.step == END and state.pending is None


def test_build_cannot_use_an_occupied_spell() -> None:
    state = lay(
        started(2, ["purple1", "yellow5", "pink2", "blue3", "green6"]),
        "A",
        f"purple/any build,spell,floor|{ANY}",
    )
    state = with_player(state, 0, spellbook=("master", "", "", "", "", ""))
    state = play(state, "place purple1 A1 apprentice")
    assert "bonus spell apprentice" not in legal(state)
    with pytest.raises(IllegalMove, match="spell 1 already has a meeple"):
        play(state, "bonus spell apprentice")


# ---- Step 3: finishing floors -----------------------------------------------------------------


def test_two_floors_in_one_turn_are_scored_in_the_order_they_were_finished() -> None:
    """Step 3: "If you manage to complete multiple floors in a single turn, simply score them one
    by one in the order you finished them." The die finishes A; its build bonus finishes B."""
    state = lay(started(2), "A", f"any/any build,prestige,prestige|{ANY}")
    state = put(put(state, "A2", "green1", (1, "apprentice")), "A3", "green2", (1, "apprentice"))
    state = lay(state, "B", f"any/any prestige,prestige,prestige|{ANY}")
    state = put(put(state, "B1", "green3", (1, "master")), "B2", "green4", (0, "apprentice"))
    state = play(state, "place purple4 A1 master", "bonus B3 apprentice")
    assert [s.tower for s in state.scored] == [0, 1]
    assert state.scored[0].influence == (2, 2) and state.scored[1].influence == (2, 2)
    assert state.reveals == (0, 1) and GAME.to_move(state) == CHANCE
    assert legal(state)[0].endswith("on A")
    assert state.towers[1].trapped == (Meeple(0, "apprentice"),)


def test_a_finished_floor_is_cleared_and_the_next_tile_laid_outer_side_up() -> None:
    """Step 3: "remove all the meeples from the floor tile, except for the ones on pillars without
    dice, and hand them back"; "The dice ... will stay in the tower ... trapped"; "grab the top tile
    from the stack ... if it's an outer tower, I'll put the outer side of the tile facing up"."""
    state = put(put(started(2), "A2", "purple2", (1, "master")), "A3", "purple6", (1, "apprentice"))
    state = play(state, "place purple4 A1 apprentice")
    assert state.players[1].masters == 2 and state.players[1].apprentices == 8  # back home
    assert state.players[0].apprentices == 7
    assert state.towers[0].top is None and state.towers[0].trapped_dice == 3
    assert sorted(int(m.split()[1]) for m in legal(state)) == list(range(5, 19))
    state = play(state, "reveal 9 on A")
    top = state.towers[0].top
    assert top is not None and top.level == 2 and str(top.constraint) == "pink+green/246"
    assert [p.bonus for p in top.pillars] == ["prestige", "build", "floor"]


def test_the_central_tower_gets_the_central_side() -> None:
    """Step 3: "If it's the central tower, I'll place the central side facing up"."""
    state = put(put(started(2), "M2", "green2", (1, "apprentice")), "M3", "green3", (1, "apprentice"))
    state = play(state, "place pink2 M1 apprentice", "bonus spell apprentice", "reveal 9 on M")
    top = state.towers[CENTRAL].top
    assert top is not None and str(top.constraint) == "any/any"
    assert [p.bonus for p in top.pillars] == ["build", "floor", "prestige"]  # tile 9's central side


def test_players_can_enter_the_real_tile_as_it_is_revealed() -> None:
    """The data file guesses the tiles; the table can say what the revealed tile really shows."""
    state = put(put(started(2), "A2", "purple2", (1, "master")), "A3", "purple6", (1, "apprentice"))
    state = play(state, "place purple4 A1 apprentice")
    state = play(state, "reveal 9 on A as green/13/same spell,spell,floor|floor,floor,floor")
    top = state.towers[0].top
    assert top is not None and str(top.constraint) == "green/13/same"
    assert [p.bonus for p in top.pillars] == ["spell", "spell", "floor"]
    assert not any(e.startswith("9=") for e in state.stack)
    with pytest.raises(IllegalMove):
        play(state, "reveal 10 on A as green/13 spell,spell,floor|floor,floor,floor")


def test_when_the_stack_runs_out_the_tower_is_finished_and_a_stuck_die_passes() -> None:
    """The rulebook is silent on an empty floor stack: the tower gets no new floor, and when no
    die fits anywhere the player passes and the round ends (docs/arkhanos.md)."""
    state = replace(started(2), stack=())
    state = put(put(state, "M2", "green2", (1, "apprentice")), "M3", "green3", (1, "apprentice"))
    state = play(state, "place pink2 M1 apprentice", "bonus spell apprentice")
    assert state.towers[CENTRAL].top is None and not state.reveals and GAME.to_move(state) == 0
    state = play(state, "end turn")
    towers = (replace(state.towers[0], top=None), replace(state.towers[1], top=None)) + state.towers[2:]
    state = replace(state, towers=towers)  # only C (yellow, all different) is left
    state = with_table(state, "purple4", "green6", "blue3")
    assert legal(state) == ["pass"]
    state = play(state, "pass")
    assert state.round == 2 and state.pool[0] == Die("purple", 4)
    assert state.set_aside == (Die("green", 6), Die("blue", 3))


def test_end_turn_only_after_placing() -> None:
    state = started(2)
    with pytest.raises(IllegalMove, match="place a die and a meeple before ending your turn"):
        play(state, "end turn")
    state = play(state, "place purple4 A1 apprentice")
    with pytest.raises(IllegalMove, match="already placed a die this turn"):
        play(state, "place pink2 M1 apprentice")
    with pytest.raises(IllegalMove, match="no pillar bonus is waiting"):
        play(state, "bonus spell apprentice")


# ---- spells ----------------------------------------------------------------------------------


def test_spells_example_manipulate_as_exchange_then_swap() -> None:
    """What do the Spells do?: "I have a meeple on my Manipulate and Swap spells. First, I decide
    to cast Manipulate, which allows me to use any spell I want. I choose Exchange, which lets me
    swap a die on the table with one on the mana pool board. After doing this, I want to prevent
    my opponent from having a good die on the table, so I cast Swap to exchange it with a die on
    the central tower." (Exchange itself is not active: Manipulate uses any spell of the book.)"""
    state = started(2, ["purple4", "yellow5", "pink2", "blue3", "green6"])
    state = replace(state, pool=(Die("green", 1),) + state.pool[1:])
    state = put(state, "M1", "purple2", (1, "apprentice"))
    state = with_player(state, 0, spellbook=("apprentice", "", "apprentice", "", "", ""))
    assert not [m for m in legal(state) if m.startswith("cast exchange")]
    assert "cast manipulate as exchange blue3 pool1" in legal(state)
    state = play(state, "cast manipulate as exchange blue3 pool1")
    assert state.table == tuple(
        Die(c, n) for c, n in [("purple", 4), ("yellow", 5), ("pink", 2), ("green", 1), ("green", 6)]
    )
    assert state.pool[0] == Die("blue", 3)
    assert state.players[0].spellbook[0] == "" and state.players[0].apprentices == 8
    state = play(state, "cast swap yellow5 M1")
    assert Die("purple", 2) in state.table and Die("yellow", 5) not in state.table
    assert pillar(state, "M1").die == Die("yellow", 5) and pillar(state, "M1").meeple == Meeple(
        1, "apprentice"
    )
    assert state.players[0].spellbook == ("",) * 6 and state.step == "place"


def test_casting_returns_the_meeple_and_needs_an_active_spell() -> None:
    """Spellbook: "you have the ability to cast as many of your active spells as you want"; "all
    you need to do is return the meeple from that spell back to your supply"."""
    state = with_player(started(2), 0, spellbook=("", "master", "", "", "apprentice", ""))
    with pytest.raises(IllegalMove, match="Swap is not active") as info:
        play(state, "cast swap")
    assert "Spellbook" in info.value.rule
    state = play(state, "cast turn purple4 to 3", "cast exchange")
    assert Die("purple", 3) in state.table
    assert (state.players[0].apprentices, state.players[0].masters) == (8, 2)
    with pytest.raises(IllegalMove, match="no spell called 'fly'"):
        play(state, "cast fly")


def test_spells_can_be_cast_after_placing_too() -> None:
    """Spellbook: "Whenever it's your turn" — also after the die is placed, before ending the turn."""
    state = with_player(started(2), 0, spellbook=("", "", "", "", "", "apprentice"))
    state = play(state, "place purple4 A1 apprentice")
    assert "cast nudge blue3 to 4" in legal(state) and legal(state)[-1] == "end turn"
    with pytest.raises(IllegalMove, match="changes blue3 by 1"):
        play(state, "cast nudge blue3 to 5")


def test_nobody_casts_during_another_players_turn() -> None:
    state = with_player(started(2), 1, spellbook=("", "", "apprentice", "", "", ""))
    with pytest.raises(IllegalMove, match="Swap is not active"):
        play(state, "cast swap")


# ---- refusals: every wrong move gets a reason, never a crash ------------------------------


def candidates(state: ArkhanosState) -> list[Move]:
    """A broad set of moves, most of them illegal here: each kind of move with assorted arguments."""
    dice = [Die(c, n) for c in ("purple", "pink", "gold") for n in (1, 4, 6)] + list(state.table)
    moves: list[Move] = [
        EndTurn(),
        Pass(),
        Draw("pink"),
        Draw("gold"),
        Roll("pink", 3),
        Reveal(5, 0),
        Reveal(1, 3),
    ]
    for t in range(4):
        for i in range(3):
            moves += [Place(d, t, i, k) for d in dice[::3] for k in ("apprentice", "master", "")]
            moves += [Bonus(k, t, i, s) for k in ("apprentice", "master") for s in (0, 2)]
    moves += [Bonus("apprentice"), Bonus("master", source=1)]
    for spell in ("manipulate", "exchange", "swap", "reroll", "turn", "nudge", "fly"):
        moves.append(Cast(spell))
        for d in dice[::2]:
            moves += [Cast(spell, die=d, pool=1), Cast(spell, die=d, pillar=2), Cast(spell, die=d, number=3)]
            moves += [Cast(spell, "exchange", d, pool=2), Cast(spell, "manipulate", d), Cast(spell, die=d)]
    return moves


@pytest.mark.parametrize("seed", range(3))
def test_every_illegal_move_is_refused_with_a_reason(seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.initial_state(Setup(2 + seed))
    for step in range(400):
        if GAME.to_move(state) is None:
            break
        legal_now = set(GAME.legal_moves(state))
        if step % 7 == 0:
            for move in candidates(state):
                if move not in legal_now:
                    with pytest.raises(IllegalMove) as info:
                        GAME.apply(state, move)
                    assert info.value.reason and info.value.rule
        state = GAME.apply(state, rng.choice(sorted(legal_now, key=str)))


def test_refusal_messages_for_bonus_and_spell_mistakes() -> None:
    state = play(started(2), "place purple4 A2 apprentice")  # Use the Spell pending
    with pytest.raises(IllegalMove, match="puts a meeple on spell 4, not on a pillar"):
        play(state, "bonus M1 apprentice")
    with pytest.raises(IllegalMove, match="first choose where the pillar bonus"):
        play(state, "end turn")
    state = with_player(started(2), 0, spellbook=("", "apprentice", "apprentice", "", "", ""))
    with pytest.raises(IllegalMove, match="mana pool space 1 holds no die"):
        play(state, "cast exchange purple4 pool1")
    with pytest.raises(IllegalMove, match="pillar M2 of the central tower holds no die"):
        play(state, "cast swap purple4 M2")
    with pytest.raises(IllegalMove, match="only Manipulate uses another spell"):
        play(state, "cast swap as exchange purple4 pool1")
    with pytest.raises(IllegalMove, match="there is no gold4 on the table"):
        play(state, "cast swap gold4 M2")


def test_a_corrected_tile_must_use_the_bags_colours() -> None:
    state = put(put(started(2), "A2", "purple2", (1, "master")), "A3", "purple6", (1, "apprentice"))
    state = play(state, "place purple4 A1 apprentice")
    with pytest.raises(IllegalMove, match="colours not in the bag: gold"):
        play(state, "reveal 9 on A as gold/13 spell,spell,floor|floor,floor,floor")


def test_the_page_shows_the_candidate_tiles_while_one_is_revealed() -> None:
    state = put(put(started(2), "A2", "purple2", (1, "master")), "A3", "purple6", (1, "apprentice"))
    view = GAME.describe(play(state, "place purple4 A1 apprentice"))
    assert "The tile for outer tower A is one of:" in view.shared
    assert (
        "  tile 9: pink or green, 2, 4, 6 | 2 Prestige, build elsewhere or activate a spell, "
        "Prestige by floor" in view.shared
    )
    assert "which tile is the new floor of outer tower A?" in view.headline
