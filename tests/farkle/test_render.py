"""The table and board pictures: valid PNGs of a sane size, from positions along real games."""

from __future__ import annotations

import io

from PIL import Image

from render.farkle import render_board, render_table
from rules.core import Rng
from rules.farkle import GAME
from rules.farkle.state import FarkleState
from tests.support.pixels import near

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


# ------------------------------------------------------------------ play-test findings


def _table(state: FarkleState) -> Image.Image:
    png = render_table(GAME.view(state, None), NAMES[: state.seats], "en")
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_dice_the_dragon_ate_do_not_look_like_dice_banked() -> None:
    # Play-test: the three 1s the dragon ate were greyed like dice set aside for points.
    from render.common import Draw
    from render.farkle import EATEN_RED, _run

    def first_die(event: str) -> tuple[int, ...]:
        image = Image.new("RGB", (1100, 300), (0, 0, 0))
        run = {
            "seat": 0, "dice": 5, "roll": [1, 1, 1, 2, 3], "event": event,
            "kept": [True, True, True, False, False], "aside": [1, 1, 1, 1],
            "score": 100, "gained": 0,
        }  # fmt: skip
        _run(Draw(image), run, NAMES, "en", 0, 0, "Recruit", 1000)
        pixel = image.getpixel((10, 40 + 10))  # inside die "a", off its pips and cross
        assert isinstance(pixel, tuple), "an RGB picture's pixel is its channels"
        return pixel

    eaten, banked = first_die("dragon"), first_die("blank")
    assert near(eaten, EATEN_RED) and not near(banked, EATEN_RED)
    assert banked[0] == banked[1] == banked[2]  # banked: a plain dimmed die


def test_the_marker_moves_to_the_defender_who_must_answer_a_brawl() -> None:
    # Play-test: the ▶ stayed on the attacker while the defender had to fight or flee.
    from render.common import ACCENT
    from render.farkle import ROW_H, WIDTH
    from rules.farkle.actions import Brawl
    from tests.farkle.support import new, play, rig

    state = new()
    rig(state, ([1, 5, 2, 3, 4, 6], "blank"))
    play(state, 0, Brawl(1))
    assert GAME.pending(state).keys() == {1}
    image = _table(state)
    top = 96 + 16  # the first player's row; each row is ROW_H tall
    outlined = [
        near(image.getpixel((WIDTH // 2, top + seat * ROW_H + 1)), ACCENT) for seat in range(3)
    ]
    assert outlined == [False, True, False], outlined
