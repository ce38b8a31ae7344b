"""FUSE's ``hard``: ``normal``'s play, each choice weighed one round ahead (docs/bots.md).

FUSE is lost on the clock, and what wastes the clock most is a die nobody can place: it is
rolled again and knocks a matching die off every player's cards, each to be claimed and placed
again. ``hard`` weighs each choice (which die each seat is given, where a die goes, which
centre card to take, which die to give back) by ``normal``'s worth of the placements plus how
many of the next round's dice the team can expect to place after it: the next round is drawn
``SAMPLES`` times from the dice that will be in the bag (the bag's colours are open; the faces
are rolled afresh), and each draw is shared out among the seats as well as their cards allow
(a seat places as many dice as its quota, and only dice that fit its cards). The draws come
from the position's own generator (``dice()``), so the same position gives the same choice.
"""

from __future__ import annotations

from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.fuse.actions import Claim, Draw, Pass, Place, Return, Take
from rules.fuse.cards import ALL_VALUES, EMPTY, colour_of, die, number_of
from rules.fuse.dice import die_colour
from rules.fuse.dice import value as die_value
from rules.fuse.policy import (
    Hand,
    best_slot,
    claim_given,
    easiest,
    placement_worth,
    seat_hands,
    sharing,
)
from rules.fuse.quota import dice_per_round, players_in, quota
from rules.fuse.setup import BOMBS
from rules.fuse.state import FuseState

SAMPLES = 32  # draws of the next round per decision (the same draws for every candidate)
COVER = 60.0  # worth of one die of the next round the team can expect to place
RETURN = 80.0  # cost of one die the team can expect to lose back to the bag
SHARES = 8  # the best shares by normal's worth, weighed one round ahead


