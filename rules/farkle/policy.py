"""Dragon Farkle's computer player (see docs/bots.md and docs/games/farkle.md).

``normal`` weighs every roll by expected value: rolling ``n`` dice Farkles with probability
``p(n)`` (worked out exactly below) and otherwise adds ``g(n)`` soldiers on average; the event
die's dragon eats a scoring roll (1 in 6) but lets a Farkled one stop safely, its rally doubles
(1 in 6). So one more roll with ``s`` soldiers at stake is worth it when
``(1 - p) * g > 5/6 * p * s``. It keeps the dice that leave the best such position, brawls a
rich opponent, enters the Keep with 5,000, and plays its companion and the plain items.

``easy`` keeps the biggest scoring set, stops at 350, recruits, and does something random one
time in five. Only the seat's own items are read (``players[seat].items``).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

from rules.core import Action, Game
from rules.core.policy import Dice
from rules.farkle import scoring
from rules.farkle.actions import (
    AcceptFarkle,
    Bonus,
    Brawl,
    Double,
    Draw,
    Enter,
    Fight,
    Keep,
    Recruit,
    Roll,
    Scare,
    Stop,
    UseCompanion,
    UseItem,
)
from rules.farkle.state import DIE_LETTERS, FarkleState, Roller

KEEP_ARMY = 5000  # soldiers needed to enter the Dragon's Keep (rules, Final Battle)
ENTER_ARMY = 5000  # normal enters the Keep with this many (the Final Battle costs soldiers)
STAY_ARMY = 3000  # ... and fights again from inside with this many
BRAWL_MIN = 1000  # an opponent worth brawling has this many soldiers to take
# One roll's gain, looked at alone, undervalues rolling on: a good roll leads to more good
# rolls. This weight on the expected gain stands for them (tuned by the bench).
ONWARD = 1.0
EASY_STOP = 350


@cache
def odds(dice: int, four_pair: bool) -> tuple[float, float]:
    """(Farkle probability, mean best value of a scoring roll) for ``dice`` dice, exact: every
    multiset of faces weighted by how many ordered rolls show it."""
    total = 6**dice
    farkles = 0
    value = 0
    for combo in combinations_with_replacement(range(1, 7), dice):
        weight = factorial(dice)
        for face in set(combo):
            weight //= factorial(combo.count(face))
        best = scoring.best_score(combo, four_pair)
        if best == 0:
            farkles += weight
        value += weight * best
    p = farkles / total
    return p, value / max(1, total - farkles)


def roll_gain(score: int, dice: int, four_pair: bool, onward: float = ONWARD) -> float:
    """Expected soldiers one more roll adds over stopping with ``score`` (negative: stop).
    Farkle loses the score unless the dragon shows (1/6: stop safely); a scoring roll adds
    ``g`` on a blank (4/6), twice ``g`` on a rally (1/6), nothing under the dragon (1/6)."""
    p, g = odds(dice, four_pair)
    return onward * (1 - p) * g - 5 / 6 * p * score


@cache
def roll_outcomes(
    dice: int, four_pair: bool
) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of ``dice`` faces as (probability, its (dice kept, value) choices)."""
    out = []
    for combo in combinations_with_replacement(range(1, 7), dice):
        weight = factorial(dice)
        for face in set(combo):
            weight //= factorial(combo.count(face))
        choices = tuple(
            (mask.bit_count(), value) for mask, value in scoring.options(combo, four_pair)
        )
        out.append((weight / 6**dice, choices))
    return tuple(out)


@cache
def win_chance(need: int, dice: int, full: int, four_pair: bool) -> float:
    """Chance that a run still ``need`` soldiers short, with ``dice`` to roll (``full`` after hot
    dice), gets there before a Farkle, keeping the best dice each roll. The event die is left out:
    its dragon and rally roughly cancel for a defender who only has to pass a mark."""
    if need <= 0:
        return 1.0
    chance = 0.0
    for p, choices in roll_outcomes(dice, four_pair):
        best = 0.0
        for kept, value in choices:
            left = dice - kept
            best = max(best, win_chance(need - value, left or full, full, four_pair))
        chance += p * best
    return chance


def _dice_left(r: Roller, eaten: int = 0) -> int:
    left = r.dice - len(r.aside) - eaten
    return r.dice if left <= 0 else left


def _keep_action(roll: list[int], mask: int) -> Keep:
    return Keep(" ".join(f"{DIE_LETTERS[i]}{d}" for i, d in enumerate(roll) if mask >> i & 1))


def choose(game: Game[Any], state: FarkleState, seat: int, level: str, dice: Dice) -> Action:
    legal = game.legal_actions(state, seat)
    if level == "easy":
        return _easy(game, state, seat, legal, dice)
    return normal(state, seat, legal)


