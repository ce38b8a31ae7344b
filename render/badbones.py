"""Bad Bones pictures: the whole table after a phase, and one player's board, larger.

Drawn only from ``view`` dicts (``BadBones.view``): the table from the public view, which holds
no hidden submission, so the picture cannot leak one. Every board is the 5×5 grid with its
coordinates (letters above, digits on the left), the three forests around it with the
skeletons waiting there, and the village below. Skeletons are arrow-shaped tokens pointing where
they walk, in their symbol's colour and shape, with a count when several stand together.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image

from i18n import t
from render.common import (
    ACCENT,
    BACKGROUND,
    DANGER,
    PANEL,
    TEXT,
    TEXT_DIM,
    Draw,
    FixedPalette,
    canvas,
    fit_text,
    font,
    seat_colour,
    text_width,
    wrap,
)
from rules.badbones import questions

Colour = tuple[int, int, int]

SYMBOL_COLOURS: dict[str, Colour] = {
    "pink": (236, 100, 180),
    "yellow": (240, 190, 20),
    "red": (215, 45, 40),
    "blue": (35, 110, 220),
    "green": (30, 160, 70),
}
SYMBOLS = ("pink", "yellow", "red", "blue", "green")
ICE = (226, 236, 243)
BONE = (236, 230, 212)  # a stack of several symbols
ICE_LINE = (160, 182, 200)
ARROW_INK = (150, 174, 196)
FOREST = (20, 92, 52)
FOREST_EDGE = (12, 60, 34)
VILLAGE = (110, 84, 58)
HOUSE = (246, 222, 170)
ROOF = (190, 70, 50)
BURNT = (70, 66, 62)
STONE = (132, 136, 142)
INK = (30, 30, 34)
TRAP_COLOURS: dict[str, Colour] = {
    "wall": (156, 156, 150),
    "catapult": (156, 100, 52),
    "dragon": (206, 62, 40),
    "treasure": (236, 186, 40),
    "barricade": (120, 78, 40),
    "bomb": (60, 60, 66),
    "hearse": (96, 60, 120),
    "labyrinth": (245, 245, 245),
    "portal": (110, 70, 200),
    "spring": (40, 150, 150),
}
TRAP_GLYPHS = {
    "catapult": "↷",
    "dragon": "✥",
    "treasure": "❖",
    "barricade": "▦",
    "bomb": "✹",
    "hearse": "⚰",
    "labyrinth": "▩",
    "portal": "◎",
    "spring": "⇈",
}
# Skeleton chiefs: an orange-bordered token with the chief's sign instead of the symbol.
CHIEF_ORANGE = (255, 140, 0)
CHIEF_GLYPHS = {
    "artificer": "⚒",
    "necromancer": "☠",
    "nice": "♥",
    "instructor": "⚑",
    "spectral": "✦",
    "saboteur": "⚡",
    "emperor": "♛",
}
FROST = (120, 200, 255)
CAPITAL = (150, 120, 70)
DIRS = "NESW"
_HERO_STEPS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


# ----------------------------------------------------------------------------- small shapes


def _rotate(
    points: list[tuple[float, float]], facing: str, cx: float, cy: float
) -> list[tuple[float, float]]:
    """Points drawn facing N (relative to the centre) turned to ``facing``."""
    out = []
    for x, y in points:
        if facing == "E":
            x, y = -y, x
        elif facing == "S":
            x, y = -x, -y
        elif facing == "W":
            x, y = y, -x
        out.append((cx + x, cy + y))
    return out


def draw_symbol(
    draw: Draw,
    symbol: str,
    cx: float,
    cy: float,
    r: float,
    fill: Colour,
    outline: Colour | None = None,
) -> None:
    """The five forest symbols: pink star, yellow circle, red open triangle, blue heart, green
    diamond."""
    if symbol == "pink":
        pts = []
        for k in range(8):
            rad = r if k % 2 == 0 else r * 0.42
            dx, dy = [
                (0, -1),
                (0.7, -0.7),
                (1, 0),
                (0.7, 0.7),
                (0, 1),
                (-0.7, 0.7),
                (-1, 0),
                (-0.7, -0.7),
            ][k]
            pts.append((cx + dx * rad, cy + dy * rad))
        draw.polygon(pts, fill=fill, outline=outline)
    elif symbol == "yellow":
        draw.ellipse(
            (cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill, outline=outline
        )
    elif symbol == "red":
        # An open triangle, apex up, with a dot: a filled down-pointing one read as "walk
        # down" on a token already shaped like an arrow.
        pts = [(cx, cy - r * 0.95), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
        if outline is not None:
            draw.line([*pts, pts[0]], fill=outline, width=max(3, int(r * 0.5)), joint="curve")
        draw.line([*pts, pts[0]], fill=fill, width=max(2, int(r * 0.3)), joint="curve")
        dot = max(1.5, r * 0.2)
        draw.ellipse((cx - dot, cy + r * 0.25 - dot, cx + dot, cy + r * 0.25 + dot), fill=fill)
    elif symbol == "blue":
        q = r * 0.52
        draw.ellipse((cx - 2 * q, cy - r * 0.8, cx, cy - r * 0.8 + 2 * q), fill=fill)
        draw.ellipse((cx, cy - r * 0.8, cx + 2 * q, cy - r * 0.8 + 2 * q), fill=fill)
        draw.polygon(
            [
                (cx - 1.93 * q, cy - r * 0.8 + 1.3 * q),
                (cx + 1.93 * q, cy - r * 0.8 + 1.3 * q),
                (cx, cy + r),
            ],
            fill=fill,
        )
    else:
        draw.polygon(
            [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)],
            fill=fill,
            outline=outline,
        )


def draw_skeleton(
    draw: Draw,
    symbol: str,
    facing: str,
    cx: float,
    cy: float,
    size: float,
    count: int = 1,
    chief: str = "",
    frozen: bool = False,
) -> None:
    """An arrow-shaped token pointing where the skeleton walks (a chief: thick orange border
    and its sign; frozen by the ice wand: a blue halo and a snowflake)."""
    h = size / 2
    shape = [(-h, h), (h, h), (h, -h * 0.15), (0, -h * 1.2), (-h, -h * 0.15)]
    pts = _rotate(shape, facing, cx, cy)
    if frozen:
        draw.polygon(_rotate([(x * 1.3, y * 1.3) for x, y in shape], facing, cx, cy), fill=FROST)
    draw.polygon(
        pts,
        fill=SYMBOL_COLOURS.get(symbol, BONE),
        outline=CHIEF_ORANGE if chief else INK,
        width=max(4, int(size / 7)) if chief else max(2, int(size / 18)),
    )
    if chief:
        draw.text(
            (cx, cy + (0 if facing in "EW" else (h * 0.12 if facing == "N" else -h * 0.12))),
            CHIEF_GLYPHS.get(chief, "?"),
            font=font(max(12, int(h * 1.1)), True),
            fill=(255, 255, 255),
            anchor="mm",
            stroke_width=2,
            stroke_fill=INK,
        )
    elif symbol in SYMBOL_COLOURS:
        draw_symbol(
            draw,
            symbol,
            cx,
            cy + (0 if facing in "EW" else (h * 0.12 if facing == "N" else -h * 0.12)),
            h * 0.5,
            (255, 255, 255),
        )
    if count > 1:
        f = font(max(16, int(size * 0.5)), True)
        label = str(count)
        draw.text(
            (cx + h * 0.55, cy + h * 0.55),
            label,
            font=f,
            fill=(255, 255, 255),
            anchor="mm",
            stroke_width=3,
            stroke_fill=INK,
        )
    if frozen:
        draw.text(
            (cx - h * 0.6, cy - h * 0.6),
            "❄",
            font=font(max(12, int(size * 0.4)), True),
            fill=(255, 255, 255),
            anchor="mm",
            stroke_width=2,
            stroke_fill=(30, 90, 160),
        )


def draw_star_row(draw: Draw, x: float, y: float, n: int, size: int) -> None:
    f = font(size, True)
    draw.text(
        (x, y), "★" * n, font=f, fill=(255, 226, 60), anchor="lm", stroke_width=2, stroke_fill=INK
    )


def draw_trap(draw: Draw, trap: dict[str, Any], x: float, y: float, c: float) -> None:
    """A trap tile filling a cell: wall as its mirror line, the others as glyphs; a damaged tile
    is darker, crossed by a crack, with its (fewer) stars."""
    kind = trap["trap"]
    colour = TRAP_COLOURS.get(kind, (120, 120, 120))
    damaged = trap["side"] == "damaged"
    pad = c * 0.07
    if trap["side"] == "blast":
        # The bomb's blast area: a scorched ring with a hole (the printed arrow shows through).
        draw.ellipse(
            (x + pad, y + pad, x + c - pad, y + c - pad),
            outline=(50, 40, 36),
            width=max(5, int(c / 7)),
        )
        for k in range(8):
            a = k * math.pi / 4
            r0, r1 = c * 0.3, c * 0.47
            draw.line(
                (
                    x + c / 2 + r0 * math.cos(a),
                    y + c / 2 + r0 * math.sin(a),
                    x + c / 2 + r1 * math.cos(a),
                    y + c / 2 + r1 * math.sin(a),
                ),
                fill=(240, 120, 30),
                width=max(2, int(c / 22)),
            )
        return
    if kind == "labyrinth" and trap.get("orientation") == "black":
        colour = (34, 34, 38)
    if damaged:
        colour = tuple(int(v * 0.68) for v in colour)  # type: ignore[assignment]
    draw.rounded_rectangle(
        (x + pad, y + pad, x + c - pad, y + c - pad),
        radius=c * 0.12,
        fill=colour,
        outline=INK,
        width=2,
    )
    if kind == "wall":
        w = max(4, int(c / 7))
        if trap["orientation"] == "/":
            draw.line(
                (x + c * 0.2, y + c * 0.8, x + c * 0.8, y + c * 0.2), fill=(70, 64, 60), width=w
            )
        else:
            draw.line(
                (x + c * 0.2, y + c * 0.2, x + c * 0.8, y + c * 0.8), fill=(70, 64, 60), width=w
            )
    else:
        glyph = TRAP_GLYPHS.get(kind, "?")
        ink = (255, 255, 255) if kind != "treasure" else (90, 50, 10)
        if kind == "labyrinth":
            ink = INK if trap.get("orientation") != "black" else (245, 245, 245)
        draw.text(
            (x + c / 2, y + c * 0.44),
            glyph,
            font=font(int(c * (0.85 if kind == "hearse" else 0.52)), True),
            fill=ink,
            anchor="mm",
        )
    if damaged:
        draw.line(
            [
                (x + c * 0.62, y + pad),
                (x + c * 0.52, y + c * 0.3),
                (x + c * 0.66, y + c * 0.45),
                (x + c * 0.55, y + c * 0.62),
            ],
            fill=INK,
            width=max(2, int(c / 28)),
        )
    if trap["stars"]:
        draw_star_row(draw, x + c * 0.12, y + c * 0.82, int(trap["stars"]), max(12, int(c * 0.2)))


def draw_hero(draw: Draw, cx: float, cy: float, r: float, colour: Colour) -> None:
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=(255, 255, 255),
        outline=colour,
        width=max(3, int(r / 4)),
    )
    draw.text((cx, cy + r * 0.05), "⚔", font=font(int(r * 1.35), True), fill=INK, anchor="mm")


def draw_tower(draw: Draw, cx: float, cy: float, c: float, floors: int, max_floors: int) -> None:
    """The tower with its number of floors still standing, big enough for a phone."""
    r = c * 0.44
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=STONE if floors else BURNT, outline=INK, width=3
    )
    draw.text(
        (cx - c * 0.13, cy), "♜", font=font(int(c * 0.42), True), fill=(235, 235, 235), anchor="mm"
    )
    draw.text(
        (cx + c * 0.19, cy + c * 0.02),
        str(floors),
        font=font(int(c * 0.42), True),
        fill=ACCENT if floors else DANGER,
        anchor="mm",
        stroke_width=2,
        stroke_fill=INK,
    )


def draw_ruin(draw: Draw, cx: float, cy: float, c: float) -> None:
    """A destroyed cooperative tower: rubble with its arrow pointing N (towards the capital)."""
    r = c * 0.4
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BURNT, outline=INK, width=2)
    draw_chevron(draw, "N", cx, cy, c * 0.26)


def draw_house(draw: Draw, x: float, y: float, w: float, intact: bool) -> None:
    body = HOUSE if intact else BURNT
    roof = ROOF if intact else (40, 36, 34)
    draw.polygon([(x, y + w * 0.45), (x + w / 2, y), (x + w, y + w * 0.45)], fill=roof, outline=INK)
    draw.rectangle((x + w * 0.12, y + w * 0.45, x + w * 0.88, y + w), fill=body, outline=INK)
    if not intact:
        draw.line((x + w * 0.15, y + w * 0.3, x + w * 0.85, y + w), fill=DANGER, width=3)
        draw.line((x + w * 0.85, y + w * 0.3, x + w * 0.15, y + w), fill=DANGER, width=3)


def draw_chevron(draw: Draw, facing: str, cx: float, cy: float, s: float) -> None:
    """A printed reorientation arrow (faint, under everything)."""
    shape = [
        (0, -s),
        (s * 0.8, s * 0.15),
        (s * 0.35, s * 0.15),
        (s * 0.35, s),
        (-s * 0.35, s),
        (-s * 0.35, s * 0.15),
        (-s * 0.8, s * 0.15),
    ]
    draw.polygon(_rotate(shape, facing, cx, cy), fill=ARROW_INK)


# ----------------------------------------------------------------------------- one board


def _cell(square: str) -> tuple[int, int]:
    return "ABCDE".index(square[0]), int(square[1]) - 1


def board_size(c: int) -> tuple[int, int]:
    """(width, height) of a board block drawn with cell size ``c``."""
    label, forest, village = int(c * 0.36), int(c * 0.62), int(c * 0.62)
    return label + 2 * forest + 5 * c, label + forest + 5 * c + village


_SPRITES: dict[tuple[Any, ...], Image.Image] = {}


def _sprite(key: tuple[Any, ...], w: int, h: int, paint: Any) -> Image.Image:
    """A transparent picture drawn once and pasted many times (tokens, tiles): drawing the same
    glyphs and polygons for every skeleton of six boards is most of the rendering time."""
    sprite = _SPRITES.get(key)
    if sprite is None:
        sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        paint(Draw(sprite))
        if len(_SPRITES) > 4000:
            _SPRITES.clear()
        _SPRITES[key] = sprite
    return sprite


def paste_skeleton(
    img: Image.Image,
    symbol: str,
    facing: str,
    cx: float,
    cy: float,
    size: float,
    count: int,
    chief: str = "",
    frozen: bool = False,
) -> None:
    side = int(size * 1.7) + 8
    sprite = _sprite(
        ("skel", symbol, facing, int(size), count, chief, frozen),
        side,
        side,
        lambda d: draw_skeleton(
            d, symbol, facing, side / 2, side / 2, int(size), count, chief, frozen
        ),
    )
    img.paste(sprite, (int(cx - side / 2), int(cy - side / 2)), sprite)


def paste_trap(img: Image.Image, trap: dict[str, Any], x: float, y: float, c: int) -> None:
    key = ("trap", trap["trap"], trap["side"], trap["orientation"], int(trap["stars"]), c)
    sprite = _sprite(key, c + 1, c + 1, lambda d: draw_trap(d, trap, 0, 0, c))
    img.paste(sprite, (int(x), int(y)), sprite)


def _background(c: int, arrows: tuple[tuple[str, str], ...], coop: bool = False) -> Image.Image:
    """What is printed on a board: coordinates, forests with their symbols, the village strip,
    the grid and its arrows (drawn once per size). The cooperative side has the capital above
    the grid and the "top" forest below it."""
    key = ("board", c, arrows, coop)
    if key in _SPRITES:
        return _SPRITES[key]
    w, h = board_size(c)
    img = canvas(w, h, PANEL)
    draw = Draw(img)
    label, forest, village = int(c * 0.36), int(c * 0.62), int(c * 0.62)
    gx, gy = label + forest, label + forest
    size = 5 * c
    lf = font(max(16, int(c * 0.3)), True)
    for i in range(5):
        draw.text((gx + i * c + c / 2, label / 2), "ABCDE"[i], font=lf, fill=TEXT, anchor="mm")
        draw.text((label / 2, gy + i * c + c / 2), str(i + 1), font=lf, fill=TEXT, anchor="mm")
    top, bottom = (CAPITAL, FOREST) if coop else (FOREST, VILLAGE)
    draw.rectangle((gx - forest, gy - forest, gx + size + forest - 1, gy - 1), fill=top)
    draw.rectangle((gx - forest, gy, gx - 1, gy + size - 1), fill=FOREST)
    draw.rectangle((gx + size, gy, gx + size + forest - 1, gy + size - 1), fill=FOREST)
    draw.rectangle(
        (gx - forest, gy + size, gx + size + forest - 1, gy + size + village - 1), fill=bottom
    )
    if coop:
        cap = font(max(16, int(c * 0.28)), True)
        label_text = "▲ ♜ ▲"
        draw.text((gx + size / 2, gy - forest / 2), label_text, font=cap, fill=HOUSE, anchor="mm")
    draw.rectangle((gx, gy, gx + size - 1, gy + size - 1), fill=ICE)
    for i in range(6):
        draw.line((gx + i * c, gy, gx + i * c, gy + size), fill=ICE_LINE, width=2)
        draw.line((gx, gy + i * c, gx + size, gy + i * c), fill=ICE_LINE, width=2)
    for square, facing in arrows:
        col, row = _cell(square)
        draw_chevron(draw, facing, gx + col * c + c / 2, gy + row * c + c / 2, c * 0.2)
    for cx, cy, symbol in _forest_spots(c, coop):
        draw_symbol(draw, symbol, cx, cy, forest * 0.2, SYMBOL_COLOURS[symbol], FOREST_EDGE)
    _SPRITES[key] = img
    return img


def _forest_spots(c: int, coop: bool = False) -> list[tuple[float, float, str]]:
    return [(cx, cy, symbol) for (_, symbol), (cx, cy, _) in _forest_entries(c, coop).items()]


def _forest_entries(c: int, coop: bool = False) -> dict[tuple[str, str], tuple[float, float, str]]:
    """Where each model waits in its forest (relative to the board block) and its facing."""
    label, forest = int(c * 0.36), int(c * 0.62)
    gx, gy = label + forest, label + forest
    size = 5 * c
    out = {}
    for i, symbol in enumerate(SYMBOLS):
        if coop:  # the "top" forest lies below the grid on the cooperative side
            out[("top", symbol)] = (gx + i * c + c / 2, gy + size + forest / 2, "N")
        else:
            out[("top", symbol)] = (gx + i * c + c / 2, gy - forest / 2, "S")
        out[("left", symbol)] = (gx - forest / 2, gy + (4 - i) * c + c / 2, "E")
        out[("right", symbol)] = (gx + size + forest / 2, gy + i * c + c / 2, "W")
    return out


def draw_board(
    img: Image.Image,
    draw: Draw,
    board: dict[str, Any],
    view: dict[str, Any],
    x: int,
    y: int,
    c: int,
    colour: Colour,
) -> None:
    """The grid with coordinates, forests, village, traps, tower, hero and skeletons."""
    label, forest, village = int(c * 0.36), int(c * 0.62), int(c * 0.62)
    gx, gy = x + label + forest, y + label + forest  # grid origin
    size = 5 * c
    coop = bool(view.get("cooperative"))
    img.paste(_background(c, tuple(sorted(view.get("arrows", {}).items())), coop), (x, y))
    # the skeletons waiting in the forests, at their entry (a chief apart, beside them)
    waiting: dict[tuple[str, str, str], int] = {}
    for s in board["forest"]:
        key = (s["forest"], s["symbol"], s.get("chief", ""))
        waiting[key] = waiting.get(key, 0) + 1
    entries = _forest_entries(c, coop)
    shift: dict[tuple[str, str], int] = {}
    for (where, symbol, chief), n in sorted(waiting.items(), key=lambda kv: kv[0][2]):
        cx, cy, facing = entries[(where, symbol)]
        k = shift.get((where, symbol), 0)
        shift[(where, symbol)] = k + 1
        off = k * forest * 0.34
        if where == "top":
            cx += off
        else:
            cy += off
        paste_skeleton(img, symbol, facing, x + cx, y + cy, forest * 0.78, n, chief)
    # the village: one house per house of the game, burnt ones dark
    houses, max_houses = board["houses"], board["max_houses"]
    hw = village * 0.72
    start = gx + size / 2 - (max_houses * hw * 1.35) / 2
    for k in range(max_houses):
        draw_house(draw, start + k * hw * 1.35, gy + size + (village - hw) / 2, hw, k < houses)
    # tower(s), traps, hero, skeletons
    ruins = board.get("ruins", [])
    for square in view.get("towers", ["C3"]):
        col, row = _cell(square)
        cx, cy = gx + col * c + c / 2, gy + row * c + c / 2
        if coop and square in ruins:
            draw_ruin(draw, cx, cy, c)
        elif coop:
            draw_tower(draw, cx, cy, c, 1, 1)
        else:
            draw_tower(draw, cx, cy, c, board["floors"], board["max_floors"])
    for trap in board["traps"]:
        col, row = _cell(trap["square"])
        paste_trap(img, trap, gx + col * c, gy + row * c, c)
    for placing in view.get("placing", []):
        if placing["seat"] == board["seat"]:
            col, row = _cell(placing["square"])
            stars = 3 if placing["trap"] == "dragon" else 2
            draw_trap(
                draw, {**placing, "side": "intact", "stars": stars}, gx + col * c, gy + row * c, c
            )
            draw.rounded_rectangle(
                (gx + col * c + 2, gy + row * c + 2, gx + col * c + c - 2, gy + row * c + c - 2),
                radius=c * 0.12,
                outline=ACCENT,
                width=max(3, c // 18),
            )
    if board["hero"]:  # a hero who killed the skeleton emperor is gone
        hero_col, hero_row = _cell(board["hero"])
        crowded = board["hero"] in view.get("towers", ["C3"]) or any(
            tr["square"] == board["hero"] for tr in board["traps"]
        )
        if crowded:  # on the tower or a trap: smaller, in the corner, so both stay visible
            draw_hero(
                draw, gx + hero_col * c + c * 0.76, gy + hero_row * c + c * 0.24, c * 0.21, colour
            )
        else:
            draw_hero(draw, gx + hero_col * c + c / 2, gy + hero_row * c + c / 2, c * 0.3, colour)
    Kind = tuple[str, str, str, bool]  # symbol, facing, chief, frozen
    groups: dict[str, dict[Kind, int]] = {}
    for s in board["skeletons"]:
        cell = groups.setdefault(s["square"], {})
        kind: Kind = (s["symbol"], s["facing"], s.get("chief", ""), bool(s.get("frozen")))
        cell[kind] = cell.get(kind, 0) + 1
    for square, cell in groups.items():
        col, row = _cell(square)
        x0, y0 = gx + col * c, gy + row * c
        items = sorted(
            cell.items(), key=lambda kv: (kv[0][2] == "", SYMBOLS.index(kv[0][0]), kv[0][1])
        )
        if len(items) == 1:
            (symbol, facing, chief, frozen), n = items[0]
            paste_skeleton(img, symbol, facing, x0 + c / 2, y0 + c / 2, c * 0.6, n, chief, frozen)
            continue
        if len(items) > 4:
            # Too many kinds to show apart: one bone-white stack per facing, so where every
            # skeleton walks stays visible (the symbol no longer matters once on the board); a
            # stack holding a chief shows that chief's sign and border.
            by_facing: dict[str, tuple[int, str, bool]] = {}
            for (_, facing, chief, frozen), n in items:
                count, head, cold = by_facing.get(facing, (0, "", False))
                by_facing[facing] = (count + n, head or chief, cold or frozen)
            items = [
                (("mixed", f, head, cold), n)
                for f, (n, head, cold) in sorted(
                    by_facing.items(), key=lambda kv: DIRS.index(kv[0])
                )
            ]
        # As large as four fit (crowded squares were unreadable on a phone).
        quarters = [(0.26, 0.26), (0.74, 0.26), (0.26, 0.74), (0.74, 0.74)]
        for (fx, fy), ((symbol, facing, chief, frozen), n) in zip(quarters, items, strict=False):
            paste_skeleton(
                img, symbol, facing, x0 + c * fx, y0 + c * fy, c * 0.44, n, chief, frozen
            )


# ----------------------------------------------------------------------------- panels


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


def _label(names: list[str], seat: int) -> str:
    return f"{seat + 1}. {_name(names, seat)}"


def _status(view: dict[str, Any], seat: int) -> str:
    if view["stage"] == "over":
        return ""
    if seat in view.get("awaiting", []):
        return "○"
    if seat in view.get("submitted", []):
        return "✓"
    return ""


def draw_panel(
    img: Image.Image,
    draw: Draw,
    view: dict[str, Any],
    board: dict[str, Any],
    names: list[str],
    lang: str,
    x: int,
    y: int,
    c: int,
) -> tuple[int, int]:
    """A seat's panel (header, board, footer); returns its size."""
    seat = board["seat"]
    colour = seat_colour(seat)
    bw, bh = board_size(c)
    pad = 12
    width = bw + 2 * pad
    head = 74
    foot = panel_foot(view)
    height = head + bh + foot + pad
    winners = view.get("result", {}).get("winners", [])
    draw.rounded_rectangle(
        (x, y, x + width, y + height),
        radius=14,
        fill=PANEL,
        outline=ACCENT if seat in winners else colour,
        width=5 if seat in winners else 3,
    )
    draw.rectangle((x + 3, y + 3, x + width - 3, y + 36), fill=colour)
    points = (
        "—" if board["eliminated"] else t("badbones.render.points", lang, points=board["score"])
    )
    if view.get("cooperative"):  # no points in the cooperative game: the towers left
        points = f"♜ {board['floors']}/4"
    pw = text_width(draw, points, 24, True)
    status = _status(view, seat)
    name = fit_text(draw, _label(names, seat), 24, width - pw - 60, True)
    draw.text((x + pad, y + 20), name, font=font(24, True), fill=INK, anchor="lm")
    draw.text((x + width - pad, y + 20), points, font=font(24, True), fill=INK, anchor="rm")
    if status:
        draw.text(
            (x + width - pad - pw - 14, y + 20), status, font=font(24, True), fill=INK, anchor="rm"
        )
    if view["seats"] > 1:
        left = t("badbones.render.left", lang, name=_name(names, board["left"]))
        right = t("badbones.render.right", lang, name=_name(names, board["right"]))
        half = (width - 2 * pad) // 2 - 6
        draw.text(
            (x + pad, y + 55),
            fit_text(draw, left, 19, half),
            font=font(19),
            fill=TEXT_DIM,
            anchor="lm",
        )
        draw.text(
            (x + width - pad, y + 55),
            fit_text(draw, right, 19, half),
            font=font(19),
            fill=TEXT_DIM,
            anchor="rm",
        )
    draw_board(img, draw, board, view, x + pad, y + head, c, colour)
    # footer: cemetery and supply
    fy = y + head + bh + 10
    cem = "☠ " + t("badbones.render.cemetery", lang, count=board["cemetery"])
    draw.text((x + pad, fy + 24), cem, font=font(21, True), fill=TEXT, anchor="lm")
    # The supply sits right of the cemetery; a long supply (6 basic tiles, or the advanced
    # game's purchases) squeezes its tiles, then overlaps them, rather than run over the
    # cemetery's count ("Cemetery 0" was hidden under six tiles).
    supply_n = len(board["supply"])
    room = width - 2 * pad - text_width(draw, cem, 21, True) - 14
    tile, step = supply_layout(supply_n, room)
    sx = x + width - pad - (supply_n - 1) * step - tile
    if board.get("weapon"):
        # On a line of its own, in full: beside the supply it was cut ("two-handed s…").
        weapon = "⚔ " + t(f"badbones.weapon.{board['weapon']}", lang)
        draw.text(
            (x + pad, fy + 24 + WEAPON_LINE),
            fit_text(draw, weapon, 21, width - 2 * pad, True),
            font=font(21, True),
            fill=ACCENT,
            anchor="lm",
        )
    for k, kind in enumerate(board["supply"]):
        paste_trap(
            img,
            {"trap": kind, "side": "intact", "orientation": "\\", "stars": 0},
            sx + k * step,
            fy + 4 + (40 - tile) // 2,
            tile,
        )
    if board["eliminated"]:
        overlay = Image.new("RGBA", (width, height), (0, 0, 0, 0))
        od = Draw(overlay)
        od.rectangle((0, head, width, height), fill=(0, 0, 0, 120))
        img.paste(overlay, (x, y), overlay)
        banner = t("badbones.render.eliminated", lang)
        draw.rectangle((x + 3, fy, x + width - 3, fy + 48), fill=INK)
        draw.text((x + width / 2, fy + 24), banner, font=font(30, True), fill=DANGER, anchor="mm")
    return width, height


