"""The computer's decisions, off the event loop: quick ones in a thread, searches in a process.

``easy`` and ``normal`` decide in well under 50 ms and run in a worker thread. ``hard``
searches for up to a second of pure Python: in a thread it would hold the GIL for that second
and every other game of the process would answer late (``python -m bench bots`` measures the
event loop's added latency both ways). So a hard decision runs in a separate process, like the
table pictures (bot/service/drawing.py, whose process set-up it shares): one worker, fed from a
bounded queue (``QUEUE`` decisions at once; more wait their turn on the event loop, holding
nothing). ``RENDER_WORKERS=0`` (one core, or the tests) thinks in a thread instead.

The worker gets the position as the engine's dump and loads it back: the policy's randomness
is seeded by that dump (``rules.core.policy.position_rng``), so the choice is the one the same
call would make here, and replays stay exact.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.service import drawing
from rules.core import Action, Game, get_game
from rules.core.policy import choose

log = logging.getLogger("partida.thinking")

SEARCHING = frozenset({"hard"})  # the levels that search: in the worker process
QUEUE = 4  # decisions handed to the worker at once; the others wait on the event loop

_pool: ProcessPoolExecutor | None = None
_slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool
    if _pool is None and drawing.workers() > 0:
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),  # never fork: see drawing.py
            initializer=drawing.die_with_parent,
            initargs=(os.getpid(), 0),
        )
        atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
    return _pool


def shutdown() -> None:
    """Stop the worker and wait for it (a clean stop of the bot or the console)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _slots_here() -> asyncio.Semaphore:
    global _slots
    loop = asyncio.get_running_loop()
    if _slots is None or _slots[0] is not loop:  # a test's new loop gets its own queue
        _slots = (loop, asyncio.Semaphore(QUEUE))
    return _slots[1]


def _decide(kind: str, dumped: dict[str, Any], seat: int, level: str) -> Action:
    """In the worker: the choice for the position ``dumped``."""
    engine = get_game(kind)
    return choose(engine, engine.load(dumped), seat, level)


async def decide(engine: Game[Any], state: Any, seat: int, level: str) -> Action:
    """The computer's move for ``seat`` at ``level``, thought out off the event loop."""
    if level not in SEARCHING:
        return await asyncio.to_thread(choose, engine, state, seat, level)
    global _pool
    async with _slots_here():
        pool = _get_pool()
        if pool is not None:
            dumped = engine.dump(state)
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(pool, _decide, engine.name, dumped, seat, level)
            except BrokenProcessPool:
                # The worker died (killed, out of memory): a new one next time; this decision
                # is made here, so the game still gets its move.
                log.warning("decision worker died; thinking in a thread")
                _pool = None
        return await asyncio.to_thread(choose, engine, state, seat, level)
