"""Turris read from the table: the Scouts, Beasts and Fruit token on each place of the Main
Board (the assumed `turris` profile), and the moves the camera tells from them — a Place, a
Collect, a Beast's turn — or the attention it asks for when the table is not as the rules
say. Frames are rendered (no photo of a Turris board exists in the fixtures) and read by the
real vision pipeline."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from companion.games.sight import Seen
from companion.games.turris.beasts import BETRAYERS, Beast, Scout
from companion.games.turris.board import default_board
from companion.games.turris.game import BEAST, TurrisState
from companion.games.turris.render import TurrisRenderer
from companion.games.turris.sight import TurrisSight
from companion.inference import Desync, Found, NoChange, infer
from tests.test_turris_game import GAME, play, start
from vision.pipeline import TableReader, draw
from vision.profiles import load_profile
from vision.render import render
from vision.types import Route

SIGHT = TurrisSight()


class Camera:
    """One rendered camera over one Turris table, read by the real pipeline."""

    def __init__(self, seed: int, state: TurrisState) -> None:
        self.renderer = TurrisRenderer(np.random.default_rng(seed))
        profile = replace(load_profile("turris"), piece_colours=SIGHT.piece_colours(state))
        self.reader = TableReader(profile)
        self.regions = frozenset(r.name for r in profile.regions)
        self.frames = 0

    def sees(self, state: TurrisState, table: TurrisState | None = None) -> Seen:
        """What the camera reads of the table as it stands in `table` (default: `state`),
        in the terms of the game at `state`."""
        self.frames += 1
        frame, _ = render(self.renderer.scene(SIGHT.expected(table or state)), seed=self.frames)
        return SIGHT.seen(state, self.reader.read(frame), self.regions)


def beast_phase(state: TurrisState, **where: str) -> TurrisState:
    """`state` in the Beast Phase, the Pain to act first, the Beasts on the places given."""
    beasts = tuple(Beast(b.name, where.get(b.name, b.location)) for b in state.table.beasts)
    return replace(state, phase=BEAST, beast=0, table=replace(state.table, beasts=beasts))


def with_scouts(state: TurrisState, *scouts: tuple[int, str]) -> TurrisState:
    tribes = tuple(
        replace(t, reserve=4 - sum(1 for seat, _ in scouts if seat == i))
        for i, t in enumerate(state.table.tribes)
    )
    table = replace(state.table, scouts=tuple(Scout(s, p) for s, p in scouts), tribes=tribes)
    return replace(state, table=table)


def test_the_profile_has_a_region_for_every_place_of_the_board() -> None:
    """The profile names its regions as the rules name the places: the twelve Locations, the
    two Crossroads and the Excavation spots A-D."""
    regions = {r.name for r in load_profile("turris").regions}
    assert regions == set(default_board().every)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_place_is_read_as_it_stands(seed: int) -> None:
    """Scouts of four colours (up to six on one Location), the four Beasts (one on a
    Crossroad), the Fruit token: each place's reading is what the game says stands there,
    under three cameras and lights."""
    rng = np.random.default_rng(seed)
    state = start(4)
    board = default_board()
    others = [p for p in board.locations if p != "Guild"]
    scouts = [(int(rng.integers(4)), str(rng.choice(others))) for _ in range(10)]
    scouts += [(seat, "Guild") for seat in (0, 1, 2, 3, 0, 1)]
    state = with_scouts(state, *scouts)
    state = replace(state, table=replace(state.table, fruit=str(rng.choice(board.locations))))
    empty = [p for p in board.locations if p not in {s for _, s in scouts} | {"Guild"}]
    state = beast_phase(state, Pain="Crossroad East", Delusion=empty[0], Despair=empty[1])
    seen = Camera(seed, state).sees(state)
    expected = SIGHT.expected(state)
    assert not seen.unsure
    assert {p: v for p, v in seen.picture.items() if v != expected[p]} == {}
    assert len(seen.picture) == len(board.every)


def test_a_scout_put_on_a_location_is_the_place_move() -> None:
    """1) Action Step, PLACE example: Bob Places in the Garden; the camera sees his Scout
    there and plays it."""
    state = start(3, names="Bob,Alice,Carol")
    camera = Camera(4, state)
    assert isinstance(infer(GAME, SIGHT, state, camera.sees(state)), NoChange)
    after = play(state, "place Garden")
    result = infer(GAME, SIGHT, state, camera.sees(state, after))
    assert isinstance(result, Found) and [str(m) for m in result.moves] == ["place Garden"]


def test_scouts_taken_back_are_the_collect_move() -> None:
    """1) Action Step, COLLECT example: Alice's Scouts leave the Nest and the Guild."""
    state = with_scouts(start(2, names="Alice,Bob"), (0, "Nest"), (0, "Guild"), (1, "Forge"))
    camera = Camera(5, state)
    after = play(state, "collect Guild+Nest")
    result = infer(GAME, SIGHT, state, camera.sees(state, after))
    assert isinstance(result, Found) and [str(m) for m in result.moves] == ["collect Guild+Nest"]


