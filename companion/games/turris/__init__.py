"""Turris (Nikita Chigladze, AP Board Games): tribes, Scouts and four Beasts, 2-4 players.

The Beast Phase is worked out by the rules (`beasts.py`) and asked of the players only where
the rules give them a choice; the players' turns are checked (`actions.py`, `missions.py`,
`ending.py`) and strung into rounds by `game.py`. Assumed printed data: `turris.toml`.
"""

from __future__ import annotations

from typing import Any

from ..base import BadState, Game, IllegalMove, ScoreSheet, ScoreSource, SeatView, Standing, TableView
from .adjust import EXAMPLES, adjust
from .beasts import BEASTS, BETRAYERS, RESOURCES, speed
from .board import default_board
from .ending import ROOM_PRESTIGE, standings
from .game import (
    ACTION,
    BEAST,
    BETRAYER,
    CARD,
    CARD_BEAST,
    MISSION,
    OVER,
    PHASES,
    REFILL,
    RULEBOOK,
    TRIONFI,
    BadEffect,
    Move,
    TurrisState,
    apply_move,
    chance_outcomes,
    council_spot,
    explain_illegal,
    legal_moves,
    named,
    parse_effect,
    parse_mission,
    parse_move,
    room_hint,
    to_move,
)
from .setup import OPTIONS, initial_state
from .sight import TurrisSight

__all__ = ["TurrisGame"]

PHASE_LEDS = {ACTION: 1, MISSION: 2, TRIONFI: 3, REFILL: 3, BETRAYER: 4, CARD: 4, CARD_BEAST: 4, BEAST: 4}
PHASE_NAMES = {
    ACTION: "Action Step",
    MISSION: "Complete Mission Step",
    TRIONFI: "Trionfi Step",
    REFILL: "Mission tableau refill",
    BETRAYER: "Betrayer Phase",
    CARD: "Betrayer Phase: Beast Movement card",
    CARD_BEAST: "Betrayer Phase: the card's Beast",
    BEAST: "Beast Phase",
    OVER: "over",
}


