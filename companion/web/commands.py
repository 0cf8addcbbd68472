"""Commands from the page and the API: one function, one set of answers.

400: the command is malformed; 404: no such game; 409: the game's state forbids it
(stale state_id, illegal move, nothing to undo).
"""

from __future__ import annotations

from typing import Any

from ..games.base import BadMoveText, BadSetup, IllegalMove
from ..session import CorruptJournal, NothingToUndo, Session, StaleState
from ..table import Table
from ..table_loop import TableLoop

GAME_COMMANDS = ("move", "undo", "redo", "choose", "instead")
"""Commands that change the game on the table: each names it and its state."""
LIST_COMMANDS = ("new", "resume", "archive")


class CommandError(Exception):
    def __init__(self, status: int, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule


def _int(body: dict[str, Any], key: str, required: bool = True) -> int | None:
    value = body.get(key)
    if value is None or value == "":
        if required:
            raise CommandError(400, f"'{key}' is required")
        return None
    try:
        return int(value)
    except (TypeError, ValueError) as error:
        raise CommandError(400, f"'{key}' must be a whole number") from error


def run_command(table: Table, body: dict[str, Any], loop: TableLoop | None = None) -> Session | None:
    """Run one command; the game it changed (None: only the list of games changed).

    A command that changes a game names it (`game_id`) and the state it was made from
    (`state_id`): a phone still showing another game, or an older state of this one, is
    refused (409) and told which game the table plays now, never applied to it."""
    command = body.get("command")
    try:
        if command == "new":
            players = _int(body, "players")
            options = body.get("options") or {}
            if not isinstance(options, dict):
                raise CommandError(400, "'options' must be an object")
            return table.new_game(str(body.get("game", "")), players or 0, options)
        if command == "resume":
            return table.resume(_int(body, "game_id") or 0)
        if command == "archive":  # out of the page's list, or back in ("archived": false)
            table.archive(_int(body, "game_id") or 0, body.get("archived", True) not in (False, "false", "0"))
            return None
        if command not in GAME_COMMANDS:
            known = ", ".join((*GAME_COMMANDS, *LIST_COMMANDS))
            raise CommandError(400, f"unknown command {command!r}: {known}")
        session = table.session  # this game, whatever starts meanwhile: the check below holds for it
        if session is None:
            raise CommandError(409, "no game yet: start one first")
        named = _int(body, "game_id")
        if named != session.game_id:
            raise CommandError(
                409, f"this is for game {named}, but the table plays game {session.game_id} now: reload"
            )
        expected = _int(body, "state_id")
        if command == "move":
            move = body.get("move")
            if not isinstance(move, str) or not move.strip():
                raise CommandError(400, "'move' must be the text of a move")
            session.play(move, expected)
        elif command == "undo":
            session.undo(expected)
        elif command == "redo":
            session.redo(expected)
        elif command == "choose":  # which candidate the table showed (the camera's question)
            if loop is None:
                raise CommandError(409, "no camera is reading this table")
            index = _int(body, "index") or 0
            if expected is None:
                raise CommandError(400, "'state_id' is required: the question was asked at one state")
            shown = body.get("moves")  # what the player saw: refused if the question changed since
            if isinstance(shown, str):
                shown = [m for m in shown.split("\n") if m]
            if shown is not None and not (isinstance(shown, list) and all(isinstance(m, str) for m in shown)):
                raise CommandError(400, "'moves' is the list of the chosen candidate's moves")
            loop.choose(index, expected, tuple(shown) if shown is not None else None, session.game_id)
        elif command == "instead":  # another way of a choice the camera made for the players
            if loop is None:
                raise CommandError(409, "no camera is reading this table")
            loop.instead(session.game_id, _int(body, "at") or 0, _int(body, "index") or 0, expected)
        return session
    except (BadMoveText, BadSetup) as error:
        raise CommandError(400, str(error)) from error
    except KeyError as error:
        raise CommandError(404, str(error.args[0])) from error
    except IllegalMove as error:
        raise CommandError(409, error.reason, error.rule) from error
    except (StaleState, NothingToUndo, CorruptJournal) as error:
        raise CommandError(409, str(error)) from error
    except IndexError as error:
        raise CommandError(400, str(error)) from error