def example_1() -> TurrisState:
    """2. Beast Phase, 1) Choose Target, Example 1: the Pain is in the Guild; a Scout in the
    Forge, two Scouts in the Shrine."""
    state = with_scouts(start(3, names="Alice,Bob,Carol"), (1, "Forge"), (0, "Shrine"), (2, "Shrine"))
    return beast_phase(state, Pain="Guild")


def test_the_beast_moved_as_the_rules_say_is_its_turn() -> None:
    """Example 1: the Pain targets the Shrine (more Scouts) and Devours both Scouts there. The
    players move the Pain and take the Scouts to the Graveyard: the camera plays the Pain's
    turn."""
    state = example_1()
    after = play(state, "beast Pain")
    assert after.table.beast("Pain").location == "Shrine" and not after.table.scouts_at("Shrine")
    result = infer(GAME, SIGHT, state, Camera(6, state).sees(state, after))
    assert isinstance(result, Found) and [str(m) for m in result.moves] == ["beast Pain"]


def test_a_beast_moved_where_the_rules_do_not_take_it_asks_for_attention() -> None:
    """Example 1 again, but the Pain is put on the Forge (the nearer Scout, not the most
    Scouts): no legal move leaves the table like that; the differences say it in the
    players' words."""
    state = example_1()
    wrong = replace(
        state,
        table=replace(
            state.table,
            beasts=tuple(replace(b, location="Forge") if b.name == "Pain" else b for b in state.table.beasts),
            scouts=tuple(s for s in state.table.scouts if s.location != "Forge"),
        ),
    )
    result = infer(GAME, SIGHT, state, Camera(7, state).sees(state, wrong))
    assert isinstance(result, Desync)
    said = {
        SIGHT.region_name(state, d.region): (SIGHT.words(d.expected), SIGHT.words(d.seen))
        for d in result.differences
    }
    assert said == {"the Guild": ("a Beast", "nothing"), "the Forge": ("blue Scout", "a Beast")}


def test_after_next_the_camera_waits_for_the_beast_to_be_moved() -> None:
    """NEXT resolves the Pain on the phone first: until the players move it the table is not as
    the game says (attention, with where it must go); once they have, it matches."""
    state = example_1()
    after = play(state, "beast Pain")
    camera = Camera(8, state)
    before_moving = infer(GAME, SIGHT, after, camera.sees(after, state))
    assert isinstance(before_moving, Desync)
    assert {d.region for d in before_moving.differences} == {"Guild", "Shrine"}
    assert isinstance(infer(GAME, SIGHT, after, camera.sees(after)), NoChange)


def test_the_first_players_choice_is_read_from_where_the_beast_went() -> None:
    """1) Choose Target, Example 2's situation with the Pain: Scouts in the Ridge and in the
    Circle, both 1 step from the Brink; the First Player chooses. The players move the Pain
    to the Circle and take its Scout away: the camera plays the Pain's turn and the answer."""
    state = beast_phase(
        with_scouts(start(3, names="Alice,Bob,Carol"), (1, "Ridge"), (2, "Circle")), Pain="Brink"
    )
    asked = play(state, "beast Pain")
    assert asked.ask is not None and set(asked.ask.options) == {"Ridge", "Circle"}
    after = play(asked, "answer Circle")
    result = infer(GAME, SIGHT, state, Camera(9, state).sees(state, after))
    assert isinstance(result, Found) and [str(m) for m in result.moves] == ["beast Pain", "answer Circle"]


def test_solo_the_betrayers_scouts_are_read_in_a_colour_of_their_own() -> None:
    """06 Appendix 1, SETUP 3 and 6: the Betrayers' two Scouts start in locations 1 and 10, of
    a colour no player has (assumed: the first default colour the player does not use)."""
    state = start(1, colours="blue")
    assert SIGHT.piece_colours(state) == ("blue", "red")
    betrayers = sorted(s.location for s in state.table.scouts if s.seat == BETRAYERS)
    expected = SIGHT.expected(state)
    assert [p for p in betrayers if expected[p] == ("red Scout",)] == betrayers
    seen = Camera(10, state).sees(state)
    assert seen.picture == expected


def test_words_and_names_for_people() -> None:
    state = start(2)
    assert SIGHT.region_name(state, "Isle") == "the Isle"
    assert SIGHT.region_name(state, "C") == "Excavation spot C"
    assert (
        SIGHT.words(("Beast", "Fruit token", "red Scout", "red Scout"))
        == "a Beast, the Fruit token, red Scout ×2"
    )
    assert SIGHT.words(()) == "nothing"


