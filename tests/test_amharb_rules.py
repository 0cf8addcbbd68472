"""Towers of Am'harb: the rules engine against the rulebook.

Every worked example in the rulebook has a test citing its section; the Cosmic
Powers, edge spaces and set-up get hand-computed cases. Positions are built from
a real set-up and edited (see tests/amharb_helpers.py). Spaces read like a
chessboard seen from the south: files a-h west to east, ranks 1-8 south to north.

The default 4-player island (seat 0 on the south side, areas A-D = files ab, cd,
ef, gh; the west seat's areas A-D = ranks 87, 65, 43, 21):

    8  . . . A . . . .
    7  . A . . A . A .
    6  . . A . . A . .
    5  . A . . . . . A
    4  A . . . . . A .
    3  . . A . . A . .
    2  . A . A . . A .
    1  . . . . A . . .
       a b c d e f g h
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from companion.games.amharb.board import area_of, geometry, space_name
from companion.games.amharb.setup import data
from companion.games.amharb.state import (
    CULTIST,
    PRIEST,
    AmharbState,
    Disciple,
    MoveDisc,
    Pass,
    Place,
    Power,
    SkipPower,
)
from companion.games.base import BadSetup, IllegalMove, Setup
from tests.amharb_helpers import (
    GAME,
    altar_source,
    empty_names,
    names,
    new_game,
    play,
    powers,
    put,
    res,
    set_space,
    sq,
    take_plain_turn,
    turn,
    with_player,
)

CULT_NUMBER = {name: cult["number"] for name, cult in data()["cults"].items()}

# The south player's area B on the 4-player island: its 12 normal spaces.
AREA_B_NORMAL = {"c8", "c7", "d7", "d6", "c5", "d5", "c4", "d4", "d3", "c2", "c1", "d1"}


def strings(moves: object) -> set[str]:
    return {str(m) for m in moves}  # type: ignore[attr-defined]


def south_game(cult: str) -> tuple[AmharbState, int]:
    """A 4-player game on the default island where `cult` plays from the south side.

    Returns the state and that player's seat. The other seats get the lowest-numbered
    other cults; everyone's supply and resources are as set up (all resources 0).
    """
    others = [c for c in sorted(CULT_NUMBER, key=CULT_NUMBER.get) if c != cult][:3]
    cults = sorted([cult, *others], key=CULT_NUMBER.get)
    seat = cults.index(cult)
    state = new_game(*cults, south=seat)
    assert state.players[seat].side == "S"
    return state, seat


def place_moves_on(state: AmharbState, name: str) -> set[Place]:
    return {m for m in GAME.legal_moves(state) if isinstance(m, Place) and m.space == sq(name)}


def placeable_spaces(state: AmharbState) -> set[str]:
    return {space_name(m.space) for m in GAME.legal_moves(state) if isinstance(m, Place)}


# ---- Round Overview: the worked examples (Ana, Ben and Carl) --------------------------


def carl_game() -> AmharbState:
    """Ana, Ben and Carl (3 players); Carl is seat 2 and worships Cthugha, as in the examples.

    Carl plays from the north side, so his areas A-D are files gh, ef, cd, ab.
    """
    state = new_game(
        "yog-sothoth", "shub-niggurath", "cthugha", names="Ana,Ben,Carl"
    )
    assert [p.name for p in state.players] == ["Ana", "Ben", "Carl"]
    assert state.players[2].side == "N"
    # Carl's discs: L1 on B; L2 on top of L3 on C; L4 on D; A empty.
    return turn(with_player(state, 2, towers=((), (1,), (3, 2), (4,))), 2, "tower")


def test_carl_valid_disc_moves() -> None:
    """Am'harb: Round Overview, Island Areas, Carl's example (table of valid disc moves).

    L1 -> A, C, D; L2 -> A, D; L4 -> A only; L3 is covered by L2 and cannot move.
    """
    state = carl_game()
    assert strings(GAME.legal_moves(state)) == {
        "tower L1 B>A", "tower L1 B>C", "tower L1 B>D",
        "tower L2 C>A", "tower L2 C>D",
        "tower L4 D>A",
    }  # fmt: skip
    with pytest.raises(IllegalMove) as covered:
        GAME.apply(state, MoveDisc(3, 2, 0))
    assert covered.value.rule.endswith("Golden Rules of Tower Movement 1")
    with pytest.raises(IllegalMove) as smaller:
        GAME.apply(state, MoveDisc(2, 2, 1))  # L2 onto L1
    assert smaller.value.rule.endswith("Golden Rules of Tower Movement 3")


def test_carl_moves_l2_pays_and_places_priest() -> None:
    """Am'harb: Round Overview, Island Areas, Power Phase and 3.2 Pay Resources, Carl's example.

    Carl moves L2 onto L4 in area D, which becomes his active area; activates Cthugha
    with 2 red (a pyre on an altar of area D); then places a priest on an empty space
    with 4 surrounding disciples (one of them his own): cost 4 - 2 (stack height) = 2,
    paid yellow + blue; he gains the red tile on the space; his turn ends; Ana is next.
    """
    state = carl_game()
    state = put(state, a7="c0", c7="c1", c6="c2", b5="P0")  # the 4 disciples around b6
    state = set_space(state, "b6", resource="red")
    state = with_player(state, 2, resources=res(red=2, yellow=1, blue=1))

    state = play(state, "tower L2 C>D")
    assert state.players[2].towers == ((), (1,), (3,), (4, 2))
    assert state.active == (3,) and state.phase == "power"

    state = play(state, "pyre a5 pay red")
    assert state.spaces[sq("a5")].pyre == 2 and state.phase == "disciple"
    # 4 surrounding disciples (Carl's own c6 counts, the pyre on a5 does not) - height 2.
    assert place_moves_on(state, "b6") == {
        Place(PRIEST, sq("b6"), ("yellow", "blue")),
        Place(CULTIST, sq("b6"), ("yellow", "blue")),
    }

    state = play(state, "priest b6 pay yellow+blue")
    carl = state.players[2]
    assert state.spaces[sq("b6")].disciples == (Disciple(2, PRIEST),)
    assert state.spaces[sq("b6")].resource == ""
    assert carl.resources == res(red=1) and carl.priests == 2 and carl.cultists == 6
    assert (GAME.to_move(state), state.phase, state.active) == (0, "tower", ())


def test_payment_colours_in_any_order() -> None:
    """Am'harb: 3.2 Pay Resources — "Paid resources do NOT have to match in color".

    Carl's yellow + blue may be written blue + yellow: the same two tiles.
    """
    state = carl_game()
    state = put(state, a7="c0", c7="c1", c6="c2", b5="P0")
    state = with_player(state, 2, resources=res(yellow=1, blue=1))
    state = play(state, "tower L2 C>D", "no power", "priest b6 pay blue+yellow")
    assert state.players[2].resources[1:] == (0, 0)
    assert state.spaces[sq("b6")].disciples == (Disciple(2, PRIEST),)


# ---- Scoring: Altar Resolution, Hastur and Cthulhu ------------------------------------


def around_c4(state: AmharbState) -> AmharbState:
    """Ana 2, Ben 4, Carl 4 influence on the 3-player island's altar c4 (a 5 Doom altar)."""
    state = set_space(state, "c4", altar=5)
    return put(state, b5="c0", b4="c0", d5="P1", d4="c1", b3="P2", c3="c2")