def choose(game: Game[Any], state: FuseState, seat: int, level: str, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    stage = state.stage
    if stage == "start":
        return Draw()
    if stage == "return":
        return _give_back(state, seat, [a for a in legal if isinstance(a, Return)], dice)
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        return _take(state, seat, takes, dice)
    places = [a for a in legal if isinstance(a, Place)]
    if places:
        return _place(state, seat, places, dice)
    claims = [a for a in legal if isinstance(a, Claim)]
    if not claims:
        return Pass()
    return _claim(state, seat, claims, dice)


# --------------------------------------------------------------------------- the next round


def _draws(state: FuseState, dice: Dice) -> list[tuple[int, ...]]:
    """``SAMPLES`` draws of the next round's dice: from the bag and this round's dice still on
    the table (they go back to the bag), faces rolled afresh."""
    pool = [die_colour(d) for d in state.bag] + [die_colour(d) for d in state.loose]
    count = min(dice_per_round(players_in(state)), len(pool))
    rng = dice()
    out = []
    for _ in range(SAMPLES):
        picked = list(pool)
        draw = []
        for _ in range(count):
            colour = picked.pop(rng.randint(0, len(picked) - 1))
            draw.append(die(colour, rng.randint(1, 6)))
        out.append(tuple(draw))
    return out


def _accepts(hand: Hand) -> frozenset[int]:
    """The die values a seat could place on one of its cards."""
    return frozenset(v for v in ALL_VALUES if any(BOMBS[c].legal_slots(f, v) for c, f in hand))


def _capacity(hand: Hand, per_seat: int) -> int:
    empty = sum(f.count(EMPTY) for _, f in hand)
    return min(per_seat, empty)


def exposure(hands: list[Hand]) -> list[float]:
    """Per colour: how many dice a die of that colour, rolled again, knocks off the team's
    cards on average (each seat returns one unsafe die of its colour or its new number)."""
    out = [0.0] * 5
    for hand in hands:
        colours: set[int] = set()
        numbers: set[int] = set()
        for c, f in hand:
            card = BOMBS[c]
            for s, v in enumerate(f):
                if v >= 0 and not card.safe(f, s):
                    colours.add(colour_of(v))
                    numbers.add(number_of(v))
        for colour in range(5):
            out[colour] += 1.0 if colour in colours else len(numbers) / 6
    return out


def outlook(
    hands: list[Hand], per_seat: int, draws: list[tuple[int, ...]], unused: list[int]
) -> float:
    """A position after a choice: the next round's dice the team can expect to place
    (``COVER`` each) less the dice it can expect to lose to the dice nobody places (``RETURN``
    each): ``unused``, this round's dice nobody will place (their colours), and the next
    round's that find no seat."""
    accepts = [_accepts(h) for h in hands]
    caps = [_capacity(h, per_seat) for h in hands]
    lose = exposure(hands)
    placed = 0
    lost = sum(lose[c] for c in unused) * len(draws)
    memo: dict[tuple[int, ...], tuple[int, float]] = {}
    for draw in draws:
        key = tuple(sorted(draw, key=lambda v: -lose[colour_of(v)]))
        found = memo.get(key)
        if found is None:
            matched = _matching(key, accepts, caps)
            found = memo[key] = (
                len(matched),
                sum(lose[colour_of(v)] for i, v in enumerate(key) if i not in matched),
            )
        placed += found[0]
        lost += found[1]
    return (COVER * placed - RETURN * lost) / max(1, len(draws))


def _matching(draw: tuple[int, ...], accepts: list[frozenset[int]], caps: list[int]) -> set[int]:
    """The dice (indices) of a largest assignment of the draw's dice to seats, found by
    augmenting paths in the draw's order, so the dice first in it are placed first (the
    assignable sets of dice form a matroid: in order of weight, greedy is the heaviest)."""
    places = [s for s, cap in enumerate(caps) for _ in range(cap)]
    owner: dict[int, int] = {}  # place -> die index

    def augment(i: int, seen: set[int]) -> bool:
        for p, s in enumerate(places):
            if p in seen or draw[i] not in accepts[s]:
                continue
            seen.add(p)
            if p not in owner or augment(owner[p], seen):
                owner[p] = i
                return True
        return False

    return {i for i in range(len(draw)) if augment(i, set())}


def _left_over(state: FuseState, hands: list[Hand], placing: int) -> list[int]:
    """The colours of this round's dice on the table that no seat still choosing can place
    (``placing``: the seat placing its die now, whose quota that may use up)."""
    held = set(state.claims.values())
    open_seats = [
        s
        for s in range(state.seats)
        if not state.done[s]
        and s not in state.claims
        and state.used[s] + (s == placing) < quota(state)
    ]
    out = []
    for d in state.loose:
        if d in held:
            continue
        v = die_value(state, d)
        if not any(BOMBS[c].legal_slots(f, v) for s in open_seats for c, f in hands[s]):
            out.append(die_colour(d))
    return out


# --------------------------------------------------------------------------- placing


def _put(
    state: FuseState, hands: list[Hand], seat: int, card_id: str, slot: int, value: int
) -> float:
    """Place on ``hands`` (in place): the placement's worth; a card filled is defused and the
    card ``normal`` would take from the centre comes in its stead (empty)."""
    hand = hands[seat]
    for i, (c, f) in enumerate(hand):
        if c == card_id:
            worth = placement_worth(BOMBS[c], f, slot, value)
            after = f[:slot] + (value,) + f[slot + 1 :]
            if EMPTY in after:
                hand[i] = (c, after)
            else:
                del hand[i]
                new = _easiest(state, [c2 for c2, _ in hand], taken=_taken(hands))
                if new is not None:
                    hand.append((new, (EMPTY,) * len(BOMBS[new].slots)))
            return worth
    raise ValueError(card_id)


def _taken(hands: list[Hand]) -> set[str]:
    return {c for hand in hands for c, _ in hand}


def _easiest(state: FuseState, held: list[str], taken: set[str]) -> str | None:
    """The centre card ``normal`` takes (the fewest slots, then the lowest level)."""
    high = any(BOMBS[c].high for c in held)
    options = [c for c in state.centre if c not in taken and not (high and BOMBS[c].high)]
    if not options:
        return None
    return min(options, key=easiest)


def _copy(hands: list[Hand]) -> list[Hand]:
    return [list(h) for h in hands]


def _place(state: FuseState, seat: int, places: list[Place], dice: Dice) -> Action:
    value = die_value(state, state.claims[seat])
    draws = _draws(state, dice)
    per_seat = quota(state)
    base = seat_hands(state)
    best: tuple[float, Place] | None = None
    for action in places:
        hands = _copy(base)
        worth = _put(state, hands, seat, action.card, action.slot - 1, value)
        score = worth + outlook(hands, per_seat, draws, _left_over(state, hands, seat))
        if best is None or score > best[0]:
            best = (score, action)
    assert best is not None
    return best[1]


# --------------------------------------------------------------------------- claiming


def _claim(state: FuseState, seat: int, claims: list[Claim], dice: Dice) -> Action:
    """``normal``'s sharing of the round's dice among the seats still choosing, its best shares
    weighed one round ahead; claim the die the best share gives us."""
    free, ranked = sharing(state, seat)
    base = seat_hands(state)
    draws = _draws(state, dice)
    per_seat = quota(state)
    best: tuple[float, dict[int, int]] | None = None
    for _, share in ranked[:SHARES]:
        hands = _copy(base)
        total = 0.0
        for i, s in sorted(share.items()):
            found = best_slot(hands[s], free[i])
            if found is None:
                continue
            total += _put(state, hands, s, found[1], found[2], free[i])
        unused = [colour_of(v) for i, v in enumerate(free) if i not in share]
        score = total + outlook(hands, per_seat, draws, unused)
        if best is None or score > best[0]:
            best = (score, share)
    share = best[1] if best is not None else {}
    return claim_given(state, seat, claims, free, share)


# --------------------------------------------------------------------------- taking, returning


def _take(state: FuseState, seat: int, takes: list[Take], dice: Dice) -> Action:
    """The centre card with the fewest slots (``normal``'s rule: every slot is a die to place);
    among those, the one after which the team places most of the next round's dice."""
    ordered = sorted(takes, key=lambda a: easiest(a.card))
    fewest = len(BOMBS[ordered[0].card].slots)
    options = [a for a in ordered if len(BOMBS[a.card].slots) == fewest]
    if len(options) == 1:
        return options[0]
    draws = _draws(state, dice)
    per_seat = quota(state)
    base = seat_hands(state)
    best: tuple[float, Take] | None = None
    for action in options:
        hands = _copy(base)
        hands[seat].append((action.card, (EMPTY,) * len(BOMBS[action.card].slots)))
        score = outlook(hands, per_seat, draws, _left_over(state, hands, -1))
        if best is None or score > best[0] + 1e-9:
            best = (score, action)
    assert best is not None
    return best[1]


def _give_back(state: FuseState, seat: int, returns: list[Return], dice: Dice) -> Action:
    """The die whose loss leaves the team placing most of the next round's dice; ties: the
    engine's default (the card with the fewest dice)."""
    if len(returns) == 1:
        return returns[0]
    draws = _draws(state, dice)
    per_seat = quota(state)
    base = seat_hands(state)

    def placed(action: Return) -> int:
        return sum(1 for d in state.dice[action.card] if d >= 0)

    queued = [die_colour(int(q[1:])) for q in state.queue if q.startswith("D")]
    best: tuple[float, Return] | None = None
    for action in sorted(returns, key=lambda a: (placed(a), BOMBS[a.card].points, a.card, a.slot)):
        hands = _copy(base)
        hand = hands[seat]
        for i, (c, f) in enumerate(hand):
            if c == action.card:
                s = action.slot - 1
                hand[i] = (c, f[:s] + (EMPTY,) + f[s + 1 :])
        score = outlook(hands, per_seat, draws, queued) - 20.0 * placed(action)
        if best is None or score > best[0] + 1e-9:
            best = (score, action)
    assert best is not None
    return best[1]


__all__ = ["COVER", "RETURN", "SAMPLES", "choose", "exposure", "outlook"]
