"""Inference on Am'harb positions: what the camera sees (written here as pictures) -> the move.

No images: `AmharbSight.expected` of the state after a move is what a perfect camera would
see; the tests then spoil or doubt parts of it, as real readings do."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from companion.games.amharb.sight import AmharbSight, area, cell
from companion.games.amharb.state import DISCIPLE, POWER, TOWER, Place, SkipPower
from companion.games.sight import Seen, Unclear
from companion.inference import Ambiguous, Desync, Found, NoChange, infer
from tests.amharb_helpers import GAME, new_game, play, put, res, set_space, sq, turn, with_player

SIGHT = AmharbSight()


def camera(state: Any, unsure: tuple[str, ...] = (), **changes: Hashable) -> Seen:
    """What a perfect camera sees of `state`, with some regions changed and some doubted."""
    picture = dict(SIGHT.expected(state))
    picture.update({k.replace("__", "/"): v for k, v in changes.items()})
    return Seen({k: (v.what if isinstance(v, Unclear) else v) for k, v in picture.items()}, frozenset(unsure))


def test_a_table_as_the_game_says_is_no_change() -> None:
    state = new_game("yog-sothoth", "nyog-sothep")
    assert infer(GAME, SIGHT, state, camera(state)) == NoChange()


def test_a_disc_moved_between_areas_is_the_tower_move() -> None:
    """Am'harb: 1 Tower Phase - the top disc of one area onto another of the player's areas."""
    state = turn(new_game("yog-sothoth", "nyog-sothep"), 0, TOWER)
    state = with_player(state, 0, towers=((4, 3, 2, 1), (), (), ()))
    after = play(state, "tower L1 A>C")
    result = infer(GAME, SIGHT, state, camera(after))
    assert isinstance(result, Found)
    assert [str(m) for m in result.moves] == ["tower L1 A>C"]
    assert {d.region for d in result.evidence} == {area("S", 0), area("S", 2)}


def test_a_placement_paid_in_one_way_only_is_taken_from_the_camera() -> None:
    """Am'harb: 3 Disciple Phase - the disciple appears and the resource tile under it is gone."""
    state = new_game("yog-sothoth", "nyog-sothep")
    state = turn(state, 0, DISCIPLE, "A")
    state = with_player(state, 0, resources=res(red=1), towers=((4, 3), (2, 1), (), ()))
    free = [m for m in GAME.legal_moves(state) if isinstance(m, Place) and m.kind == "cultist"]
    move = next(m for m in free if len(m.payment) == 0 or m.payment == ("red",))
    result = infer(GAME, SIGHT, state, camera(play(state, move)))
    assert isinstance(result, Found) and result.moves == (move,)


def test_two_ways_to_pay_for_the_same_table_are_asked() -> None:
    """The payment goes back to the box (Am'harb: 3.2 Pay Resources): the camera sees the
    disciple, not which tiles paid for it, so every way to pay is a candidate."""
    state = new_game("yog-sothoth", "nyog-sothep")
    state = put(state, a7="c1", b8="c1", b6="c1")
    state = turn(state, 0, DISCIPLE, "A")
    state = with_player(state, 0, resources=res(red=2, blue=2), towers=((), (4, 3, 2, 1), (), ()))
    ways: dict[tuple[str, int], list[Place]] = {}
    for m in GAME.legal_moves(state):
        if isinstance(m, Place):
            ways.setdefault((m.kind, m.space), []).append(m)
    paid = next(group for group in ways.values() if len(group) >= 2)
    result = infer(GAME, SIGHT, state, camera(play(state, paid[0])))
    assert isinstance(result, Ambiguous)
    assert {c.moves[0] for c in result.candidates if c.doubts == 0} == set(paid)


def test_a_piece_no_move_could_put_there_is_a_desync_naming_the_region() -> None:
    state = turn(new_game("yog-sothoth", "nyog-sothep"), 0, TOWER)
    seen = camera(state, **{cell(sq("h8")): (("priest", state.players[1].colour),)})
    result = infer(GAME, SIGHT, state, seen)
    assert isinstance(result, Desync)
    assert [d.region for d in result.differences] == [cell(sq("h8"))]


