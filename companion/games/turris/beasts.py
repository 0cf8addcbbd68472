"""The Turris Beast Phase worked out by the rules, step by step, with the reason for each step.

A Beast's turn is a pure function of the table and the answers given so far: when the rules
leave a choice to someone (the First Player among equally near targets, equally short paths
or the Delusion's pushes; a player shielding a Scout with an Artifact or choosing which
resource the Despair takes), `beast_turn` stops and asks, and is called again with one more
answer. Everything it does is told as `Event`s citing the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import Board

BEASTS = ("Pain", "Delusion", "Despair", "Harrow")
"""The order the Beasts act in ("2. Beast Phase")."""
ALTAR_TRACK = ("Harrow", "Pain", "Delusion", "Despair")
"""The Altar track's spots, clockwise. ASSUMED, the whole order (the track is a picture): its
"No Effect" space (the set-up spot) is the Harrow's, since the Beast Speed token lies under the
Harrow "no effect" side up ("03 Setup" 5, "3. Cleanup Phase"), and the rest follow the Beasts'
order."""
RESOURCES = ("I", "K", "R", "W")
"""Ichor, Knowledge, Relics, Weaponry, in this order in `Tribe.resources`."""
BETRAYERS = -1
"""Solo mode: the seat of the Betrayers' Scouts."""
DESPAIR_TAKES = ("K", "R", "W")
PLOT_PATH, MOVE_BEAST = "2. Beast Phase, 2) Plot Path", "2. Beast Phase, 3) Move Beast"


@dataclass(frozen=True)
class Scout:
    seat: int
    """The owner's seat, or BETRAYERS."""
    location: str


@dataclass(frozen=True)
class Beast:
    name: str
    location: str | None
    """None once removed in the Endgame."""
    flipped: bool = False


@dataclass(frozen=True)
class Tribe:
    resources: tuple[int, int, int, int] = (3, 0, 0, 0)
    """I, K, R, W held ("03 Setup" 13: 3 Ichor)."""
    artifacts: int = 0
    council: int = 0
    """Steps taken on the Council track so far (its rewards are printed on the board)."""
    graveyard: int = 0
    reserve: int = 4


@dataclass(frozen=True)
class Table:
    """What the Beast Phase looks at and changes."""

    tribes: tuple[Tribe, ...]
    scouts: tuple[Scout, ...]
    beasts: tuple[Beast, ...]
    first: int
    """The First Player's seat."""
    fruit: str | None = None
    altar: str = "Harrow"
    speed_token: str | None = "Harrow"
    """The Beast the Beast Speed token lies under (set aside: None)."""
    no_site: frozenset[str] = frozenset()
    """Excavation spots without a site (2-3 players): gone for everything once their Beast leaves."""
    card_target: str | None = None
    """Solo mode: the Location on the Beast Movement card drawn in the Betrayer Phase."""

    def beast(self, name: str) -> Beast:
        return next(b for b in self.beasts if b.name == name)

    def beast_at(self, place: str) -> Beast | None:
        return next((b for b in self.beasts if b.location == place), None)

    def scouts_at(self, place: str, betrayers: bool = True) -> tuple[Scout, ...]:
        return tuple(s for s in self.scouts if s.location == place and (betrayers or s.seat != BETRAYERS))

    def without(self, scouts: tuple[Scout, ...]) -> Table:
        left = list(self.scouts)
        for scout in scouts:
            left.remove(scout)
        return replace(self, scouts=tuple(left))

    def moved(self, scout: Scout, to: str) -> Table:
        rest = self.without((scout,))
        return replace(rest, scouts=(*rest.scouts, Scout(scout.seat, to)))

    def with_tribe(self, seat: int, tribe: Tribe) -> Table:
        return replace(self, tribes=tuple(tribe if i == seat else t for i, t in enumerate(self.tribes)))

    def turn_order(self) -> tuple[int, ...]:
        n = len(self.tribes)
        return tuple((self.first + k) % n for k in range(n))

    def gone(self, keep: str | None = None) -> frozenset[str]:
        """Places that do not exist now: empty Excavation spots with no Beast (but `keep`)."""
        return frozenset(p for p in self.no_site if p != keep and self.beast_at(p) is None)


@dataclass(frozen=True)
class Event:
    text: str
    rule: str
    plotted: tuple[str, ...] = ()
    """A Plot Path event: the places plotted, from the Beast's (for the camera picture)."""
    moved: tuple[str, ...] = ()
    """A Beast moving: the places it goes through, from the one it left."""


