"""The Yuggoth table's dice read from the rolling area: the Watcher's Awakening and Decay
rolls, and a side's Combat dice counted into Kills and Pains — each offered for one tap."""

from __future__ import annotations

from pathlib import Path

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


def test_pains_alone_must_come_from_the_dice_that_gave_the_kills() -> None:
    """The Kills were told on the phone: the tray's dice count for the Pains only if their
    6s are those Kills (else they are some other roll)."""
    state = put(bare(), "Black Towers", "black-goat", acolytes=1, monsters=1)
    state = acting(awake_at(state, "Black Towers", position=6), "black-goat")
    state = play(state, "battle Black Towers vs watcher", "combat 2", "kills 1", "kills 2")
    assert infer(GAME, SIGHT, state, tray(1, 2, 3, 4, 5, 5)) == NoChange()  # no 6s: not these
    pains = infer(GAME, SIGHT, state, tray(6, 6, 3, 4, 5, 1))
    assert isinstance(pains, Ambiguous) and [str(m) for m in pains.candidates[0].moves] == ["pains 2"]


def test_the_dice_just_taken_are_not_offered_for_the_next_roll(tmp_path: Path) -> None:
    """A Watcher battle: the tap takes the attacker's dice; the same dice still lying in the
    tray are not offered for the Watcher's roll that comes next (same count); new dice are."""
    import numpy as np

    from companion.store import Store
    from companion.table import Table
    from companion.table_loop import TableLoop
    from vision.types import DieReading, Observation

    state = put(bare(), "Black Towers", "black-goat", acolytes=1, monsters=1)
    state = acting(awake_at(state, "Black Towers", position=2), "black-goat")
    state = play(state, "battle Black Towers vs watcher", "combat 2")
    store = Store(tmp_path / "db.sqlite3")
    table = Table(store)
    session = table.resume(store.create_game("yuggoth", {"players": 3}, GAME.state_to_json(state)))
    loop = TableLoop(table)

    class StillTable:  # the stillness gate of a table nobody touches
        still_frames = 5

        def update(self, image: object) -> bool:
            return True

    loop._gate = StillTable()  # type: ignore[assignment]
    in_view: list[Observation] = []
    loop._reader_for(SIGHT, session.state)[0].read = lambda image, full=None: in_view[-1]  # type: ignore[method-assign]

    def tray_shows(*values: int) -> str:
        in_view.append(
            Observation(
                dice=tuple(
                    DieReading("d6", v, (40.0 * i, 0.0), 30.0, 0.9, None, TRAY) for i, v in enumerate(values)
                )
            )
        )
        for _ in range(3):
            status = loop.see(np.zeros((8, 8, 3), np.uint8)).status
        return status

    assert tray_shows(6, 4) == "ask"
    loop.choose(0, loop.state.state_id)  # kills 1
    assert tray_shows(6, 4) == "ok" and loop.state.message == "waiting for the next roll"
    assert tray_shows(1, 5) == "ask"
    question = loop.state.question
    assert isinstance(question, Ambiguous)
    assert [str(m) for m in question.candidates[0].moves] == ["kills 0", "pains 1"]
