"""Recruit: roll for soldiers and bank them into the army (with the items the run drew)."""

from __future__ import annotations

from rules.core import Event
from rules.farkle.actions import Recruit
from rules.farkle.rolls import roll
from rules.farkle.state import FarkleState, Roller
from rules.farkle.turn import Rule, end_turn, leave_keep, need_stage

E = Event

QUARTERMASTER_BONUS = 100
QUARTERMASTER_MIN = 1000
POSTER_BONUS = 500


def check_recruit(state: FarkleState, seat: int, action: Recruit) -> None:
    need_stage(state, "choose")


def recruit(state: FarkleState, seat: int, action: Recruit, ev: list[Event]) -> None:
    leave_keep(state, seat, ev)
    begin(state, ev)


def begin(state: FarkleState, ev: list[Event]) -> None:
    """The turn's wannabe recruits (by choice, or after a Cloak of Invisibility): the first
    roll is made at once."""
    state.action = "recruit"
    state.attack = Roller(state.turn, 6)
    ev.append(E("farkle.event.recruit", {"seat": state.turn}))
    roll(state, state.attack, ev)


def bank(state: FarkleState, r: Roller, amount: int, ev: list[Event], rescued: bool) -> None:
    """The end of a Recruit: the soldiers join the army, the drawn items the hand (not after a
    Farkle ``rescued`` by the Field Medic or the Healing Draught: those items are lost)."""
    me = state.players[r.seat]
    if me.companion == "quartermaster" and amount >= QUARTERMASTER_MIN:
        amount += QUARTERMASTER_BONUS
        ev.append(E("farkle.event.quartermaster", {"seat": r.seat, "amount": QUARTERMASTER_BONUS}))
    if not rescued and "poster" in me.items:
        # Recruiting Poster works by itself at the end of a Recruit without a Farkle.
        me.items.remove("poster")
        state.item_discard.append("poster")
        amount += POSTER_BONUS
        ev.append(E("farkle.event.poster", {"seat": r.seat, "amount": POSTER_BONUS}))
    me.army += amount
    if not rescued:
        me.items += r.gained
    else:
        state.item_discard += r.gained
    r.gained = []
    key = "farkle.event.banked" if amount else "farkle.event.banked_none"  # not "0 soldiers"
    ev.append(E(key, {"seat": r.seat, "amount": amount, "army": me.army}))
    state.last = {"seat": r.seat, "action": "recruit", "outcome": "banked", "amount": amount}
    end_turn(state, ev)


RULES: dict[type, Rule] = {Recruit: Rule(check_recruit, recruit)}
