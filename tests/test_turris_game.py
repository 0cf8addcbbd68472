"""Turris as a whole game: the turn's steps in order, the Beast Phase asked of the players, the
end. Each test names the rulebook section its rule or example comes from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.games.base import CHANCE, BadMoveText, BadSetup, BadState, IllegalMove, Setup
from companion.games.registry import get_game
from companion.games.turris.beasts import Beast, Scout, Tribe
from companion.games.turris.game import Move, TurrisState

GAME = get_game("turris")


def start(players: int = 3, **options: str) -> TurrisState:
    """A game after set-up with the first five Missions of the deck face up."""
    state = GAME.initial_state(Setup(players, {"first": "1", **options}))
    while GAME.to_move(state) == CHANCE:
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    return state


def play(state: TurrisState, *moves: str) -> TurrisState:
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(text))
    return state


def with_tribe(state: TurrisState, seat: int, **changes: object) -> TurrisState:
    tribes = list(state.table.tribes)
    tribes[seat] = replace(tribes[seat], **changes)  # type: ignore[arg-type]
    return replace(state, table=replace(state.table, tribes=tuple(tribes)))


def moves(state: TurrisState) -> list[str]:
    return [str(m) for m in GAME.legal_moves(state)]


def test_setup() -> None:
    """03 Setup: Beasts on A-D (Pain A, Delusion B, Despair C, Harrow D); 5 Missions face up;
    each player 4 Scouts, 3 Ichor and one Tactics card; in a 3-player game the D spot has no
    Excavation Site; the First Player starts."""
    state = start(3)
    assert [(b.name, b.location) for b in state.table.beasts] == [
        ("Pain", "A"),
        ("Delusion", "B"),
        ("Despair", "C"),
        ("Harrow", "D"),
    ]
    assert len(state.tableau) == 5 and len(state.deck) == 45
    assert all(t == Tribe() and t.reserve == 4 and t.resources == (3, 0, 0, 0) for t in state.table.tribes)
    assert [t.tactics for t in state.tallies] == [1, 1, 1]
    assert state.table.no_site == frozenset({"D"})
    assert GAME.to_move(state) == 0 and GAME.phase(state) == "Action Step"
    assert GAME.to_move(GAME.initial_state(Setup(2, {"seed": "1"}))) == CHANCE, "the Missions are drawn first"


def test_refill_draws_from_the_real_deck() -> None:
    """03 Setup 6: the Missions are drawn from the shuffled deck: each card as likely as its copies."""
    state = GAME.initial_state(Setup(2, {"missions": "2K=2,2K=2,3W=3,1I+1R=2,4R=5,5W=6"}))
    assert dict((str(m), p) for m, p in GAME.chance_outcomes(state)) == {
        "draw 1I+1R=2": 1 / 6,
        "draw 2K=2": 2 / 6,
        "draw 3W=3": 1 / 6,
        "draw 4R=5": 1 / 6,
        "draw 5W=6": 1 / 6,
    }


def test_place_example_garden_nest_guild() -> None:
    """1) Action Step, PLACE example: Bob got to the Garden first (limited to 1), so Alice Places
    in the Nest and draws two Tactics cards at once (Immediate), then in the Guild, whose
    resources wait for a Collect."""
    state = start(3, names="Bob,Alice,Carol")
    state = play(state, "place Garden", "gather ichor", "no mission")  # Bob
    assert state.current == 1
    assert "place Garden" not in moves(state)
    with pytest.raises(IllegalMove, match="limited to 1 Scout"):
        play(state, "place Garden")
    alice = play(state, "place Nest")
    assert alice.tallies[1].tactics == 3
    alice = play(alice, "place Guild")
    assert alice.table.tribes[1].resources == (3, 0, 0, 0), "the Guild is not Immediate"
    assert sorted(s.location for s in alice.table.scouts if s.seat == 1) == ["Guild", "Nest"]


def test_collect_example() -> None:
    """1) Action Step, COLLECT example: Alice Collects her Scouts from the Nest and the Guild for
    2 Ichor and gets the Guild's resources but not the Nest's cards again."""
    state = start(2)
    table = replace(state.table, scouts=(Scout(0, "Nest"), Scout(0, "Guild")))
    state = with_tribe(replace(state, table=table), 0, reserve=2)
    after = play(state, "collect Guild+Nest")
    tribe = after.table.tribes[0]
    assert tribe.reserve == 4 and tribe.resources == (1, 1, 1, 0), "paid 2 Ichor, gained the Guild's 1K+1R"
    assert after.tallies[0].tactics == 1
    assert not any(m.startswith(("place", "collect")) for m in moves(after)), "no Place after a Collect"
    assert play(state, "collect nest+guild") == after, "the Scouts of a Collect in any order"


def test_gather_three_ichor() -> None:
    """1) Action Step, GATHER ICHOR example: Bob spends both actions to Gather 3 Ichor."""
    state = play(start(2), "gather ichor", "gather ichor")
    assert state.table.tribes[0].resources[0] == 6
    assert GAME.phase(state) == "Complete Mission Step"


def test_force_revive_example() -> None:
    """1) Action Step, FORCE REVIVE example: 3 Ichor for one Scout (1 if all 4 are dead)."""
    state = with_tribe(start(2), 0, graveyard=2, reserve=2)
    after = play(state, "force revive")
    assert after.table.tribes[0].graveyard == 1 and after.table.tribes[0].resources[0] == 0
    assert "force revive" not in moves(after), "no Ichor left for a second"
    all_dead = with_tribe(start(2), 0, graveyard=4, reserve=0, resources=(1, 0, 0, 0))
    assert play(all_dead, "force revive").table.tribes[0].resources[0] == 0


def test_complete_mission_and_refill() -> None:
    """2) Complete Mission Step: pay the resources, gain the Prestige; the tableau is refilled at
    the end of the turn (and only then)."""
    state = start(2, missions="2K=2,3W=3,1I+1R=2,4R=5,5W=6,2R=2")
    state = with_tribe(state, 0, resources=(3, 2, 0, 0))
    state = play(state, "gather ichor", "gather ichor")
    assert moves(state) == ["complete 2K=2", "no mission", "play tactics"]  # the Tactics card held
    done = play(state, "complete 2K=2")
    assert done.tallies[0].prestige == 2 and done.tallies[0].missions == 1
    assert done.table.tribes[0].resources == (6, 0, 0, 0)
    assert GAME.to_move(done) == CHANCE and GAME.legal_moves(done) == (Move("draw", "5W=6"),)
    assert len(play(done, "draw 5W=6").tableau) == 5


def test_artifacts_stand_in_for_resources() -> None:
    """ARTIFACTS, Wild resource: an Artifact may be spent instead of any 1 resource."""
    state = start(2, missions="2K=2,3W=3,1I+1R=2,4R=5,5W=6")
    state = play(with_tribe(state, 0, resources=(0, 1, 0, 0), artifacts=1), "gather ichor", "gather ichor")
    done = play(state, "complete 2K=2")
    assert done.table.tribes[0].artifacts == 0 and done.table.tribes[0].resources == (3, 0, 0, 0)


def test_grove_room_in_the_trionfi_step() -> None:
    """3) Trionfi Step example: Alice Collects from the Grove with one room built and 3 Missions,
    completes a fourth Mission, and builds a room in the Trionfi Step for 5 Prestige."""
    state = start(2, missions="2K=2,3W=3,1I+1R=2,4R=5,5W=6")
    state = replace(state, table=replace(state.table, scouts=(Scout(0, "Grove"),)))
    state = with_tribe(state, 0, reserve=3, resources=(3, 2, 0, 0))
    tallies = (replace(state.tallies[0], rooms=1, missions=3, room_prestige=5), state.tallies[1])
    state = replace(state, tallies=tallies)
    state = play(state, "collect Grove", "gather ichor")
    assert GAME.phase(state) == "Complete Mission Step"
    not_yet = play(state, "no mission")
    assert GAME.phase(not_yet) != "Trionfi Step", "3 Missions are not enough for a second room"
    state = play(state, "complete 2K=2")
    assert GAME.phase(state) == "Trionfi Step" and moves(state) == ["build room", "no room"]
    built = play(state, "build room")
    assert built.tallies[0].rooms == 2 and built.tallies[0].room_prestige == 10


def test_council_room_is_built_at_once() -> None:
    """3) Trionfi Step example: Bob Places in the Circle (Immediate), advances one step on the
    Council track onto the Tower room spot and, with 2 Missions, takes a room at once for 3 Prestige."""
    state = start(2, council="-,1K,room,2A")
    state = with_tribe(state, 0, council=1)
    state = replace(state, tallies=(replace(state.tallies[0], missions=2), state.tallies[1]))
    after = play(state, "place Circle")
    assert after.table.tribes[0].council == 2
    assert after.tallies[0].rooms == 1 and after.tallies[0].room_prestige == 3
    assert GAME.phase(after) == "Action Step", "built at once, not in the Trionfi Step"


def test_council_track_rewards_and_the_way_back() -> None:
    """COUNCIL TRACK: each new spot's reward; after a spot of the last level the token goes back
    to the start (assumed always, turris.toml)."""
    state = with_tribe(start(2, council="-,1K,2A"), 0, council=1)
    first = play(state, "place Circle")
    assert first.table.tribes[0].artifacts == 2
    again = play(with_tribe(first, 0, council=2), "place Circle")
    assert again.table.tribes[0].resources[1] == 1, "back at the start, then one step to the 1K spot"


def test_hand_is_discarded_to_four() -> None:
    """3) Trionfi Step: after it, discard down to 4 Tactics cards."""
    state = play(start(2), "place Nest", "place Nest")
    assert state.tallies[0].tactics == 5
    assert play(state, "no mission").tallies[0].tactics == 4


def round_to_beasts(state: TurrisState) -> TurrisState:
    while GAME.phase(state) != "Beast Phase":
        state = GAME.apply(
            state,
            GAME.legal_moves(state)[-1] if GAME.to_move(state) != CHANCE else GAME.legal_moves(state)[0],
        )
    return state


def test_beast_phase_asks_the_first_player() -> None:
    """2. Beast Phase, Choose Target Example 2: the Delusion in the Brink, one Scout each in the
    Ridge and the Circle: the First Player chooses the target, on the phone."""
    state = start(2)
    beasts = (Beast("Pain", None), Beast("Delusion", "Brink"), Beast("Despair", None), Beast("Harrow", "D"))
    state = replace(
        state, table=replace(state.table, beasts=beasts, scouts=(Scout(1, "Ridge"), Scout(1, "Circle")))
    )
    state = with_tribe(state, 1, reserve=2)
    state = round_to_beasts(state)
    assert GAME.to_move(state) == "beast" and moves(state) == ["beast Delusion"]
    asked = play(state, "beast Delusion")
    assert GAME.to_move(asked) == asked.table.first and moves(asked) == ["answer Circle", "answer Ridge"]
    assert asked.table == state.table, "nothing moves until the whole turn is known"
    after = play(asked, "answer Ridge")
    while after.ask:  # where the Delusion pushes the Scout: the First Player's choice too
        after = GAME.apply(after, GAME.legal_moves(after)[0])
    assert after.table.beast("Delusion").location == "Ridge"
    assert any("Ridge" in line for line in after.log)


def test_devoured_scouts_take_council_rewards() -> None:
    """2. Beast Phase, The Pain: Devoured Scouts go to the Graveyard and their owner MUST advance
    on the Council track, gaining the rewards."""
    state = start(2, council="-,2W,1K")
    beasts = (Beast("Pain", "Grove"), Beast("Delusion", None), Beast("Despair", None), Beast("Harrow", None))
    state = replace(state, table=replace(state.table, beasts=beasts, scouts=(Scout(1, "Abyss"),) * 2))
    state = round_to_beasts(with_tribe(state, 1, reserve=2))
    after = play(state, "beast Pain")
    tribe = after.table.tribes[1]
    assert tribe.graveyard == 2 and tribe.council == 2 and tribe.resources[1:] == (1, 0, 2)


def test_endgame_removes_beasts_and_ends() -> None:
    """ENDGAME: triggered before the Beast Phase, a Beast leaves at the end of this round's Beast
    Phase (the Harrow first); with none left after Cleanup the game ends; the most Prestige wins."""
    state = start(2, missions="2K=40,3W=3,1I+1R=2,4R=5,5W=6,2R=2")
    state = play(
        with_tribe(state, 0, resources=(3, 2, 0, 0)), "gather ichor", "gather ichor", "complete 2K=40"
    )
    assert state.removals_from == 1
    state = round_to_beasts(state)
    while GAME.phase(state) == "Beast Phase":
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert state.table.beast("Harrow").location is None and state.round == 2
    for _ in range(3):
        state = round_to_beasts(state)
        while GAME.phase(state) == "Beast Phase":
            state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_move(state) is None and state.round == 4
    sheet = GAME.score(state)
    assert sheet.final and sheet.standings[0].seat == 0 and sheet.standings[0].total >= 40


def test_tie_breakers_in_the_score_sheet() -> None:
    """ENDGAME: ties on Prestige go to the most resources, then the nearer to the First Player."""
    state = with_tribe(with_tribe(start(3), 1, resources=(4, 0, 0, 0)), 2, resources=(4, 0, 0, 0))
    sheet = GAME.score(state)
    assert [s.seat for s in sheet.standings] == [1, 2, 0]
    assert "nearer the First Player" in sheet.standings[0].note


def test_bad_input() -> None:
    """Clear errors: bad set-ups, move texts and states."""
    for players, options in (
        (0, {}),
        (5, {}),
        (2, {"first": "3"}),
        (2, {"missions": "2X=3"}),
        (2, {"rewards": "Moon=1K"}),
        (2, {"beasts": "shuffled"}),
        (2, {"colour": "red"}),
    ):
        with pytest.raises(BadSetup):
            GAME.initial_state(Setup(players, options))
    for text in ("fly Guild", "place", "gather ichor twice", ""):
        with pytest.raises(BadMoveText):
            GAME.parse_move(text)
    with pytest.raises(IllegalMove, match="no Scout in your Graveyard"):
        play(start(2), "force revive")
    good = GAME.state_to_json(start(2))
    for bad in ({"game": "amharb"}, {**good, "phase": "lunch"}, {**good, "tableau": ["2K"]}):
        with pytest.raises(BadState):
            GAME.state_from_json(bad)


def test_page_lines() -> None:
    """What the phone shows for Turris: each player's tracks, resources and Scouts; the Beasts."""
    view = GAME.describe(start(2, names="Ana,Ben"))
    assert view.headline == "Round 1 · Action Step" and view.seats[0].current
    assert "Prestige 0 · First Player" in view.seats[0].lines
    assert any(line.startswith("Scouts: 4 in reserve") for line in view.seats[1].lines)
    assert view.shared[0].startswith("Beasts: Pain in the A")


