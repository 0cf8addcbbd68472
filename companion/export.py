"""A game as a file to keep: the whole journal in our own format, and a play record that
BG Stats imports.

ASSUMED (BG Stats publishes no schema): the record follows the shape of BG Stats' own
JSON backup as public importers read it — `games`, `players` and `plays`, each play with
`playDate`, `gameRefId` and `playerScores` (`playerRefId`, `score`, `winner`,
`seatOrder`, `startPlayer`). No BoardGameGeek id is given: BG Stats asks which game it is.
"""

from __future__ import annotations

import time
from typing import Any

from .present import score_json
from .session import Session

FORMAT = "towers-companion-game/1"


def game_json(session: Session) -> dict[str, Any]:
    """Everything needed to replay and check the game: set-up, first state, every change."""
    game = session.game
    record = session.store.game(session.game_id)
    assert record is not None
    return {
        "format": FORMAT,
        "game": game.name,
        "title": game.title,
        "setup": session.setup,
        "created": record.created,
        "initial_state": record.initial_state,
        "journal": [
            {"state_id": e.state_id, "action": e.action, "move": e.move}
            for e in session.store.events(session.game_id)
        ],
        "moves": [game.move_to_json(m) for m in session.history],
        "state": game.state_to_json(session.state),
        "score": score_json(game, session.state),
    }


def bgstats_json(session: Session) -> dict[str, Any]:
    """The finished game as one BG Stats play (ValueError while it is not over)."""
    game, state = session.game, session.state
    sheet = game.score(state)
    if not sheet.final:
        raise ValueError("the game is not over: BG Stats records finished plays")
    record = session.store.game(session.game_id)
    assert record is not None
    names = game.seat_names(state)
    places = {s.seat: s for s in sheet.standings}
    return {
        "games": [{"id": 1, "name": game.title}],
        "players": [{"id": seat + 1, "name": name} for seat, name in enumerate(names)],
        "plays": [
            {
                "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.created)),
                "gameRefId": 1,
                "ignored": False,
                "rounds": 0,
                "playerScores": [
                    {
                        "playerRefId": seat + 1,
                        "score": str(places[seat].total),
                        "winner": places[seat].place == 1,
                        "seatOrder": seat + 1,
                        "startPlayer": seat == 0,
                    }
                    for seat in range(len(names))
                ],
            }
        ],
    }
