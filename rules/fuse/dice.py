"""The 25 dice and the bag (rules §1): five colours of five dice, faces 1–6.

A die is an id 0–24 whose face is ``state.faces[id]``; what it shows is its value,
``colour * 6 + number - 1`` (``cards.die``), which players name like ``R4``.
"""

from __future__ import annotations

from rules.fuse.cards import COLOURS, EMPTY, die_name
from rules.fuse.state import FuseState

NUM_DICE = 25
DICE_PER_COLOUR = 5


def die_colour(d: int) -> int:
    """Dice 0–4 are red, 5–9 blue, 10–14 green, 15–19 yellow, 20–24 black."""
    return d // DICE_PER_COLOUR


# die id -> its value code minus its face (so value = BASE[d] + face)
BASE = [(d // DICE_PER_COLOUR) * 6 - 1 for d in range(NUM_DICE)]
TOKENS = [die_name(v) for v in range(30)]
VALUE_OF = {token: value for value, token in enumerate(TOKENS)}
COLOUR_KEYS = [f"fuse.colour.{colour}" for colour in COLOURS]


def die_token(state: FuseState, d: int) -> str:
    """How players name die ``d`` now: ``R4``."""
    return TOKENS[BASE[d] + state.faces[d]]


def value_named(token: object) -> int:
    """The die value a claim names (``R4``, typed as `` r4`` too; ``EMPTY``: none)."""
    return VALUE_OF.get(str(token).strip().upper(), EMPTY)


def filled(state: FuseState, card_id: str) -> tuple[int, ...]:
    """The card's dice as die values (``EMPTY`` for an empty slot): the key of the card's
    memos (``BombCard.legal_slots``, ``BombCard.answers``). Kept in ``state.keys``."""
    key = state.keys.get(card_id)
    if key is None:
        faces = state.faces
        key = tuple([BASE[d] + faces[d] if d >= 0 else EMPTY for d in state.dice[card_id]])
        state.keys[card_id] = key
    return key
