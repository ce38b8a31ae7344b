"""FUSE's computer player (see docs/bots.md and docs/games/fuse.md).

``normal`` plays for the team. Every placement is worth something: defusing a card most, then
leaving a card with fewer empty slots, and among those the card that still accepts the most
kinds of dice (it stays easy to complete). At a claim the seat shares the round's dice out among
every seat still choosing, greedily, best placement first (the other seats' cards are face up),
and claims the die it was given, so that two bots do not fight over one die while a teammate
could have used it better. A defused card is replaced by the centre card with the fewest slots;
a die owed back is the one the engine's default would give (the least progress lost).

``easy`` claims a random die it can place, completes a card when the die allows it, else puts
it on a random legal slot.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.fuse.actions import Claim, Draw, Pass, Place, Take
from rules.fuse.cards import ALL_VALUES, EMPTY, BombCard, die_name
from rules.fuse.dice import VALUE_OF, filled
from rules.fuse.dice import value as die_value
from rules.fuse.quota import quota
from rules.fuse.setup import BOMBS
from rules.fuse.state import FuseState

DEFUSE = 1000.0  # a placement that completes a card


def placement_worth(card: BombCard, before: tuple[int, ...], slot: int, value: int) -> float:
    """What putting die ``value`` on ``slot`` of a card is worth (the placement is legal)."""
    after = before[:slot] + (value,) + before[slot + 1 :]
    empty = after.count(EMPTY)
    if empty == 0:
        return DEFUSE + card.points
    # Kinds of dice (of 30) with a legal slot afterwards: a card that accepts more is easier.
    flexible = sum(1 for v in ALL_VALUES if card.legal_slots(after, v))
    return 100.0 - 15.0 * empty + flexible / 3


Hand = list[tuple[str, tuple[int, ...]]]  # a seat's cards and the dice values on them


def seat_hands(state: FuseState) -> list[Hand]:
    """Every seat's cards with the dice on them (face up: every player sees them)."""
    return [[(c, filled(state, c)) for c in hand] for hand in state.hands]


def best_slot(hand: Hand, value: int) -> tuple[float, str, int] | None:
    """A hand's best (worth, card, slot) for a die ``value``, or None if it fits nowhere."""
    best: tuple[float, str, int] | None = None
    for card_id, before in hand:
        card = BOMBS[card_id]
        for slot in card.legal_slots(before, value):
            worth = placement_worth(card, before, slot, value)
            if best is None or worth > best[0]:
                best = (worth, card_id, slot)
    return best


def easiest(card_id: str) -> tuple[int, int, str]:
    """The order a centre card is taken in: the fewest slots (every slot is a die to place),
    then the lowest level."""
    return len(BOMBS[card_id].slots), BOMBS[card_id].level, card_id


def choose(game: Game[Any], state: FuseState, seat: int, level: str, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    stage = state.stage
    if stage == "start":
        return Draw()
    if stage == "return":
        return game.pending(state)[seat].default
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        if level == "easy":
            return dice().choice(takes)
        return min(takes, key=lambda a: easiest(a.card))
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        return _place(state, seat, places, level, dice)
    claims = [a for a in legal if isinstance(a, Claim)]
    if not claims:
        return Pass()
    if level == "easy":
        return dice().choice(claims)
    return _team_claim(state, seat, claims)


def _place(state: FuseState, seat: int, places: list[Place], level: str, dice: Dice) -> Action:
    held = state.claims[seat]
    value = die_value(state, held)
    scored = []
    for action in places:
        card = BOMBS[action.card]
        worth = placement_worth(card, filled(state, action.card), action.slot - 1, value)
        scored.append((worth, action))
    if level == "easy":
        done = [a for w, a in scored if w >= DEFUSE]
        return done[0] if done else dice().choice(places)
    return max(scored, key=lambda wa: wa[0])[1]


def _team_claim(state: FuseState, seat: int, claims: list[Claim]) -> Action:
    """Share the free dice among the seats still choosing so that together they place the most
    (a greedy share could give a teammate the one die that fits us while another die would do
    for them just as well, and we would pass); claim the die we are given."""
    free, ranked = sharing(state, seat)
    share = ranked[0][1] if ranked and ranked[0][0] > 0 else {}
    return claim_given(state, seat, claims, free, share)


def sharing(state: FuseState, seat: int) -> tuple[list[int], list[tuple[float, dict[int, int]]]]:
    """The round's free dice (values) and every share of them among the seats still choosing,
    each die worth its best placement to the seat given it, best first (``shares``)."""
    held = set(state.claims.values())
    free = [die_value(state, d) for d in state.loose if d not in held]
    choosing = [
        s
        for s in range(state.seats)
        if s != seat and not state.done[s] and not state.taking[s] and s not in state.claims
    ]
    choosing.insert(0, seat)  # ties go to ourselves: the die is claimed now, not hoped for
    table = seat_hands(state)
    worth = {
        (s, i): found[0]
        for s in choosing
        for i, value in enumerate(free)
        if (found := best_slot(table[s], value)) is not None
    }
    left = {s: quota(state) - state.used[s] for s in choosing}
    return free, shares(worth, choosing, len(free), left)


def claim_given(
    state: FuseState, seat: int, claims: list[Claim], free: list[int], share: dict[int, int]
) -> Action:
    """Claim the die ``share`` gives us; given none, a die nobody else is given still goes on
    a card rather than back; else pass."""
    claimable = {a.die for a in claims}
    for i, s in share.items():
        if s == seat and die_name(free[i]) in claimable:
            return Claim(die_name(free[i]))
    spare = [a for a in claims if all(die_name(free[i]) != a.die for i in share)]
    if spare:
        own = seat_hands(state)[seat]
        return max(spare, key=lambda a: (best_slot(own, VALUE_OF[a.die]) or (0.0,))[0])
    return Pass()


def shares(
    worth: dict[tuple[int, int], float], seats: list[int], dice: int, left: dict[int, int]
) -> list[tuple[float, dict[int, int]]]:
    """Every share of the round's dice (die index -> seat, each seat within its quota, a die
    given only to a seat it is worth something to) with its total worth, best first; among
    equals, the order found, which tries the first seat first (``seats[0]``: ourselves).

    A round has a handful of dice and seats, so every share is tried."""
    found: list[tuple[float, dict[int, int]]] = []

    def visit(i: int, total: float, share: dict[int, int]) -> None:
        if i == dice:
            found.append((total, dict(share)))
            return
        for s in seats:
            if left[s] > 0 and (s, i) in worth:
                left[s] -= 1
                share[i] = s
                visit(i + 1, total + worth[(s, i)], share)
                del share[i]
                left[s] += 1
        visit(i + 1, total, share)  # nobody takes this die

    visit(0, 0.0, {})
    found.sort(key=lambda ts: -ts[0])
    return found