@dataclass(frozen=True)
class Ask:
    """A choice the rules leave to a player: answer with one of `options`."""

    who: int
    question: str
    options: tuple[str, ...]
    rule: str


@dataclass(frozen=True)
class Turn:
    """A Beast's turn: the table after it, what happened and why. While a question is open
    (`ask`), `table` is still the table before the turn and `events` tell the turn so far."""

    table: Table
    events: tuple[Event, ...]
    ask: Ask | None = None


class NeedAnswer(Exception):
    def __init__(self, ask: Ask) -> None:
        super().__init__(ask.question)
        self.ask = ask


class Answers:
    """Answers given so far, taken in the order the questions come up."""

    def __init__(self, given: tuple[str, ...]) -> None:
        self.given = given
        self.used = 0

    def choose(self, who: int, question: str, options: tuple[str, ...], rule: str) -> str:
        if len(options) == 1:
            return options[0]
        if self.used == len(self.given):
            raise NeedAnswer(Ask(who, question, options, rule))
        answer = self.given[self.used]
        if answer not in options:
            raise ValueError(f"{answer!r} does not answer {question!r}: choose one of {', '.join(options)}")
        self.used += 1
        return answer


def seat_name(seat: int) -> str:
    return "the Betrayers" if seat == BETRAYERS else f"player {seat + 1}"


def beast_turn(
    board: Board, table: Table, name: str, answers: tuple[str, ...] = (), beast_phase: bool = True
) -> Turn:
    """One Beast's whole turn. The Harrow's Chain Attack is enabled only in the Beast Phase:
    a Beast moved by the solo Beast Movement card in the Betrayer Phase passes
    `beast_phase=False`."""
    events: list[Event] = []
    given = Answers(answers)
    try:
        table = _act(board, table, name, given, events, chain=beast_phase)
    except NeedAnswer as need:
        return Turn(table, tuple(events), need.ask)
    return Turn(table, tuple(events))


def beast_moved(board: Board, table: Table, name: str, to: str, answers: tuple[str, ...] = ()) -> Turn:
    """A Beast moved by an effect (a Mission's "moving a Beast one step in any direction",
    "2) Complete Mission Step" example): it resolves its effect where it lands, as in the
    Beast Phase ("Beasts resolve their effects upon moving into a Location with 1 or more
    Scouts"), the Harrow only Devouring ("Should the Harrow move in any other phase of the
    round, the Chain Attack is not enabled")."""
    events: list[Event] = []
    given = Answers(answers)
    beast = table.beast(name)
    rule = "2) Complete Mission Step, example; 05 General Rules, Minor Rules and Clarifications"
    events.append(
        Event(
            f"The {name} is moved from the {beast.location} to the {to} by an effect",
            rule,
            moved=(str(beast.location), to),
        )
    )
    moved = _set_beast(table, replace(beast, location=to))
    try:
        if moved.scouts_at(to):
            if name in ("Pain", "Harrow"):
                moved, _ = _devour(board, moved, name, to, given, events)
            elif name == "Delusion":
                moved = _delude(board, moved, to, given, events)
            else:
                moved = _despair(board, moved, to, given, events)
    except NeedAnswer as need:
        return Turn(table, tuple(events), need.ask)
    return Turn(moved, tuple(events))


def _act(board: Board, table: Table, name: str, given: Answers, events: list[Event], chain: bool) -> Table:
    beast = table.beast(name)
    if beast.location is None:
        return table
    if beast.flipped:
        events.append(
            Event(
                f"The {name} is flipped: it does not move, and is turned upright",
                MOVE_BEAST,
            )
        )
        return _set_beast(table, replace(beast, flipped=False))
    target = _choose_target(board, table, beast, given, events)
    path = _plot_path(board, table, beast, target, given, events)
    start = beast.location
    table, end = _move(table, beast, path, events)
    if end == start or not table.scouts_at(end):
        return table
    devoured = 0
    if name in ("Pain", "Harrow"):
        table, devoured = _devour(board, table, name, end, given, events)
    elif name == "Delusion":
        table = _delude(board, table, end, given, events)
    else:
        table = _despair(board, table, end, given, events)
    if name == "Harrow" and chain and devoured:
        # ASSUMED (solo): the Betrayers' Scouts, ignored when choosing targets, do not set off
        # a Chain Attack either.
        near = [p for p in board.neighbours(end, table.gone()) if table.scouts_at(p, betrayers=False)]
        if near and table.fruit is None:
            events.append(
                Event(
                    f"Chain Attack: the Harrow devoured, a Scout is next to it ({', '.join(near)}) and the "
                    "Fruit token is off the board, so it acts again",
                    "2. Beast Phase, 4) Resolve Effects, The Harrow, Chain Attack",
                )
            )
            return _act(board, table, name, given, events, chain)
        if near:
            events.append(
                Event(
                    "No Chain Attack: the Fruit token is on the board",
                    "2. Beast Phase, 4) Resolve Effects, The Harrow, Chain Attack",
                )
            )
    return table


