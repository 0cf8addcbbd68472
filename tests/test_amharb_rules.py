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
from collections.abc import Iterable

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

CULT_NUMBER: dict[str, int] = {name: cult["number"] for name, cult in data()["cults"].items()}

# The south player's area B on the 4-player island: its 12 normal spaces.
AREA_B_NORMAL = {"c8", "c7", "d7", "d6", "c5", "d5", "c4", "d4", "d3", "c2", "c1", "d1"}


def strings(moves: Iterable[object]) -> set[str]:
    """The moves in their text form ("tower L1 B>A")."""
    return {str(m) for m in moves}


def south_game(cult: str) -> tuple[AmharbState, int]:
    """A 4-player game on the default island where `cult` plays from the south side.

    Returns the state and that player's seat. The other seats get the lowest-numbered
    other cults; everyone's supply and resources are as set up (all resources 0).
    """
    others = [c for c in sorted(CULT_NUMBER, key=CULT_NUMBER.__getitem__) if c != cult][:3]
    cults = sorted([cult, *others], key=CULT_NUMBER.__getitem__)
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
    state = new_game("yog-sothoth", "shub-niggurath", "cthugha", names="Ana,Ben,Carl")
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

    Holding 2 red, 1 yellow and 1 blue, Carl can pay b6's cost of 2 in exactly four ways
    (red+red, red+yellow, red+blue, yellow+blue), never more tiles than the cost; and
    yellow + blue may be written blue + yellow: the same two tiles.
    """
    state = carl_game()
    state = put(state, a7="c0", c7="c1", c6="c2", b5="P0")
    state = set_space(state, "b6", resource="red")
    state = with_player(state, 2, resources=res(red=2, yellow=1, blue=1))
    state = play(state, "tower L2 C>D", "no power")
    assert {m.payment for m in place_moves_on(state, "b6") if m.kind == PRIEST} == {
        ("red", "red"), ("red", "yellow"), ("red", "blue"), ("yellow", "blue")
    }  # fmt: skip
    state = play(state, "priest b6 pay blue+yellow")
    assert state.players[2].resources == res(red=3)  # 2 kept, 1 gained from b6
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
    elsewhere in the active area by the usual rules. Only she may place on the lock. On a later turn she
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
        Disciple(1, CULTIST),
        Disciple(1, PRIEST),
        Disciple(1, CULTIST),
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
    state = play(state, "shift priest a5>c7 pay red")
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
    assert {(space_name(m.origin), m.disciple) for m in moves} == {("a5", PRIEST), ("d4", CULTIST)}
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


# ---- Edge spaces: three, five, six or seven surrounding spaces --------------------------


@pytest.mark.parametrize(
    ("players", "space", "surrounding"),
    [
        (4, "h1", {"g1", "g2", "h2"}),  # corner
        (4, "a8", {"b8", "a7", "b7"}),  # corner
        (4, "h6", {"h7", "g7", "g6", "g5", "h5"}),  # east side
        (4, "e1", {"d1", "f1", "d2", "e2", "f2"}),  # south side
        (2, "h4", {"g4", "g3", "h3"}),  # the L-shaped island's east corner
        (2, "d4", {"c5", "d5", "c4", "e4", "c3", "d3", "e3"}),  # inside corner: 7
        (2, "d5", {"c6", "d6", "c5", "c4", "d4", "e4"}),  # beside it: 6
        (2, "e4", {"d5", "d4", "f4", "d3", "e3", "f3"}),  # beside it: 6
        (3, "h7", {"g8", "h8", "g7"}),  # the notch in the 3-player island's east side
        (3, "g7", {"f8", "g8", "h8", "f7", "h7", "f6"}),
        (3, "f7", {"e8", "f8", "g8", "e7", "g7", "e6", "f6"}),
    ],
)
def test_surrounding_spaces_at_the_edge(players: int, space: str, surrounding: set[str]) -> None:
    """Am'harb: Introduction of Components, "Surrounding" — up to eight orthogonal and diagonal
    neighbours; spaces along the outermost edge have only three, five, six or seven."""
    state = GAME.initial_state(Setup(players))
    assert names(geometry(state.board).surrounding[sq(space)]) == surrounding


@pytest.mark.parametrize(
    ("players", "six", "seven"),
    [(2, {"d5", "e4"}, {"d4"}), (3, {"g7", "f6", "f3", "g2"}, {"f7", "f2"}), (4, set(), set())],
)
def test_six_and_seven_neighbour_spaces(players: int, six: set[str], seven: set[str]) -> None:
    """Am'harb: "Surrounding" — the 2- and 3-player islands are not square, so spaces by their
    inside corners have six or seven surrounding spaces; the square 4-player island has none."""
    geo = geometry(GAME.initial_state(Setup(players)).board)
    count = {space_name(i): len(geo.surrounding[i]) for i in geo.spaces() if geo.exists[i]}
    assert {s for s, n in count.items() if n == 6} == six
    assert {s for s, n in count.items() if n == 7} == seven
    assert set(count.values()) <= {3, 5, 6, 7, 8}


@pytest.mark.parametrize(
    ("players", "space", "occupied", "elsewhere"),
    [
        (4, "h1", ["g1", "h2"], ["a1"]),  # corner; a1 is h1's index neighbour (8 x 8 wrap)
        (4, "h6", ["h7", "g6", "g5"], ["a5", "a7"]),  # side; a5 and a7 likewise
        (3, "h7", ["g8", "h8"], ["a6", "a7"]),  # 3 surrounding spaces
        (3, "f7", ["e8", "g8", "e7", "f6"], ["h6"]),  # 7; h6 lies off the island
        (2, "d4", ["d5", "c4", "e4", "d3"], ["f5", "f4"]),  # 7
        (2, "e4", ["d5", "d4", "f4", "d3", "f3"], ["e6", "g5"]),  # 6
    ],
)
def test_edge_placement_cost_counts_only_surrounding_spaces(
    players: int, space: str, occupied: list[str], elsewhere: list[str]
) -> None:
    """Am'harb: 3.2 Pay Resources — 1 per occupied surrounding space minus the stack height
    (1 here), edge spaces having fewer surrounding spaces; disciples elsewhere do not count."""
    state = GAME.initial_state(Setup(players))
    geo = geometry(state.board)
    area = area_of("S", sq(space))
    towers = tuple((1,) if a == area else (4, 3, 2) if a == (area + 1) % 4 else () for a in range(4))
    state = with_player(state, 0, towers=towers, resources=res(red=9))
    state = turn(state, 0, "disciple", "ABCD"[area])
    for name in occupied + [e for e in elsewhere if geo.exists[sq(e)]]:
        state = put(state, **{name: "c1"})
    cost = len(occupied) - 1
    assert place_moves_on(state, space) == {
        Place(PRIEST, sq(space), ("red",) * cost),
        Place(CULTIST, sq(space), ("red",) * cost),
    }


def test_edge_altars_take_influence_only_from_surrounding_spaces() -> None:
    """Am'harb: Altar tile, Doom Points — influence comes from the (here five) surrounding
    spaces; h6 touches h5 but not a4, and a5/a3 touch a4 but not h5 (no wrapping around)."""
    state = put(new_game("yog-sothoth", "nyog-sothep", "shub-niggurath", "dagon-hydra"),
                h6="c0", a5="P1", a3="P1")  # fmt: skip
    assert altar_source(state, "h5").measures == (1, 0, 0, 0)
    assert altar_source(state, "a4").measures == (0, 6, 0, 0)


def test_six_neighbour_altar_influence() -> None:
    """Am'harb: "Surrounding" — the 3-player altar g7 has six surrounding spaces (one of them
    an altar): cultists on its five normal ones give 5 influence."""
    state = new_game("yog-sothoth", "nyog-sothep", "shub-niggurath")
    state = put(state, g8="c1", h8="c1", f7="c1", h7="c1", f6="c1")
    assert altar_source(state, "g7").measures == (0, 5, 0)


# ---- Round Overview: the Disciple Phase and the Power Phase -----------------------------


def crowded_area_b(resources: tuple[int, int, int]) -> AmharbState:
    """South seat 0's disciple phase in area B (stack of 1), where only c8 and d1 are empty,
    each with two occupied neighbours: both cost 2 - 1 = 1."""
    state, me = south_game("yog-sothoth")
    full = AREA_B_NORMAL - {"c8", "d1"}
    state = put(state, **{name: "c1" for name in full})
    state = with_player(state, me, towers=((), (1,), (), (4, 3, 2)), resources=resources)
    return turn(state, me, "disciple", "B")


def test_pass_only_when_nothing_is_affordable() -> None:
    """Am'harb: 3. Disciple Phase, Note — "If and only if you cannot afford to pay for placement
    anywhere within your active area, you may then pass"."""
    assert GAME.legal_moves(crowded_area_b(res())) == (Pass(),)
    assert GAME.to_move(play(crowded_area_b(res()), "pass")) == 1

    state = crowded_area_b(res(blue=1))
    assert set(GAME.legal_moves(state)) == {
        Place(kind, sq(s), ("blue",)) for kind in (PRIEST, CULTIST) for s in ("c8", "d1")
    }
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, Pass())
    assert "Disciple Phase, Note" in refused.value.rule


