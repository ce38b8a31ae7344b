"""The table picture renders for every player count and stage (the looking is done by eye)."""

from __future__ import annotations

import pytest

from render.fuse import render_board, render_table
from rules.core.play import position_after
from rules.fuse import FUSE
from rules.fuse.game import FuseState

NAMES = ["Ana", "Bartholomew the Great", "Chen", "Dora", "Eve"]


def _played(seats: int, seed: int, steps: int) -> FuseState:
    return position_after(FUSE, seats, seed, steps, {"hard": True})  # type: ignore[no-any-return]


@pytest.mark.parametrize("seats", [1, 2, 5])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_table_renders_as_a_sane_png(seats: int, lang: str) -> None:
    state = _played(seats, seats, 80)
    for png in (
        render_table(FUSE.view(state, None), NAMES[:seats], lang),
        render_board(FUSE.view(state, 0), NAMES[:seats], lang),
    ):
        assert png.startswith(b"\x89PNG") and 5_000 < len(png) < 400_000


def test_the_start_and_the_end_render() -> None:
    state = FUSE.new_game(3, {"mode": "relaxed"}, 1)
    assert render_table(FUSE.view(state, None), NAMES[:3], "en").startswith(b"\x89PNG")
    state = _played(2, 4, 5_000)
    assert FUSE.is_over(state)
    assert render_table(FUSE.view(state, None), NAMES[:2], "es").startswith(b"\x89PNG")
