"""The magic items played by command (rules file, section 5; house texts but Bag of Holding's
name): when each may be played, and what it does. Drawing them (and the cursed ones, which act
when drawn) is in ``cards``; the Bag of Holding, the Tower Shield and the Recruiting Poster work
by themselves (``turn``, ``brawl``, ``recruit``)."""

from __future__ import annotations

from typing import Any

from rules.core import Event, RulesError
from rules.farkle import scoring
from rules.farkle.actions import UseItem
from rules.farkle.cards import PLAYABLE
from rules.farkle.dice import faces, facts, one_die, throw
from rules.farkle.final_battle import slain, wound
from rules.farkle.recruit import bank, begin
from rules.farkle.rolls import settle
from rules.farkle.state import FarkleState, Roller
from rules.farkle.turn import ROLL_STAGES, Rule, item_key, recruiting

E = Event

# The items that change a roll, and the stages of a roll they may be played in.
_ROLL_ITEMS = {
    "potion": ROLL_STAGES,
    "loaded": ROLL_STAGES,
    "repellent": frozenset({"dragon"}),
    "horn": frozenset({"roll", "dragon"}),
    "draught": frozenset({"farkle"}),
}


def timing(state: FarkleState, r: Roller | None, item: str) -> str | None:
    """None if ``item`` may be played now by the roller ``r``, else the error key."""
    stage = state.stage
    bad = "farkle.error.item_timing"
    if item not in PLAYABLE:
        return bad
    if item == "cloak":  # when a brawl is declared against you
        return None if stage == "respond" else bad
    if item == "arrow":  # in your Final Battle
        return None if stage in ("battle", "review") else bad
    stages = _ROLL_ITEMS.get(item)
    if stages is None or r is None or stage not in stages:
        return bad
    if item == "horn" and r.event == "rally":
        return bad
    if item == "draught" and not recruiting(state, r):  # your Recruit's Farkle only
        return bad
    return None


def item_roller(state: FarkleState, seat: int) -> Roller | None:
    """The seat's run, when an item may change its roll now (None: no roll of its)."""
    r = state.roller() if state.stage in ROLL_STAGES else None
    return r if r is not None and r.seat == seat else None


def usable(state: FarkleState, seat: int) -> list[str]:
    """The items in ``seat``'s hand they may play now, once each, in hand order."""
    r = item_roller(state, seat)
    hand = dict.fromkeys(state.players[seat].items)
    return [i for i in hand if timing(state, r, i) is None]


def check_item(state: FarkleState, seat: int, action: UseItem) -> None:
    item = action.item
    if item not in state.players[seat].items:
        _not_held(state, seat, item)
    r = item_roller(state, seat)
    error = timing(state, r, item)
    if error:
        raise RulesError(error, item_key=f"farkle.item.{item}")
    if item == "loaded":
        assert r is not None
        one_die(action.die, r.roll)
    elif action.die:
        raise RulesError("farkle.error.no_die_needed")


def _not_held(state: FarkleState, seat: int, item: str) -> None:
    """Why ``seat`` may not play ``item``, which they do not hold."""
    can = ", ".join(usable(state, seat))
    if can:  # the items they may play now, by name, rather than "you do not hold that item"
        raise RulesError("farkle.error.name_item_item", items=can)
    runs = (state.attack, state.defence)
    if any(r is not None and r.seat == seat and item in r.gained for r in runs):
        # "You do not hold War Horn" while the board shows it drawn read as a bug: it
        # is set aside face down until the turn ends (house rule).
        raise RulesError("farkle.error.item_drawn", item_key=f"farkle.item.{item}")
    raise RulesError("farkle.error.no_item", item_key=item_key(item))


def use_item(state: FarkleState, seat: int, action: UseItem, ev: list[Event]) -> None:
    item = action.item
    state.players[seat].items.remove(item)
    state.item_discard.append(item)
    args: dict[str, Any] = {"seat": seat, "item_key": f"farkle.item.{item}"}
    if item == "cloak":
        ev.append(E("farkle.event.item_used", args))
        ev.append(E("farkle.event.cloak", {"seat": seat, "attacker_seat": state.turn}))
        state.defender = -1
        begin(state, ev)  # the attacker recruits instead
        return
    if item == "arrow":
        ev.append(E("farkle.event.item_used", args))
        wound(state, seat, 1, ev)
        slain(state, ev)
        return
    r = item_roller(state, seat)
    assert r is not None
    if item == "draught":
        ev.append(E("farkle.event.item_used", args))
        bank(state, r, scoring.half(r.score), ev, rescued=True)
        return
    _change_roll(state, r, action, args, ev)


def _change_roll(
    state: FarkleState, r: Roller, action: UseItem, args: dict[str, Any], ev: list[Event]
) -> None:
    """Potion of Courage, Loaded Die, Dragon Repellent, War Horn: the roll changes, and asks
    its decision anew. The message tells what changed (the new dice, the new event face): the
    picture alone left players reading "plays Potion of Courage." and guessing."""
    item = action.item
    if item in ("potion", "loaded"):
        if item == "potion":
            r.roll = throw(state.rng, len(r.roll), event=False)[0]
        else:
            r.roll[one_die(action.die, r.roll)] = 5
        args["dice"] = faces(r.roll)
        ev.append(E("farkle.event.item_dice", args))
    else:
        r.event = "blank" if item == "repellent" else "rally"
        args["face_key"] = f"farkle.face.{r.event}"
        ev.append(E("farkle.event.item_face", args))
    settle(state, r, ev, facts(r.roll, state.four_pair))


RULES: dict[type, Rule] = {UseItem: Rule(check_item, use_item)}
