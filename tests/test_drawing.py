"""Pictures are drawn in a worker process when there is a spare core."""

from __future__ import annotations

import pytest

from bot.service import drawing
from rules.core import get_game


async def test_a_worker_process_draws_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENDER_WORKERS", "1")
    monkeypatch.setattr(drawing, "_pool", None)
    game = get_game("zvv")
    view = game.view(game.new_game(2, {}, 1), None)
    try:
        png = await drawing.draw("zvv", view, ["Ana", "Bo"], "es", private=False)
    finally:
        pool = drawing._pool
        if pool is not None:
            pool.shutdown(wait=True)
    assert pool is not None, "a worker process was used"
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


async def test_a_game_without_a_renderer_says_so_from_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RENDER_WORKERS", "1")
    monkeypatch.setattr(drawing, "_pool", None)
    try:
        with pytest.raises(ModuleNotFoundError):
            await drawing.draw("tiny", {}, [], "en", private=False)
    finally:
        if drawing._pool is not None:
            drawing._pool.shutdown(wait=True)
