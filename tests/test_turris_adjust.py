"""Card effects the players apply with `adjust CHANGE: WHY`: what the rules still say about
them (a Beast moved resolves its effect, a Scout sent to the Graveyard advances the Council
token, the Fruit token draws every Beast), what they refuse, and the record they leave."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.base import BadMoveText, IllegalMove
from companion.games.turris.beasts import Beast, Scout
from companion.games.turris.game import BEAST, TurrisState
from companion.session import Session
from companion.store import Store
from tests.test_turris_game import GAME, play, start


def with_table(state: TurrisState, scouts: tuple[tuple[int, str], ...] = (), **beasts: str) -> TurrisState:
    moved = tuple(Beast(b.name, beasts.get(b.name, b.location)) for b in state.table.beasts)
    tribes = tuple(
        replace(t, reserve=4 - sum(1 for s, _ in scouts if s == i)) for i, t in enumerate(state.table.tribes)
    )
    table = replace(state.table, beasts=moved, tribes=tribes, scouts=tuple(Scout(s, p) for s, p in scouts))
    return replace(state, table=table)


def test_a_beast_moved_by_a_mission_resolves_its_effect() -> None:
    """2) Complete Mission Step, example: Alice's Mission moves a Beast one step in any
    direction. The Pain moved into the Forge, where Bob's Scout is, Devours it ("4) Resolve
    Effects": Beasts resolve their effects upon moving into a Location with Scouts), and Bob's
    Council token advances ("COUNCIL TRACK")."""
    state = with_table(start(2, names="Alice,Bob"), ((1, "Forge"),), Pain="Guild")
    after = play(state, "adjust Pain to Forge: Mission, move a Beast one step")
    assert after.table.beast("Pain").location == "Forge"
    assert not after.table.scouts_at("Forge")
    bob = after.table.tribes[1]
    assert (bob.graveyard, bob.council) == (1, 1)
    assert any(
        "Adjusted by the players: Pain to Forge (Mission, move a Beast one step)" in line
        for line in after.log
    )
    assert after.trails == (("Pain", ("Guild", "Forge")),)


def test_the_harrow_moved_outside_the_beast_phase_only_devours() -> None:
    """The Harrow, Chain Attack: "Should the Harrow move in any other phase of the round, the
    Chain Attack is not enabled and the Harrow's effect is limited to Devouring." Moved into
    the Circle, it Devours the Scout there and leaves the one in the Brink next to it."""
    state = with_table(start(2, names="Alice,Bob"), ((0, "Circle"), (1, "Brink")), Harrow="Isle")
    after = play(state, "adjust Harrow to Circle: Tactics card")
    assert after.table.beast("Harrow").location == "Circle"
    assert [s.location for s in after.table.scouts] == ["Brink"]


def test_a_delusion_moved_by_a_card_asks_the_first_player_where_to_push() -> None:
    """The Delusion (its example: from the Spire to the Forge or the Garden): the First
    Player decides where each Scout goes; the card's player chose only where the Beast moves
    ("Minor Rules": the direction of the movement)."""
    state = with_table(start(3, names="Alice,Bob,Carol", first="2"), ((0, "Spire"),), Delusion="Forge")
    state = replace(state, turns_taken=1)  # Carol's turn; Bob is First Player
    asked = play(state, "adjust Delusion to Spire: Tactics card")
    # "It is possible that the Scouts are moved into the Location the Beast came from."
    assert (
        asked.ask is not None and GAME.to_move(asked) == 1 and set(asked.ask.options) == {"Forge", "Garden"}
    )
    after = play(asked, "answer Garden")
    assert after.ask is None and not after.moving
    assert [s.location for s in after.table.scouts] == ["Garden"]
    assert GAME.to_move(after) == 2, "Carol's turn goes on"


def test_the_fruit_token_placed_by_a_card_draws_every_beast() -> None:
    """1) Choose Target, Example 4: Bob placed the Fruit token in the Isle; in the Beast Phase
    every Beast ignores the Scouts and targets the Isle."""
    state = with_table(start(2, names="Alice,Bob"), ((0, "Forge"),), Pain="Guild")
    state = play(state, "adjust fruit Isle: Tactics card")
    assert state.table.fruit == "Isle"
    beast_phase = play(replace(state, phase=BEAST, beast=0), "beast Pain")
    assert any("targets the Isle: the Fruit token is there" in line for line in beast_phase.log)
    assert play(state, "adjust fruit off: Tactics card").table.fruit is None


def test_a_scout_sacrificed_by_a_card_advances_the_council_token() -> None:
    """COUNCIL TRACK: "Each time a player's Scout is placed in the Graveyard (Sacrificed,
    Devoured, or through any other effects), that player MUST advance their Council token"."""
    state = with_table(start(2, names="Alice,Bob"), ((0, "Guild"),))
    after = play(state, "adjust alice scout guild to graveyard: Mission, sacrifice a Scout")
    alice = after.table.tribes[0]
    assert (alice.graveyard, alice.council, after.table.scouts) == (1, 1, ())
    back = play(after, "adjust Alice scout graveyard to Isle: Tactics card")
    assert back.table.scouts == (Scout(0, "Isle"),) and back.table.tribes[0].council == 1


