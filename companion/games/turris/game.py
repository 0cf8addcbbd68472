"""A whole game of Turris as states and moves: the players' turns, the Beast Phase and the end.

The rules functions of `actions`, `missions`, `beasts` and `ending` say what is legal and
what happens; this module strings them into rounds ("04 Gameplay, ROUNDS"): each player's
turn (two actions, a Mission, a Tower room, discards and the Mission refill), the Beast
Phase with its questions to the players, the Cleanup Phase and the Endgame.

What the text does not print lives in `turris.toml` as stated assumptions: each Location's
reward, the Mission deck. Tactics cards, Trionfi cards and Excavation Sites are counted but
their effects are not modelled (their texts are not in the rulebook).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations

from ..base import BadMoveText, IllegalMove
from .actions import (
    ActionStep,
    collect_rewards,
    force_revive_cost,
    gather_ichor_gain,
    why_not_collect,
    why_not_play_tactics,
)
from .actions import why_not_place as _why_not_place
from .beasts import (
    BEASTS,
    RESOURCES,
    Ask,
    Scout,
    Table,
    Tribe,
    Turn,
    beast_moved,
    beast_turn,
    cleanup,
    no_beasts_left,
    remove_next_beast,
)
from .board import Board
from .ending import (
    ROOM_PRESTIGE,
    ROOMS,
    endgame_triggered,
    may_build_room,
    missions_for_next_room,
    new_excavation_thresholds,
    solo_result,
)
from .missions import shortfall, why_not_complete
from .solo import PHASE_PRESTIGE, betrayer_phase

RULEBOOK = "Turris rulebook"
ACTION, MISSION, TRIONFI, REFILL, BEAST, OVER = "action", "mission", "trionfi", "refill", "beast", "over"
BETRAYER, CARD, CARD_BEAST = "betrayer", "card", "card beast"
"""Solo: the Betrayers' Scouts move, a Beast Movement card is drawn, its Beast moves."""
PHASES = (ACTION, MISSION, TRIONFI, REFILL, BETRAYER, CARD, CARD_BEAST, BEAST, OVER)
TABLEAU = 5
HAND_LIMIT = 4
EFFECT_LETTERS = ("I", "K", "R", "W", "A", "T", "C", "V")
"""Resources, Artifacts, Tactics cards, Council steps, Scouts revived (see turris.toml)."""


class BadEffect(ValueError):
    """Reward or Mission text that is not spelled as turris.toml says."""


@cache
def parse_effect(text: str) -> tuple[tuple[str, int], ...]:
    """ "1K+2R" -> (("K", 1), ("R", 2)); "room" -> (("room", 1),); "-" -> ()."""
    text = text.strip()
    if text in ("-", ""):
        return ()
    if text == "room":
        return (("room", 1),)
    parts = []
    for part in text.split("+"):
        m = re.fullmatch(r"(\d+)([A-Z])", part.strip())
        if not m or m[2] not in EFFECT_LETTERS:
            raise BadEffect(f"{text!r}: write counts of {'/'.join(EFFECT_LETTERS)} joined by '+', or 'room'")
        parts.append((m[2], int(m[1])))
    return tuple(parts)


@cache
def parse_mission(text: str) -> tuple[tuple[int, int, int, int], int]:
    """ "2K+1R=3" -> cost in I/K/R/W and the Prestige."""
    cost_text, sep, prestige = text.partition("=")
    if not sep or not prestige.strip().isdigit():
        raise BadEffect(f"{text!r}: a Mission is spelled cost=Prestige, e.g. 2K+1R=3")
    counts = dict(parse_effect(cost_text))
    if not counts or set(counts) - set(RESOURCES):
        raise BadEffect(f"{text!r}: a Mission costs I/K/R/W")
    cost = tuple(counts.get(r, 0) for r in RESOURCES)
    return (cost[0], cost[1], cost[2], cost[3]), int(prestige)


