"""How a turn moves on: the draw, action and build phases, the end of a turn, the next seat.

Tower: How to Play and the Turn Summary; the Royal Guard's hunt at the end of a turn;
Lutfi's turn after the last player's ("he should always go last").
"""

from __future__ import annotations

from dataclasses import replace

from .market import can_build, shortage_now
from .state import (
    ACTION,
    BLACK_DRAW,
    BONUS,
    BUILD_DRAW,
    BUILD_OFFER,
    DEAL,
    DRAW,
    GEMS_PER_DRAW,
    HUNT,
    IDLE_BONUS,
    KEEP,
    LUTFI,
    LUTFI_DIE,
    LUTFI_WON,
    OVER,
    PICK,
    RETURN,
    REWARD,
    SEGMENTS_TO_WIN,
    Apprentice,
    Player,
    TowerState,
    Turn,
)

GEM_STEPS = (DRAW, BONUS, REWARD)


def with_player(state: TowerState, seat: int, player: Player) -> TowerState:
    return replace(state, players=state.players[:seat] + (player,) + state.players[seat + 1 :])


def lutfi_turn(state: TowerState) -> bool:
    """Whether the turn (or the deal) is Lutfi's: his seat comes after the last player."""
    return state.turn.seat == state.seats


def start_turn(state: TowerState, seat: int) -> TowerState:
    """A player's turn opens with the draw phase; apprentices they hired go back to their cards
    ("unavailable to other players until the start of your next turn")."""
    if seat == state.seats:
        return replace(state, turn=Turn(seat=seat, step=LUTFI))
    apprentices = tuple(Apprentice(a.name) if a.seat == seat else a for a in state.apprentices)
    return replace(state, apprentices=apprentices, turn=Turn(seat=seat, step=DRAW, count=GEMS_PER_DRAW))


def next_turn(state: TowerState) -> TowerState:
    """Play passes to the left; Lutfi goes after the last player."""
    seat = state.turn.seat + 1
    if seat >= state.seats + (1 if state.lutfi else 0):
        return start_turn(replace(state, round=state.round + 1), 0)
    return start_turn(state, seat)


def end_actions(state: TowerState) -> TowerState:
    """Build phase: with every item on the card, return them (one move each); else skip it."""
    me = state.current
    if can_build(state, me):
        # The materials leave the player's hand now and go back one move at a time.
        turn = replace(state.turn, step=RETURN, returns=me.materials, acted=True, opened=True)
        state = replace(with_player(state, state.turn.seat, replace(me, materials=())), turn=turn)
        return finish_build(state) if not turn.returns else state
    return end_of_turn(state)


def finish_build(state: TowerState) -> TowerState:
    """After the returns: a segment on the palace, the card discarded, three new cards drawn;
    the game "ends immediately after a player builds her third tower segment"."""
    if lutfi_turn(state):
        return finish_lutfi_card(state)
    seat = state.turn.seat
    me = state.current
    done = replace(me, segments=me.segments + 1, card=0, materials=(), concoctions=())
    state = replace(
        with_player(state, seat, done),
        build_discard=state.build_discard + (me.card,),
        shortage=False,
        palace=state.palace + (seat,),
    )
    if done.segments >= SEGMENTS_TO_WIN:
        return replace(state, winner=seat, turn=replace(state.turn, step=OVER, returns=()))
    return replace(state, turn=replace(state.turn, step=BUILD_DRAW, count=BUILD_OFFER, returns=(), offer=()))


def finish_lutfi_card(state: TowerState) -> TowerState:
    """Lutfi filled his card: it is discarded and he gets a new one; in a solo game he also
    builds a segment and wins on his `lutfi_wins_at`-th (Lutfi, Solo Play)."""
    lutfi = state.lutfi
    assert lutfi is not None
    solo = state.seats == 1
    done = replace(lutfi, card=0, materials=(), segments=lutfi.segments + (1 if solo else 0))
    state = replace(state, lutfi=done, build_discard=state.build_discard + (lutfi.card,))
    if solo:
        state = replace(state, shortage=False, palace=state.palace + (state.seats,))
        if done.segments >= state.variants.lutfi_wins_at:
            return replace(state, winner=LUTFI_WON, turn=replace(state.turn, step=OVER, returns=()))
    return replace(state, turn=replace(state.turn, step=BUILD_DRAW, count=1, returns=()))


