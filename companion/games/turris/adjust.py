"""Card effects the companion cannot know, applied by the players: `adjust CHANGE: WHY`.

The texts of the Tactics, Mission, Trionfi and Excavation Site cards are not in the rulebook,
and "if an effect of a Mission card, Tactics card, Excavation Site, or Council Track
contradicts the rules, the effect takes precedence" ("05 General Rules, Minor Rules and
Clarifications"). So the players say what a card did; the move's text, kept in the game's
history, records what was changed and why. What the rules do say still holds: a Scout sent
to the Graveyard advances its owner's Council token, a Beast moved resolves its effect where
it lands (the Harrow only Devouring), Prestige crossing 10/20/30/40 changes the Excavation
Sites, and no piece goes onto a Crossroad or an Excavation spot without a site.

CHANGE is one of (names of players, Beasts and places in any case; a Location may be given
by its number 1-12 and a Beast by its number 1-4, as a d12 or a d4 rolled for a card says):
    Alice +2K -1I +1A +3P +1T +1C   resources I K R W, Artifacts, Prestige, Tactics cards,
                                     Council steps (with their rewards)
    Alice scout Guild to Forge       also from/to "reserve" and "graveyard"
    Pain to Forge                    a Beast moved (its effect resolves there)
    flip Pain                        the Beast stays in the next Beast Phase
    fruit Isle / fruit off           the Fruit token placed, or taken off the board
    future first Alice               the Future First Player card taken (not in solo)
    damaged -1                       solo: a Damaged tile removed instead
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..base import BadMoveText, IllegalMove
from .beasts import BEASTS, RESOURCES, Scout
from .board import Board
from .game import TurrisState, advance_council, prestige_changed, resolve_moved, with_tally

RULE = "05 General Rules, Minor Rules and Clarifications: a card's effect takes precedence"
EXAMPLES = (
    "Alice +2K -1I +3P: Tactics card",
    "Alice scout Guild to graveyard: sacrificed",
    "Pain to Forge: Mission, move a Beast one step",
    "flip Harrow: Tactics card",
    "fruit Isle: Tactics card",
    "future first Alice: took the card",
)
DELTA = re.compile(r"([+-]\d+)([IKRWAPTC])")
SCOUT_ENDS = ("reserve", "graveyard")


def split(text: str) -> tuple[str, str]:
    """ "CHANGE: WHY" -> (CHANGE, WHY); BadMoveText without a reason."""
    change, sep, why = text.partition(":")
    if not sep or not why.strip() or not change.strip():
        raise BadMoveText(f"adjust {text!r}: write the change, a colon and why, e.g. 'adjust {EXAMPLES[0]}'")
    return " ".join(change.split()), why.strip()


def adjust(board: Board, state: TurrisState, text: str) -> TurrisState:
    """The state after the change `text` names; IllegalMove (with the rule) or BadMoveText."""
    change, why = split(text)
    if state.ask:
        raise IllegalMove("answer the open question first", state.ask.rule)
    low = change.lower()
    beasts = {b.lower(): b for b in BEASTS} | {str(n): b for n, b in enumerate(BEASTS, start=1)}
    by_length = sorted(range(state.players), key=lambda s: -len(state.names[s]))
    player = next((s for s in by_length if low.startswith(state.names[s].lower() + " ")), None)
    if player is not None:  # a player's name first: "Fruit Bat +1K" is a player's change
        rest = change[len(state.names[player]) + 1 :]
        if m := re.fullmatch(r"scout (.+) to (.+)", rest, re.IGNORECASE):
            return _note(_scout(board, state, player, m[1], m[2]), change, why)
        return _note(_deltas(state, player, rest.replace(" ", "")), change, why)
    if m := re.fullmatch(r"fruit (.+)", low):
        return _note(_fruit(board, state, m[1]), change, why)
    if (m := re.fullmatch(r"flip (\w+)", low)) and m[1] in beasts:
        return _note(_flip(state, beasts[m[1]]), change, why)
    if low == "damaged -1":
        if not state.solo or state.damaged == 0:
            raise IllegalMove("only a solo game with a Damaged tile can remove one", "06 Solo Play")
        return _note(replace(state, damaged=state.damaged - 1), change, why)
    if m := re.fullmatch(r"future first (.+)", low):
        seat = next((s for s, n in enumerate(state.names) if n.lower() == m[1]), None)
        if seat is None:
            raise BadMoveText(f"{m[1]!r} is not a player: {', '.join(state.names)}")
        if state.solo:
            raise IllegalMove(
                "in solo you may remove 1 Damaged tile instead ('adjust damaged -1: ...')",
                "06 Solo Play, Player Turn Phase",
            )
        return _note(replace(state, future_first=seat), change, why)
    if (m := re.fullmatch(r"(\w+) to (.+)", low)) and m[1] in beasts:
        return _beast(board, _note(state, change, why), beasts[m[1]], m[2])
    raise BadMoveText(f"adjust {text!r}: not a change the companion knows; e.g. " + "; ".join(EXAMPLES))


def _note(state: TurrisState, change: str, why: str) -> TurrisState:
    return replace(state, log=(*state.log, f"Adjusted by the players: {change} ({why}) (Turris: {RULE})"))


def place_named(board: Board, name: str) -> str | None:
    """A place by its name in any case, or a Location by its number 1-12 (a d12 rolled for a
    card: the numbers of "06 Appendix 1: Solo Play", turris.toml)."""
    by_number = {str(n): p for p, n in board.numbers}
    return {p.lower(): p for p in board.every}.get(name.lower()) or by_number.get(name.strip())


def _place(board: Board, state: TurrisState, name: str, what: str) -> str:
    """The board's place called `name`, if `what` may go there (not a Crossroad, not an
    Excavation spot without a site: "EXCAVATION SITES", "The Delusion")."""
    place = place_named(board, name)
    if place is None:
        raise BadMoveText(f"there is no {name!r} on the board: {', '.join(board.every)}")
    if place in board.crossroads:
        raise IllegalMove(f"{what} cannot go onto a Crossroad", "2. Beast Phase, 4) The Delusion")
    if (
        place in state.table.no_site
    ):  # "Scouts and tokens of any kind may never be Placed or moved into such locations"
        raise IllegalMove(f"Excavation spot {place} has no site", "05 General Rules, Excavation Sites")
    return place


def _fruit(board: Board, state: TurrisState, where: str) -> TurrisState:
    place = None if where.lower() == "off" else _place(board, state, where, "the Fruit token")
    return replace(state, table=replace(state.table, fruit=place))


def _flip(state: TurrisState, name: str) -> TurrisState:
    beast = state.table.beast(name)
    if beast.location is None:
        raise IllegalMove(f"the {name} has left the board", "04 Gameplay, ENDGAME")
    beasts = tuple(replace(b, flipped=True) if b.name == name else b for b in state.table.beasts)
    return replace(state, table=replace(state.table, beasts=beasts))


def _beast(board: Board, state: TurrisState, name: str, where: str) -> TurrisState:
    """Moved as the card says; the Beast resolves its effect there (questions asked as in the
    Beast Phase). Beasts may end on Crossroads but never with another Beast ("3) Move Beast")."""
    to = place_named(board, where)
    if to is None:
        raise BadMoveText(f"there is no {where!r} on the board: {', '.join(board.every)}")
    beast = state.table.beast(name)
    if beast.location is None:
        raise IllegalMove(f"the {name} has left the board", "04 Gameplay, ENDGAME")
    other = state.table.beast_at(to)
    if other is not None and other.name != name:
        raise IllegalMove(f"the {other.name} is in the {to}", "2. Beast Phase, 3) Move Beast")
    if to == beast.location:
        raise IllegalMove(f"the {name} is in the {to} already", RULE)
    if (
        to in state.table.no_site
    ):  # "Beasts cannot move into the locations ... which do not have an Excavation Site placed"
        raise IllegalMove(f"Excavation spot {to} has no site", "05 General Rules, Excavation Sites")
    return resolve_moved(board, replace(state, moving=f"{name}>{to}", answers=()), ())


def _scout(board: Board, state: TurrisState, seat: int, source: str, target: str) -> TurrisState:
    """A Scout moved by an effect (not a Place: no Immediate effect, no limit). To the
    Graveyard it advances the Council token ("COUNCIL TRACK": "through any other effects")."""
    table, tribe = state.table, state.table.tribes[seat]
    src = source.lower() if source.lower() in SCOUT_ENDS else _place(board, state, source, "a Scout")
    dst = target.lower() if target.lower() in SCOUT_ENDS else _place(board, state, target, "a Scout")
    if src == dst:
        raise BadMoveText("a Scout moves from one place to another")
    if src == "reserve" and tribe.reserve == 0:
        raise IllegalMove(f"{state.names[seat]} has no Scout in reserve", "03 Setup 13")
    if src == "graveyard" and tribe.graveyard == 0:
        raise IllegalMove(
            f"{state.names[seat]} has no Scout in the Graveyard", "05 General Rules, Council Track"
        )
    if src not in SCOUT_ENDS:
        if Scout(seat, src) not in table.scouts:
            raise IllegalMove(f"{state.names[seat]} has no Scout in the {src}", RULE)
        table = table.without((Scout(seat, src),))
    else:
        tribe = replace(tribe, **{src: getattr(tribe, src) - 1})
    if dst in SCOUT_ENDS:
        tribe = replace(tribe, **{dst: getattr(tribe, dst) + 1})
    else:
        table = replace(table, scouts=(*table.scouts, Scout(seat, dst)))
    state = replace(state, table=table.with_tribe(seat, tribe))
    return advance_council(state, seat, 1) if dst == "graveyard" else state


def _deltas(state: TurrisState, seat: int, text: str) -> TurrisState:
    text = text.upper()
    parts = DELTA.findall(text)
    if not parts or "".join(n + k for n, k in parts) != text:
        raise BadMoveText(f"{text!r}: write changes such as +2K -1I +1A +3P +1T +1C")
    before = tuple(t.prestige for t in state.tallies)
    tribe, tally = state.table.tribes[seat], state.tallies[seat]
    resources = list(tribe.resources)
    artifacts, prestige, tactics, council = tribe.artifacts, tally.other_prestige, tally.tactics, 0
    for number, kind in parts:
        n = int(number)
        if kind in RESOURCES:
            resources[RESOURCES.index(kind)] += n
        elif kind == "A":
            artifacts += n
        elif kind == "P":
            prestige += n
        elif kind == "T":
            tactics += n
        else:
            council += n
    name = state.names[seat]
    if min(resources) < 0 or artifacts < 0 or tactics < 0:
        raise IllegalMove(f"{name} cannot hold fewer than none", "05 General Rules, Artifacts")
    if council < 0:
        raise IllegalMove("the Council token only advances", "05 General Rules, Council Track")
    if tally.prestige - tally.other_prestige + prestige < 0:
        raise IllegalMove(f"{name}'s Prestige cannot go below 0", "03 Setup 9")
    tribe = replace(
        tribe, resources=(resources[0], resources[1], resources[2], resources[3]), artifacts=artifacts
    )
    state = replace(state, table=state.table.with_tribe(seat, tribe))
    state = with_tally(state, seat, other_prestige=prestige, tactics=tactics)
    if council:
        state = advance_council(state, seat, council)
    return prestige_changed(state, before)
