"""Replays: a whole game as one animated picture, rebuilt from its seed and action log.

The game is replayed through the engine API alone (``new_game``, then ``play`` with each logged
action at its logged time), and a frame is taken wherever the channel was shown a picture: the
opening table, every move after which the phase and the game's ``picture_key`` changed, and the
final position. Each frame is the channel's own picture (``render_table`` of the *public* view,
``view(state, None)``), so a replay shows nothing a player's private view holds: no secret
submission before it is revealed, no hand, no private item.

A long game does not fail: frames are dropped evenly (the first and last are always kept, and
the frames where the seats awaited changed — the game changing hands — are preferred), frames
are shown faster, and if the encoded file is still over the size limit it is encoded again:
lossy, then with fewer frames, then smaller, until it fits. See docs/replays.md.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from i18n import t
from render import table_image
from render.common import ACCENT, PANEL, TEXT, Draw, canvas, fit_text, font
from rules.core import get_game

# One stored action: (seat, action as JSON, the service's clock when it was applied).
LogEntry = tuple[int, Mapping[str, Any], float]

# Discord's upload limit for a server without boosts.
MAX_BYTES = 10_000_000
# Each frame costs a full table render (~50–100 ms): this many frames keep the longest games
# within a few seconds of the render worker (bench/bench_replay.py measures it).
MAX_FRAMES = 24
# Wide enough to read a table when the replay is opened; Discord's preview scales it anyway.
MAX_WIDTH = 800
# Re-encoding to fit: lossy at this quality, then no fewer frames than this, then no narrower.
LOSSY_QUALITY = 80
MIN_FRAMES = 8
MIN_WIDTH = 240
# Timing (ms): a frame a second, quicker when there are many; the end is held.
FRAME_MS = 1000
FIRST_MS = 1500
LAST_MS = 4000
SHOW_MS = 24_000  # the frames between the first and the last take about this long at most
FASTEST_MS = 400

_BAND = 40  # height of the caption band, in output pixels
_CAPTION_SIZE = 22


@dataclass(frozen=True)
class Shot:
    """One picture the channel was shown."""

    view: dict[str, Any]  # the public view at that point
    number: int  # 1-based, among the game's pictures
    total: int  # how many pictures the game showed
    keep: bool  # the first or the last: never dropped
    handover: bool  # the seats awaited changed since the previous picture
    over: bool  # the game had ended


def shots(
    kind: str,
    seats: int,
    options: Mapping[str, Any] | None,
    seed: int,
    log: Sequence[LogEntry],
) -> list[Shot]:
    """Every picture the channel was shown during the game, in order, from public views.

    The rule is the service's (``Service._apply``): a picture after a move when the game ended,
    or when both the phase and ``picture_key`` changed; plus the opening table at the start,
    and the final position of a log that stops mid-game. Raises ``RulesError`` if the log does
    not replay (an action the engine refuses).
    """
    game = get_game(kind)
    state = game.new_game(seats, options, seed)
    phase, key = game.phase(state), game.picture_key(state)
    taken: list[tuple[dict[str, Any], frozenset[int], bool]] = [
        (game.view(state, None), frozenset(game.pending(state)), False)
    ]
    fresh = True  # whether the last picture shows the current position
    for seat, data, at in log:
        # The replay owns its state: play in place (``apply`` would copy it first).
        game.play(state, seat, game.action_from_json(dict(data)), at)
        over = game.is_over(state)
        new_phase, new_key = game.phase(state), game.picture_key(state)
        fresh = over or (new_phase != phase and new_key != key)
        if fresh:
            waiting = frozenset() if over else frozenset(game.pending(state))
            taken.append((game.view(state, None), waiting, over))
        phase, key = new_phase, new_key
    if not fresh:
        over = game.is_over(state)
        waiting = frozenset() if over else frozenset(game.pending(state))
        taken.append((game.view(state, None), waiting, over))
    total = len(taken)
    out: list[Shot] = []
    for i, (view, waiting, over) in enumerate(taken):
        handover = i > 0 and waiting != taken[i - 1][1]
        keep = i in (0, total - 1)
        out.append(Shot(view, i + 1, total, keep, handover, over))
    return out


def choose(pictures: Sequence[Shot], limit: int) -> list[Shot]:
    """At most ``limit`` (≥ 2) of ``pictures``, spread evenly over the game: the first and last
    always, then the hand-overs, then the others."""
    if len(pictures) <= limit:
        return list(pictures)
    kept = [s for s in pictures if s.keep]
    room = max(0, limit - len(kept))
    handovers = [s for s in pictures if s.handover and not s.keep]
    if len(handovers) >= room:
        chosen = kept + _spread(handovers, room)
    else:
        rest = [s for s in pictures if not s.keep and not s.handover]
        chosen = kept + handovers + _spread(rest, room - len(handovers))
    return sorted(chosen, key=lambda s: s.number)


def _spread(items: Sequence[Shot], count: int) -> list[Shot]:
    """``count`` items evenly spaced over ``items`` (the middle of each of ``count`` equal
    stretches, so none crowds the first or the last frame)."""
    if count <= 0:
        return []
    if count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(step * (k + 0.5))] for k in range(count)]


def caption(shot: Shot, lang: str) -> str:
    """The band above a frame: "Round 3 · 12/40" (round or turn, then the picture's place in
    the game), and "Game over" on the end."""
    parts: list[str] = []
    view = shot.view
    # Every game's public view numbers its rounds ("round") or, Dragon Farkle, its turns.
    round_no = view.get("round")
    turn_no = view.get("turn_no")
    if isinstance(round_no, int) and not isinstance(round_no, bool) and round_no > 0:
        parts.append(t("replay.round", lang, round=round_no))
    elif isinstance(turn_no, int) and not isinstance(turn_no, bool) and turn_no > 0:
        parts.append(t("replay.turn", lang, turn=turn_no))
    parts.append(t("replay.position", lang, number=shot.number, total=shot.total))
    if shot.over:
        parts.append(t("replay.over", lang))
    return " · ".join(parts)


def animate(
    kind: str,
    seats: int,
    options: Mapping[str, Any] | None,
    seed: int,
    log: Sequence[LogEntry],
    names: list[str],
    lang: str,
    *,
    max_bytes: int = MAX_BYTES,
    max_frames: int = MAX_FRAMES,
    max_width: int = MAX_WIDTH,
) -> bytes:
    """The whole game as an animated WebP of at most ``max_bytes``.

    ``log`` is the stored action log, ``names[seat]`` each seat's display name. Raises
    ``RulesError`` if the log does not replay, ``ModuleNotFoundError`` for a game without a
    renderer (``render/<kind>.py``).
    """
    chosen = choose(shots(kind, seats, options, seed, log), max(2, max_frames))
    # The channel's pictures before their PNG encoding (which would cost more than drawing).
    frames = {s.number: _rgb(table_image(kind, s.view, names, lang)) for s in chosen}
    width = min(max_width, max(f.width for f in frames.values()))
    lossless = True
    while True:
        data = _encode(chosen, frames, width, lang, lossless)
        if len(data) <= max_bytes:
            return data
        # Too big: lossy first (about five times smaller, text still clear), then fewer
        # frames down to MIN_FRAMES, then smaller ones, each by the overshoot and a little
        # more, so that one more try usually fits.
        ratio = max_bytes / len(data) * 0.9
        if lossless:
            lossless = False
        elif len(chosen) > MIN_FRAMES:
            chosen = choose(chosen, max(MIN_FRAMES, int(len(chosen) * ratio)))
        elif width > MIN_WIDTH:
            width = max(MIN_WIDTH, int(width * math.sqrt(ratio)))
        elif len(chosen) > 1:
            chosen = chosen[-1:]  # the end of the game alone
        else:
            raise ValueError(f"a replay cannot fit in {max_bytes} bytes")


def _rgb(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGB" else image.convert("RGB")


def _encode(
    chosen: Sequence[Shot],
    frames: Mapping[int, Image.Image],
    width: int,
    lang: str,
    lossless: bool,
) -> bytes:
    widest = max(frames[s.number].width for s in chosen)
    scale = min(1.0, width / widest)
    inner = max(round(frames[s.number].height * scale) for s in chosen)
    size = (round(widest * scale), inner + _BAND)
    images = [_frame(frames[s.number], s, scale, size, lang) for s in chosen]
    durations = _durations(len(images))
    buffer = io.BytesIO()
    images[0].save(
        buffer,
        "WEBP",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        # Tables are flat colour and text: lossless keeps the text sharp (quality is then the
        # effort: 0, the fastest, as is method 0). kmax=0: no key frames after the first, every
        # later frame is stored as its change from the one before (a move changes a small part
        # of the table).
        lossless=lossless,
        quality=0 if lossless else LOSSY_QUALITY,
        method=0,
        kmax=0,
    )
    return buffer.getvalue()


def _frame(
    table: Image.Image, shot: Shot, scale: float, size: tuple[int, int], lang: str
) -> Image.Image:
    out = canvas(*size)
    if scale < 1.0:
        # BILINEAR with a reducing gap: nearly LANCZOS's look at a fraction of its time.
        table = table.resize(
            (round(table.width * scale), round(table.height * scale)),
            Image.Resampling.BILINEAR,
            reducing_gap=2.0,
        )
    # Tables of one game differ in height (a panel grows): each frame is centred across and
    # sits under the band, on the felt.
    out.paste(table, ((size[0] - table.width) // 2, _BAND))
    draw = Draw(out)
    draw.rectangle((0, 0, size[0], _BAND - 1), fill=PANEL)
    text = fit_text(draw, caption(shot, lang), _CAPTION_SIZE, size[0] - 24, bold=True)
    draw.text(
        (12, _BAND // 2),
        text,
        font=font(_CAPTION_SIZE, bold=True),
        fill=ACCENT if shot.over else TEXT,
        anchor="lm",
    )
    return out


def _durations(count: int) -> list[int]:
    if count == 1:
        return [LAST_MS]
    middle = max(FASTEST_MS, min(FRAME_MS, SHOW_MS // max(1, count - 2)))
    return [FIRST_MS] + [middle] * (count - 2) + [LAST_MS]
