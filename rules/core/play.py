"""Whole seeded games through the public engine API only (tests, property tests, benchmarks).

One way to play a seeded game: :func:`play_game`. The caller says how a seat decides
(``decide(state, seat, rng)``: a random legal action, a computer player, a variant under test)
and what it needs of the loop (the generator's salt, the clock, a step limit, events kept or
not, each action validated or not, a hook after every move); the loop does the rest the same way
for everyone: a generator seeded from the seed picks which pending seat acts first and is handed
to ``decide``, and the game is played in place to its end. :func:`random_game` (random legal
play), ``rules.core.policy.play_bots`` (a computer player a seat), the benches' games
(``bench/bench_bots.py``'s ``bench_game``: its rows, ``bench coop``, the studies built on
``seeded_game``; ``bench/grow.py``'s; the replay bench's logs) and the tests' logged games are
all this loop. Loops that differ for a reason keep their own, with a comment saying why (a
play-out from a position, a speed figure of ``apply``, a chat-pace schedule, checks between
moves).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from rules.core.actions import Action
from rules.core.events import Event
from rules.core.game import Game
from rules.core.rng import Rng

S = TypeVar("S")

# A seat's move in a seeded game: (state, seat, the game's generator) -> its action.
Decide = Callable[[S, int, Rng], Action]
# After every move: (seat, action, the time it was played at).
Played = Callable[[int, Action, float], None]

# The generators' salts (seed ^ salt): random play's, and the computer players' (play_bots and
# the bots bench, whose per-seed figures docs/bots.md quotes).
RANDOM_SALT = 0x5EED
BOTS_SALT = 0xB075
START = 1_000_000.0  # the clock at the first move, in seconds


def play_game(
    game: Game[S],
    seats: int,
    seed: int,
    decide: Decide[S],
    *,
    salt: int,
    options: Mapping[str, Any] | None = None,
    start: float = START,
    clock_step: float | Callable[[Rng], float] = 1.0,
    max_steps: int = 100_000,
    validate: bool = True,
    keep_events: bool = False,
    draw_lone_seat: bool = False,
    played: Played | None = None,
) -> tuple[S, int, list[Event]]:
    """Play a whole seeded game, ``decide`` choosing every move; returns (final state, steps,
    events: empty unless ``keep_events``).

    ``Rng(seed ^ salt)`` picks which pending seat acts when several are, and is handed to
    ``decide``. With one pending seat (most turns) there is nothing to choose, so no draw is
    spent on it, unless ``draw_lone_seat`` (the bots bench's games always draw: its per-seed
    figures depend on those draws). The clock reads ``start`` at the first move and then
    advances ``clock_step`` seconds a move (or ``clock_step(rng)``: a pace drawn after each
    move). ``played(seat, action, now)`` runs after each move (a log, a count). Raises
    ``AssertionError`` when nobody is pending in a game that is not over, or after ``max_steps``
    moves without an end (a stalled game).

    The loop owns its state and never needs an earlier one, so it plays each action in place
    (``play``) rather than through ``apply``, whose copy only protects a caller that keeps the
    old state (the service's state is loaded fresh for every command anyway).

    ``validate=False`` (benchmarks) resolves each action without checking it again, as the
    service does: it comes from ``legal_actions``, and the service validates an action once
    (``parse``), then only ``resolve``s it. Tests keep the check, which also cross-checks
    ``check`` against ``legal_actions``.

    ``keep_events=False`` (the default) keeps no events: a whole game's narration, kept to its
    end, is thousands of objects that outlive the young garbage collections and so make Python
    run full ones, over every cache the engines hold (up to a tenth of a random game's time).
    """
    rng = Rng(seed ^ salt)
    state = game.new_game(seats, options, seed)
    now = start
    events: list[Event] = []
    steps = 0
    while not game.is_over(state):
        pending = game.pending(state)
        if not pending:
            raise AssertionError(
                f"{game.name}: not over but nobody is pending (phase {game.phase(state)})"
            )
        if len(pending) == 1 and not draw_lone_seat:
            seat = next(iter(pending))
        else:
            seat = rng.choice(sorted(pending))
        action = decide(state, seat, rng)
        new = (
            game.play(state, seat, action, now)
            if validate
            else game.resolve(state, seat, action, now)
        )
        if keep_events:
            events.extend(new)
        if played is not None:
            played(seat, action, now)
        now += clock_step(rng) if callable(clock_step) else clock_step
        steps += 1
        if steps > max_steps:
            raise AssertionError(f"{game.name}: no end after {max_steps} steps (seed {seed})")
    return state, steps, events


def random_legal(game: Game[S]) -> Decide[S]:
    """How a seat decides in random play: a uniformly random legal action."""

    def decide(state: S, seat: int, rng: Rng) -> Action:
        actions = game.legal_actions(state, seat)
        assert actions, f"{game.name}: seat {seat} is pending with no legal action"
        return rng.choice(actions)

    return decide


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

    Each step picks a random pending seat and one of its legal actions (:func:`play_game` with
    :func:`random_legal`, salt ``RANDOM_SALT``). Time advances by ``clock_step`` seconds a step
    (for games with a clock). Raises ``AssertionError`` if the game does not end within
    ``max_steps`` or a pending seat has no legal action (a stalled game). ``keep_events=False``
    and ``validate=False`` (benchmarks): see :func:`play_game`."""
    return play_game(
        game,
        num_seats,
        seed,
        random_legal(game),
        salt=RANDOM_SALT,
        options=options,
        clock_step=clock_step,
        max_steps=max_steps,
        validate=validate,
        keep_events=keep_events,
    )


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
    # Its own loop, not play_game's: it stops mid-game, after ``steps`` moves, and steers them.
    rng = Rng(seed)
    state = game.new_game(num_seats, options, seed)
    now = START
    for _ in range(steps):
        if game.is_over(state):
            break
        seat = rng.choice(sorted(game.pending(state)))
        actions = game.legal_actions(state, seat)
        useful = [a for a in actions if a.kind not in avoid]
        state, _ = game.apply(state, seat, rng.choice(useful or actions), now)
        now += 1.0
    return state