def test_altar_tie_all_tied_players_score() -> None:
    """Am'harb: Scoring, Altar Resolution, example (Ana 2, Ben 4, Carl 4 influence).

    Ben and Carl tie for the highest influence: both receive the altar's 5 Doom.
    """
    state = around_c4(new_game("yog-sothoth", "shub-niggurath", "cthugha", names="Ana,Ben,Carl"))
    source = altar_source(state, "c4")
    assert source.measures == (2, 4, 4)
    assert source.points == (0, 5, 5)


def test_hastur_book_wins_the_tie() -> None:
    """Am'harb: Cosmic Power List, 7. Hastur, example.

    Same influences (Ana 2, Ben 4, Carl 4), but Ben worships Hastur and one of his
    disciples beside the altar sits on a Book tile: only Ben receives the 5 Doom.
    """
    state = around_c4(new_game("yog-sothoth", "hastur", "cthulhu", names="Ana,Ben,Carl"))
    assert altar_source(state, "c4").points == (0, 5, 5)  # no book yet: a plain tie
    state = set_space(state, "d4", book=True)  # under Ben's cultist
    source = altar_source(state, "c4")
    assert source.measures == (2, 4, 4)
    assert source.points == (0, 5, 0)
    assert "Hastur" in source.rule


def test_hastur_book_only_breaks_ties_hastur_is_in() -> None:
    """Am'harb: Cosmic Power List, 7. Hastur — "if you are tied for the highest influence".

    With Carl alone on top, the book beside the altar changes nothing.
    """
    state = around_c4(new_game("yog-sothoth", "hastur", "cthulhu", names="Ana,Ben,Carl"))
    state = set_space(put(state, d3="c2"), "d4", book=True)
    source = altar_source(state, "c4")
    assert source.measures == (2, 4, 5)
    assert source.points == (0, 0, 5)


