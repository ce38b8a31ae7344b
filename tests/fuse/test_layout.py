"""The FUSE table picture is as tall as what it draws: a hand never runs into the centre row."""

from __future__ import annotations

import random
from typing import Any

import pytest

import render.fuse as fuse_render
from rules.core import get_game


def _states(seats: int, games: int) -> list[Any]:
    engine = get_game("fuse")
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(seats, {}, seed)
        for _ in range(60):
            if engine.is_over(state):
                break
            out.append(state)
            pending = engine.pending(state)
            seat = rng.choice(sorted(pending))
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return out


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_every_hand_lies_above_the_centre_row(seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = get_game("fuse")
    drawn: list[tuple[int, int, int | None]] = []  # top, bottom, seat (None: the centre row)
    real = fuse_render.draw_card

    def recording(img: Any, x: int, y: int, card: Any, slot: int, seat: Any = None) -> None:
        drawn.append((y, y + fuse_render.card_size(card, slot)[1], seat))
        real(img, x, y, card, slot, seat)

    monkeypatch.setattr(fuse_render, "draw_card", recording)
    checked = 0
    # 6 games' first 60 steps, every third drawn: hands from the deal to their fullest beside
    # every size of centre row the game reaches (12 games drew the same layouts twice over).
    for state in _states(seats, 6)[::3]:
        drawn.clear()
        view = engine.view(state, None)
        fuse_render._table(view, [f"P{s}" for s in range(seats)], "en")
        hands = [bottom for _, bottom, seat in drawn if seat is not None]
        centre = [top for top, _, seat in drawn if seat is None]
        if hands and centre:
            checked += 1
            # the centre row's heading takes the 40 px above its first cards
            assert max(hands) <= min(centre) - 40, "a hand's card runs into the centre row"
    assert checked