@dataclass(frozen=True)
class Tally:
    """A player's tracks and cards beyond the Beast Phase's `Tribe`."""

    mission_prestige: int = 0
    room_prestige: int = 0
    other_prestige: int = 0
    missions: int = 0
    """Completed Missions."""
    rooms: int = 0
    """Tower rooms constructed (the Tower track)."""
    tactics: int = 1
    """Tactics cards in hand ("03 Setup" 14: one each)."""

    @property
    def prestige(self) -> int:
        return self.mission_prestige + self.room_prestige + self.other_prestige


@dataclass(frozen=True)
class TurrisState:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    rewards: tuple[tuple[str, str], ...]
    """Each Location's reward as turris.toml spells it."""
    council_track: tuple[str, ...]
    """The reward on each Council track spot, the starting spot first (turris.toml)."""
    deck: tuple[str, ...]
    """Missions still in the deck (drawn at random: the order does not matter)."""
    table: Table
    tallies: tuple[Tally, ...]
    tableau: tuple[str, ...] = ()
    phase: str = REFILL
    round: int = 1
    turns_taken: int = 0
    """Players who have finished their turn this round."""
    step: ActionStep = ActionStep()
    grove: bool = False
    """This turn's Collect gained the Grove's reward (a Tower room in the Trionfi Step)."""
    beast: int = 0
    """In the Beast Phase: the index in BEASTS of the Beast acting now."""
    answers: tuple[str, ...] = ()
    ask: Ask | None = None
    log: tuple[str, ...] = ()
    """What happened in the latest Beast Phase (and since), with the reasons."""
    passed: tuple[int, ...] = ()
    """Prestige thresholds that have changed the Excavation Sites already."""
    movement_cards: tuple[str, ...] = ()
    """Solo: the whole Beast Movement deck, "Beast@Location" (ASSUMED, turris.toml)."""
    movement_deck: tuple[str, ...] = ()
    """Solo: Beast Movement cards still in the deck, "Beast@Location" (turris.toml)."""
    betrayers: int = 0
    """Solo: the Betrayers' Prestige."""
    damaged: int = 0
    """Solo: Damaged tiles on the Tower rooms."""
    result: str = ""
    """Solo, at the end: "won" or "lost"."""
    trails: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The Beasts' moves since the last player action: (Beast, the places it moved through),
    for the camera picture (the players move the miniatures after NEXT)."""
    moving: str = ""
    """A Beast moved by an effect ("Pain>Forge", `adjust`) whose effect waits for `ask`'s answer."""
    future_first: int | None = None
    """The seat holding the Future First Player card this round (`adjust`): First Player at
    the Cleanup Phase."""
    removals_from: int = 0
    """Once the Endgame is triggered: the first round whose Beast Phase ends with a Beast
    leaving ("ENDGAME": this round if triggered before its Beast Phase, else the next)."""

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def solo(self) -> bool:
        return len(self.names) == 1

    @property
    def current(self) -> int:
        return (self.table.first + self.turns_taken) % self.players


@dataclass(frozen=True)
class Move:
    """A move is its own text: a verb and what it names ("place Guild", "collect Grove+Nest")."""

    verb: str
    what: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.what}".strip()


VERBS = (
    "place",
    "collect",
    "gather ichor",
    "force revive",
    "play tactics",
    "complete",
    "no mission",
    "build room",
    "no room",
    "draw",
    "beast",
    "answer",
    "betrayers move",
    "card",
    "adjust",
)
BARE = (
    "gather ichor",
    "force revive",
    "play tactics",
    "no mission",
    "build room",
    "no room",
    "betrayers move",
)
"""Verbs that name nothing more."""