def cursed_e5(state: AmharbState) -> AmharbState:
    """A Cthulhu cursed altar on e5 of the 3-player island (neighbours d6 e6 f6 d5 f5 d4 e4 f4)."""
    return set_space(state, "e5", cursed=True, resource="")


def test_hastur_book_on_a_cursed_altar() -> None:
    """Am'harb: Cosmic Power List, 8. Cthulhu, NOTE (and 7. Hastur, "This includes Cthulhu's
    Cursed Altar Tile"): tied on the cursed altar with a book beside it, only Hastur gets -2.
    """
    state = cursed_e5(new_game("yog-sothoth", "hastur", "cthulhu", names="Ana,Ben,Carl"))
    state = put(state, d5="P1", f5="P2", d6="c0")
    assert altar_source(state, "e5").points == (0, -2, -2)  # tie, no book: both
    state = set_space(state, "d5", book=True)
    source = altar_source(state, "e5")
    assert source.measures == (1, 3, 3)
    assert source.points == (0, -2, 0)


@pytest.mark.parametrize(
    ("disciples", "measures", "points"),
    [
        ({"d5": "P2", "f5": "c1", "d6": "c0"}, (1, 1, 3), (0, 0, -2)),  # Cthulhu's own curse
        ({"d5": "c2", "f5": "P1", "d6": "c0"}, (1, 3, 1), (0, -2, 0)),  # someone else's
        ({"d5": "c2", "f5": "c1", "d6": "c0"}, (1, 1, 1), (-2, -2, -2)),  # a three-way tie
    ],
)
def test_cthulhu_cursed_altar_hits_the_highest_influence(
    disciples: dict[str, str], measures: tuple[int, ...], points: tuple[int, ...]
) -> None:
    """Am'harb: Cosmic Power List, 8. Cthulhu — the players with the highest influence on the
    Cursed Altar (the Cthulhu player included) receive -2 Doom; all tied players do."""
    state = cursed_e5(new_game("yog-sothoth", "shub-niggurath", "cthulhu", names="Ana,Ben,Carl"))
    source = altar_source(put(state, **disciples), "e5")
    assert source.measures == measures
    assert source.points == points


# ---- Cosmic Power List: the examples and notes -----------------------------------------


def test_yog_sothoth_lock_example() -> None:
    """Am'harb: Cosmic Power List, 1. Yog-Sothoth, Ana's example.

    Ana places a Lock tile on an empty space of her active area, then places a disciple
    there normally (paying as usual). Only she may place on the lock. On a later turn she
    ignores her active area and places a disciple on the lock for free, without using the
    power again, and collects the resource underneath.
    """
    state = new_game("yog-sothoth", "dagon-hydra", names="Ana,Ben")  # Ana south, Ben west
    state = with_player(state, 0, resources=res(blue=2))
    state = set_space(state, "e4", resource="yellow")

    state = play(state, "tower L1 D>C")  # area C: files e-f
    assert Power("lock", "blue", space=sq("e4")) in powers(state)
    state = play(state, "lock e4 pay blue")
    assert state.spaces[sq("e4")].lock == 0 and state.players[0].tiles == 3
    # Ana may already use the lock this turn, for free; she places on f2 instead.
    assert Place(CULTIST, sq("e4")) in GAME.legal_moves(state)
    state = play(state, "cultist f2")
    assert state.spaces[sq("e4")].disciples == ()

    # Ben's active area (ranks 3-4, west player's area C) holds e4: he may not place there.
    state = play(state, "tower L1 D>C", "no power")
    assert 0 < len(placeable_spaces(state)) and "e4" not in placeable_spaces(state)
    with pytest.raises(IllegalMove) as locked:
        GAME.apply(state, Place(CULTIST, sq("e4")))
    assert "3.1 Choose a Space" in locked.value.rule
    state = play(state, "cultist a3")

    # Ana's later turn: active area A (files a-b); e4 is far outside it.
    state = with_player(play(state, "tower L1 C>A", "no power"), 0, resources=res())
    assert place_moves_on(state, "e4") == {Place(PRIEST, sq("e4")), Place(CULTIST, sq("e4"))}
    state = play(state, "priest e4")
    assert state.spaces[sq("e4")].disciples == (Disciple(0, PRIEST),)
    assert state.players[0].resources == res(yellow=1)
    assert GAME.to_move(state) == 1


