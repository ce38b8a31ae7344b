"""Picture cost: ms and KB per table picture per game, before and after the fixed palettes, and
pictures per second through the render workers (``RENDER_WORKERS``, default one per core).

Run: ``.venv/bin/python -m bench render``. The pictures are the tables a channel was shown along
one random legal game per game at the most seats (``render.replay.shots``), the same pictures for
both encoders. Times are CPU time of this process (the machine is shared: wall time would measure
the neighbours), the best of three passes. "before" is the encoder Farkle, FUSE and ZvV had
(an adaptive 256-colour quantization of each picture, PNG level 6) and Pillow's own text drawing
(render/common.py's ``Draw`` caches each text's mask: "now" is a worker that has drawn a few
pictures already), kept here for comparison;
Bad Bones already had its fixed palette, so its "before" is its own encoder. The issue's target:
drawing + encoding at most 60 % of before for Farkle, FUSE and ZvV, no more for Bad Bones.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import io
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageDraw

from bench.bench_replay import recorded_game
from render import table_image
from render.common import FixedPalette
from render.replay import shots
from rules.core import get_game

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank"]
GAMES = ("farkle", "fuse", "zvv", "badbones")
PICTURES = 16  # per game
TARGET = 0.60
T = TypeVar("T")


def old_png(image: Image.Image) -> bytes:
    """The encoder before fixed palettes (render/common.py's ``to_png``)."""
    buffer = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        buffer, "PNG", compress_level=6
    )
    return buffer.getvalue()


def views(kind: str) -> tuple[list[dict[str, Any]], list[str]]:
    """``PICTURES`` tables a channel was shown along one random game at the most seats."""
    seats = get_game(kind).max_seats
    log = recorded_game(kind, seats, {}, 1)
    taken = shots(kind, seats, {}, 1, log)
    step = max(1, len(taken) // PICTURES)
    return [s.view for s in taken[::step][:PICTURES]], NAMES[:seats]


def best_of_three(fn: Callable[[], list[T]]) -> tuple[float, list[T]]:
    best = float("inf")
    out: list[T] = []
    for _ in range(3):
        cpu = time.process_time()
        out = fn()
        best = min(best, time.process_time() - cpu)
    return best, out


def per_game() -> None:
    print(f"{'game':9} {'draw ms before → now':>21} {'encode ms':>14} {'total ms':>15}")
    for kind in GAMES:
        shown, names = views(kind)
        module: Any = importlib.import_module(f"render.{kind}")
        fixed: FixedPalette = module.PALETTE
        fixed.image()  # learnt once per process, not per picture

        def draw_all(
            kind: str = kind, names: list[str] = names, shown: list[dict[str, Any]] = shown
        ) -> list[Image.Image]:
            return [table_image(kind, view, names, "en") for view in shown]

        def encode_all(
            encoder: Callable[[Image.Image], bytes], images: list[Image.Image]
        ) -> Callable[[], list[bytes]]:
            return lambda: [encoder(image) for image in images]

        # Before: Pillow's own text drawing (no cached masks), and the encoder of the time.
        cached = module.Draw
        module.Draw = ImageDraw.Draw
        try:
            draw_old_s, images = best_of_three(draw_all)
        finally:
            module.Draw = cached
        draw_new_s, _ = best_of_three(draw_all)  # steady state: a worker's cache is warm
        before = fixed.encode if kind == "badbones" else old_png
        old_s, old = best_of_three(encode_all(before, images))
        new_s, new = best_of_three(encode_all(fixed.encode, images))
        n = len(shown)
        draw_old, draw_new, enc_old, enc_new = (
            1e3 * s / n for s in (draw_old_s, draw_new_s, old_s, new_s)
        )
        total_old, total_new = draw_old + enc_old, draw_new + enc_new
        kb_old = sum(map(len, old)) / n / 1e3
        kb_new = sum(map(len, new)) / n / 1e3
        ratio = total_new / total_old
        limit = 1.0 if kind == "badbones" else TARGET
        verdict = "ok" if ratio <= limit else f"OVER {limit:.0%}"
        print(
            f"{kind:9} {draw_old:9.1f} → {draw_new:5.1f}    {enc_old:5.1f} → {enc_new:4.1f}"
            f"   {total_old:5.1f} → {total_new:4.1f} ({ratio:4.0%} {verdict})"
            f"   KB {kb_old:3.0f} → {kb_new:3.0f}"
        )


def workers_cpu() -> float:
    """CPU seconds the table workers have spent so far (Linux: /proc)."""
    from bot.service import drawing

    pool = drawing._pool
    ticks = 0
    for pid in list(getattr(pool, "_processes", None) or ()):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


async def throughput(seconds: float = 6.0) -> tuple[int, float, float]:
    """Pictures per second through ``bot.service.drawing`` with its default workers: every
    game's tables, each channel asking for its next picture as soon as it has the last, so no
    worker idles. A first pass over every picture (spawning the workers, their imports, palettes
    and text caches) is not counted. Returns (workers, pictures/s, the workers' CPU ms per
    picture: what idle cores could draw)."""
    from bot.service import drawing

    jobs = []
    for kind in GAMES:
        shown, names = views(kind)
        jobs += [(kind, v, names) for v in shown]
    await asyncio.gather(
        *(drawing.draw(k, v, n, "en", False, table=c) for c, (k, v, n) in enumerate(jobs))
    )
    done = 0
    counted_from = time.perf_counter()
    cpu_from = workers_cpu()

    async def channel(number: int) -> None:
        nonlocal done
        k = number
        while time.perf_counter() - counted_from < seconds:
            kind, view, names = jobs[k % len(jobs)]
            await drawing.draw(kind, view, names, "en", False, table=number)
            done += 1
            k += 7

    await asyncio.gather(*(channel(c) for c in range(4 * max(1, drawing.workers()))))
    rate = done / (time.perf_counter() - counted_from)
    cpu = workers_cpu() - cpu_from
    drawing.shutdown()
    return drawing.workers(), rate, 1e3 * cpu / max(1, done)


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    per_game()
    workers, rate, cpu_ms = asyncio.run(throughput())
    print(
        f"pictures/s with the default workers ({workers}, a mix of the four games): {rate:.0f}"
        f" on this machine now; {cpu_ms:.1f} ms of a worker's CPU per picture,"
        f" so {workers} idle cores would draw ~{workers * 1e3 / cpu_ms:.0f}/s"
        if workers
        else f"pictures/s drawn in a thread (RENDER_WORKERS=0): {rate:.0f}"
    )