WEAPON_LINE = 34  # the weapon's own line under the cemetery and the supply


def panel_foot(view: dict[str, Any]) -> int:
    """The height of a panel's footer (cemetery and supply), with a line for the weapon's
    name when any player holds one (every panel alike, so that the rows stay aligned)."""
    return 66 + (WEAPON_LINE if any(b.get("weapon") for b in view["boards"]) else 0)


def supply_layout(count: int, room: int) -> tuple[int, int]:
    """(tile size, step between tiles) for ``count`` supply tiles in ``room`` pixels: 40 px tiles
    6 px apart when they fit, else squeezed down to 28 px, then overlapping."""
    tile, step = 40, 46
    if count and (count - 1) * step + tile > room:
        step = max(8, (room - tile) // max(1, count - 1))
        tile = max(28, min(40, step - 4))
        step = max(8, (room - tile) // max(1, count - 1))
    return tile, step


def _title(view: dict[str, Any], lang: str) -> str:
    if view["stage"] in ("market", "start"):  # before round 1
        return f"Bad Bones · {t('badbones.stage.' + view['stage'], lang)}"
    if view.get("cooperative"):
        rnd = t(
            "badbones.render.coop_round",
            lang,
            round=view["round"],
            rounds=view.get("coop_rounds", 10),
        )
    elif view["solo"]:
        rnd = t("badbones.render.solo_round", lang, round=view["round"], rounds=view["solo_rounds"])
    else:
        rnd = t("badbones.render.round", lang, round=view["round"])
    return f"Bad Bones · {rnd} · {t('badbones.stage.' + view['stage'], lang)}"


def _fitted_title(draw: Draw, title: str, room: int) -> tuple[str, int]:
    """The title and its font size: smaller type, then without the game's name, before it is
    cut (the narrow solo table read "Round 3 of 3 · Move your …")."""
    short = title.removeprefix("Bad Bones · ")
    for text in (title, short):
        for size in (30, 28, 26, 24, 22):
            if text_width(draw, text, size, True) <= room:
                return text, size
    return short, 22


def _draw_title(draw: Draw, view: dict[str, Any], names: list[str], lang: str, width: int) -> None:
    """Round and phase on the first line; who is awaited (or the outcome) on the second, with
    the bag on the right of whichever line has room for it."""
    bag = t("badbones.render.bag", lang, count=view["bag"])
    bag_w = text_width(draw, bag, 24, True)
    title, size = _fitted_title(draw, _title(view, lang), width - 40)
    title_fits = text_width(draw, title, size, True) <= width - 60 - bag_w
    draw.text(
        (20, 30),
        fit_text(draw, title, size, width - 40 - (bag_w + 20 if title_fits else 0), True),
        font=font(size, True),
        fill=TEXT,
        anchor="lm",
    )
    draw.text(
        (width - 20, 30 if title_fits else 68), bag, font=font(24, True), fill=TEXT_DIM, anchor="rm"
    )
    room = width - 40 - (0 if title_fits else bag_w + 20)
    awaiting = view.get("awaiting", [])
    if view["stage"] == "over":
        result = view.get("result", {})
        if view.get("cooperative"):
            line = t(f"badbones.render.coop_{result.get('outcome', 'lost')}", lang)
        elif view["solo"]:
            line = t(f"badbones.render.solo_{result.get('outcome', 'lost')}", lang)
        else:
            winners = result.get("winners", [])
            line = f"{t('badbones.render.winner', lang)}: " + (
                ", ".join(_name(names, s) for s in winners) or "—"
            )
        draw.text(
            (20, 68),
            fit_text(draw, line, 24, room, True),
            font=font(24, True),
            fill=ACCENT,
            anchor="lm",
        )
    elif awaiting:
        line = t(
            "badbones.render.awaiting", lang, names=", ".join(_name(names, s) for s in awaiting)
        )
        draw.text((20, 68), fit_text(draw, line, 22, room), font=font(22), fill=ACCENT, anchor="lm")


# ----------------------------------------------------------------------------- Market, capital

MARKET_CELL = (150, 92)


COOP_TILE, COOP_STEP, HOUSE_STEP = 40, 46, 50


def _coop_layout(view: dict[str, Any], lang: str, width: int) -> tuple[int, int, int]:
    """The cooperative strip: the capital on one line, the shared supply on the next (as many
    lines as its tiles need), both after one column of labels. Returns (where the houses and
    tiles start, tiles a line, lines of tiles)."""
    scratch = Draw(Image.new("RGB", (1, 1)))
    labels = max(
        text_width(scratch, t("badbones.render.capital", lang), 24, True),
        text_width(scratch, t("badbones.render.pool", lang), 22, True),
    )
    x0 = 30 + labels + 16
    per_line = max(1, (width - 30 - x0 + COOP_STEP - COOP_TILE) // COOP_STEP)
    lines = max(1, -(-len(view.get("pool", [])) // per_line))
    return x0, per_line, lines


def _coop_height(view: dict[str, Any], lang: str, width: int) -> int:
    """The cooperative panel's height (the capital's line, then the supply's lines)."""
    _, _, lines = _coop_layout(view, lang, width)
    return 12 + COOP_STEP + lines * COOP_STEP + 8


Box = tuple[int, int, int, int]


def coop_boxes(view: dict[str, Any], lang: str, width: int) -> dict[str, list[Box]]:
    """Where the cooperative strip puts each thing (left, top, right, bottom from the strip's
    top): "labels" (capital, shared supply), "houses", "tiles" and the "panel" around them."""
    scratch = Draw(Image.new("RGB", (1, 1)))
    x0, per_line, lines = _coop_layout(view, lang, width)
    capital, pool = 12, 12 + COOP_STEP
    return {
        "labels": [
            (
                30,
                capital,
                30 + text_width(scratch, t("badbones.render.capital", lang), 24, True),
                capital + COOP_TILE,
            ),
            (
                30,
                pool,
                30 + text_width(scratch, t("badbones.render.pool", lang), 22, True),
                pool + COOP_TILE,
            ),
        ],
        "houses": [
            (x0 + k * HOUSE_STEP, capital, x0 + k * HOUSE_STEP + COOP_TILE, capital + COOP_TILE)
            for k in range(int(view.get("capital_max", 0)))
        ],
        "tiles": [
            (
                x0 + (k % per_line) * COOP_STEP,
                pool + (k // per_line) * COOP_STEP,
                x0 + (k % per_line) * COOP_STEP + COOP_TILE,
                pool + (k // per_line) * COOP_STEP + COOP_TILE,
            )
            for k in range(len(view.get("pool", [])))
        ],
        "panel": [(16, 0, width - 16, _coop_height(view, lang, width))],
    }


def extras_height(view: dict[str, Any], lang: str, width: int) -> int:
    """Height of the strips drawn between the title and the boards (capital, Market)."""
    height = 0
    if view.get("cooperative"):
        height += _coop_height(view, lang, width) + 10
    market = view.get("market")
    if market:
        cols = max(1, (width - 40) // MARKET_CELL[0])
        rows = (len(market["stock"]) + cols - 1) // cols
        height += 56 + rows * MARKET_CELL[1] + 16
    return height


def draw_extras(
    img: Image.Image,
    draw: Draw,
    view: dict[str, Any],
    names: list[str],
    lang: str,
    width: int,
    y: int,
) -> None:
    if view.get("cooperative"):
        # The capital on one line, the shared supply on its own line(s) below (coop_boxes).
        boxes = coop_boxes(view, lang, width)
        left, top, right, bottom = boxes["panel"][0]
        draw.rounded_rectangle(
            (left, y + top, right, y + bottom), radius=12, fill=PANEL, outline=ACCENT, width=2
        )
        for (x, ty, _, _), key, size, ink in zip(
            boxes["labels"],
            ("badbones.render.capital", "badbones.render.pool"),
            (24, 22),
            (TEXT, TEXT_DIM),
            strict=True,
        ):
            draw.text(
                (x, y + ty + COOP_TILE // 2),
                t(key, lang),
                font=font(size, True),
                fill=ink,
                anchor="lm",
            )
        standing = int(view.get("capital", 0))
        for k, (x, hy, _, _) in enumerate(boxes["houses"]):
            draw_house(draw, x, y + hy, COOP_TILE, k < standing)
        for kind, (x, ty, _, _) in zip(view.get("pool", []), boxes["tiles"], strict=True):
            paste_trap(
                img,
                {"trap": kind, "side": "intact", "orientation": "/", "stars": 0},
                x,
                y + ty,
                COOP_TILE,
            )
        y += bottom + 10
    market = view.get("market")
    if not market:
        return
    cols = max(1, (width - 40) // MARKET_CELL[0])
    rows = (len(market["stock"]) + cols - 1) // cols
    cw, ch = MARKET_CELL
    draw.rounded_rectangle(
        (16, y, width - 16, y + 56 + rows * ch + 6), radius=12, fill=PANEL, outline=ACCENT, width=3
    )
    if market.get("shared"):
        purse = t("badbones.render.team_coins", lang, coins=market["coins"][0])
    else:
        purse = " · ".join(f"{_name(names, s)} {c}" for s, c in enumerate(market["coins"]))
    turn = market.get("turn", [])
    head = t("badbones.render.market", lang) + " — " + purse
    if turn and not market.get("shared"):
        head += " · " + t("badbones.render.turn", lang, name=_name(names, turn[0]))
    draw.text(
        (30, y + 28),
        fit_text(draw, head, 24, width - 60, True),
        font=font(24, True),
        fill=ACCENT,
        anchor="lm",
    )
    last = market.get("last")
    for k, (item, left) in enumerate(market["stock"].items()):
        r, col = divmod(k, cols)
        x0 = 30 + col * cw
        y0 = y + 56 + r * ch
        sold_out = left <= 0
        just = bool(last) and last[1] == item
        box = (x0, y0, x0 + cw - 10, y0 + ch - 10)
        draw.rounded_rectangle(
            box,
            radius=8,
            fill=(30, 50, 40) if sold_out else (58, 98, 78),
            outline=ACCENT if just else INK,
            width=3 if just else 1,
        )
        price = market["prices"][item]
        ink = TEXT if not sold_out else TEXT_DIM
        if item in market.get("weapons", []):
            # A weapon card: its name on up to two lines, the price below.
            lines, size = card_lines(draw, t(f"badbones.weapon.{item}", lang), cw - 20, 2)
            for k2, line in enumerate(lines):
                draw.text(
                    (x0 + 8, y0 + 16 + k2 * 22),
                    fit_text(draw, line, size, cw - 20, True),
                    font=font(size, True),
                    fill=ink,
                    anchor="lm",
                )
            draw.text(
                (x0 + 8, y0 + 66), f"⚔ {price} ¢", font=font(20, True), fill=ACCENT, anchor="lm"
            )
        else:
            paste_trap(
                img,
                {"trap": item, "side": "intact", "orientation": "/", "stars": 0},
                x0 + 6,
                y0 + 5,
                48,
            )
            draw.text(
                (x0 + 62, y0 + 18), f"{price} ¢", font=font(20, True), fill=ACCENT, anchor="lm"
            )
            draw.text(
                (x0 + 62, y0 + 42),
                f"×{left}",
                font=font(20, True),
                fill=TEXT if not sold_out else DANGER,
                anchor="lm",
            )
            (label,), size = card_lines(draw, t(f"badbones.trap.{item}", lang), cw - 20, 1)
            draw.text(
                (x0 + 8, y0 + 68),
                fit_text(draw, label, size, cw - 20, True),
                font=font(size, True),
                fill=ink,
                anchor="lm",
            )
        if sold_out:
            draw.text((x0 + cw - 18, y0 + 42), "✗", font=font(26, True), fill=DANGER, anchor="rm")


def card_lines(draw: Draw, name: str, room: int, most: int) -> tuple[list[str], int]:
    """A Market card's name in at most ``most`` lines of ``room`` pixels: word-wrapped at 18 px,
    else 16 or 14 px, else cut ("teleportat… wand", "carroza fú…")."""
    for size in (18, 16, 14):
        lines: list[str] = []
        for word in name.split():
            trial = f"{lines[-1]} {word}" if lines else word
            if lines and text_width(draw, trial, size, True) <= room:
                lines[-1] = trial
            else:
                lines.append(word)
        if len(lines) <= most and all(text_width(draw, x, size, True) <= room for x in lines):
            return lines, size
    if most == 1:
        return [name], 16
    words = name.split()
    return [" ".join(words[:1]), " ".join(words[1:])] if len(words) > 1 else [name], 16


# ----------------------------------------------------------------------------- encoding


def _sample() -> Image.Image:
    """A table showing every kind of thing we draw: the palette's sample."""
    from rules.badbones import GAME
    from rules.badbones.position import game_from_text

    texts = []
    for k, symbol in enumerate(SYMBOLS):
        squares = [f"{col}{k + 1}" for col in "ABDE"]
        items = [f"{sq} {symbol}.top:{d}" for sq, d in zip(squares, DIRS, strict=True)]
        texts.append("\n".join(items) + f"\nforest {symbol}.left {symbol}.right")
    texts[0] += "\nC1 wall/\nC2 wall\\~\nB3 catapult\nD3 catapult~\nC4 dragon\nC5 treasure"
    texts[1] += "\nC1 dragon~\nhero B3\nfloors 0\nhouses 2"
    texts.append("hero A1")
    view = GAME.view(game_from_text(*texts), None)
    view["result"] = {"winners": [2], "scores": {}, "outcome": "scored"}
    return table_image(view, ["Ab", "Cd", "Ef", "Gh", "Ij", "Kl"], "en")


# One fixed palette, learnt from the sample alone (the 6-player table's time was mostly an
# adaptive ``quantize`` before; render/common.py, FixedPalette).
PALETTE = FixedPalette(_sample)


# ----------------------------------------------------------------------------- entry points


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """Every player's board, in seat order, with round and phase (from the public view)."""
    return PALETTE.encode(table_image(view, names, lang))


def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    boards = view["boards"]
    n = len(boards)
    # Two boards a row from four players up: three a row made each board a third of a phone's
    # width and crowded squares unreadable (six players); the picture grows taller,
    # not larger (the same cell size: as many pixels to draw, and a phone shrinks it less).
    cols = {1: 1, 3: 3}.get(n, 2)
    rows = (n + cols - 1) // cols
    c = {1: 100, 2: 76}.get(n, 64)
    bw, bh = board_size(c)
    pw, ph = bw + 24, 74 + bh + panel_foot(view) + 12
    gap, top = 16, 92
    width = cols * pw + (cols + 1) * gap
    extra = extras_height(view, lang, width)
    top += extra
    legend = _legend_items(view, lang)
    legend_h = _legend_height(legend, width)
    height = top + rows * ph + rows * gap + legend_h
    img = canvas(width, height, BACKGROUND)
    draw = Draw(img)
    _draw_title(draw, view, names, lang, width)
    draw_extras(img, draw, view, names, lang, width, 92)
    for k, board in enumerate(boards):
        r, col = divmod(k, cols)
        draw_panel(
            img, draw, view, board, names, lang, gap + col * (pw + gap), top + r * (ph + gap), c
        )
    _draw_legend(img, draw, legend, gap, top + rows * (ph + gap), width - 2 * gap)
    return img


# ----------------------------------------------------------------------------- legend

LEGEND_TILE = 40
LEGEND_LINE = 50
LEGEND_FONT = 25  # ~9 px on a phone's 400-px preview of the six-player table
# (what to draw: a trap kind, "ready", "awaiting", "supply", CHIEF + a chief's kind), label
LegendItem = tuple[str, str]
CHIEF = "chief:"
BASIC_TRAPS = ("wall", "catapult", "dragon", "treasure")


def _legend_items(view: dict[str, Any], lang: str) -> list[LegendItem]:
    """What the picture's marks mean (new players could not tell a dragon from a
    catapult, nor what the tiles under each board or the ○/✓ marks were): the status marks,
    then every trap kind on the table or in a supply, the basic four first."""
    items: list[LegendItem] = []
    if view["stage"] != "over" and view["seats"] > 1:
        items.append(("ready", "✓ " + t("badbones.picture.ready", lang)))
        items.append(("awaiting", "○ " + t("badbones.picture.awaiting", lang)))
    kinds = {tr["trap"] for b in view["boards"] for tr in b["traps"]}
    kinds |= {k for b in view["boards"] for k in b["supply"]}
    order = [*BASIC_TRAPS, *sorted(kinds - set(BASIC_TRAPS))]
    items += [(k, t(f"badbones.trap.{k}", lang)) for k in order if k in kinds or k in BASIC_TRAPS]
    # The cooperative team places from one shared supply, drawn above the boards.
    supply = "supply_shared" if view.get("cooperative") else "supply"
    items.append(("supply", t(f"badbones.picture.{supply}", lang)))
    # The signs of the skeleton chiefs on the table (on a board or waiting in a forest), named:
    # a sign alone says nothing to a new player.
    chiefs = {
        s["chief"]
        for b in view["boards"]
        for s in [*b["skeletons"], *b["forest"]]
        if s.get("chief")
    }
    items += [(CHIEF + k, t(f"badbones.chief.{k}", lang)) for k in CHIEF_GLYPHS if k in chiefs]
    return items


def _legend_layout(
    draw: Draw, items: list[LegendItem], room: int
) -> list[tuple[int, int, str, list[str]]]:
    """Each item's (x, line, what, text lines) when the items flow left to right and wrap at
    ``room``; a label too long for a line is itself wrapped (the narrow private board)."""
    out = []
    x, line = 0, 0
    for what, label in items:
        icon = _legend_icon(what)
        lines = [label]
        if icon + text_width(draw, label, LEGEND_FONT) > room:
            lines = wrap(draw, label, LEGEND_FONT, room - icon)
        w = icon + max(text_width(draw, part, LEGEND_FONT) for part in lines)
        if x and x + w > room:
            x, line = 0, line + 1
        out.append((x, line, what, lines))
        x += w + 26
        if len(lines) > 1:  # a wrapped label keeps its lines to itself
            x, line = room, line + len(lines) - 1
    return out


def _legend_icon(what: str) -> int:
    return 0 if what in ("ready", "awaiting") else LEGEND_TILE + 8


def _legend_height(items: list[LegendItem], width: int) -> int:
    scratch = Draw(Image.new("RGB", (1, 1)))
    layout = _legend_layout(scratch, items, width - 32)
    lines = 1 + max((line + len(parts) - 1 for _, line, _, parts in layout), default=0)
    return 16 + lines * LEGEND_LINE


def _draw_legend(
    img: Image.Image, draw: Draw, items: list[LegendItem], x: int, y: int, room: int
) -> None:
    for dx, line, what, lines in _legend_layout(draw, items, room):
        lx = x + dx
        ly = y + line * LEGEND_LINE
        if what.startswith(CHIEF):  # the chief's token, as the boards show it
            size = LEGEND_TILE * 0.95
            paste_skeleton(
                img,
                "",
                "N",
                lx + LEGEND_TILE / 2,
                ly + LEGEND_TILE / 2,
                size,
                1,
                what[len(CHIEF) :],
            )
            lx += LEGEND_TILE + 8
        elif what not in ("ready", "awaiting"):
            kind = "wall" if what == "supply" else what
            paste_trap(
                img,
                {"trap": kind, "side": "intact", "orientation": "\\", "stars": 0},
                lx,
                ly,
                LEGEND_TILE,
            )
            if what == "supply":  # a second tile behind: "the row of tiles"
                draw.rectangle((lx - 3, ly - 3, lx + 3, ly + LEGEND_TILE), fill=TEXT_DIM)
            lx += LEGEND_TILE + 8
        for k, part in enumerate(lines):
            draw.text(
                (lx, ly + LEGEND_TILE // 2 + k * LEGEND_LINE),
                part,
                font=font(LEGEND_FONT),
                fill=TEXT,
                anchor="lm",
            )


def render_board(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """One seat's board, larger, with its own pending question and preferences."""
    seat = view.get("seat")
    boards = view["boards"]
    board = boards[seat] if isinstance(seat, int) and 0 <= seat < len(boards) else boards[0]
    c = 120
    bw, bh = board_size(c)
    pw, ph = bw + 24, 74 + bh + panel_foot(view) + 12
    width = pw + 40
    # Every note is wrapped, never cut ("…you can still ch…"); the picture grows.
    scratch = Draw(Image.new("RGB", (1, 1)))
    mine = view.get("my_submission") or {}
    notes = [
        (part, False)
        for line in _note_lines(view, mine, names, lang)
        for part in wrap(scratch, line, 22, width - 40)
    ]
    notes += [(line, True) for line in _pref_lines(view, lang, width - 40)]
    extra = max(124, 34 * len(notes) + 30)
    top = 92 + extras_height(view, lang, width)
    legend = _legend_items(view, lang)
    legend_h = _legend_height(legend, width)
    img = canvas(width, top + ph + extra + legend_h, BACKGROUND)
    draw = Draw(img)
    _draw_title(draw, view, names, lang, width)
    draw_extras(img, draw, view, names, lang, width, 92)
    if mine.get("type") == "place":
        # Your own hidden choice, shown only on your private board (D13).
        ghost = {k: mine[k] for k in ("trap", "square", "orientation")}
        view = {**view, "placing": [*view.get("placing", []), {"seat": board["seat"], **ghost}]}
    draw_panel(img, draw, view, board, names, lang, 20, top, c)
    label, forest = int(c * 0.36), int(c * 0.62)
    gx, gy = 20 + 12 + label + forest, top + 74 + label + forest
    if mine.get("type") == "move" and board["hero"]:
        col, row = _cell(board["hero"])
        dx, dy = _HERO_STEPS[mine["direction"]]
        x0, y0 = gx + col * c + c / 2, gy + row * c + c / 2
        x1, y1 = x0 + dx * c, y0 + dy * c
        draw.line((x0, y0, x1, y1), fill=ACCENT, width=8)
        draw.ellipse(
            (x1 - c * 0.3, y1 - c * 0.3, x1 + c * 0.3, y1 + c * 0.3), outline=ACCENT, width=6
        )
    elif mine.get("type") == "retrieve":
        col, row = _cell(mine["square"])
        x0, y0 = gx + col * c, gy + row * c
        draw.line((x0 + 10, y0 + 10, x0 + c - 10, y0 + c - 10), fill=ACCENT, width=8)
        draw.line((x0 + c - 10, y0 + 10, x0 + 10, y0 + c - 10), fill=ACCENT, width=8)
    y = top + ph + 16
    for k, (line, dim) in enumerate(notes):
        draw.text(
            (20, y + 14 + k * 34),
            line,
            font=font(22),
            fill=TEXT_DIM if dim else ACCENT,
            anchor="lm",
        )
    _draw_legend(img, draw, legend, 20, top + ph + extra, width - 40)
    return PALETTE.encode(img)


def _note_lines(
    view: dict[str, Any], mine: dict[str, Any], names: list[str], lang: str
) -> list[str]:
    """Your hidden choice and your open question, as sentences (wrapped by the caller)."""
    question = view.get("question")
    lines = []
    if mine:
        orientation = mine.get("orientation") or ""
        kind = mine["type"]
        if orientation in ("white", "black"):
            kind += "_coloured"
        elif orientation:
            kind += "_wall"
        args = {k: v for k, v in mine.items() if k != "type"}
        args["colour"] = (
            t(f"badbones.colour.{orientation}", lang)
            if orientation
            in (
                "white",
                "black",
            )
            else ""
        )
        if "trap" in args:
            args["trap"] = t(f"badbones.trap.{args['trap']}", lang)
        if "direction" in args:
            args["direction"] = t(f"badbones.dir.{args['direction']}", lang)
        lines.append(t(f"badbones.event.submitted_{kind}", lang, **args))
    if question:
        key = questions.kind(question, bool(view.get("cooperative")))
        args = _question_args(questions.pending_args(question), names, lang)
        lines.append(t(f"badbones.pending.{key}", lang, **args))
    return lines


def _question_args(args: dict[str, Any], names: list[str], lang: str) -> dict[str, Any]:
    """A question's arguments (``questions.pending_args``, the channel's) as the board's
    reader reads them: catalogue keys in ``lang``, seats by name, directions and "ask"/"auto"
    in ``lang``."""
    out: dict[str, Any] = {}
    for name, value in args.items():
        if name.endswith("_key"):
            out[name.removesuffix("_key")] = t(value, lang)
        elif name == "seats":
            out[name] = ", ".join(_name(names, s) for s in value)
        elif name == "default_seat":
            out[name] = _name(names, value)
        elif name == "answers":
            out[name] = ", ".join(_pref_value(o, lang) for o in str(value).split(", "))
        elif name in ("answer", "direction"):
            out[name] = _pref_value(value, lang)
        else:
            out[name] = value
    return out


def relevant_prefs(view: dict[str, Any]) -> list[str]:
    """The standing preferences that can matter in this game (the solo and basic
    boards listed the hearse and the instructor, which only exist with ``advanced``/``chiefs``,
    and the solo game's exits and catapults never ask)."""
    prefs = view.get("prefs") or {}
    shown = []
    for choice in sorted(prefs):
        if choice == "hearse" and not view.get("advanced"):
            continue
        if choice == "instructor" and not view.get("chiefs"):
            continue
        if choice in ("top", "catapult", "hearse") and view.get("solo"):
            continue
        shown.append(choice)
    return shown


def _pref_lines(view: dict[str, Any], lang: str, room: int) -> list[str]:
    """The preferences as one line, or as few lines as fit ``room`` pixels."""
    prefs = view.get("prefs") or {}
    parts = [
        f"{t('badbones.choice.' + k, lang)}: {_pref_value(prefs[k], lang)}"
        for k in relevant_prefs(view)
    ]
    draw = Draw(Image.new("RGB", (1, 1)))
    lines: list[str] = []
    for part in parts:
        if lines and text_width(draw, lines[-1] + " · " + part, 22) <= room:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def _pref_value(value: object, lang: str) -> str:
    """A standing preference (or an answer) as the player reads it: "ask"/"auto" and the
    directions as the catalogue names them in ``lang`` (badbones.pref_value, the names the
    service shows the same values by), seats as they are."""
    text = str(value)
    return t(f"badbones.pref_value.{text}", lang) if text in _PREF_NAMED else text


_PREF_NAMED = ("ask", "auto", "N", "E", "S", "W")