class TurrisGame(Game[TurrisState, Move]):
    name = "turris"
    title = "Turris"
    min_players = 1
    max_players = 4
    rulebook = RULEBOOK
    options = OPTIONS
    state_type = TurrisState
    state_noun = "a Turris state"
    sight = TurrisSight()

    initial_state = staticmethod(initial_state)
    to_move = staticmethod(to_move)

    def legal_moves(self, state: TurrisState) -> tuple[Move, ...]:
        return legal_moves(default_board(), state)

    chance_outcomes = staticmethod(chance_outcomes)

    def canonical(self, state: TurrisState, move: Move) -> Move:
        # Place names in any case; the Scouts of a Collect in any order ("collect nest+grove").
        names = {p.lower(): p for p in default_board().every}
        if move.verb == "place":
            return Move("place", names.get(move.what.lower(), move.what))
        if move.verb == "collect":
            return Move("collect", "+".join(sorted(names.get(p.lower(), p) for p in move.what.split("+"))))
        return move

    adjustments = EXAMPLES
    """Card effects the players apply themselves: `adjust CHANGE: WHY` (adjust.py)."""

    def apply(self, state: TurrisState, move: Move) -> TurrisState:
        """A move of the rules, or an `adjust` (not among the legal moves: any change a card
        may make, checked by adjust.py)."""
        if move.verb == "adjust":
            if to_move(state) is None:
                raise IllegalMove("the game is over", RULEBOOK)
            return adjust(default_board(), state, move.what)
        return super().apply(state, move)

    def apply_unchecked(self, state: TurrisState, move: Move) -> TurrisState:
        if move.verb == "adjust":
            return adjust(default_board(), state, move.what)
        return apply_move(default_board(), state, move)

    def explain_illegal(self, state: TurrisState, move: Move) -> Any:
        return explain_illegal(default_board(), state, move)

    def score(self, state: TurrisState) -> ScoreSheet:
        tallies = state.tallies
        sources = (
            ScoreSource(
                "Missions",
                "04 Gameplay, 2) Complete Mission Step",
                tuple(t.missions for t in tallies),
                tuple(t.mission_prestige for t in tallies),
                "the Prestige printed on each completed Mission",
            ),
            ScoreSource(
                "Tower rooms",
                "04 Gameplay, 3) Trionfi Step",
                tuple(t.rooms for t in tallies),
                tuple(t.room_prestige for t in tallies),
                f"{ROOM_PRESTIGE['Grove']} Prestige for a room built from the Grove",
            ),
            ScoreSource(
                "Cards and other effects",
                "05 General Rules, Minor Rules and Clarifications",
                tuple(t.other_prestige for t in tallies),
                tuple(t.other_prestige for t in tallies),
                "Prestige the players adjusted for a card's effect ('adjust')",
            ),
        )
        prestige = [t.prestige for t in tallies]
        held = [sum(tribe.resources) for tribe in state.table.tribes]
        order = standings(prestige, held, state.table.first)
        rows = []
        for place, seat in enumerate(order, start=1):
            tied = [s for s in order if s != seat and prestige[s] == prestige[seat]]
            note = ""
            if tied:
                note = f"tie on Prestige: {held[seat]} resources"
                if any(held[s] == held[seat] for s in tied):
                    note += ", then nearer the First Player"
            if state.solo:
                results = {"won": "won: ahead of the Betrayers", "lost": "lost: Betrayers at 40 first"}
                note = results.get(state.result, f"the Betrayers have {state.betrayers} Prestige")
            rows.append(Standing(seat, place, prestige[seat], note))
        return ScoreSheet(sources, tuple(rows), final=state.phase == OVER)

    def phase(self, state: TurrisState) -> str:
        return PHASE_NAMES[state.phase]

    def phase_step(self, state: TurrisState) -> int | None:
        """The turn's steps on LEDs 1-3 (Action; Complete Mission; Trionfi and the refill),
        the Beast Phase on 4 (the solo Betrayer Phase with it: its Beasts move too)."""
        return PHASE_LEDS.get(state.phase)

    def beast(self, state: TurrisState) -> str | None:
        """The Beast that acts now, in the Beast Phase (or the solo card's Beast)."""
        if state.phase in (BEAST, CARD_BEAST):
            return BEASTS[state.beast].lower()
        return None

    def next_button(self, state: TurrisState) -> Move | None:
        """NEXT resolves the next Beast in the Beast Phase, one at a time, in the rulebook's
        order (Turris: 04 Gameplay, "2. Beast Phase: each Beast moves and resolves effects in
        order (Pain, Delusion, Despair, then Harrow)"); in a turn's steps it goes on without
        acting (no Mission, no room), where that is legal."""
        if state.ask:
            return None
        moves = legal_moves(default_board(), state)
        for move in moves:
            if move.verb in ("beast", "no mission", "no room", "betrayers move"):
                return move
        return None

    def seat_names(self, state: TurrisState) -> tuple[str, ...]:
        return state.names

    def describe(self, state: TurrisState) -> TableView:
        table, actor = state.table, to_move(state)
        seats = []
        for seat, (name, colour, tally, tribe) in enumerate(
            zip(state.names, state.colours, state.tallies, table.tribes)
        ):
            on_board = sorted(s.location for s in table.scouts if s.seat == seat)
            held = ", ".join(f"{n} {r}" for r, n in zip(RESOURCES, tribe.resources))
            lines = [
                f"Prestige {tally.prestige}" + (" · First Player" if seat == table.first else ""),
                f"Resources: {held} · Artifacts {tribe.artifacts}",
                f"Scouts: {tribe.reserve} in reserve, {tribe.graveyard} in the Graveyard"
                + (f", on the board: {', '.join(on_board)}" if on_board else ""),
                f"Council track: spot {council_spot(state.council_track, tribe.council)} · "
                f"Tower rooms {tally.rooms} ({room_hint(tally)}) · "
                f"Missions {tally.missions} · Tactics {tally.tactics}",
            ]
            seats.append(SeatView(name, colour, tuple(lines), current=actor == seat))
        beasts = []
        for b in table.beasts:
            if b.location is None:
                beasts.append(f"{b.name}: removed")
            else:
                beasts.append(f"{b.name} in the {b.location} (speed {speed(table, b)})")
        shared = [
            "Beasts: " + "; ".join(beasts),
            f"Altar token on the {table.altar}'s spot · Fruit token: {table.fruit or 'not on the board'}",
            "Mission tableau: " + (", ".join(state.tableau) or "empty") + f" · {len(state.deck)} in the deck",
        ]
        if state.solo:
            shared.append(
                f"Betrayers: {state.betrayers} Prestige, Scouts in the "
                + ", ".join(s.location for s in table.scouts if s.seat == BETRAYERS)
                + f" · Damaged Tower rooms {state.damaged}"
            )
        board = default_board()
        shared.append(
            "For a d12 or a d4 rolled for a card: Locations "
            + ", ".join(f"{n} {p}" for p, n in board.numbers)
            + "; Beasts "
            + ", ".join(f"{n} {b}" for n, b in enumerate(BEASTS, start=1))
        )
        if state.removals_from:
            shared.append("Endgame: a Beast leaves after each Beast Phase (Harrow, Despair, Delusion, Pain)")
        if state.ask:
            shared.append(
                f"Question for {state.names[state.ask.who]}: "
                f"{named(state, state.ask.question)} ({state.ask.rule})"
            )
        shared += state.log
        headline = f"Round {state.round} · {PHASE_NAMES[state.phase]}"
        if state.phase == BEAST and not state.ask:
            headline += f": the {BEASTS[state.beast]} acts next"
        return TableView(headline, tuple(seats), tuple(shared))

    def check_state(self, state: TurrisState) -> None:
        check_state(state)

    parse_move = staticmethod(parse_move)


