"""The companions with a command (rules file, section 4; house texts but Skree's name): Skree
scares an army, the Lucky Squire re-rolls a die, and ``companion`` plays the Siege Engineer,
the Pickpocket or the Field Medic. The others work by themselves where their rule is: the
Dragon Whisperer and the Berserker in ``rolls``, the Bodyguard in ``brawl``, the Quartermaster
in ``recruit``, the Treasure Hunter in ``turn``."""

from __future__ import annotations

from rules.core import Event, RulesError
from rules.farkle.actions import Reroll, Scare, UseCompanion
from rules.farkle.dice import facts, one_die
from rules.farkle.final_battle import battle_resolve
from rules.farkle.recruit import bank
from rules.farkle.rolls import settle
from rules.farkle.state import DIE_LETTERS, EVENT_FACES, FarkleState, Player
from rules.farkle.turn import (
    ROLL_STAGES,
    TURN_STAGES,
    Rule,
    check_roller,
    end_turn,
    recruiting,
    roller,
)

E = Event

SKREE_SCARE = 300


def medic_item(me: Player) -> str | None:
    """Field Medic discards the oldest item in hand that is not the Bag of Holding, or the
    Bag if it is all there is (so the offer reveals only how many items, which is public)."""
    return next((i for i in me.items if i != "bag"), me.items[0] if me.items else None)


# ------------------------------------------------------------------ companion: Engineer,
# Pickpocket, Field Medic


def check_companion(state: FarkleState, seat: int, action: UseCompanion) -> None:
    me = state.players[seat]
    stage = state.stage
    if stage == "pickpocket":
        return
    if stage == "review":
        if me.companion != "engineer":
            raise RulesError("farkle.error.companion_cannot")
        return
    if stage == "farkle" and me.companion == "medic":
        check_roller(state, seat)
        if not recruiting(state, roller(state)):
            raise RulesError("farkle.error.companion_cannot")
        if medic_item(me) is None:
            raise RulesError("farkle.error.medic_no_item")
        return
    raise RulesError("farkle.error.companion_cannot")


def companion(state: FarkleState, seat: int, action: UseCompanion, ev: list[Event]) -> None:
    if state.stage == "pickpocket":
        _steal(state, seat, ev)
    elif state.stage == "review":
        _engineer(state, seat, ev)
    else:  # farkle
        _medic(state, seat, ev)


def _steal(state: FarkleState, seat: int, ev: list[Event]) -> None:
    """The Pickpocket, winning a brawl, takes one of the loser's items at random."""
    loser = state.players[state.loser]
    choices = list(loser.items)
    item = choices[state.rng.below(len(choices))]
    loser.items.remove(item)
    state.players[seat].items.append(item)
    ev.append(E("farkle.event.pickpocket", {"seat": seat, "loser_seat": state.loser}))
    ev.append(E("farkle.event.stolen_you", {"item_key": f"farkle.item.{item}"}, to=seat))
    ev.append(E("farkle.event.stolen_from", {"item_key": f"farkle.item.{item}"}, to=state.loser))
    state.thief = state.loser = -1
    end_turn(state, ev)


def _engineer(state: FarkleState, seat: int, ev: list[Event]) -> None:
    """The Siege Engineer re-rolls the event die of a Final Battle roll, once a battle."""
    r = state.attack
    assert r is not None
    state.engineer_used = True
    r.event = EVENT_FACES[state.rng.below(6)]
    ev.append(E("farkle.event.engineer", {"seat": seat, "face_key": f"farkle.face.{r.event}"}))
    battle_resolve(state, ev)


def _medic(state: FarkleState, seat: int, ev: list[Event]) -> None:
    """The Field Medic saves a Recruit's Farkle for an item: the run banks what it had."""
    me = state.players[seat]
    r = roller(state)
    given = medic_item(me)
    assert given is not None
    me.items.remove(given)
    state.item_discard.append(given)
    ev.append(
        E(
            "farkle.event.medic",
            {"seat": seat, "item_key": f"farkle.item.{given}", "amount": r.score},
        )
    )
    bank(state, r, r.score, ev, rescued=True)


# ------------------------------------------------------------------ Skree


def check_scare(state: FarkleState, seat: int, action: Scare) -> None:
    me = state.players[seat]
    if me.companion != "skree":
        raise RulesError("farkle.error.companion_cannot")
    if me.skree_used:
        raise RulesError("farkle.error.skree_used")
    if seat != state.turn or state.stage not in TURN_STAGES or state.defence is not None:
        raise RulesError("farkle.error.companion_timing")
    if action.target == seat or not 0 <= action.target < state.seats:
        raise RulesError("farkle.error.bad_target", target=str(action.target + 1)[:10])


def scare(state: FarkleState, seat: int, action: Scare, ev: list[Event]) -> None:
    victim = state.players[action.target]
    lost = min(SKREE_SCARE, victim.army)
    victim.army -= lost
    state.players[seat].skree_used = True
    ev.append(E("farkle.event.skree", {"seat": seat, "target_seat": action.target, "lost": lost}))


# ------------------------------------------------------------------ the Lucky Squire


def check_reroll(state: FarkleState, seat: int, action: Reroll) -> None:
    if state.players[seat].companion != "squire":
        raise RulesError("farkle.error.companion_cannot")
    if state.stage not in ROLL_STAGES:
        raise RulesError("farkle.error.companion_timing")
    check_roller(state, seat)
    r = roller(state)
    if r.squire:
        raise RulesError("farkle.error.squire_used")
    one_die(action.die, r.roll)


def reroll(state: FarkleState, seat: int, action: Reroll, ev: list[Event]) -> None:
    r = roller(state)
    i = one_die(action.die, r.roll)
    r.squire = True
    old = r.roll[i]
    r.roll[i] = state.rng.randint(1, 6)
    ev.append(
        E(
            "farkle.event.squire",
            {"seat": seat, "die": DIE_LETTERS[i], "old": old, "new": r.roll[i]},
        )
    )
    settle(state, r, ev, facts(r.roll, state.four_pair))


RULES: dict[type, Rule] = {
    UseCompanion: Rule(check_companion, companion),
    Scare: Rule(check_scare, scare),
    Reroll: Rule(check_reroll, reroll),
}