def parse_move(text: str) -> Move:
    """The inverse of `str(move)`; the verb's case and the spacing are forgiven."""
    t = " ".join(text.split())
    for verb in sorted(VERBS, key=len, reverse=True):
        if t.lower() == verb or t.lower().startswith(verb + " "):
            what = t[len(verb) :].strip()
            if verb in BARE:
                if what:
                    break
            elif not what:
                break
            return Move(verb, what)
    raise BadMoveText(
        f"{text!r} is not a Turris move (e.g. 'place Guild', 'collect Grove+Nest', 'gather ichor', "
        "'force revive', 'complete 2K+1R=3', 'no mission', 'build room', 'beast Pain', 'answer Circle', "
        "'adjust Alice +2K: Tactics card')"
    )


def to_move(state: TurrisState) -> int | str | None:
    if state.phase == OVER:
        return None
    if state.moving and state.ask:
        return state.ask.who
    if state.phase in (REFILL, CARD):
        return "chance"
    if state.phase == BETRAYER:
        return "betrayers"
    if state.phase in (BEAST, CARD_BEAST):
        return state.ask.who if state.ask else "beast"
    return state.current


def _places(board: Board, state: TurrisState) -> tuple[str, ...]:
    return tuple(p for p in (*board.locations, *board.excavation) if p not in state.table.gone())


def why_not_place(board: Board, state: TurrisState, location: str) -> str | None:
    return _why_not_place(board, state.table, state.step, state.current, location)


def _collect_options(state: TurrisState) -> tuple[tuple[str, ...], ...]:
    seat = state.current
    mine = sorted(s.location for s in state.table.scouts if s.seat == seat)
    seen: list[tuple[str, ...]] = []
    for k in range(1, len(mine) + 1):
        for pick in combinations(mine, k):
            if pick not in seen and why_not_collect(state.table, state.step, seat, pick) is None:
                seen.append(pick)
    return tuple(seen)


def _can_revive(state: TurrisState) -> bool:
    tribe = state.table.tribes[state.current]
    return tribe.graveyard > 0 and tribe.resources[0] + tribe.artifacts >= force_revive_cost(tribe.graveyard)


def legal_moves(board: Board, state: TurrisState) -> tuple[Move, ...]:
    phase = state.phase
    if phase == OVER:
        return ()
    if state.moving and state.ask:
        return tuple(Move("answer", o) for o in state.ask.options)
    if phase == REFILL:
        return tuple(Move("draw", m) for m in sorted(set(state.deck)))
    if phase == CARD:
        return tuple(Move("card", c) for c in sorted(set(_movement_deck(state))))
    if phase == BETRAYER:
        return (Move("betrayers move"),)
    if phase in (BEAST, CARD_BEAST):
        if state.ask:
            return tuple(Move("answer", o) for o in state.ask.options)
        return (Move("beast", BEASTS[state.beast]),)
    if phase == ACTION:
        moves = [Move("place", p) for p in _places(board, state) if why_not_place(board, state, p) is None]
        moves += [Move("collect", "+".join(pick)) for pick in _collect_options(state)]
        moves.append(Move("gather ichor"))
        if _can_revive(state):
            moves.append(Move("force revive"))
        return (*moves, *_tactics(state))
    if phase == MISSION:
        tribe = state.table.tribes[state.current]
        doable = sorted(
            {m for m in state.tableau if why_not_complete(parse_mission(m)[0], tribe, False) is None}
        )
        return (*(Move("complete", m) for m in doable), Move("no mission"), *_tactics(state))
    return (Move("build room"), Move("no room"))


def _tactics(state: TurrisState) -> tuple[Move, ...]:
    """`play tactics` while the Action Step lasts ("before or after fully resolving any
    Action": ASSUMED also right after the second Action, before the Complete Mission Step)."""
    held = state.tallies[state.current].tactics
    return (Move("play tactics"),) if why_not_play_tactics(state.step, held) is None else ()


def _movement_deck(state: TurrisState) -> tuple[str, ...]:
    """The cards left, or the whole deck again once it is used up (ASSUMED: reshuffled)."""
    return state.movement_deck or state.movement_cards


