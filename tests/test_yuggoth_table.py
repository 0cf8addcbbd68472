"""The Watcher's figure read on the Yuggoth map (the assumed `yuggoth-three` / `yuggoth-five`
profiles) among the factions' figures, and the Watcher's move told from it. Frames are
rendered (no photo of the map exists in the fixtures) and read by the real vision pipeline."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion.games.sight import Seen
from companion.games.yuggoth.render import YuggothRenderer
from companion.games.yuggoth.sight import TRAY, WATCHER, YuggothSight, area
from companion.games.yuggoth.state import YuggothState
from companion.inference import Ambiguous, Desync, Found, NoChange, infer
from tests.test_yuggoth_watcher import attacking, three_armies
from tests.yuggoth_helpers import FIVE, GAME, awake_at, bare, new, play, put
from vision.pipeline import TableReader
from vision.profiles import load_profile
from vision.render import render

SIGHT = YuggothSight()


class Camera:
    """One rendered camera over one Yuggoth table, read by the real pipeline."""

    def __init__(self, seed: int, state: YuggothState) -> None:
        self.renderer = YuggothRenderer(np.random.default_rng(seed), state)
        profile = replace(load_profile(SIGHT.profile_name(state)), piece_colours=SIGHT.piece_colours(state))
        self.reader = TableReader(profile)
        self.regions = frozenset(r.name for r in profile.regions)
        self.frames = 0

    def sees(
        self, state: YuggothState, table: YuggothState | None = None, dice: tuple[int, ...] = ()
    ) -> Seen:
        self.frames += 1
        frame, _ = render(self.renderer.scene(table or state, dice), seed=self.frames)
        return SIGHT.seen(state, self.reader.read(frame), self.regions)


def crowded(factions: str = "black-goat,opener-of-the-way,crawling-chaos") -> YuggothState:
    """Every faction's figures spread over the map, Great Old Ones (the Watcher's size) too."""
    state = new(factions)
    for force in state.units:
        state = put(state, force.area, state.factions[force.seat].faction, acolytes=3, monsters=2, goo=1)
    return state


@pytest.mark.parametrize(
    ("factions", "seed"), [("black-goat,opener-of-the-way,crawling-chaos", 1), (FIVE, 2)]
)
def test_the_watcher_is_read_in_its_area_and_nowhere_else(factions: str, seed: int) -> None:
    """On either side of the map, in every Area in turn where it may stand, among the
    factions' Great Old Ones, Monsters and Acolytes: the figure is read in its Area alone."""
    state = crowded(factions)
    camera = Camera(seed, state)
    assert SIGHT.profile_name(state) == ("yuggoth-five" if factions == FIVE else "yuggoth-three")
    for name in state.board.areas[::3]:
        here = awake_at(state, name)
        seen = camera.sees(here)
        wrong = {r: v for r, v in SIGHT.expected(here).items() if seen.picture.get(r) != v}
        assert wrong == {}, (name, wrong)


def test_a_faction_figure_of_the_watchers_size_is_not_the_watcher() -> None:
    """No Watcher on the map, Great Old Ones of every faction: nothing read as the Watcher."""
    state = crowded()
    seen = Camera(3, state).sees(state)
    assert not any(v for r, v in seen.picture.items() if r != TRAY)


def test_the_profiles_have_every_area_of_both_sides() -> None:
    for factions in ("black-goat,opener-of-the-way,crawling-chaos", FIVE):
        state = new(factions)
        regions = {r.name for r in load_profile(SIGHT.profile_name(state)).regions}
        assert {area(a) for a in state.board.areas} | {TRAY} == regions


def test_the_watcher_moved_by_its_controller_is_its_move() -> None:
    """Controlling the Watcher: "the controlling player must Move the Watcher into an adjacent
    Area of his choice that contains Units" - the camera sees it leave the Postern for the
    Pyramid Slopes: that Attack's move."""
    state = attacking(three_armies())
    camera = Camera(4, state)
    assert isinstance(infer(GAME, SIGHT, state, camera.sees(state)), NoChange)
    after = play(state, "watcher > Pyramid Slopes")
    result = infer(GAME, SIGHT, state, camera.sees(state, after))
    assert isinstance(result, Found) and [str(m) for m in result.moves] == ["watcher > Pyramid Slopes"]