def test_yog_sothoth_may_pass_or_use_its_lock_when_the_active_area_is_unaffordable() -> None:
    """Am'harb: 3. Disciple Phase, Note, with 1. Yog-Sothoth — the Lock placement is a "may"
    ("you may ignore your active area"), so when nothing in the active area is affordable
    Yog-Sothoth may pass or place on its Lock for free (docs/decisions.md)."""
    state = set_space(crowded_area_b(res()), "g2", lock=0, resource="red")
    assert set(GAME.legal_moves(state)) == {Place(PRIEST, sq("g2")), Place(CULTIST, sq("g2")), Pass()}
    # With an affordable space in the active area the phase is mandatory: no pass.
    state = set_space(crowded_area_b(res(blue=1)), "g2", lock=0)
    assert Pass() not in GAME.legal_moves(state) and Place(CULTIST, sq("g2")) in GAME.legal_moves(state)


def test_no_empty_space_only_pass() -> None:
    """Am'harb: 3.1 Choose a Space, Note — no empty space in the active area: skip the phase
    (whatever the player holds)."""
    state = crowded_area_b(res(red=5, yellow=5, blue=5))
    state = put(state, c8="c2", d1="c2")
    assert GAME.legal_moves(state) == (Pass(),)


def test_free_placement_gives_no_refund() -> None:
    """Am'harb: 3.2 Pay Resources — placing can be free, but a stack higher than the cost gives
    nothing back; the player still gains the resource on the space (3.3 Place & Gain)."""
    state, me = south_game("yog-sothoth")
    state = put(state, c5="c1")
    state = set_space(state, "d5", resource="blue")
    state = with_player(state, me, towers=((), (4, 3, 2, 1), (), ()), resources=res(red=1))
    state = turn(state, me, "disciple", "B")
    assert place_moves_on(state, "d5") == {Place(PRIEST, sq("d5")), Place(CULTIST, sq("d5"))}
    state = play(state, "priest d5")
    assert state.players[me].resources == res(red=1, blue=1)