def chance_outcomes(state: TurrisState) -> tuple[tuple[Move, float], ...]:
    if state.phase == CARD:
        deck = _movement_deck(state)
        return tuple((Move("card", c), deck.count(c) / len(deck)) for c in sorted(set(deck)))
    if state.phase != REFILL:
        return ()
    return tuple((Move("draw", m), state.deck.count(m) / len(state.deck)) for m in sorted(set(state.deck)))


def explain_illegal(board: Board, state: TurrisState, move: Move) -> IllegalMove:
    """Why `move` is not legal now, with the rule."""
    actor = to_move(state)
    if state.ask is not None:
        return IllegalMove(
            f"{state.names[state.ask.who]} is to answer first: {named(state, state.ask.question)} "
            f"({', '.join(state.ask.options)})",
            state.ask.rule,
        )
    if state.phase == ACTION and move.verb == "place":
        if move.what not in board.every:
            return IllegalMove(f"there is no {move.what!r} on the board", "Turris: Main Board")
        why = why_not_place(board, state, move.what)
        if why:
            return IllegalMove(why, "04 Gameplay, 1) Action Step, PLACE")
    if state.phase == ACTION and move.verb == "collect":
        why = why_not_collect(state.table, state.step, state.current, tuple(move.what.split("+")))
        if why:
            return IllegalMove(why, "04 Gameplay, 1) Action Step, COLLECT")
    if state.phase == ACTION and move.verb == "force revive":
        tribe = state.table.tribes[state.current]
        cost = force_revive_cost(tribe.graveyard)
        why = "no Scout in your Graveyard" if not tribe.graveyard else f"Force Revive costs {cost} Ichor"
        return IllegalMove(why, "04 Gameplay, 1) Action Step, FORCE REVIVE")
    if state.phase in (ACTION, MISSION) and move.verb == "play tactics":
        why = why_not_play_tactics(state.step, state.tallies[state.current].tactics)
        if why:
            return IllegalMove(why, "04 Gameplay, 1) Action Step (Tactics cards)")
    if state.phase == MISSION and move.verb == "complete":
        if move.what not in state.tableau:
            return IllegalMove(f"{move.what} is not in the Mission tableau", "2) Complete Mission Step")
        why = why_not_complete(parse_mission(move.what)[0], state.table.tribes[state.current], False)
        return IllegalMove(why or "not now", "2) Complete Mission Step")
    if move.verb == "build room" and state.phase != TRIONFI:
        return IllegalMove(
            "a Tower room is built in the Trionfi Step after Collecting from the Grove, with enough "
            "completed Missions",
            "3) Trionfi Step",
        )
    expected = {
        ACTION: "an action",
        MISSION: "a Mission or 'no mission'",
        TRIONFI: "'build room' or 'no room'",
        REFILL: "the Mission drawn",
        BETRAYER: "'betrayers move'",
        CARD: "the Beast Movement card drawn",
        CARD_BEAST: "the card's Beast's move",
        BEAST: "the Beast Phase's next step",
        OVER: "nothing",
    }[state.phase]
    who = state.names[actor] if isinstance(actor, int) and 0 <= actor < state.players else actor
    return IllegalMove(f"{move} is not possible now: {who} is to play {expected}", RULEBOOK)


def with_tally(state: TurrisState, seat: int, **changes: int) -> TurrisState:
    tallies = list(state.tallies)
    tallies[seat] = replace(tallies[seat], **changes)
    return replace(state, tallies=tuple(tallies))


def _spend(tribe: Tribe, cost: tuple[int, int, int, int]) -> Tribe:
    """Pay `cost` (I/K/R/W): resources first, an Artifact for each one missing ("ARTIFACTS").
    ASSUMED: the companion keeps Artifacts for last, the choice most players make."""
    missing = shortfall(cost, tribe.resources)
    left = tuple(max(0, have - need) for have, need in zip(tribe.resources, cost))
    return replace(tribe, resources=(left[0], left[1], left[2], left[3]), artifacts=tribe.artifacts - missing)


