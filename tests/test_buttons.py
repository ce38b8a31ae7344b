"""The buttons of a seat are its legal actions of the commands marked ``button``, whichever
shorter list an engine looks among (``Game.button_candidates``): in every position of many
random games of every game and option set, they equal the ones read off the whole list of
legal actions. (An engine may then pick among them: ZvV offers only its newest walls' removals.)
Besides the moves, a button may set a preference, which is no move and always allowed: Bad
Bones' "always decide for me" beside a question (``prefer … auto``), checked to parse."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import get_game
from rules.core.errors import RulesError
from rules.core.game import CommandArgs, Game
from rules.core.rng import Rng
from tests.support.fingerprint import option_sets
from tests.support.registered import generic_games, playing


def _from_every_legal_action(
    game: Game[Any], state: Any, seat: int
) -> list[tuple[str, CommandArgs]]:
    names = {c.name for c in game.commands if c.button}
    out: list[tuple[str, CommandArgs]] = []
    for action in game.legal_actions(state, seat):
        mapped = game.to_command(action)
        if mapped is not None and mapped[0] in names and mapped not in out:
            out.append(mapped)
    return out


def _positions_checked(game: Game[Any], options: dict[str, Any], seats: int, seed: int) -> int:
    """Play one random game; at every position, each seat's buttons must be exactly the legal
    actions a button makes. Returns the positions checked (0: options this count refuses)."""
    rng = Rng(seed)
    try:
        state = game.new_game(seats, options, seed)
    except RulesError:
        return 0  # an option this seat count does not allow (cooperative solo)
    now, positions = 1_000_000.0, 0
    while not game.is_over(state) and positions < 4_000:
        for seat in range(seats):
            offered = Game.buttons(game, state, seat)
            settings = [b for b in offered if b[0] == "prefer"]
            for command, args in settings:
                game.parse(command, args, state, seat)  # allowed as it is
            moves = [b for b in offered if b not in settings]
            assert moves == _from_every_legal_action(game, state, seat), (
                game.name,
                options,
                game.phase(state),
                seat,
            )
        positions += 1
        seat = rng.choice(sorted(game.pending(state)))
        game.play(state, seat, rng.choice(game.legal_actions(state, seat)), now)
        now += 1.0
    return positions


@pytest.mark.parametrize("name", generic_games())
def test_buttons_are_exactly_the_legal_button_actions(name: str) -> None:
    with playing(name):
        game = get_game(name)
        positions = 0
        for options in option_sets(game):
            for seats in sorted({game.min_seats, game.max_seats}):
                for seed in range(2):
                    if positions < 8_000:
                        positions += _positions_checked(game, options, seats, seed)
        # A short game (the template's) plays more games until as many positions are seen.
        seed = 2
        while positions <= 1000 and seed < 200:
            positions += _positions_checked(game, {}, game.max_seats, seed)
            seed += 1
        assert positions > 1000