def shub_game() -> AmharbState:
    """Ben worships Shub-Niggurath and plays from the south (4 players, Ben is seat 1)."""
    state = new_game(
        "yog-sothoth", "shub-niggurath", "dagon-hydra", "cthulhu", south=1, names="Ana,Ben,Cy,Dee"
    )
    assert state.players[1].side == "S" and state.players[1].name == "Ben"
    return state


def test_shub_niggurath_example_and_stacked_cost() -> None:
    """Am'harb: Cosmic Power List, 3. Shub-Niggurath, Ben's example and note 3.

    Ben moves a disc to area B, moves his priest from area D onto his cultist in area B,
    then pays and places another disciple on a different space of area B. The stacked
    space counts as ONE occupied space for the cost: d5 has 3 occupied neighbours (4
    disciples), so with a stack of 1 it costs 2, which Ben can just pay.
    """
    state = put(shub_game(), g5="P1", d4="c1", c5="c0", e5="c2")
    state = turn(with_player(state, 1, resources=res(red=2, yellow=1, blue=1)), 1, "tower")
    state = play(state, "tower L1 D>B", "stack priest g5>d4 pay red")
    assert state.spaces[sq("g5")].disciples == ()
    assert state.spaces[sq("d4")].disciples == (Disciple(1, CULTIST), Disciple(1, PRIEST))
    assert place_moves_on(state, "d5") == {
        Place(PRIEST, sq("d5"), ("yellow", "blue")),
        Place(CULTIST, sq("d5"), ("yellow", "blue")),
    }
    state = play(state, "cultist d5 pay yellow+blue")
    assert state.spaces[sq("d5")].disciples == (Disciple(1, CULTIST),)


def test_shub_niggurath_stack_gives_all_its_influence() -> None:
    """Am'harb: Cosmic Power List, 3. Shub-Niggurath — "all disciples in this one space will
    provide influence to surrounding altars": a priest and a cultist on d4 give 4 to c3."""
    state = put(shub_game(), d4="c1 P1", b3="P0")
    assert altar_source(state, "c3").measures == (3, 4, 0, 0)
    assert altar_source(state, "c3").points == (0, 5, 0, 0)  # c3: a large altar


def test_shub_niggurath_no_two_priests_but_more_than_two_disciples() -> None:
    """Am'harb: Cosmic Power List, 3. Shub-Niggurath, notes 1 and 2.

    A priest may not join a space holding a priest (anyone's); a third disciple may join.
    """
    state = put(shub_game(), g5="P1", h4="c1", d4="c1 P1", c4="P0")
    state = turn(with_player(state, 1, resources=res(red=2)), 1, "power", "B")
    moving_priest = {m for m in powers(state) if m.origin == sq("g5")}
    assert names(m.space for m in moving_priest) == set()  # d4 and c4 both hold a priest
    with pytest.raises(IllegalMove) as two_priests:
        play(state, "stack priest g5>d4 pay red")
    assert "3. Shub-Niggurath" in two_priests.value.rule
    state = play(state, "stack cultist h4>d4 pay red")
    assert state.spaces[sq("d4")].disciples == (
        Disciple(1, CULTIST), Disciple(1, PRIEST), Disciple(1, CULTIST)
    )


