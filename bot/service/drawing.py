"""Drawing table images off the event loop: in a worker process when there is a spare core.

Pillow's drawing holds the GIL, so drawing in a thread still stalls the event loop (and every
other game's commands) for the ~15–40 ms an image takes. A separate process draws on the other
core while the bot goes on serving commands. ``RENDER_WORKERS`` sets how many processes
(default: one if the machine has more than one core, else 0 = draw in a thread).

A worker dies with the bot, however the bot ends (SIGKILL included): on Linux the kernel sends it
SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), and everywhere a watchdog thread ends it
once its parent is gone. multiprocessing's resource tracker (which "spawn" starts alongside)
then sees its last writer go and exits too.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import config
from render import has_renderer

log = logging.getLogger("partida.render")

_pool: ProcessPoolExecutor | None = None


def workers() -> int:
    configured = config.current().render_workers
    if configured is not None:
        return configured
    return 1 if (os.cpu_count() or 1) > 1 else 0


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool
    if _pool is None and workers() > 0:
        # "spawn", never fork: the bot has threads (aiosqlite, discord.py) that a fork would
        # copy in an undefined state.
        _pool = ProcessPoolExecutor(
            max_workers=workers(),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )
        atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
    return _pool


def shutdown() -> None:
    """Stop the render workers and wait for them (a clean stop of the bot or the console)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


# How often a worker looks whether its parent is still there (where the kernel cannot tell it).
WATCHDOG_PERIOD = 0.5
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """The worker's initializer. A spawned worker holds both ends of its task queue, so the
    parent's death closes nothing it waits on: left alone it would wait for work forever."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl (an unusual libc): the watchdog remains
            pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="parent-watchdog", daemon=True).start()


def _watch(parent: int) -> None:
    # An orphan is adopted by init (or a subreaper), so the parent pid changes.
    while os.getppid() == parent:
        time.sleep(WATCHDOG_PERIOD)
    os._exit(1)


def drawable(kind: str) -> bool:
    """Whether the game ``kind`` has pictures at all."""
    return has_renderer(kind)


def _draw(kind: str, view: dict[str, Any], names: list[str], lang: str, private: bool) -> bytes:
    from render import render_board, render_table

    return (render_board if private else render_table)(kind, view, names, lang)


def _animate(job: Any) -> bytes:
    from render.replay import animate

    return animate(job.kind, job.seats, job.options, job.seed, job.log, job.names, job.lang)


async def animate(job: Any) -> bytes:
    """A whole game as an animated WebP (``bot.service.draft.ReplayJob``), in the render
    worker like a picture: it draws up to 24 tables (1–5 s of CPU), never on the event loop."""
    return await _off_loop(_animate, job)


async def draw(
    kind: str, view: dict[str, Any], names: list[str], lang: str, private: bool
) -> bytes:
    """PNG bytes of a view. Raises what the renderer raises (``ModuleNotFoundError`` for a game
    without a renderer)."""
    return await _off_loop(_draw, kind, view, names, lang, private)


async def _off_loop(function: Callable[..., bytes], *args: Any) -> bytes:
    global _pool
    pool = _get_pool()
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): start a new one next time, draw this
            # image here so the message still goes out with its picture.
            log.warning("render worker died; drawing in a thread")
            _pool = None
    return await asyncio.to_thread(function, *args)