def test_power_needs_two_resources_of_one_colour() -> None:
    """Am'harb: 2. Power Phase — "paying 2 resources of the same color"."""
    state, me = south_game("cthulhu")
    state = turn(with_player(state, me, resources=res(red=1, yellow=1, blue=1)), me, "power", "B")
    assert GAME.legal_moves(state) == (SkipPower(),)
    with pytest.raises(IllegalMove) as refused:
        play(state, "curse c7 pay red")
    assert refused.value.rule.endswith("Power Phase")

    state = with_player(state, me, resources=res(red=1, yellow=2, blue=1))
    assert {m.colour for m in powers(state)} == {"yellow"}


def test_power_only_once_per_turn() -> None:
    """Am'harb: 2. Power Phase — "You can only activate your cosmic power once per turn";
    after it the player still carries out the Disciple Phase."""
    state, me = south_game("cthulhu")
    state = turn(with_player(state, me, resources=res(red=2, yellow=2)), me, "power", "B")
    state = play(state, "curse c7 pay yellow")
    assert state.phase == "disciple" and GAME.to_move(state) == me
    assert not any(isinstance(m, Power) for m in GAME.legal_moves(state))
    with pytest.raises(IllegalMove) as again:
        play(state, "curse c8 pay red")
    assert again.value.rule.endswith("Round Overview")


