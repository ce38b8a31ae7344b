"""A turn: its stages, who acts in each, how it starts (rebirth, the Treasure Hunter) and ends
(the one-item limit, D10), and the answers to a command sent at the wrong moment.

Every action of the game is a :class:`Rule`: its check (raises the specific ``RulesError``)
and its effect, side by side in the module of the rulebook's part it belongs to; each such
module ends with its ``RULES`` table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from rules.core import Event, RulesError
from rules.farkle.actions import Discard
from rules.farkle.cards import ITEMS, draw_item
from rules.farkle.state import FarkleState, Roller

E = Event

ROLL_STAGES = frozenset({"roll", "dragon", "dodge", "farkle"})  # a roll awaits a decision
# Stages in which the turn's wannabe is the one acting (Skree may be sent then).
TURN_STAGES = frozenset(
    {"choose", "roll", "dragon", "dodge", "farkle", "rally", "next", "battle", "review"}
)
# Stages of a run of rolls: the roller (the defender's run once it started) owes the input.
RUN_STAGES = frozenset({"roll", "dragon", "dodge", "farkle", "rally", "next"})
DEADLINE_STAGES = ROLL_STAGES | {"rally", "next"}  # a defender's own clock runs in these


class Rule(NamedTuple):
    """One action: ``check(state, seat, action)`` raises why it may not be taken now;
    ``effect(state, seat, action, events)`` takes it (already checked)."""

    check: Callable[[FarkleState, int, Any], None]
    effect: Callable[[FarkleState, int, Any, list[Event]], None]


# ------------------------------------------------------------------ who acts, and when not


def not_now(state: FarkleState) -> RulesError:
    """A command at the wrong moment: what the moment asks instead ("not possible in this
    phase" left players guessing)."""
    return RulesError("farkle.error.not_now", now_key=f"farkle.now.{state.stage}")


def not_your_turn(state: FarkleState, seat: int) -> RulesError:
    """Not ``seat``'s turn; in a brawl, who must act before ``seat`` may ("not your turn" told
    the attacker, during their own brawl, nothing about the defender they wait for)."""
    if state.action == "brawl" and state.stage != "over":
        if seat == state.turn:
            if state.stage == "respond":
                return RulesError("farkle.error.defender_first", defender_seat=state.defender)
            if state.defence is not None:
                return RulesError("farkle.error.defender_rolling", defender_seat=state.defender)
        elif seat == state.defender and state.defence is None and state.stage in RUN_STAGES:
            return RulesError("farkle.error.attacker_rolling", attacker_seat=state.turn)
    return RulesError("core.error.not_your_turn")


def need_stage(state: FarkleState, stage: str) -> None:
    if state.stage != stage:
        raise not_now(state)


def check_roller(state: FarkleState, seat: int) -> None:
    """``seat`` is the one rolling now."""
    r = state.roller()
    if r is None or r.seat != seat:
        raise not_your_turn(state, seat)


def roller(state: FarkleState) -> Roller:
    """The roller of an action already checked."""
    r = state.roller()
    assert r is not None
    return r


def recruiting(state: FarkleState, r: Roller) -> bool:
    """``r`` is a Recruit (the companions that help "while you recruit" work)."""
    return state.action == "recruit" and r is state.attack


def item_key(item: str) -> str:
    """The catalogue key naming ``item`` (a typed name may be no item at all)."""
    return f"farkle.item.{item}" if item in ITEMS else "farkle.item.unknown"


def awaited(state: FarkleState, seat: int) -> bool:
    """Whether ``seat`` owes input now (``pending`` without building the defaults)."""
    stage = state.stage
    if stage in RUN_STAGES:
        r = state.roller()
        return r is not None and r.seat == seat
    if stage in ("choose", "battle", "review"):
        return seat == state.turn
    if stage == "respond":
        return seat == state.defender
    if stage == "pickpocket":
        return seat == state.thief
    if stage == "discard":
        return 0 <= seat < state.seats and bool(discard_candidates(state, seat))
    return False  # over


# ------------------------------------------------------------------ the start of a turn


def start_turn(state: FarkleState, ev: list[Event]) -> None:
    seat = state.turn
    me = state.players[seat]
    state.stage = "choose"
    if me.in_keep and me.army <= 0:
        # Reborn outside the Keep with a new companion; the old one stays in the dragon
        # (to the discard pile, so the deck can be reshuffled: D11). Items are kept.
        me.in_keep = False
        state.companion_discard.append(me.companion)
        if not state.companion_deck:
            state.companion_deck, state.companion_discard = state.companion_discard, []
            state.rng.shuffle(state.companion_deck)
        me.companion = state.companion_deck.pop()
        me.skree_used = False
        ev.append(
            E(
                "farkle.event.reborn",
                {"seat": seat, "companion_key": f"farkle.companion.{me.companion}"},
            )
        )
    ev.append(E("farkle.event.turn", {"seat": seat}))
    # Told after "x's turn." (it happens at the start of that turn); the draw itself is
    # told by draw_item, so the hunter line only says why.
    if me.companion == "hunter" and not me.items:
        ev.append(E("farkle.event.hunter", {"seat": seat}))
        draw_item(state, seat, me.items, ev)


def leave_keep(state: FarkleState, seat: int, ev: list[Event]) -> None:
    """A wannabe in the Dragon's Keep who recruits or brawls leaves it."""
    me = state.players[seat]
    if me.in_keep:
        me.in_keep = False
        ev.append(E("farkle.event.leave_keep", {"seat": seat}))


# ------------------------------------------------------------------ the end of a turn


def end_turn(state: FarkleState, ev: list[Event]) -> None:
    crowded = bool(state.restrict) or any(len(p.items) > 1 for p in state.players)
    if crowded and any(discard_candidates(state, s) for s in range(state.seats)):
        state.stage = "discard"
        return
    next_turn(state, ev)


def next_turn(state: FarkleState, ev: list[Event]) -> None:
    # The picture after a turn still shows how it ended: its last rolls.
    state.last["runs"] = [run_view(r) for r in (state.attack, state.defence) if r is not None]
    state.damage = 0
    state.attack = state.defence = None
    state.action = ""
    state.defender = -1
    state.restrict = {}
    state.engineer_used = False
    state.turn = plays_next(state)
    state.turn_no += 1
    start_turn(state, ev)


def plays_next(state: FarkleState) -> int:
    """The seat whose turn follows this one: the next round the table. Nobody is ever out of a
    game of Dragon Farkle (a wiped-out army is reborn, the Keep is played in turns, a seat whose
    player left is played by the computer), so it is known from the turn's first step."""
    return (state.turn + 1) % state.seats


def run_view(r: Roller | None) -> dict[str, Any] | None:
    """A run as the picture reads it (``gained`` only counted: the items are hidden)."""
    if r is None:
        return None
    return {
        "seat": r.seat,
        "dice": r.dice,
        "roll": list(r.roll),
        "event": r.event,
        "kept": list(r.kept),
        "aside": list(r.aside),
        "eaten": list(r.eaten),
        "score": r.score,
        "gained": len(r.gained),
    }


# ------------------------------------------------------------------ the one-item limit (D10)


def discard_candidates(state: FarkleState, seat: int) -> list[str]:
    """The items ``seat`` may discard at the end of the turn ([]: within the limit)."""
    me = state.players[seat]
    kept = [i for i in state.restrict.get(seat, []) if i in me.items]
    if len(kept) > 1:
        return kept
    limit = 2 if "bag" in me.items else 1
    others = [i for i in me.items if i != "bag"]
    return others if len(others) > limit else []


def check_discard(state: FarkleState, seat: int, action: Discard) -> None:
    need_stage(state, "discard")
    if action.item not in state.players[seat].items:
        # The items they may discard, by name, rather than "you do not hold that item".
        can = ", ".join(dict.fromkeys(discard_candidates(state, seat)))
        if can:
            raise RulesError("farkle.error.name_item_discard", items=can)
        raise RulesError("farkle.error.no_item", item_key=item_key(action.item))
    if action.item not in discard_candidates(state, seat):
        raise RulesError("farkle.error.cannot_discard", item_key=f"farkle.item.{action.item}")


def discard(state: FarkleState, seat: int, action: Discard, ev: list[Event]) -> None:
    state.players[seat].items.remove(action.item)
    if action.item in state.restrict.get(seat, []):
        state.restrict[seat].remove(action.item)
    state.item_discard.append(action.item)
    ev.append(E("farkle.event.discarded", {"seat": seat}))
    ev.append(E("farkle.event.you_discarded", {"item_key": f"farkle.item.{action.item}"}, to=seat))
    if not any(discard_candidates(state, s) for s in range(state.seats)):
        next_turn(state, ev)


RULES: dict[type, Rule] = {Discard: Rule(check_discard, discard)}
