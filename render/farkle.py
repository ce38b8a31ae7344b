"""Dragon Farkle pictures: the table after each turn (public) and one wannabe's board (private).

The table shows every army (a bar towards the 5,000 soldiers that open the Dragon's Keep),
companions, how many magic items each holds (face-down cards, never which), who is inside the
Keep, the dragon's damage counters, and the current roll: soldier dice with their letters, the
dice set aside and the event die. The board adds the seat's own items with their texts.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from i18n import number, t
from render.common import (
    ACCENT,
    BACKGROUND,
    BLACK,
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
    wrap,
)
from rules.farkle import scoring

WIDTH = 1200
MARGIN = 24
ROW_H = 118
KEEP_ARMY = 5000
DRAGON_RED = (200, 40, 40)
EATEN_RED = (150, 86, 66)  # a scorched die: eaten by the dragon
RALLY_BLUE = (40, 110, 210)
KEEP_STONE = (120, 110, 100)
CARD_BACK = (96, 60, 150)


# Pip positions on a die of unit size (fractions of the die's side).
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def draw_die(
    d: Draw,
    x: int,
    y: int,
    size: int,
    face: int,
    colour: tuple[int, int, int] = WHITE,
    dim: bool = False,
) -> None:
    fill = tuple(int(c * 0.55) for c in colour) if dim else colour
    d.rounded_rectangle(
        (x, y, x + size, y + size), radius=size // 6, fill=fill, outline=BLACK, width=3
    )
    r = max(3, size // 11)
    for fx, fy in PIPS.get(face, ()):
        cx, cy = x + fx * size, y + fy * size
        pip = DRAGON_RED if face == 1 and not dim else BLACK
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)


def draw_eaten_die(d: Draw, x: int, y: int, size: int, face: int) -> None:
    """A die the dragon ate: scorched red-brown, crossed out in red, so it never reads as a die
    banked for points (those are only dimmed)."""
    draw_die(d, x, y, size, face, colour=EATEN_RED)
    w = max(3, size // 9)
    inset = size // 6
    for a, b in (
        ((x + inset, y + inset), (x + size - inset, y + size - inset)),
        ((x + size - inset, y + inset), (x + inset, y + size - inset)),
    ):
        d.line((a, b), fill=BLACK, width=w + 4)
        d.line((a, b), fill=DRAGON_RED, width=w)


def draw_event_die(d: Draw, x: int, y: int, size: int, event: str) -> None:
    """The event die: a red die with a dragon's head, a blue one with a banner, or blank."""
    if event == "dragon":
        d.rounded_rectangle(
            (x, y, x + size, y + size), radius=size // 6, fill=DRAGON_RED, outline=BLACK, width=3
        )
        s = size
        # A dragon's head in profile: snout, horns, eye, flame.
        # A dragon's head in profile: crest spikes, a horn, open jaws with a flame.
        head = [
            (x + 0.14 * s, y + 0.86 * s),
            (x + 0.20 * s, y + 0.50 * s),
            (x + 0.12 * s, y + 0.44 * s),
            (x + 0.26 * s, y + 0.38 * s),
            (x + 0.22 * s, y + 0.26 * s),
            (x + 0.36 * s, y + 0.28 * s),
            (x + 0.40 * s, y + 0.10 * s),
            (x + 0.50 * s, y + 0.26 * s),
            (x + 0.82 * s, y + 0.34 * s),
            (x + 0.84 * s, y + 0.46 * s),
            (x + 0.58 * s, y + 0.50 * s),
            (x + 0.80 * s, y + 0.62 * s),
            (x + 0.52 * s, y + 0.66 * s),
            (x + 0.40 * s, y + 0.86 * s),
        ]
        d.polygon(head, fill=(120, 200, 90), outline=BLACK, width=2)
        d.ellipse(
            (x + 0.50 * s, y + 0.33 * s, x + 0.58 * s, y + 0.41 * s), fill=ACCENT, outline=BLACK
        )
        d.polygon(
            [
                (x + 0.80 * s, y + 0.52 * s),
                (x + 0.97 * s, y + 0.44 * s),
                (x + 0.92 * s, y + 0.56 * s),
                (x + 0.98 * s, y + 0.64 * s),
            ],
            fill=ACCENT,
        )
    elif event == "rally":
        d.rounded_rectangle(
            (x, y, x + size, y + size), radius=size // 6, fill=RALLY_BLUE, outline=BLACK, width=3
        )
        s = size
        d.line(
            (x + 0.30 * s, y + 0.18 * s, x + 0.30 * s, y + 0.84 * s),
            fill=WHITE,
            width=max(3, s // 16),
        )
        d.polygon(
            [
                (x + 0.32 * s, y + 0.18 * s),
                (x + 0.80 * s, y + 0.32 * s),
                (x + 0.32 * s, y + 0.48 * s),
            ],
            fill=ACCENT,
        )
    else:
        d.rounded_rectangle(
            (x, y, x + size, y + size),
            radius=size // 6,
            fill=(225, 225, 215),
            outline=BLACK,
            width=3,
        )


def draw_card_back(d: Draw, x: int, y: int, w: int = 26, h: int = 36) -> None:
    d.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=CARD_BACK, outline=WHITE, width=2)
    d.text((x + w // 2, y + h // 2), "✦", font=font(16, True), fill=ACCENT, anchor="mm")


def draw_keep(d: Draw, x: int, y: int, size: int, fill: tuple[int, int, int] = KEEP_STONE) -> None:
    """A small keep tower: the Dragon's Keep badge."""
    s = size
    d.rectangle(
        (x + 0.15 * s, y + 0.30 * s, x + 0.85 * s, y + s), fill=fill, outline=BLACK, width=2
    )
    for i in range(4):
        bx = x + 0.15 * s + i * 0.19 * s
        d.rectangle(
            (bx, y + 0.12 * s, bx + 0.12 * s, y + 0.32 * s), fill=fill, outline=BLACK, width=2
        )
    d.pieslice((x + 0.38 * s, y + 0.58 * s, x + 0.62 * s, y + 0.86 * s), 180, 360, fill=BLACK)
    d.rectangle((x + 0.38 * s, y + 0.72 * s, x + 0.62 * s, y + s), fill=BLACK)


def _header(d: Draw, view: dict[str, Any], names: list[str], lang: str, y: int) -> int:
    d.rectangle((0, y, WIDTH, y + 96), fill=PANEL)
    d.text((MARGIN, y + 14), t("farkle.name", lang), font=font(34, True), fill=ACCENT)
    sub = t("farkle.label.turn", lang, n=view["turn_no"])
    action = view.get("action") or ""
    if view.get("winner", -1) >= 0:
        sub = t("farkle.label.winner", lang, name=_name(names, view["winner"]))
    else:
        sub += " · " + _name(names, view["turn"])
        if action == "recruit":
            sub += " · " + t("farkle.label.recruit", lang)
        elif action == "brawl" and view.get("defender", -1) >= 0:
            sub += " · " + t("farkle.label.brawl", lang) + " → " + _name(names, view["defender"])
        elif action == "keep":
            sub += " · " + t("farkle.label.battle", lang)
    d.text((MARGIN, y + 58), fit_text(d, sub, 24, 700), font=font(24), fill=TEXT)
    # The dragon and its damage counters.
    target, damage = view["target"], view["damage"]
    last = view.get("last") or {}
    if action == "keep":
        shown = damage
    elif last.get("action") == "keep":
        shown = last.get("damage", 0)  # the turn just ended: what the dragon took before healing
    else:
        shown = 0
    r = 20
    x0 = WIDTH - MARGIN - target * (2 * r + 10)
    d.text(
        (x0 - 12, y + 30),
        t("farkle.label.dragon", lang),
        font=font(24, True),
        fill=TEXT,
        anchor="rm",
    )
    for i in range(target):
        cx = x0 + i * (2 * r + 10) + r
        hit = i < shown
        d.ellipse(
            (cx - r, y + 30 - r, cx + r, y + 30 + r),
            fill=DRAGON_RED if hit else PANEL_LIGHT,
            outline=WHITE,
            width=3,
        )
        if hit:
            d.text((cx, y + 30), "✕", font=font(22, True), fill=WHITE, anchor="mm")
    # Damage past the target (a rally on the last blow) is still a slain dragon: show n/n.
    label = t("farkle.label.damage", lang, damage=min(shown, target), target=target)
    d.text((WIDTH - MARGIN, y + 70), label, font=font(20), fill=TEXT_DIM, anchor="rm")
    return y + 96


def _player_row(
    d: Draw, view: dict[str, Any], names: list[str], lang: str, seat: int, y: int
) -> int:
    p = view["players"][seat]
    colour = seat_colour(seat)
    # ▶ marks who must act now: the defender asked to respond, a player asked to discard… (the
    # view's ``pending``), not always the wannabe whose turn it is (the ▶ stayed on
    # the attacker while the defender had to answer).
    acting = view.get("pending") or [view["turn"]]
    active = seat in acting and view["stage"] != "over"
    d.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + ROW_H - 10),
        radius=12,
        fill=PANEL_LIGHT if active else PANEL,
        outline=ACCENT if active else PANEL,
        width=4,
    )
    d.rectangle((MARGIN, y, MARGIN + 14, y + ROW_H - 10), fill=colour)
    x = MARGIN + 30
    marker = "▶ " if active else ("★ " if seat == view.get("winner", -1) else "")
    d.text(
        (x, y + 10),
        # "#2" is the number commands use for this wannabe (/farkle brawl target:2).
        fit_text(d, f"{marker}#{seat + 1} {_name(names, seat)}", 28, 320, True),
        font=font(28, True),
        fill=colour,
    )
    comp = t(f"farkle.companion.{p['companion']}", lang)
    if p["companion"] == "skree" and p["skree_used"]:
        comp += " ✓"
    d.text((x, y + 46), fit_text(d, comp, 22, 330), font=font(22), fill=TEXT)
    # Items: face-down cards, only how many (below the companion's descenders, not on them).
    ix = x
    for i in range(min(p["items"], 4)):
        draw_card_back(d, ix + i * 30, y + 77, 20, 27)
    if p["items"]:
        d.text(
            (ix + min(p["items"], 4) * 30 + 6, y + 91),
            f"×{p['items']}",
            font=font(20, True),
            fill=TEXT,
            anchor="lm",
        )
    else:
        d.text((ix, y + 91), "—", font=font(20), fill=TEXT_DIM, anchor="lm")
    # The army and its bar towards the Keep.
    ax = 400
    d.text((ax, y + 8), number(p["army"], lang), font=font(40, True), fill=WHITE)
    d.text(
        (ax + text_width(d, number(p["army"], lang), 40, True) + 10, y + 26),
        t("farkle.label.army", lang),
        font=font(20),
        fill=TEXT_DIM,
    )
    bar_x0, bar_x1, bar_y = ax, WIDTH - MARGIN - 200, y + 66
    d.rounded_rectangle(
        (bar_x0, bar_y, bar_x1, bar_y + 26), radius=8, fill=BACKGROUND, outline=TEXT_DIM, width=2
    )
    full = min(1.0, p["army"] / KEEP_ARMY)
    if full > 0:
        d.rounded_rectangle(
            (bar_x0, bar_y, bar_x0 + max(16, int((bar_x1 - bar_x0) * full)), bar_y + 26),
            radius=8,
            fill=colour,
        )
    # The 5,000 mark above the bar's end: the army needed to enter the Keep.
    d.text(
        (bar_x1, bar_y - 4),
        "⚑ " + number(KEEP_ARMY, lang),
        font=font(18, True),
        fill=TEXT_DIM,
        anchor="rb",
    )
    if p["in_keep"]:
        draw_keep(d, WIDTH - MARGIN - 128, y + 8, 56)
        d.text(
            (WIDTH - MARGIN - 100, y + 84),
            t("farkle.label.keep", lang),
            font=font(16, True),
            fill=ACCENT,
            anchor="mm",
        )
    return y + ROW_H