def test_solo_setup_and_betrayer_phase() -> None:
    """06 Solo Play: the Betrayers' two Scouts start in locations 1 and 10, you are First Player;
    after your turn the Betrayer Phase moves each to the next higher-numbered free Location,
    a Beast Movement card is drawn and its Beast moves (to the card's Location while none of
    your Scouts is on the board), and the Betrayers gain 1 Prestige; then the Beast Phase."""
    state = start(1, movement="Harrow@Garden,Pain@Nest")
    assert sorted(s.location for s in state.table.scouts) == ["Abyss", "Spire"]  # numbers 1, 10 (assumed)
    assert GAME.to_move(state) == 0
    state = play(state, "gather ichor", "gather ichor", "no mission")
    assert GAME.to_move(state) == "betrayers" and moves(state) == ["betrayers move"]
    state = play(state, "betrayers move")
    assert sorted(s.location for s in state.table.scouts) == ["Forge", "Grove"]
    assert GAME.to_move(state) == CHANCE and moves(state) == ["card Harrow@Garden", "card Pain@Nest"]
    state = play(state, "card Harrow@Garden", "beast Harrow")
    assert state.table.beast("Harrow").location == "Nest", "one step from D towards the Garden"
    assert any("Beast Movement card" in line for line in state.log)
    assert state.betrayers == 1 and GAME.phase(state) == "Beast Phase"


