"""The 25 dice and the bag (rules §1): five colours of five dice, faces 1–6.

A die is an id 0–24 whose face is ``state.faces[id]``; what it shows is its value,
``colour * 6 + number - 1`` (``cards.die``), which players name like ``R4``.
"""

from __future__ import annotations

from rules.fuse.cards import COLOURS, EMPTY, die, die_name
from rules.fuse.state import FuseState

NUM_DICE = 25
DICE_PER_COLOUR = 5
COLOUR_KEYS = [f"fuse.colour.{colour}" for colour in COLOURS]
VALUE_OF = {die_name(value): value for value in range(30)}  # R4 -> its value


def die_colour(d: int) -> int:
    """Dice 0–4 are red, 5–9 blue, 10–14 green, 15–19 yellow, 20–24 black."""
    return d // DICE_PER_COLOUR


def value(state: FuseState, d: int) -> int:
    """What die ``d`` shows now, as a value."""
    return die(die_colour(d), state.faces[d])


def die_token(state: FuseState, d: int) -> str:
    """How players name die ``d`` now: ``R4``."""
    return die_name(value(state, d))


def value_named(token: object) -> int:
    """The die value a claim names (``R4``, typed as `` r4`` too; ``EMPTY``: none)."""
    return VALUE_OF.get(str(token).strip().upper(), EMPTY)


def filled(state: FuseState, card_id: str) -> tuple[int, ...]:
    """The card's dice as die values (``EMPTY`` for an empty slot): the key of the card's
    memos (``BombCard.legal_slots``)."""
    return tuple(value(state, d) if d >= 0 else EMPTY for d in state.dice[card_id])
