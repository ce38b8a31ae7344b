"""Dragon Farkle's ``hard`` computer player: it looks ahead, where ``normal`` goes by rules of
thumb (see docs/bots.md).

- **Brawls** (small: one roller against a mark): exact expectimax. The defender keeps the dice
  and rolls on while that raises its chance of passing the attacker (as ``normal``); the
  attacker stops when its chance of winning the brawl, against every roll the defender may
  make, is better stopped than rolled on (``attack_chance``).
- **Recruiting** (roll on or stop, which dice to keep, the dragon repellent): Monte-Carlo over
  the rules themselves (``rules.core.search``). Each candidate is played out to the end of the
  turn ``SIMULATIONS`` times by ``normal``, on dice drawn afresh (and the others' hidden items
  dealt afresh from the cards the seat has not seen), the same dice for every candidate, and
  the turn is valued by the soldiers it banks (``gained``), with ``KEEP_BONUS`` more for
  reaching the 5,000 that open the Dragon's Keep (so it rolls on for the last 50 rather than
  bank 4,950). The
  event die, the rally, hot dice, the companions and the items all count, as the engine plays
  them. ``normal``'s choice is kept unless another is clearly better (by two standard errors).
- **Inside the Keep** it fights again with as few as ``STAY_ARMY`` soldiers (``normal`` waits
  for 3,000): played out by the engine, a Final Battle from inside with 1,500 soldiers slays
  the dragon about 3 times in 10 and sends the army home empty about 1 time in 10, while a
  turn spent recruiting instead only gives the others a turn.
- The rest (Recruit, Brawl or the Final Battle from outside the Keep, rallies, items, the
  respond, discard and pickpocket steps) as ``normal``. Turn-long playouts valued in soldiers
  were tried for Recruit against Brawl and lost games to ``normal`` (a brawl's soldiers are
  not its worth): the bench measured 48% against 56% without them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.core import Action, Game, Rng
from rules.core.policy import Dice
from rules.core.search import monte_carlo
from rules.farkle import scoring
from rules.farkle.actions import Enter, Keep, Roll, Stop, UseItem
from rules.farkle.policy import KEEP_ARMY, normal, roll_gain, roll_outcomes, win_chance
from rules.farkle.state import FarkleState, Roller

SIMULATIONS = 64  # playouts per candidate action (a fixed count: the choice is reproducible)
KEEPS = 3  # selections of dice weighed by search: normal's best few
HORIZON = 60  # steps of a playout: the end of the turn comes long before
KEEP_BONUS = 1000  # soldiers a turn is worth more when it opens the Dragon's Keep
DEFENDER_DICE = 5
STAY_ARMY = 1000  # soldiers with which it fights again from inside the Keep


def choose(game: Game[Any], state: FarkleState, seat: int, level: str, dice: Dice) -> Action:
    """``hard``'s choice (``level``; registered as the game's ``hard``, ``rules/core/policy.py``)."""
    legal = game.legal_actions(state, seat)
    stage = state.stage
    r = state.roller()
    if stage == "choose":
        me = state.players[seat]
        if me.in_keep and me.army >= STAY_ARMY and Enter() in legal:
            return Enter()
        return normal(state, seat, legal)
    if r is None or stage not in ("roll", "next", "dragon", "dodge"):
        return normal(state, seat, legal)
    if state.action == "brawl" or state.defence is not None:
        if state.defence is None and stage != "roll":
            return brawl_attack(state, r, legal)
        return normal(state, seat, legal)
    if stage == "roll":
        return _search(game, state, seat, _keep_candidates(state, r, legal), dice)
    first = normal(state, seat, legal)
    others = [a for a in (Roll(), Stop(), UseItem("repellent")) if a in legal and a != first]
    return _search(game, state, seat, [first, *others], dice)


def gained(before: list[int], after: list[int], seat: int) -> float:
    """What a turn that took the armies from ``before`` to ``after`` is worth to ``seat``: its
    soldiers gained less the others' (on average), each army's crossing of the Keep's 5,000
    counted ``KEEP_BONUS`` more (for the seat reaching it, against it for another)."""

    def worth(t: int) -> float:
        crossed = (after[t] >= KEEP_ARMY) - (before[t] >= KEEP_ARMY)
        return after[t] - before[t] + KEEP_BONUS * crossed

    others = [worth(t) for t in range(len(before)) if t != seat]
    return worth(seat) - sum(others) / max(1, len(others))


def _keep_candidates(state: FarkleState, r: Roller, legal: list[Action]) -> list[Action]:
    """Normal's best few selections of dice (by the value it leaves, rolling on included)."""
    first = normal(state, r.seat, legal)
    keeps = [a for a in legal if isinstance(a, Keep) and a != first]
    if not isinstance(first, Keep):
        return [first]
    ranked = sorted(keeps, key=lambda a: -_keep_worth(state, r, a))
    return [first, *ranked[: KEEPS - 1]]


