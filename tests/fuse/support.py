"""Set up FUSE positions the way a rulebook example describes them."""

from __future__ import annotations

from collections.abc import Sequence

from rules.fuse import FUSE
from rules.fuse.cards import COLOURS, EMPTY, BombCard, house_deck
from rules.fuse.dice import die_colour
from rules.fuse.game import Draw, FuseState
from rules.fuse.rounds import after_choice
from tests.support.events import keys as keys  # (where the game's tests import it)


def _take_die(state: FuseState, token: str) -> int:
    """Take a die of the token's colour out of the bag and turn it to the token's number."""
    colour, number = COLOURS.index(token[0]), int(token[1:])
    d = next(d for d in state.bag if die_colour(d) == colour)
    state.bag.remove(d)
    state.faces[d] = number
    return d


def position(
    seats: int,
    hands: Sequence[Sequence[str]],
    roll: Sequence[str] = (),
    placed: dict[str, Sequence[str | None]] | None = None,
    centre: Sequence[str] | None = None,
    deck: Sequence[str] | None = None,
    options: dict[str, object] | None = None,
    now: float = 1000.0,
) -> FuseState:
    """A game in the ``choose`` stage of round 1 (clock started at ``now``) with the given bomb
    cards, dice on them (``placed``: card -> token or None per slot), rolled dice, centre row
    and deck. Every die not mentioned is in the bag."""
    state = FUSE.new_game(seats, options or {}, seed=1)
    state, _ = FUSE.apply(state, 0, Draw(), now)
    state.bag = sorted(
        state.bag + state.loose + [d for v in state.dice.values() for d in v if d >= 0]
    )
    state.hands = [list(h) for h in hands]
    state.dice = {c: [EMPTY] * len(card(c).slots) for h in hands for c in h}
    for card_id, tokens in (placed or {}).items():
        for s, token in enumerate(tokens):
            if token is not None:
                state.dice[card_id][s] = _take_die(state, token)
    state.drawn = [_take_die(state, t) for t in roll]
    state.loose = state.drawn[:]
    state.claims = {}
    state.used = [0] * seats
    state.done = [False] * seats
    state.taking = [False] * seats
    after_choice(state, [])  # as at the start of a round: seats with no use are done
    held = {c for h in hands for c in h}
    state.centre = (
        list(centre) if centre is not None else [c for c in state.centre if c not in held]
    )
    state.deck = list(deck) if deck is not None else [c for c in state.deck if c not in held]
    return state


def card(card_id: str) -> BombCard:
    return house_deck().bombs[card_id]


def all_dice(state: FuseState) -> list[int]:
    """Every die, wherever it is: bag, rolled and unplaced, on a card."""
    on_cards = [d for slots in state.dice.values() for d in slots if d >= 0]
    return sorted(state.bag + state.loose + on_cards)
