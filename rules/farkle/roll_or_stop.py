"""Roll again, stop, or take the Farkle: how a run goes on or ends. A Recruit banks (or loses
everything to a Farkle); a brawl run passes to the defender, or decides the brawl; in the Final
Battle rolling on is compulsory. With the dragon face, the dragon eats first (D5: a Farkled roll
with the dragon face may still roll on or stop)."""

from __future__ import annotations

from rules.core import Event, RulesError
from rules.farkle import brawl, recruit
from rules.farkle.actions import AcceptFarkle, Roll, Stop
from rules.farkle.final_battle import battle_resolve, battle_roll
from rules.farkle.rolls import dragon_eats, roll
from rules.farkle.state import FarkleState, Roller
from rules.farkle.turn import (
    Rule,
    check_roller,
    end_turn,
    need_stage,
    not_now,
    not_your_turn,
    roller,
)

E = Event

ROLL_ON_STAGES = ("next", "dragon", "dodge")  # stages where the roller may roll on or stop


def check_roll(state: FarkleState, seat: int, action: Roll) -> None:
    stage = state.stage
    if stage in ROLL_ON_STAGES:
        check_roller(state, seat)
    elif stage in ("battle", "review"):
        if seat != state.turn:
            raise not_your_turn(state, seat)
    elif stage == "roll":
        raise RulesError("farkle.error.keep_first")
    elif stage == "farkle":
        raise RulesError("farkle.error.nothing_scores")
    else:
        raise not_now(state)


def roll_on(state: FarkleState, seat: int, action: Roll, ev: list[Event]) -> None:
    stage = state.stage
    if stage == "review":  # the Siege Engineer left the event die as it was
        if battle_resolve(state, ev):
            battle_roll(state, ev)
    elif stage == "battle":
        battle_roll(state, ev)
    else:  # next, dragon, dodge
        r = roller(state)
        if stage == "dragon":
            dragon_eats(state, r, ev)
        roll(state, r, ev)


def check_stop(state: FarkleState, seat: int, action: Stop) -> None:
    stage = state.stage
    if stage in ROLL_ON_STAGES:
        check_roller(state, seat)
    elif stage == "roll":
        raise RulesError("farkle.error.keep_first")
    elif stage == "farkle":
        raise RulesError("farkle.error.nothing_scores")
    elif stage in ("battle", "review"):
        raise RulesError("farkle.error.keep_no_stop")
    else:
        raise not_now(state)


def stop(state: FarkleState, seat: int, action: Stop, ev: list[Event]) -> None:
    r = roller(state)
    if state.stage == "dragon":
        dragon_eats(state, r, ev)
    if state.action == "recruit":
        recruit.bank(state, r, r.score, ev, rescued=False)
    else:
        ev.append(E("farkle.event.brawl_score", {"seat": r.seat, "score": r.score}))
        brawl.next_run(state, r, ev)


def check_farkle(state: FarkleState, seat: int, action: AcceptFarkle) -> None:
    need_stage(state, "farkle")
    check_roller(state, seat)


def farkle(state: FarkleState, seat: int, action: AcceptFarkle, ev: list[Event]) -> None:
    lose_run(state, roller(state), ev)


def lose_run(state: FarkleState, r: Roller, ev: list[Event]) -> None:
    """A Farkle: the run's soldiers and the items it drew are lost."""
    # Name the lost items only when the run drew some ("and 0 item(s)" read badly).
    key = "farkle.event.farkle_items" if r.gained else "farkle.event.farkle"
    ev.append(E(key, {"seat": r.seat, "lost": r.score, "items": len(r.gained)}))
    state.item_discard += r.gained
    r.gained = []
    r.score = 0
    if state.action == "recruit":
        state.last = {"seat": r.seat, "action": "recruit", "outcome": "farkle", "amount": 0}
        end_turn(state, ev)
    else:
        brawl.next_run(state, r, ev)


RULES: dict[type, Rule] = {
    Roll: Rule(check_roll, roll_on),
    Stop: Rule(check_stop, stop),
    AcceptFarkle: Rule(check_farkle, farkle),
}
