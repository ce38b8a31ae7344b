"""Defusing a bomb (rules §4.4): a card whose slots are all filled goes to the team's score
pile, its dice back to the bag, and its owner takes a card from the centre row, which is
refilled from the deck (a fuse card revealed is counted at once, resolved later: D5)."""

from __future__ import annotations

from rules.core import Event, RulesError
from rules.fuse.actions import Take
from rules.fuse.cards import EMPTY, is_fuse
from rules.fuse.returns import match_args
from rules.fuse.scoring import end_if_won
from rules.fuse.setup import BOMBS, CENTRE_SIZE
from rules.fuse.state import FuseState


def takeable(state: FuseState, seat: int) -> list[str]:
    """Centre cards the seat may take: not a second level 3/4 (or hard) card."""
    holds_high = any(BOMBS[c].high for c in state.hands[seat])
    return [c for c in state.centre if not (holds_high and BOMBS[c].high)]


def defuse(state: FuseState, seat: int, card_id: str, events: list[Event], now: float) -> None:
    state.bag.extend(state.dice.pop(card_id))
    state.hands[seat].remove(card_id)
    state.defused.append(card_id)
    events.append(
        Event(
            "fuse.event.defused",
            {"seat": seat, "card": card_id, "points": BOMBS[card_id].points},
        )
    )
    if takeable(state, seat):
        state.taking[seat] = True
    else:
        end_if_won(state, events, now)


def check_take(state: FuseState, seat: int, action: Take) -> None:
    card_id = action.card
    if not state.taking[seat]:
        raise RulesError("fuse.error.nothing_to_take")
    if card_id not in state.centre:
        raise RulesError("fuse.error.not_in_centre", card=str(card_id)[:10])
    if card_id not in takeable(state, seat):
        raise RulesError("fuse.error.second_high", card=card_id)


def take(state: FuseState, seat: int, action: Take, events: list[Event], now: float) -> None:
    card_id = action.card
    state.centre.remove(card_id)
    state.hands[seat].append(card_id)
    state.dice[card_id] = [EMPTY] * len(BOMBS[card_id].slots)
    state.taking[seat] = False
    events.append(Event("fuse.event.took", {"seat": seat, "card": card_id}))
    while state.deck and len(state.centre) < CENTRE_SIZE:
        top = state.deck.pop(0)
        if is_fuse(top):
            # Counted at once; its returns wait until every player is done placing (D5).
            state.fuses.append(top)
            state.queue.append(top)
            kind, args = match_args(top[2:])
            events.append(Event(f"fuse.event.fuse_card_{kind[7:]}", args))
        else:
            state.centre.append(top)
    for other in range(state.seats):
        # Another seat waiting to take may have lost its last allowed card to this take.
        if state.taking[other] and not takeable(state, other):
            state.taking[other] = False
    end_if_won(state, events, now)
