"""The render queue: table pictures before bulk drawing, a table that is behind draws only its
newest state, replays in their own low-priority worker, workers sized to the machine."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service, drawing
from bot.service.drawing import BULK, TABLE, RenderQueue
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, HERE, Clock


class Gate:
    """A runner that draws nothing until the test lets each job through, and records the
    order in which jobs started."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release: dict[str, asyncio.Event] = {}

    async def __call__(
        self, priority: int, function: Callable[..., bytes], args: tuple[Any, ...]
    ) -> bytes:
        name = str(args[0])
        self.started.append(name)
        await self.release.setdefault(name, asyncio.Event()).wait()
        return function(*args)

    def let(self, name: str) -> None:
        self.release.setdefault(name, asyncio.Event()).set()


def picture(name: str) -> bytes:
    return f"png of {name}".encode()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_table_pictures_jump_ahead_of_waiting_replays() -> None:
    gate = Gate()
    queue = RenderQueue({TABLE: "one", BULK: "one"}, {"one": 1}, gate)
    first = asyncio.create_task(queue.submit(TABLE, None, picture, "move 1"))
    await settle()
    replays = [
        asyncio.create_task(queue.submit(BULK, None, picture, f"replay {n}")) for n in (1, 2)
    ]
    await settle()
    later = asyncio.create_task(queue.submit(TABLE, 7, picture, "move 2"))
    board = asyncio.create_task(queue.submit(TABLE, None, picture, "board"))
    await settle()
    assert [job.args[0] for job in queue.waiting()] == ["move 2", "board", "replay 1", "replay 2"]
    for name in ("move 1", "move 2", "board", "replay 1", "replay 2"):
        gate.let(name)
    await asyncio.gather(first, later, board, *replays)
    assert gate.started == ["move 1", "move 2", "board", "replay 1", "replay 2"]


async def test_a_table_that_is_behind_draws_only_its_newest_picture() -> None:
    gate = Gate()
    queue = RenderQueue({TABLE: "table", BULK: "bulk"}, {"table": 1, "bulk": 1}, gate)
    busy = asyncio.create_task(queue.submit(TABLE, 1, picture, "table 1 move 1"))
    await settle()
    older = asyncio.create_task(queue.submit(TABLE, 2, picture, "table 2 move 1"))
    other = asyncio.create_task(queue.submit(TABLE, 3, picture, "table 3 move 1"))
    private = asyncio.create_task(queue.submit(TABLE, None, picture, "a board"))
    await settle()
    newer = asyncio.create_task(queue.submit(TABLE, 2, picture, "table 2 move 2"))
    await settle()
    assert [job.args[0] for job in queue.waiting()] == [
        "table 3 move 1",
        "a board",
        "table 2 move 2",
    ], "table 2's older picture waits no more; the others keep their place"
    for name in ("table 1 move 1", "table 3 move 1", "a board", "table 2 move 2"):
        gate.let(name)
    results = await asyncio.gather(busy, older, other, private, newer)
    assert "table 2 move 1" not in gate.started
    assert results[1] == results[4] == picture("table 2 move 2"), "both messages show the newest"
    assert results[2] == picture("table 3 move 1") and results[3] == picture("a board")
    # A picture being drawn is never replaced: the same table's next one waits for its turn.
    again = RenderQueue({TABLE: "table"}, {"table": 1}, gate)
    drawing_now = asyncio.create_task(again.submit(TABLE, 5, picture, "table 5 move 1"))
    await settle()
    following = asyncio.create_task(again.submit(TABLE, 5, picture, "table 5 move 2"))
    gate.let("table 5 move 1")
    gate.let("table 5 move 2")
    assert await drawing_now == picture("table 5 move 1")
    assert await following == picture("table 5 move 2")


async def test_a_renderer_error_reaches_every_waiter_and_the_queue_goes_on() -> None:
    async def run(priority: int, function: Callable[..., bytes], args: tuple[Any, ...]) -> bytes:
        await asyncio.sleep(0)
        return function(*args)

    def broken(name: str) -> bytes:
        raise ValueError(name)

    queue = RenderQueue({TABLE: "table"}, {"table": 1}, run)
    with pytest.raises(ValueError):
        await queue.submit(TABLE, None, broken, "x")
    assert await queue.submit(TABLE, None, picture, "y") == picture("y")
    assert queue.busy() == 0


