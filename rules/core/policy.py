"""Computer players: ``choose(game, state, seat, level)`` picks one of the seat's legal actions.

A game's registration (``rules/core/registry.py``) names its policy modules, each with one
function ``choose(game, state, seat, level, dice) -> Action``: ``policy`` (``easy`` and
``normal``) and, if the game has one, ``hard`` (its search, which builds on ``policy``; the
dispatch is here, so that ``policy`` never imports its search). They read the state only through the
engine API (``legal_actions``, ``pending``, ``apply``/``copy``, ``view``) and the plain facts of the
state a player at the table knows; never another seat's hidden cards or submissions.

Determinism: a policy draws its randomness only from ``dice()``, a :class:`Rng` seeded by a hash
of ``dump(state)`` and the seat, so the same position always gives the same choice (a replay, a
test, a bug report reproduce it). The hash is made only when a policy asks for it.

Levels: ``easy`` plays plausibly with a little randomness; ``normal`` plays a real heuristic;
``hard`` searches (expectimax, Monte-Carlo over ``copy``/``apply``), with its draws from
``dice()`` and a fixed count of simulations per decision, never the clock, so it is exactly as
reproducible as the others. A game without a ``hard`` module plays ``hard`` with ``policy``
(every policy branches on the levels it knows and falls through to its normal play), so a game
gains ``hard`` the day its registration names one, and ``/game addbot level:hard`` works for every game
meanwhile. See docs/bots.md.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from rules.core.actions import Action
from rules.core.errors import RulesError
from rules.core.game import Game
from rules.core.play import BOTS_SALT, Decide, play_game, random_legal
from rules.core.registry import registration
from rules.core.rng import Rng

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

Dice = Callable[[], Rng]


class Policy(Protocol):
    def __call__(
        self, game: Game[Any], state: Any, seat: int, level: str, dice: Dice
    ) -> Action: ...


_loaded: dict[str, Policy] = {}


def has_policy(name: str) -> bool:
    """Whether game ``name`` has computer players (an unknown game has none)."""
    try:
        return registration(name).policy is not None
    except RulesError:
        return False


def policy_for(name: str, level: str = "normal") -> Policy:
    """The ``choose`` function that plays ``level`` in game ``name``: its ``hard`` module for
    ``hard`` where it has one, else its policy (KeyError: the game has no computer player)."""
    entry = registration(name)
    path = entry.hard if level == "hard" and entry.hard else entry.policy
    if path is None:
        raise KeyError(name)
    found = _loaded.get(path)
    if found is None:
        found = _loaded[path] = importlib.import_module(path).choose
    return found


def position_rng(game: Game[Any], state: Any, seat: int) -> Rng:
    """A generator seeded by the position and the seat: same position, same draws."""
    text = json.dumps(game.dump(state), sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(f"{seat}|{text}".encode(), digest_size=8).digest()
    return Rng(int.from_bytes(digest, "big"))


def choose(
    game: Game[Any], state: Any, seat: int, level: str = "normal", strict: bool = False
) -> Action:
    """The action the computer takes for ``seat`` now (it must have a legal action).

    A policy's choice is checked against ``legal_actions``; should it ever pick something else
    (a bug), the seat's pending default is taken instead, so a game never breaks on a bot.
    ``strict`` (tests) raises instead of falling back."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"{game.name}: seat {seat} has no legal action")
    cached: list[Rng] = []

    def dice() -> Rng:
        if not cached:
            cached.append(position_rng(game, state, seat))
        return cached[0]

    action = policy_for(game.name, level)(game, state, seat, level, dice)
    if action in legal:
        return action
    if strict:
        raise AssertionError(f"{game.name}: policy chose illegal {action!r}")
    pending = game.pending(state).get(seat)
    if pending is not None and pending.default in legal:
        return pending.default
    return legal[0]


def by_levels(game: Game[Any], levels: Sequence[str], strict: bool = False) -> Decide[Any]:
    """How each seat of a table of computer players decides: ``levels[seat]`` is one of
    ``LEVELS`` (:func:`choose`; ``strict``: see there) or ``random`` (a uniformly random legal
    action, drawn from the game's generator)."""
    random_move = random_legal(game)

    def decide(state: Any, seat: int, rng: Rng) -> Action:
        level = levels[seat]
        if level == "random":
            return random_move(state, seat, rng)
        return choose(game, state, seat, level, strict=strict)

    return decide


def play_bots(
    game: Game[Any],
    levels: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    clock_step: float = 1.0,
    max_steps: int = 20_000,
    strict: bool = False,
) -> tuple[Any, int]:
    """A whole game with one player per seat (:func:`by_levels`). Returns (final state, steps).
    A seeded Rng picks which pending seat acts first and the random seats' actions
    (``rules.core.play``'s ``play_game``, salt ``BOTS_SALT``). For tests and benchmarks."""
    state, steps, _ = play_game(
        game,
        len(levels),
        seed,
        by_levels(game, levels, strict),
        salt=BOTS_SALT,
        options=options,
        clock_step=clock_step,
        max_steps=max_steps,
    )
    return state, steps
