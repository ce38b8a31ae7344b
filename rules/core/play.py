"""Random legal play through the public engine API only (tests, property tests, benchmarks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.events import Event
from rules.core.game import Game
from rules.core.rng import Rng


def random_game(
    game: Game[Any],
    num_seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 100_000,
    clock_step: float = 1.0,
    keep_events: bool = True,
    validate: bool = True,
) -> tuple[Any, int, list[Event]]:
    """Play a whole game with random legal actions; returns (final state, steps, events).

    Each step picks a random pending seat and one of its legal actions. Time advances by
    ``clock_step`` seconds a step (for games with a clock). Raises ``AssertionError`` if the game
    does not end within ``max_steps`` or a pending seat has no legal action (a stalled game).

    The loop owns its state and never needs an earlier one, so it plays each action in place
    (``play``) rather than through ``apply``, whose copy only protects a caller that keeps the
    old state (the service's state is loaded fresh for every command anyway).

    ``validate=False`` (benchmarks) resolves each action without checking it again, as the
    service does: it comes from ``legal_actions``, and the service validates an action once
    (``parse``), then only ``resolve``s it. Tests keep the check, which also cross-checks
    ``check`` against ``legal_actions``.

    ``keep_events=False`` (benchmarks) returns no events: a whole game's narration, kept to its
    end, is thousands of objects that outlive the young garbage collections and so make Python
    run full ones, over every cache the engines hold (up to a tenth of a random game's time).
    """
    rng = Rng(seed ^ 0x5EED)
    state = game.new_game(num_seats, options, seed)
    now = 1_000_000.0
    events: list[Event] = []
    steps = 0
    while not game.is_over(state):
        pending = game.pending(state)
        assert pending, f"{game.name}: not over but nobody is pending (phase {game.phase(state)})"
        # One pending seat (most turns): nothing to choose, so no draw is spent on it.
        seat = next(iter(pending)) if len(pending) == 1 else rng.choice(sorted(pending))
        actions = game.legal_actions(state, seat)
        assert actions, f"{game.name}: seat {seat} is pending with no legal action"
        action = rng.choice(actions)
        new = (
            game.play(state, seat, action, now)
            if validate
            else game.resolve(state, seat, action, now)
        )
        if keep_events:
            events.extend(new)
        now += clock_step
        steps += 1
        assert steps <= max_steps, f"{game.name}: no end after {max_steps} steps"
    return state, steps, events


def position_after(
    game: Game[Any],
    num_seats: int,
    seed: int,
    steps: int,
    options: Mapping[str, Any] | None = None,
    avoid: tuple[str, ...] = ("pass",),
) -> Any:
    """A mid-game position: up to ``steps`` random legal actions, preferring actions whose kind
    is not in ``avoid`` (so tables fill up), one second of clock per action. For pictures in
    tests and render benchmarks."""
    rng = Rng(seed)
    state = game.new_game(num_seats, options, seed)
    now = 1_000_000.0
    for _ in range(steps):
        if game.is_over(state):
            break
        seat = rng.choice(sorted(game.pending(state)))
        actions = game.legal_actions(state, seat)
        useful = [a for a in actions if a.kind not in avoid]
        state, _ = game.apply(state, seat, rng.choice(useful or actions), now)
        now += 1.0
    return state
