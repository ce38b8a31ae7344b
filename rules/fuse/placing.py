"""Placing a die on a bomb card (rules §2, §4.2): where a held die may go, why it may not, and
the placement itself (a card whose slots are all filled is defused: ``defusing.py``)."""

from __future__ import annotations

from typing import Any

from rules.core import Event, RulesError
from rules.fuse.actions import Place
from rules.fuse.cards import EMPTY, Slot, die_name
from rules.fuse.defusing import defuse
from rules.fuse.dice import COLOUR_KEYS, die_colour, filled, value
from rules.fuse.quota import quota
from rules.fuse.setup import BOMBS
from rules.fuse.state import FuseState


def can_place(state: FuseState, seat: int, value: int) -> bool:
    """Whether the seat could place a die showing ``value`` now on one of its cards."""
    return any(BOMBS[c].legal_slots(filled(state, c), value) for c in state.hands[seat])


def check_place(state: FuseState, seat: int, action: Place) -> None:
    card_id, slot = action.card, action.slot
    d = state.claims.get(seat)
    if d is None:
        raise RulesError("fuse.error.no_die")
    if card_id not in state.hands[seat]:
        raise RulesError("fuse.error.not_your_card", card=str(card_id)[:10])
    card = BOMBS[card_id]
    if not isinstance(slot, int) or not 1 <= slot <= len(card.slots):
        raise RulesError("fuse.error.bad_slot", card=card_id, count=len(card.slots))
    s = slot - 1
    dice, shows = filled(state, card_id), value(state, d)
    # legal_slots (memoised) holds exactly the slots that pass every check below: a legal
    # placement needs no more; a refused one goes through them in order for its reason.
    if s in card.legal_slots(dice, shows):
        return
    token = die_name(shows)
    if dice[s] >= 0:
        raise RulesError("fuse.error.slot_full", card=card_id, slot=slot)
    if not card.fits(s, shows):
        raise _rejects(card.slots[s], card_id, slot, token)
    if not card.supported(dice, s):
        layout = "pyramid" if len(card.below[s]) == 2 else "stack"
        raise RulesError(f"fuse.error.{layout}_order", card=card_id, slot=slot)
    raise RulesError("fuse.error.cannot_complete", card=card_id, slot=slot, die=token)


def place(state: FuseState, seat: int, action: Place, events: list[Event], now: float) -> None:
    """The held die goes on the card; a card full of dice is defused."""
    d, card_id, s = state.claims[seat], action.card, action.slot - 1
    slots = state.dice[card_id]
    slots[s] = d
    state.loose.remove(d)
    del state.claims[seat]
    state.used[seat] += 1
    events.append(
        Event(
            "fuse.event.placed",
            {
                "seat": seat,
                "colour_key": COLOUR_KEYS[die_colour(d)],
                "number": state.faces[d],
                "card": card_id,
                "slot": s + 1,
            },
        )
    )
    if EMPTY not in slots:  # every slot holds a die
        defuse(state, seat, card_id, events, now)
    if state.used[seat] >= quota(state):
        state.done[seat] = True


def _rejects(icon: Slot, card_id: str, slot: int, die: str) -> RulesError:
    """Why a die does not match an icon, in words ("takes a black die") rather than the deck
    file's notation ("[K]"); a split icon, whose halves are read as codes, keeps its code."""
    args: dict[str, Any] = {"card": card_id, "slot": slot, "die": die}
    if len(icon.alts) == 1:
        colour, number = icon.alts[0]
        if colour is not None and number is not None:
            return RulesError(
                "fuse.error.slot_wants_both", colour_key=COLOUR_KEYS[colour], number=number, **args
            )
        if colour is not None:
            return RulesError(
                "fuse.error.slot_wants_colour", colour_key=COLOUR_KEYS[colour], **args
            )
        if number is not None:
            return RulesError("fuse.error.slot_wants_number", number=number, **args)
    return RulesError("fuse.error.slot_rejects", icon=icon.text.strip("[]"), **args)
