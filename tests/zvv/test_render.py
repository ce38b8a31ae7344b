"""The pictures render from the views (the looking is done by a person: /tmp/zvv-png/)."""

from __future__ import annotations

import io
import os

from PIL import Image

from render.zvv import render_board, render_table
from rules.core import Rng
from rules.zvv import GAME
from rules.zvv.game import ZvvState
from rules.zvv.notation import position

NAMES = ["Ana", "Bartolomé", "Chen", "Dolores"]


def _check(png: bytes, name: str) -> None:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    assert 1000 <= image.width <= 1400 and 1000 <= image.height <= 1600
    folder = "/tmp/zvv-png"
    if os.path.isdir(folder):
        with open(os.path.join(folder, f"test-{name}.png"), "wb") as out:
            out.write(png)


def _played(
    seats: int, seed: int, steps: int, options: dict[str, object] | None = None
) -> ZvvState:
    rng = Rng(seed)
    state = GAME.new_game(seats, options, seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        ((seat, pending),) = GAME.pending(state).items()
        action = pending.default if rng.below(3) else rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    return state


def test_table_and_board_render_for_every_player_count_and_size() -> None:
    for seats, size, lang in [(2, 11, "en"), (3, 15, "es"), (4, 9, "en")]:
        state = _played(seats, seats, 120, {"size": size})
        _check(render_table(GAME.view(state, None), NAMES[:seats], lang), f"table-{seats}")
        _check(render_board(GAME.view(state, 1), NAMES[:seats], lang), f"board-{seats}")


def test_mid_turn_and_finished_pictures() -> None:
    building = position(walls=["D5-F5 N", "H3-H5 W"], face="build", wall_len=3)
    _check(render_table(GAME.view(building, None), NAMES[:2], "en"), "build")
    done = _played(2, 4, 100_000, {"size": 9})
    assert GAME.is_over(done)
    _check(render_table(GAME.view(done, None), ["x" * 80, "y"], "es"), "over")


def test_a_locked_player_with_a_long_name_stays_inside_the_box() -> None:
    # Play-test: "home 7/9 · locked" ran past the player's box; "locked" is now on the name line.
    state = _played(4, 7, 60)
    state.locked = [0, 2]
    view = GAME.view(state, None)
    assert view["locked"] == [0, 2]
    for lang in ("en", "es"):
        names = ["Maximiliana de la Cruz", "Bartolomé", "Chen", "Dolores"]
        _check(render_table(view, names, lang), f"locked-{lang}")