def end_of_turn(state: TowerState) -> TowerState:
    """ "If you did not execute any of the above actions ... draw 2 more gems" first."""
    if not state.turn.acted and state.turn.step != BONUS:
        return replace(state, turn=replace(state.turn, step=BONUS, count=IDLE_BONUS))
    return close_turn(state)


def close_turn(state: TowerState) -> TowerState:
    """No loitering (a meeple stays only on the stall it bought at this turn), then the Royal
    Guard's hunt when anyone is wanted, then the next turn."""
    seat = state.turn.seat
    me = state.current
    if me.stall and me.stall != state.turn.visited:
        me = replace(me, stall=0)
    me = replace(me, hired_last_turn=bool(state.turn.hired))
    state = with_player(state, seat, me)
    if state.variants.royal_guard and any(p.wanted for p in state.players):
        return replace(state, turn=replace(state.turn, step=HUNT, count=1))
    return next_turn(state)


def after_deal(state: TowerState) -> TowerState:
    """Set-up: every player draws a build card, then Lutfi, whose die places him."""
    seat = state.turn.seat + 1
    if seat < state.seats or (seat == state.seats and state.lutfi):
        return replace(state, turn=Turn(seat=seat, step=DEAL, count=1))
    if state.lutfi:
        return replace(state, turn=Turn(seat=state.seats, step=LUTFI_DIE, count=1))
    return start_turn(state, 0)


def settle(state: TowerState) -> TowerState:
    """Everything that follows by itself: the bag refilled from Salil, exhausted decks
    reshuffled, finished draws moving the turn on, the shortage noticed."""
    for _ in range(8):
        before = state
        turn = state.turn
        if state.bag.total == 0 and state.salil.total:
            # Salil: "If the gem bag becomes empty, all of the gems and passes with Salil are put back".
            state = replace(state, bag=state.salil, salil=type(state.salil)())
        if turn.step in (BUILD_DRAW, DEAL) and not state.build_deck and state.build_discard:
            # Build phase: "If the build deck is exhausted, shuffle the discard pile to form a new deck."
            state = replace(state, build_deck=tuple(sorted(state.build_discard)), build_discard=())
        if turn.step == BLACK_DRAW and sum(state.black_deck) == 0 and sum(state.black_discard) > 0:
            # The Black Market: "If the black market deck is exhausted, shuffle the discard pile".
            state = replace(state, black_deck=state.black_discard, black_discard=())
        empty = {
            DRAW: state.bag.total == 0,
            BONUS: state.bag.total == 0,
            REWARD: state.bag.total == 0,
            BUILD_DRAW: not state.build_deck,
            DEAL: not state.build_deck,
            BLACK_DRAW: sum(state.black_deck) == 0,
        }
        if empty.get(turn.step) and turn.count:
            # ASSUMED: nothing left to draw anywhere - the draw ends short.
            state = replace(state, turn=replace(turn, count=0))
        state = _after_draws(state)
        if not state.shortage and state.turn.step != OVER and shortage_now(state):
            state = replace(state, shortage=True)
        if state == before:
            return state
    return state


def _after_draws(state: TowerState) -> TowerState:
    """A CHANCE step whose draws are all made hands the turn on."""
    turn = state.turn
    if turn.count or turn.step not in (DRAW, BONUS, REWARD, BUILD_DRAW, DEAL, BLACK_DRAW):
        return state
    if turn.step == DRAW:
        return replace(state, turn=replace(turn, step=ACTION))
    if turn.step == BONUS:
        return close_turn(state)
    if turn.step == REWARD:
        return next_turn(state)
    if turn.step == BLACK_DRAW:
        return replace(state, turn=replace(turn, step=KEEP))
    if turn.step == DEAL:
        return after_deal(state)
    if lutfi_turn(state):
        return next_turn(state)
    if not turn.offer:
        return end_of_turn(state)
    return replace(state, turn=replace(turn, step=PICK))
