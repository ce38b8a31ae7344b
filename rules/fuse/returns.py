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
    placed = _placed(state) if state.queue else []
    while state.queue:
        item = state.queue.pop(0)
        state.step += 1
        told = len(events)  # a fuse card's line goes here, once we know who matches
        if item.startswith("F-"):
            colour, number = fuse_target(item)
        else:
            d = int(item[1:])
            rng = Rng(state.rng)
            state.faces[d] = rng.randint(1, 6)
            state.rng = rng.state
            colour, number = die_colour(d), state.faces[d]
            events.append(
                Event("fuse.event.rerolled", {"colour_key": COLOUR_KEYS[colour], "number": number})
            )
        state.current = item
        state.owing = {}
        # Each seat's dice of that colour or number that are not safe, in the order of its
        # cards and slots: one is returned at once, several are the player's choice.
        returnable: dict[int, list[tuple[str, int]]] | None = None
        faces, dice = state.faces, state.dice
        for seat, card_id, s, d in placed:
            if die_colour(d) != colour and faces[d] != number:
                continue  # (the cheap test first: most dice do not match)
            slots = dice[card_id]
            if slots[s] != d:  # returned by an earlier item
                continue
            # a die under another die of a stack or pyramid is safe (BombCard.safe)
            for a in BOMBS[card_id].above[s]:
                if slots[a] >= 0:
                    break
            else:
                if returnable is None:
                    returnable = {}
                returnable.setdefault(seat, []).append((card_id, s))
        if item.startswith("F-"):
            # "everyone returns…" only when someone has a matching die
            kind, args = match_args(item[2:])
            none = "" if returnable else "_none"
            events.insert(told, Event(f"fuse.event.fuse_resolves_{kind[7:]}{none}", args))
        if returnable:
            for seat, options in returnable.items():
                options = _distinct(state, options)
                if len(options) == 1:
                    _return_die(state, seat, *options[0], events)
                else:
                    state.owing[seat] = options
            if state.owing:
                state.stage = "return"
                return False
        _finish_item(state)
    state.current = ""
    return True


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


def _placed(state: FuseState) -> list[tuple[int, str, int, int]]:
    """Every die on a card as (seat, card, slot, die), by seat, card and slot: what the
    return queue looks through (dice leave cards while it is resolved, none arrive)."""
    dice, placed = state.dice, []
    seat = 0
    for hand in state.hands:
        for card_id in hand:
            s = 0
            for d in dice[card_id]:  # (a counter is cheaper than enumerate here)
                if d >= 0:
                    placed.append((seat, card_id, s, d))
                s += 1
        seat += 1
    return placed


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
