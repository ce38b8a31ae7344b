"""Zombies vs Vampires pictures: the grid after each turn.

The board fills the top of the image: coordinates on all four edges (A… across, 1… down, the
names players type), the four 3×3 corner zones tinted in the colour of the player who starts
there and framed in the colour of the player racing to it, every wall as a thick light bar, the
last turn's path(s) as a line in the mover's colour (a new wall glows, a removed one shows as a
dashed ghost), and the pawns: zombies with a green stitched head, vampires with a pale face,
black hair and fangs, each on a disc of its player's colour. Below: whose turn, the die, each
player's pawns home, and the walls left in the supply. Everything is public in this game, so the
board picture is the table picture with the asking seat marked.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image

from i18n import t
from render.common import (
    ACCENT,
    BACKGROUND,
    BLACK,
    DANGER,
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
    text_width,
)
from rules.zvv.board import board

RGB = tuple[int, int, int]

WIDTH = 1040
EDGE = 46  # the coordinate band around the board
SQUARE = (62, 66, 84)  # night-slate squares: the seat colours and the light walls stand out
SQUARE_ALT = (56, 60, 77)
GRID_LINE = (36, 38, 50)
WALL = (236, 232, 218)
WALL_EDGE = (30, 30, 30)
ZOMBIE_SKIN = (128, 178, 92)
ZOMBIE_DARK = (60, 90, 40)
VAMPIRE_SKIN = (236, 234, 244)
VAMPIRE_HAIR = (24, 20, 30)
BLOOD = (190, 20, 40)
NEUTRAL_ZONE = (110, 110, 120)
ARROWS = {"BR": "↘", "TL": "↖", "BL": "↙", "TR": "↗"}  # by target corner


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _mix(a: RGB, b: RGB, k: float) -> RGB:
    return (
        int(a[0] + (b[0] - a[0]) * k),
        int(a[1] + (b[1] - a[1]) * k),
        int(a[2] + (b[2] - a[2]) * k),
    )


class _Grid:
    """Pixel geometry of the board for one picture."""

    def __init__(self, size: int, top: int) -> None:
        self.size = size
        self.cell = (WIDTH - 2 * EDGE) // size
        self.x0 = (WIDTH - self.cell * size) // 2
        self.y0 = top + EDGE
        self.b = board(size)

    def corner(self, r: int, c: int) -> tuple[int, int]:
        return self.x0 + c * self.cell, self.y0 + r * self.cell

    def centre(self, name: str) -> tuple[int, int]:
        sq = self.b.square(name)
        r, c = divmod(sq if sq is not None else 0, self.size)
        return self.x0 + c * self.cell + self.cell // 2, self.y0 + r * self.cell + self.cell // 2

    @property
    def bottom(self) -> int:
        return self.y0 + self.cell * self.size


# ---------------------------------------------------------------------------- pawns


def draw_pawn(
    d: Draw, cx: int, cy: int, radius: int, kind: str, colour: RGB, square: bool = False
) -> None:
    """A pawn: a disc of the player's colour carrying a zombie or a vampire head; ``square``
    draws the base as a rounded square instead (the third and fourth players, who play zombies
    and vampires again: two zombie seats were told apart by colour alone)."""
    r = radius
    if square:
        d.rounded_rectangle(
            (cx - r, cy - r, cx + r, cy + r),
            radius=max(3, r // 4),
            fill=colour,
            outline=BLACK,
            width=max(2, r // 12),
        )
    else:
        d.ellipse(
            (cx - r, cy - r, cx + r, cy + r), fill=colour, outline=BLACK, width=max(2, r // 12)
        )
    h = int(r * 0.66)  # the head
    hy = cy + int(r * 0.04)
    if kind == "vampire":
        # Cape collar: two dark-red points behind the head.
        d.polygon(
            [(cx - r * 0.78, cy + r * 0.1), (cx - h * 0.4, hy + h * 0.9), (cx - h, hy - h * 0.1)],
            fill=BLOOD,
        )
        d.polygon(
            [(cx + r * 0.78, cy + r * 0.1), (cx + h * 0.4, hy + h * 0.9), (cx + h, hy - h * 0.1)],
            fill=BLOOD,
        )
        d.ellipse((cx - h, hy - h, cx + h, hy + h), fill=VAMPIRE_SKIN, outline=BLACK, width=2)
        # Hair with a widow's peak.
        d.chord((cx - h, hy - h, cx + h, hy + h), 180, 360, fill=VAMPIRE_HAIR)
        d.polygon(
            [(cx - h * 0.5, hy - 2), (cx, hy + h * 0.28), (cx + h * 0.5, hy - 2)], fill=VAMPIRE_HAIR
        )
        ew = max(2, h // 5)
        for sx in (-1, 1):
            ex = cx + sx * int(h * 0.42)
            ey = hy + int(h * 0.22)
            d.ellipse((ex - ew, ey - ew // 2 - 1, ex + ew, ey + ew // 2 + 1), fill=BLOOD)
        my = hy + int(h * 0.58)
        d.line((cx - h * 0.4, my, cx + h * 0.4, my), fill=BLACK, width=max(2, h // 10))
        fw = max(2, h // 6)
        for sx in (-1, 1):
            fx = cx + sx * int(h * 0.2)
            d.polygon([(fx - fw, my), (fx + fw, my), (fx, my + fw * 2)], fill=WHITE, outline=BLACK)
        return
    # Zombie: green head, stitches across the forehead, mismatched eyes, crooked mouth.
    d.ellipse((cx - h, hy - h, cx + h, hy + h), fill=ZOMBIE_SKIN, outline=BLACK, width=2)
    sy = hy - int(h * 0.5)
    d.line((cx - h * 0.6, sy, cx + h * 0.5, sy + h * 0.12), fill=ZOMBIE_DARK, width=max(2, h // 9))
    for k in range(4):
        x = cx - h * 0.45 + k * h * 0.28
        y = sy + k * h * 0.03
        d.line((x, y - h * 0.14, x, y + h * 0.16), fill=ZOMBIE_DARK, width=max(2, h // 12))
    ew = max(3, h // 4)
    ly = hy + int(h * 0.05)
    lx = cx - int(h * 0.38)
    d.ellipse((lx - ew, ly - ew, lx + ew, ly + ew), fill=WHITE, outline=BLACK)
    d.ellipse((lx - ew // 3, ly - ew // 3, lx + ew // 3, ly + ew // 3), fill=BLACK)
    rx = cx + int(h * 0.38)
    xk = ew * 0.8
    d.line((rx - xk, ly - xk, rx + xk, ly + xk), fill=BLACK, width=max(2, h // 9))
    d.line((rx - xk, ly + xk, rx + xk, ly - xk), fill=BLACK, width=max(2, h // 9))
    my = hy + int(h * 0.55)
    points = [
        (cx - h * 0.45 + i * h * 0.18, my + (h * 0.08 if i % 2 else -h * 0.06)) for i in range(6)
    ]
    d.line(points, fill=ZOMBIE_DARK, width=max(2, h // 9))


# ---------------------------------------------------------------------------- board


def _draw_board(d: Draw, view: dict[str, Any], grid: _Grid) -> None:
    size = grid.size
    cell = grid.cell
    starts = list(view["start"])
    targets = list(view["target"])
    owner_of = {corner: s for s, corner in enumerate(starts)}
    racer_of = {corner: s for s, corner in enumerate(targets)}
    zone_fill: dict[int, RGB] = {}
    for corner, squares in grid.b.zones.items():
        tint = seat_colour(owner_of[corner]) if corner in owner_of else NEUTRAL_ZONE
        for sq in squares:
            zone_fill[sq] = _mix(SQUARE, tint, 0.42)
    for r in range(size):
        for c in range(size):
            x, y = grid.corner(r, c)
            fill = zone_fill.get(r * size + c, SQUARE if (r + c) % 2 == 0 else SQUARE_ALT)
            d.rectangle((x, y, x + cell, y + cell), fill=fill, outline=GRID_LINE, width=1)
    # Each zone framed in the colour of the player racing to it.
    for corner, squares in grid.b.zones.items():
        if corner not in racer_of:
            continue
        rows = [sq // size for sq in squares]
        cols = [sq % size for sq in squares]
        x1, y1 = grid.corner(min(rows), min(cols))
        x2, y2 = grid.corner(max(rows) + 1, max(cols) + 1)
        colour = seat_colour(racer_of[corner])
        _dashed_rect(d, (x1 + 4, y1 + 4, x2 - 4, y2 - 4), colour, width=5, dash=14)
    # Coordinates on all four edges.
    label = font(24 if size <= 11 else 20, bold=True)
    for c in range(size):
        letter = grid.b.names[c][0]
        x = grid.x0 + c * cell + cell // 2
        d.text((x, grid.y0 - EDGE // 2), letter, font=label, fill=TEXT, anchor="mm")
        d.text((x, grid.bottom + EDGE // 2), letter, font=label, fill=TEXT, anchor="mm")
    for r in range(size):
        y = grid.y0 + r * cell + cell // 2
        d.text((grid.x0 - EDGE // 2, y), str(r + 1), font=label, fill=TEXT, anchor="mm")
        d.text((WIDTH - grid.x0 + EDGE // 2, y), str(r + 1), font=label, fill=TEXT, anchor="mm")


def _dashed_rect(
    d: Draw, box: tuple[int, int, int, int], colour: RGB, width: int, dash: int
) -> None:
    x1, y1, x2, y2 = box
    for a, b in (
        ((x1, y1), (x2, y1)),
        ((x2, y1), (x2, y2)),
        ((x2, y2), (x1, y2)),
        ((x1, y2), (x1, y1)),
    ):
        _dashed_line(d, a, b, colour, width, dash)


def _dashed_line(
    d: Draw, a: tuple[int, int], b: tuple[int, int], colour: RGB, width: int, dash: int
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    steps = max(1, int(length // dash))
    for i in range(0, steps, 2):
        s, e = i / steps, min(1.0, (i + 1) / steps)
        d.line(
            (
                a[0] + (b[0] - a[0]) * s,
                a[1] + (b[1] - a[1]) * s,
                a[0] + (b[0] - a[0]) * e,
                a[1] + (b[1] - a[1]) * e,
            ),
            fill=colour,
            width=width,
        )


def _wall_box(grid: _Grid, segment: list[Any]) -> tuple[tuple[int, int], tuple[int, int]]:
    orient, line, start, length = str(segment[0]), int(segment[1]), int(segment[2]), int(segment[3])
    if orient == "h":
        return grid.corner(line, start), grid.corner(line, start + length)
    return grid.corner(start, line), grid.corner(start + length, line)


def _draw_wall(d: Draw, grid: _Grid, segment: list[Any], glow: RGB | None = None) -> None:
    (x1, y1), (x2, y2) = _wall_box(grid, segment)
    w = max(12, grid.cell * 2 // 9)
    inset = 2
    if x1 == x2:
        y1, y2 = y1 + inset, y2 - inset
    else:
        x1, x2 = x1 + inset, x2 - inset
    if glow is not None:
        g = w // 2 + 6
        d.rounded_rectangle(
            (min(x1, x2) - g, min(y1, y2) - g, max(x1, x2) + g, max(y1, y2) + g),
            radius=g,
            fill=glow,
        )
    half = w // 2
    d.rounded_rectangle(
        (min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half),
        radius=half,
        fill=WALL,
        outline=WALL_EDGE,
        width=2,
    )


def _draw_ghost_wall(d: Draw, grid: _Grid, segment: list[Any]) -> None:
    a, b = _wall_box(grid, segment)
    _dashed_line(d, a, b, DANGER, max(6, grid.cell // 10), max(8, grid.cell // 6))


def _hop(a: tuple[int, int], b: tuple[int, int], lift: float) -> list[tuple[int, int]]:
    """A jump from ``a`` to ``b``: an arch bulging ``lift`` px to one side of the straight line,
    so it shows beside the pawn jumped over instead of hiding under it."""
    (ax, ay), (bx, by) = a, b
    length = math.dist(a, b) or 1.0
    # The control point of a quadratic curve, twice the bulge off the midpoint.
    px, py = (by - ay) / length, (ax - bx) / length
    cx, cy = (ax + bx) / 2 + px * lift * 2, (ay + by) / 2 + py * lift * 2
    out = []
    for i in range(13):
        k = i / 12
        x = (1 - k) ** 2 * ax + 2 * (1 - k) * k * cx + k * k * bx
        y = (1 - k) ** 2 * ay + 2 * (1 - k) * k * cy + k * k * by
        out.append((int(x), int(y)))
    return out


def _path_points(
    grid: _Grid, path: list[str], occupied: set[str]
) -> tuple[list[tuple[int, int]], list[int]]:
    """The polyline of a path, with jumps arched (a jump looked like two steps,
    its line hidden under the pawn jumped over), and the index in it of each jump's apex. An
    arch bulges to the side of the jumped pawn that has no pawn, where it shows."""
    centres = [grid.centre(name) for name in path]
    points = centres[:1]
    apexes: list[int] = []
    for a, b in zip(centres, centres[1:], strict=False):
        if math.dist(a, b) > grid.cell * 1.5:
            mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
            left = (mid[0] + (b[1] - a[1]) // 2, mid[1] + (a[0] - b[0]) // 2)
            lift = grid.cell * 0.62
            if _name_at(grid, left) in occupied:
                lift = -lift
            arch = _hop(a, b, lift)
            apexes.append(len(points) + len(arch) // 2 - 1)
            points.extend(arch[1:])
        else:
            points.append(b)
    return points, apexes


def _name_at(grid: _Grid, xy: tuple[int, int]) -> str:
    c, r = (xy[0] - grid.x0) // grid.cell, (xy[1] - grid.y0) // grid.cell
    if 0 <= r < grid.size and 0 <= c < grid.size:
        return grid.b.names[r * grid.size + c]
    return ""


def _draw_path(d: Draw, grid: _Grid, path: list[str], colour: RGB, occupied: set[str]) -> None:
    points, apexes = _path_points(grid, path, occupied)
    if len(points) < 2:
        return
    w = max(6, grid.cell // 9)
    d.line(points, fill=BLACK, width=w + 6, joint="curve")
    d.line(points, fill=colour, width=w, joint="curve")
    for i in apexes:
        # An arrowhead on top of each arch: the way the pawn jumped.
        (x1, y1), (x2, y2) = points[i], points[i + 1]
        length = math.dist((x1, y1), (x2, y2)) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        tip = (x2 + ux * w * 2.2, y2 + uy * w * 2.2)
        back = (x2 - ux * w * 1.4, y2 - uy * w * 1.4)
        side = (-uy * w * 2.0, ux * w * 2.0)
        d.polygon(
            [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])],
            fill=colour,
            outline=BLACK,
            width=2,
        )
    sx, sy = points[0]
    r = grid.cell // 5
    d.ellipse((sx - r, sy - r, sx + r, sy + r), outline=BLACK, width=w + 4)
    d.ellipse((sx - r, sy - r, sx + r, sy + r), outline=colour, width=w)
    for name in path[1:-1]:
        px, py = grid.centre(name)
        dot = w
        d.ellipse((px - dot, py - dot, px + dot, py + dot), fill=colour, outline=BLACK, width=2)


def _draw_reach(d: Draw, grid: _Grid, view: dict[str, Any]) -> None:
    """Where the rolled steps can take the player to act (players counted squares
    by hand): a dot in their colour on each square, a ring on those inside their home zone."""
    reach = list(view.get("reach") or [])
    if not reach or view.get("phase") == "over":
        return
    seat = int(view["turn"])
    colour = seat_colour(seat)
    home = grid.b.zones.get(str(view["target"][seat]), frozenset())
    dot = max(5, grid.cell // 7)
    ring = int(grid.cell * 0.3)
    for name in reach:
        cx, cy = grid.centre(str(name))
        if grid.b.square(str(name)) in home:
            d.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=BLACK, width=dot + 4)
            d.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=colour, width=dot)
        else:
            d.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=colour, outline=BLACK, width=2)


# ---------------------------------------------------------------------------- panel


def _draw_die(d: Draw, x: int, y: int, size: int, face: str, wall_len: int) -> None:
    d.rounded_rectangle(
        (x, y, x + size, y + size), radius=size // 6, fill=WHITE, outline=BLACK, width=3
    )
    label = {"plusminus": "±", "split": "2*", "build": ""}.get(face, face)
    if face == "build":
        # A little brick wall for the Build face.
        bw, bh = size // 4, size // 7
        for row in range(3):
            for col in range(3):
                off = bw // 2 if row % 2 else 0
                bx = x + size // 8 + col * bw + off
                by = y + size // 3 + row * bh
                if bx + bw - 2 <= x + size - size // 10:
                    d.rectangle(
                        (bx, by, bx + bw - 3, by + bh - 3), fill=(170, 70, 50), outline=BLACK
                    )
    else:
        d.text(
            (x + size // 2, y + size // 2),
            label,
            font=font(int(size * 0.55), bold=True),
            fill=BLACK,
            anchor="mm",
        )
    if wall_len:
        d.text(
            (x + size + 10, y + size // 2),
            f"→ {wall_len}",
            font=font(30, bold=True),
            fill=TEXT,
            anchor="lm",
        )


def _status(view: dict[str, Any], names: list[str], lang: str) -> str:
    turn = int(view["turn"])
    if view["phase"] == "over":
        winners = list(view["winners"])
        if len(winners) == 1:
            return t("zvv.render.winner", lang, name=_name(names, winners[0]))
        return t("zvv.render.winners", lang, names=", ".join(_name(names, s) for s in winners))
    return t("zvv.render.turn", lang, name=_name(names, turn))


def _draw_panel(
    d: Draw, view: dict[str, Any], names: list[str], lang: str, top: int, you: int | None
) -> None:
    seats = int(view["seats"])
    # Status line: whose turn (or who won), the round, the die.
    limit = int(view.get("round_limit") or 0)
    rnd = (
        t("zvv.render.round_of", lang, round=view["round"], limit=limit)
        if limit
        else t("zvv.render.round", lang, round=view["round"])
    )
    over = view["phase"] == "over"
    status = _status(view, names, lang)
    colour = (
        seat_colour(int(view["winners"][0]))
        if over and view["winners"]
        else seat_colour(int(view["turn"]))
    )
    y = top + 8
    d.rounded_rectangle(
        (EDGE // 2, y, WIDTH - EDGE // 2, y + 76), radius=14, fill=PANEL, outline=colour, width=4
    )
    probe_w = WIDTH - EDGE - 360
    d.text(
        (EDGE // 2 + 20, y + 38),
        fit_text(d, status, 34, probe_w, bold=True),
        font=font(34, bold=True),
        fill=TEXT,
        anchor="lm",
    )
    d.text((WIDTH - EDGE // 2 - 20, y + 38), rnd, font=font(24), fill=TEXT_DIM, anchor="rm")
    if view.get("face") and not over:
        dx = WIDTH - EDGE // 2 - 20 - text_width(d, rnd, 24) - 150
        _draw_die(d, dx, y + 8, 60, str(view["face"]), int(view.get("wall_len") or 0))
    # One box per player: pawn, name, pawns home as nine pips.
    y += 92
    col_w = (WIDTH - EDGE) // 2
    box_h = 84
    for seat in range(seats):
        bx = EDGE // 2 + (seat % 2) * col_w
        by = y + (seat // 2) * (box_h + 10)
        current = not over and seat == int(view["turn"])
        outline = seat_colour(seat) if current else PANEL_LIGHT
        d.rounded_rectangle(
            (bx + (6 if seat % 2 else 0), by, bx + col_w - (0 if seat % 2 else 6), by + box_h),
            radius=12,
            fill=PANEL,
            outline=outline,
            width=4 if current else 2,
        )
        draw_pawn(
            d, bx + 50, by + box_h // 2, 32, str(view["kinds"][seat]), seat_colour(seat), seat >= 2
        )
        label = _name(names, seat) + (" ★" if you == seat else "")
        # "Locked" goes on the name line, left of the arrow: the pip line has no room for it.
        locked = ""
        if seat in view.get("locked", []):
            locked = fit_text(d, t("zvv.render.locked", lang), 20, 150, bold=True)
            d.text(
                (bx + col_w - 62, by + 26),
                locked,
                font=font(20, bold=True),
                fill=DANGER,
                anchor="rm",
            )
        name_room = col_w - 170 - (text_width(d, locked, 20, True) + 12 if locked else 0)
        # The way this player races (start corner → target corner), at the box's right.
        arrow = ARROWS.get(str(view["target"][seat]), "")
        d.text(
            (bx + col_w - 34, by + 26),
            arrow,
            font=font(34, bold=True),
            fill=seat_colour(seat),
            anchor="mm",
        )
        d.text(
            (bx + 96, by + 26),
            fit_text(d, label, 26, max(60, name_room), bold=True),
            font=font(26, bold=True),
            fill=TEXT,
            anchor="lm",
        )
        home = int(view["home"][seat])
        for k in range(9):
            px = bx + 100 + k * 26
            py = by + 60
            fill = seat_colour(seat) if k < home else PANEL_LIGHT
            d.ellipse((px - 9, py - 9, px + 9, py + 9), fill=fill, outline=BLACK, width=2)
        note_x = bx + 100 + 9 * 26 + 4
        note = fit_text(d, t("zvv.render.home", lang, home=home), 20, bx + col_w - 14 - note_x)
        d.text((note_x, by + 60), note, font=font(20), fill=TEXT_DIM, anchor="lm")
    # Walls left in the supply, by length.
    y += ((seats + 1) // 2) * (box_h + 10) + 4
    supply = list(view["supply"])
    text = t("zvv.render.supply", lang) + ":"
    d.text((EDGE // 2 + 10, y + 24), text, font=font(24), fill=TEXT, anchor="lm")
    x = EDGE // 2 + 30 + text_width(d, text, 24)
    for length, left in zip((1, 2, 3), supply, strict=False):
        bar = 22 * length
        d.rounded_rectangle(
            (x, y + 18, x + bar, y + 30), radius=5, fill=WALL, outline=WALL_EDGE, width=2
        )
        d.text((x + bar + 8, y + 24), f"× {left}", font=font(24, bold=True), fill=TEXT, anchor="lm")
        x += bar + 90


def _panel_height(seats: int) -> int:
    return 8 + 92 + ((seats + 1) // 2) * 94 + 60


def _draw(view: dict[str, Any], names: list[str], lang: str, you: int | None) -> Image.Image:
    size = int(view["size"])
    grid = _Grid(size, 0)
    height = grid.bottom + EDGE + _panel_height(int(view["seats"])) + 10
    img = canvas(WIDTH, height, BACKGROUND)
    d = Draw(img)
    _draw_board(d, view, grid)
    walls = [list(w) for w in view.get("wall_segments", [])]
    recent = view.get("current") or view.get("last") or []
    built = {str(e["wall"]) for e in recent if e.get("type") == "build"}
    wall_names = list(view.get("walls", []))
    for name, segment in zip(wall_names, walls, strict=False):
        _draw_wall(d, grid, segment, glow=ACCENT if name in built else None)
    b = grid.b
    for entry in recent:
        if entry.get("type") == "remove":
            wall = b.parse_wall(str(entry["wall"]))
            if wall is not None:
                _draw_ghost_wall(d, grid, list(wall))
    _draw_reach(d, grid, view)
    occupied = {str(name) for squares in view["pawns"] for name in squares}
    for entry in recent:
        if entry.get("type") == "move":
            colour = seat_colour(int(entry["seat"]))
            _draw_path(d, grid, list(entry["path"]), colour, occupied)
    radius = int(grid.cell * 0.42)
    # The pawns that just moved wear a bright halo, so the eye finds them first.
    moved = {str(e["path"][-1]) for e in recent if e.get("type") == "move" and e.get("path")}
    kinds = list(view["kinds"])
    for seat, squares in enumerate(view["pawns"]):
        for name in squares:
            cx, cy = grid.centre(str(name))
            if name in moved:
                halo = radius + max(5, grid.cell // 14)
                d.ellipse((cx - halo, cy - halo, cx + halo, cy + halo), fill=WHITE, outline=BLACK)
            draw_pawn(d, cx, cy, radius, str(kinds[seat]), seat_colour(seat), seat >= 2)
    _draw_panel(d, view, names, lang, grid.bottom + EDGE, you)
    return img


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """The channel's picture after a turn, from the public view."""
    return PALETTE.encode(table_image(view, names, lang))


def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    """The channel's picture before encoding (replays take many)."""
    return _draw(view, names, lang, None)


def render_board(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """One player's picture: the same board (nothing is hidden), their own box starred."""
    you = view.get("you")
    return PALETTE.encode(_draw(view, names, lang, int(you) if isinstance(you, int) else None))


# Every picture of the game is mapped onto one palette (render/common.py, FixedPalette).
PALETTE = game_palette("zvv")
