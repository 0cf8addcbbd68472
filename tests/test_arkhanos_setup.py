"""Towers of Arkhanos: set-up, the data file and its corrections, notation, bad input, the round's
dice and turn order, and the page's description of the table.

Default set-up (arkhanos.toml): starting tiles 1-4 revealed on A, B, C, M in the helpers;
tile 1 = purple 2/4/6, tile 2 = yellow or pink 5/6, tile 3 = yellow, all different numbers.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.games.arkhanos.moves import Bonus, Cast, Draw, EndTurn, Pass, Place, Reveal, Roll
from companion.games.arkhanos.setup import data
from companion.games.arkhanos.state import DRAW, PLACE, Die
from companion.games.base import CHANCE, BadMoveText, BadSetup, BadState, IllegalMove, Setup
from tests.arkhanos_helpers import GAME, deal, die, legal, new_game, play, started, turn, with_table

# ---- set-up ---------------------------------------------------------------------------


def test_data_file_has_18_tiles_4_starting_and_40_dice() -> None:
    """Components: "40 Dice", "18 Floor tiles"; Setting up: "the 4 floor tiles with pink starred
    pillars"; 28 apprentices and 4 masters make 7 and 1 per player."""
    tiles = data()["tiles"]
    assert sorted(t["id"] for t in tiles) == list(range(1, 19))
    assert sum(1 for t in tiles if t.get("start")) == 4
    assert sum(data()["dice"].values()) == 40
    assert data()["meeples"] == {"apprentices": 7, "masters": 1}


def test_rulebook_floor_examples_are_in_the_default_tiles() -> None:
    """Phase 1, "Check out these examples of dice placement": purple 2, 4, 6; yellow and pink 5
    and 6; yellow with different numbers. The defaults must contain them."""
    outers = {t["outer"] for t in data()["tiles"]}
    assert {"purple/246", "yellow+pink/56", "yellow/any/distinct"} <= outers