def _set_beast(table: Table, beast: Beast) -> Table:
    return replace(table, beasts=tuple(beast if b.name == beast.name else b for b in table.beasts))


def _choose_target(board: Board, table: Table, beast: Beast, given: Answers, events: list[Event]) -> str:
    rule = "2. Beast Phase, 1) Choose Target"
    assert beast.location is not None
    # ASSUMED (solo): the Fruit token comes before the Beast Movement card, as it comes before
    # every other target.
    if table.fruit is not None:
        events.append(Event(f"The {beast.name} targets the {table.fruit}: the Fruit token is there", rule))
        return table.fruit
    own_on_board = any(s.seat != BETRAYERS for s in table.scouts)
    if table.card_target is not None and not own_on_board:
        events.append(
            Event(
                f"The {beast.name} targets the {table.card_target}, shown on the Beast Movement card: "
                "none of your Scouts is on the board",
                "Solo Play, Beast Phase 4",
            )
        )
        return table.card_target
    distance = board.distances_from(beast.location, table.gone(beast.location))
    # "Locations with a Beast and 1 or more Scouts count as having no Scouts"; the Betrayers'
    # Scouts are ignored completely (Solo Play, Beast Phase 1).
    counts = {
        place: len(table.scouts_at(place, betrayers=False))
        for place in (*board.locations, *board.excavation)
        if place in distance and table.beast_at(place) is None and table.scouts_at(place, betrayers=False)
    }
    if not counts:
        events.append(Event(f"The {beast.name} targets the Abyss: no Location is a valid target", rule))
        return "Abyss"
    nearest = min(distance[p] for p in counts)
    close = [p for p in counts if distance[p] == nearest]
    most = max(counts[p] for p in close)
    best = tuple(p for p in close if counts[p] == most)
    steps = "step" if nearest == 1 else "steps"
    if len(close) == 1:
        why = f"the closest Location with Scouts ({nearest} {steps})"
    elif len(best) == 1:
        others = ", ".join(f"the {p} has {counts[p]}" for p in close if p != best[0])
        why = f"{nearest} {steps} away, with the most Scouts of the closest ({most}; {others})"
    else:
        why = f"the First Player's choice among {', '.join(best)} ({nearest} {steps}, {most} Scouts each)"
    target = given.choose(
        table.first,
        f"Which Location does the {beast.name} target? "
        f"({', '.join(best)} are tied: {nearest} {steps}, {most} Scouts)",
        best,
        rule,
    )
    events.append(Event(f"The {beast.name} targets the {target}: {why}", rule))
    return target


def _plot_path(
    board: Board, table: Table, beast: Beast, target: str, given: Answers, events: list[Event]
) -> tuple[str, ...]:
    assert beast.location is not None
    paths = board.shortest_paths(beast.location, target, table.gone(beast.location))
    if not paths:
        events.append(Event(f"The {beast.name} has no way to the {target} and stays", PLOT_PATH))
        return (beast.location,)
    names = {" then ".join(p[1:-1]) or "directly": p for p in paths}
    if len(paths) > 1:
        chosen = given.choose(
            table.first,
            f"Which way does the {beast.name} go to the {target}? (equally short)",
            tuple(f"via {n}" for n in names),
            PLOT_PATH,
        )
        path = names[chosen.removeprefix("via ")]
    else:
        path = paths[0]
    if len(path) > 1:
        route = " -> ".join(path)
        steps = f"{len(path) - 1} step{'s' if len(path) > 2 else ''}"
        events.append(
            Event(f"The {beast.name} plots {route} ({steps}, pieces ignored)", PLOT_PATH, plotted=path)
        )
    return path