def test_resources_and_prestige_and_the_excavation_refresh() -> None:
    """Prestige from a card counts like any other: reaching 10 for the first time changes the
    Excavation Sites ("EXCAVATION SITES")."""
    state = start(2, names="Alice,Bob")
    after = play(state, "adjust Alice +2K -1I +1A +10P +1T: Excavation Site")
    alice, tally = after.table.tribes[0], after.tallies[0]
    assert (alice.resources, alice.artifacts, tally.prestige, tally.tactics) == ((2, 2, 0, 0), 1, 10, 2)
    assert after.passed == (10,)
    sheet = GAME.score(after)
    assert sheet.total(0) == 10 and sheet.standings[0].seat == 0


@pytest.mark.parametrize(
    "text, why",
    [
        ("adjust Alice -4I: Tactics card", "fewer than none"),
        ("adjust Alice scout reserve to Crossroad West: card", "Crossroad"),
        ("adjust Pain to A: card", "is in the A"),
        ("adjust Pain to Guild: card", "already"),
        ("adjust damaged -1: card", "solo"),
        # 2 players: C and D have no site ("EXCAVATION SITES": "Scouts and tokens of any kind
        # may never be Placed or moved into such locations"; Beasts may not move into them)
        ("adjust fruit D: card", "no site"),
        ("adjust Alice scout reserve to C: card", "no site"),
        ("adjust Despair to D: card", "no site|is in the D"),
    ],
)
def test_what_the_rules_still_forbid(text: str, why: str) -> None:
    state = with_table(start(2, names="Alice,Bob"), Pain="Guild", Delusion="A")
    with pytest.raises(IllegalMove, match=why):
        play(state, text)


def test_beasts_may_end_on_crossroads_and_anyone_may_take_the_future_first_player_card() -> None:
    """3) Move Beast: "Beasts can end their movement on Crossroads"."""
    state = with_table(start(2, names="Alice,Bob"), Pain="Guild")
    assert play(state, "adjust Pain to Crossroad West: card").table.beast("Pain").location == "Crossroad West"
    assert play(state, "adjust future first Bob: card").future_first == 1


def test_names_with_spaces_and_shared_beginnings() -> None:
    state = start(3, names="Al,Al Smith,Fruit Bat")
    after = play(state, "adjust al smith +1k: card", "adjust Fruit Bat +1W: card", "adjust Al +1R: card")
    assert [t.resources for t in after.table.tribes] == [(3, 0, 1, 0), (3, 1, 0, 0), (3, 0, 0, 1)]


def test_a_despair_moved_by_a_card_takes_a_resource() -> None:
    """The Despair: a player discards K/R/W for each Scout, else Ichor."""
    state = with_table(start(2, names="Alice,Bob"), ((1, "Forge"),), Despair="Guild")
    after = play(state, "adjust Despair to Forge: Mission")
    assert after.table.tribes[1].resources == (2, 0, 0, 0) and after.table.scouts == (Scout(1, "Forge"),)


