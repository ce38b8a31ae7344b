"""Brawl: the attacker names a wannabe outside the Keep, who answers (fights, or plays a Cloak);
both roll a run, the attacker first; the higher score takes the difference from the loser, plus
500 new soldiers (D6 a tie, D7 the items drawn, D8 the defender's own deadline)."""

from __future__ import annotations

from typing import Any

from rules.core import Event, RulesError
from rules.farkle import scoring
from rules.farkle.actions import Bonus, Brawl, Fight
from rules.farkle.rolls import roll
from rules.farkle.state import FarkleState, Roller
from rules.farkle.turn import Rule, end_turn, leave_keep, need_stage

E = Event

BRAWL_BONUS = 500


def check_brawl(state: FarkleState, seat: int, action: Brawl) -> None:
    need_stage(state, "choose")
    target = action.target
    if target == seat:
        raise RulesError("farkle.error.brawl_self")
    if not 0 <= target < state.seats:
        raise RulesError("farkle.error.bad_target", target=str(target + 1)[:10])
    if state.players[target].in_keep:
        raise RulesError("farkle.error.target_in_keep", target_seat=target)


def brawl(state: FarkleState, seat: int, action: Brawl, ev: list[Event]) -> None:
    leave_keep(state, seat, ev)
    state.action = "brawl"
    state.defender = action.target
    state.stage = "respond"
    ev.append(E("farkle.event.brawl", {"seat": seat, "target_seat": action.target}))


def check_fight(state: FarkleState, seat: int, action: Fight) -> None:
    """The defender faces the brawl (rather than play a Cloak of Invisibility)."""
    need_stage(state, "respond")


def fight(state: FarkleState, seat: int, action: Fight, ev: list[Event]) -> None:
    ev.append(E("farkle.event.fight", {"seat": seat}))
    state.attack = Roller(state.turn, 6)
    roll(state, state.attack, ev)


def next_run(state: FarkleState, r: Roller, ev: list[Event]) -> None:
    """A brawl run ``r`` ended (stopped or Farkled): the defender rolls next (5 dice, 6 with the
    Bodyguard), or the brawl is decided."""
    if r is state.attack:
        d = state.defender
        dice = 6 if state.players[d].companion == "bodyguard" else 5
        state.defence = Roller(d, dice)
        ev.append(E("farkle.event.defends", {"seat": d, "dice": dice, "attack": r.score}))
        roll(state, state.defence, ev)
    else:
        _decide(state, ev)


def _decide(state: FarkleState, ev: list[Event]) -> None:
    att, dfn = state.attack, state.defence
    assert att is not None and dfn is not None
    a, d = att.score, dfn.score
    summary: dict[str, Any] = {
        "seat": att.seat,
        "action": "brawl",
        "target": dfn.seat,
        "attack": a,
        "defence": d,
    }
    if a == d:
        # D6: a tie moves nobody; each side may keep one item it drew in the brawl.
        ev.append(
            E("farkle.event.brawl_tie", {"seat": att.seat, "target_seat": dfn.seat, "score": a})
        )
        for run in (att, dfn):
            _take_items(state, run)
        summary["outcome"] = "tie"
        state.last = summary
        end_turn(state, ev)
        return
    win, lose = (att, dfn) if a > d else (dfn, att)
    moved = _move_soldiers(state, win, lose, dfn, ev)
    # D7: the loser keeps nothing drawn in the brawl; the winner keeps one.
    state.item_discard += lose.gained
    lose.gained = []
    _take_items(state, win)
    summary.update(outcome="won", winner=win.seat, moved=moved)
    state.last = summary
    # Decision: any item may be picked, the Bag of Holding too, so that whether the
    # choice is offered tells nobody which item the loser holds (only how many: public).
    if state.players[win.seat].companion == "pickpocket" and state.players[lose.seat].items:
        state.thief, state.loser = win.seat, lose.seat
        state.stage = "pickpocket"
        return
    bonus(state, win.seat, Bonus(), ev)


def _move_soldiers(
    state: FarkleState, win: Roller, lose: Roller, dfn: Roller, ev: list[Event]
) -> int:
    """The winner takes the difference from the loser, as much as they have (half of it past a
    losing defender's Tower Shield); returns the soldiers moved."""
    diff = abs(win.score - lose.score)
    loser = state.players[lose.seat]
    if lose is dfn and "shield" in loser.items:
        loser.items.remove("shield")
        state.item_discard.append("shield")
        diff = scoring.half(diff)
        ev.append(E("farkle.event.shield", {"seat": lose.seat, "amount": diff}))
    moved = min(diff, loser.army)
    loser.army -= moved
    state.players[win.seat].army += moved
    ev.append(
        E(
            # "takes 0 soldiers" read like a bug: say the loser had none
            "farkle.event.brawl_won" if moved else "farkle.event.brawl_won_empty",
            {
                "seat": win.seat,
                "loser_seat": lose.seat,
                "win": win.score,
                "lose": lose.score,
                "moved": moved,
            },
        )
    )
    return moved


def _take_items(state: FarkleState, run: Roller) -> None:
    """A run's drawn items join the hand; of two or more only one may be kept (D10)."""
    if run.gained:
        state.players[run.seat].items += run.gained
        if len(run.gained) > 1:
            state.restrict[run.seat] = list(run.gained)
        run.gained = []


def check_bonus(state: FarkleState, seat: int, action: Bonus) -> None:
    """A Pickpocket winner takes the 500 rather than the loser's item."""
    need_stage(state, "pickpocket")


def bonus(state: FarkleState, seat: int, action: Bonus, ev: list[Event]) -> None:
    """The winner's 500 new soldiers, and the end of the turn."""
    state.players[seat].army += BRAWL_BONUS
    # The table's last line tells the bonus too ("took 0 soldiers" alone hid the +500).
    state.last["bonus"] = BRAWL_BONUS
    ev.append(E("farkle.event.bonus", {"seat": seat, "amount": BRAWL_BONUS}))
    state.thief = state.loser = -1
    end_turn(state, ev)


RULES: dict[type, Rule] = {
    Brawl: Rule(check_brawl, brawl),
    Fight: Rule(check_fight, fight),
    Bonus: Rule(check_bonus, bonus),
}
