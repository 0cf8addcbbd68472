"""Tower turn rules: who acts, every legal move, and the state after a move.

Pure functions over `TowerState`; each rule cites its rulebook section. Draws from the
bag and the decks and the die are CHANCE moves, one gem, card or roll at a time, with
probabilities from what is really left (the page can show the odds of a needed gem).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..base import CHANCE
from .apprentices import apply_hire, hire_moves
from .blackmarket import (
    apply_enter,
    apply_keep,
    apply_use,
    draw_black,
    entry_moves,
    handfuls,
    keep_moves,
    use_moves,
)
from .flow import end_actions, end_of_turn, finish_build, lutfi_turn, settle, start_turn, with_player
from .gems import COLOURS, PASS, one, ways_to_pay
from .guard import apply_clear, apply_release, apply_steal, hunt, release_moves, start_moves
from .lutfi import apply_lutfi, lutfi_moves, place_lutfi
from .market import empty_spaces, runner_stall, shop_stalls, wants
from .moves import (
    Buy,
    ClearName,
    DrawBuild,
    DrawGem,
    EndActions,
    EnterBlackMarket,
    Hire,
    Keep,
    Move,
    Pick,
    Release,
    Return,
    Reveal,
    Roll,
    Steal,
    Trade,
    UseCard,
)
from .state import (
    ACTION,
    BLACK_DRAW,
    BONUS,
    BUILD_DRAW,
    CHANCE_STEPS,
    DEAL,
    DRAW,
    HUNT,
    KEEP,
    LUTFI,
    LUTFI_DIE,
    OVER,
    PICK,
    RETURN,
    REWARD,
    TowerState,
)

LUTFI_ACTOR = "lutfi"
SALIL_RATES = ((one("green", 3), 1), (one("blue", 2), 1), (one("red"), 1), (one(PASS), 2))
"""Salil: 3 green, 2 blue or 1 red for any gem in his pile; 1 pass for any two."""


def to_move(state: TowerState) -> int | str | None:
    step = state.turn.step
    if step == OVER:
        return None
    if step in CHANCE_STEPS:
        return CHANCE
    if step == LUTFI or (step == RETURN and lutfi_turn(state)):
        return LUTFI_ACTOR
    return state.turn.seat


def phase(state: TowerState) -> str:
    """The phase for the panel LEDs and the page: setup, draw, action, build, end, lutfi, over."""
    step = state.turn.step
    if step == OVER:
        return "over"
    if step in (DEAL, LUTFI_DIE):
        return "setup"
    if lutfi_turn(state):
        return "lutfi"
    if step == DRAW:
        return "draw"
    if step in (ACTION, BLACK_DRAW, KEEP):
        return "action"
    if step in (RETURN, BUILD_DRAW, PICK):
        return "build"
    return "end"


# ---- chance ---------------------------------------------------------------------------


def die_faces(state: TowerState) -> tuple[int, ...]:
    """The die's faces that name a stall in play ("if ... not in play, roll again")."""
    return tuple(s.number for s in state.stalls)


def chance_outcomes(state: TowerState) -> tuple[tuple[Move, float], ...]:
    """One gem, one card or one roll, each with its probability from what is really there."""
    step = state.turn.step
    if step in (DRAW, BONUS, REWARD):
        bag = state.bag
        return tuple(
            (DrawGem(kind), bag.count(kind) / bag.total) for kind in (*COLOURS, PASS) if bag.count(kind)
        )
    if step in (DEAL, BUILD_DRAW):
        deck = sorted(state.build_deck)
        return tuple((DrawBuild(card), 1 / len(deck)) for card in deck)
    if step == BLACK_DRAW:
        total = sum(state.black_deck)
        piles = sorted(zip(state.black_cards, state.black_deck), key=lambda pair: pair[0].name)
        return tuple((Reveal(face.name), n / total) for face, n in piles if n)
    if step in (LUTFI_DIE, HUNT):
        faces = die_faces(state)
        return tuple((Roll(face), 1 / len(faces)) for face in faces)
    return ()


# ---- the action phase ----------------------------------------------------------------


def buy_moves(state: TowerState) -> Iterator[Buy]:
    """How to Play: buy what your card shows at a stall you may shop at, in exact change."""
    me = state.current
    for number in shop_stalls(state, state.turn.seat):
        for i, slot in enumerate(state.stall(number).slots):
            if slot.material and wants(state, me, slot.material):
                for paid in ways_to_pay(slot.price, me.gems):
                    yield Buy(slot.material, number, i, paid)


def trade_moves(state: TowerState) -> Iterator[Trade]:
    """Salil: only gems "currently with Salil", never passes; not for a wanted player.

    Trades handing back the one colour paid (1 red for a red, 2 blue for a blue, 3 green
    for a green) only lose gems and are not listed (docs/decisions.md)."""
    me = state.current
    if me.wanted:
        return
    for given, count in SALIL_RATES:
        if not me.gems.covers(given):
            continue
        for taken in handfuls(state.salil, count, COLOURS):
            if count == 1 and taken.counts()[:3] == tuple(min(n, 1) for n in given.counts()[:3]):
                continue
            yield Trade(given, taken)


def action_moves(state: TowerState) -> tuple[Move, ...]:
    if state.current.jailed:
        # The Royal Guard: "you must pay three gems to be released from jail at the start of
        # your next action phase".
        return release_moves(state)
    return (
        *start_moves(state),
        *buy_moves(state),
        *trade_moves(state),
        *entry_moves(state),
        *use_moves(state),
        *hire_moves(state),
        EndActions(),
    )