def speed(table: Table, beast: Beast) -> int:
    """2 when the Altar token is on the Beast's spot and the Beast Speed token lies under it,
    2-step side up (the Harrow's side says no effect); otherwise 1 ("2. Beast Phase, 3) Move Beast")."""
    two = beast.name != "Harrow" and table.altar == beast.name and table.speed_token == beast.name
    return 2 if two else 1


def _move(table: Table, beast: Beast, path: tuple[str, ...], events: list[Event]) -> tuple[Table, str]:
    """Up to its speed along the path; it may pass through another Beast but never stop
    with one, and it stops early where a Scout is."""
    start = path[0]
    if len(path) == 1:
        return table, start
    steps = speed(table, beast)
    reach = min(steps, len(path) - 1)
    end, note = start, ""
    for k in range(1, reach + 1):
        place = path[k]
        blocker = table.beast_at(place)
        if blocker is not None:
            note = f"the {blocker.name} is in the {place}, where it may not stop"
            continue
        end, note = place, ""
        if table.scouts_at(place):
            note = f"stopped by a Scout in the {place}" if k < reach else ""
            break
    how = f"speed {steps}: " + ("Altar token and Beast Speed token" if steps == 2 else "no Altar bonus")
    if end == start:
        events.append(Event(f"The {beast.name} does not move ({how}): {note}", MOVE_BEAST))
        return table, end
    moved = path.index(end)
    events.append(
        Event(
            f"The {beast.name} moves {moved} step{'s' if moved > 1 else ''} to the {end} ({how})"
            + (f"; {note}" if note else ""),
            MOVE_BEAST,
            moved=path[: moved + 1],
        )
    )
    return _set_beast(table, replace(beast, location=end)), end


def _shielded(
    table: Table, scouts: tuple[Scout, ...], beast: str, given: Answers, events: list[Event]
) -> tuple[Table, tuple[Scout, ...]]:
    """The scouts left after their owners spend Artifacts to shield some, in turn order."""
    left = list(scouts)
    for seat in table.turn_order():
        mine = [s for s in left if s.seat == seat]
        for scout in mine:
            if table.tribes[seat].artifacts == 0:
                break
            answer = given.choose(
                seat,
                f"Shield your Scout in the {scout.location} from the {beast} with an Artifact?",
                ("shield", "no"),
                "05 General Rules, Artifacts, Shield",
            )
            if answer == "no":
                break
            table = _tribe(table, seat, artifacts=table.tribes[seat].artifacts - 1)
            left.remove(scout)
            events.append(
                Event(
                    f"{seat_name(seat)} spends an Artifact: that Scout ignores the {beast}",
                    "05 General Rules, Artifacts, Shield",
                )
            )
    return table, tuple(left)


def _tribe(table: Table, seat: int, **changes: object) -> Table:
    return table.with_tribe(seat, replace(table.tribes[seat], **changes))  # type: ignore[arg-type]


def _devour(
    board: Board, table: Table, name: str, place: str, given: Answers, events: list[Event]
) -> tuple[Table, int]:
    rule = f"2. Beast Phase, 4) Resolve Effects, The {name}"
    table = _push_betrayers(board, table, place, name, given, events)
    table, victims = _shielded(table, table.scouts_at(place, betrayers=False), name, given, events)
    table = table.without(victims)
    for seat in table.turn_order():  # Council tokens move in turn order from the First Player
        lost = sum(1 for s in victims if s.seat == seat)
        if not lost:
            continue
        tribe = table.tribes[seat]
        table = _tribe(table, seat, graveyard=tribe.graveyard + lost, council=tribe.council + lost)
        events.append(
            Event(
                f"The {name} devours {lost} Scout{'s' if lost > 1 else ''} of {seat_name(seat)} in the "
                f"{place}: to the Graveyard; the Council token advances {lost} "
                f"step{'s' if lost > 1 else ''}, taking each spot's reward in turn",
                f"{rule}; 05 General Rules, Council Track",
            )
        )
    return table, len(victims)


def _destinations(board: Board, table: Table, place: str) -> tuple[str, ...]:
    """Where the Delusion may push a Scout from `place`: 1 step, never onto a Crossroad or a
    Beast; if there is no such place, 1 step further beyond a Crossroad or a Beast."""
    gone = table.no_site  # Scouts are never moved onto an empty Excavation spot

    def open_(p: str) -> bool:
        return p not in board.crossroads and table.beast_at(p) is None and p not in gone

    near = board.neighbours(place, gone)
    first = tuple(p for p in near if open_(p))
    if first:
        return first
    beyond = [q for p in near if not open_(p) for q in board.neighbours(p, gone) if q != place and open_(q)]
    return tuple(dict.fromkeys(beyond))