def normal(state: FarkleState, seat: int, legal: list[Action], onward: float = ONWARD) -> Action:
    """``normal``'s choice among ``legal`` (also the playout policy of ``hard``'s search);
    ``onward`` weighs what rolling on adds (``bench/farkle_tune.py`` varies it)."""
    stage = state.stage
    me = state.players[seat]
    r = state.defence if state.defence is not None else state.attack
    if stage == "choose":
        return _choose_action(state, seat, legal)
    if stage == "respond":
        return _first(legal, UseItem("cloak")) if me.army >= 500 else Fight()
    if stage == "pickpocket":
        return Bonus()
    if stage == "discard":
        return legal[0]
    if stage == "battle":
        return _first(legal, UseItem("arrow"), Roll())
    if stage == "review":
        assert r is not None
        # The Siege Engineer re-rolls a blank event die: every other face hurts the dragon.
        return UseCompanion() if r.event == "blank" and UseCompanion() in legal else Roll()
    assert r is not None
    defending = state.defence is not None
    if stage == "rally":
        return Double() if r.last >= 100 else Draw()
    if stage == "farkle":
        return _first(legal, UseCompanion(), UseItem("draught"), UseItem("potion"), AcceptFarkle())
    if stage == "roll":
        return _best_keep(state, r, defending, onward)
    # next, dragon, dodge: roll on or stop
    eaten = 0
    if stage == "dragon":
        mask = scoring.all_scoring_mask(r.roll, state.four_pair)
        eaten = mask.bit_count()
        if UseItem("repellent") in legal and (scoring.mask_value(r.roll, mask) or 0) >= 300:
            return UseItem("repellent")
    left = len(r.roll) if stage == "dodge" else _dice_left(r, eaten)
    if defending and state.attack is not None:
        # Only beating the attacker counts: stop when ahead, roll on when behind.
        return Stop() if r.score > state.attack.score else Roll()
    return Roll() if roll_gain(r.score, left, state.four_pair, onward) > 0 else Stop()


def _choose_action(state: FarkleState, seat: int, legal: list[Action]) -> Action:
    me = state.players[seat]
    others = [t for t in range(state.seats) if t != seat]
    leader = max(others, key=lambda t: state.players[t].army)
    if Scare(leader) in legal and state.players[leader].army >= 1500:
        return Scare(leader)
    if Enter() in legal and me.army >= (STAY_ARMY if me.in_keep else ENTER_ARMY):
        return Enter()
    targets = [a for a in legal if isinstance(a, Brawl)]
    if targets:
        rich = max(targets, key=lambda a: (state.players[a.target].army, -a.target))
        theirs = state.players[rich.target].army
        # A brawl wins the difference (up to their army) plus 500, so it beats a Recruit when
        # they have soldiers to take and we risk less than they do.
        if theirs >= BRAWL_MIN and theirs >= me.army // 2:
            return rich
    return Recruit()


def _best_keep(state: FarkleState, r: Roller, defending: bool, onward: float = ONWARD) -> Action:
    """The selection that leaves the best position: its value plus what rolling on adds."""
    best: tuple[float, int, int] | None = None
    target = state.attack.score if defending and state.attack is not None else None
    for mask, value in scoring.options(r.roll, state.four_pair):
        score = r.score + value
        left = r.dice - len(r.aside) - mask.bit_count()
        left = r.dice if left <= 0 else left
        if target is not None:
            # A defender only has to pass the attacker: keep the dice that give the best chance
            # of getting there (setting aside more often beats keeping dice to roll).
            need = target + 1 - score
            worth = win_chance(need, left, r.dice, state.four_pair) * 1e6 + score
        else:
            worth = score + max(0.0, roll_gain(score, left, state.four_pair, onward))
        key = (worth, -mask.bit_count(), -mask)
        if best is None or key > best:
            best = key
    assert best is not None
    return _keep_action(r.roll, -best[2])


def _first(legal: list[Action], *wanted: Action) -> Action:
    for action in wanted:
        if action in legal:
            return action
    return legal[0]


def _easy(
    game: Game[Any], state: FarkleState, seat: int, legal: list[Action], dice: Dice
) -> Action:
    default = game.pending(state)[seat].default
    if dice().below(5) == 0:
        return dice().choice(legal)
    stage = state.stage
    r = state.defence if state.defence is not None else state.attack
    if stage == "choose":
        return Enter() if Enter() in legal else Recruit()
    if stage in ("next", "dragon", "dodge") and r is not None and state.defence is None:
        return Stop() if r.score >= EASY_STOP else Roll()
    return default