def test_setup_reveals_three_outer_starting_floors_and_one_central() -> None:
    """Setting up the Game: "place 3 of these floor tiles ... showing their outer side ... the
    last floor tile in the middle of the triangle, showing its central side"; "shuffle the rest
    ... into a stack"."""
    state = GAME.initial_state(Setup(2))
    assert GAME.to_move(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    assert [str(m) for m, _ in outcomes] == [f"reveal {t} on A" for t in (1, 2, 3, 4)]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    state = play(state, "reveal 3 on A", "reveal 1 on B", "reveal 4 on C")
    assert legal(state) == ["reveal 2 on M"]  # the last starting tile goes in the middle
    state = play(state, "reveal 2 on M")
    a, b, c, m = (t.top for t in state.towers)
    assert a is not None and b is not None and c is not None and m is not None
    assert str(a.constraint) == "yellow/any/distinct" and str(b.constraint) == "purple/246"
    # The central side: any die, and the tile's central bonuses (tile 2: prestige, spell, build).
    assert str(m.constraint) == "any/any"
    assert [p.bonus for p in m.pillars] == ["prestige", "spell", "build"]
    assert len(state.stack) == 14 and not state.starters


@pytest.mark.parametrize(("players", "rounds", "dice"), [(2, 8, 5), (3, 9, 4), (4, 8, 5)])
def test_rounds_and_dice_per_player_count(players: int, rounds: int, dice: int) -> None:
    """Object of the Game: "If there are 2 or 4 players, you will play 8 rounds. If there are 3
    players, you will play 9 rounds." How to Play: "select 5 dice if there are 2 or 4 players,
    or 4 dice if there are 3 players"."""
    state = new_game(players)
    assert (state.rounds, state.dice_per_round) == (rounds, dice)
    for _ in range(dice):
        assert GAME.to_move(state) == CHANCE and str(GAME.legal_moves(state)[0]).startswith("draw")
        state = play(state, "draw yellow")
    assert str(GAME.legal_moves(state)[0]) == "roll yellow 1"  # all drawn: now they are rolled


def test_draw_probabilities_follow_the_bag() -> None:
    """How to Play: the dice are drawn "randomly" from the bag: each colour in proportion to
    the dice of that colour still in it."""
    state = play(new_game(2), "draw purple", "draw purple")
    odds = {str(m): p for m, p in GAME.chance_outcomes(state)}
    assert odds["draw purple"] == pytest.approx(6 / 38)
    assert odds["draw green"] == pytest.approx(8 / 38)
    assert state.bag[state.colours.index("purple")] == 6


def test_options_name_colour_and_correct_the_data() -> None:
    """Players correct unprinted data at set-up: names, colours, dice, mana pool values, spells, tiles."""
    state = GAME.initial_state(
        Setup(
            3,
            {
                "names": "Ana,Ben,Cy",
                "colours": "red,blue,green",
                "dice": "red:12,white:12,black:12",
                "scoring": "outer:6/4/3",
                "spells": "Manipulate,Exchange,Swap,Shield=none,Turn,Nudge",
                "tiles": "5=red/12 prestige,prestige,floor|floor,floor,floor; "
                + "; ".join(
                    f"{i}=any/any prestige,spell,build|floor,prestige,spell" for i in range(1, 19) if i != 5
                ),
            },
        )
    )
    assert [p.name for p in state.players] == ["Ana", "Ben", "Cy"]
    assert state.colours == ("red", "white", "black") and sum(state.bag) == 36
    assert (state.outer_values.most, state.outer_values.second, state.outer_values.tie) == (6, 4, 3)
    assert state.central_values == replace(state.central_values, most=3)  # untouched default
    assert state.spells[3].name == "Shield" and state.spells[3].effect == "none"
    assert "5=red/12 prestige,prestige,floor|floor,floor,floor" in state.stack


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"colours": "red,red"}, "own colour"),
        ({"names": "a,b,c"}, "needs 2"),
        ({"dice": "purple:3,yellow:3"}, "draw 40 dice"),
        ({"dice": "purple-8"}, "colour:count"),
        ({"tiles": "19=any/any prestige,spell,build|floor,floor,floor"}, "ID 1-18"),
        ({"tiles": "3=orange/12 prestige,spell,build|floor,floor,floor"}, "not in the bag"),
        ({"tiles": "3=purple/12 prestige,spell|floor,floor,floor"}, "3 pillar bonuses"),
        ({"tiles": "3=purple/79 prestige,spell,build|floor,floor,floor"}, "COLOURS/NUMBERS"),
        ({"scoring": "outer=5/3/2"}, "outer:MOST/SECOND/TIE"),
        ({"spells": "A,B,C"}, "6 spells"),
        ({"spells": "A=fly,B,C,D,E,F"}, "effect one of"),
        ({"variant": "x"}, "unknown options"),
    ],
)
def test_bad_setup_options_say_what_is_wrong(options: dict[str, str], words: str) -> None:
    with pytest.raises(BadSetup, match=words):
        GAME.initial_state(Setup(2, options))


@pytest.mark.parametrize("players", [1, 5])
def test_player_count(players: int) -> None:
    with pytest.raises(BadSetup, match="2 to 4"):
        GAME.initial_state(Setup(players))


# ---- notation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        Reveal(7, 1),
        Reveal(7, 3, "purple/246 prestige,spell,build|floor,prestige,spell"),
        Draw("pink"),
        Roll("pink", 5),
        Place(Die("purple", 4), 0, 1, "apprentice"),
        Place(Die("green", 6), 3, 2),
        Bonus("master"),
        Bonus("apprentice", 2, 0),
        Bonus("apprentice", 3, 2, source=3),
        Cast("swap"),
        Cast("swap", die=Die("purple", 4), pillar=2),
        Cast("manipulate", "exchange", Die("purple", 4), pool=10),
        Cast("nudge", die=Die("blue", 3), number=4),
        EndTurn(),
        Pass(),
    ],
)
def test_moves_are_their_own_text(move: object) -> None:
    assert GAME.parse_move(str(move)) == move
    assert GAME.move_from_json(json.loads(json.dumps(GAME.move_to_json(move)))) == move


