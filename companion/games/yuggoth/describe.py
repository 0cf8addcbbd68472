"""The table in plain lines for the phone page: each faction's part, then the map's machinery."""

from __future__ import annotations

from ..base import CHANCE, SeatView, TableView
from .battle import combat_range, roll_to_make, side_name
from .control import (
    FERTILITY_CULT,
    gate_word,
    goo_name,
    has_spellbook,
    income,
    laboratory_surgeons,
    slime_controller,
    slimes_in_play,
    slimes_of,
)
from .rounds import ritual_cost
from .setup import data
from .state import (
    ABANDONED,
    ACTIONS,
    AWAKENING,
    DECAY,
    OVER,
    RITUALS,
    WATCHER_ATTACK,
    WATCHER_START,
    YuggothState,
)
from .watcher import awakening_areas, destinations

PHASE_TITLES = {
    "gather power": "Gather Power",
    "first player": "Determine First Player",
    "watcher decay": "Doom Phase: the Watcher Decays",
    "doom phase": "Doom Phase: Rituals",
    "watcher awakening": "Doom Phase: does the Watcher Awaken?",
    "watcher attack": "Action Phase: the Watcher Attacks",
    "battle": "Battle",
    "action phase": "Action Phase",
    "over": "Game over",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def units_line(state: YuggothState, seat: int, area: str) -> str:
    force = state.force(area, seat)
    parts = []
    if force.acolytes:
        parts.append(_plural(force.acolytes, "Acolyte"))
    if force.cylinders:
        parts.append(_plural(force.cylinders, "Brain Cylinder"))
    if force.monsters:
        parts.append(_plural(force.monsters, "Monster"))
    if force.goo:
        parts.append(goo_name(state, seat))
    slimes = slimes_of(state, seat, area)
    if slimes:
        parts.append(_plural(slimes, "Slime Mold"))
    return ", ".join(parts)


def seat_lines(state: YuggothState, seat: int) -> tuple[str, ...]:
    f = state.factions[seat]
    title = data()["factions"][f.faction]["title"]
    lines = [f"{title} · Power {f.power} · Doom {f.doom} · Elder Signs {f.elder_signs}"]
    board = state.board
    gates = []
    for area, gate in zip(board.areas, state.gates):
        if gate == seat:
            gates.append(f"{area} (Green Pyramid: 3 Power)" if area in board.pyramid_areas else area)
    lines.append(f"Gates: {', '.join(gates) if gates else 'none'}")
    for area in board.areas:
        text = units_line(state, seat, area)
        if text:
            lines.append(f"{area}: {text}")
    cylinders = sum(f.cylinders for f in state.placed(seat))
    extra = [f"Brain Cylinders {cylinders}/{data()['cylinder_limit']}", f"Acolytes in pool {f.pool}"]
    if f.captives:
        extra.append(f"Captives to Sacrifice {len(f.captives)}")
    if f.spellbooks:
        extra.append("Spellbooks: " + ", ".join(f.spellbooks))
    lines.append(" · ".join(extra))
    if seat in laboratory_surgeons(state):
        lines.append("May perform Surgery (1 Power): up to 4 Acolytes become Brain Cylinders")
    if slime_controller(state) == seat:
        cost = 1 if slimes_in_play(state) else 0
        how = (
            " (Fertility Cult: as many Calls as you like)"
            if has_spellbook(state, seat, FERTILITY_CULT)
            else ""
        )
        lines.append(f"Controls the Slime Molds; Call Slime Mold costs {cost}{how}")
    if state.step in ("gather power", "first player"):
        lines.append(f"Gather Power would give {sum(n for _, n in income(state, seat))}")
    if state.step == ACTIONS and f.out:
        lines.append("Out of this Action Phase")
    return tuple(lines)


def watcher_lines(state: YuggothState) -> list[str]:
    w = state.watcher
    board = state.board
    if not board.postern:
        return ["This map has no Green Pyramid: the Watcher does not appear"]
    if w.awake:
        lines = [
            f"The Watcher is AWAKE on {w.area}, its token at {w.position}: it rolls {w.position} Combat dice"
        ]
    else:
        lines = [f"The Watcher sleeps: its token at {w.position}, dark side up"]
        if w.marker_passed:
            lines.append(
                "A Doom marker passed its token: it Awakens at the end of the next Doom Phase allowed"
            )
        passed = [f.name for f in state.factions if f.doom >= WATCHER_START]
        if len(passed) == len(state.factions):
            lines.append("Every Doom marker is past 12: only the die can Awaken it now")
        if w.died_this_doom:
            lines.append("It reached 0 in this Doom Phase: it cannot re-Awaken before the next one")
    pyramid = []
    for area, number in board.pyramid:
        gate = state.gate(area)
        held = "no Gate"
        if gate >= 0:
            held = f"{state.factions[gate].name}'s Gate"
        elif gate == ABANDONED:
            held = "Abandoned Gate (does not count)"
        pyramid.append(f"{area} [{number}]: {held}")
    lines.append("Green Pyramid: " + "; ".join(pyramid))
    counting = awakening_areas(state)
    if counting and not w.awake:
        numbers = sorted({n for _, n, _ in counting})
        lines.append(
            "At the end of the Doom Phase a roll of "
            + " or ".join(map(str, numbers))
            + " Awakens it ("
            + "; ".join(f"{a}: {why}" for a, _, why in counting)
            + ")"
        )
    if state.step == WATCHER_ATTACK and w.attackers:
        controller = state.factions[w.attackers[0]].name
        if w.targets:
            names = ", ".join(state.factions[s].name for s in w.targets)
            lines.append(f"{controller} controls this Attack and chooses whom it attacks next: {names}")
        else:
            areas, teleport = destinations(state)
            how = (
                "teleport (no adjacent Area has Units)" if teleport else "move to an adjacent Area with Units"
            )
            lines.append(
                f"{controller} controls this Attack ({len(w.attackers)} left): {how}: "
                f"{', '.join(areas) or 'none'}"
            )
    return lines


def shared_lines(state: YuggothState) -> tuple[str, ...]:
    board = state.board
    lines = watcher_lines(state)
    doom = ", ".join(f"{f.name} {f.doom}" for f in sorted(state.factions, key=lambda f: -f.doom))
    lines.append(f"Doom: {doom} (the game ends at the end of a Doom Phase with 30)")
    abandoned = [a for a, g in zip(board.areas, state.gates) if g == ABANDONED]
    if abandoned:
        lines.append(f"Abandoned Gates (1 Power to every faction): {', '.join(abandoned)}")
    if board.overlook:
        lines.append(f"{board.overlook}: {gate_word(state, board.overlook)}")
        controller = slime_controller(state)
        who = state.factions[controller].name if controller >= 0 else "nobody (uncontrolled)"
        cost = 1 if slimes_in_play(state) else 0
        lines.append(
            f"Slime Molds in play {slimes_in_play(state)}/{data()['slime_molds']}, controlled by {who}; "
            f"next Call costs {cost}; they appear in {', '.join(board.slime_seas)}"
        )
    for lab in board.laboratories:
        gate = state.gate(lab)
        held = state.factions[gate].name if gate >= 0 else ("Abandoned" if gate == ABANDONED else "no Gate")
        surgeons = ", ".join(state.factions[s].name for s in laboratory_surgeons(state)) or "nobody"
        lines.append(f"{lab}: {held} — Surgery for {surgeons}")
    cost = ritual_cost(state)
    lines.append(
        f"Ritual of Annihilation: next costs {cost}" if cost >= 0 else "Ritual track: Instant Death reached"
    )
    b = state.battle
    if b is not None:
        a, d = (side_name(state, s) for s in b.sides)
        dice = [str(n) if n >= 0 else "?" for n in b.dice]
        lines.append(f"Battle on {b.area}: {a} ({dice[0]} dice) against {d} ({dice[1]} dice)")
        if b.stage == "dice":
            seat = b.sides[0] if b.dice[0] < 0 else b.sides[1]
            low, high = combat_range(state, seat, b.area)
            lines.append(f"{state.factions[seat].name} declares its Combat: {low} to {high} dice")
        roll = roll_to_make(b)
        if roll is not None:
            i, what = roll
            lines.append(f"Roll {side_name(state, b.sides[i])}'s dice and report its {what.capitalize()}")
    lines.extend(f"· {line}" for line in state.log[-5:])
    return tuple(lines)


def headline(state: YuggothState, actor: int | str | None) -> str:
    phase = PHASE_TITLES.get(state.step, state.step)
    if state.step == OVER:
        return f"Round {state.round} · Game over"
    if actor == CHANCE:
        who = "roll the die" if state.step in (DECAY, AWAKENING) else "roll the Battle dice"
    elif actor == "watcher":
        attackers = state.watcher.attackers
        who = (
            f"the Watcher, controlled by {state.factions[attackers[0]].name}" if attackers else "the Watcher"
        )
    elif isinstance(actor, int):
        who = state.factions[actor].name
        if state.step == RITUALS:
            who += " (Ritual or not)"
    else:
        who = ""
    return f"Round {state.round} · {phase} · {who}"


def describe(state: YuggothState, actor: int | str | None) -> TableView:
    seats = tuple(
        SeatView(name=f.name, colour=f.colour, lines=seat_lines(state, seat), current=actor == seat)
        for seat, f in enumerate(state.factions)
    )
    return TableView(headline=headline(state, actor), seats=seats, shared=shared_lines(state))
