"""The city's markets: what a player still needs, who occupies a stall, where one may shop.

Tower: The Markets ("No haggling", "Maximum Occupancy of One", "No loitering"), How to
Play ("you cannot buy items you don't need"), the kingdom-wide shortage, and the
occupancy rules of the Citizens of Meeplestand (apprentices, the Royal Guard, Lutfi).
"""

from __future__ import annotations

from collections import Counter

from .state import RUNNER, Player, TowerState

RULEBOOK = "Tower rulebook"
HOW_TO_PLAY = f"{RULEBOOK}: How to Play"
MARKETS = f"{RULEBOOK}: The Markets"
OCCUPANCY = f"{MARKETS}, Maximum Occupancy of One"
SHORTAGE = f"{RULEBOOK}: Salil, kingdom-wide shortage"
ROYAL_GUARD = f"{RULEBOOK}: The Royal Guard"
APPRENTICES = f"{RULEBOOK}: The Apprentices"
COMPATIBILITY = f"{RULEBOOK}: Compatibility"


def missing(card: tuple[str, ...], *held: tuple[str, ...]) -> tuple[str, ...]:
    """The materials on `card` not yet covered by the `held` collections (a multiset difference)."""
    left = Counter(card)
    for collection in held:
        left.subtract(collection)
    return tuple(sorted(left.elements()))


def still_needed(state: TowerState, player: Player) -> tuple[str, ...]:
    """What the player's build card shows that they neither hold nor cover by a Concoction."""
    return missing(state.card_of(player.card), player.materials, player.concoctions)


def open_places(state: TowerState, player: Player) -> int:
    """How many materials the build card still asks for (substitutes bought in a shortage count)."""
    return len(state.card_of(player.card)) - len(player.materials) - len(player.concoctions)


def wants(state: TowerState, player: Player, material: str) -> bool:
    """Whether the player may acquire `material`: it is on their card and not yet held, or a
    kingdom-wide shortage lets any material stand in for a needed one (How to Play: "you
    cannot buy items you don't need")."""
    if not player.card or open_places(state, player) <= 0:
        return False
    return material in still_needed(state, player) or state.shortage


def can_build(state: TowerState, player: Player) -> bool:
    """Build phase: "if you have acquired all of the items listed on your build card"."""
    return bool(player.card) and open_places(state, player) <= 0


def lutfi_needs(state: TowerState) -> tuple[str, ...]:
    lutfi = state.lutfi
    return missing(state.card_of(lutfi.card), lutfi.materials) if lutfi else ()


def in_stock(state: TowerState) -> Counter[str]:
    """Materials lying on market spaces."""
    return Counter(slot.material for stall in state.stalls for slot in stall.slots if slot.material)


def shortage_now(state: TowerState) -> bool:
    """Kingdom-wide shortage: "no players at all are able to buy any needed materials due to a
    shortage" - someone still needs materials and none of them lies in any market.

    ASSUMED: "able to buy" is about stock alone (not gems, not occupied stalls)."""
    stock = in_stock(state)
    needing = [still_needed(state, p) for p in state.players if p.card and not can_build(state, p)]
    return bool(needing) and not any(stock[m] for need in needing for m in need)


def occupants(state: TowerState, number: int) -> tuple[str, ...]:
    """Who stands on a stall, in words (players' meeples, apprentices, Lutfi, the guard)."""
    found = [p.name for p in state.players if p.stall == number]
    found += [f"the {a.name} ({state.players[a.seat].name})" for a in state.apprentices if a.stall == number]
    if state.lutfi and state.lutfi.stall == number:
        found.append("Lutfi" if state.lutfi.standing else "Lutfi (lying down)")
    if state.guard == number:
        found.append("the Royal Guard")
    return tuple(found)


def blockers(state: TowerState, seat: int, number: int, sharing: bool = True) -> tuple[str, ...]:
    """Who keeps `seat` out of a stall ("inaccessible to everyone else until you leave").

    Your own meeple and your own apprentices never keep you out (ASSUMED: the stand-in
    "saves your place in line"). The Royal Guard keeps out wanted players only; a
    Preferred Customer shares a stall with anyone but the guard (Compatibility); `sharing`
    False asks for the meeple-less case (where the runner may go)."""
    me = state.players[seat]
    who = [p.name for s, p in enumerate(state.players) if p.stall == number and s != seat]
    who += [f"the {a.name}" for a in state.apprentices if a.stall == number and a.seat != seat]
    if state.lutfi and state.lutfi.stall == number and state.lutfi.standing:
        who.append("Lutfi")
    if sharing and state.turn.preferred and state.turn.seat == seat:
        who = []
    if me.wanted and state.guard == number:
        who.append("the Royal Guard (you are wanted)")
    return tuple(who)


def runner_stall(state: TowerState, seat: int) -> int:
    """The stall this turn's runner was sent to by `seat` (0: none)."""
    if state.turn.hired != RUNNER or state.turn.seat != seat:
        return 0
    return next((a.stall for a in state.apprentices if a.name == RUNNER and a.seat == seat), 0)


def shop_stalls(state: TowerState, seat: int) -> tuple[int, ...]:
    """The stalls `seat` may buy at now: one stall per turn for the meeple, plus the runner's.

    How to Play: "You may only visit one stall per turn"; The Apprentices, the Runner."""
    runner = runner_stall(state, seat)
    if state.turn.visited:
        meeple: tuple[int, ...] = (state.turn.visited,)
    else:
        meeple = tuple(s.number for s in state.stalls if not blockers(state, seat, s.number))
    return tuple(sorted(set(meeple) | ({runner} if runner else set())))


def empty_spaces(state: TowerState, material: str) -> tuple[tuple[int, int], ...]:
    """(stall, slot) where a returned material may go: an empty space of its colour, or any
    empty space in the advanced variant ("the material does not have to match the space")."""
    return tuple(
        (stall.number, i)
        for stall in state.stalls
        for i, slot in enumerate(stall.slots)
        if not slot.material and (state.variants.advanced or slot.space == material)
    )