def test_an_unsure_reading_that_decides_between_moves_is_asked() -> None:
    """The disc left area A (sure); B's and C's readings are unsure: B or C is decided only by
    unsure readings, so the players are asked, the reading's choice first."""
    state = turn(new_game("yog-sothoth", "nyog-sothep"), 0, TOWER)
    state = with_player(state, 0, towers=((4, 3, 2, 1), (), (), ()))
    after = play(state, "tower L1 A>B")
    result = infer(GAME, SIGHT, state, camera(after, unsure=(area("S", 1), area("S", 2))))
    assert isinstance(result, Ambiguous)
    assert [str(m) for m in result.candidates[0].moves] == ["tower L1 A>B"]
    assert "tower L1 A>C" in {str(c.moves[-1]) for c in result.candidates}


def test_an_unsure_reading_that_agrees_with_the_only_move_the_sure_ones_allow_is_no_question() -> None:
    """The disc left area A and areas C and D are surely empty: only A>B fits the sure
    readings, so B's unsure reading of the disc decides nothing and the move is played."""
    state = turn(new_game("yog-sothoth", "nyog-sothep"), 0, TOWER)
    state = with_player(state, 0, towers=((4, 3, 2, 1), (), (), ()))
    after = play(state, "tower L1 A>B")
    result = infer(GAME, SIGHT, state, camera(after, unsure=(area("S", 1),)))
    assert isinstance(result, Found) and [str(m) for m in result.moves] == ["tower L1 A>B"]


def test_a_power_declined_without_pressing_next_is_found_before_the_placement() -> None:
    """Shub-Niggurath's power moves a disciple (visible; with none on the island it cannot be
    used), so a placement seen during its Power Phase can only follow "no power".
    Yog-Sothoth's Lock tile is not read, so there the camera cannot tell "no power" from a
    lock laid, and asks, "no power" first."""
    for seat, cult_can_hide in ((1, False), (0, True)):
        state = new_game("yog-sothoth", "shub-niggurath")
        state = turn(state, seat, POWER, "A")
        state = with_player(state, seat, resources=res(red=2), towers=((4,), (3, 2, 1), (), ()))
        after = play(state, SkipPower())
        place = next(m for m in GAME.legal_moves(after) if isinstance(m, Place) and not m.payment)
        result = infer(GAME, SIGHT, state, camera(play(after, place)))
        if cult_can_hide:
            assert isinstance(result, Ambiguous)
            assert result.candidates[0].moves == (SkipPower(), place)
        else:
            assert isinstance(result, Found) and result.moves == (SkipPower(), place)


def test_a_disciple_standing_on_a_tile_agrees_with_any_reading_of_something_there() -> None:
    """Dagon & Hydra move disciples without taking the tile (Am'harb: Cosmic Power List):
    a cultist on a tile of its own colour cannot be told from the tile, so the camera is
    only held to "something is there"."""
    state = new_game("yog-sothoth", "nyog-sothep")
    state = set_space(put(state, e4="c0"), "e4", resource="red")
    expected = SIGHT.expected(state)[cell(sq("e4"))]
    assert isinstance(expected, Unclear)
    tile_only = camera(state, **{cell(sq("e4")): (("resource", "red"),)})
    assert infer(GAME, SIGHT, state, tile_only) == NoChange()
    nothing = camera(state, **{cell(sq("e4")): ()})
    assert isinstance(infer(GAME, SIGHT, state, nothing), Desync)


def test_differences_are_said_as_players_would_say_them() -> None:
    """The page's desync lines: two pieces on one space are both named (they were once
    taken for a stack), a stack bottom to top, an empty space as nothing."""
    assert SIGHT.words((("cultist", "pink"), ("priest", "pink"))) == "pink cultist, pink priest"
    assert SIGHT.words(("pink", (4, 3))) == "pink discs 4 3"
    assert SIGHT.words(Unclear((("cultist", "blue"), ("resource", "blue")))) == "blue cultist, blue resource"
    assert SIGHT.words(()) == "nothing"
