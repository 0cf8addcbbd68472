"""The table loop: camera frames -> a still table -> a reading K frames agree on -> the move.

`TableLoop.see(frame)` is the whole loop for one frame, single-threaded and testable
with recorded frames; `Devices` calls it from the camera's side of the service. One bad
frame changes nothing (K readings must agree); a reading is acted on once per game
state; a move goes into the game only when exactly one legal move explains the table
for sure. Anything else waits on the players: a question with ranked candidates (one
tap, or NEXT for the first), or a desync with the differences.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from vision.dice import DiceReader
from vision.motion import Agreement, StillnessConfig, StillnessGate
from vision.pipeline import TableReader, VisionConfig, draw, taught_config
from vision.profiles import Profile, load_profile
from vision.reference import EmptyBoard, capture, kept_empty_board, reference_path, save_empty_board
from vision.teach import (
    Lesson,
    dice_in_photo,
    finds_on_bare_table,
    load_dice,
    save_dice,
    teach_colours,
    with_bare_table,
    with_face,
)
from vision.types import BoardNotFound, Observation, VisionError

from .games.base import CHANCE, IllegalMove
from .games.sight import Sight
from .inference import Ambiguous, Desync, Difference, Found, Inference, NoChange, catch_up, forced, infer
from .session import Session, StaleState
from .table import Table

log = logging.getLogger(__name__)

AGREE = 2
"""Consecutive readings of still frames that must agree before the loop acts on them: one
bad frame is never enough (the readings of the still frames are the ones compared)."""
STILL_FRAMES = 2
"""Frames without movement before the table counts as still (0.2 s at 10 frames a second)."""
UNTOLD = 6
"""The most moves the camera cannot see that a desync offers ("was it one of these?")."""
GUESSES = 8
"""The most choices made for the players (`Guess`) that stay open to change."""
MENDED = 3
"""The newest guesses a table nothing else explains may correct."""
MEND_WAYS = 12
"""The most other ways tried when mending (each costs a catch-up search: a few ms, at worst
a few hundred)."""


@dataclass(frozen=True)
class Guess:
    """Ways the table could not tell apart (which resources paid) when it had gone on without
    anyone saying: `taken` went into the game so it keeps up with the table, after the first
    `at` moves of its history; the players may still choose one of `others` instead."""

    game_id: int
    at: int
    taken: tuple[Any, ...]
    others: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class LoopState:
    """What the loop last made of the table: for the page, the status LED and tests.

    `status`: off (no game read from the table), moving (waiting for stillness), reading
    (readings not yet agreeing), ok (the table matches the game), played (a move was just
    taken into the game), ask (a person must choose), desync (no legal move explains
    the table), no-board (markers not found) or unreadable (a frame vision cannot read)."""

    status: str
    message: str
    game_id: int | None = None
    state_id: int = 0
    question: Ambiguous | Desync | None = None
    """Open until answered, or until the game moves on."""
    played: tuple[str, ...] = ()
    observation: Observation | None = None
    guesses: tuple[Guess, ...] = ()
    """Choices the camera made for the players, still theirs to change (newest last)."""

    @property
    def needs_people(self) -> bool:
        return self.status in ("ask", "desync", "no-board")

    def to_json(self, game: Any = None, state: Any = None) -> dict[str, object]:
        """For the page and the API; with the game and its state, regions and moves are
        named as players name them."""
        text = game.move_to_json if game is not None else str
        sight = game.sight if game is not None and game.sight is not None else Sight()

        def difference(d: Difference) -> dict[str, object]:
            return {
                "region": d.region,
                "name": sight.region_name(state, d.region),
                "expected": sight.words(d.expected),
                "seen": sight.words(d.seen),
                "unsure": d.unsure,
            }

        question: dict[str, object] | None = None
        if isinstance(self.question, Ambiguous):
            question = {
                "kind": "ask",
                "why": self.question.why,
                "candidates": [
                    {"moves": [text(m) for m in c.moves], "doubts": c.doubts}
                    for c in self.question.candidates
                ],
                "evidence": [difference(d) for d in self.question.evidence],
            }
        elif isinstance(self.question, Desync):
            question = {
                "kind": "desync",
                "differences": [difference(d) for d in self.question.differences],
                "untold": [text(m) for m in self.question.untold[:UNTOLD]],
            }
        if question is not None:  # one short name per question: the page reloads when it changes
            question["key"] = hashlib.sha256(json.dumps(question, sort_keys=True).encode()).hexdigest()[:12]
        guesses = [
            {
                "at": g.at,
                "taken": [text(m) for m in g.taken],
                "others": [[text(m) for m in other] for other in g.others],
                "differing": [  # each other way, only where it differs from the way taken
                    [text(m) for i, m in enumerate(other) if i >= len(g.taken) or m != g.taken[i]]
                    for other in g.others
                ],
            }
            for g in self.guesses
        ]
        return {
            "status": self.status,
            "message": self.message,
            "game_id": self.game_id,
            "state_id": self.state_id,
            "played": list(self.played),
            "question": question,
            "guesses": guesses,
        }


def _replayed(session: Session, at: int, way: tuple[Any, ...], later: list[Any]) -> tuple[Any, list[Any]]:
    """The state after the first `at` moves of the history, then `way` (IllegalMove if it may
    not be made), then as many of the `later` moves as may still be made; and those moves."""
    state = session.state_after(at)
    for move in way:
        state = session.game.apply(state, move)
    kept = []
    for move in later:
        try:
            state = session.game.apply(state, move)
        except IllegalMove:
            break
        kept.append(move)
    return state, kept


def _unseen(session: Session, sight: Sight, index: int) -> bool:
    """Whether move `index` of the game's history left the table as it was."""
    return bool(sight.expected(session.state_after(index)) == sight.expected(session.state_after(index + 1)))


