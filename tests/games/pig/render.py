"""Pig's pictures (render/__init__.py): each seat's score on a bar to the goal, whose turn it
is with the points at stake, and the last roll on a die. Nothing is hidden, so a seat's board
is the table's picture."""

from __future__ import annotations

from typing import Any

from PIL import Image

from i18n import t
from render.common import (
    ACCENT,
    PANEL,
    PANEL_LIGHT,
    TEXT,
    TEXT_DIM,
    WHITE,
    Draw,
    canvas,
    fit_text,
    font,
    game_palette,
    seat_colour,
)

WIDTH = 960
MARGIN = 32
ROW = 76  # a seat's row: name above, bar below
DIE = 150  # the die's side
COLUMN = 280  # the die's column, at the right: the die, and the points at stake below it
BAR = 26
PIPS = {  # where a face's pips are, on a 3×3 grid
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
BUST = (220, 70, 60)  # a 1: the turn's points are lost


def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    """The table before encoding (a replay takes many)."""
    scores: list[int] = view["scores"]
    goal: int = view["goal"]
    top = MARGIN + 56
    height = max(top + ROW * len(scores), top + DIE + 90) + MARGIN
    image = canvas(WIDTH, height)
    draw = Draw(image)
    title = t("pig.render.title", lang, goal=goal)
    draw.text((MARGIN, MARGIN), title, fill=TEXT, font=font(32, bold=True))
    left = WIDTH - 2 * MARGIN - COLUMN - 20  # the scores' width
    for seat, score in enumerate(scores):
        y = top + ROW * seat
        playing = seat == view["turn"] and not view["over"]
        name = names[seat] if seat < len(names) else f"P{seat + 1}"
        label = fit_text(draw, name, 24, left - 120, bold=playing)
        draw.text(
            (MARGIN + 28, y), label, fill=TEXT if playing else TEXT_DIM, font=font(24, playing)
        )
        draw.ellipse((MARGIN, y + 6, MARGIN + 18, y + 24), fill=seat_colour(seat))
        if playing:
            draw.text((MARGIN - 24, y), "▶", fill=ACCENT, font=font(22, bold=True))
        bar_y = y + 34
        draw.rectangle((MARGIN, bar_y, MARGIN + left, bar_y + BAR), fill=PANEL)
        filled = left * min(score, goal) // goal
        if filled:
            draw.rectangle((MARGIN, bar_y, MARGIN + filled, bar_y + BAR), fill=seat_colour(seat))
        if playing and view["pot"]:  # what holding now would add, outlined past the score
            reach = left * min(score + view["pot"], goal) // goal
            draw.rectangle(
                (MARGIN + filled, bar_y, MARGIN + reach, bar_y + BAR), outline=ACCENT, width=3
            )
        draw.text((MARGIN + left - 8, y), str(score), fill=TEXT, font=font(24, True), anchor="ra")
    middle = WIDTH - MARGIN - COLUMN // 2
    _die(draw, middle - DIE // 2, top, view["face"])
    if view["over"]:
        best = max(scores)
        winner = names[scores.index(best)] if scores.index(best) < len(names) else "?"
        below = t("pig.render.won", lang, seat=winner)
    else:
        below = t("pig.render.turn_points", lang, pot=view["pot"])
    below = fit_text(draw, below, 24, COLUMN, bold=True)
    draw.text((middle, top + DIE + 20), below, fill=ACCENT, font=font(24, True), anchor="ma")
    return image


def _die(draw: Draw, x: int, y: int, face: int) -> None:
    """The last roll (an empty face before the first)."""
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=22, fill=WHITE if face else PANEL_LIGHT)
    colour = BUST if face == 1 else (30, 30, 30)
    step = DIE // 4
    for col, row in PIPS.get(face, ()):
        cx, cy = x + step * (col + 1), y + step * (row + 1)
        draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=colour)


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return PALETTE.encode(table_image(view, names, lang))


def render_board(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return render_table(view, names, lang)  # nothing hidden: a seat sees the table


PALETTE = game_palette("pig")
