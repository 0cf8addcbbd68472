"""Turris Beast Phase against the rulebook: every example of "2. Beast Phase", the Artifact
examples, the Cleanup Phase's Altar track and the Endgame's Beast removal.

Alice, Bob, Carol and Dave sit in seats 0-3 in turn order. Positions use the assumed map of
companion/games/turris/turris.toml, which agrees with every example.
"""

from __future__ import annotations

import pytest

from companion.games.turris.beasts import (
    BETRAYERS,
    Beast,
    Scout,
    Table,
    Tribe,
    beast_turn,
    cleanup,
    no_beasts_left,
    remove_next_beast,
    speed,
)
from companion.games.turris.board import BadBoard, Board, default_board

ALICE, BOB, CAROL, DAVE = range(4)
BOARD = default_board()


def table(
    scouts: list[tuple[int, str]] = (),  # type: ignore[assignment]
    beasts: dict[str, str] | None = None,
    players: int = 3,
    first: int = ALICE,
    tribes: dict[int, Tribe] | None = None,
    **changes: object,
) -> Table:
    """A table with the Beasts on their starting spots A-D unless moved by `beasts`."""
    where = {"Pain": "A", "Delusion": "B", "Despair": "C", "Harrow": "D", **(beasts or {})}
    return Table(
        tribes=tuple((tribes or {}).get(seat, Tribe()) for seat in range(players)),
        scouts=tuple(Scout(seat, place) for seat, place in scouts),
        beasts=tuple(Beast(name, where[name]) for name in ("Pain", "Delusion", "Despair", "Harrow")),
        first=first,
        **changes,  # type: ignore[arg-type]
    )


def texts(turn: object) -> str:
    return "\n".join(event.text for event in turn.events)  # type: ignore[attr-defined]


def test_the_assumed_board_agrees_with_the_rulebook_geometry() -> None:
    """Distances the examples state ("Choose Target" 1-3, "Plot Path", "The Delusion")."""
    gone: frozenset[str] = frozenset()
    guild = BOARD.distances_from("Guild", gone)
    assert guild["Forge"] == guild["Shrine"] == 1
    brink = BOARD.distances_from("Brink", gone)
    assert brink["Ridge"] == brink["Circle"] == 1
    nest = BOARD.distances_from("Nest", gone)
    assert nest["Ridge"] < nest["Guild"]
    assert set(BOARD.shortest_paths("Crossroad East", "Brink", gone)) == {
        ("Crossroad East", "Ridge", "Brink"),
        ("Crossroad East", "Circle", "Brink"),
    }
    assert BOARD.shortest_paths("Grove", "Nest", gone) == (("Grove", "Abyss", "Nest"),)
    assert BOARD.neighbours("Spire", gone) == ("Forge", "Garden")


def test_a_board_with_an_edge_to_nowhere_is_refused() -> None:
    with pytest.raises(BadBoard, match="edge"):
        Board.from_data({"locations": ["X", "Y"], "crossroads": [], "excavation": [], "edges": [["X", "Z"]]})
    with pytest.raises(BadBoard, match="connected"):
        Board.from_data({"locations": ["X", "Y"], "crossroads": [], "excavation": [], "edges": []})


def test_target_the_closest_location_then_the_most_scouts() -> None:
    """Choose Target, Example 1: the Pain in the Guild, a Scout in the Forge, two in the
    Shrine, both 1 step away: the Pain targets the Shrine."""
    turn = beast_turn(
        BOARD, table([(BOB, "Forge"), (CAROL, "Shrine"), (CAROL, "Shrine")], {"Pain": "Guild"}), "Pain"
    )
    assert turn.ask is None
    assert "The Pain targets the Shrine" in texts(turn)
    assert turn.table.beast("Pain").location == "Shrine"


def test_the_first_player_chooses_between_equal_targets() -> None:
    """Choose Target, Example 2: the Delusion in the Brink, one Scout in the Ridge and one in the
    Circle, both 1 step away: Alice, the First Player, chooses."""
    start = table([(BOB, "Ridge"), (CAROL, "Circle")], {"Delusion": "Brink"})
    turn = beast_turn(BOARD, start, "Delusion")
    assert turn.ask is not None and turn.ask.who == ALICE
    assert set(turn.ask.options) == {"Ridge", "Circle"}
    chosen = beast_turn(BOARD, start, "Delusion", ("Ridge",))
    assert chosen.ask is not None and chosen.ask.options == ("Brink", "Nest")  # where to push Bob
    assert chosen.table == start  # nothing changes until the turn is worked out
    chosen = beast_turn(BOARD, start, "Delusion", ("Ridge", "Nest"))
    assert chosen.table.beast("Delusion").location == "Ridge"
    assert Scout(BOB, "Nest") in chosen.table.scouts
    assert "First Player's choice" in texts(chosen)


