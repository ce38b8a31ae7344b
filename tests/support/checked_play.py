"""A random legal game with checks along the way, for the games' property tests.

What holds for any game is checked here: a game that is not over awaits someone, an awaited
seat has legal actions and its default (what a deadline plays) is one of them, the game ends,
and every few steps the state survives JSON, the public view is JSON too, and actions the game
must refuse are refused without changing anything. What holds for one game comes in as
``invariants`` (between any two steps), ``checked`` (at the checked steps: what costs more),
``wrong`` (actions to refuse), ``choose`` (which legal action to play, to steer play towards
what a file is about) and ``step`` (a check of a step, given the state before and after it).
Each game's tests bind them once: ``play_checked = partial(checked_play.play_checked, GAME,
invariants=…)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from rules.core import Action, Event, Game, Rng, RulesError


def play_checked(
    game: Game[Any],
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    invariants: Callable[[Any], None],
    checked: Callable[[Any, int], None] | None = None,
    wrong: Callable[[Any, int, list[Action], float], Iterable[Action]] = lambda *_: (),
    every: int = 7,
    choose: Callable[[Any, int, list[Action], Rng], Action] | None = None,
    step: Callable[[Any, Any, int, list[Event]], None] | None = None,
    max_steps: int = 5_000,
    now: float = 0.0,
    clock_step: float = 1.0,
) -> Any:
    """Play ``game`` from ``seed`` with random actions (``choose``, else any legal action)
    until it is over; the final state. Every ``every`` steps, play goes on from the state as
    loaded back from JSON, ``checked(state, seat)`` runs and ``wrong(state, seat, legal,
    now)``'s actions must be refused. The clock starts at ``now`` and moves ``clock_step``
    seconds a step."""
    # Its own loop, not rules.core.play.play_game: checks between moves, play from JSON copies.
    rng = Rng(seed)
    state = game.new_game(seats, options, seed)
    steps = 0
    while not game.is_over(state):
        invariants(state)
        pending = game.pending(state)
        assert pending, f"not over but nobody is awaited ({game.phase(state)})"
        seat = rng.choice(sorted(pending))
        legal = game.legal_actions(state, seat)
        assert legal and pending[seat].default in legal, (game.phase(state), pending[seat])
        if steps % every == 0:
            data = json.loads(json.dumps(game.dump(state)))
            loaded = game.load(data)
            assert game.dump(loaded) == game.dump(state), "dump/load is lossless"
            state = loaded
            json.dumps(game.view(state, None))
            if checked is not None:
                checked(state, seat)
            before = game.dump(state)
            for action in wrong(state, seat, legal, now):
                with pytest.raises(RulesError):
                    game.apply(state, seat, action, now)
            assert game.dump(state) == before, "a refused action changes nothing"
        action = choose(state, seat, legal, rng) if choose else rng.choice(legal)
        after, events = game.apply(state, seat, action, now)
        if step is not None:
            step(state, after, seat, events)
        state = after
        now += clock_step
        steps += 1
        assert steps < max_steps, f"no end after {max_steps} steps"
    invariants(state)
    assert game.result(state) is not None
    return state