def test_the_watcher_moved_where_it_may_not_go_is_a_desync() -> None:
    """Not the far Laboratory while Units stand next to it: the page names both Areas."""
    state = attacking(three_armies())
    table = replace(state, watcher=replace(state.watcher, area="Laboratory"))
    result = infer(GAME, SIGHT, state, Camera(5, state).sees(state, table))
    assert isinstance(result, Desync)
    assert {d.region for d in result.differences} == {area("Watcher Postern"), area("Laboratory")}


def test_the_awakening_die_is_offered_with_the_figure_on_the_postern() -> None:
    """The Watcher Awakens: roll a die; on a number of an Area with a Controlled Gate "place
    its figure on the Watcher Postern": the die in the tray is offered for one tap even with
    the figure already put out."""
    from tests.test_yuggoth_watcher import end_of_rituals, pyramid_gate

    state = play(end_of_rituals(pyramid_gate()), "no ritual")
    assert GAME.to_move(state) == "chance"
    awake = play(state, "roll 5")
    assert awake.watcher.awake and awake.watcher.area == "Watcher Postern"
    result = infer(GAME, SIGHT, state, Camera(6, state).sees(state, awake, dice=(5,)))
    assert isinstance(result, Ambiguous) and [str(m) for m in result.candidates[0].moves] == ["roll 5"]


def test_words_for_people() -> None:
    state = put(bare(), "Laboratory", "black-goat", acolytes=1)
    assert SIGHT.words((WATCHER,)) == "the Watcher" and SIGHT.words(()) == "nothing"
    assert SIGHT.region_name(state, area("Laboratory")) == "Laboratory"


REAL_DICE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "real-dice" / "byler-dev"


def test_real_combat_dice_in_the_rolling_area_are_counted(tmp_path: Path) -> None:
    """A real photo of five rolled dice (byler-dev, labelled 3 3 5 4 1) laid into the rolling
    area below a rendered map, the Watcher (position 5: five Combat dice) in battle at the
    Black Towers: the table loop offers its roll as no Kills and two Pains (the 5 and the 4),
    one tap, and the Watcher's figure where the game has it."""
    import cv2

    from companion.store import Store
    from companion.table import Table
    from companion.table_loop import TableLoop
    from tests.yuggoth_helpers import acting

    state = put(bare(), "Black Towers", "black-goat", acolytes=1, monsters=1)
    state = acting(awake_at(state, "Black Towers", position=5), "black-goat")
    state = play(state, "battle Black Towers vs watcher", "combat 2", "kills 0")
    frame, to_frame = render(YuggothRenderer(np.random.default_rng(7), state).scene(state), seed=2)
    photo = cv2.imread(str(REAL_DICE / "IMG_20191208_112415.jpg"))
    assert photo is not None, "../shared/fixtures/real-dice is beside the repository"
    h, w = photo.shape[:2]
    where = np.float32([[40, 405], [240, 405], [240, 605], [40, 605]]).reshape(-1, 1, 2)  # mm: the tray
    corners = cv2.perspectiveTransform(where, to_frame).reshape(-1, 2).astype(np.float32)
    laid = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    size = (frame.shape[1], frame.shape[0])
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), laid, size) > 0
    frame[inside] = cv2.warpPerspective(photo, laid, size)[inside]

    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    session = table.resume(store.create_game("yuggoth", {"players": 3}, GAME.state_to_json(state)))
    loop = TableLoop(table)
    for _ in range(4):
        loop.see(frame)
    assert loop.state.status == "ask", loop.state.message
    question = loop.state.question
    assert isinstance(question, Ambiguous)
    assert [str(m) for m in question.candidates[0].moves] == ["kills 0", "pains 2"]
    loop.choose(0, loop.state.state_id)
    assert session.state.battle is None or session.state.battle.stage != "roll"
