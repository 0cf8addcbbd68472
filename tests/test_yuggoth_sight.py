"""The Yuggoth table's dice read from the rolling area: the Watcher's Awakening and Decay
rolls, and a side's Combat dice counted into Kills and Pains — each offered for one tap."""

from __future__ import annotations

from companion.games.sight import Seen
from companion.games.yuggoth.sight import TRAY, YuggothSight
from companion.inference import Ambiguous, NoChange, infer
from tests.test_yuggoth_watcher import end_of_rituals, pyramid_gate
from tests.yuggoth_helpers import GAME, acting, awake_at, bare, play, put

SIGHT = YuggothSight()


def tray(*values: int) -> Seen:
    return Seen({TRAY: tuple(sorted(values))})


def test_the_awakening_die_in_the_tray_is_offered() -> None:
    """Yuggoth: the Watcher's Awakening roll. The die in the tray is offered for one tap; the
    Slopes' 5 with a Controlled Gate awakens it (the rulebook's own example)."""
    state = play(end_of_rituals(pyramid_gate()), "no ritual")
    result = infer(GAME, SIGHT, state, tray(5))
    assert isinstance(result, Ambiguous)
    (candidate,) = result.candidates
    assert [str(m) for m in candidate.moves] == ["roll 5"]
    assert GAME.apply(state, candidate.moves[0]).watcher.awake
    assert infer(GAME, SIGHT, state, tray(5, 2)) == NoChange()  # two dice: not this roll
    assert infer(GAME, SIGHT, state, tray()) == NoChange()


def test_combat_dice_are_counted_into_kills_and_pains() -> None:
    """A side's Combat dice: the 6s are Kills, the 4s and 5s among the rest are Pains; the
    Watcher ignores the Pains dealt to it, so its attacker's roll is only Kills."""
    state = put(bare(), "Black Towers", "black-goat", acolytes=1, monsters=1)
    state = acting(awake_at(state, "Black Towers", position=6), "black-goat")
    state = play(state, "battle Black Towers vs watcher", "combat 2")
    attacker = infer(GAME, SIGHT, state, tray(6, 4))
    assert isinstance(attacker, Ambiguous)
    assert [str(m) for m in attacker.candidates[0].moves] == ["kills 1"]
    state = play(state, "kills 1")
    assert infer(GAME, SIGHT, state, tray(6, 4)) == NoChange()  # 2 dice, the Watcher rolls 6
    watcher = infer(GAME, SIGHT, state, tray(1, 2, 3, 4, 5, 5))
    assert isinstance(watcher, Ambiguous)
    moves = watcher.candidates[0].moves
    assert [str(m) for m in moves] == ["kills 0", "pains 3"]
    for move in moves:
        state = GAME.apply(state, move)
    assert state.battle is None or state.battle.stage != "roll"