def test_solo_betrayers_reaching_40_first_win() -> None:
    """06 Solo Play, ENDGAME: if the Betrayers reach 40 Prestige first, you lose at once."""
    state = replace(start(1), betrayers=39)
    state = play(state, "gather ichor", "gather ichor", "no mission", "betrayers move")
    state = GAME.apply(state, GAME.legal_moves(state)[0])  # the Beast Movement card
    while GAME.to_move(state) is not None and GAME.phase(state).startswith("Betrayer Phase"):
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_move(state) is None and state.result == "lost"
    assert GAME.score(state).standings[0].note.startswith("lost")


def test_solo_forty_prestige_wins_at_once() -> None:
    """06 Solo Play, ENDGAME: 40 Prestige before the Betrayers wins, and the game ends at once."""
    state = start(1, missions="2K=40,3W=3,1I+1R=2,4R=5,5W=6")
    state = play(
        with_tribe(state, 0, resources=(3, 2, 0, 0)), "gather ichor", "gather ichor", "complete 2K=40"
    )
    assert GAME.to_move(state) is None and state.result == "won"


def test_solo_rooms_need_an_undamaged_room() -> None:
    """06 Solo Play, Player Turn Phase: with no Tower room free of Damaged tiles the Grove does
    nothing (assumed: Damaged tiles lie on the rooms not yet built)."""
    state = start(1)
    state = replace(state, table=replace(state.table, scouts=(*state.table.scouts, Scout(0, "Grove"))))
    state = replace(with_tribe(state, 0, reserve=3), tallies=(replace(state.tallies[0], missions=2),))
    assert GAME.phase(play(state, "collect Grove", "gather ichor", "no mission")) == "Trionfi Step"
    damaged = replace(state, damaged=6)
    assert GAME.phase(play(damaged, "collect Grove", "gather ichor", "no mission")) != "Trionfi Step"