def _gain(state: TurrisState, seat: int, reward: str, where: str) -> TurrisState:
    """A Location's or a Council spot's reward for `seat` (turris.toml's letters)."""
    if reward == "room":
        return _council_room(state, seat) if where == "Council" else replace(state, grove=True)
    steps = dict(parse_effect(reward)).get("C", 0)
    if steps:
        state = advance_council(state, seat, steps)
    tribe = state.table.tribes[seat]
    res = list(tribe.resources)
    for letter, n in parse_effect(reward):
        if letter in RESOURCES:
            res[RESOURCES.index(letter)] += n
        elif letter == "A":
            tribe = replace(tribe, artifacts=tribe.artifacts + n)
        elif letter == "T":
            state = with_tally(state, seat, tactics=state.tallies[seat].tactics + n)
        elif letter == "V":
            back = min(n, tribe.graveyard)
            tribe = replace(tribe, graveyard=tribe.graveyard - back, reserve=tribe.reserve + back)
    tribe = replace(tribe, resources=(res[0], res[1], res[2], res[3]))
    return replace(state, table=state.table.with_tribe(seat, tribe))


def council_spot(track: tuple[str, ...], steps: int) -> int:
    """The spot a token stands on after `steps` advances: back to the start after the last spot
    (ASSUMED always, see turris.toml), so the spots 1..last come round again."""
    return 0 if steps == 0 else (steps - 1) % (len(track) - 1) + 1


def advance_council(state: TurrisState, seat: int, steps: int, already: bool = False) -> TurrisState:
    """`seat` advances `steps` spots and takes each spot's reward in turn ("COUNCIL TRACK");
    `already`: the Beast Phase has counted the steps, only the rewards are due."""
    start = state.table.tribes[seat].council - (steps if already else 0)
    if not already:
        tribe = state.table.tribes[seat]
        state = replace(state, table=state.table.with_tribe(seat, replace(tribe, council=start + steps)))
    for k in range(start + 1, start + steps + 1):
        spot = council_spot(state.council_track, k)
        reward = state.council_track[spot]
        state = replace(state, log=(*state.log, f"{state.names[seat]} reaches Council spot {spot}: {reward}"))
        state = _gain(state, seat, reward, "Council")
    return state


def _undamaged_room(state: TurrisState) -> bool:
    """Solo: a Tower room with no Damaged tile is left to take. ASSUMED: Damaged tiles lie on
    rooms not yet built, so the free undamaged rooms are the six less the built and the
    damaged ones."""
    return not state.solo or state.tallies[0].rooms + state.damaged < ROOMS


def _council_room(state: TurrisState, seat: int) -> TurrisState:
    """A Tower room from the Council track, built at once ("3) Trionfi Step")."""
    tally = state.tallies[seat]
    if not may_build_room(tally.rooms, tally.missions, _undamaged_room(state)):
        return replace(state, log=(*state.log, f"  no Tower room: {room_hint(tally)}"))
    state = with_tally(
        state, seat, rooms=tally.rooms + 1, room_prestige=tally.room_prestige + ROOM_PRESTIGE["Council"]
    )
    return replace(
        state,
        log=(*state.log, f"  {state.names[seat]} builds a Tower room: {ROOM_PRESTIGE['Council']} Prestige"),
    )


