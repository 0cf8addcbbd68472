"""Turris Complete Mission Step ("04 Gameplay, 2) Complete Mission Step")."""

from __future__ import annotations

from companion.games.turris.beasts import Tribe
from companion.games.turris.missions import why_not_complete


def test_reserved_mission_example_costs_one_knowledge_less() -> None:
    """Example: Carol reserved a Mission and pays 1 Knowledge fewer than normal to complete it."""
    cost = (0, 3, 1, 0)  # 3 Knowledge and 1 Relic (the card's cost is read off the table)
    carol = Tribe(resources=(0, 2, 1, 0))
    assert why_not_complete(cost, carol, reserved=True) is None
    assert "missing 1 K" in (why_not_complete(cost, carol, reserved=False) or "")


def test_an_artifact_stands_in_for_any_one_resource() -> None:
    """Artifacts: "Wild resource - may be spent instead of any 1 resource (I/K/R/W) at any time"."""
    cost = (1, 1, 1, 1)
    assert why_not_complete(cost, Tribe(resources=(1, 1, 1, 0), artifacts=1), reserved=False) is None
    assert why_not_complete(cost, Tribe(resources=(1, 1, 0, 0), artifacts=1), reserved=False) is not None
    assert why_not_complete(cost, Tribe(resources=(1, 1, 0, 0), artifacts=1), reserved=True) is None
