"""The buttons of a seat are its legal actions of the commands marked ``button``, whichever
shorter list an engine looks among (``Game.button_candidates``): in every position of many
random games of every game and option set, they equal the ones read off the whole list of
legal actions. (An engine may then pick among them: ZvV offers only its newest walls' removals.)
Besides the moves, a button may set a preference, which is no move and always allowed: Bad
Bones' "always decide for me" beside a question (``prefer … auto``), checked to parse."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import game_names, get_game
from rules.core.errors import RulesError
from rules.core.game import CommandArgs, Game
from rules.core.rng import Rng
from tests.support.fingerprint import option_sets


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


@pytest.mark.parametrize("name", game_names())
def test_buttons_are_exactly_the_legal_button_actions(name: str) -> None:
    game = get_game(name)
    positions = 0
    for options in option_sets(game):
        for seats in sorted({game.min_seats, game.max_seats}):
            for seed in range(2):
                rng = Rng(seed)
                try:
                    state = game.new_game(seats, options, seed)
                except RulesError:
                    continue  # an option this seat count does not allow (cooperative solo)
                now = 1_000_000.0
                while not game.is_over(state) and positions < 8_000:
                    for seat in range(seats):
                        offered = Game.buttons(game, state, seat)
                        settings = [b for b in offered if b[0] == "prefer"]
                        for command, args in settings:
                            game.parse(command, args, state, seat)  # allowed as it is
                        moves = [b for b in offered if b not in settings]
                        assert moves == _from_every_legal_action(game, state, seat), (
                            name,
                            options,
                            game.phase(state),
                            seat,
                        )
                    positions += 1
                    seat = rng.choice(sorted(game.pending(state)))
                    game.play(state, seat, rng.choice(game.legal_actions(state, seat)), now)
                    now += 1.0
    assert positions > 1000