# ---- End of Game and Determine Winner ---------------------------------------------------


@pytest.mark.parametrize(("players", "after"), [(2, [0]), (3, [2, 0]), (4, [2, 3, 0])])
def test_last_disciple_gives_everyone_else_one_more_turn(players: int, after: list[int]) -> None:
    """Am'harb: End of Game — when a player places their last disciple, all other players each
    have one more turn (even if one of them also runs out), then the game ends."""
    cults = ("yog-sothoth", "nyog-sothep", "shub-niggurath", "dagon-hydra")[:players]
    state = new_game(*cults)
    for seat in range(players):
        state = with_player(state, seat, priests=0, cultists=1)
    state = turn(state, 1, "tower")
    movers: list[int] = []
    for _ in range(players + 1):
        mover = GAME.to_move(state)
        if mover is None:
            break
        movers.append(mover)
        state = take_plain_turn(state)
        assert state.players[mover].disciples_left == 0  # each turn placed a disciple
        if len(movers) == 1:  # seat 1 ran out: the others' last turns are queued
            assert (state.current, state.last_turns) == (after[0], tuple(after[1:]))
    assert movers == [1, *after]
    assert GAME.to_move(state) is None and state.phase == "over"
    assert GAME.legal_moves(state) == ()
    assert GAME.score(state).final
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.apply(state, MoveDisc(1, 3, 0))


def test_winner_tie_goes_to_smallest_cult_number() -> None:
    """Am'harb: Scoring, Determine Winner — on equal Doom the smallest turn-order number (the
    earlier seat) wins."""
    state = new_game("yog-sothoth", "nyog-sothep", "shub-niggurath", "dagon-hydra")
    assert state.spaces[sq("f3")].altar == state.spaces[sq("c6")].altar == 5
    for altar in ("e1", "d2", "d8", "e7"):
        state = set_space(state, altar, altar=4)
    # Seat 2 on e2 holds e1, d2, f3; seat 3 on d7 holds d8, e7, c6: 4 + 4 + 5 Doom each.
    state = put(state, e2="c2", d7="c3")
    sheet = GAME.score(state)
    assert [(s.seat, s.place, s.total) for s in sheet.standings] == [
        (2, 1, 13), (3, 2, 13), (0, 3, 0), (1, 4, 0)
    ]  # fmt: skip
    assert "cult number" in sheet.standings[0].note
    ahead = GAME.score(put(state, a8="c3"))  # seat 3 takes b7 as well
    assert [s.seat for s in ahead.standings] == [3, 2, 0, 1]