def test_the_closest_location_beats_the_one_with_more_scouts() -> None:
    """Choose Target, Example 3: the Despair in the Nest, one Scout in the Ridge and two in the
    Guild: the Ridge is closer, so the Despair targets it."""
    turn = beast_turn(
        BOARD, table([(BOB, "Ridge"), (CAROL, "Guild"), (CAROL, "Guild")], {"Despair": "Nest"}), "Despair"
    )
    assert turn.table.beast("Despair").location == "Ridge"


def test_every_beast_targets_the_fruit_token() -> None:
    """Choose Target, Example 4: with the Fruit token in the Isle, the Beasts ignore the Scouts
    around them and target the Isle."""
    start = table([(ALICE, "Forge"), (BOB, "Shrine")], {"Pain": "Guild"}, fruit="Isle")
    turn = beast_turn(BOARD, start, "Pain")
    assert "The Pain targets the Isle: the Fruit token is there" in texts(turn)
    assert turn.table.beast("Pain").location == "Shrine"  # one step on, and a Scout stops it there


def test_a_scout_with_a_beast_counts_as_no_scout() -> None:
    """Choose Target, Example 5: Bob's Scout shares the Despair's Location, so it is ignored;
    with no other Scout the Pain falls back on the Abyss."""
    start = table([(BOB, "Forge")], {"Pain": "Guild", "Despair": "Forge"})
    turn = beast_turn(BOARD, start, "Pain")
    assert "The Pain targets the Abyss: no Location is a valid target" in texts(turn)
    assert turn.table.beast("Pain").location == "Grove"


def test_the_first_player_chooses_between_equally_short_paths() -> None:
    """Plot Path, example: the Pain on the right Crossroad targets the Brink; Carol, the First
    Player, sends it through the Circle. Move Beast, example: with the Altar token on the Pain's
    spot it moves 2 steps to the Brink; otherwise it ends on the Circle."""
    fast = table(
        [(ALICE, "Brink")],
        {"Pain": "Crossroad East"},
        players=4,
        first=CAROL,
        fruit="Brink",
        altar="Pain",
        speed_token="Pain",
    )
    ask = beast_turn(BOARD, fast, "Pain").ask
    assert ask is not None and ask.who == CAROL and set(ask.options) == {"via Ridge", "via Circle"}
    assert speed(fast, fast.beast("Pain")) == 2
    assert beast_turn(BOARD, fast, "Pain", ("via Circle",)).table.beast("Pain").location == "Brink"
    slow = table([(ALICE, "Brink")], {"Pain": "Crossroad East"}, players=4, first=CAROL, fruit="Brink")
    assert speed(slow, slow.beast("Pain")) == 1
    assert beast_turn(BOARD, slow, "Pain", ("via Circle",)).table.beast("Pain").location == "Circle"


def test_a_scout_on_the_path_stops_the_beast() -> None:
    """Move Beast: "If there was a Scout in the Circle, the Pain would end its movement in the
    Circle" (and devour it there)."""
    start = table(
        [(ALICE, "Brink"), (BOB, "Circle")],
        {"Pain": "Crossroad East"},
        players=4,
        first=CAROL,
        fruit="Brink",
        altar="Pain",
        speed_token="Pain",
    )
    turn = beast_turn(BOARD, start, "Pain", ("via Circle",))
    assert turn.table.beast("Pain").location == "Circle"
    assert turn.table.tribes[BOB].graveyard == 1
    assert "stopped by a Scout in the Circle" in texts(turn)