def _run(
    d: Draw,
    run: dict[str, Any],
    names: list[str],
    lang: str,
    x: int,
    y: int,
    title: str,
    width: int,
    prey: int = 0,
) -> None:
    """``prey``: the dice the dragon is about to eat (a bitmask), ringed in red."""
    colour = seat_colour(run["seat"])
    d.text(
        (x, y),
        fit_text(d, f"{_name(names, run['seat'])} · {title}", 24, width, True),
        font=font(24, True),
        fill=colour,
    )
    size = 74
    dy = y + 40
    cx = x
    # A dragon roll's dice set aside are the ones the dragon ate (the player cannot keep dice
    # on a dragon roll): drawn scorched and crossed, not dimmed like dice banked.
    eaten = run["event"] == "dragon"
    for i, face in enumerate(run["roll"]):
        kept = run["kept"][i] if i < len(run["kept"]) else False
        if kept and eaten:
            draw_eaten_die(d, cx, dy, size, face)
        else:
            draw_die(d, cx, dy, size, face, dim=kept)
        if prey >> i & 1:
            d.rounded_rectangle(
                (cx - 5, dy - 5, cx + size + 5, dy + size + 5),
                radius=14,
                outline=DRAGON_RED,
                width=5,
            )
        letter = "abcdef"[i]
        d.text(
            (cx + size // 2, dy + size + 16),
            letter,
            font=font(24, True),
            fill=DRAGON_RED if kept and eaten else (ACCENT if not kept else TEXT_DIM),
            anchor="mm",
        )
        cx += size + 14
    if run["event"]:
        cx += 10
        draw_event_die(d, cx, dy, size, run["event"])
        d.text(
            (cx + size // 2, dy + size + 16),
            t(f"farkle.face.{run['event']}", lang).split(" ")[-1],
            font=font(18),
            fill=TEXT,
            anchor="mm",
        )
        cx += size + 24
    # Dice set aside since the last hot dice, small.
    aside = [f for f in run["aside"]]
    if aside:
        ax = x
        ay = dy + size + 40
        d.text(
            (ax, ay + 14),
            t("farkle.label.set_aside", lang) + ":",
            font=font(18),
            fill=TEXT_DIM,
            anchor="lm",
        )
        ax += text_width(d, t("farkle.label.set_aside", lang) + ":", 18) + 10
        # The view flags each die the dragon ate, also after rolling on past it: eaten dice
        # of an earlier roll must not look like dice banked.
        gone = list(run.get("eaten", ())) + [False] * len(aside)
        for k, f in enumerate(aside):
            if gone[k]:
                draw_eaten_die(d, ax, ay, 30, f)
            else:
                draw_die(d, ax, ay, 30, f)
            ax += 36
    label = (
        t("farkle.label.lost", lang, lost=number(run["score"], lang))
        if title == t("farkle.label.battle", lang)
        else t("farkle.label.score", lang, score=number(run["score"], lang))
    )
    d.text((x + width, y + 4), label, font=font(26, True), fill=WHITE, anchor="ra")
    if run.get("gained"):
        gx = x + width - 30 * run["gained"]
        for i in range(run["gained"]):
            draw_card_back(d, gx + i * 30, y + 40, 24, 32)


def _runs(view: dict[str, Any]) -> tuple[list[tuple[dict[str, Any], str]], bool]:
    """The runs to draw: the current ones, or else the last turn's (``True``)."""
    runs = [(view["attack"], view.get("action", "")), (view.get("defence"), "defence")]
    shown = [(r, a) for r, a in runs if r and r["roll"]]
    if shown:
        return shown, False
    last = view.get("last") or {}
    past = [r for r in last.get("runs", []) if r and r["roll"]]
    what = {"recruit": "recruit", "brawl": "brawl", "keep": "keep"}.get(last.get("action", ""), "")
    return [(r, what if i == 0 else "defence") for i, r in enumerate(past)], True


def _roll_panel(d: Draw, view: dict[str, Any], names: list[str], lang: str, y: int) -> int:
    shown, past = _runs(view)
    if not shown:
        return y
    h = 190 * len(shown) + 10
    d.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + h),
        radius=12,
        fill=PANEL if not past else BACKGROUND,
        outline=PANEL_LIGHT,
        width=2,
    )
    yy = y + 12
    for run, what in shown:
        title = {
            "recruit": t("farkle.label.recruit", lang),
            "brawl": t("farkle.label.brawl", lang) + " · " + t("farkle.label.attack", lang),
            "keep": t("farkle.label.battle", lang),
            "defence": t("farkle.label.brawl", lang) + " · " + t("farkle.label.defence", lang),
        }.get(what, "")
        # The dragon stage: the roll waits for "roll again / stop" and the dragon will eat
        # every scoring die of it; ring them, as the text lists them.
        prey = 0
        if not past and view["stage"] == "dragon" and run["seat"] in view.get("pending", []):
            prey = scoring.all_scoring_mask(list(run["roll"]), view["options"]["four_pair"])
        _run(d, run, names, lang, MARGIN + 20, yy, title, WIDTH - 2 * MARGIN - 40, prey)
        yy += 190
    return y + h + 12


