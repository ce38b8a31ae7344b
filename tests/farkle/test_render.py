"""The table and board pictures: valid PNGs of a sane size, from positions along real games."""

from __future__ import annotations

import io

from PIL import Image

from render.farkle import render_board, render_table
from rules.core import Rng
from rules.farkle import GAME
from rules.farkle.state import FarkleState

NAMES = ["Ana", "Bartolomé the Magnificent of Yon", "Chen", "Dee", "Eve"]


def _states(seats: int, seed: int) -> list[FarkleState]:
    """A few positions of one random game: every stage seen once."""
    rng = Rng(seed)
    state = GAME.new_game(seats, {}, seed)
    seen: dict[str, FarkleState] = {}
    while not GAME.is_over(state):
        seen.setdefault(state.stage + state.action, state)
        pend = GAME.pending(state)
        seat = rng.choice(sorted(pend))
        legal = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(
            state, seat, rng.choice(legal) if rng.below(3) else pend[seat].default
        )
    seen["over"] = state
    return list(seen.values())


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).size


def test_table_and_board_render_at_every_stage() -> None:
    for seats, seed in ((2, 1), (5, 2)):
        for state in _states(seats, seed):
            for lang in ("en", "es"):
                w, h = _png_size(render_table(GAME.view(state, None), NAMES, lang))
                assert w == 1200 and 300 < h < 2000
            w, h = _png_size(render_board(GAME.view(state, state.turn), NAMES, "en"))
            assert w == 1200 and 300 < h < 2400


def test_the_table_is_drawn_from_the_public_view_only() -> None:
    state = GAME.new_game(3, {}, 3)
    public = GAME.view(state, None)
    assert "my_items" not in public
    assert all(isinstance(p["items"], int) for p in public["players"])
    assert render_table(public, NAMES, "en")