def test_dagon_hydra_move_is_free_and_gains_nothing() -> None:
    """Am'harb: Cosmic Power List, 4. Dagon & Hydra — move a disciple from anywhere to an
    Empty Space of the active area: no cost to pay, no resource gained (the tile stays)."""
    state, me = south_game("dagon-hydra")
    # c7 would cost 3 (c8, d7, d6 occupied) - 1 = 2 resources to place on; Dagon has none spare.
    state = put(state, a5=f"P{me}", c8="c3", d7="c3", d6="c3")
    state = set_space(state, "c7", resource="yellow")
    state = turn(with_player(state, me, resources=res(red=2)), me, "power", "B")
    state = with_player(state, me, towers=((), (1,), (), (4, 3, 2)))
    state = play(state, f"shift priest a5>c7 pay red")
    assert state.spaces[sq("a5")].disciples == ()
    assert state.spaces[sq("c7")].disciples == (Disciple(me, PRIEST),)
    assert state.spaces[sq("c7")].resource == "yellow"
    assert state.players[me].resources == res()
    assert state.phase == "disciple" and "c7" not in placeable_spaces(state)


def test_nyarlathotep_exchange() -> None:
    """Am'harb: Cosmic Power List, 5. Nyarlathotep — exchange one of your priests with one of
    your cultists; one of them must be in the active area, the other may be anywhere."""
    state, me = south_game("nyarlathotep")
    state = put(state, a5=f"P{me}", c4=f"P{me}", d4=f"c{me}", h8=f"c{me}")
    state = turn(with_player(state, me, resources=res(red=2)), me, "power", "B")
    assert altar_source(state, "c3").measures[me] == 3 + 1  # c4 priest, d4 cultist
    state = play(state, "exchange a5<>d4 pay red")
    assert state.spaces[sq("a5")].disciples == (Disciple(me, CULTIST),)
    assert state.spaces[sq("d4")].disciples == (Disciple(me, PRIEST),)
    assert altar_source(state, "c3").measures[me] == 3 + 3
    assert (state.players[me].priests, state.players[me].cultists) == (3, 6)  # supply untouched
    with pytest.raises(IllegalMove):  # neither a5 nor h8 is in area B
        play(turn(state, me, "power", "B"), "exchange a5<>h8 pay red")


def test_cthugha_pyre_adds_influence_not_cost() -> None:
    """Am'harb: Cosmic Power List, 6. Cthugha — a pyre on an altar of the active area gives
    its owner 1 influence there; one pyre per altar; pyres do not count toward the cost."""
    state, me = south_game("cthugha")
    other = (me + 1) % 4
    state = put(state, d3=f"c{me}", c4=f"c{other}", e4=f"c{other}")
    state = with_player(state, me, resources=res(red=2, yellow=2), towers=((), (1,), (), (4, 3, 2)))
    state = turn(state, me, "power", "B")
    before = altar_source(state, "c3")
    assert before.measures[me] == before.measures[other] == 1
    assert before.points[me] == before.points[other] == 5  # a tie on a large altar

    state = play(state, "pyre c3 pay red")
    after = altar_source(state, "c3")
    assert (after.measures[me], after.measures[other]) == (2, 1)
    assert after.points[me] == 5 and after.points[other] == 0
    assert state.players[me].tiles == 2
    # d4 has c4, d3, e4 occupied and the pyred altar c3 beside it: 3 - 1 = 2, two yellows.
    assert place_moves_on(state, "d4") == {
        Place(PRIEST, sq("d4"), ("yellow", "yellow")),
        Place(CULTIST, sq("d4"), ("yellow", "yellow")),
    }
    # A second pyre on c3, on a later turn: not allowed.
    again = turn(with_player(state, me, resources=res(red=2)), me, "power", "B")
    assert Power("pyre", "red", space=sq("c3")) not in powers(again)
    assert names(m.space for m in powers(again)) == {"d8", "c6", "d2"}