# ---- Game Setup -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "altars", "normals", "per_colour", "medium_small"),
    [(2, 12, 36, 12, 4), (3, 14, 42, 14, 5), (4, 16, 48, 16, 6)],
)
def test_setup_component_counts(
    players: int, altars: int, normals: int, per_colour: int, medium_small: int
) -> None:
    """Am'harb: Game Setup 2 and 3 — one resource tile on each normal space (12/14/16 of each
    colour on the first game) and the altar tiles of the player count on the altar spaces:
    4 large and 4/5/6 medium and small."""
    state = GAME.initial_state(Setup(players))
    geo = geometry(state.board)
    altar_spaces = [i for i in geo.spaces() if geo.altar_space[i]]
    normal_spaces = [i for i in geo.spaces() if geo.exists[i] and not geo.altar_space[i]]
    assert (len(altar_spaces), len(normal_spaces)) == (altars, normals)
    assert Counter(state.spaces[i].resource for i in normal_spaces) == {
        "red": per_colour, "yellow": per_colour, "blue": per_colour
    }  # fmt: skip
    assert all(state.spaces[i].altar == 0 for i in normal_spaces)
    assert Counter(state.spaces[i].altar for i in altar_spaces) == {
        5: 4, 4: medium_small, 3: medium_small
    }  # fmt: skip
    assert all(not state.spaces[i].disciples for i in geo.spaces())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_large_altars_never_on_the_edge(players: int) -> None:
    """Am'harb: Game Setup 3, Note — the large altars (5 Doom) are NEVER on the outermost edge,
    in the first-game set-up or a random one."""
    layouts = set()
    for seed in range(40):
        for altars in ("first-game", "random"):
            state = GAME.initial_state(Setup(players, {"altars": altars, "seed": str(seed)}))
            geo = geometry(state.board)
            large = frozenset(i for i, s in enumerate(state.spaces) if s.altar == 5)
            assert len(large) == 4
            assert all(len(geo.surrounding[i]) == 8 for i in large)
            if altars == "random":
                layouts.add(large)
    assert len(layouts) > 1  # random really varies


@pytest.mark.parametrize(
    ("players", "centremost"),
    [
        (2, {"c5", "c3", "e3", "b2"}),
        (3, {"c5", "c4", "e6", "e3"}),
        (4, {"c6", "f6", "c3", "f3"}),
    ],
)
def test_first_game_large_altars_on_the_centremost_altar_spaces(players: int, centremost: set[str]) -> None:
    """Am'harb: Game Setup 3 — on the first game the large altars go on the four centremost
    altar spaces. Measured from the island's centre, the 4th and 5th nearest altar spaces
    are clearly apart, so "centremost" is not ambiguous on any default island."""
    state = GAME.initial_state(Setup(players))
    geo = geometry(state.board)
    assert names(i for i, s in enumerate(state.spaces) if s.altar == 5) == centremost
    cells = [divmod(i, 8) for i in geo.spaces() if geo.exists[i]]
    centre = (sum(r for r, _ in cells) / len(cells), sum(c for _, c in cells) / len(cells))
    distance = sorted(
        (r - centre[0]) ** 2 + (c - centre[1]) ** 2
        for i in geo.spaces()
        if geo.altar_space[i]
        for r, c in [divmod(i, 8)]
    )
    assert distance[4] - distance[3] >= 1.0  # squared distances, in spaces


def test_large_altar_on_the_edge_is_refused() -> None:
    """Am'harb: Game Setup 3, Note — an explicit altar layout with a 5 on the edge is refused."""
    geo = geometry(GAME.initial_state(Setup(4)).board)
    altar_spaces = [i for i in geo.spaces() if geo.altar_space[i]]  # reading order
    assert space_name(altar_spaces[0]) == "d8" and geo.on_edge(altar_spaces[0])
    assert space_name(altar_spaces[1]) == "b7" and not geo.on_edge(altar_spaces[1])
    with pytest.raises(BadSetup, match="edge"):
        GAME.initial_state(Setup(4, {"altar_tiles": "5" + "3" * 15}))
    accepted = GAME.initial_state(Setup(4, {"altar_tiles": "35" + "3" * 14}))
    assert accepted.spaces[sq("b7")].altar == 5


