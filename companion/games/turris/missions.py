"""Turris Complete Mission Step: can a Mission's cost be paid, and how ("2) Complete Mission
Step"). The 50 Missions are not printed in the text: their costs come from the table."""

from __future__ import annotations

from collections.abc import Sequence

from .beasts import RESOURCES, Tribe


def shortfall(cost: Sequence[int], held: Sequence[int]) -> int:
    """Resources missing for `cost` (I, K, R, W), each of which an Artifact may stand in for."""
    return sum(max(0, need - have) for need, have in zip(cost, held))


def why_not_complete(cost: Sequence[int], tribe: Tribe, reserved: bool) -> str | None:
    """None if `tribe` can pay `cost` now, else why. A reserved Mission costs 1 resource less
    (of your choice); an Artifact may be spent instead of any 1 resource."""
    discount = 1 if reserved and sum(cost) > 0 else 0
    missing = shortfall(cost, tribe.resources)
    if missing <= tribe.artifacts + discount:
        return None
    names = ", ".join(
        f"{need - have} {name}" for name, need, have in zip(RESOURCES, cost, tribe.resources) if need > have
    )
    extra = " (1 less: reserved)" if discount else ""
    return f"missing {names}{extra}; {tribe.artifacts} Artifact(s) to stand in"