def _last_line(d: Draw, view: dict[str, Any], names: list[str], lang: str, y: int) -> int:
    text = last_line_text(view, names, lang)
    if not text:
        return y
    d.text(
        (MARGIN, y + 6),
        "⟲ " + fit_text(d, text, 24, WIDTH - 2 * MARGIN - 40),
        font=font(24),
        fill=TEXT_DIM,
    )
    return y + 44


def last_line_text(view: dict[str, Any], names: list[str], lang: str) -> str:
    """The table's "⟲" line: how the last turn ended ("" before the first one ended)."""
    last = view.get("last") or {}
    if "seat" not in last:
        return ""
    name = _name(names, last["seat"])
    outcome = last.get("outcome")
    if outcome == "banked" and not last.get("amount"):
        text = t("farkle.label.last_banked_none", lang, name=name)
    elif outcome == "banked":
        text = t(
            "farkle.label.last_banked", lang, name=name, amount=number(last.get("amount", 0), lang)
        )
    elif outcome == "farkle":
        text = t("farkle.label.last_farkle", lang, name=name)
    elif outcome == "won":
        # what the winner gained: the loser's soldiers (if any) and the bonus (unless the
        # Pickpocket took an item instead)
        key = "farkle.label.last_brawl_won" + ("" if last.get("moved") else "_nothing")
        key += "_bonus" if last.get("bonus") else ""
        text = t(
            key,
            lang,
            name=_name(names, last.get("winner", last["seat"])),
            moved=number(last.get("moved", 0), lang),
            bonus=number(last.get("bonus", 0), lang),
        )
    elif outcome == "tie":
        text = t("farkle.label.last_brawl_tie", lang, name=name)
    elif outcome == "slain":
        text = t("farkle.label.last_slain", lang, name=name)
    else:
        text = t("farkle.label.last_keep", lang, name=name, damage=last.get("damage", 0))
    return text