def prestige_changed(state: TurrisState, before: tuple[int, ...]) -> TurrisState:
    """The Excavation refresh at 10/20/30/40 and the Endgame trigger, after an action resolves."""
    after = tuple(t.prestige for t in state.tallies)
    new = new_excavation_thresholds(before, after, frozenset(state.passed))
    if new:
        state = replace(
            state,
            passed=(*state.passed, *new),
            log=(
                *state.log,
                f"{max(new)} Prestige reached for the first time: replace the Excavation Sites "
                f"with {state.players} new ones (Scouts, Beasts and the Fruit token stay on their spots)",
            ),
        )
    rooms = sum(t.rooms for t in state.tallies)
    if state.solo:
        result = solo_result(rooms, state.damaged, after[0], state.betrayers, False)
        if result:
            return replace(
                state, phase=OVER, result=result, log=(*state.log, "40 Prestige before the Betrayers: won")
            )
        return state
    if not state.removals_from and endgame_triggered(rooms, after):
        why = "all 6 Tower rooms are built" if rooms >= 6 else "a player has 40 Prestige"
        first = state.round + (1 if state.phase == BEAST else 0)
        state = replace(state, removals_from=first, log=(*state.log, f"The Endgame is triggered: {why}"))
    return state


def _after_action(state: TurrisState) -> TurrisState:
    if state.phase == OVER:  # solo: the game ends the moment someone reaches 40
        return state
    step = replace(state.step, actions_left=state.step.actions_left - 1)
    return replace(state, step=step, phase=ACTION if step.actions_left else MISSION, trails=())


def _end_turn(state: TurrisState) -> TurrisState:
    """Discard down to 4 Tactics, refill the tableau, and pass to the left ("3) Trionfi Step")."""
    if state.phase == OVER:  # solo: the game ends the moment someone reaches 40
        return state
    seat = state.current
    state = with_tally(state, seat, tactics=min(HAND_LIMIT, state.tallies[seat].tactics))
    state = replace(state, turns_taken=state.turns_taken + 1, step=ActionStep(), grove=False)
    return _next(state)


def _next(state: TurrisState) -> TurrisState:
    if len(state.tableau) < TABLEAU and state.deck:
        return replace(state, phase=REFILL)
    if state.turns_taken < state.players:
        return replace(state, phase=ACTION)
    if state.solo:
        tally = state.tallies[0]
        if tally.rooms >= ROOMS and solo_result(
            tally.rooms, state.damaged, tally.prestige, state.betrayers, True
        ):
            return replace(
                state, phase=OVER, result="won", log=(*state.log, "Six Tower rooms, none Damaged: won")
            )
        return replace(state, phase=BETRAYER, log=(), answers=(), ask=None)
    return _beast_phase(replace(state, log=()))


def _beast_phase(state: TurrisState) -> TurrisState:
    first = _next_beast(state.table, 0)
    return replace(state, phase=BEAST, beast=first, answers=(), ask=None)


def _betrayers_score(state: TurrisState, gain: int, why: str) -> TurrisState:
    """Solo: the Betrayers' Prestige, and the race to 40 ("06 Solo Play, ENDGAME")."""
    state = replace(
        state,
        betrayers=state.betrayers + gain,
        log=(*state.log, f"The Betrayers gain {gain} Prestige: {why}"),
    )
    result = solo_result(
        state.tallies[0].rooms, state.damaged, state.tallies[0].prestige, state.betrayers, False
    )
    if result:
        return replace(
            state, phase=OVER, result=result, log=(*state.log, "The Betrayers reach 40 Prestige first: lost")
        )
    return state if state.phase != CARD_BEAST else _beast_phase(state)


def named(state: TurrisState, text: str) -> str:
    """The Beast Phase's events say "player 2"; the page says the player's name."""
    for seat, name in enumerate(state.names):
        text = text.replace(f"player {seat + 1}", name)
    return text


def _next_beast(table: Table, start: int) -> int:
    for i in range(start, len(BEASTS)):
        if table.beast(BEASTS[i]).location is not None:
            return i
    return len(BEASTS)


