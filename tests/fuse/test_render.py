"""The table picture renders for every player count and stage (the looking is done by eye)."""

from __future__ import annotations

import pytest

from render.fuse import render_board, render_table
from rules.core import Rng
from rules.fuse import FUSE
from rules.fuse.game import FuseState

NAMES = ["Ana", "Bartholomew the Great", "Chen", "Dora", "Eve"]


def _played(seats: int, seed: int, steps: int) -> FuseState:
    rng = Rng(seed)
    state = FUSE.new_game(seats, {"hard": True}, seed)
    now = 1e6
    for _ in range(steps):
        if FUSE.is_over(state):
            break
        pending = FUSE.pending(state)
        seat = rng.choice(sorted(pending))
        actions = FUSE.legal_actions(state, seat)
        useful = [a for a in actions if a.kind != "pass"]
        state, _ = FUSE.apply(state, seat, rng.choice(useful or actions), now)
        now += 1
    return state


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
