"""Random legal games: they end, the 25 dice are always somewhere, refusals change nothing."""

from __future__ import annotations

from functools import partial

import pytest

from rules.core import Action, Rng, RulesError
from rules.core.play import random_game
from rules.fuse import FUSE
from rules.fuse.dice import filled
from rules.fuse.game import Claim, FuseState, Place, Return, Take
from rules.fuse.modes import DIFFICULTIES
from tests.fuse.support import all_dice, card
from tests.support import checked_play


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("mode", ["live", "relaxed"])
def test_a_full_random_game_per_difficulty(difficulty: str, mode: str) -> None:
    for seed in range(3):
        seats = 1 + (seed + len(difficulty)) % 5
        options = {"difficulty": difficulty, "mode": mode, "hard": seed == 1}
        final, steps, events = random_game(FUSE, seats, seed, options)
        result = FUSE.result(final)
        assert result is not None and steps > 0
        assert events[-1].key.startswith(("fuse.event.won", "fuse.event.lost_"))
        # the closing message must not repeat the last event (the service shows both)
        assert result.summary is not None and result.summary.key.startswith(
            "fuse.event.final_score"
        )
        assert result.summary.args["score"] == result.scores[0]
        assert all_dice(final) == list(range(25))


def _check(state: FuseState) -> None:
    assert all_dice(state) == list(range(25))
    assert {c for h in state.hands for c in h} == set(state.dice)
    assert len(state.centre) <= 5
    for card_id in state.dice:
        # no placement ever leaves a card that can no longer be completed
        assert card(card_id).completable(filled(state, card_id))


def wrong(state: FuseState, seat: int, legal: list[Action], now: float) -> list[Action]:
    """Actions no seat may take (unless legal now); none once the clock has run out, when any
    action ends the game instead."""
    if state.clock_end is not None and now >= state.clock_end:
        return []
    bad = [Claim("R9"), Claim("K1"), Place("1-01", 1), Place("9-99", 1), Take("4-12")]
    return [a for a in (*bad, Return("1-01", 1)) if a not in legal]


play_checked = partial(
    checked_play.play_checked,
    FUSE,
    invariants=_check,
    wrong=wrong,
    every=8,
    now=5_000.0,
    clock_step=0.5,
)


def test_invariants_over_random_games() -> None:
    # 12 whole games play every seat count, both modes, hard cards and top-ups, and several
    # together (24 played the same combinations twice over).
    for seed in range(12):
        options = {
            "mode": "relaxed" if seed % 2 else "live",
            "hard": seed % 3 == 0,
            "top_up": seed % 4 == 1,
        }
        assert FUSE.pending(play_checked(1 + seed % 5, seed, options)) == {}


def test_default_actions_alone_finish_a_game() -> None:
    """Everybody AFK: the service applies the defaults; the game still ends."""
    for seats in (1, 3, 5):
        state = FUSE.new_game(seats, {"mode": "relaxed", "rounds": 30}, seats)
        steps = 0
        while not FUSE.is_over(state):
            seat, p = next(iter(FUSE.pending(state).items()))
            state, _ = FUSE.apply(state, seat, p.default, 0.0)
            steps += 1
            assert steps < 5_000
        assert state.reason == "rounds"


def test_the_service_applying_defaults_at_the_deadline_ends_a_live_game() -> None:
    """The service applies each pending default at its deadline (the clock end): the first
    one past the deadline ends the game as lost by the clock."""
    state = FUSE.new_game(4, {}, 3)
    state, _ = FUSE.apply(state, 0, FUSE.pending(state)[0].default, 100.0)
    pending = FUSE.pending(state)
    deadline = {p.deadline for p in pending.values()}
    assert deadline == {700.0}
    seat, p = next(iter(pending.items()))
    state, events = FUSE.apply(state, seat, p.default, 700.0)
    assert [e.key for e in events] == ["fuse.event.lost_clock"]
    assert FUSE.is_over(state) and FUSE.view(state, None)["reason"] == "clock"


def test_junk_actions_are_refused_cleanly() -> None:
    """Whatever a client sends, the engine answers with a RulesError (and no change) or plays
    it; never another exception."""
    rng = Rng(99)
    cards = ["1-01", "1-07", " 2-06", "x", "", "4-01"]
    tokens = ["r4", " R4 ", "Z9", "", "K", "44", "B2"]
    for seed in range(6):
        state = FUSE.new_game(1 + seed % 5, {"hard": True}, seed)
        now = 10.0
        for _ in range(150):
            if FUSE.is_over(state):
                break
            seat = rng.below(state.seats)
            junk: list[Action] = [
                Claim(rng.choice(tokens)),
                Place(rng.choice(cards + state.hands[seat]), rng.randint(-1, 7)),
                Take(rng.choice(cards + state.centre)),
                Return(rng.choice(cards + state.hands[seat]), rng.randint(0, 7)),
            ]
            for action in junk:
                before = FUSE.dump(state)
                try:
                    FUSE.apply(state, seat, action, now)
                except RulesError:
                    assert FUSE.dump(state) == before
            pending = FUSE.pending(state)
            seat = rng.choice(sorted(pending))
            state, _ = FUSE.apply(state, seat, rng.choice(FUSE.legal_actions(state, seat)), now)
            now += 1.0


@pytest.mark.parametrize(("seats", "options"), [(4, {}), (2, {"hard": True}), (1, {})])
def test_check_accepts_every_legal_action(seats: int, options: dict[str, object]) -> None:
    """The service resolves what ``parse`` found among the legal actions without checking
    again: ``check`` must accept every one of them, for every seat, at every step."""
    for seed in range(3):
        rng = Rng(seed)
        state = FUSE.new_game(seats, options, seed)
        now = 1_000_000.0
        while not FUSE.is_over(state):
            for seat in range(seats):
                for action in FUSE.legal_actions(state, seat):
                    FUSE.check(state, seat, action)
            seat = rng.choice(sorted(FUSE.pending(state)))
            FUSE.play(state, seat, rng.choice(FUSE.legal_actions(state, seat)), now)
            now += 1.0
