"""Plain-JSON views of a game for the CLI, the web API and the page."""

from __future__ import annotations

from typing import Any

from .games.base import Game, ScoreSheet


def score_json(game: Game[Any, Any], state: Any, sheet: ScoreSheet | None = None) -> dict[str, Any]:
    """The score sheet: every source with each seat's measure and points, and the standings."""
    sheet = sheet or game.score(state)
    names = game.seat_names(state)
    return {
        "final": sheet.final,
        "seats": list(names),
        "sources": [
            {
                "name": s.name,
                "rule": s.rule,
                "measures": list(s.measures),
                "points": list(s.points),
                "why": s.why,
            }
            for s in sheet.sources
        ],
        "totals": [sheet.total(seat) for seat in range(len(names))],
        "standings": [
            {"seat": st.seat, "name": names[st.seat], "place": st.place, "total": st.total, "note": st.note}
            for st in sheet.standings
        ],
    }


def moves_json(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """Who is to move, in which phase, and every legal move as text."""
    return {
        "to_move": game.to_move(state),
        "phase": game.phase(state),
        "moves": [game.move_to_json(m) for m in game.legal_moves(state)],
    }


def group_moves(moves: list[str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Moves grouped by what they do, their payment options side by side.

    "priest e4 pay red+blue" and "priest e4 pay blue+blue" share the group "priest e4";
    each option is (label, full move text); the label is "" for a move with no payment.
    """
    groups: dict[str, list[tuple[str, str]]] = {}
    for text in moves:
        head, sep, pay = text.partition(" pay ")
        groups.setdefault(head, []).append((f"pay {pay}" if sep else "", text))
    return list(groups.items())