def test_an_unsure_piece_never_plays_a_move_alone() -> None:
    """A Scout read with low confidence makes its place unsure: the move is asked, not played."""
    state = start(3, names="Bob,Alice,Carol")
    after = play(state, "place Garden")
    picture: dict[str, Any] = dict(SIGHT.expected(after))
    result = infer(GAME, SIGHT, state, Seen(picture, frozenset({"Garden"})))
    assert not isinstance(result, Found)


def test_the_beasts_path_is_drawn_on_the_camera_picture() -> None:
    """2) Plot Path example: the Pain on the right Crossroad targets the Brink; Carol (First
    Player) chooses the way through the Circle; with the Altar token on its spot it moves 2
    steps ("3) Move Beast" example). Before NEXT the picture shows the plotted path; after it,
    an arrow along the places the Pain moved through, for the players to move the miniature;
    the first player action clears it."""
    state = start(3, names="Alice,Bob,Carol", first="3")
    state = with_scouts(state, (0, "Brink"))
    state = beast_phase(state, Pain="Crossroad East")
    state = replace(state, table=replace(state.table, altar="Pain", speed_token="Pain"))
    asked = play(state, "beast Pain")
    assert asked.ask is not None and asked.ask.who == 2
    assert SIGHT.routes(asked) == ()  # the way is not chosen yet
    moved = play(asked, "answer via Circle")
    assert moved.table.beast("Pain").location == "Brink"
    assert [(r.label, r.regions, r.planned) for r in SIGHT.routes(moved)][0] == (
        "move the Pain",
        ("Crossroad East", "Circle", "Brink"),
        False,
    )
    camera = Camera(11, moved)
    frame, _ = render(camera.renderer.scene(SIGHT.expected(moved)), seed=1)
    observation = camera.reader.read(frame)
    plain = draw(frame, observation, camera.reader.profile)
    drawn = draw(frame, observation, camera.reader.profile, SIGHT.routes(moved))
    arrow = np.all(drawn == (40, 40, 230), axis=2) & ~np.all(plain == (40, 40, 230), axis=2)
    assert arrow.sum() > 200, "the arrow is drawn"


def test_the_path_plotted_for_the_beast_acting_next_is_drawn_before_next() -> None:
    """2) Plot Path: the Pain in the Guild targets the Isle's Scout, 2 steps by the one
    shortest way (through the Shrine); before NEXT the picture has that line; after it the
    Pain has moved 1 step (speed 1) and the arrow shows that step."""
    state = beast_phase(with_scouts(start(3), (0, "Isle")), Pain="Guild")
    assert [(r.label, r.regions, r.planned) for r in SIGHT.routes(state)] == [
        ("the Pain's path", ("Guild", "Shrine", "Isle"), True)
    ]
    after = play(state, "beast Pain")
    assert SIGHT.routes(after)[0] == Route("move the Pain", ("Guild", "Shrine"))


def test_no_path_is_worked_out_while_a_card_moved_beast_waits_for_an_answer() -> None:
    """A Beast moved by a card waits for the First Player's push: the answers given are its
    own, never the next Beast's (the picture must not fail)."""
    state = beast_phase(with_scouts(start(3), (0, "Spire"), (1, "Isle")), Pain="Guild", Delusion="Forge")
    waiting = play(state, "adjust Delusion to Spire: Tactics card")
    assert waiting.moving and waiting.ask is not None
    assert SIGHT.routes(waiting) == ()
    answered = play(waiting, f"answer {waiting.ask.options[0]}")
    assert [r.label for r in SIGHT.routes(answered)] == ["move the Delusion", "the Pain's path"]


def test_the_arrows_go_once_a_player_acts() -> None:
    state = replace(start(3), trails=(("Pain", ("A", "Garden")),))
    assert [r.label for r in SIGHT.routes(state)] == ["move the Pain"]
    assert SIGHT.routes(play(state, "gather ichor")) == ()


def test_a_move_nobody_told_is_offered_when_the_table_no_longer_fits() -> None:
    """Bob Gathers Ichor without telling, then Places in the Garden: the camera plays the
    Place alone (he still has an action, as far as it knows). When Alice then Places in the
    Nest, no move explains the table: the desync offers the moves the camera cannot see
    (Gather Ichor among them); once told, Alice's Place is found (after Bob's 'no mission')."""
    state = start(3, names="Bob,Alice,Carol")
    table = play(state, "gather ichor", "place Garden", "no mission", "place Nest")
    placed = infer(GAME, SIGHT, state, Seen(SIGHT.expected(play(state, "place Garden"))))
    assert isinstance(placed, Found) and [str(m) for m in placed.moves] == ["place Garden"]
    now = play(state, "place Garden")
    result = infer(GAME, SIGHT, now, Seen(SIGHT.expected(table)))
    assert isinstance(result, Desync) and "gather ichor" in [str(m) for m in result.untold]
    told = play(now, "gather ichor")
    found = infer(GAME, SIGHT, told, Seen(SIGHT.expected(table)))
    assert isinstance(found, Found) and [str(m) for m in found.moves] == ["no mission", "place Nest"]