def return_moves(state: TowerState) -> tuple[Return, ...]:
    """Build phase: "return the items to the markets (any available space is fine, so long as
    the space matches the item)"; in the advanced game any open space."""
    return tuple(
        Return(material, number, slot)
        for material in sorted(set(state.turn.returns))
        for number, slot in empty_spaces(state, material)
    )


def legal_moves(state: TowerState) -> tuple[Move, ...]:
    step = state.turn.step
    if step == OVER:
        return ()
    if step in CHANCE_STEPS:
        return tuple(move for move, _ in chance_outcomes(state))
    if step == ACTION:
        return action_moves(state)
    if step == KEEP:
        return keep_moves(state)
    if step == RETURN:
        return return_moves(state)
    if step == PICK:
        return tuple(Pick(card) for card in sorted(set(state.turn.offer)))
    if step == LUTFI:
        return lutfi_moves(state)
    return ()


# ---- applying moves -------------------------------------------------------------------


def _take_card(deck: tuple[int, ...], card: int) -> tuple[int, ...]:
    left = list(deck)
    left.remove(card)
    return tuple(left)


def apply_draw_build(state: TowerState, card: int) -> TowerState:
    turn = state.turn
    state = replace(state, build_deck=_take_card(state.build_deck, card))
    if lutfi_turn(state) and state.lutfi:
        state = replace(state, lutfi=replace(state.lutfi, card=card))
    elif turn.step == DEAL:
        state = with_player(state, turn.seat, replace(state.current, card=card))
    else:
        turn = replace(turn, offer=turn.offer + (card,))
    return replace(state, turn=replace(turn, count=turn.count - 1))


def apply_draw_gem(state: TowerState, kind: str) -> TowerState:
    """A gem from the bag to the player whose turn it is (draw phase, idle bonus, reward)."""
    gem = one(kind)
    me = state.current
    state = with_player(state, state.turn.seat, replace(me, gems=me.gems + gem))
    return replace(state, bag=state.bag - gem, turn=replace(state.turn, count=state.turn.count - 1))


def apply_buy(state: TowerState, move: Buy) -> TowerState:
    """Pay Salil's pile, take the material; the meeple stands on the stall (the runner's
    stall keeps the runner instead)."""
    seat = state.turn.seat
    me = state.current
    stalls = tuple(s.with_material(move.slot, "") if s.number == move.stall else s for s in state.stalls)
    me = replace(me, gems=me.gems - move.paid, materials=tuple(sorted(me.materials + (move.material,))))
    turn = replace(state.turn, acted=True, opened=True)
    if move.stall != runner_stall(state, seat) or move.stall == turn.visited:
        me = replace(me, stall=move.stall)
        turn = replace(turn, visited=move.stall)
    state = replace(state, stalls=stalls, salil=state.salil + move.paid, turn=turn)
    return with_player(state, seat, me)


def apply_trade(state: TowerState, move: Trade) -> TowerState:
    me = state.current
    state = replace(
        state,
        salil=state.salil + move.given - move.taken,
        turn=replace(state.turn, acted=True, opened=True),
    )
    return with_player(state, state.turn.seat, replace(me, gems=me.gems - move.given + move.taken))


def apply_return(state: TowerState, move: Return) -> TowerState:
    stalls = tuple(
        s.with_material(move.slot, move.material) if s.number == move.stall else s for s in state.stalls
    )
    returns = list(state.turn.returns)
    returns.remove(move.material)
    state = replace(state, stalls=stalls, turn=replace(state.turn, returns=tuple(returns)))
    return finish_build(state) if not returns else state


def apply_pick(state: TowerState, move: Pick) -> TowerState:
    """ "pick 1 to keep, and discard the other 2"."""
    me = state.current
    rest = _take_card(state.turn.offer, move.card)
    state = with_player(state, state.turn.seat, replace(me, card=move.card))
    state = replace(state, build_discard=state.build_discard + rest, turn=replace(state.turn, offer=()))
    return end_of_turn(state)


def apply_roll(state: TowerState, face: int) -> TowerState:
    if state.turn.step == LUTFI_DIE:
        return start_turn(place_lutfi(state, face), 0)
    return hunt(state, face)


def apply_move(state: TowerState, move: Move) -> TowerState:
    """The state after a legal move (unchecked: the caller vouches for legality)."""
    return settle(_apply(state, move))


def _apply(state: TowerState, move: Move) -> TowerState:
    if isinstance(move, DrawGem):
        return apply_draw_gem(state, move.kind)
    if isinstance(move, DrawBuild):
        return apply_draw_build(state, move.card)
    if isinstance(move, Reveal):
        return draw_black(state, move.name)
    if isinstance(move, Roll):
        return apply_roll(state, move.face)
    if isinstance(move, Buy):
        return apply_buy(state, move)
    if isinstance(move, Trade):
        return apply_trade(state, move)
    if isinstance(move, EnterBlackMarket):
        return apply_enter(state, move)
    if isinstance(move, Keep):
        return apply_keep(state, move)
    if isinstance(move, UseCard):
        return apply_use(state, move)
    if isinstance(move, Hire):
        return apply_hire(state, move)
    if isinstance(move, Steal):
        return apply_steal(state, move)
    if isinstance(move, ClearName):
        return apply_clear(state)
    if isinstance(move, Release):
        return apply_release(state, move)
    if isinstance(move, EndActions):
        return end_actions(state)
    if isinstance(move, Return):
        return apply_return(state, move)
    if isinstance(move, Pick):
        return apply_pick(state, move)
    return apply_lutfi(state, move)
