"""Drawing table images off the event loop: in worker processes, table pictures first.

Pillow's drawing holds the GIL, so drawing in a thread still stalls the event loop (and every
other game's commands) for the ~10–30 ms an image takes. Separate processes draw on the other
cores while the bot goes on serving commands. ``RENDER_WORKERS`` sets how many processes draw
table pictures (default: one per core the bot may use; 0 = draw in a thread).

Every picture waits in one :class:`RenderQueue`, table pictures (a move's picture, a seat's
board) ahead of bulk drawing (a replay: seconds of drawing). The table workers run a little
below the bot's CPU priority (``TABLE_NICE``): a bot over its drawing capacity keeps a core's
share for its answers. Bulk drawing has its own worker,
at the lowest CPU priority (``nice`` 19), so a replay takes only the CPU the tables leave. A
table's picture that is still waiting when a newer one of the same table arrives is not drawn:
both messages get the newer picture, so a table that is behind draws only its newest state.

Over capacity (more pictures asked for than the workers draw) a move does not wait for its
picture: the service waits for a table's picture at most ``PICTURE_WAIT`` seconds, and not at
all when the queue says it would start later than that (:meth:`RenderQueue.behind`); its
message then goes out with its words alone and the picture follows it
(``Outgoing.image_later``, an edit of that message by the channel's sender).

A worker dies with the bot, however the bot ends (SIGKILL included): on Linux the kernel sends it
SIGKILL when its parent dies (``PR_SET_PDEATHSIG``), and everywhere a watchdog thread ends it
once its parent is gone. multiprocessing's resource tracker (which "spawn" starts alongside)
then sees its last writer go and exits too.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from bot import config
from render import has_renderer

log = logging.getLogger("partida.render")

_pool: ProcessPoolExecutor | None = None  # table pictures
_bulk_pool: ProcessPoolExecutor | None = None  # replays, at the lowest CPU priority

TABLE = 0  # a table's picture after a move, a seat's board: drawn first
BULK = 1  # a replay: drawn when no table picture waits, in its own low-priority worker

# How long a move's answer and table message may wait for the table's picture (seconds): a
# picture drawn by then goes with the message (one post); a later one follows it (an edit).
# Under capacity a picture takes 10-40 ms; at capacity it waits its turn a little.
PICTURE_WAIT = 0.25
# How much a new duration weighs in a lane's running mean of the time a picture takes.
_MEAN_WEIGHT = 0.1


def cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers() -> int:
    configured = config.current().render_workers
    if configured is not None:
        return configured
    # One per core: drawing is most of a move's CPU. A one-core machine draws in a thread
    # (a process there would only add the cost of sending the picture back).
    count = cores()
    return count if count > 1 else 0


def _spawn(count: int, nice: int) -> ProcessPoolExecutor:
    # "spawn", never fork: the bot has threads (aiosqlite, discord.py) that a fork would
    # copy in an undefined state.
    pool = ProcessPoolExecutor(
        max_workers=count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(), nice),
    )
    atexit.register(pool.shutdown, wait=False, cancel_futures=True)
    return pool


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool
    if _pool is None and workers() > 0:
        _pool = _spawn(workers(), TABLE_NICE)
    return _pool


def _get_bulk_pool() -> ProcessPoolExecutor | None:
    global _bulk_pool
    if _bulk_pool is None and workers() > 0:
        _bulk_pool = _spawn(1, BULK_NICE)
    return _bulk_pool


# The bulk worker's niceness: under contention Linux gives it ~1.5 % of a core against a
# table worker's share, so a replay never slows a table's picture noticeably.
BULK_NICE = 19
# The table workers' niceness: one worker per core keeps every core busy when the pictures
# are behind, and the bot's own process (the answers, the table's words) must not wait for a
# core behind them: under contention Linux gives a worker at nice 10 about a tenth of the
# bot's share, and nothing less when the cores are free (the bulk worker keeps ~1/7 of a
# table worker's).
TABLE_NICE = 10


def shutdown() -> None:
    """Stop the render workers and wait for them (a clean stop of the bot or the console)."""
    global _pool, _bulk_pool
    pools, _pool, _bulk_pool = (_pool, _bulk_pool), None, None
    for pool in pools:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


# How often a worker looks whether its parent is still there (where the kernel cannot tell it).
WATCHDOG_PERIOD = 0.5
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, nice: int = 0) -> None:
    """The worker's initializer. A spawned worker holds both ends of its task queue, so the
    parent's death closes nothing it waits on: left alone it would wait for work forever.
    ``nice``: how much lower the worker's CPU priority is than the bot's."""
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
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
    """A whole game as an animated WebP (``bot.service.draft.ReplayJob``), in the bulk worker:
    it draws up to 24 tables (1–5 s of CPU), never on the event loop, never before a table's
    picture that waits."""
    return await queue().submit(BULK, None, _animate, job)


async def draw(
    kind: str,
    view: dict[str, Any],
    names: list[str],
    lang: str,
    private: bool,
    *,
    table: int | None = None,
) -> bytes:
    """PNG bytes of a view. Raises what the renderer raises (``ModuleNotFoundError`` for a game
    without a renderer). ``table``: the game whose public table this is: a newer picture of
    the same table, asked for while this one still waits, is drawn instead and returned to
    both (never another game's, such as the rematch in the same channel)."""
    key = None if private or table is None else table
    return await queue().submit(TABLE, key, _draw, kind, view, names, lang, private)


@dataclass(order=True)
class Job:
    """A picture waiting for a worker: ordered by priority, then by arrival."""

    priority: int
    number: int
    function: Callable[..., bytes] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    key: Hashable | None = field(compare=False, default=None)
    waiters: list[asyncio.Future[bytes]] = field(compare=False, default_factory=list)
    dropped: bool = field(compare=False, default=False)


Runner = Callable[[int, Callable[..., bytes], tuple[Any, ...]], Awaitable[bytes]]


class RenderQueue:
    """The pictures waiting to be drawn, and the workers drawing them.

    ``lanes`` maps each priority to the lane that draws it, and ``slots`` says how many jobs
    each lane draws at once (its workers). Lanes may be shared: then a waiting table picture
    is taken before any waiting bulk job, whatever their order of arrival. ``run`` draws one
    job of a lane (in its worker pool, or a thread)."""

    def __init__(self, lanes: dict[int, str], slots: dict[str, int], run: Runner) -> None:
        self._lanes = lanes
        self._slots = slots
        self._busy = dict.fromkeys(slots, 0)
        self._run = run
        self._waiting: dict[str, list[Job]] = {lane: [] for lane in slots}
        self._newest: dict[Hashable, Job] = {}  # the waiting picture of each table
        self._numbers = itertools.count()
        # Each lane's running mean of the seconds a job takes (None: none drawn yet).
        self._took: dict[str, float | None] = dict.fromkeys(slots)

    def waiting(self) -> list[Job]:
        """The jobs not started yet, in the order they will start (per lane, lanes in turn)."""
        return [job for lane in self._waiting.values() for job in sorted(lane) if not job.dropped]

    def busy(self) -> int:
        return sum(self._busy.values())

    def behind(self, priority: int = TABLE) -> float:
        """About how many seconds a job of ``priority`` asked for now would take to be drawn:
        its turn (the jobs waiting ahead of it, shared among the lane's workers) and its own
        drawing, at the lane's mean time per job so far (0 before any job was drawn)."""
        lane = self._lanes[priority]
        took = self._took[lane] or 0.0
        ahead = sum(
            1 for job in self._waiting[lane] if not job.dropped and job.priority <= priority
        )
        full = self._busy[lane] >= self._slots[lane]
        return (ahead / self._slots[lane] + (1 if full else 0) + 1) * took

    async def submit(
        self, priority: int, key: Hashable | None, function: Callable[..., bytes], *args: Any
    ) -> bytes:
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        job = Job(priority, next(self._numbers), function, args, key, [future])
        older = self._newest.get(key) if key is not None else None
        if older is not None and not older.dropped:
            # The table is behind: its older picture is not drawn, its message gets this one.
            older.dropped = True
            job.waiters[:0] = older.waiters
        if key is not None:
            self._newest[key] = job
        heapq.heappush(self._waiting[self._lanes[priority]], job)
        self._pump()
        return await future

    def _pump(self) -> None:
        for lane, heap in self._waiting.items():
            while heap and self._busy[lane] < self._slots[lane]:
                job = heapq.heappop(heap)
                if job.dropped:
                    continue
                if job.key is not None and self._newest.get(job.key) is job:
                    del self._newest[job.key]
                self._busy[lane] += 1
                asyncio.get_running_loop().create_task(self._start(lane, job))

    async def _start(self, lane: str, job: Job) -> None:
        began = time.perf_counter()
        try:
            result = await self._run(job.priority, job.function, job.args)
        except BaseException as exc:  # the renderer's error is each waiter's
            for waiter in job.waiters:
                if not waiter.done():
                    waiter.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
        else:
            took, mean = time.perf_counter() - began, self._took[lane]
            self._took[lane] = took if mean is None else mean + _MEAN_WEIGHT * (took - mean)
            for waiter in job.waiters:
                if not waiter.done():
                    waiter.set_result(result)
        finally:
            self._busy[lane] -= 1
            self._pump()


_queue: tuple[asyncio.AbstractEventLoop, RenderQueue] | None = None


def queue() -> RenderQueue:
    """The running loop's render queue: table pictures on ``workers()`` slots, replays on one.
    (One loop in the bot; a test's new loop gets a new queue, not one whose jobs died with
    the old loop.)"""
    global _queue
    loop = asyncio.get_running_loop()
    if _queue is None or _queue[0] is not loop:
        lanes = {TABLE: "table", BULK: "bulk"}
        _queue = (loop, RenderQueue(lanes, {"table": max(1, workers()), "bulk": 1}, _off_loop))
    return _queue[1]


async def _off_loop(priority: int, function: Callable[..., bytes], args: tuple[Any, ...]) -> bytes:
    global _pool, _bulk_pool
    pool = _get_bulk_pool() if priority == BULK else _get_pool()
    if pool is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): start a new one next time, draw this
            # image here so the message still goes out with its picture.
            log.warning("render worker died; drawing in a thread")
            if priority == BULK:
                _bulk_pool = None
            else:
                _pool = None
    return await asyncio.to_thread(function, *args)
