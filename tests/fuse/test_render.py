"""The table picture renders for every player count and stage (the looking is done by eye)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from render.fuse import render_board, render_table
from rules.core.play import position_after
from rules.fuse import FUSE
from rules.fuse.game import FuseState
from tests.support.pixels import near

if TYPE_CHECKING:
    from PIL import Image

NAMES = ["Ana", "Bartholomew the Great", "Chen", "Dora", "Eve"]


def _played(seats: int, seed: int, steps: int) -> FuseState:
    return position_after(FUSE, seats, seed, steps, {"hard": True})


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


# ------------------------------------------------------------------ play-test findings


def _card(dice: list[str | None], safe: list[bool], colour: str = "R", n: int = 5) -> dict:
    """A player's card of two "red 5" slots (shaped like the view's cards)."""
    slot = {"text": f"[{colour}{n}]", "mark": "", "alts": [{"c": colour, "n": n}]}
    return {
        "id": "1-99", "level": 1, "points": 1, "text": "",
        "slots": [slot, dict(slot)], "parts": [{"layout": "row", "rows": [[0, 1]]}],
        "dice": dice, "safe": safe,
    }  # fmt: skip


def _drawn(card: dict) -> tuple[Image.Image, int, int]:
    from PIL import Image

    from render.fuse import CARD_PAD, HEADER_H, draw_card

    image = Image.new("RGB", (400, 200), (0, 0, 0))
    draw_card(image, 0, 0, card, 56)
    return image, CARD_PAD, CARD_PAD + HEADER_H  # the first slot's top left corner


def test_an_empty_red_5_slot_does_not_look_like_a_red_5_placed() -> None:
    # Play-test: an empty "red 5" slot and a red 5 die on it were drawn alike.
    from render.fuse import CARD_BG, DIE_COLOURS, SLOT_GAP, SOCKET, SOCKET_EDGE

    image, x, y = _drawn(_card(["R5", None], [False, False]))
    second = x + 56 + SLOT_GAP  # the empty slot
    corner_placed = image.getpixel((x + 1, y + 1))
    corner_empty = image.getpixel((second + 1, y + 1))
    well = image.getpixel((second + 2, y + 28))
    assert near(corner_empty, SOCKET_EDGE) or near(corner_empty, SOCKET)  # a dashed well
    assert near(corner_placed, CARD_BG)  # a die's rounded corner: the card shows round it
    assert near(well, SOCKET) or near(well, SOCKET_EDGE)

    # Both still say "red"; the placed die is solid red, the empty slot striped (red and well).
    def patch(left: int) -> list[float | tuple[int, ...] | None]:
        return [
            image.getpixel((left + i, y + j))
            for i in range(12, 44)  # a strip along the top, above the number
            for j in range(5, 10)
        ]

    placed, empty = patch(x), patch(second)
    assert all(near(p, DIE_COLOURS["R"]) for p in placed)
    assert sum(near(p, DIE_COLOURS["R"]) for p in empty) > len(empty) // 3
    assert sum(near(p, SOCKET) for p in empty) > len(empty) // 6


def test_a_black_slot_is_framed_so_it_shows_on_the_dark_card() -> None:
    from render.fuse import BLACK_EDGE

    image, x, y = _drawn(_card([None, None], [False, False], colour="K", n=3))
    inset = 4
    frame = image.getpixel((x + inset + 1, y + 28))
    assert near(frame, BLACK_EDGE)


def test_the_safe_mark_is_large_enough_for_a_phone() -> None:
    # Play-test: the 12-px dot on a safe die could not be seen in a phone's preview.
    from render.common import ACCENT

    image, x, y = _drawn(_card(["R5", "R5"], [True, False]))
    row = [image.getpixel((px, y + 56 - 10)) for px in range(x, x + 56)]
    assert sum(1 for p in row if near(p, ACCENT, 40)) >= 16  # the old dot was 12 px across


def test_slot_numbers_and_safe_badges_stay_legible_on_a_phone() -> None:
    # Play-test: on a 400-px phone preview the 22-px slot numbers and badges read as specks.
    import io

    from PIL import Image

    from render.fuse import LOCK, NUMBER_SIZE, render_table
    from rules.core.play import position_after
    from rules.fuse import FUSE

    state = position_after(FUSE, 2, 2, 60, {"hard": True})
    width = Image.open(io.BytesIO(render_table(FUSE.view(state, None), ["Ana", "Bea"], "en"))).width
    scale = 400 / width
    assert NUMBER_SIZE * scale >= 9 and LOCK * scale >= 9
