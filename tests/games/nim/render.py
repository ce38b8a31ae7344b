"""Nim's picture: the sticks left, in rows of twelve, in groups of four (what the winning play
counts in), and whose turn it is. Nothing is hidden: a seat's board is the table's picture."""

from __future__ import annotations

from typing import Any

from PIL import Image

from i18n import t
from render.common import (
    ACCENT,
    TEXT,
    TEXT_DIM,
    Draw,
    canvas,
    fit_text,
    font,
    game_palette,
    seat_colour,
)

WIDTH = 720
MARGIN = 32
STICK = (214, 170, 96)  # wood
GAP = 40  # from stick to stick
GROUP = 24  # more between groups of four
ROW = 130
PER_ROW = 12


def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    left: int = view["left"]
    rows = max(1, -(-left // PER_ROW))
    top = MARGIN + 56
    height = top + rows * ROW + 60 + MARGIN
    image = canvas(WIDTH, height)
    draw = Draw(image)
    draw.text(
        (MARGIN, MARGIN), t("nim.render.left", lang, left=left), fill=TEXT, font=font(32, True)
    )
    for n in range(left):
        x = MARGIN + 20 + (n % PER_ROW) * GAP + (n % PER_ROW) // 4 * GROUP
        y = top + (n // PER_ROW) * ROW
        draw.rounded_rectangle((x, y, x + 14, y + ROW - 24), radius=6, fill=STICK)
    seat = view["winner"] if view["winner"] >= 0 else view["turn"]
    name = names[seat] if seat < len(names) else f"P{seat + 1}"
    key = "nim.render.won" if view["winner"] >= 0 else "nim.render.turn"
    name = fit_text(draw, name, 24, WIDTH // 2, bold=True)
    line = fit_text(draw, t(key, lang, seat=name), 24, WIDTH - 2 * MARGIN - 30, bold=True)
    y = height - MARGIN - 30
    draw.ellipse((MARGIN, y + 6, MARGIN + 18, y + 24), fill=seat_colour(seat))
    draw.text(
        (MARGIN + 30, y),
        line,
        fill=ACCENT if view["winner"] >= 0 else TEXT_DIM,
        font=font(24, True),
    )
    return image


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return PALETTE.encode(table_image(view, names, lang))


def render_board(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return render_table(view, names, lang)  # nothing hidden: a seat sees the table


PALETTE = game_palette("nim")