def test_parsing_forgives_case_and_spacing_and_normalises_a_tile() -> None:
    assert GAME.parse_move("  Place PURPLE4   a2 Master ") == Place(Die("purple", 4), 0, 1, "master")
    move = GAME.parse_move("reveal 7 on B as Purple/642 prestige, spell, build | floor,prestige,spell")
    assert str(move) == "reveal 7 on B as purple/246 prestige,spell,build|floor,prestige,spell"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "place purple7 A1",
        "place purple4 D1",
        "place purple4 A4",
        "bonus spell wizard",
        "roll pink",
        "reveal x on A",
        "reveal 7 on A as purple",
        "cast",
        "end",
        42,
    ],
)
def test_malformed_move_text(text: object) -> None:
    with pytest.raises(BadMoveText):
        GAME.move_from_json(text) if not isinstance(text, str) else GAME.parse_move(text)


def test_state_json_round_trip_and_bad_state() -> None:
    state = started(3)
    data_ = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(data_) == state
    with pytest.raises(BadState, match="not an Arkhanos state"):
        GAME.state_from_json({"game": "amharb"})
    with pytest.raises(BadState):
        GAME.state_from_json({**data_, "towers": []})
    with pytest.raises(BadState, match="step"):
        GAME.state_from_json({**data_, "step": "dance"})
    with pytest.raises(BadState, match="not a die"):
        GAME.state_from_json({**data_, "table": [{"colour": "gold", "number": 3}]})
    with pytest.raises(BadState, match="tile entry"):
        GAME.state_from_json({**data_, "stack": ["seven=purple"]})
    with pytest.raises(BadState, match="unknown keys"):
        GAME.state_from_json({**data_, "dragons": 1})


# ---- the round: turn order, the mana pool ---------------------------------------------


def test_two_players_take_two_turns_and_the_last_die_goes_to_the_mana_pool() -> None:
    """How to Play: "If there are 2 of us playing, we each get two turns per round"; "Once
    there's only one die left on the table, the round ends. Put that die on the mana pool board,
    in the space that matches the current round. Then, pass the dice bag to the person on your
    left. They become the first player for the next round." (The Mana Pool says the same.)"""
    state = started(2, ["purple4", "yellow5", "pink2", "blue3", "green6"])
    seats = []
    for placement in ("place pink2 M1 apprentice", "place blue3 M2 apprentice", "place green6 M3 apprentice"):
        seats.append(state.current)
        state = turn(state, placement)
    seats.append(state.current)
    state = turn(state, "place purple4 A1 apprentice", end=False)
    assert seats == [0, 1, 0, 1]
    assert state.table == (Die("yellow", 5),)
    state = play(state, "end turn")
    assert state.pool[0] == Die("yellow", 5) and state.table == ()
    assert (state.round, state.first, state.step) == (2, 1, DRAW)
    state = deal(state, "purple1", "purple2", "purple3", "purple5", "purple6")
    assert GAME.to_move(state) == 1 and state.step == PLACE  # the bag passed left


def test_three_players_one_turn_each() -> None:
    """How to Play: "If there are 3 or 4 players, we only get one turn per round." (4 dice, 3 turns.)"""
    state = started(3, ["green1", "green2", "green3", "green4"])
    order = []
    for number, spot in enumerate(("M1", "M2", "M3"), start=1):
        order.append(state.current)
        state = turn(state, f"place green{number} {spot} apprentice", end=number < 3)
    assert order == [0, 1, 2]
    state = play(state, "end turn")
    assert state.pool[0] == Die("green", 4) and state.round == 2 and state.first == 1


def test_four_players_one_turn_each_and_the_bag_goes_round() -> None:
    """How to Play: with 4 players, 5 dice and one turn each; "pass the dice bag to the person on
    your left" — after four rounds every seat has been first player once, then seat 0 again."""
    state = started(4, ["green1", "green2", "green3", "green4", "green5"])
    firsts = []
    for colour in ("pink", "blue", "yellow", "purple", "green"):
        firsts.append(state.first)
        order = []
        for _ in range(4):
            order.append(state.current)
            top = state.towers[3].top
            assert top is not None
            free = next(f"M{i + 1}" for i, p in enumerate(top.pillars) if not p.occupied)
            state = turn(state, f"place {state.table[0]} {free} apprentice")
        assert order == [(firsts[-1] + k) % 4 for k in range(4)]
        if colour != "green":
            state = deal(state, *(f"{colour}{n}" for n in (1, 2, 3, 4, 6)))
    assert firsts == [0, 1, 2, 3, 0]