def _push(
    board: Board,
    table: Table,
    scouts: tuple[Scout, ...],
    place: str,
    name: str,
    given: Answers,
    events: list[Event],
    rule: str,
) -> Table:
    """Each of `scouts` moved 1 step from `place` as the Delusion moves them, the First Player
    choosing where when there is a choice (not a Place: no Immediate effect, no limit)."""
    for scout in scouts:
        whose = seat_name(scout.seat)
        options = _destinations(board, table, place)
        if not options:
            events.append(Event(f"{whose}'s Scout has nowhere to go and stays", rule))
            continue
        to = given.choose(
            table.first, f"Where does the {name} push {whose}'s Scout from the {place}?", options, rule
        )
        table = table.moved(scout, to)
        events.append(Event(f"The {name} pushes {whose}'s Scout to the {to} (not a Place)", rule))
    return table


def _delude(board: Board, table: Table, place: str, given: Answers, events: list[Event]) -> Table:
    table = _push_betrayers(board, table, place, "Delusion", given, events)
    table, victims = _shielded(table, table.scouts_at(place), "Delusion", given, events)
    return _push(
        board,
        table,
        victims,
        place,
        "Delusion",
        given,
        events,
        "2. Beast Phase, 4) Resolve Effects, The Delusion",
    )


def _despair(board: Board, table: Table, place: str, given: Answers, events: list[Event]) -> Table:
    rule = "2. Beast Phase, 4) Resolve Effects, The Despair"
    table = _push_betrayers(board, table, place, "Despair", given, events)
    table, victims = _shielded(table, table.scouts_at(place, betrayers=False), "Despair", given, events)
    for seat in table.turn_order():
        for _ in range(sum(1 for s in victims if s.seat == seat)):
            held = dict(zip(RESOURCES, table.tribes[seat].resources))
            choices = tuple(r for r in DESPAIR_TAKES if held[r] > 0)
            if choices:
                lost = given.choose(seat, "Which resource does the Despair take: K, R or W?", choices, rule)
            elif held["I"] > 0:
                lost = "I"
            else:
                events.append(Event(f"{seat_name(seat)} has nothing the Despair can take", rule))
                continue
            held[lost] -= 1
            resources = (held["I"], held["K"], held["R"], held["W"])
            table = _tribe(table, seat, resources=resources)
            events.append(Event(f"The Despair takes 1 {lost} from {seat_name(seat)}", rule))
    return table


def _push_betrayers(
    board: Board, table: Table, place: str, name: str, given: Answers, events: list[Event]
) -> Table:
    """Solo: a Beast's effect on a Betrayers' Scout moves it 1 step, as the Delusion does."""
    betrayers = tuple(s for s in table.scouts_at(place) if s.seat == BETRAYERS)
    return _push(board, table, betrayers, place, name, given, events, "06 Solo Play, Beast Phase 3")


def cleanup(table: Table, future_first: int | None = None) -> Table:
    """The Cleanup Phase: the Altar token advances one spot clockwise and the Beast Speed token
    goes under that spot's Beast (set aside while that Beast is removed: "ENDGAME"); the holder
    of the Future First Player card, if anyone took it, becomes First Player (never in solo:
    pass None)."""
    altar = ALTAR_TRACK[(ALTAR_TRACK.index(table.altar) + 1) % len(ALTAR_TRACK)]
    present = table.beast(altar).location is not None
    first = table.first if future_first is None else future_first
    return replace(table, altar=altar, speed_token=altar if present else None, first=first)


def no_beasts_left(table: Table) -> bool:
    """ "ENDGAME": with no Beast left at the end of the Cleanup Phase the game ends at once."""
    return all(b.location is None for b in table.beasts)


def remove_next_beast(table: Table) -> tuple[Table, str | None]:
    """ "ENDGAME": after each Beast Phase once the Endgame is triggered, one Beast leaves the
    board, the Harrow first, then the Despair, the Delusion and the Pain."""
    for name in reversed(BEASTS):
        beast = table.beast(name)
        if beast.location is not None:
            table = _set_beast(table, replace(beast, location=None, flipped=False))
            if table.speed_token == name:
                table = replace(table, speed_token=None)
            return table, name
    return table, None