def test_nyog_sothep_rearrange_activates_every_area_with_discs() -> None:
    """Am'harb: Cosmic Power List, 2. Nyog Sothep — rearrange all discs (Golden Rules apply);
    every area holding a disc is active this turn; each placement is offset by the stack in
    the placed space's own area."""
    state, me = south_game("nyog-sothep")
    # b6 (area A) and e5 (area C) each have 3 occupied neighbours.
    state = put(state, a7="c3", c7="c3", a5="c3", d6="c3", e6="c3", d4="c3")
    state = with_player(state, me, resources=res(red=2, yellow=1))
    state = turn(state, me, "tower")
    state = play(state, "tower L1 D>B")
    with pytest.raises(IllegalMove):  # L2 on top of L1: not a Golden-Rules arrangement
        play(state, Power("rearrange", "red", towers=((4, 3), (), (1, 2), ())))
    state = play(state, "rearrange a:43 c:2 d:1 pay red")
    assert state.players[me].towers == ((4, 3), (), (2,), (1,))
    assert state.active == (0, 2, 3)
    spaces = placeable_spaces(state)
    assert {area_of("S", sq(s)) for s in spaces} == {0, 2, 3}  # A, C, D; not B
    # b6: 3 - 2 (stack in A) = 1, affordable with the 1 yellow left.
    assert place_moves_on(state, "b6") == {
        Place(PRIEST, sq("b6"), ("yellow",)),
        Place(CULTIST, sq("b6"), ("yellow",)),
    }
    # e5: 3 - 1 (stack in C) = 2: not affordable.
    assert "e5" not in spaces and "e5" in empty_names(state, "C")


# ---- Cosmic Powers: hand-counted legal moves ------------------------------------------
# The power's owner plays from the south; its active area is B (files c-d), whose normal
# spaces are AREA_B_NORMAL and whose altars are d8, c6, c3 and d2.


def test_yog_sothoth_lock_choices() -> None:
    """Am'harb: Cosmic Power List, 1. Yog-Sothoth — a lock on any empty space of the active
    area, for each colour held twice: 10 empty spaces x 2 colours = 20."""
    state, me = south_game("yog-sothoth")
    state = put(state, c5="c3", d4=f"c{me}")
    state = turn(with_player(state, me, resources=res(red=2, yellow=3, blue=1)), me, "power", "B")
    moves = powers(state)
    assert len(moves) == 20
    assert names(m.space for m in moves) == AREA_B_NORMAL - {"c5", "d4"}
    assert {m.colour for m in moves} == {"red", "yellow"}
    # No lock tiles left: no power.
    assert GAME.legal_moves(with_player(state, me, tiles=0)) == (SkipPower(),)


def test_nyog_sothep_arrangements() -> None:
    """Am'harb: Cosmic Power List, 2. Nyog Sothep — every arrangement of the 4 discs over the
    4 areas with larger under smaller: 4^4 = 256 (each disc picks an area; the stack order is
    then forced), for each of 2 colours held twice."""
    state, me = south_game("nyog-sothep")
    state = turn(with_player(state, me, resources=res(red=2, blue=3)), me, "power", "B")
    moves = powers(state)
    assert len(moves) == 2 * 256
    arrangements = {m.towers for m in moves}
    assert len(arrangements) == 256
    for towers in arrangements:
        assert sorted(d for stack in towers for d in stack) == [1, 2, 3, 4]
        assert all(list(stack) == sorted(stack, reverse=True) for stack in towers)


def test_shub_niggurath_stack_choices() -> None:
    """Am'harb: Cosmic Power List, 3. Shub-Niggurath — own disciple from anywhere onto an
    occupied space of the active area, never a priest onto a priest.

    Own: priest a5 (area A), cultist d4 (B); others: cultist c5, priest d6 (B).
    priest a5 -> d4, c5 (not d6); cultist d4 -> c5, d6: 4 moves, 1 colour.
    """
    state, me = south_game("shub-niggurath")
    other = (me + 1) % 4
    state = put(state, a5=f"P{me}", d4=f"c{me}", c5=f"c{other}", d6=f"P{other}")
    state = turn(with_player(state, me, resources=res(red=2, yellow=1)), me, "power", "B")
    assert strings(powers(state)) == {
        "stack priest a5>d4 pay red",
        "stack priest a5>c5 pay red",
        "stack cultist d4>c5 pay red",
        "stack cultist d4>d6 pay red",
    }


