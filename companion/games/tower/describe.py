"""The table in plain lines for the page."""

from __future__ import annotations

from ..base import SeatView, TableView
from .state import TowerState


def describe(state: TowerState) -> TableView:
    return TableView(headline="", seats=tuple(SeatView(p.name, p.colour) for p in state.players))
