"""``play`` accepts exactly the actions ``legal_actions`` lists: every other candidate, in any
stage, is a RulesError (never another exception) and leaves the state as it was."""

from __future__ import annotations

from itertools import combinations

from rules.core import Action, Rng, RulesError
from rules.farkle import GAME
from rules.farkle.actions import (
    AcceptFarkle,
    Bonus,
    Brawl,
    Discard,
    Double,
    Draw,
    Enter,
    Fight,
    Keep,
    Recruit,
    Reroll,
    Roll,
    Scare,
    Stop,
    UseCompanion,
    UseItem,
)
from rules.farkle.cards import ITEMS
from rules.farkle.dice import tokens
from rules.farkle.state import FarkleState


def candidates(state: FarkleState) -> list[Action]:
    out: list[Action] = [
        Recruit(),
        Enter(),
        Roll(),
        Stop(),
        Double(),
        Draw(),
        UseCompanion(),
        Fight(),
        Bonus(),
        AcceptFarkle(),
        Keep(""),
        Keep("q"),
        Reroll("z9"),
        UseItem("sword"),
        Discard("sword"),
    ]
    out += [Brawl(t) for t in range(-1, state.seats + 1)]
    out += [Scare(t) for t in range(-1, state.seats + 1)]
    r = state.roller()
    if r is not None and r.roll:
        n = len(r.roll)
        subsets = [c for k in range(1, n + 1) for c in combinations(range(n), k)]
        out += [Keep(tokens(r.roll, dice)) for dice in subsets]
        out += [Reroll(tokens(r.roll, [i])) for i in range(n)]
        out += [UseItem("loaded", tokens(r.roll, [i])) for i in range(n)]
    for item in sorted(set(ITEMS)):
        out += [UseItem(item), Discard(item)]
    return out


def test_play_accepts_exactly_the_legal_actions() -> None:
    checked = 0
    for seed in range(8):
        rng = Rng(seed)
        state = GAME.new_game(2 + seed % 4, {}, seed)
        steps = 0
        while not GAME.is_over(state) and steps < 400:
            if steps % 4 == 0:
                before = GAME.dump(state)
                for seat in range(state.seats):
                    legal = set(GAME.legal_actions(state, seat))
                    for action in candidates(state):
                        # As ``apply`` (``play`` on a copy) decides, but copying only for what
                        # the check lets through (the copy was nine tenths of the time): the
                        # check reads the position and changes nothing (asserted below).
                        try:
                            GAME.check(state, seat, action)
                            GAME.play(GAME.copy(state), seat, action, 5.0)
                            accepted = True
                        except RulesError:
                            accepted = False
                        assert accepted == (action in legal), (state.stage, seat, action)
                        checked += 1
                assert GAME.dump(state) == before
            pending = GAME.pending(state)
            seat = rng.choice(sorted(pending))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)), 5.0)
            steps += 1
    assert checked > 5_000
