"""Drawing table images off the event loop: in a worker process when there is a spare core.

Pillow's drawing holds the GIL, so drawing in a thread still stalls the event loop (and every
other game's commands) for the ~15–40 ms an image takes. A separate process draws on the other
core while the bot goes on serving commands. ``RENDER_WORKERS`` sets how many processes
(default: one if the machine has more than one core, else 0 = draw in a thread).
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import importlib.util
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import config

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
            max_workers=workers(), mp_context=multiprocessing.get_context("spawn")
        )
        atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
    return _pool


@functools.cache
def drawable(kind: str) -> bool:
    """Whether the game ``kind`` has a renderer (``render/<kind>.py``); a game without one (the
    test game) is played in text alone."""
    return importlib.util.find_spec(f"render.{kind}") is not None


def _draw(kind: str, view: dict[str, Any], names: list[str], lang: str, private: bool) -> bytes:
    from render import render_board, render_table

    return (render_board if private else render_table)(kind, view, names, lang)


async def draw(
    kind: str, view: dict[str, Any], names: list[str], lang: str, private: bool
) -> bytes:
    """PNG bytes of a view. Raises what the renderer raises (``ModuleNotFoundError`` for a game
    without a renderer)."""
    global _pool
    pool = _get_pool()
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(
                pool, _draw, kind, view, names, lang, private
            )
        except BrokenProcessPool:
            # The worker died (killed, out of memory): start a new one next time, draw this
            # image here so the message still goes out with its picture.
            log.warning("render worker died; drawing in a thread")
            _pool = None
    return await asyncio.to_thread(_draw, kind, view, names, lang, private)
