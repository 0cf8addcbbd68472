"""Tower's text and JSON: move notation both ways, bad input, a move-count fixture, the page."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.base import CHANCE, BadMoveText, BadState, IllegalMove
from companion.games.tower.gems import Gems
from companion.games.tower.moves import (
    Buy,
    ClearName,
    DrawBuild,
    DrawGem,
    EndActions,
    EnterBlackMarket,
    Hire,
    Keep,
    LutfiShop,
    Pick,
    Release,
    Return,
    Reveal,
    Roll,
    Steal,
    Trade,
    UseCard,
)
from tests.tower_helpers import GAME, action, dealt, edit, give, legal, new_game, play, to_salil

CARDS = ("clay lumber straw straw water", "clay lumber lumber straw water", "clay clay lumber straw water")

EXAMPLES = [
    (DrawGem("pass"), "draw pass"),
    (DrawBuild(7), "draw card 7"),
    (Reveal("Common Thief"), "reveal Common Thief"),
    (Roll(4), "roll 4"),
    (Buy("clay", 3, 1, Gems(blue=2)), "buy clay at 3b pay 2 blue"),
    (Trade(Gems(passes=1), Gems(1, 0, 1)), "trade 1 pass for 1 green+1 red"),
    (EnterBlackMarket(2, Gems(red=2, passes=1)), "black market 2 pay 2 red+1 pass"),
    (Keep(("Common Thief", "Dubious Concoction")), "keep Common Thief+Dubious Concoction"),
    (
        UseCard("Common Thief", Gems(4), "player 2", "clay"),
        "use Common Thief on player 2 take clay pay 4 green",
    ),
    (
        UseCard("Experienced Thief", Gems(1), "Salil", "2 red"),
        "use Experienced Thief on Salil take 2 red pay 1 green",
    ),
    (UseCard("Dubious Concoction", Gems(3), take="water"), "use Dubious Concoction as water pay 3 green"),
    (UseCard("Preferred Customer", Gems(blue=1)), "use Preferred Customer pay 1 blue"),
    (Hire("stand-in", 2, Gems(1)), "hire stand-in at 2 pay 1 green"),
    (Steal(Gems(1, 1)), "steal 1 green+1 blue from Salil"),
    (ClearName(), "clear name pay 1 red"),
    (Release(Gems(2, 1)), "release pay 2 green+1 blue"),
    (EndActions(), "end actions"),
    (Return("straw", 2, 0), "return straw to 2a"),
    (Pick(12), "pick card 12"),
    (LutfiShop(3, 0, "straw"), "lutfi to 3 take straw at 3a"),
    (LutfiShop(5), "lutfi to 5 lie down"),
]


@pytest.mark.parametrize(("move", "text"), EXAMPLES, ids=[t for _, t in EXAMPLES])
def test_moves_are_their_own_text(move: object, text: str) -> None:
    assert str(move) == text
    assert GAME.parse_move(text) == move
    assert GAME.move_from_json(json.loads(json.dumps(GAME.move_to_json(move)))) == move  # type: ignore[arg-type]


def test_keywords_forgive_case_and_spacing() -> None:
    assert GAME.parse_move("BUY  Clay AT 3B pay 2 Blue") == Buy("clay", 3, 1, Gems(blue=2))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "buy clay",
        "buy clay at 3z pay 1 red",
        "buy clay at 3b pay 1 purple",
        "trade 3 green",
        "roll six",
        "lutfi to 3 take straw at 4a",
        "pay 0 green",
        "draw card x",
    ],
)
def test_malformed_move_text_is_refused(text: str) -> None:
    with pytest.raises(BadMoveText):
        GAME.parse_move(text)


def test_a_move_is_a_string_in_json() -> None:
    with pytest.raises(BadMoveText, match="string"):
        GAME.move_from_json({"buy": "clay"})


def test_states_round_trip_through_json() -> None:
    state = give(
        to_salil(action(dealt(3, cards=CARDS, apprentices="on", royal_guard="on")), "1 red"), 0, "2 blue"
    )
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(data) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(game="amharb"), "not a Tower state"),
        (lambda d: d.update(players="x"), "expected a list"),
        (lambda d: d.update(bag={"green": 1}), "must hold all"),
        (lambda d: d["turn"].update(step="dance"), "out of range"),
        (lambda d: d["stalls"][0].update(stock="clay clay clay"), "building materials"),
        (lambda d: d.update(build_deck=[1, 1]), "exactly one place"),
        (lambda d: d.update(black_top=[99]), "out of range"),
        (lambda d: d.update(surprise=1), "unknown keys"),
        (lambda d: d.update(guard=9), "not in play"),
        (lambda d: d.update(palace=[7]), "palace"),
    ],
)
def test_malformed_state_json_is_refused(change: object, message: str) -> None:
    data = GAME.state_to_json(action(dealt(3, cards=CARDS)))
    change(data)  # type: ignore[operator]
    with pytest.raises(BadState, match=message):
        GAME.state_from_json(data)


def test_state_json_must_be_an_object() -> None:
    with pytest.raises(BadState):
        GAME.state_from_json([1, 2])


def test_move_count_from_a_fixed_position() -> None:
    """A perft-style fixture: seat 0 in a 3-player game holds 3 green, 2 blue, 1 red and a
    pass, with 1 green, 1 blue and 1 red in Salil's pile; nothing bought yet.

    Buys (card: clay lumber straw straw water), every exact payment:
      1a straw 2g+1b, 1b lumber 1r+1g, 1c water 2b+1g, 2a straw 2g, 2b lumber 1b+1g,
      2c clay 2b, 3a straw 1b, 3b clay 1r, 3c water 3g, 4a lumber 2g, 4b clay 1b+2g,
      4c water 1r, 5a straw 1g+1b, 5b lumber 2b, 5c clay 3g                = 15
    Salil: 3g->b/r, 2b->g/r, 1r->g/b, pass->gb/gr/br                       = 9
    Black market: one card for the pass (1 red, 3 green, 2 blue pay no fee)    = 1
    End actions                                                           = 1"""
    state = to_salil(
        give(action(dealt(3, cards=CARDS)), 0, "3 green+2 blue+1 red+1 pass"), "1 green+1 blue+1 red"
    )
    moves = legal(state)
    assert sum(m.startswith("buy") for m in moves) == 15
    assert sum(m.startswith("trade") for m in moves) == 9
    assert [m for m in moves if m.startswith("black market")] == ["black market 1 pay 1 pass"]
    assert len(moves) == 26


def test_describe_shows_what_the_current_player_can_do() -> None:
    state = give(edit(action(dealt(3, cards=CARDS)), 1, stall=3), 0, "1 red+2 green")
    view = GAME.describe(state)
    assert view.headline == "Round 1 · Purple's action phase"
    me = view.seats[0]
    assert me.current and "Still needs: clay, lumber, straw, straw, water" in me.lines
    assert "Can buy lumber at 4a, paying 2 green" in me.lines
    assert any(line.startswith("Next gem from the bag: green 44%") for line in me.lines)
    assert any(
        "Orange" in line and line.startswith("Stall 3") and "closed to Purple" in line for line in view.shared
    )
    assert not view.seats[1].current


def test_secret_build_cards_show_only_on_their_owners_turn() -> None:
    """Setup: "with 2 players, build cards should be placed facedown and kept secret";
    Variants: the less-aggressive game keeps them secret too."""
    state = action(dealt(2, cards=CARDS[:2]))
    view = GAME.describe(state)
    assert "Build card 1: clay, lumber, straw, straw, water" in view.seats[0].lines
    assert "Build card: secret" in view.seats[1].lines


def test_describe_works_for_every_step_of_a_game() -> None:
    """The page shows a whole game: every state of a seeded playout describes itself."""
    state = dealt(2, cards=CARDS[:3], lutfi_roll=3, lutfi="on", apprentices="on", royal_guard="on")
    for _ in range(120):
        if GAME.to_move(state) is None:
            break
        view = GAME.describe(state)
        assert view.headline and len(view.seats) == 2 and view.shared
        moves = GAME.legal_moves(state)
        state = play(state, moves[len(moves) // 2])


def test_every_refused_move_names_its_rule() -> None:
    """Moves legal at some point of a seeded game, tried at every other step: each refusal is
    an IllegalMove citing the Tower rulebook (never another error, never accepted)."""
    rng = random.Random(1)
    state = dealt(2, cards=CARDS, lutfi_roll=2, lutfi="on", apprentices="on", royal_guard="on")
    pool: set[object] = set()
    refused = 0
    while GAME.to_move(state) is not None:
        moves = GAME.legal_moves(state)
        pool.update(moves)
        for move in rng.sample(sorted(pool, key=str), min(6, len(pool))):
            if move in moves:
                continue
            with pytest.raises(IllegalMove) as error:
                GAME.apply(state, move)  # type: ignore[arg-type]
            assert error.value.rule.startswith("Tower rulebook") and error.value.reason
            refused += 1
        if GAME.to_move(state) == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(moves)
        state = GAME.apply(state, move)
    assert refused > 100


def test_a_player_move_during_a_draw_says_what_comes_first() -> None:
    state = dealt(3, cards=CARDS)
    with pytest.raises(IllegalMove, match="first the table reports a gem from the bag"):
        play(state, "end actions")
    with pytest.raises(IllegalMove, match="card 99 is not in the build deck"):
        play(new_game(3), "draw card 99")