async def test_a_replay_does_not_hold_the_table_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the bot's own queue a replay runs in its own lane: a move's picture is drawn while
    a replay is still being drawn."""
    monkeypatch.setenv("RENDER_WORKERS", "0")
    monkeypatch.setattr(drawing, "_queue", None)
    started = asyncio.Event()
    finish = asyncio.Event()
    loop = asyncio.get_running_loop()

    def slow_replay(job: Any) -> bytes:
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(finish.wait(), loop).result(timeout=10)
        return b"webp"

    monkeypatch.setattr(drawing, "_animate", slow_replay)
    monkeypatch.setattr(drawing, "_draw", lambda kind, view, names, lang, private: b"png")
    replay = asyncio.create_task(drawing.animate(object()))
    await asyncio.wait_for(started.wait(), 10)
    assert await asyncio.wait_for(drawing.draw("zvv", {}, [], "en", False, table=1), 10) == b"png"
    assert not replay.done()
    finish.set()
    assert await replay == b"webp"


def test_workers_follow_the_cores_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RENDER_WORKERS", raising=False)
    monkeypatch.setattr(drawing, "cores", lambda: 8)
    assert drawing.workers() == 8
    monkeypatch.setattr(drawing, "cores", lambda: 1)
    assert drawing.workers() == 0, "one core: a thread"
    monkeypatch.setenv("RENDER_WORKERS", "3")
    assert drawing.workers() == 3


def test_the_bulk_worker_runs_at_the_lowest_priority(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENDER_WORKERS", "1")
    monkeypatch.setattr(drawing, "_bulk_pool", None)
    pool = drawing._get_bulk_pool()
    assert pool is not None
    try:
        assert pool.submit(os.nice, 0).result(timeout=60) == min(19, os.nice(0) + drawing.BULK_NICE)
    finally:
        pool.shutdown(wait=True)
        monkeypatch.setattr(drawing, "_bulk_pool", None)


async def test_the_service_names_the_game_of_a_table_picture_and_never_of_a_board(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the queue merges: a game's table pictures, keyed by the game (a rematch in the same
    channel is another game), and never a seat's board."""
    asked: list[tuple[bool, int | None]] = []

    async def fake_draw(
        kind: str, view: object, names: list[str], lang: str, private: bool, *, table: int | None
    ) -> bytes:
        asked.append((private, table))
        return b"\x89PNG"

    monkeypatch.setattr(drawing, "draw", fake_draw)
    service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}", clock=clock)
    try:
        await service.new_game(ALICE, HERE, "zvv", {})
        await service.join(BOB, HERE)
        await service.start(ALICE, HERE)
        async with service.sessions() as session:
            row = await repo.open_game(session, HERE.channel_id)
            assert row is not None
        await service.board(ALICE, HERE)
    finally:
        await service.close()
    assert (False, row.id) in asked and (True, None) in asked
    assert all(table is None for private, table in asked if private)


async def test_behind_says_how_long_a_new_picture_would_take_from_the_backlog() -> None:
    gate = Gate()
    queue = RenderQueue({TABLE: "table", BULK: "bulk"}, {"table": 1, "bulk": 1}, gate)
    assert queue.behind() == 0.0, "nothing drawn yet: no estimate, no wait"
    gate.let("first")
    await queue.submit(TABLE, None, picture, "first")
    alone = queue.behind()  # an idle worker: its own drawing only
    assert alone > 0
    jobs = [asyncio.create_task(queue.submit(TABLE, None, picture, f"move {n}")) for n in range(4)]
    await settle()
    # One drawing and three waiting on the one worker: a new picture comes after all four.
    assert queue.behind() == pytest.approx(5 * alone)
    replays = asyncio.create_task(queue.submit(BULK, None, picture, "replay"))
    await settle()
    assert queue.behind() == pytest.approx(5 * alone), "a replay in its own lane is no backlog"
    for n in range(4):
        gate.let(f"move {n}")
    gate.let("replay")
    await asyncio.gather(*jobs, replays)


def test_table_workers_give_way_to_the_bot_and_take_it_from_replays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RENDER_WORKERS", "1")
    monkeypatch.setattr(drawing, "_pool", None)
    pool = drawing._get_pool()
    assert pool is not None
    try:
        nice = pool.submit(os.nice, 0).result(timeout=60)
        own = os.nice(0)
        assert nice == min(19, own + drawing.TABLE_NICE) and (own < nice or own == 19)
        # Above replays' workers (min(19, own + BULK_NICE)) wherever niceness leaves room: a
        # test run under `nice -n 10` has both at 19, the most a process may be given.
        assert nice < min(19, own + drawing.BULK_NICE) or nice == 19
    finally:
        pool.shutdown(wait=True)
        monkeypatch.setattr(drawing, "_pool", None)