def test_a_card_moved_beast_waiting_for_an_answer_survives_json_and_undo(tmp_path: Path) -> None:
    store = Store(tmp_path / "companion.sqlite3")
    session = Session.start(store, "turris", 3, {"names": "Alice,Bob,Carol", "first": "1", "seed": "3"})
    while GAME.to_move(session.state) == "chance":
        session.play(str(GAME.legal_moves(session.state)[0]), session.state_id)
    session.play("place Spire", session.state_id)
    session.play("adjust future first Bob: took the card", session.state_id)
    session.play("adjust Delusion to Spire: Tactics card", session.state_id)
    waiting = session.state
    assert waiting.moving == "Delusion>Spire" and waiting.future_first == 1
    assert GAME.state_from_json(GAME.state_to_json(waiting)) == waiting
    with pytest.raises(IllegalMove, match="Alice is to answer first"):
        session.play("place Guild", session.state_id)
    session.undo(session.state_id)
    assert not session.state.moving and session.state.table.beast("Delusion").location == "B"
    again = Session(Store(tmp_path / "companion.sqlite3"), session.game_id)
    assert again.state == session.state


@pytest.mark.parametrize("text", ["adjust Alice +2K", "adjust Alice +2Q: card", "adjust Zed +1K: card"])
def test_an_adjustment_says_what_and_why(text: str) -> None:
    with pytest.raises(BadMoveText):
        play(start(2, names="Alice,Bob"), text)


def test_a_flipped_beast_stays_in_the_next_beast_phase() -> None:
    """3) Move Beast: a flipped Beast does not move this Beast Phase; it is turned upright."""
    state = play(with_table(start(2), ((0, "Forge"),), Pain="Guild"), "adjust flip Pain: Tactics card")
    after = play(replace(state, phase=BEAST, beast=0), "beast Pain")
    assert after.table.beast("Pain") == Beast("Pain", "Guild", flipped=False)


def test_the_future_first_player_becomes_first_player_at_cleanup() -> None:
    """3. Cleanup Phase, example: Alice has taken the Future First Player; Bob, First Player,
    passes her the First Player token in the Cleanup Phase."""
    state = start(2, names="Bob,Alice", first="1")
    state = play(state, "adjust future first Alice: took the Future First Player card")
    last = replace(state, phase=BEAST, beast=3)
    after = play(last, "beast Harrow")
    assert after.round == 2 and after.table.first == 1 and after.future_first is None


def test_no_adjustment_while_a_question_is_open() -> None:
    state = with_table(start(3, names="Alice,Bob,Carol"), ((1, "Ridge"), (2, "Circle")), Pain="Brink")
    asked = play(replace(state, phase=BEAST, beast=0), "beast Pain")
    with pytest.raises(IllegalMove, match="answer the open question first"):
        play(asked, "adjust Alice +1K: card")


def test_the_adjustment_is_kept_in_the_games_history(tmp_path: Path) -> None:
    """What was changed and why stays with the game, replayed after a restart."""
    store = Store(tmp_path / "companion.sqlite3")
    session = Session.start(store, "turris", 2, {"names": "Alice,Bob", "first": "1", "seed": "3"})
    while GAME.to_move(session.state) == "chance":
        session.play(str(GAME.legal_moves(session.state)[0]), session.state_id)
    session.play("adjust Alice +2K: Tactics card Scavenge", session.state_id)
    again = Session(Store(tmp_path / "companion.sqlite3"), session.game_id)
    assert str(again.history[-1]) == "adjust Alice +2K: Tactics card Scavenge"
    assert again.state.table.tribes[0].resources == (3, 2, 0, 0)


def test_a_d12_or_d4_rolled_for_a_card_names_a_location_or_a_beast() -> None:
    """The box has a d12 and a d4 ("02 Components"); the Locations are numbered 1-12 (solo
    mode) and the Beasts 1-4 ("03 Setup" 3: "Pain, number 1"). A card's roll is given by its
    number, and the page lists the numbers."""
    state = with_table(start(2, names="Alice,Bob"), Pain="Guild")
    assert play(state, "adjust fruit 7: Tactics card, d12 rolled 7").table.fruit == "Brink"
    assert play(state, "adjust 1 to 2: Tactics card, d4 1, d12 2").table.beast("Pain").location == "Forge"
    shared = GAME.describe(state).shared
    assert any(
        "Locations 1 Spire, 2 Forge" in line and "Beasts 1 Pain, 2 Delusion" in line for line in shared
    )