def _keep_worth(state: FarkleState, r: Roller, keep: Keep) -> float:
    faces = [int(t[1:]) for t in keep.dice.split()]
    value = scoring.mask_value(faces, (1 << len(faces)) - 1, state.four_pair) or 0
    left = r.dice - len(r.aside) - len(faces)
    left = r.dice if left <= 0 else left
    score = r.score + value
    return score + max(0.0, roll_gain(score, left, state.four_pair))


def _search(
    game: Game[Any], state: FarkleState, seat: int, candidates: list[Action], dice: Dice
) -> Action:
    """The candidate whose turn banks the most: ``normal``'s (the first) unless another is
    clearly better (``monte_carlo``)."""
    if len(candidates) == 1:
        return candidates[0]
    turn = state.turn_no
    before = [p.army for p in state.players]

    def playout_policy(sim: FarkleState, who: int) -> Action:
        return normal(sim, who, game.legal_actions(sim, who))

    def banked(sim: FarkleState, who: int) -> float:
        return gained(before, [p.army for p in sim.players], who)

    return monte_carlo(
        game,
        state,
        seat,
        candidates,
        Rng(dice().next64()),
        SIMULATIONS,
        _determinize(seat),
        playout_policy,
        banked,
        HORIZON,
        until=lambda sim: sim.turn_no != turn,
    )


def _determinize(seat: int) -> Any:
    """What ``seat`` does not know, drawn afresh: every die to come (the game's generator is
    reseeded) and the order of the decks, and the others' items, dealt again from the cards it
    has not seen (theirs and the item deck)."""

    def draw(sim: FarkleState, rng: Rng) -> FarkleState:
        sim.rng = Rng(rng.next64())
        unseen = list(sim.item_deck)
        hands = [(t, len(p.items)) for t, p in enumerate(sim.players) if t != seat]
        for t, _ in hands:
            unseen += sim.players[t].items
        rng.shuffle(unseen)
        for t, count in hands:
            sim.players[t].items = unseen[:count]
            del unseen[:count]
        sim.item_deck = unseen
        rng.shuffle(sim.companion_deck)
        return sim

    return draw


# --------------------------------------------------------------------------- brawls, exactly


def brawl_attack(state: FarkleState, r: Roller, legal: list[Action]) -> Action:
    """The attacker rolls on or stops, whichever gives the better chance of winning the brawl
    against the defender's best reply (the defender rolls 5 dice, 6 with the Bodyguard)."""
    if Roll() not in legal or Stop() not in legal:
        return normal(state, r.seat, legal)
    defender = state.players[state.defender] if state.defender >= 0 else None
    dice = 6 if defender is not None and defender.companion == "bodyguard" else DEFENDER_DICE
    left = len(r.roll) if state.stage == "dodge" else _left(r, state)
    stop = 1.0 - _beaten(r.score, dice, state.four_pair)
    roll = attack_chance(r.score, left, r.dice, dice, state.four_pair, 2)
    return Roll() if roll > stop else Stop()


def _left(r: Roller, state: FarkleState) -> int:
    eaten = 0
    if state.stage == "dragon":
        eaten = scoring.all_scoring_mask(r.roll, state.four_pair).bit_count()
    left = r.dice - len(r.aside) - eaten
    return r.dice if left <= 0 else left


def _beaten(score: int, dice: int, four_pair: bool) -> float:
    """The defender's chance of passing ``score`` (a tie wins nothing for either)."""
    return win_chance(score + 1, dice, dice, four_pair)


@cache
def attack_chance(
    score: int, dice: int, full: int, defender: int, four_pair: bool, depth: int
) -> float:
    """The attacker's chance of winning the brawl if it rolls ``dice`` now with ``score`` set
    aside, keeping the best dice and then stopping or rolling on at best, up to ``depth`` more
    rolls (the event die left out, as in ``win_chance``). A Farkle leaves it 0 soldiers."""
    farkled = 1.0 - _beaten(0, defender, four_pair)
    chance = 0.0
    for p, choices in roll_outcomes(dice, four_pair):
        if not choices:
            chance += p * farkled
            continue
        best = 0.0
        for kept, value in choices:
            total = score + value
            here = 1.0 - _beaten(total, defender, four_pair)
            if depth > 0:
                left = dice - kept or full
                here = max(here, attack_chance(total, left, full, defender, four_pair, depth - 1))
            best = max(best, here)
        chance += p * best
    return chance
