"""FUSE: one picture per round — every player's bomb cards with their dice, the round's dice,
the centre row, deck and bag counts, and the clock (a burning fuse).

Drawn from the public view only (FUSE has no hidden information beyond the deck order and the
bag, which the view does not carry). Icons follow the printed cards: a coloured square for a
colour, a white square with a number, ``#`` for a chosen number, a four-colour "rainbow" for a
chosen colour, split squares cut on the diagonal, stacks with an arrow from bottom to top and
pyramids drawn as 3 / 2 / 1.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from i18n import t
from render.common import (
    ACCENT,
    BACKGROUND,
    DANGER,
    PANEL,
    TEXT,
    TEXT_DIM,
    Draw,
    canvas,
    fit_text,
    font,
    game_palette,
    seat_colour,
    text_width,
)

Colour = tuple[int, int, int]

WIDTH = 1280
MARGIN = 24
DIE_COLOURS: dict[str, Colour] = {
    "R": (220, 52, 46),
    "B": (40, 110, 225),
    "G": (36, 168, 72),
    "Y": (246, 204, 34),
    "K": (24, 24, 28),
}
RAINBOW = ("R", "B", "G", "Y")
CARD_BG = (22, 40, 78)  # the printed cards' dark blue
CARD_EDGE = (90, 130, 200)
ICON_WHITE = (236, 238, 240)
INK = (20, 20, 24)
OP_GAP = 30  # width given to a relation symbol between two slots
SLOT_GAP = 8
CARD_PAD = 12
HEADER_H = 30  # the card id / points band at the top of a card
NUMBER_H = 32  # room for the slot numbers under a player's icons
LOCK = 32  # the safe-die badge
NUMBER_SIZE = 30  # slot numbers: ~9 px on a phone's 400-px preview (22 px read as specks)
SOCKET = (44, 64, 110)  # an empty slot's well: lighter than the card, so black icons show
SOCKET_EDGE = (170, 186, 214)
BLACK_EDGE = (150, 156, 170)
HATCH_ON_BLACK = (
    92,
    98,
    114,
)  # an empty black slot's stripes: still black, not the card  # the frame of a black icon or die against the dark card


def _ink_on(colour: str | None) -> Colour:
    """Readable text on a die or icon colour."""
    return INK if colour in (None, "Y") else (255, 255, 255)


# ---------------------------------------------------------------------------- icons and dice


def _draw_split(
    img: Image.Image, box: tuple[int, int, int, int], first: Colour, second: Colour
) -> None:
    """Two colours cut along the diagonal (top-left / bottom-right), like the printed split."""
    x0, y0, x1, y1 = box
    d = Draw(img)
    d.polygon([(x0, y0), (x1, y0), (x0, y1)], fill=first)
    d.polygon([(x1, y0), (x1, y1), (x0, y1)], fill=second)


def _alt_fill(alt: dict[str, Any], mark: str) -> Colour:
    colour = alt.get("c")
    return DIE_COLOURS[colour] if colour else ICON_WHITE


def _draw_rainbow(img: Image.Image, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    d = Draw(img)
    quads = [(x0, y0, mx, my), (mx, y0, x1, my), (x0, my, mx, y1), (mx, my, x1, y1)]
    for q, c in zip(quads, RAINBOW, strict=True):
        d.rectangle(q, fill=DIE_COLOURS[c])


def _draw_socket(img: Image.Image, x: int, y: int, size: int, slot: dict[str, Any]) -> None:
    """An empty slot: a dashed well with the slot's icon inside, smaller, so it never looks like
    a die placed there (an empty "red 5" slot and a placed red 5 looked the same)."""
    d = Draw(img)
    d.rectangle((x, y, x + size - 1, y + size - 1), fill=SOCKET)
    dash, width = max(4, size // 8), 2
    for k in range(0, size, dash * 2):
        e = min(size - 1, k + dash)
        d.line((x + k, y, x + e, y), fill=SOCKET_EDGE, width=width)
        d.line((x + k, y + size - 1, x + e, y + size - 1), fill=SOCKET_EDGE, width=width)
        d.line((x, y + k, x, y + e), fill=SOCKET_EDGE, width=width)
        d.line((x + size - 1, y + k, x + size - 1, y + e), fill=SOCKET_EDGE, width=width)
    inset = 4  # a thin well around a nearly full-size icon: split numbers stay legible
    _draw_icon(img, x + inset, y + inset, size - 2 * inset, slot, empty=True)


def _hatch(img: Image.Image, box: tuple[int, int, int, int], colour: Colour) -> None:
    """Diagonal stripes over an empty slot's icon: a solid square is a die placed, a striped
    one a slot still to fill (an empty black 6 and a placed black 6 looked alike).
    On black the stripes are grey, so a black slot still reads as black, not as the card."""
    x0, y0, x1, y1 = box
    d = Draw(img)
    w, h = x1 - x0, y1 - y0
    pitch = max(8, w // 5)
    for k in range(-h, w, pitch):
        # the stripe (x0 + k + t, y1 - t), cut to the icon's square
        t0, t1 = max(0, -k), min(h, w - k)
        if t0 < t1:
            d.line((x0 + k + t0, y1 - t0, x0 + k + t1, y1 - t1), fill=colour, width=max(3, w // 16))


def _draw_icon(
    img: Image.Image, x: int, y: int, size: int, slot: dict[str, Any], empty: bool = False
) -> None:
    """One slot's icon in a ``size`` square at (x, y); ``empty``: striped (a slot to fill)."""
    d = Draw(img)
    box = (x, y, x + size - 1, y + size - 1)
    mark = slot["mark"]
    alts = slot["alts"]
    big = font(int(size * 0.55), bold=True)
    small = font(int(size * 0.38), bold=True)
    labels: list[tuple[tuple[float, float], str, Any, Colour]] = []  # drawn over the stripes
    if mark == "*":
        _draw_rainbow(img, box)
    elif mark == "#*":
        _draw_rainbow(img, box)
        inset = size // 4
        d.rectangle((x + inset, y + inset, x + size - inset, y + size - inset), fill=ICON_WHITE)
        labels.append(((x + size // 2, y + size // 2), "#", small, INK))
    elif mark == "#|*":
        # half "#" on white, half rainbow
        _draw_rainbow(img, box)
        d.polygon([(x, y), (x + size - 1, y), (x, y + size - 1)], fill=ICON_WHITE)
        labels.append(((x + size * 0.3, y + size * 0.32), "#", small, INK))
    elif len(alts) == 2:
        a, b = alts
        _draw_split(img, box, _alt_fill(a, mark), _alt_fill(b, mark))
        d.line((x + size - 1, y, x, y + size - 1), fill=(120, 130, 145), width=2)
        for alt, (cx, cy) in ((a, (0.3, 0.3)), (b, (0.7, 0.7))):
            if alt["n"] is not None:
                labels.append(
                    ((x + size * cx, y + size * cy), str(alt["n"]), small, _ink_on(alt["c"]))
                )
    else:
        alt = alts[0]
        d.rectangle(box, fill=_alt_fill(alt, mark))
        label = str(alt["n"]) if alt["n"] is not None else ""
        if mark in ("#", "?"):
            label = mark
        if label:
            labels.append(((x + size // 2, y + size // 2 + 1), label, big, _ink_on(alt["c"])))
    black = len(alts) == 1 and alts[0].get("c") == "K" and mark not in ("*", "#*", "#|*")
    if empty:
        _hatch(img, box, HATCH_ON_BLACK if black else SOCKET)
    for xy, text, fnt, fill in labels:
        # on stripes a label gets an outline of the opposite tone, so no stripe cuts through it
        halo = ICON_WHITE if fill == INK else INK
        stroke = 3 if empty else 0
        d.text(xy, text, font=fnt, fill=fill, anchor="mm", stroke_width=stroke, stroke_fill=halo)
    d.rectangle(box, outline=BLACK_EDGE if black else (205, 210, 220), width=3 if black else 2)


def draw_die(
    img: Image.Image, x: int, y: int, size: int, token: str, outline: Colour | None = None
) -> None:
    """A die: a rounded square of its colour showing its number."""
    d = Draw(img)
    colour = token[0]
    fill = DIE_COLOURS[colour]
    edge = outline or ((200, 200, 200) if colour == "K" else (255, 255, 255))
    # A shadow under the die: it stands on the card, where an empty slot is a flat well.
    d.rounded_rectangle(
        (x + 3, y + 4, x + size + 2, y + size + 3), radius=size // 6, fill=(6, 10, 22)
    )
    d.rounded_rectangle(
        (x, y, x + size - 1, y + size - 1), radius=size // 6, fill=fill, outline=edge, width=3
    )
    d.text(
        (x + size // 2, y + size // 2 + 1),
        token[1:],
        font=font(int(size * 0.6), bold=True),
        fill=_ink_on(colour),
        anchor="mm",
    )


# ---------------------------------------------------------------------------- cards


def _row_width(row: list[Any], slot: int) -> int:
    width = 0
    for tok in row:
        width += slot + SLOT_GAP if isinstance(tok, int) else OP_GAP + (12 if len(tok) > 1 else 0)
    return width - SLOT_GAP if row else 0


def _part_size(part: dict[str, Any], slot: int, numbered: bool = False) -> tuple[int, int]:
    rows = part["rows"]
    width = max(_row_width(r, slot) for r in rows)
    height = len(rows) * (_row_pitch(slot, numbered)) - SLOT_GAP
    if part["layout"] == "stack":
        height += 22  # the arrow under a stack
    return width, height


def _row_pitch(slot: int, numbered: bool) -> int:
    """Height of one row of icons; a player's cards show slot numbers under the icons (the
    numbers players type in ``place`` and ``return``)."""
    return slot + SLOT_GAP + (NUMBER_H if numbered else 0)


def card_size(card: dict[str, Any], slot: int) -> tuple[int, int]:
    numbered = "dice" in card
    sizes = [_part_size(p, slot, numbered) for p in card["parts"]]
    width = sum(w for w, _ in sizes) + 28 * (len(sizes) - 1)
    height = max(h for _, h in sizes)
    return max(width + 2 * CARD_PAD, 150), height + 2 * CARD_PAD + HEADER_H


def draw_card(
    img: Image.Image, x: int, y: int, card: dict[str, Any], slot: int, seat: int | None = None
) -> tuple[int, int]:
    """Draw a bomb card (with its dice if the view has them); returns its size."""
    w, h = card_size(card, slot)
    d = Draw(img)
    edge = seat_colour(seat) if seat is not None else CARD_EDGE
    d.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=CARD_BG, outline=edge, width=3)
    # header: card id on the left, points in a badge on the right (like the printed hexagon)
    d.text((x + CARD_PAD, y + 6), card["id"], font=font(20, bold=True), fill=TEXT)
    badge = f"{card['points']}"
    bx = x + w - CARD_PAD - 30
    d.regular_polygon((bx + 15, y + 18, 15), 6, fill=_level_colour(card["level"]))
    d.text((bx + 15, y + 18), badge, font=font(19, bold=True), fill=INK, anchor="mm")
    dice = card.get("dice") or [None] * len(card["slots"])
    safe = card.get("safe") or [False] * len(card["slots"])
    px = x + CARD_PAD
    top = y + CARD_PAD + HEADER_H
    inner_h = h - 2 * CARD_PAD - HEADER_H
    op_font = font(int(slot * 0.5), bold=True)
    numbered = "dice" in card
    number_font = font(NUMBER_SIZE, bold=True)
    for part in card["parts"]:
        pw, ph = _part_size(part, slot, numbered)
        rows = part["rows"]
        py = top + (inner_h - ph) // 2
        for r, row in enumerate(rows):
            # a pyramid's bottom row is drawn lowest; upper rows are centred over it
            ry = py + (len(rows) - 1 - r) * _row_pitch(slot, numbered)
            rx = px + (pw - _row_width(row, slot)) // 2
            for tok in row:
                if isinstance(tok, int):
                    if numbered:
                        d.text(
                            (rx + slot // 2, ry + slot + 2),
                            str(tok + 1),
                            font=number_font,
                            fill=TEXT,
                            anchor="ma",
                        )
                    if dice[tok]:
                        draw_die(img, rx, ry, slot - 2, dice[tok])
                        if safe[tok]:
                            _draw_lock(d, rx + slot - LOCK + 6, ry + slot - LOCK + 6)
                    elif numbered:  # a player's card: its empty slots are wells
                        _draw_socket(img, rx, ry, slot, card["slots"][tok])
                    else:  # the centre row: no die can be there, the icons stay full size
                        _draw_icon(img, rx, ry, slot, card["slots"][tok])
                    rx += slot + SLOT_GAP
                else:
                    gap = OP_GAP + (12 if len(tok) > 1 else 0)
                    d.text(
                        (rx + gap // 2 - SLOT_GAP // 2, ry + slot // 2),
                        tok,
                        font=op_font,
                        fill=TEXT,
                        anchor="mm",
                    )
                    rx += gap
        if part["layout"] == "stack":
            ay = py + ph - 10
            d.line((px + 4, ay, px + pw - 10, ay), fill=TEXT, width=3)
            d.polygon(
                [(px + pw - 2, ay), (px + pw - 14, ay - 7), (px + pw - 14, ay + 7)], fill=TEXT
            )
        px += pw + 28
    return w, h


def _draw_lock(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A badge with a tick: this die is safe (another die rests on it). 32 px, ~10 px on a
    phone's 400-px preview (the 12-px dot, then the 22-px badge, read as specks)."""
    d.ellipse((x, y, x + LOCK, y + LOCK), fill=ACCENT, outline=INK, width=3)
    d.text((x + LOCK // 2, y + LOCK // 2 + 1), "✓", font=font(24, bold=True), fill=INK, anchor="mm")


def _level_colour(level: int) -> Colour:
    return {1: (120, 200, 120), 2: (120, 180, 240), 3: (240, 170, 70), 4: (230, 90, 90)}.get(
        level, (200, 120, 230)
    )


def _flow(
    img: Image.Image,
    x0: int,
    y0: int,
    max_w: int,
    cards: list[dict[str, Any]],
    slot: int,
    seat: int | None = None,
) -> int:
    """Lay cards out left to right, wrapping; returns the y below the last row."""
    places, height = _places(cards, slot, max_w)
    for card, (x, y) in zip(cards, places, strict=True):
        draw_card(img, x0 + x, y0 + y, card, slot, seat)
    return y0 + height


def _flow_height(cards: list[dict[str, Any]], slot: int, max_w: int) -> int:
    return _places(cards, slot, max_w)[1]


def _places(
    cards: list[dict[str, Any]], slot: int, max_w: int
) -> tuple[list[tuple[int, int]], int]:
    """Where each card goes (left to right, a new row when the next would pass ``max_w``) and
    the rows' height: one layout for measuring and for drawing, so that the picture is as tall
    as what it draws (a hand measured at one width and drawn at another wrapped its last card
    under the centre row)."""
    x, y, row_h = 0, 0, 0
    places: list[tuple[int, int]] = []
    for card in cards:
        w, h = card_size(card, slot)
        if x > 0 and x + w > max_w:
            x, y, row_h = 0, y + row_h + 12, 0
        places.append((x, y))
        x += w + 14
        row_h = max(row_h, h)
    return places, y + row_h


# ---------------------------------------------------------------------------- the table


def _clock_text(view: dict[str, Any], lang: str) -> str:
    if view["mode"] == "live":
        left = view.get("clock_left")
        if left is None:
            return t("fuse.label.waiting", lang)
        secs = int(left)
        key = "fuse.label.clock_stopped" if view["outcome"] == "won" else "fuse.label.clock_live"
        return t(key, lang, time=f"{secs // 60}:{secs % 60:02d}")
    if view.get("round_limit"):
        return t("fuse.label.clock_relaxed", lang, round=view["round"], limit=view["round_limit"])
    return t("fuse.label.clock_relaxed_open", lang)


def _draw_fuse_bar(d: ImageDraw.ImageDraw, x: int, y: int, w: int, view: dict[str, Any]) -> None:
    """The clock as a burning fuse: the cord shortens as time runs out."""
    if view["mode"] == "live":
        left = view.get("clock_left")
        share = 1.0 if left is None else max(0.0, min(1.0, left / 600.0))
    elif view.get("round_limit"):
        share = max(0.0, 1 - view["round"] / view["round_limit"])
    else:
        share = 1.0
    d.rounded_rectangle((x, y, x + w, y + 12), radius=6, fill=(60, 60, 60))
    burn = int(w * share)
    if burn > 0:
        d.rounded_rectangle((x, y, x + burn, y + 12), radius=6, fill=(210, 180, 120))
        d.ellipse((x + burn - 10, y - 6, x + burn + 14, y + 18), fill=(255, 140, 20))
        d.ellipse((x + burn - 4, y, x + burn + 8, y + 12), fill=(255, 240, 120))


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    return PALETTE.encode(table_image(view, names, lang))


def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    """The channel's picture before encoding (replays take many)."""
    return _table(view, names, lang)


def render_board(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """FUSE hides nothing at the table: a seat's board is the table picture."""
    return PALETTE.encode(_table(view, names, lang))


def _table(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    players = view["players"]
    inner = WIDTH - 2 * MARGIN
    hand_w = inner - 8  # a hand sits 4 px inside its panel on each side
    slot_p = 56 if len(players) <= 3 else 50
    slot_c = 44
    name_w = 0
    # heights first, then one canvas
    player_heights = [max(_flow_height(p["cards"], slot_p, hand_w), 40) + 44 for p in players]
    centre_h = _flow_height(view["centre"], slot_c, inner) + 44 if view["centre"] else 80
    height = 96 + 110 + sum(player_heights) + centre_h + 90
    if view["stage"] == "over":
        height += 80
    img = canvas(WIDTH, height)
    d = Draw(img)

    # header: title, round, difficulty; the clock on the right
    d.rectangle((0, 0, WIDTH, 84), fill=(16, 30, 24))
    d.text((MARGIN, 14), "FUSE", font=font(40, bold=True), fill=(255, 90, 40))
    level = t(f"fuse.difficulty.{view['difficulty']}", lang)
    sub = f"{t('fuse.label.round', lang, round=view['round'])} · {level}"
    d.text((MARGIN + 140, 24), sub, font=font(26), fill=TEXT)
    clock = _clock_text(view, lang)
    d.text((WIDTH - MARGIN, 14), clock, font=font(28, bold=True), fill=ACCENT, anchor="ra")
    _draw_fuse_bar(d, WIDTH - MARGIN - 420, 60, 420, view)
    y = 96

    # the round's dice
    x = MARGIN
    for entry in view["dice"]:
        size = 72
        seat = entry["claimed_by"]
        outline = seat_colour(seat) if seat is not None else None
        draw_die(img, x, y + 4, size, entry["die"], outline)
        if entry["placed"]:
            # placed dice are dimmed: they now sit on a card
            veil = Image.new("RGBA", (size, size), (*BACKGROUND, 170))
            img.paste(veil, (x, y + 4), veil)
        elif seat is not None:
            label = fit_text(d, names[seat] if seat < len(names) else str(seat), 18, 110)
            d.text((x + size // 2, y + size + 8), label, font=font(18), fill=outline, anchor="ma")
        x += size + 40
    status = ""
    if view["stage"] == "return" and view.get("current"):
        match = view["current"]
        parts = {}
        if match[0] in DIE_COLOURS:
            parts["colour"] = t(f"fuse.colour.{match[0]}", lang)
        if match[-1].isdigit():
            parts["number"] = match[-1]
        which = "die" if len(parts) == 2 else ("colour" if "colour" in parts else "number")
        status = t(f"fuse.label.resolving_{which}", lang, **parts)
    elif view["stage"] == "start":
        status = t("fuse.label.waiting", lang)
    if status:
        d.text((x + 10, y + 28), status, font=font(24, bold=True), fill=ACCENT)
    y += 110

    # every player's bomb cards
    for p, ph in zip(players, player_heights, strict=True):
        seat = p["seat"]
        colour = seat_colour(seat)
        d.rounded_rectangle((MARGIN - 8, y, WIDTH - MARGIN + 8, y + ph - 6), radius=10, fill=PANEL)
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        name = fit_text(d, name, 24, 520)
        d.text((MARGIN + 4, y + 6), name, font=font(24, bold=True), fill=colour)
        name_w = text_width(d, name, 24, True)
        notes = []
        if p["holding"]:
            notes.append(t("fuse.label.holding", lang, die=p["holding"]))
        if p["taking"]:
            notes.append(t("fuse.label.taking", lang))
        if p["owing"]:
            notes.append(t("fuse.label.owing", lang))
        if p["done"]:
            notes.append(t("fuse.label.done", lang))
        if notes:
            d.text((MARGIN + name_w + 20, y + 9), " · ".join(notes), font=font(20), fill=TEXT_DIM)
        if p["cards"]:
            _flow(img, MARGIN + 4, y + 40, hand_w, p["cards"], slot_p, seat)
        else:
            d.text((MARGIN + 4, y + 44), t("fuse.label.empty", lang), font=font(20), fill=TEXT_DIM)
        y += ph

    # the centre row
    d.text((MARGIN, y + 6), t("fuse.label.centre", lang), font=font(24, bold=True), fill=TEXT)
    if view["centre"]:
        _flow(img, MARGIN, y + 40, inner, view["centre"], slot_c)
    else:  # an empty row said so, not a heading over nothing
        d.text((MARGIN + 4, y + 40), t("fuse.label.empty", lang), font=font(20), fill=TEXT_DIM)
    y += centre_h

    # footer: deck, bag (by colour), defused, fuse cards, score
    y += 10
    x = MARGIN
    deck = t("fuse.label.deck", lang, count=view["deck"])
    d.text((x, y), deck, font=font(24, bold=True), fill=TEXT)
    x += text_width(d, deck, 24, True) + 36
    bag = t("fuse.label.bag", lang, count=view["bag"])
    d.text((x, y), bag, font=font(24, bold=True), fill=TEXT)
    x += text_width(d, bag, 24, True) + 12
    for letter, count in zip("RBGYK", view["bag_colours"], strict=True):
        d.rounded_rectangle(
            (x, y + 2, x + 26, y + 28), radius=5, fill=DIE_COLOURS[letter], outline=(200, 200, 200)
        )
        d.text(
            (x + 13, y + 15),
            str(count),
            font=font(18, bold=True),
            fill=_ink_on(letter),
            anchor="mm",
        )
        x += 32
    x += 24
    defused = t("fuse.label.defused", lang, count=len(view["defused"]), points=view["points"])
    d.text((x, y), defused, font=font(24), fill=TEXT)
    x += text_width(d, defused, 24) + 36
    fuses = t("fuse.label.fuses", lang, count=len(view["fuses"]))
    d.text((x, y), fuses, font=font(24), fill=TEXT)
    y += 50
    if view["stage"] == "over":
        won = view["outcome"] == "won"
        banner = t("fuse.label.won" if won else "fuse.label.lost", lang, score=view["score"])
        d.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + 64), radius=12, fill=(40, 140, 80) if won else DANGER
        )
        d.text(
            (WIDTH // 2, y + 32),
            banner,
            font=font(34, bold=True),
            fill=(255, 255, 255),
            anchor="mm",
        )
    return img


# Every picture of the game is mapped onto one palette (render/common.py, FixedPalette).
PALETTE = game_palette("fuse")
