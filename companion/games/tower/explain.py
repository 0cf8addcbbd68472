"""Why a move is not legal now: the most specific reason the rulebook gives."""

from __future__ import annotations

from ..base import IllegalMove
from .apprentices import APPRENTICE_RULE, stalls_for, why_not_hire
from .blackmarket import BLACK_MARKET, ENTRY_FEES, SALIL_RULE, entry_payments
from .gems import PASS, pays
from .guard import BAIL, GUARD_RULE
from .market import HOW_TO_PLAY, MARKETS, OCCUPANCY, ROYAL_GUARD, blockers, still_needed, wants
from .moves import (
    Buy,
    ClearName,
    DrawBuild,
    DrawGem,
    EnterBlackMarket,
    Hire,
    Keep,
    LutfiShop,
    Move,
    Pick,
    Release,
    Return,
    Reveal,
    Roll,
    Steal,
    Trade,
    UseCard,
    slot_name,
)
from .rules import SALIL_RATES, legal_moves, to_move
from .state import ACTION, APPRENTICE_COST, CHANCE_STEPS, HAND_LIMIT, KEEP, PICK, RETURN, TowerState

RULEBOOK = "Tower rulebook"
TURN_SUMMARY = f"{RULEBOOK}: Turn Summary"
BUILD = f"{RULEBOOK}: How to Play, build phase"
LUTFI_RULE = f"{RULEBOOK}: Lutfi, the Automated Player"
CHANCE_MOVES = (DrawGem, DrawBuild, Reveal, Roll)
STEP_OF: dict[type, str] = {Keep: KEEP, Return: RETURN, Pick: PICK}


def explain_illegal(state: TowerState, move: Move) -> IllegalMove:
    """The reason the rulebook gives for refusing `move` now."""
    step = state.turn.step
    if isinstance(move, CHANCE_MOVES) or step in CHANCE_STEPS:
        return _chance(state, move)
    if isinstance(move, LutfiShop) or to_move(state) == "lutfi":
        options = ", ".join(str(m) for m in legal_moves(state))
        if isinstance(move, LutfiShop) and to_move(state) == "lutfi":
            return IllegalMove(
                f"Lutfi goes clockwise to the nearest unoccupied shop and takes the "
                f"cheapest item he needs: {options}",
                LUTFI_RULE,
            )
        if to_move(state) == "lutfi":
            return IllegalMove(f"it is Lutfi's turn: {options}", LUTFI_RULE)
        return IllegalMove("Lutfi moves only on his own turn, after the last player", LUTFI_RULE)
    me = state.current
    if type(move) in STEP_OF and step != STEP_OF[type(move)]:
        return IllegalMove(
            f"'{move}' belongs to another step; now it is {me.name}'s {step} step", TURN_SUMMARY
        )
    if step == RETURN:
        return _return(state, move)
    if step == KEEP:
        return IllegalMove(
            f"keep exactly {state.turn.keep} of the cards drawn: {_offer(state)}", BLACK_MARKET
        )
    if step == PICK:
        return IllegalMove(
            f"pick one of the build cards drawn: {', '.join(map(str, state.turn.offer))}", BUILD
        )
    if step != ACTION:
        return IllegalMove(f"'{move}' is not legal in the {step} step", TURN_SUMMARY)
    if me.jailed and not isinstance(move, Release):
        return IllegalMove(f"{me.name} is in jail: pay {BAIL} gems to be released first", GUARD_RULE)
    if isinstance(move, Buy):
        return _buy(state, move)
    if isinstance(move, Trade):
        return _trade(state, move)
    if isinstance(move, EnterBlackMarket):
        return _enter(state, move)
    if isinstance(move, UseCard):
        return _use(state, move)
    if isinstance(move, Hire):
        return _hire(state, move)
    if isinstance(move, Steal):
        return _steal(state)
    if isinstance(move, ClearName):
        return _clear(state)
    if isinstance(move, Release):
        return _release(state)
    return IllegalMove(f"'{move}' is not legal now", TURN_SUMMARY)


def _offer(state: TowerState) -> str:
    return ", ".join(state.black_cards[c - 1].name for c in state.turn.offer)


WHAT_IS_DRAWN = {
    "deal": "a build card",
    "build-draw": "a build card",
    "black-draw": "a black market card",
    "lutfi-die": "the die",
    "hunt": "the die",
}


