"""Shared drawing: fonts, the palette, text helpers and PNG encoding.

Every game's renderer draws with these, so that all tables share one look: a dark-green felt
background, light text, seat colours that stay the same across games, and sizes chosen to be
readable in Discord's preview on a phone (the preview is ~400 px wide: text under ~14 px at
full size becomes unreadable there, so body text is at least 18 px on a ~1000 px image).
"""

from __future__ import annotations

import importlib
import inspect
import io
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from types import ModuleType
from typing import Any

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# Fonts: DejaVu (Debian's fonts-dejavu-core: installed by .ci/run and deploy/Dockerfile, asked
# for by the README) has the symbols the games use; Pillow's bundled font is the fallback so
# nothing ever fails (its symbols are empty boxes).
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


def fonts_found() -> bool:
    """DejaVu, regular and bold, can be loaded (``partida doctor`` asks: without it every
    symbol of a picture is an empty box in Pillow's font)."""
    for candidates in _FONT_FILES.values():
        for candidate in candidates:
            try:
                ImageFont.truetype(candidate, 12)
                break
            except OSError:
                continue
        else:
            return False
    return True


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


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw`` whose one-line texts are drawn from a cache of their rendered masks.

    FreeType's rendering was half of a table's drawing, and a game's pictures repeat the same
    texts (labels, names, numbers) picture after picture. A cached mask is placed exactly where
    ``text`` would place its own, so the pixels are the same (tests/test_picture_look.py);
    anything else (several lines, a stroke, a fractional position) is drawn as usual."""

    def text(
        self,
        xy: tuple[float, float],
        text: Any,
        fill: Any = None,
        font: Any = None,
        anchor: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        simple = (
            not args
            and not kwargs
            and fill is not None
            and isinstance(font, ImageFont.FreeTypeFont)
            and isinstance(text, str)
            and "\n" not in text
            and all(isinstance(c, int) for c in xy)
        )
        if not simple or self.fontmode != "L":
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        mask, dx, dy = _text_mask(font, text, anchor)
        self.bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, fill=fill)


_PAD = 4  # room around a text's box, so no part of a glyph is ever cut from its mask


@lru_cache(maxsize=1024)
def _text_mask(
    font: ImageFont.FreeTypeFont, text: str, anchor: str | None
) -> tuple[Image.Image, int, int]:
    """A text's coverage mask, and where its corner sits from the point it is drawn at."""
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    size = (right - left + 2 * _PAD, bottom - top + 2 * _PAD)
    mask = Image.new("L", (max(1, size[0]), max(1, size[1])), 0)
    ImageDraw.Draw(mask).text((_PAD - left, _PAD - top), text, fill=255, font=font, anchor=anchor)
    return mask, left - _PAD, top - _PAD


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


# A fast zlib level: the pictures are flat colour, so level 3 is within ~15 % of level 6's size
# at a third of its time (bench/bench_render.py).
PNG_LEVEL = 3

Colour = tuple[int, int, int]


class FixedPalette:
    """A game's 256 colours, learnt once per process from a sample of its tables, onto which
    every picture of the game is mapped (no dithering) before a fast PNG encoding.

    An adaptive quantization per picture cost more than the drawing itself; mapping onto a
    fixed palette is ~3× cheaper and the tables are flat colour, so nothing visible is lost.
    ``colours`` are kept exactly (the game's named colours: a flat area never shifts hue, even
    one the sample never showed); the rest of the palette is learnt from ``sample()``, a picture
    of the game showing as many kinds of things as it draws (the anti-aliased edges)."""

    def __init__(
        self,
        sample: Callable[[], Image.Image],
        colours: Callable[[], Iterable[Colour]] = tuple,
    ) -> None:
        self._sample = sample
        self._colours = colours
        self._palette: Image.Image | None = None

    def image(self) -> Image.Image:
        """The palette as a "P" image (what ``Image.quantize(palette=…)`` takes)."""
        if self._palette is None:
            colours = list(dict.fromkeys(self._colours()))[:128]
            room = 256 - len(colours)
            learnt = self._sample().quantize(colors=room, method=Image.Quantize.FASTOCTREE)
            rest = (learnt.getpalette() or [])[: 3 * room]
            exact = [channel for colour in colours for channel in colour]
            palette = Image.new("P", (1, 1))
            palette.putpalette(exact + rest + [0] * (768 - len(exact) - len(rest)))
            self._palette = palette
        return self._palette

    def encode(self, image: Image.Image) -> bytes:
        """PNG bytes of ``image`` mapped onto the palette."""
        buffer = io.BytesIO()
        image.quantize(palette=self.image(), dither=Image.Dither.NONE).save(
            buffer, "PNG", compress_level=PNG_LEVEL
        )
        return buffer.getvalue()


def source_colours(*modules: ModuleType) -> list[Colour]:
    """Every RGB literal written in the modules' source (``(250, 204, 70)``): the colours a game
    fills areas with, named or inline, including those a sample game may never show."""
    found: list[Colour] = []
    for module in modules:
        for match in _RGB.finditer(inspect.getsource(module)):
            colour = (int(match[1]), int(match[2]), int(match[3]))
            if all(c <= 255 for c in colour):
                found.append(colour)
    return found


_RGB = re.compile(r"\((\d{1,3}), (\d{1,3}), (\d{1,3})\)")


def sheet(images: Sequence[Image.Image]) -> Image.Image:
    """``images`` stacked into one (a palette's sample)."""
    out = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)))
    y = 0
    for image in images:
        out.paste(image, (0, y))
        y += image.height
    return out


def sample_views(kind: str, seats: int, seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` public views spread over one random legal game of ``kind`` (a palette's
    sample: every seat colour, most kinds of things the game draws)."""
    from rules.core import Rng, get_game

    game = get_game(kind)
    rng = Rng(seed)
    state = game.new_game(seats, {}, seed)
    views = [game.view(state, None)]
    now = 1_800_000_000.0
    moves = 0
    while not game.is_over(state):
        pending = sorted(game.pending(state))
        seat = rng.choice(pending)
        game.play(state, seat, rng.choice(game.legal_actions(state, seat)), now)
        now += 1.0
        moves += 1
        if moves % 8 == 0 or game.is_over(state):  # a view of every move would cost more
            views.append(game.view(state, None))
    if len(views) <= count:
        return views
    if count < 2:
        return views[-1:]
    step = len(views) / (count - 1)
    return [views[int(step * k)] for k in range(count - 1)] + views[-1:]


def game_palette(kind: str) -> FixedPalette:
    """The fixed palette of ``kind``'s renderer (``render/<kind>.py``): the colours written in it and here, and the
    rest learnt from six tables of a random game at the most seats."""

    def sample() -> Image.Image:
        from render import table_image
        from rules.core import get_game

        seats = get_game(kind).max_seats
        names = [f"Player {seat + 1}" for seat in range(seats)]
        views = sample_views(kind, seats, seed=1, count=6)
        return sheet([table_image(kind, view, names, "en") for view in views])

    def colours() -> list[Colour]:
        from rules.core import registration

        # The game's renderer as its registration names it (``render/<game>.py`` when shipped).
        module = registration(kind).renderer or f"render.{kind}"
        return source_colours(sys.modules[__name__], importlib.import_module(module))

    return FixedPalette(sample, colours)
