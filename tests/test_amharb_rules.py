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
from amharb_helpers import (
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