def _chance(state: TowerState, move: Move) -> IllegalMove:
    step = state.turn.step
    if step not in CHANCE_STEPS:
        return IllegalMove(f"'{move}' is a draw or a roll, and nothing is being drawn now", TURN_SUMMARY)
    what = WHAT_IS_DRAWN.get(step, "a gem from the bag")
    if not isinstance(move, CHANCE_MOVES):
        return IllegalMove(
            f"first the table reports {what} ({step} step); then '{move}' may come", TURN_SUMMARY
        )
    if isinstance(move, DrawGem) and what.startswith("a gem"):
        return IllegalMove(f"the bag holds no {move.kind} now (it holds {state.bag})", HOW_TO_PLAY)
    if isinstance(move, Roll) and what == "the die":
        stalls = ", ".join(str(s.number) for s in state.stalls)
        return IllegalMove(f"a {move.face} names no stall in play: roll again (stalls {stalls})", ROYAL_GUARD)
    if isinstance(move, DrawBuild) and what == "a build card":
        return IllegalMove(f"card {move.card} is not in the build deck", BUILD)
    if isinstance(move, Reveal) and what == "a black market card":
        return IllegalMove(f"the black market deck holds no {move.name}", BLACK_MARKET)
    return IllegalMove(f"the table is drawing {what} now, not '{move}'", TURN_SUMMARY)


def _return(state: TowerState, move: Move) -> IllegalMove:
    if not isinstance(move, Return):
        return IllegalMove(f"first return {', '.join(state.turn.returns)} to the markets", BUILD)
    if move.material not in state.turn.returns:
        return IllegalMove(f"{move.material} is not among the items to return", BUILD)
    return IllegalMove(
        f"{slot_name(move.stall, move.slot)} is not an empty {move.material} space "
        "(any available space is fine, so long as the space matches the item)",
        BUILD,
    )


def _slot(state: TowerState, stall: int, slot: int) -> tuple[str, str] | None:
    """(material, price) on a space, or None when there is no such space."""
    numbers = [s.number for s in state.stalls]
    if stall not in numbers or not 0 <= slot < len(state.stall(stall).slots):
        return None
    found = state.stall(stall).slots[slot]
    return found.material, found.price


def _buy(state: TowerState, move: Buy) -> IllegalMove:
    seat = state.turn.seat
    me = state.current
    where = slot_name(move.stall, move.slot)
    found = _slot(state, move.stall, move.slot)
    if found is None:
        return IllegalMove(f"there is no space {where} in this game", f"{RULEBOOK}: Setup")
    material, price = found
    if material != move.material:
        return IllegalMove(f"{where} holds {material or 'nothing'}, not {move.material}", MARKETS)
    if not wants(state, me, material):
        need = ", ".join(still_needed(state, me)) or "nothing more"
        return IllegalMove(
            f"you cannot buy items you don't need: {me.name}'s card still needs {need}", HOW_TO_PLAY
        )
    if state.turn.visited and state.turn.visited != move.stall:
        return IllegalMove(
            f"you may only visit one stall per turn: {me.name} already shopped at stall {state.turn.visited}",
            HOW_TO_PLAY,
        )
    who = blockers(state, seat, move.stall)
    if who:
        rule = ROYAL_GUARD if any("Royal Guard" in w for w in who) else OCCUPANCY
        return IllegalMove(f"stall {move.stall} is occupied by {', '.join(who)}", rule)
    if not pays(price, move.paid):
        return IllegalMove(
            f"the price at {where} is {price}: exact change, no substitutions", f"{MARKETS}, No haggling"
        )
    return IllegalMove(f"{me.name} does not hold {move.paid}", HOW_TO_PLAY)


def _trade(state: TowerState, move: Trade) -> IllegalMove:
    me = state.current
    if me.wanted:
        return IllegalMove(f"{me.name} is wanted and can no longer make trades with Salil", ROYAL_GUARD)
    rates = {given: count for given, count in SALIL_RATES}
    if move.given not in rates or move.taken.total != rates[move.given]:
        return IllegalMove(
            "Salil takes 3 green, 2 blue or 1 red for any one gem, or 1 pass for any two", SALIL_RULE
        )
    if move.taken.passes:
        return IllegalMove("black market passes cannot be obtained from Salil", SALIL_RULE)
    if not me.gems.covers(move.given):
        return IllegalMove(f"{me.name} does not hold {move.given}", SALIL_RULE)
    if not state.salil.covers(move.taken):
        return IllegalMove(
            f"you can only take gems that are currently with Salil: he holds {state.salil}", SALIL_RULE
        )
    return IllegalMove("that trade hands back the colour you pay with and only loses gems", SALIL_RULE)


