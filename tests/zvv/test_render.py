"""The pictures render from the views (the looking is done by a person: /tmp/zvv-png/)."""

from __future__ import annotations

import io
import os

from PIL import Image

from render.common import seat_colour
from render.zvv import _Grid, _path_points, render_board, render_table
from rules.core import Rng
from rules.zvv import GAME
from rules.zvv.actions import Move
from rules.zvv.notation import position
from rules.zvv.state import ZvvState
from tests.support.pixels import near

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
    # "home 7/9 · locked" ran past the player's box; "locked" is now on the name line.
    state = _played(4, 7, 60)
    state.locked = [0, 2]
    view = GAME.view(state, None)
    assert view["locked"] == [0, 2]
    for lang in ("en", "es"):
        names = ["Maximiliana de la Cruz", "Bartolomé", "Chen", "Dolores"]
        _check(render_table(view, names, lang), f"locked-{lang}")


# ------------------------------------------------------------------ found in play


def _image(state: ZvvState, seat: int | None = None) -> Image.Image:
    png = render_table(GAME.view(state, seat), NAMES[: state.seats], "en")
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_after_rolling_a_2_the_picture_dots_every_square_the_roll_reaches() -> None:
    # "where can I go with a 2?" meant counting squares on the picture by hand.
    state = position(pawns={0: ["E5"], 1: ["E6", "F5"]}, walls=["D5-D7 W"], face="2")
    legal = {m.to for m in GAME.legal_actions(state, 0) if isinstance(m, Move)}
    view = GAME.view(state, None)
    assert set(view["reach"]) == legal and "E7" in legal  # a jump over E6 counts
    image = _image(state)
    grid = _Grid(11, 0)
    # E7 and G5 are jumps over E6 and F5; H5 is a jump and a step; E9 and H6 are too far.
    for name in ("E7", "G5", "H5", "E9", "H6"):
        assert (name in legal) == (name in ("E7", "G5", "H5")), name
        assert (name in legal) == near(image.getpixel(grid.centre(name)), seat_colour(0), tol=40), (
            name
        )
    rolled_nothing = position(pawns={0: ["E5"]})
    assert GAME.view(rolled_nothing, None)["reach"] == []  # before the roll, no dots


def test_a_jump_in_the_last_path_is_drawn_as_an_arch_beside_the_jumped_pawn() -> None:
    # the move E5 → E7 over E6 looked like two steps, its line under the E6 pawn.
    grid = _Grid(11, 0)
    points, apexes = _path_points(grid, ["E5", "E7"], occupied={"E6"})
    assert len(apexes) == 1
    x_line = grid.centre("E6")[0]
    assert abs(points[apexes[0]][0] - x_line) > grid.cell * 0.5  # out from under the pawn
    # It bulges to the free side: with D6 taken it goes east of E6.
    points, apexes = _path_points(grid, ["E5", "E7"], occupied={"E6", "D6"})
    assert points[apexes[0]][0] > x_line + grid.cell * 0.5
    steps, none = _path_points(grid, ["E5", "E6", "E7"], occupied=set())
    assert none == [] and steps == [grid.centre(n) for n in ("E5", "E6", "E7")]


def test_the_two_zombie_players_differ_by_the_shape_of_their_pawns() -> None:
    # with four players the two zombie seats differed by colour only; the third and
    # fourth players' pawns stand on rounded squares, the first two on discs.
    state = position(seats=4)
    image = _image(state)
    grid = _Grid(11, 0)
    radius = int(grid.cell * 0.42)
    for seat, square in ((0, "A1"), (2, "K1"), (1, "K11"), (3, "A11")):
        cx, cy = grid.centre(square)
        corner = image.getpixel((cx - radius + 8, cy - radius + 8))
        assert near(corner, seat_colour(seat), tol=40) == (seat >= 2), seat