def test_a_beast_may_pass_another_beast_but_never_stop_with_it() -> None:
    """Move Beast, example: the Delusion in the Grove targets the Nest through the Abyss, where
    the Harrow is: at speed 1 it does not move; at speed 2 it passes the Harrow to the Nest."""
    slow = table([(BOB, "Nest")], {"Delusion": "Grove", "Harrow": "Abyss"})
    turn = beast_turn(BOARD, slow, "Delusion")
    assert turn.table.beast("Delusion").location == "Grove"
    assert "does not move" in texts(turn) and "Harrow is in the Abyss" in texts(turn)
    fast = table(
        [(BOB, "Nest")], {"Delusion": "Grove", "Harrow": "Abyss"}, altar="Delusion", speed_token="Delusion"
    )
    turn = beast_turn(BOARD, fast, "Delusion", ("Ridge",))
    assert turn.table.beast("Delusion").location == "Nest"


def test_the_pain_devours_and_council_tokens_move_in_turn_order() -> None:
    """The Pain, example: it enters the Abyss with one Scout each of Bob and Carol; both go to
    the Graveyard and Bob, before Carol in turn order, advances his Council token first."""
    start = table([(CAROL, "Abyss"), (BOB, "Abyss")], {"Pain": "Grove"})
    turn = beast_turn(BOARD, start, "Pain")
    assert not turn.table.scouts
    assert [t.graveyard for t in turn.table.tribes] == [0, 1, 1]
    assert [t.council for t in turn.table.tribes] == [0, 1, 1]
    devours = [e.text for e in turn.events if "devours" in e.text]
    assert "player 2" in devours[0] and "player 3" in devours[1]


def test_council_order_starts_with_the_first_player() -> None:
    """ "move the Council tokens in turn order starting with the First Player": Carol first."""
    start = table([(BOB, "Abyss"), (CAROL, "Abyss")], {"Pain": "Grove"}, first=CAROL)
    devours = [e.text for e in beast_turn(BOARD, start, "Pain").events if "devours" in e.text]
    assert "player 3" in devours[0] and "player 2" in devours[1]


def test_the_delusion_pushes_scouts_where_the_first_player_says() -> None:
    """The Delusion, example: it moves into the Spire where Alice's Scout is; the Forge and the
    Garden are next to the Spire; Bob, the First Player, chooses the Garden, though a Scout is
    there already (not a Place: no limit, no Immediate effect)."""
    start = table([(ALICE, "Spire"), (CAROL, "Garden")], {"Delusion": "Forge"}, first=BOB)
    ask = beast_turn(BOARD, start, "Delusion").ask
    assert ask is not None and ask.who == BOB and ask.options == ("Forge", "Garden")
    turn = beast_turn(BOARD, start, "Delusion", ("Garden",))
    assert turn.table.beast("Delusion").location == "Spire"
    assert sorted(s.location for s in turn.table.scouts) == ["Garden", "Garden"]


def test_the_delusion_pushes_beyond_crossroads_and_beasts_when_nothing_is_next() -> None:
    """The Delusion: never onto a Crossroad or a Beast; with no such place next to it, one step
    further beyond them. The Shrine touches the Guild and the Isle (Beasts) and a Crossroad."""
    start = table([(ALICE, "Shrine")], {"Delusion": "Crossroad West", "Pain": "Guild", "Harrow": "Isle"})
    ask = beast_turn(BOARD, start, "Delusion").ask
    assert ask is not None
    assert set(ask.options) == {"Forge", "Grove", "Circle", "Abyss"}  # the Despair is on C
    assert "Crossroad West" not in ask.options and "Guild" not in ask.options


def test_the_despair_takes_knowledge_relics_weaponry_then_ichor() -> None:
    """The Despair, example: it moves in on 3 Scouts of Bob and 1 of Carol. Bob has 1 Knowledge
    and 1 Ichor: the Knowledge goes for the first, the Ichor for the second, nothing for the
    third. Then Carol discards K/R/W (her choice among what she holds)."""
    start = table(
        [(BOB, "Ridge")] * 3 + [(CAROL, "Ridge")],
        {"Despair": "Nest"},
        tribes={BOB: Tribe(resources=(1, 1, 0, 0)), CAROL: Tribe(resources=(2, 0, 1, 2))},
    )
    turn = beast_turn(BOARD, start, "Despair")
    assert turn.ask is not None and turn.ask.who == CAROL and turn.ask.options == ("R", "W")
    done = beast_turn(BOARD, start, "Despair", ("W",))
    assert done.table.tribes[BOB].resources == (0, 0, 0, 0)
    assert done.table.tribes[CAROL].resources == (2, 0, 1, 1)
    assert "player 2 has nothing the Despair can take" in texts(done)
    assert len(done.table.scouts) == 4  # the Despair devours no one