def _resolve_beast(board: Board, state: TurrisState, answers: tuple[str, ...]) -> TurrisState:
    card = state.phase == CARD_BEAST  # solo: no Chain Attack outside the Beast Phase
    turn = beast_turn(board, state.table, BEASTS[state.beast], answers, beast_phase=not card)
    if turn.ask:
        return replace(state, answers=answers, ask=turn.ask)
    state = _take_turn(state, turn, BEASTS[state.beast])
    if state.phase == OVER:
        return state
    if card:
        return _betrayers_score(state, PHASE_PRESTIGE, "the end of the Betrayer Phase")
    following = _next_beast(state.table, state.beast + 1)
    if following < len(BEASTS):
        return replace(state, beast=following)
    return _end_round(state)


def resolve_moved(board: Board, state: TurrisState, answers: tuple[str, ...]) -> TurrisState:
    """A Beast moved by an effect (`adjust`), once every question of its effect is answered."""
    name, _, to = state.moving.partition(">")
    turn = beast_moved(board, state.table, name, to, answers)
    if turn.ask:
        return replace(state, answers=answers, ask=turn.ask)
    return replace(_take_turn(state, turn, name), moving="")


def _take_turn(state: TurrisState, turn: Turn, name: str) -> TurrisState:
    """A Beast's finished turn on the state: its events in the log, its way in the trails,
    the Council rewards of the Scouts it Devoured (in turn order from the First Player), the
    Prestige thresholds."""
    log = (*state.log, *(f"{named(state, e.text)} (Turris: {e.rule})" for e in turn.events))
    moved = tuple((name, e.moved) for e in turn.events if e.moved)
    before_table, before = state.table, tuple(t.prestige for t in state.tallies)
    state = replace(state, table=turn.table, answers=(), ask=None, log=log, trails=(*state.trails, *moved))
    for seat in before_table.turn_order():  # Devoured Scouts: Council rewards in turn order
        steps = turn.table.tribes[seat].council - before_table.tribes[seat].council
        if steps:
            state = advance_council(state, seat, steps, already=True)
    return prestige_changed(state, before)


def _end_round(state: TurrisState) -> TurrisState:
    table, log = state.table, state.log
    if state.removals_from and state.round >= state.removals_from:
        table, removed = remove_next_beast(table)
        if removed:
            log = (*log, f"Endgame: the {removed} leaves the board")
    table = cleanup(table, state.future_first)
    log = (*log, f"Cleanup: the Altar token moves to the {table.altar}'s spot")
    if no_beasts_left(table):
        return replace(state, table=table, log=(*log, "No Beast is left: the game ends"), phase=OVER)
    return replace(
        state,
        table=table,
        log=log,
        phase=ACTION,
        round=state.round + 1,
        turns_taken=0,
        beast=0,
        future_first=None,
    )


