"""Turris Action Step ("04 Gameplay, 1) Action Step") and its examples."""

from __future__ import annotations

from companion.games.turris.actions import (
    ActionStep,
    collect_rewards,
    force_revive_cost,
    gather_ichor_gain,
    why_not_collect,
    why_not_place,
)
from companion.games.turris.beasts import BETRAYERS, Tribe
from tests.test_turris_beasts import ALICE, BOARD, BOB, table


def test_place_example_the_garden_is_limited_to_one_scout() -> None:
    """PLACE, example: Bob got to the Garden first, so Alice may not Place there; she Places in
    the Nest (Immediate) and then in the Guild (not Immediate)."""
    start = table([(BOB, "Garden")])
    assert "limited to 1 Scout" in (why_not_place(BOARD, start, ActionStep(), ALICE, "Garden") or "")
    assert why_not_place(BOARD, start, ActionStep(), ALICE, "Nest") is None
    assert why_not_place(BOARD, start, ActionStep(actions_left=1, placed=True), ALICE, "Guild") is None
    assert "Nest" in BOARD.immediate and "Guild" not in BOARD.immediate
    # Trionfi Step example: Bob Places in the Circle and advances on the Council track at once.
    assert collect_rewards(BOARD, table([(BOB, "Circle")]), ("Circle",))[0][1].startswith(
        "no reward: Immediate"
    )


def test_place_is_refused_where_a_beast_is_and_after_collect() -> None:
    start = table(beasts={"Pain": "Forge"})
    assert "Pain" in (why_not_place(BOARD, start, ActionStep(), ALICE, "Forge") or "")
    assert "after a COLLECT" in (
        why_not_place(BOARD, start, ActionStep(collected=True), ALICE, "Guild") or ""
    )
    assert "not a Location" in (why_not_place(BOARD, start, ActionStep(), ALICE, "Crossroad East") or "")
    gone = table(players=2, no_site=frozenset({"C", "D"}), beasts={"Despair": "Isle", "Pain": "Spire"})
    assert "not a Location" in (why_not_place(BOARD, gone, ActionStep(), ALICE, "C") or "")
    assert why_not_place(BOARD, gone, ActionStep(), ALICE, "A") is None


def test_solo_you_cannot_place_with_a_betrayer() -> None:
    start = table([(BETRAYERS, "Spire")], players=1)
    assert "Betrayers" in (why_not_place(BOARD, start, ActionStep(), ALICE, "Spire") or "")


def test_collect_example_pays_ichor_per_scout_and_skips_immediate_rewards() -> None:
    """COLLECT, example: Alice recalls her Scouts from the Nest and the Guild for 2 Ichor and
    gets the Guild's resources, not the Nest's cards (she had them when she Placed)."""
    start = table(
        [(ALICE, "Nest"), (ALICE, "Guild")], tribes={ALICE: Tribe(resources=(2, 0, 0, 0), reserve=2)}
    )
    assert why_not_collect(start, ActionStep(), ALICE, ("Nest", "Guild")) is None
    rewards = dict(collect_rewards(BOARD, start, ("Nest", "Guild")))
    assert rewards["Guild"] == "reward" and rewards["Nest"].startswith("no reward: Immediate")
    poor = table(
        [(ALICE, "Nest"), (ALICE, "Guild")], tribes={ALICE: Tribe(resources=(1, 0, 0, 0), reserve=2)}
    )
    assert "costs 2 Ichor" in (why_not_collect(poor, ActionStep(), ALICE, ("Nest", "Guild")) or "")
    with_artifact = table(
        [(ALICE, "Nest"), (ALICE, "Guild")],
        tribes={ALICE: Tribe(resources=(1, 0, 0, 0), artifacts=1, reserve=2)},
    )
    assert why_not_collect(with_artifact, ActionStep(), ALICE, ("Nest", "Guild")) is None


def test_collect_rules() -> None:
    """COLLECT once per turn, never after PLACE; a Beast with the Scout blocks the reward but
    the Scout may still be recalled."""
    start = table([(ALICE, "Guild")], {"Pain": "Guild"})
    assert "after a PLACE" in (why_not_collect(start, ActionStep(placed=True), ALICE, ("Guild",)) or "")
    assert "once per turn" in (why_not_collect(start, ActionStep(collected=True), ALICE, ("Guild",)) or "")
    assert why_not_collect(start, ActionStep(), ALICE, ("Guild",)) is None
    assert collect_rewards(BOARD, start, ("Guild",)) == (("Guild", "no reward: the Pain is there"),)
    assert "1 Scout" in (why_not_collect(start, ActionStep(), ALICE, ("Guild", "Guild")) or "")


def test_gather_ichor_example_two_actions_give_three() -> None:
    """GATHER ICHOR, example: Bob spends both actions and gathers 3 Ichor."""
    first = gather_ichor_gain(ActionStep())
    second = gather_ichor_gain(ActionStep(actions_left=1, gathered=1))
    assert (first, second, first + second) == (1, 2, 3)


def test_force_revive_costs_three_or_one_when_all_are_dead() -> None:
    """FORCE REVIVE, example: Bob spends 3 Ichor to revive one Scout; with all 4 in the
    Graveyard it costs 1."""
    assert force_revive_cost(graveyard=2) == 3
    assert force_revive_cost(graveyard=4) == 1