def test_the_harrow_chain_attacks_while_the_fruit_is_off_the_board() -> None:
    """The Harrow, example: from the Isle it targets the Circle and devours there; a Scout in the
    Brink, next to the Circle, sets off a Chain Attack: it targets the Brink and devours again;
    then no Scout is next to it and its turn ends."""
    start = table([(ALICE, "Circle"), (BOB, "Brink")], {"Harrow": "Isle"})
    turn = beast_turn(BOARD, start, "Harrow")
    assert turn.table.beast("Harrow").location == "Brink"
    assert not turn.table.scouts
    assert "Chain Attack: the Harrow devoured" in texts(turn)


def test_no_chain_attack_outside_the_beast_phase() -> None:
    """The Harrow: "The Chain Attack is only enabled during the Beast Phase" (e.g. moved by the
    solo Beast Movement card in the Betrayer Phase)."""
    start = table([(ALICE, "Circle"), (BOB, "Brink")], {"Harrow": "Isle"})
    turn = beast_turn(BOARD, start, "Harrow", beast_phase=False)
    assert turn.table.beast("Harrow").location == "Circle"
    assert turn.table.scouts == (Scout(BOB, "Brink"),)


def test_no_chain_attack_with_the_fruit_token_on_the_board() -> None:
    """The Harrow, example: "If there was a Fruit Token on the main board (anywhere), the Harrow
    would have ended its turn ... after Devouring the Scout in the Circle"."""
    start = table([(ALICE, "Circle"), (BOB, "Brink")], {"Harrow": "Isle"}, fruit="Circle")
    turn = beast_turn(BOARD, start, "Harrow")
    assert turn.table.beast("Harrow").location == "Circle"
    assert turn.table.scouts == (Scout(BOB, "Brink"),)
    assert "No Chain Attack" in texts(turn)


def test_an_artifact_is_not_a_resource_for_the_despair() -> None:
    """Artifacts, Example 1: Alice has no resources but an Artifact; the Despair does not take it."""
    start = table(
        [(ALICE, "Ridge")], {"Despair": "Nest"}, tribes={ALICE: Tribe(resources=(0, 0, 0, 0), artifacts=1)}
    )
    turn = beast_turn(BOARD, start, "Despair", ("no",))
    assert turn.table.tribes[ALICE] == Tribe(resources=(0, 0, 0, 0), artifacts=1)


def test_an_artifact_shields_a_scout_from_the_pain() -> None:
    """Artifacts, Example 2: Bob's Scout is in the Grove, into which the Pain moves; Bob pays an
    Artifact and the Pain stays in the Grove with the Scout."""
    start = table([(BOB, "Grove")], {"Pain": "Abyss"}, tribes={BOB: Tribe(artifacts=1)})
    ask = beast_turn(BOARD, start, "Pain").ask
    assert ask is not None and ask.who == BOB and ask.options == ("shield", "no")
    turn = beast_turn(BOARD, start, "Pain", ("shield",))
    assert turn.table.beast("Pain").location == "Grove"
    assert turn.table.scouts == (Scout(BOB, "Grove"),)
    assert turn.table.tribes[BOB].artifacts == 0 and turn.table.tribes[BOB].council == 0


def test_a_flipped_beast_does_not_move_and_is_turned_upright() -> None:
    """Move Beast: "If a Beast is flipped, that Beast does NOT move ... flip it back upright"."""
    start = table([(ALICE, "Forge")], {"Pain": "Guild"})
    start = Table(
        start.tribes, start.scouts, (Beast("Pain", "Guild", flipped=True), *start.beasts[1:]), ALICE
    )
    turn = beast_turn(BOARD, start, "Pain")
    assert turn.table.beast("Pain") == Beast("Pain", "Guild")
    assert turn.table.scouts == start.scouts


def test_a_wrong_answer_is_refused() -> None:
    start = table([(BOB, "Ridge"), (CAROL, "Circle")], {"Delusion": "Brink"})
    with pytest.raises(ValueError, match="choose one of"):
        beast_turn(BOARD, start, "Delusion", ("Garden",))