def _enter(state: TowerState, move: EnterBlackMarket) -> IllegalMove:
    me = state.current
    if state.turn.black_market:
        return IllegalMove("you can only visit the black market once per turn", BLACK_MARKET)
    if len(me.black_cards) + move.cards > HAND_LIMIT:
        return IllegalMove(
            f"no more than {HAND_LIMIT} black market cards at any time: "
            f"{me.name} holds {len(me.black_cards)}",
            BLACK_MARKET,
        )
    if not 1 <= move.cards <= 3:
        return IllegalMove("you select from the 3 cards drawn: 1 to 3 cards", BLACK_MARKET)
    fees = " or ".join(str(f) for f in ENTRY_FEES)
    if move.paid not in entry_payments(move.paid, move.cards):
        return IllegalMove(f"each card's entry costs {fees}", BLACK_MARKET)
    if not me.gems.covers(move.paid):
        return IllegalMove(f"{me.name} does not hold {move.paid}", BLACK_MARKET)
    return IllegalMove("the black market deck and discard pile do not hold that many cards", BLACK_MARKET)


def _use(state: TowerState, move: UseCard) -> IllegalMove:
    me = state.current
    faces = [state.black_cards[c - 1] for c in me.black_cards]
    face = next((f for f in faces if f.name == move.name), None)
    if face is None:
        return IllegalMove(f"{me.name} holds no {move.name} card", BLACK_MARKET)
    if not pays(face.price, move.paid):
        return IllegalMove(f"the {face.name} costs {face.price} to use", BLACK_MARKET)
    if not me.gems.covers(move.paid):
        return IllegalMove(f"{me.name} does not hold {move.paid}", BLACK_MARKET)
    if face.effect == "share_stall":
        return IllegalMove(
            "a Preferred Customer opens the one stall you have not visited yet this turn", BLACK_MARKET
        )
    if face.effect == "wild_material":
        return IllegalMove(f"{move.take} is not a material {me.name}'s card still needs", HOW_TO_PLAY)
    if move.target == "Salil" and me.wanted:
        return IllegalMove("a wanted player can no longer steal from Salil", ROYAL_GUARD)
    if move.target == "Salil" and PASS in move.take:
        return IllegalMove(
            "passes cannot be obtained from Salil, even with an Experienced Thief card; he holds "
            f"{state.salil}",
            SALIL_RULE,
        )
    return IllegalMove(f"{move.target or 'nobody'} has no {move.take} that {me.name} may take", BLACK_MARKET)


def _hire(state: TowerState, move: Hire) -> IllegalMove:
    why = why_not_hire(state)
    if why:
        return IllegalMove(why, APPRENTICE_RULE)
    busy = next((a for a in state.apprentices if a.name == move.apprentice), None)
    if busy is None:
        return IllegalMove(f"there is no apprentice called {move.apprentice}", APPRENTICE_RULE)
    if busy.seat >= 0:
        return IllegalMove(
            f"the {move.apprentice} works for {state.players[busy.seat].name} "
            "until the start of their next turn",
            APPRENTICE_RULE,
        )
    if not pays(APPRENTICE_COST[move.apprentice], move.paid):
        return IllegalMove(f"the {move.apprentice} costs {APPRENTICE_COST[move.apprentice]}", APPRENTICE_RULE)
    if move.stall not in stalls_for(state, move.apprentice):
        where = {
            "stand-in": "an available (unoccupied) stall",
            "bully": "a stall occupied by another player, an apprentice or Lutfi (never the Royal Guard)",
            "runner": "a second stall open to you",
        }[move.apprentice]
        return IllegalMove(f"the {move.apprentice} goes to {where}", APPRENTICE_RULE)
    return IllegalMove(f"{state.current.name} does not hold {move.paid}", APPRENTICE_RULE)


def _steal(state: TowerState) -> IllegalMove:
    me = state.current
    if not state.variants.royal_guard:
        return IllegalMove("stealing from Salil comes with the Royal Guard, not in this game", ROYAL_GUARD)
    if state.turn.opened:
        return IllegalMove("you may steal from Salil only at the start of your action phase", ROYAL_GUARD)
    if me.wanted:
        return IllegalMove(f"{me.name} is wanted and can no longer steal from Salil", ROYAL_GUARD)
    return IllegalMove(f"steal two gems Salil holds (he holds {state.salil}; never passes)", ROYAL_GUARD)


def _clear(state: TowerState) -> IllegalMove:
    me = state.current
    if not me.wanted:
        return IllegalMove(f"{me.name} has no wanted card to discard", ROYAL_GUARD)
    if state.turn.opened:
        return IllegalMove("you may clear your name only at the start of your action phase", ROYAL_GUARD)
    return IllegalMove(f"clearing your name costs Salil one red gem; {me.name} holds none", ROYAL_GUARD)


def _release(state: TowerState) -> IllegalMove:
    me = state.current
    if not me.jailed:
        return IllegalMove(f"{me.name} is not in jail", ROYAL_GUARD)
    return IllegalMove(f"release costs {BAIL} gems {me.name} holds (all of them if fewer)", ROYAL_GUARD)
