"""Shared drawing: fonts, the palette, text helpers and PNG encoding.

Every game's renderer draws with these, so that all tables share one look: a dark-green felt
background, light text, seat colours that stay the same across games, and sizes chosen to be
readable in Discord's preview on a phone (the preview is ~400 px wide: text under ~14 px at
full size becomes unreadable there, so body text is at least 18 px on a ~1000 px image).
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# Fonts: DejaVu (Debian's fonts-dejavu-core, installed by .ci/run and the README's command)
# has the symbols the games use; Pillow's bundled font is the fallback so nothing ever fails.
_FONT_FILES = {
    False: ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    True: ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
}

BACKGROUND = (28, 54, 42)  # felt green
PANEL = (40, 74, 58)
PANEL_LIGHT = (58, 98, 78)
GRID = (20, 36, 28)
TEXT = (240, 240, 230)
TEXT_DIM = (180, 196, 186)
ACCENT = (250, 204, 70)
DANGER = (220, 70, 60)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)

# One colour per seat, distinguishable for the common colour-vision deficiencies
# (Okabe–Ito palette), in seat order.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (204, 121, 167),  # reddish purple
    (213, 94, 0),  # vermilion
)


@cache
def font(size: int, bold: bool = False) -> Font:
    for candidate in _FONT_FILES[bold]:
        try:
            return ImageFont.truetype(candidate, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def canvas(width: int, height: int, colour: tuple[int, int, int] = BACKGROUND) -> Image.Image:
    return Image.new("RGB", (width, height), colour)


def text_width(draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool = False) -> int:
    box = draw.textbbox((0, 0), text, font=font(size, bold))
    return int(box[2] - box[0])


def fit_text(
    draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int, bold: bool = False
) -> str:
    """Cut ``text`` with an ellipsis so it fits ``max_width`` (long display names)."""
    if text_width(draw, text, size, bold) <= max_width:
        return text
    while text and text_width(draw, text + "…", size, bold) > max_width:
        text = text[:-1]
    return text + "…"


def wrap(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: int) -> list[str]:
    """Greedy word wrap to ``max_width`` pixels."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and text_width(draw, trial, size) > max_width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def to_png(image: Image.Image) -> bytes:
    """Encode as PNG. Tables are flat colour, so a palette image is ~4× smaller than RGB and
    looks the same; ``optimize`` costs time we do not need to spend."""
    buffer = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        buffer, "PNG", compress_level=6
    )
    return buffer.getvalue()