def check_state(state: TurrisState) -> None:
    """BadState unless the rules can play on `state`."""
    board = default_board()
    n = state.players

    def fail(why: str) -> None:
        raise BadState(why)

    if not 1 <= n <= 4 or len(state.colours) != n or len(state.tallies) != n or len(state.table.tribes) != n:
        fail("Turris has 2 to 4 players, each with a name, a colour, a tally and a tribe")
    if state.phase not in PHASES or not 0 <= state.turns_taken <= n or not 0 <= state.table.first < n:
        fail("phase, turns_taken or first is out of range")
    if state.phase == BEAST and not 0 <= state.beast < len(BEASTS):
        fail("beast is out of range")
    if state.future_first is not None and not 0 <= state.future_first < n:
        fail("future_first is not a seat")
    name, _, to = state.moving.partition(">")
    if state.moving and (name not in BEASTS or to not in board.every or state.ask is None):
        fail("moving is 'Beast>place' and waits for an answer")
    if {b.name for b in state.table.beasts} != set(BEASTS):
        fail("the four Beasts are Pain, Delusion, Despair and Harrow")
    places = set(board.every)
    for b in state.table.beasts:
        if b.location is not None and b.location not in places:
            fail(f"the {b.name} is on {b.location!r}, which is not on the board")
    for s in state.table.scouts:
        if not (0 <= s.seat < n or (n == 1 and s.seat == BETRAYERS)) or s.location not in places:
            fail(f"a Scout of seat {s.seat} is on {s.location!r}")
        if s.location in state.table.no_site or s.location in board.crossroads:
            fail(f"a Scout is on {s.location!r}, where no Scout may be")
    if state.table.fruit is not None and (
        state.table.fruit not in board.locations + board.excavation
        or state.table.fruit in state.table.no_site
    ):
        fail(f"the Fruit token is on {state.table.fruit!r}, where no token may be")
    for seat, tribe in enumerate(state.table.tribes):
        on_board = sum(1 for s in state.table.scouts if s.seat == seat)
        if tribe.reserve + tribe.graveyard + on_board != 4 or min(tribe.resources) < 0 or tribe.artifacts < 0:
            fail(f"seat {seat + 1}: 4 Scouts in all, no negative resources")
    try:
        for card in (*state.deck, *state.tableau):
            parse_mission(card)
        for reward in (*dict(state.rewards).values(), *state.council_track):
            parse_effect(reward)
    except BadEffect as error:
        raise BadState(str(error)) from error