def test_dagon_hydra_shift_choices() -> None:
    """Am'harb: Cosmic Power List, 4. Dagon & Hydra — own disciple from anywhere to an empty
    space of the active area: 2 disciples x 9 empty spaces x 2 colours = 36."""
    state, me = south_game("dagon-hydra")
    other = (me + 1) % 4
    state = put(state, a5=f"P{me}", d4=f"c{me}", c5=f"c{other}", d6=f"P{other}")
    state = turn(with_player(state, me, resources=res(red=2, blue=2)), me, "power", "B")
    moves = powers(state)
    assert len(moves) == 36
    assert {(space_name(m.origin), m.disciple) for m in moves} == {
        ("a5", PRIEST), ("d4", CULTIST)
    }
    assert names(m.space for m in moves) == AREA_B_NORMAL - {"d4", "c5", "d6"}


def test_nyarlathotep_exchange_choices() -> None:
    """Am'harb: Cosmic Power List, 5. Nyarlathotep — priest/cultist pairs with at least one
    in the active area. Priests a5 (A), c4 (B); cultists d4 (B), h8 (D): 3 pairs, not a5-h8."""
    state, me = south_game("nyarlathotep")
    state = put(state, a5=f"P{me}", c4=f"P{me}", d4=f"c{me}", h8=f"c{me}")
    state = turn(with_player(state, me, resources=res(red=2)), me, "power", "B")
    assert strings(powers(state)) == {
        "exchange a5<>d4 pay red",
        "exchange c4<>d4 pay red",
        "exchange c4<>h8 pay red",
    }


def test_cthugha_pyre_choices() -> None:
    """Am'harb: Cosmic Power List, 6. Cthugha — a pyre on any altar of the active area without
    one: area B has 4 altars, c6 already has a pyre: 3 altars x 2 colours = 6."""
    state, me = south_game("cthugha")
    state = set_space(state, "c6", pyre=me)
    state = with_player(state, me, tiles=2, resources=res(red=2, yellow=2))
    moves = powers(turn(state, me, "power", "B"))
    assert len(moves) == 6
    assert names(m.space for m in moves) == {"d8", "c3", "d2"}


def test_hastur_book_choices() -> None:
    """Am'harb: Cosmic Power List, 7. Hastur — a book under one of your disciples in the active
    area: own d4 and c5 qualify (c4 already has a book, a5 is outside, d6 is not Hastur's):
    2 spaces x 2 colours = 4."""
    state, me = south_game("hastur")
    other = (me + 1) % 4
    state = put(state, d4=f"c{me}", c5=f"P{me}", c4=f"c{me}", a5=f"c{me}", d6=f"P{other}")
    state = set_space(state, "c4", book=True)
    state = turn(with_player(state, me, tiles=3, resources=res(red=2, blue=2)), me, "power", "B")
    moves = powers(state)
    assert len(moves) == 4 and names(m.space for m in moves) == {"d4", "c5"}
    state = play(state, "book d4 pay blue")
    assert state.spaces[sq("d4")].book and state.players[me].tiles == 2


def test_cthulhu_curse_choices_and_effect() -> None:
    """Am'harb: Cosmic Power List, 8. Cthulhu — a cursed altar on any empty space of the
    active area: 10 empty spaces x 3 colours = 30. The resource under it goes to the box,
    the space is no longer empty, and it is scored as a -2 altar."""
    state, me = south_game("cthulhu")
    other = (me + 1) % 4
    state = put(state, c5=f"c{other}", d4=f"c{me}")
    state = turn(with_player(state, me, resources=res(red=2, yellow=2, blue=2)), me, "power", "B")
    moves = powers(state)
    assert len(moves) == 30
    assert names(m.space for m in moves) == AREA_B_NORMAL - {"c5", "d4"}
    state = play(state, "curse d5 pay blue")
    cursed = state.spaces[sq("d5")]
    assert cursed.cursed and cursed.resource == "" and cursed.disciples == ()
    assert state.players[me].resources == res(red=2, yellow=2) and state.players[me].tiles == 3
    assert "d5" not in placeable_spaces(state)
    source = altar_source(state, "d5")  # c5 and d4 each hold one cultist: a tie
    assert source.points[me] == source.points[other] == -2