def apply_move(board: Board, state: TurrisState, move: Move) -> TurrisState:
    """The state after a legal `move` (trusted: `Game.apply` checks it first)."""
    seat, verb = state.current, move.verb
    if verb == "draw":
        deck = list(state.deck)
        deck.remove(move.what)
        return _next(replace(state, deck=tuple(deck), tableau=(*state.tableau, move.what)))
    if verb == "betrayers move":
        phase = betrayer_phase(board, state.table, state.damaged)
        log = (*state.log, *(f"{named(state, e.text)} (Turris: {e.rule})" for e in phase.events))
        state = replace(state, table=phase.table, damaged=phase.damaged, log=log, phase=CARD)
        if phase.prestige:
            state = _betrayers_score(state, phase.prestige, "Damaged tiles")
        return state
    if verb == "card":
        deck = list(_movement_deck(state))
        deck.remove(move.what)
        name, _, place = move.what.partition("@")
        table = replace(state.table, card_target=place)
        log = (*state.log, f"Beast Movement card: the {name}, the {place}")
        state = replace(state, table=table, movement_deck=tuple(deck), log=log)
        if table.beast(name).location is None:
            return _betrayers_score(
                replace(state, phase=CARD_BEAST), PHASE_PRESTIGE, "the end of the Betrayer Phase"
            )
        return replace(state, phase=CARD_BEAST, beast=BEASTS.index(name))
    if verb == "beast":
        return _resolve_beast(board, state, ())
    if verb == "answer" and state.moving:
        return resolve_moved(board, state, (*state.answers, move.what))
    if verb == "answer":
        return _resolve_beast(board, state, (*state.answers, move.what))
    tribe = state.table.tribes[seat]
    before = tuple(t.prestige for t in state.tallies)
    if verb == "place":
        table = replace(state.table, scouts=(*state.table.scouts, Scout(seat, move.what)))
        table = table.with_tribe(seat, replace(tribe, reserve=tribe.reserve - 1))
        state = replace(state, table=table, step=replace(state.step, placed=True))
        if move.what in board.immediate:
            state = _gain(state, seat, dict(state.rewards).get(move.what, "-"), move.what)
        return prestige_changed(_after_action(state), before)
    if verb == "collect":
        places = tuple(move.what.split("+"))
        rewards = collect_rewards(board, state.table, places)
        scouts = tuple(Scout(seat, p) for p in places)
        paid = _spend(tribe, (len(places), 0, 0, 0))
        table = state.table.without(scouts).with_tribe(
            seat, replace(paid, reserve=paid.reserve + len(places))
        )
        state = replace(state, table=table, step=replace(state.step, collected=True))
        for place, outcome in rewards:
            if outcome == "reward":
                state = _gain(state, seat, dict(state.rewards).get(place, "-"), place)
        return prestige_changed(_after_action(state), before)
    if verb == "play tactics":  # its effect, which the rulebook does not print, is an `adjust`
        state = with_tally(state, seat, tactics=state.tallies[seat].tactics - 1)
        log = (*state.log, f"{state.names[seat]} plays a Tactics card: adjust what it changes")
        return replace(state, step=replace(state.step, tactics_played=True), log=log)
    if verb == "gather ichor":
        gain = gather_ichor_gain(state.step)
        res = tribe.resources
        table = state.table.with_tribe(
            seat, replace(tribe, resources=(res[0] + gain, res[1], res[2], res[3]))
        )
        step = replace(state.step, gathered=state.step.gathered + 1)
        return _after_action(replace(state, table=table, step=step))
    if verb == "force revive":
        paid = _spend(tribe, (force_revive_cost(tribe.graveyard), 0, 0, 0))
        table = state.table.with_tribe(
            seat, replace(paid, graveyard=paid.graveyard - 1, reserve=paid.reserve + 1)
        )
        return _after_action(replace(state, table=table))
    if verb == "complete":
        cost, prestige = parse_mission(move.what)
        tableau = list(state.tableau)
        tableau.remove(move.what)
        tally = state.tallies[seat]
        state = replace(
            state, table=state.table.with_tribe(seat, _spend(tribe, cost)), tableau=tuple(tableau)
        )
        state = with_tally(
            state, seat, mission_prestige=tally.mission_prestige + prestige, missions=tally.missions + 1
        )
        return _after_mission(prestige_changed(state, before))
    if verb == "no mission":
        return _after_mission(state)
    if verb == "build room":
        tally = state.tallies[seat]
        state = with_tally(
            state, seat, rooms=tally.rooms + 1, room_prestige=tally.room_prestige + ROOM_PRESTIGE["Grove"]
        )
        return _end_turn(prestige_changed(state, before))
    return _end_turn(state)  # no room


def _after_mission(state: TurrisState) -> TurrisState:
    if state.phase == OVER:  # solo: the game ends the moment someone reaches 40
        return state
    tally = state.tallies[state.current]
    if state.grove and may_build_room(tally.rooms, tally.missions, _undamaged_room(state)):
        return replace(state, phase=TRIONFI)
    return _end_turn(state)


def room_hint(tally: Tally) -> str:
    return f"the next Tower room needs {missions_for_next_room(tally.rooms)} completed Missions"