class TableLoop:
    """Everything the loop keeps between frames: the stillness gate, the agreement of the
    last readings, the reader of the current game's board, and the open question."""

    def __init__(
        self,
        table: Table,
        agree: int = AGREE,
        stillness: StillnessConfig | None = None,
        vision: VisionConfig | None = None,
        on_change: Callable[[LoopState], None] = lambda state: None,
        data_dir: Path | None = None,
    ) -> None:
        """`data_dir`: where the empty boards seen at calibration are kept (none: not kept)."""
        self.table = table
        self.vision = vision
        self.data_dir = data_dir
        self.on_change = on_change
        self._gate = StillnessGate(stillness or StillnessConfig(settle_frames=STILL_FRAMES))
        self._agreement = Agreement(agree)
        self._reader: tuple[tuple[Any, ...], TableReader, frozenset[str]] | None = None
        self._heights: tuple[tuple[str, float], ...] = ()
        """The heights the reader's regions were last raised to."""
        self._handled: tuple[Any, ...] | None = None
        """The agreed reading last acted on (game, state_id, picture), and what came of it."""
        self._result: LoopState | None = None
        self._read_now = False
        self._asked_from: tuple[Any, ...] | None = None
        """The reading a question about a roll was asked from."""
        self._spent: tuple[Any, ...] | None = None
        """A reading whose dice were taken for a roll: not offered again until it changes."""
        self._guesses: tuple[Guess, ...] = ()
        """The game in play's guesses, as journaled (`_kept`) for the game `_guesses_of`."""
        self._kept: tuple[Guess, ...] = ()
        self._guesses_of: int | None = None
        self._lock = threading.RLock()
        self.state = LoopState("off", "no game is read from the table")

    # ---- one frame ---------------------------------------------------------------------

    @property
    def still(self) -> bool:
        """Whether the table was still in the last frame read for a game (the camera is then
        asked for its full-resolution still with the next frames, for small dice; with no game
        read from the table, never)."""
        return self.state.status != "off" and self._gate.still_frames > 0

    def see(self, image: Any, full: Any = None) -> LoopState:
        """Feed one camera frame (BGR array), with the full-resolution still of the same moment
        when the camera gave one; returns (and reports) what the loop makes of it."""
        with self._lock:
            session = self.table.session
            sight = session.game.sight if session else None
            if session is None or sight is None:
                return self._set(LoopState("off", "no game is read from the table"))
            question = self._open_question(session)
            forced, self._read_now = self._read_now, False
            try:
                settled = self._gate.update(image)
            except VisionError as error:
                self._agreement.reset()
                return self._set(
                    self._keep(session, question, "unreadable", f"camera frame unreadable: {error}")
                )
            if not (self._gate.still_frames or forced):
                self._agreement.reset()
                return self._set(self._keep(session, question, "moving", "waiting for the table to be still"))
            # The game as it stands when the frame is read: a move made on the phone or the
            # panel during the read makes this reading stale, never applied to the new state.
            state, state_id = session.snapshot()
            reader, regions = self._reader_for(sight, state)
            try:
                observation = reader.read(image, full=full)
            except BoardNotFound as error:
                self._agreement.reset()
                return self._set(self._keep(session, question, "no-board", str(error)))
            except VisionError as error:
                self._agreement.reset()
                return self._set(self._keep(session, question, "unreadable", str(error)))
            # Still frames are read as they come, so that the readings of the frames that
            # settle the table are the ones that must agree (not K more after them).
            seen = sight.seen(state, observation, regions)
            reading = seen.key()
            agreed = self._agreement.update(reading) and settled
            if not (agreed or forced):
                return self._set(
                    self._keep(session, question, "reading", "reading the table", observation=observation)
                )
            key = (session.game_id, state_id, reading)
            if key == self._handled and self._result is not None:
                return self._set(replace(self._result, observation=observation))
            if self._spent is not None and reading != self._spent:
                self._spent = None  # the dice were picked up or rolled again
            if self._spent is not None and session.game.to_move(state) == CHANCE:
                # The dice just taken for the last roll are still lying there: not this roll.
                message = "waiting for the next roll"
                return self._set(LoopState("ok", message, session.game_id, state_id, observation=observation))
            inference = infer(session.game, sight, state, seen)
            if isinstance(inference, Desync):  # the players went on without waiting: follow them
                inference = catch_up(session.game, sight, state, seen) or inference
            if isinstance(inference, Desync) and (mended := self._mend(session, state_id, observation)):
                return self._set(mended)
            roll = isinstance(inference, Ambiguous | Found) and session.game.to_move(state) == CHANCE
            self._asked_from = reading if roll else None  # a roll: once taken, its dice are spent
            result = self._act(session, state, state_id, inference, observation)
            if isinstance(inference, Found) and result.status == "played" and self._asked_from is not None:
                self._spent, self._asked_from = self._asked_from, None
            # A reading the game moved past (or a move the store refused) is read again.
            self._handled, self._result = (key, result) if result.status != "reading" else (None, None)
            return self._set(result)

    def _act(
        self, session: Session, state: Any, state_id: int, inference: Inference, observation: Observation
    ) -> LoopState:
        base = LoopState("ok", "", session.game_id, state_id, observation=observation)
        if isinstance(inference, NoChange):
            sight = session.game.sight
            only = forced(session.game, sight, state) if sight is not None else ()
            played = self._play(session, only, state_id) if only else None
            if played:  # nobody need say what the rules leave no choice about
                message = f"played {'; '.join(played)} (the only move the rules allow)"
                return replace(
                    base, status="played", message=message, played=played, state_id=state_id + len(played)
                )
            return replace(base, message="the table matches the game")
        if isinstance(inference, Found):
            at = len(session.history)
            played = self._play(session, inference.moves, state_id)
            if played is None:
                return replace(base, status="reading", message="the game changed meanwhile: reading again")
            if inference.others:
                guess = Guess(session.game_id, at, inference.moves, inference.others)
                self._guesses = (*self._journaled(session), guess)[-GUESSES:]
            message = "played " + "; ".join(played)
            return replace(
                base, status="played", message=message, played=played, state_id=state_id + len(played)
            )
        if isinstance(inference, Ambiguous):
            message = "a question: which move was it? (below)"
            return replace(base, status="ask", message=message, question=inference)
        return replace(
            base,
            status="desync",
            message="the table does not match the game: put it right, or correct the game",
            question=inference,
        )

    def _mend(self, session: Session, state_id: int, observation: Observation) -> LoopState | None:
        """Nothing explains the table from the game as it stands: perhaps a choice the camera
        made for the players (`Guess`) was wrong, and the table now says so (the resources
        guessed paid were needed later). The newest guesses first, each of their other ways
        with the moves since replayed (MEND_WAYS of them at most): the first after which the
        table is explained (as it stands, or by a move or a catch-up) is put into the game
        instead."""
        sight = session.game.sight
        assert sight is not None
        regions = self._reader[2] if self._reader is not None else frozenset()
        history = session.history
        tried = 0
        for guess in reversed(self._journaled(session)[-MENDED:]):
            later = history[guess.at + len(guess.taken) :]
            while later and _unseen(session, sight, guess.at + len(guess.taken) + len(later) - 1):
                later = later[:-1]  # a move nobody saw last (a pass the guess forced) is found again
            for other in guess.others:
                tried += 1
                if tried > MEND_WAYS:
                    return None
                try:
                    state, kept = _replayed(session, guess.at, other, later)
                except IllegalMove:
                    continue
                if len(kept) < len(later):
                    continue  # the moves since must all still stand
                seen = sight.seen(state, observation, regions)
                found = infer(session.game, sight, state, seen)
                if isinstance(found, Desync):
                    found = catch_up(session.game, sight, state, seen) or found
                if not isinstance(found, NoChange | Found) or (isinstance(found, Found) and found.others):
                    continue
                moves = (*other, *later, *(found.moves if isinstance(found, Found) else ()))
                try:
                    changes = session.rewrite(guess.at, moves, state_id)
                except (StaleState, IllegalMove):
                    return None
                rest = tuple(o for o in guess.others if o != other)
                self._guesses = tuple(g for g in self._guesses if g != guess)
                if rest:
                    self._guesses += (Guess(guess.game_id, guess.at, other, rest),)
                played = tuple(c.move or "" for c in changes if c.action == "move")
                message = f"the table showed it was {'; '.join(played[: len(other)])}: the game follows it"
                state = LoopState("played", message, session.game_id, session.state_id, played=played)
                return replace(state, observation=observation)
        return None

    # ---- people ------------------------------------------------------------------------

    def choose(
        self, index: int, state_id: int, moves: tuple[str, ...] | None = None, game_id: int | None = None
    ) -> tuple[str, ...]:
        """Play candidate `index` of the open question, asked at `state_id` (of game `game_id`),
        if it is still the `moves` the player saw (StaleState if the game or the question has
        moved on, IndexError for no such candidate)."""
        with self._lock:
            session = self.table.session
            question = self.state.question
            if (
                session is None
                or not isinstance(question, Ambiguous)
                or (self.state.game_id, self.state.state_id) != (session.game_id, state_id)
                or game_id not in (None, session.game_id)
            ):
                raise StaleState("that question is no longer open: reload")
            if not 0 <= index < len(question.candidates):
                raise IndexError(f"there are {len(question.candidates)} candidates, not {index + 1}")
            shown = tuple(session.game.move_to_json(m) for m in question.candidates[index].moves)
            if moves is not None and shown != moves:
                raise StaleState("the camera asks another question now: reload")
            played = self._play(session, question.candidates[index].moves, state_id)
            if played is None:
                raise StaleState("the game changed meanwhile: reload")
            if self._asked_from is not None:  # a roll taken: its dice are not the next roll
                self._spent, self._asked_from = self._asked_from, None
            self._result = LoopState(
                "played", "played " + "; ".join(played), session.game_id, session.state_id, played=played
            )
            self._set(self._result)
            return played

    def instead(self, game_id: int, at: int, index: int, state_id: int | None = None) -> tuple[str, ...]:
        """The players say which way it was of a choice the camera made for them (`Guess`,
        after the first `at` moves of game `game_id`): the game is taken back there, that way
        played, and the moves since played again as far as they still may be (the camera
        follows the table from there). StaleState if no such guess stands, IndexError for no
        such way."""
        with self._lock:
            session = self.table.session
            guesses = self._standing_guesses()
            guess = next((g for g in guesses if (g.game_id, g.at) == (game_id, at)), None)
            if session is None or guess is None:
                raise StaleState("the camera made no such choice in this game, or it was undone: reload")
            if not 0 <= index < len(guess.others):
                raise IndexError(f"there are {len(guess.others)} other ways, not {index + 1}")
            other = guess.others[index]
            # IllegalMove (409) if an earlier change forbids that way; the moves since follow
            # as far as they still may be made.
            _, kept = _replayed(session, at, other, session.history[at + len(guess.taken) :])
            changes = session.rewrite(at, (*other, *kept), state_id)
            self._guesses = tuple(g for g in self._guesses if g != guess)  # told: no longer a guess
            self._handled = None  # the table is read again against the game as it now is
            played = tuple(c.move or "" for c in changes if c.action == "move")
            self._result = None
            message = "changed as told: " + "; ".join(played[: len(other)])
            self._set(LoopState("played", message, session.game_id, session.state_id, played=played))
            return played[: len(other)]

    def read_now(self) -> None:
        """READ on the panel: take the next frame as it is, still or not, without waiting
        for K readings to agree."""
        with self._lock:
            self._read_now = True
            self._handled = None

    def drawn(self, image: Any) -> Any:
        """`image` with the board's regions and what the loop last read drawn on it."""
        with self._lock:
            observation, reader, session = self.state.observation, self._reader, self.table.session
        if observation is None or reader is None:
            return image
        routes = ()
        if session is not None and session.game.sight is not None:
            routes = session.game.sight.routes(session.snapshot()[0])
        return draw(image, observation, reader[1].profile, routes)

    def recalibrate(self) -> None:
        """READ held: find the board again from scratch (it was moved, or a marker replaced)."""
        with self._lock:
            self._reader = None
            self._handled = None
            self._agreement.reset()

    # ---- helpers -----------------------------------------------------------------------

    def _play(self, session: Session, moves: tuple[Any, ...], state_id: int) -> tuple[str, ...] | None:
        played = []
        for move in moves:
            try:
                change = session.play(move, state_id)
            except (StaleState, IllegalMove):  # the game moved on meanwhile (a tap, a button)
                return None
            state_id = change.state_id
            played.append(change.move or str(move))
        return tuple(played)

    def _open_question(self, session: Session) -> Ambiguous | Desync | None:
        """The question still open: only while the game is where it was asked."""
        s = self.state
        if s.question is not None and (s.game_id, s.state_id) == (session.game_id, session.state_id):
            return s.question
        return None

    def _keep(
        self,
        session: Session,
        question: Ambiguous | Desync | None,
        status: str,
        message: str,
        observation: Observation | None = None,
    ) -> LoopState:
        """A passing status that keeps an open question open (a hand over the table does not
        answer it)."""
        return LoopState(status, message, session.game_id, session.state_id, question, (), observation)

    def _reader_for(self, sight: Sight, state: Any) -> tuple[TableReader, frozenset[str]]:
        """The reader of this game's board, built once per profile and colours; dice are named
        among the game's own dice colours; regions raised where the game's state says (a
        tower's new floor raises them on the same reader)."""
        dice = sight.dice_colours(state)
        key = (sight.profile_name(state), sight.piece_colours(state), dice)
        heights = sight.region_heights(state)
        if self._reader is not None and self._reader[0] == key:
            if self._heights != heights:  # a tower grew: the same reader, its regions raised
                self._heights = heights
                self._reader[1].raise_regions(dict(heights))
            return self._reader[1], self._reader[2]
        profile: Profile = replace(load_profile(key[0]), piece_colours=key[1])
        regions = frozenset(r.name for r in profile.regions)
        vision = self.vision or self._taught()
        known = {name for name, _ in vision.dice.palette.colours}
        if dice and set(dice) <= known:  # the dice among their colours; pieces among all
            vision = vision.dice_among(dice)
        elif dice:  # a colour the palette lacks (`vision calibrate` adds it): name among all
            log.warning("dice colours %s: not all in the palette; naming dice among all colours", dice)
        self._reader = (key, TableReader(profile, vision, self._empty_board(profile)), regions)
        self._heights = heights
        if heights:
            self._reader[1].raise_regions(dict(heights))
        return self._reader[1], self._reader[2]

    def _taught(self) -> VisionConfig:
        """What the players taught (`vision teach`, `vision teach-dice`, `vision calibrate`),
        from the data directory; a damaged file is logged and the defaults used."""
        if self.data_dir is None:
            return VisionConfig()
        try:
            return taught_config(self.data_dir)
        except VisionError as error:
            log.warning("what the players taught: %s; reading with the defaults", error)
            return VisionConfig()

    def _empty_board(self, profile: Profile) -> EmptyBoard | None:
        """The empty board kept for this profile, if one was seen (a bad file is logged and
        left out: the board's print is then told from pieces as before)."""
        if self.data_dir is None:
            return None
        try:
            return kept_empty_board(self.data_dir, profile)
        except VisionError as error:
            log.warning("empty board: %s", error)
            return None

    def teach(self, image: Any, profile: Profile, colour: str) -> Lesson:
        """`image` shows every piece of `colour` on the empty board: learn it with the colours
        taught before (vision/teach.py); the reader is built again when it was learned."""
        if self.data_dir is None:
            raise VisionError("this companion keeps no data directory to keep what it learns in")
        lesson, _ = teach_colours([(colour, image)], profile, self.data_dir)
        if not lesson.confusions:
            with self._lock:
                self._reader = None
                self._handled = None
        return lesson

    def teach_dice(self, image: Any, value: int) -> tuple[tuple[int, ...], int]:
        """`image` shows the players' dice all showing `value`: keep them as examples of that
        face (the faces taught before stay); the reader is built again. The faces now taught,
        and how many dice this face was learned from (for the players to check)."""
        if self.data_dir is None:
            raise VisionError("this companion keeps no data directory to keep what it learns in")
        shown, die_px = dice_in_photo(DiceReader(), image, value)
        examples = with_face(load_dice(self.data_dir), value, shown, die_px)
        save_dice(examples, self.data_dir)
        with self._lock:
            self._reader = None
            self._handled = None
        return examples.values, len(shown)

    def teach_bare_table(self, image: Any) -> int:
        """`image` shows the table or tray the dice are rolled on with no die in view: keep what
        the detector takes for a die there (grain, seams, print), so that a find likelier it than
        the dice shown is no die; the reader is built again. How many such finds it kept."""
        if self.data_dir is None:
            raise VisionError("this companion keeps no data directory to keep what it learns in")
        examples = load_dice(self.data_dir)
        bare = finds_on_bare_table(DiceReader(), image, examples)
        save_dice(with_bare_table(examples, bare), self.data_dir)
        with self._lock:
            self._reader = None
            self._handled = None
        return len(bare)

    def keep_empty_board(self, image: Any, profile: Profile) -> Path:
        """`image` shows the board with nothing on it: keep its look (`VisionError` without
        the board), so that its print is never taken for a piece; the reader is built again."""
        if self.data_dir is None:
            raise VisionError("this companion keeps no data directory to keep the empty board in")
        path = reference_path(self.data_dir, profile.name)
        save_empty_board(capture(image, profile), path)
        with self._lock:
            self._reader = None
            self._handled = None
        return path

    def _journaled(self, session: Session) -> tuple[Guess, ...]:
        """The guesses of the session's game: those journaled, the first time it is looked at
        (another game, or the first look since a restart), then as they are kept here."""
        if session.game_id != self._guesses_of:
            self._guesses_of = session.game_id
            self._guesses = self._kept = tuple(
                Guess(session.game_id, at, taken, others) for at, taken, others in session.kept_guesses()
            )
        return self._guesses

    def _standing_guesses(self) -> tuple[Guess, ...]:
        """The guesses of the game in play whose moves are still in its history (an undo past
        one, or another game started, drops it)."""
        session = self.table.session
        if session is None or not self._journaled(session):  # the frame path: nothing to look at
            return ()
        history = session.history
        return tuple(
            g
            for g in self._guesses
            if g.game_id == session.game_id and tuple(history[g.at : g.at + len(g.taken)]) == g.taken
        )

    def _keep_guesses(self) -> None:
        """Journal the guesses when they changed, so a power cut keeps them open to change."""
        session = self.table.session
        if session is None or self._guesses == self._kept or session.game_id != self._guesses_of:
            return
        try:
            session.keep_guesses([(g.at, g.taken, g.others) for g in self._guesses])
        except sqlite3.Error as error:  # a convenience lost, never the game: the moves are journaled
            log.warning("the camera's guesses were not kept: %s", error)
            return
        self._kept = self._guesses

    def _set(self, state: LoopState) -> LoopState:
        self._guesses = self._standing_guesses()
        self._keep_guesses()
        state = replace(state, guesses=self._guesses)
        changed = (state.status, state.message, state.state_id, state.question, state.guesses) != (
            self.state.status,
            self.state.message,
            self.state.state_id,
            self.state.question,
            self.state.guesses,
        )
        self.state = state
        if changed:
            log.info("table: %s: %s", state.status, state.message)
            self.on_change(state)
        return state