def _draw(
    view: dict[str, Any], names: list[str], lang: str, extra: int
) -> tuple[Image.Image, Draw, int]:
    seats = view["seats"]
    roll_h = 190 * len(_runs(view)[0])
    height = 96 + 16 + ROW_H * seats + (roll_h + 22 if roll_h else 0) + 50 + extra + 10
    img = canvas(WIDTH, height)
    d = Draw(img)
    y = _header(d, view, names, lang, 0) + 16
    for seat in range(seats):
        y = _player_row(d, view, names, lang, seat, y)
    if _runs(view)[1]:
        y = _last_line(d, view, names, lang, y)
        y = _roll_panel(d, view, names, lang, y)
    else:
        y = _roll_panel(d, view, names, lang, y)
        y = _last_line(d, view, names, lang, y)
    return img, d, y


def render_table(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """The channel's picture, from the public view."""
    return PALETTE.encode(table_image(view, names, lang))


def table_image(view: dict[str, Any], names: list[str], lang: str) -> Image.Image:
    """The channel's picture before encoding (replays take many)."""
    img, _, _ = _draw(view, names, lang, 0)
    return img


def render_board(view: dict[str, Any], names: list[str], lang: str) -> bytes:
    """One wannabe's picture: the table, their own magic items with their texts, and what
    every companion at the table does (house texts, public)."""
    probe = Draw(canvas(10, 10))
    text_w = WIDTH - 2 * MARGIN - 80
    items: list[tuple[str, list[str], bool]] = []
    mine = [(i, False) for i in view.get("my_items", [])]
    mine += [(i, True) for i in view.get("my_gained", [])]
    for item, is_gained in mine:
        title = t(f"farkle.item.{item}", lang)
        if is_gained:
            title += f"  ({t('farkle.label.gained', lang)})"
        items.append(
            (title, wrap(probe, t(f"farkle.item_text.{item}", lang), 20, text_w), is_gained)
        )
    comps: list[tuple[int, str, list[str]]] = []
    for seat, p in enumerate(view["players"]):
        companion = t(f"farkle.companion.{p['companion']}", lang)
        title = f"#{seat + 1} {_name(names, seat)}: {companion}"
        lines = wrap(probe, t(f"farkle.companion_text.{p['companion']}", lang), 20, text_w)
        comps.append((seat, fit_text(probe, title, 22, text_w + 40, True), lines))
    items_h = 60 + (sum(40 + 26 * len(lines) + 12 for _, lines, _ in items) if items else 40)
    comps_h = 60 + sum(34 + 26 * len(lines) + 10 for _, _, lines in comps)
    img, d, y = _draw(view, names, lang, items_h + comps_h)
    me = view.get("me", 0)
    d.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + items_h - 10),
        radius=12,
        fill=PANEL,
        outline=seat_colour(me),
        width=4,
    )
    d.text(
        (MARGIN + 20, y + 12),
        t("farkle.label.your_items", lang),
        font=font(26, True),
        fill=seat_colour(me),
    )
    yy = y + 56
    if not items:
        d.text((MARGIN + 20, yy), t("farkle.label.no_items", lang), font=font(22), fill=TEXT_DIM)
    for title, lines, is_gained in items:
        draw_card_back(d, MARGIN + 20, yy, 26, 36)
        d.text(
            (MARGIN + 60, yy + 2),
            title,
            font=font(24, True),
            fill=TEXT_DIM if is_gained else ACCENT,
        )
        yy += 40
        for line in lines:
            d.text((MARGIN + 60, yy), line, font=font(20), fill=TEXT)
            yy += 26
        yy += 12
    y += items_h
    d.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + comps_h - 10), radius=12, fill=PANEL)
    d.text(
        (MARGIN + 20, y + 12), t("farkle.label.companions", lang), font=font(26, True), fill=TEXT
    )
    yy = y + 56
    for seat, title, lines in comps:
        d.rectangle((MARGIN + 20, yy + 4, MARGIN + 32, yy + 26), fill=seat_colour(seat))
        d.text((MARGIN + 44, yy), title, font=font(22, True), fill=seat_colour(seat))
        yy += 34
        for line in lines:
            d.text((MARGIN + 44, yy), line, font=font(20), fill=TEXT)
            yy += 26
        yy += 10
    return PALETTE.encode(img)


# Every picture of the game is mapped onto one palette (render/common.py, FixedPalette).
PALETTE = game_palette("farkle")


__all__ = ["render_board", "render_table"]