def test_the_panel_follows_the_beast_phase_one_beast_at_a_time(tmp_path: Path) -> None:
    """Issue 6, panel: the phase LEDs show the turn's steps and the Beast Phase; the beast LED
    the Beast that acts now; NEXT resolves the next Beast (Pain, Delusion, Despair, Harrow:
    04 Gameplay, Beast Phase), one press each."""
    from gpiozero.pins.mock import MockFactory

    from companion.service import CameraWatch, Devices
    from companion.store import Store
    from companion.table import Table
    from hardware.panel import ButtonEvent, Panel, load_pinmap

    table = Table(Store(tmp_path / "db.sqlite3"))
    session = table.new_game("turris", 2, {"seed": "3"})
    panel = Panel(load_pinmap(), MockFactory(), ticking=False)
    devices = Devices(CameraWatch(None), panel, table)
    game = session.game
    devices._show_game()
    assert [led.value for led in panel.phase_leds] == [0, 0, 1, 0]  # the Mission tableau is dealt
    while game.phase(session.state) != "Action Step":
        session.play(game.legal_moves(session.state)[0])
    devices._show_game()
    assert [led.value for led in panel.phase_leds] == [1, 0, 0, 0]
    while game.phase(session.state) != "Beast Phase":
        session.play(game.legal_moves(session.state)[0])
    devices._show_game()
    assert panel.phase_leds[3].value
    acted = []
    while game.phase(session.state) == "Beast Phase" and game.to_move(session.state) == "beast":
        lit = [name for name, led in panel.beast_leds.items() if led.value]
        expected = game.beast(session.state)
        assert lit == [expected]
        devices.handle(ButtonEvent("next", "press", 0.0))
        acted.append(expected)
    assert acted == sorted(acted, key=["pain", "delusion", "despair", "harrow"].index) and acted
    panel.close()