def test_cleanup_moves_the_altar_and_the_speed_token() -> None:
    """3. Cleanup Phase: the Altar token advances one spot; the Beast Speed token goes under that
    spot's Beast (2-step for the Pain, the Delusion and the Despair; no effect for the Harrow)."""
    start = table()
    assert (start.altar, start.speed_token) == ("Harrow", "Harrow")
    assert speed(start, start.beast("Harrow")) == 1
    after = cleanup(start)
    assert (after.altar, after.speed_token) == ("Pain", "Pain")
    assert speed(after, after.beast("Pain")) == 2
    spots = [after.altar]
    for _ in range(3):
        after = cleanup(after)
        spots.append(after.altar)
    assert spots == ["Pain", "Delusion", "Despair", "Harrow"]


def test_endgame_removes_the_harrow_first_and_sets_the_speed_token_aside() -> None:
    """ENDGAME: one Beast leaves after each Beast Phase, the Harrow, the Despair, the Delusion,
    then the Pain; with the Altar token on a removed Beast's spot the Speed token is set aside."""
    state = table(altar="Despair", speed_token="Despair")
    removed = []
    for _ in range(5):
        state, name = remove_next_beast(state)
        removed.append(name)
        if name == "Despair":
            assert state.speed_token is None
    assert removed == ["Harrow", "Despair", "Delusion", "Pain", None]
    assert no_beasts_left(state)
    without_despair, _ = remove_next_beast(remove_next_beast(replace_altar(table(), "Delusion"))[0])
    after = cleanup(without_despair)
    assert (after.altar, after.speed_token) == ("Despair", None)  # set aside: the Despair is gone
    assert not no_beasts_left(after)


def test_cleanup_passes_the_first_player_token_to_the_future_first_player() -> None:
    """3. Cleanup Phase, example: Alice took the Future First Player card; Bob, First Player
    this round, passes her the First Player token in the Cleanup Phase."""
    assert cleanup(table(first=BOB), future_first=ALICE).first == ALICE
    assert cleanup(table(first=BOB)).first == BOB


def replace_altar(state: Table, altar: str) -> Table:
    from dataclasses import replace

    return replace(state, altar=altar, speed_token=altar)


def test_an_empty_excavation_spot_is_gone_once_its_beast_leaves() -> None:
    """Excavation Sites: with 2 players spots C and D hold no site; once the Despair leaves C, no
    Beast moves into it and no Scout is pushed there."""
    start = table([(ALICE, "Isle")], {"Despair": "C"}, players=2, no_site=frozenset({"C", "D"}))
    assert "C" not in start.gone()
    turn = beast_turn(BOARD, start, "Despair")
    assert turn.table.beast("Despair").location == "Isle"
    assert "C" in turn.table.gone()
    assert "C" not in BOARD.distances_from("Circle", turn.table.gone())
    pushed = table(
        [(ALICE, "Isle")],
        {"Delusion": "Shrine", "Despair": "Spire"},
        players=2,
        no_site=frozenset({"C", "D"}),
    )
    ask = beast_turn(BOARD, pushed, "Delusion").ask
    assert ask is not None and ask.options == ("Shrine", "Circle")  # never C, never the Crossroad


def test_solo_beasts_ignore_the_betrayers_but_stop_at_them_and_push_them() -> None:
    """Solo Play, Beast Phase 1-3: Beasts ignore the Betrayers' Scouts when targeting, end their
    move on entering one's Location, and push it aside instead of resolving their effect on it."""
    start = table(
        [(ALICE, "Brink"), (BETRAYERS, "Circle")],
        {"Pain": "Crossroad East"},
        players=1,
        fruit=None,
        altar="Pain",
        speed_token="Pain",
    )
    turn = beast_turn(BOARD, start, "Pain", ("via Circle", "Isle"))
    assert "The Pain targets the Brink" in texts(turn)
    assert turn.table.beast("Pain").location == "Circle"
    assert Scout(BETRAYERS, "Isle") in turn.table.scouts


def test_solo_beasts_follow_the_movement_card_with_no_scout_of_yours_on_the_board() -> None:
    """Solo Play, Beast Phase 4: none of your Scouts on the board, so the Beast targets the
    Location on the Beast Movement card."""
    start = table([(BETRAYERS, "Spire")], {"Pain": "Ridge"}, players=1, card_target="Nest")
    turn = beast_turn(BOARD, start, "Pain")
    assert "Beast Movement card" in texts(turn)
    assert turn.table.beast("Pain").location == "Nest"  # the Abyss would be 2 steps by 2 ways