def test_reroll_is_a_chance_move_for_that_die_only() -> None:
    """A rerolled die is reported by the table like any roll (assumed spell Reroll, arkhanos.toml)."""
    state = started(2)
    state = replace(
        state,
        players=(replace(state.players[0], spellbook=("", "", "", "apprentice", "", "")), state.players[1]),
    )
    state = play(state, "cast reroll blue3")
    assert GAME.to_move(state) == CHANCE
    assert legal(state) == [f"roll blue {n}" for n in range(1, 7)]
    state = play(state, "roll blue 6")
    assert GAME.to_move(state) == 0 and Die("blue", 6) in state.table


# ---- what the page shows ----------------------------------------------------------------


def test_describe_lists_each_die_where_it_fits_and_the_bonus() -> None:
    """The issue: the phone shows "every legal placement of every rolled die (which pillars of
    which floors accept it, the central tower always), the bonus each would give"."""
    state = started(2, ["purple4", "yellow5", "pink2", "blue3", "green6"])
    view = GAME.describe(state)
    assert view.headline == "Round 1 of 8 · Yellow: place a die"
    me = view.seats[0]
    assert me.current and not view.seats[1].current
    line = next(x for x in me.lines if x.startswith("purple4"))
    assert "A1 (2 Prestige)" in line and "M1 (build elsewhere or activate a spell)" in line
    assert "B1" not in line
    yellow = next(x for x in me.lines if x.startswith("yellow5"))
    assert "B1" in yellow and "C1" in yellow and "A1" not in yellow
    assert any(x.startswith("Tower A floor 1 (tile 1, outer) takes purple, 2, 4, 6") for x in view.shared)
    assert "Table: purple4, yellow5, pink2, blue3, green6" in view.shared


def test_describe_says_what_finishing_a_floor_scores_now() -> None:
    state = started(2)
    state = play(state, "place purple4 A1 master")
    view = GAME.describe(state)
    assert "  finishing it now scores: Yellow has the most influence (2): 5" in view.shared


def test_perft_legal_move_count_at_the_first_placement() -> None:
    """A fixed position's move count (python-chess's perft idea): 5 dice; purple4 fits A and M,
    yellow5 fits B, C and M, the rest only M; 3 empty pillars each; two meeple kinds; no spell active."""
    state = started(2, ["purple4", "yellow5", "pink2", "blue3", "green6"])
    pillars = {"purple4": 6, "yellow5": 9, "pink2": 3, "blue3": 3, "green6": 3}
    assert len(GAME.legal_moves(state)) == 2 * sum(pillars.values()) == 48
    twice = with_table(state, "purple4", "purple4", "green6", "green6", "green6")
    assert len(GAME.legal_moves(twice)) == 2 * (6 + 3)  # identical dice are one choice


def test_illegal_chance_reports_name_the_rule() -> None:
    state = GAME.initial_state(Setup(2))
    with pytest.raises(IllegalMove, match="the tile to reveal now is the next floor of tower A"):
        play(state, "reveal 1 on B")
    with pytest.raises(IllegalMove, match="not one of the starting tiles"):
        play(state, "reveal 9 on A")
    state = new_game(2)
    with pytest.raises(IllegalMove, match="no pink die left"):
        play(replace(state, bag=(8, 8, 0, 8, 8)), "draw pink")
    state = play(state, *["draw pink"] * 5)
    with pytest.raises(IllegalMove, match="first roll the pink die"):
        play(state, "draw pink")
    with pytest.raises(IllegalMove, match="the die to roll now is the pink one"):
        play(state, "roll blue 3")
    assert die("pink3") == Die("pink", 3)


def test_the_phase_leds_follow_the_turn() -> None:
    """Issue 7, panel: drawing and rolling on LED 1, placing a die 2, its bonus 3, the end of
    the turn 4; none once the game is over."""
    from dataclasses import replace as changed

    state = new_game()
    assert GAME.phase_step(state) == 1
    assert [GAME.phase_step(changed(state, step=s)) for s in ("place", "bonus", "end", "over")] == [
        2,
        3,
        4,
        None,
    ]


def test_a_new_floor_revealed_lights_the_first_phase_led() -> None:
    """While a finished floor's tile waits to be revealed (step "end"), LED 1: the table is
    setting up again."""
    from dataclasses import replace as changed

    state = changed(new_game(), step="end", reveals=(0,))
    assert GAME.phase_step(state) == 1
