"""Tower read from the whole table (the assumed `tower` mat): the materials on the stall spaces,
the meeples on the stalls, the gems on each tableau and in Salil's pile, the materials bought,
and the moves the camera tells from them. Frames are rendered (no photo of the game exists in
the fixtures) and read by the real vision pipeline."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from companion.games.base import CHANCE, Setup
from companion.games.sight import Seen
from companion.games.tower.moves import Buy, DrawGem, Return, Trade
from companion.games.tower.render import TowerRenderer
from companion.games.tower.sight import TowerSight, gems, lutfi_colour, materials, meeples, space
from companion.games.tower.state import TowerState
from companion.inference import Ambiguous, Desync, Found, NoChange, infer
from tests.tower_helpers import GAME, action, dealt, edit, give, play, to_salil
from vision.pipeline import TableReader
from vision.profiles import load_profile
from vision.render import render

SIGHT = TowerSight()
CARDS = ("clay lumber straw straw water", "clay lumber lumber straw water", "clay clay lumber straw water")


class Camera:
    """One rendered camera over one Tower table, read by the real pipeline (pieces named among
    the players', the apprentices', the guard's and Lutfi's colours, as the table loop does)."""

    def __init__(self, seed: int, state: TowerState, touching: bool = False) -> None:
        self.renderer = TowerRenderer(np.random.default_rng(seed), touching=touching)
        profile = replace(load_profile("tower"), piece_colours=SIGHT.piece_colours(state))
        self.reader = TableReader(profile)
        self.regions = frozenset(r.name for r in profile.regions)
        self.frames = 0

    def sees(self, state: TowerState, table: TowerState | None = None, die: int = 0) -> Seen:
        self.frames += 1
        scene = self.renderer.scene(SIGHT.expected(table or state), die)
        frame, _ = render(scene, seed=self.frames)
        return SIGHT.seen(state, self.reader.read(frame), self.regions)


def played(seed: int, players: int, moves: int, **options: str) -> TowerState:
    """A game played at random for `moves` moves (chance by its odds): stalls half sold,
    gems and materials on the tableaus, meeples, apprentices and the guard about."""
    rng = random.Random(seed)
    state = GAME.initial_state(Setup(players, options))
    for _ in range(moves):
        actor = GAME.to_move(state)
        if actor is None:
            break
        if actor == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, move)
    return state


TABLES = [
    (1, 3, 90, {"apprentices": "on", "royal_guard": "on"}),
    (2, 4, 140, {}),
    (3, 2, 120, {"lutfi": "on"}),
    (4, 1, 60, {}),
    (5, 4, 200, {"apprentices": "on", "royal_guard": "on"}),
    (6, 3, 160, {"advanced": "on"}),
]


@pytest.mark.parametrize(("seed", "players", "moves", "options"), TABLES)
def test_every_region_of_the_table_is_read_as_it_stands(
    seed: int, players: int, moves: int, options: dict[str, str]
) -> None:
    """Gems spread out on the tableaus (the profile's assumption): every region read right,
    or doubted (a doubt is asked, never taken)."""
    state = played(seed, players, moves, **options)
    seen = Camera(seed, state).sees(state)
    wrong = {
        SIGHT.region_name(state, r): (SIGHT.words(v), SIGHT.words(seen.picture.get(r)))
        for r, v in SIGHT.expected(state).items()
        if seen.picture.get(r) != v and r not in seen.unsure
    }
    assert wrong == {}
    assert len(seen.unsure) <= 2, seen.unsure


def test_gems_heaped_shoulder_to_shoulder_are_counted_but_always_doubted() -> None:
    """A heap's count comes from its area, an estimate: a tableau whose gems touch is never
    taken as read, right or not."""
    state = played(1, 3, 90, apprentices="on")
    seen = Camera(1, state, touching=True).sees(state)
    heaped = [r for r, v in SIGHT.expected(state).items() if r.endswith("/gems") or r == "salil"]
    assert any(region in seen.unsure for region in heaped)
    for region in heaped:
        if seen.picture[region] != SIGHT.expected(state)[region]:
            assert region in seen.unsure, region


def test_the_profile_has_every_region_the_game_names() -> None:
    regions = {r.name for r in load_profile("tower").regions}
    for seed, players, moves, options in TABLES:
        assert set(SIGHT.expected(played(seed, players, moves, **options))) <= regions


def buying_position() -> TowerState:
    """Player 1's action phase with gems enough for several purchases."""
    state = dealt(3, cards=CARDS)
    state = action(give(state, 0, "3 green+2 blue+2 red"))
    return state


def test_a_purchase_is_read_from_the_gems_the_material_and_the_meeple() -> None:
    """The Markets: the meeple goes on the stall, the gems to Salil, the material to the
    tableau: exact change, so the gems that left say which way it was paid."""
    state = buying_position()
    buys = [m for m in GAME.legal_moves(state) if isinstance(m, Buy)]
    assert len(buys) >= 3
    camera = Camera(7, state)
    assert isinstance(infer(GAME, SIGHT, state, camera.sees(state)), NoChange)
    for buy in buys[:: max(1, len(buys) // 3)][:3]:
        result = infer(GAME, SIGHT, state, camera.sees(state, GAME.apply(state, buy)))
        assert isinstance(result, Found) and result.moves == (buy,), (str(buy), result)


def test_a_trade_with_salil_is_read_from_both_piles() -> None:
    """Salil: "Daniel spent two blue gems on an item, and then traded a red gem to reclaim one
    of the blue gems that he had just spent": the red goes to Salil, a blue comes back."""
    state = to_salil(buying_position(), "2 blue")
    trade = next(m for m in GAME.legal_moves(state) if str(m) == "trade 1 red for 1 blue")
    assert isinstance(trade, Trade)
    result = infer(GAME, SIGHT, state, Camera(8, state).sees(state, GAME.apply(state, trade)))
    assert isinstance(result, Found) and result.moves == (trade,)


def test_the_draw_phase_gems_are_offered_as_read() -> None:
    """How to Play: "reach into the bag and randomly draw three gems". The three land on the
    tableau and the camera reads them at once: offered as three draws, one tap."""
    state = dealt(3, cards=CARDS)
    state = give(state, 0, "1 green")
    while GAME.to_move(state) == CHANCE and len(state.build_deck) and state.turn.step != "draw":
        state = GAME.apply(state, GAME.chance_outcomes(state)[0][0])
    assert state.turn.step == "draw"
    after = play(state, "draw red", "draw green", "draw pass")
    result = infer(GAME, SIGHT, state, Camera(9, state).sees(state, after))
    assert isinstance(result, Ambiguous) and len(result.candidates) == 1
    drawn = result.candidates[0].moves
    assert all(isinstance(m, DrawGem) for m in drawn)
    assert sorted(m.kind for m in drawn) == ["green", "pass", "red"]


def test_an_idle_turns_two_gems_drawn_without_a_word_are_offered() -> None:
    """How to Play: "If you did not execute any of the above actions ... draw 2 more gems".
    The player ends the turn by drawing them, nobody pressing NEXT: the end of the actions
    and the two draws are offered as read, one tap."""
    state = buying_position()
    after = play(state, "end actions", "draw blue", "draw red")
    result = infer(GAME, SIGHT, state, Camera(12, state).sees(state, after))
    assert isinstance(result, Ambiguous) and len(result.candidates) == 1
    moves = result.candidates[0].moves
    assert str(moves[0]) == "end actions" and sorted(str(m) for m in moves[1:]) == ["draw blue", "draw red"]


def test_a_material_returned_after_building_is_the_return() -> None:
    """Build phase: "return the items to the markets (any available space is fine, so long as
    the space matches the item)": the camera sees which space it went to."""
    state = dealt(3, cards=CARDS)
    card = state.players[0].card
    needed = state.card_of(card)
    stalls = tuple(replace(s, stock=" ".join("-" for _ in s.stock.split())) for s in state.stalls)
    state = action(edit(replace(state, stalls=stalls), 0, materials=tuple(sorted(needed))))
    state = play(state, "end actions")
    returns = [m for m in GAME.legal_moves(state) if isinstance(m, Return)]
    assert returns, GAME.legal_moves(state)
    move = returns[-1]
    result = infer(GAME, SIGHT, state, Camera(10, state).sees(state, GAME.apply(state, move)))
    assert isinstance(result, Found) and result.moves == (move,)


def test_a_build_put_back_at_once_is_every_return() -> None:
    """Build phase: the player declares the build and puts all five materials back before the
    camera looks again: the end of the actions and each return are found together, the
    materials on the stall spaces they went to."""
    state = dealt(3, cards=CARDS)
    needed = state.card_of(state.players[0].card)
    stalls = tuple(replace(s, stock=" ".join("-" for _ in s.stock.split())) for s in state.stalls)
    state = action(edit(replace(state, stalls=stalls), 0, materials=tuple(sorted(needed))))
    after = play(state, "end actions")
    rng = random.Random(5)
    while after.turn.step == "return":
        after = GAME.apply(after, rng.choice([m for m in GAME.legal_moves(after) if isinstance(m, Return)]))
    assert GAME.to_move(after) == CHANCE  # three new build cards to draw
    result = infer(GAME, SIGHT, state, Camera(11, state).sees(state, after))
    assert isinstance(result, Found), result
    assert str(result.moves[0]) == "end actions" and len(result.moves) == 1 + len(needed)
    replayed = play(state, *result.moves)
    assert SIGHT.expected(replayed) == SIGHT.expected(after)


def test_a_material_taken_without_paying_is_a_desync_naming_the_space() -> None:
    state = buying_position()
    stall = next(s for s in state.stalls if any(slot.material for slot in s.slots))
    k = next(i for i, slot in enumerate(stall.slots) if slot.material)
    taken = stall.slots[k].material
    table = replace(
        edit(state, 0, materials=(taken,)),
        stalls=tuple(s.with_material(k, "") if s is stall else s for s in state.stalls),
    )
    result = infer(GAME, SIGHT, state, Seen(SIGHT.expected(table)))
    assert isinstance(result, Desync)
    assert {space(stall.number, k), materials(0)} <= {d.region for d in result.differences}


def test_lutfi_lying_down_may_be_read_or_not() -> None:
    """Lutfi: "lay Lutfi down flat until his next turn": a meeple lying flat is not the size
    of one standing, so the camera may or may not see him: neither is a desync."""
    state = played(3, 2, 120, lutfi="on")
    assert state.lutfi is not None
    lying = replace(state, lutfi=replace(state.lutfi, standing=False, stall=state.stalls[0].number))
    region = meeples(state.stalls[0].number)
    as_read = dict(SIGHT.expected(replace(lying, lutfi=replace(lying.lutfi, standing=True))))
    without = {**as_read, region: tuple(c for c in as_read[region] if c != lutfi_colour(state))}  # type: ignore[union-attr]
    for picture in (as_read, without):
        assert isinstance(infer(GAME, SIGHT, lying, Seen(picture)), NoChange | Ambiguous | Found)
        assert not isinstance(infer(GAME, SIGHT, lying, Seen(picture)), Desync)


def test_gems_regions_are_named_for_people() -> None:
    state = dealt(3, cards=CARDS)
    assert SIGHT.region_name(state, gems(1)) == f"{state.players[1].name}'s gems"
    assert SIGHT.words((2, 0, 1, 1)) == "2 green, 1 red, 1 pass"
    assert SIGHT.region_name(state, space(3, 1)) == "space 3b"
