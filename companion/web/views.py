"""What the page and the API show: plain dicts built from a session."""

from __future__ import annotations

import time
from typing import Any

from ..games.amharb.board import AREAS, FILES, SIZE, area_of, geometry, space_name
from ..games.amharb.setup import data as amharb_data
from ..games.amharb.state import AmharbState
from ..games.base import CHANCE, Game
from ..present import group_moves, moves_json, score_json
from ..session import Session
from ..table import Table

SIDE_POSITION = {"S": "bottom", "W": "left", "N": "top", "E": "right"}
ACTOR_NAMES = {
    CHANCE: "the table (say what was drawn or rolled)",
    "beast": "the Beasts",
    "lutfi": "Lutfi",
    "watcher": "the Watcher",
    "betrayers": "the Betrayers",
}


def actor_name(names: tuple[str, ...], actor: int | str | None) -> str | None:
    """Who acts, as the page says it: a player's name or what the automated actor is."""
    if isinstance(actor, int):
        return names[actor]
    return None if actor is None else ACTOR_NAMES.get(actor, actor)


def snapshot(table: Table, session: Session | None = None) -> dict[str, Any]:
    """The whole current game (or `session`: the game a command changed, whichever the table
    plays now) for `GET /api/state`: a phone can draw everything from it."""
    session = session or table.session
    if session is None:
        return {"game": None, "state_id": 0}
    game, state = session.game, session.state
    to_move = game.to_move(state)
    names = game.seat_names(state)
    return {
        "game": {"id": session.game_id, "name": game.name, "title": game.title, "setup": session.setup},
        "state_id": session.state_id,
        **moves_json(game, state),
        "to_move_name": actor_name(names, to_move),
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "history": [game.move_to_json(m) for m in session.history],
        "score": score_json(game, state),
        "state": game.state_to_json(state),
    }


def amharb_board(state: AmharbState) -> dict[str, Any]:
    """The island as rows of cells, players around it, for the Am'harb template."""
    geo = geometry(state.board)
    me = state.players[state.current]
    colour_of = [p.colour for p in state.players]
    mark_of = player_marks([p.name for p in state.players])
    playing = state.phase != "over"
    rows = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            i = r * SIZE + c
            space = state.spaces[i]
            cells.append(
                {
                    "name": space_name(i),
                    "exists": geo.exists[i],
                    "altar": space.altar,
                    "cursed": space.cursed,
                    "resource": space.resource,
                    "disciples": [(colour_of[d.seat], d.kind, mark_of[d.seat]) for d in space.disciples],
                    "lock": colour_of[space.lock] if space.lock >= 0 else "",
                    "book": space.book,
                    "pyre": colour_of[space.pyre] if space.pyre >= 0 else "",
                    "active": playing and geo.exists[i] and area_of(me.side, i) in state.active,
                    "area": AREAS[area_of(me.side, i)],
                }
            )
        rows.append({"rank": SIZE - r, "cells": cells})
    edges = {
        SIDE_POSITION[p.side]: {
            "letters": [AREAS[area_of(p.side, k * SIZE if p.side in "WE" else k)] for k in range(SIZE)],
            "current": playing and seat == state.current,
        }
        for seat, p in enumerate(state.players)
    }
    cults = amharb_data()["cults"]
    players = [
        {
            "seat": seat,
            "name": p.name,
            "colour": p.colour,
            "mark": mark_of[seat],
            "cult": cults[p.cult]["title"],
            "number": cults[p.cult]["number"],
            "tile": cults[p.cult].get("tile", ""),
            "tiles": p.tiles,
            "side": p.side,
            "position": SIDE_POSITION[p.side],
            "priests": p.priests,
            "cultists": p.cultists,
            "resources": list(zip(state.resource_colours, p.resources)),
            "towers": [(AREAS[a], list(stack)) for a, stack in enumerate(p.towers)],
            "current": playing and seat == state.current,
            "active": [AREAS[a] for a in state.active] if seat == state.current else [],
        }
        for seat, p in enumerate(state.players)
    ]
    return {
        "rows": rows,
        "files": list(FILES),
        "players": players,
        "edges": edges,
        "turn": state.turn,
        "last_turns": state.last_turns,
    }


def player_marks(names: list[str]) -> list[str]:
    """A letter per player drawn on their pieces, so that colour is never alone (colour-blind
    players): the first letter of each name, or the first two where first letters clash."""
    firsts = [n[:1].upper() for n in names]
    return [n[:2].capitalize() if firsts.count(f) > 1 else f for n, f in zip(names, firsts)]


BOARD_VIEWS = {"amharb": amharb_board}


def page_view(table: Table, known: dict[str, Game[Any, Any]], error: str | None = None) -> dict[str, Any]:
    session = table.session
    view: dict[str, Any] = {
        "error": error,
        "games": [
            {
                "name": g.name,
                "title": g.title,
                "min": g.min_players,
                "max": g.max_players,
                "options": g.options,
            }
            for g in known.values()
        ],
        "cults": sorted(amharb_data()["cults"].items(), key=lambda kv: kv[1]["number"]),
        "session": None,
    }
    view["stored"] = stored_games(table, known)
    if session is None:
        return view
    game, state = session.game, session.state
    moves = moves_json(game, state)
    to_move = moves["to_move"]
    names = game.seat_names(state)
    view.update(
        session=session,
        game=game,
        state_id=session.state_id,
        phase=moves["phase"],
        to_move_name=actor_name(names, to_move),
        groups=group_moves(moves["moves"]),
        history=[game.move_to_json(m) for m in session.history],
        score=score_json(game, state),
        board=BOARD_VIEWS[game.name](state) if game.name in BOARD_VIEWS else None,
        table=game.describe(state),
    )
    return view


def stored_games(table: Table, known: dict[str, Game[Any, Any]], limit: int = 20) -> list[dict[str, Any]]:
    """The newest games not archived, for the page's list: resume, archive, export."""
    current = table.session.game_id if table.session else None
    out = []
    for record in table.store.list_games():
        if record.archived or record.game not in known:
            continue
        options = record.setup.get("options", {})
        out.append(
            {
                "id": record.id,
                "title": known[record.game].title,
                "players": record.setup.get("players"),
                "names": options.get("names", ""),
                "started": time.strftime("%d %b %Y %H:%M", time.localtime(record.created)),
                "current": record.id == current,
            }
        )
        if len(out) == limit:
            break
    return out
