"""Returning dice to the bag (rules §4.3, D4, D5, D13, D15): once every player is done
placing, each fuse card revealed during the round and then each unused die, rolled again one
at a time, make every player return a matching die (its colour or number) that is not safe.
One candidate goes back at once; with several the player chooses (``return``), the default
being the die whose loss sets their cards back least."""

from __future__ import annotations

from typing import Any

from rules.core import Event, Rng, RulesError
from rules.fuse.actions import Return
from rules.fuse.cards import COLOURS, EMPTY, fuse_target
from rules.fuse.dice import COLOUR_KEYS, die_colour, die_token, filled
from rules.fuse.setup import BOMBS
from rules.fuse.state import FuseState


def match_text(state: FuseState) -> str:
    """What the item being resolved asks to match: ``R`` or ``4`` (a fuse card), ``R4``."""
    item = state.current
    if item.startswith("F-"):
        return item[2:]
    if item.startswith("D"):
        return die_token(state, int(item[1:]))
    return ""


def match_args(match: str) -> tuple[str, dict[str, Any]]:
    """What a returned die must match, as a pending kind and message arguments: ``R4`` (an
    unused die: its colour or number), ``R`` or ``4`` (a fuse card)."""
    args: dict[str, Any] = {}
    if match[:1] in COLOURS:
        args["colour_key"] = f"fuse.colour.{match[0]}"
    if match[-1:].isdigit():
        args["number"] = int(match[-1])
    if len(args) == 2:
        return "return_die", args
    return ("return_colour" if "colour_key" in args else "return_number"), args


def advance(state: FuseState, events: list[Event]) -> bool:
    """Resolve the return queue item by item; stop where a player has a choice. True when the
    queue is done (the next round is drawn)."""
    while state.queue:
        item = state.current = state.queue.pop(0)
        state.step += 1
        state.owing = {}
        if item.startswith("F-"):
            colour, number = fuse_target(item)
        else:
            colour, number = _roll_again(state, int(item[1:]), events)
        returnable = _returnable(state, colour, number)
        if item.startswith("F-"):
            # "everyone returns…" only when someone has a matching die
            kind, args = match_args(item[2:])
            none = "" if returnable else "_none"
            events.append(Event(f"fuse.event.fuse_resolves_{kind[7:]}{none}", args))
        for seat, options in returnable.items():
            options = _distinct(state, options)
            if len(options) == 1:  # one candidate goes back at once (D13)
                _return_die(state, seat, *options[0], events)
            else:
                state.owing[seat] = options
        if state.owing:
            state.stage = "return"
            return False
        _finish_item(state)
    return True


def _roll_again(state: FuseState, d: int, events: list[Event]) -> tuple[int, int]:
    """An unused die is rolled again: the colour and the number it asks to match."""
    rng = Rng(state.rng)
    state.faces[d] = rng.randint(1, 6)
    state.rng = rng.state
    colour, number = die_colour(d), state.faces[d]
    events.append(
        Event("fuse.event.rerolled", {"colour_key": COLOUR_KEYS[colour], "number": number})
    )
    return colour, number


def _returnable(
    state: FuseState, colour: int | None, number: int | None
) -> dict[int, list[tuple[str, int]]]:
    """Each seat's dice of that colour or number that are not safe (under another die of a
    stack or pyramid), in the order of its cards and slots."""
    returnable: dict[int, list[tuple[str, int]]] = {}
    for seat, hand in enumerate(state.hands):
        for card_id in hand:
            slots, card = state.dice[card_id], BOMBS[card_id]
            for s, d in enumerate(slots):
                if d < 0 or (die_colour(d) != colour and state.faces[d] != number):
                    continue
                if not any(slots[a] >= 0 for a in card.above[s]):
                    returnable.setdefault(seat, []).append((card_id, s))
    return returnable


def check_return(state: FuseState, seat: int, action: Return) -> None:
    options = state.owing.get(seat)
    if state.stage != "return" or not options:
        raise RulesError("fuse.error.nothing_to_return")
    if _return_choice(action) not in options:
        raise RulesError("fuse.error.cannot_return")


def give_back(state: FuseState, seat: int, action: Return, events: list[Event]) -> bool:
    """The chosen die goes back to the bag. True when the queue is done (the next round)."""
    _return_die(state, seat, *_return_choice(action), events)
    del state.owing[seat]
    if state.owing:
        return False
    state.stage = "choose"  # transient: the queue either waits again or a round starts
    _finish_item(state)
    return advance(state, events)


def default_return(state: FuseState, seat: int) -> Return:
    """D4: the die whose loss sets the cards back least — on the card with the fewest dice
    (least progress lost), then the lowest card value."""

    def cost(option: tuple[str, int]) -> tuple[int, int, str, int]:
        card_id, s = option
        placed = sum(1 for d in state.dice[card_id] if d >= 0)
        return placed, BOMBS[card_id].points, card_id, s

    card_id, s = min(state.owing[seat], key=cost)
    return Return(card_id, s + 1)


def _return_choice(action: Return) -> tuple[str, int]:
    """The (card, slot index) a return names."""
    return str(action.card).upper(), action.slot - 1 if isinstance(action.slot, int) else -1


def _return_die(state: FuseState, seat: int, card_id: str, s: int, events: list[Event]) -> None:
    d = state.dice[card_id][s]
    state.dice[card_id][s] = EMPTY
    state.bag.append(d)
    events.append(
        Event(
            "fuse.event.returned",
            {
                "seat": seat,
                "colour_key": COLOUR_KEYS[die_colour(d)],
                "number": state.faces[d],
                "card": card_id,
            },
        )
    )


def _finish_item(state: FuseState) -> None:
    if state.current.startswith("D"):
        d = int(state.current[1:])
        state.loose.remove(d)
        state.bag.append(d)
    state.current = ""


def _distinct(state: FuseState, options: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The return choices without repeats: two dice showing the same colour and number on the
    same card, in slots alike (the same icon, and no stack, pyramid or relation apart from one
    ``=`` / ``≠`` run holding both), leave the card the same whichever goes back (a
    choice between two identical dice, D15)."""
    kept: list[tuple[str, int]] = []
    for card_id, s in options:
        if not any(c == card_id and _alike(state, card_id, s, k) for c, k in kept):
            kept.append((card_id, s))
    return kept


def _alike(state: FuseState, card_id: str, a: int, b: int) -> bool:
    card = BOMBS[card_id]
    value = filled(state, card_id)
    if value[a] != value[b] or card.slots[a].text != card.slots[b].text:
        return False
    if card.below[a] or card.below[b] or card.above[a] or card.above[b]:
        return False
    for relation in card.relations:
        members = relation.slots + relation.right
        if (a in members) != (b in members):
            return False
        if a in members and relation.kind not in ("eq", "ne"):
            return False
    return True