@pytest.mark.parametrize(("players", "sides"), [(2, "SW"), (3, "SWN"), (4, "SWNE")])
def test_seating_and_starting_discs(players: int, sides: str) -> None:
    """Am'harb: Game Setup 4, 6 and 7 — seats clockwise by cult number, smallest first; players
    on different sides (2 players on adjacent sides, not across); each player's 4 discs in one
    stack (L4 at the bottom) on the rightmost area, D; 3 priests and 6 cultists each."""
    cults = ["cthulhu", "hastur", "nyog-sothep", "cthugha"][:players]  # not in number order
    given = ["Ana", "Ben", "Carl", "Dee"][:players]
    state = GAME.initial_state(Setup(players, {"cults": ",".join(cults), "names": ",".join(given)}))
    numbers = [CULT_NUMBER[p.cult] for p in state.players]
    assert numbers == sorted(numbers)
    assert {p.name: p.cult for p in state.players} == dict(zip(given, cults, strict=True))
    assert "".join(p.side for p in state.players) == sides  # S, W, N, E is clockwise
    if players == 2:
        assert {p.side for p in state.players} not in ({"S", "N"}, {"W", "E"})
    assert GAME.to_move(state) == 0 and state.phase == "tower"
    for p in state.players:
        assert p.towers == ((), (), (), (4, 3, 2, 1))
        assert (p.priests, p.cultists, p.resources) == (3, 6, res())
    tiles = {"cthulhu": 4, "hastur": 4, "cthugha": 3, "nyog-sothep": 0}
    assert {p.cult: p.tiles for p in state.players} == {c: tiles[c] for c in cults}


# ---- IllegalMove: refused with the rule that forbids the move ---------------------------


def opening() -> AmharbState:
    """Seat 0 (south, Yog-Sothoth) at the start of the game."""
    return new_game("yog-sothoth", "nyog-sothep", "shub-niggurath", "dagon-hydra")


@pytest.mark.parametrize(
    ("before", "move", "reason", "rule"),
    [
        ((), "tower L4 D>A", "not the top disc", "Golden Rules of Tower Movement 1"),
        ((), "tower L1 D>D", "another area", "Golden Rules of Tower Movement"),
        ((), "cultist a1", "tower phase", "Round Overview"),
        (("tower L1 D>A",), "cultist a1", "power phase", "Round Overview"),
        (("tower L1 D>A", "no power"), "cultist c1", "not in the active area", "Tower Phase"),
        (("tower L1 D>A", "no power"), "cultist a4", "empty space", "3.1 Choose a Space"),
        (("tower L1 D>A", "no power"), "cultist a1 pay red", "costs 0", "3.2 Pay Resources"),
        (("tower L1 D>A", "no power"), "pass", "only if", "Disciple Phase, Note"),
        (("tower L1 D>A",), "lock a1 pay red", "2 red", "Power Phase"),
        (("tower L1 D>A",), "curse a1 pay red", "not 'curse'", "1. Yog-Sothoth"),
    ],
)  # fmt: skip
def test_illegal_moves_name_the_rule(before: tuple[str, ...], move: str, reason: str, rule: str) -> None:
    """`AmharbGame().apply` raises IllegalMove (a ValueError) naming the rule it breaks."""
    state = play(opening(), *before)
    with pytest.raises(ValueError) as raised:
        GAME.apply(state, GAME.parse_move(move))
    error = raised.value
    assert isinstance(error, IllegalMove)
    assert reason in error.reason
    assert error.rule.startswith("Towers of Am'harb rulebook") and error.rule.endswith(rule)
    assert GAME.legal_moves(state)  # the position itself is fine: only the move is refused


def test_apply_does_not_change_its_input() -> None:
    """`apply` returns a new state; the one it was given still reads as before."""
    state = opening()
    after = play(state, "tower L1 D>A")
    assert state.players[0].towers == ((), (), (), (4, 3, 2, 1)) and state.phase == "tower"
    assert after.players[0].towers == ((1,), (), (), (4, 3, 2)) and after.phase == "power"
