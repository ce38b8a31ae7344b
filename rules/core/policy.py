"""Computer players: ``choose(game, state, seat, level)`` picks one of the seat's legal actions.

Each game has a policy module (``rules/<game>/policy.py``) with one function,
``choose(game, state, seat, level, dice) -> Action``. They read the state only through the
engine API (``legal_actions``, ``pending``, ``apply``/``copy``, ``view``) and the plain facts of the
state a player at the table knows; never another seat's hidden cards or submissions.

Determinism: a policy draws its randomness only from ``dice()``, a :class:`Rng` seeded by a hash
of ``dump(state)`` and the seat, so the same position always gives the same choice (a replay, a
test, a bug report reproduce it). The hash is made only when a policy asks for it.

Levels: ``easy`` plays plausibly with a little randomness; ``normal`` plays a real heuristic.
See docs/bots.md.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from rules.core.actions import Action
from rules.core.game import Game
from rules.core.rng import Rng

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

# Game name -> its policy module. Adding a game is one line here.
POLICY_MODULES: dict[str, str] = {
    "badbones": "rules.badbones.policy",
    "farkle": "rules.farkle.policy",
    "fuse": "rules.fuse.policy",
    "zvv": "rules.zvv.policy",
}

Dice = Callable[[], Rng]


class Policy(Protocol):
    def __call__(
        self, game: Game[Any], state: Any, seat: int, level: str, dice: Dice
    ) -> Action: ...


_loaded: dict[str, Policy] = {}


def policy_for(name: str) -> Policy:
    """The ``choose`` function of game ``name`` (KeyError: the game has no computer player)."""
    found = _loaded.get(name)
    if found is None:
        module = importlib.import_module(POLICY_MODULES[name])
        found = _loaded[name] = module.choose
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

    action = policy_for(game.name)(game, state, seat, level, dice)
    if action in legal:
        return action
    if strict:
        raise AssertionError(f"{game.name}: policy chose illegal {action!r}")
    pending = game.pending(state).get(seat)
    if pending is not None and pending.default in legal:
        return pending.default
    return legal[0]


def play_bots(
    game: Game[Any],
    levels: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    clock_step: float = 1.0,
    max_steps: int = 20_000,
    strict: bool = False,
) -> tuple[Any, int]:
    """A whole game with one player per seat: ``levels[seat]`` is ``easy``, ``normal`` or
    ``random`` (a uniformly random legal action). Returns (final state, steps). A seeded Rng
    picks which pending seat acts first and the random seats' actions; ``strict``: see
    :func:`choose`. For tests and benchmarks."""
    rng = Rng(seed ^ 0xB075)
    state = game.new_game(len(levels), options, seed)
    now = 1_000_000.0
    steps = 0
    while not game.is_over(state):
        pending = game.pending(state)
        seat = next(iter(pending)) if len(pending) == 1 else rng.choice(sorted(pending))
        level = levels[seat]
        if level == "random":
            action = rng.choice(game.legal_actions(state, seat))
        else:
            action = choose(game, state, seat, level, strict=strict)
        game.play(state, seat, action, now)
        now += clock_step
        steps += 1
        if steps > max_steps:
            raise AssertionError(f"{game.name}: no end after {max_steps} steps (seed {seed})")
    return state, steps
