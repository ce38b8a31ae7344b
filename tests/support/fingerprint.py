"""A fingerprint of each engine's random play: a hash over many random games' final states,
step counts and events, for every seat count and every option set one value away from the
defaults. An engine change that must not change a rule (a refactor, a speed-up) keeps it.

``python -m tests.support.fingerprint`` prints one line per registered game and test game; ``test_fingerprint.py`` pins
them. A deliberate rule change updates the pinned value in the same commit, and says why.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from rules.core import get_game
from rules.core.game import Game
from rules.core.play import random_game


def option_sets(game: Game[Any]) -> Iterator[dict[str, Any]]:
    """The defaults, then every option set to each of its other values in turn."""
    yield {}
    for spec in game.option_specs:
        if spec.type == "bool":
            values: list[Any] = [not spec.default]
        elif spec.type == "int":
            values = [v for v in (spec.min, spec.max) if v is not None and v != spec.default]
        else:
            values = [c for c in spec.choices if c != spec.default]
        for value in values:
            yield {spec.name: value}


# 3 seeds: the third still reaches (seat count, event kind) pairs the first two miss in Bad
# Bones, Dragon Farkle and FUSE (docs/testing.md); fewer would let a rule change there go unseen.
def fingerprint(name: str, seeds: int = 3) -> str:
    game = get_game(name)
    digest = hashlib.sha256()
    for seats in range(game.min_seats, game.max_seats + 1):
        for options in option_sets(game):
            for seed in range(seeds):
                try:
                    state, steps, events = random_game(game, seats, seed, options)
                except Exception as exc:  # an option that does not fit this seat count
                    digest.update(f"{seats}{options}{seed}!{type(exc).__name__}".encode())
                    continue
                record = {
                    "seats": seats,
                    "options": options,
                    "seed": seed,
                    "steps": steps,
                    "state": game.dump(state),
                    "events": [[e.key, e.args, e.to] for e in events],
                }
                digest.update(json.dumps(record, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


if __name__ == "__main__":
    from tests.support.registered import generic_games, playing

    for name in sys.argv[1:] or generic_games():
        with playing(name):
            print(name, fingerprint(name), flush=True)