def test_one_tactics_card_per_action_step_and_the_stroboscope_example() -> None:
    """1) Action Step: "You are limited to playing 1 Tactics card during your Action step.
    However, Tactics played through the effects of any other sources ... do not count
    against this limit." Example: Carol Places in the Stroboscope Excavation Site, which lets
    her draw another Tactics card and play it; she may still play her own. The site's draw
    and play are an adjust (its text is on the card); her own card is `play tactics`."""
    state = start(3, names="Carol,Alice,Bob")
    beasts = tuple(Beast(b.name, "Forge" if b.name == "Pain" else b.location) for b in state.table.beasts)
    state = replace(state, table=replace(state.table, beasts=beasts))  # the Pain has left site A
    assert "play tactics" in moves(state)
    state = play(state, "place A", "adjust Carol +1T -1T: Stroboscope, drew and played a Tactics card")
    assert state.tallies[0].tactics == 1 and "play tactics" in moves(state)
    state = play(state, "play tactics")
    assert state.tallies[0].tactics == 0 and "play tactics" not in moves(state)
    state = play(state, "adjust Carol +2T: a card", "place Guild")
    assert "play tactics" not in moves(state), "the limit holds for the whole Action Step"
    with pytest.raises(IllegalMove, match="the limit is 1"):
        play(state, "play tactics")
    after_turn = play(state, "no mission")
    assert after_turn.current == 1 and "play tactics" in moves(after_turn)
