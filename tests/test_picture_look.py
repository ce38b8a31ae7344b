"""Pictures on a fixed palette look as they did with the adaptive quantization per picture.

The old encoder (every game but Bad Bones: an adaptive 256-colour quantization of each picture,
PNG level 6) is run here on the same drawing, and the decoded pixels are compared at a grid of
positions. Bad Bones already had a fixed palette: its bytes must not change at all."""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render
from render import common
from rules.core import Rng, get_game, registration
from tests.support.registered import generic_games, playing

NAMES = ["Ana", "Bartolomé the Magnificent of Yon", "Chen", "Dee", "Eve", "Fay"]
GAMES = ("farkle", "fuse", "zvv")
GRID = 48  # positions across and down


def _old_png(image: Image.Image) -> bytes:
    """Today's encoder before the fixed palettes, as render/common.py had it."""
    buffer = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        buffer, "PNG", compress_level=6
    )
    return buffer.getvalue()


def _decoded(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _pictures(kind: str) -> Iterator[tuple[str, Image.Image, bytes]]:
    """(what, drawing, new PNG) along two random games (other seeds than the palette's
    sample), at the fewest and the most seats, and a seat's board."""
    game = get_game(kind)
    module: Any = importlib.import_module(f"render.{kind}")
    for seats, seed in ((game.min_seats, 11), (game.max_seats, 12)):
        names = NAMES[:seats]
        for k, view in enumerate(common.sample_views(kind, seats, seed, count=4)):
            image = render.table_image(kind, view, names, "es" if k % 2 else "en")
            yield f"{kind} {seats} seats table {k}", image, module.PALETTE.encode(image)
    state = game.new_game(2, {}, 13)
    rng = Rng(13)
    for _ in range(6):
        if game.is_over(state):
            break
        seat = rng.choice(sorted(game.pending(state)))
        game.play(state, seat, rng.choice(game.legal_actions(state, seat)), 1e9)
    # A seat's board is drawn and encoded in one call: catch the drawing on its way in.
    palette = module.PALETTE
    drawn: list[Image.Image] = []

    class Catch:
        def encode(self, image: Image.Image) -> bytes:
            drawn.append(image)
            return bytes(palette.encode(image))

    module.PALETTE = Catch()
    try:
        board = render.render_board(kind, game.view(state, 0), NAMES[:2], "en")
    finally:
        module.PALETTE = palette
    yield f"{kind} board", drawn[0], board


@pytest.mark.parametrize("kind", GAMES)
def test_every_game_looks_the_same_on_its_fixed_palette(kind: str) -> None:
    for what, image, new in _pictures(kind):
        after = _decoded(new)
        before = _decoded(_old_png(image))
        assert after.size == before.size, what
        off = far = 0
        for gx in range(GRID):
            for gy in range(GRID):
                x = (2 * gx + 1) * after.width // (2 * GRID)
                y = (2 * gy + 1) * after.height // (2 * GRID)
                a, b = after.getpixel((x, y)), before.getpixel((x, y))
                assert isinstance(a, tuple) and isinstance(b, tuple)
                worst = max(abs(p - q) for p, q in zip(a, b, strict=True))
                off += worst > 16
                far += worst > 64
        # Flat areas keep their exact colour; only a rare anti-aliased edge pixel may differ
        # by a little more than an adaptive palette's own rounding.
        assert far == 0, f"{what}: {far} positions changed colour"
        assert off <= GRID * GRID // 500, f"{what}: {off} positions off by more than 16"


def test_the_games_named_colours_are_exact_palette_entries() -> None:
    for kind in GAMES:
        module: Any = importlib.import_module(f"render.{kind}")
        palette = module.PALETTE.image().getpalette() or []
        entries = {tuple(palette[i : i + 3]) for i in range(0, len(palette), 3)}
        for colour in (common.BACKGROUND, common.PANEL, common.TEXT, *common.SEAT_COLOURS):
            assert colour in entries, (kind, colour)


def test_bad_bones_bytes_are_unchanged() -> None:
    """Bad Bones' palette was already fixed (learnt from its sample table alone, level 3)."""
    from render import badbones

    reference = badbones._sample().quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    for view in common.sample_views("badbones", 4, seed=21, count=3):
        image = badbones.table_image(view, NAMES[:4], "en")
        buffer = io.BytesIO()
        image.quantize(palette=reference, dither=Image.Dither.NONE).save(
            buffer, "PNG", compress_level=3
        )
        assert badbones.render_table(view, NAMES[:4], "en") == buffer.getvalue()


def test_pictures_of_every_game_are_written_for_a_look(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Writes each game's table, and a phone-width copy (~400 px), to open and look at."""
    folder = tmp_path_factory.mktemp("pictures")
    for kind in generic_games():
        with playing(kind):
            view = common.sample_views(kind, 4, seed=31, count=3)[1]
            data = render.render_table(kind, view, NAMES[:4], "en")
        (folder / f"{kind}.png").write_bytes(data)
        picture = _decoded(data)
        phone = picture.resize((400, round(picture.height * 400 / picture.width)))
        phone.save(folder / f"{kind}-phone.png")
        assert 0 < len(data) <= 400_000


@pytest.mark.parametrize("kind", generic_games())
def test_cached_texts_draw_the_same_pixels(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """render/common.py's Draw places a cached text mask exactly where ImageDraw would draw
    the text: every pixel of every table is the same as with Pillow's own drawing."""
    module: Any = importlib.import_module(registration(kind).renderer or f"render.{kind}")
    seats = get_game(kind).max_seats
    shown = common.sample_views(kind, seats, seed=41, count=3)
    cached = [render.table_image(kind, view, NAMES[:seats], "es") for view in shown]
    again = [render.table_image(kind, view, NAMES[:seats], "es") for view in shown]
    monkeypatch.setattr(module, "Draw", ImageDraw.Draw)
    plain = [render.table_image(kind, view, NAMES[:seats], "es") for view in shown]
    for a, b, c in zip(cached, again, plain, strict=True):
        assert a.tobytes() == b.tobytes() == c.tobytes()
