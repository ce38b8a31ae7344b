"""Two bot processes on one database, both playing the same games and running the deadlines.

Each process is a real OS process (``tests/reliability/driver.py``) with its own ``Service``,
so the only thing they share is the database: the per-channel ``asyncio.Lock`` protects
nothing here, the version column and the deadline claim do. The test counts, per game, what
both processes acknowledged and announced, and compares it with the action log:

- every acknowledged submission is exactly one log entry (nothing lost, nothing doubled);
- every phase change in the log was announced exactly once (no phase resolved twice);
- every missed deadline was announced once (the rest of its turn is the computer's, quietly),
  and no seat was defaulted twice for one ask (a phase's, or one of the questions a phase asks
  as it goes on: only one process applied each due deadline);
- the stored state of every game equals the replay of its log.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service
from bot.store import repository as repo
from i18n import t
from rules.core import get_game
from tests.reliability.driver import (
    GameSpec,
    all_games,
    defaults_by_process,
    parse_output,
    seat_count,
    setup_games,
)

ROOT = Path(__file__).resolve().parents[2]


async def driver(url: str, *args: str) -> asyncio.subprocess.Process:
    """A driver process (``tests/reliability/driver.py``), its stdin, stdout and stderr piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.reliability.driver",
        url,
        *args,
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def run_driver(url: str, *args: str) -> tuple[int, str, str]:
    process = await driver(url, *args)
    out, err = await asyncio.wait_for(process.communicate(), timeout=150)
    return process.returncode or 0, out.decode(), err.decode()


async def run_together(url: str, count: int, *args: str) -> list[tuple[int, str, str]]:
    """Start ``count`` drivers; once every one has said ``READY`` (imported and connected),
    tell them all ``GO`` at once, and return each one's exit code, stdout and stderr."""
    processes = [await driver(url, *args) for _ in range(count)]

    async def ready(process: asyncio.subprocess.Process) -> bytes:
        """Its output up to and including ``READY`` (all of it if it died first)."""
        assert process.stdout is not None
        before = b""
        while line := await process.stdout.readline():
            before += line
            if line.startswith(b"READY"):
                break
        return before

    early = await asyncio.wait_for(asyncio.gather(*(ready(p) for p in processes)), timeout=150)
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"GO\n")
    finished = await asyncio.wait_for(
        asyncio.gather(*(p.communicate() for p in processes)), timeout=150
    )
    return [
        (p.returncode or 0, (before + out).decode(), err.decode())
        for p, before, (out, err) in zip(processes, early, finished, strict=True)
    ]


async def check_log_against_outputs(
    service: Service, ids: dict[int, int], outputs: list[list[tuple[str, dict[str, Any]]]]
) -> dict[str, int]:
    """The per-game accounting described in the module docstring; returns totals."""
    lines = [line for output in outputs for line in output]
    acks = Counter(d["channel"] for tag, d in lines if tag == "ACK")
    announced = Counter(d["channel"] for tag, d in lines if tag == "ANNOUNCE")
    defaulted = sum(defaults_by_process(outputs), Counter())
    totals: Counter[str] = Counter()
    for channel, game_id in ids.items():
        async with service.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            assert row is not None
            log = list(await repo.action_log(session, game_id))
        engine = get_game(row.kind)
        state = engine.new_game(len(row.seats), row.options, row.seed)
        changes = 0
        defaults_seen: set[tuple[str, int, int | None]] = set()
        game_clock = 0  # defaults that ended the game on its own clock: the game says so
        previous_at: float | None = None
        for entry in log:
            before = engine.phase(state)
            asked = engine.pending(state).get(entry.seat)
            # A step with no decision played in the move before it (ZvV's roll) is announced
            # in that move's message, not in one of its own.
            automatic = engine.automatic(state, entry.seat)
            merged = (
                entry.by_default
                and entry.at == previous_at
                and automatic is not None
                and automatic.to_json() == entry.action
            )
            previous_at = entry.at
            if entry.by_default:
                # Once per question: Bad Bones' landing can ask the same owner twice in one
                # phase (each question numbered by ``asked``), and each may run out of time.
                key = (before, entry.seat, asked.asked if asked else None)
                assert key not in defaults_seen, f"{row.kind}: seat defaulted twice at {key}"
                defaults_seen.add(key)
            state, _ = engine.apply(
                state, entry.seat, engine.action_from_json(entry.action), entry.at
            )
            changes += (engine.phase(state) != before or engine.is_over(state)) and not merged
            if entry.by_default and engine.is_over(state) and asked and asked.deadline is not None:
                game_clock += 1
        assert engine.dump(state) == row.state, f"{row.kind}: stored state != replay of its log"
        assert await service.state_from_log(game_id) == row.state
        by_hand = sum(not e.by_default for e in log)
        assert by_hand == acks[channel], (
            f"{row.kind}: {acks[channel]} acknowledged, {by_hand} in the log"
        )
        # Each missed deadline is announced once; the rest of a turn whose deadline passed is
        # the computer's, quietly (bot/service/computer.py): by default too, not announced.
        not_by_hand, announced_defaults = len(log) - by_hand - game_clock, defaulted[channel]
        assert announced_defaults <= not_by_hand, f"{row.kind}: a default announced twice"
        assert (announced_defaults == 0) == (not_by_hand == 0), f"{row.kind}: a quiet default"
        assert changes == announced[channel], (
            f"{row.kind}: {changes} phase changes, {announced[channel]} announcements"
        )
        totals["acks"] += by_hand
        totals["defaults"] += len(log) - by_hand
        totals["phases"] += changes
    return dict(totals)


async def test_two_processes_never_resolve_twice_or_lose_a_move(database_url: str) -> None:
    service = await Service.open(database_url, render=False)
    try:
        kinds = all_games()
        specs = [GameSpec(k, seat_count(k), 10 + i) for i, k in enumerate(kinds)]
        # More simultaneous phases: tiny's sealed bids with three seats, in several channels.
        specs += [GameSpec("tiny", 3, 50 + i) for i in range(3)]
        ids = await setup_games(service, specs)
        results = await asyncio.gather(
            *(
                run_driver(
                    database_url, "--seed", str(n), "--steps", "220", "--deadline-every", "9"
                )
                for n in (1, 2)
            )
        )
        for code, _out, err in results:
            assert code == 0 and "Traceback" not in err, err[-3000:]
        outputs = [parse_output(out) for _code, out, _err in results]
        for lines in outputs:
            for tag, data in lines:
                if tag == "REFUSED":
                    assert "went wrong" not in data["text"], data
        totals = await check_log_against_outputs(service, ids, outputs)
        # The processes really did work on the same games.
        both = set.intersection(
            *({d["channel"] for tag, d in lines if tag == "ACK"} for lines in outputs)
        )
        assert both, "the two processes never acted in the same game"
        print("totals:", totals)
        assert totals["acks"] > 100 and totals["defaults"] > 0
    finally:
        await service.close()


async def test_two_processes_apply_each_due_deadline_once(database_url: str) -> None:
    """Every game's first deadlines fall due at once in two processes that start together: each
    default is applied by exactly one of them, and both take part. (A default that leaves the
    same seat a further step of its turn leaves that step due at once too: a turn keeps one
    deadline. The next turn's deadlines, a day after the new clock, are not due.)"""
    service = await Service.open(database_url, render=False)
    try:
        kinds = all_games()
        # (Without ZvV's autoroll, whose rolls are due at once, not on a deadline.)
        no_autoroll = {"zvv": {"autoroll": False}}
        specs = [
            GameSpec(k, seat_count(k, 3), 10 + i, no_autoroll.get(k, {}))
            for i, k in enumerate(kinds * 3)
        ]
        ids = await setup_games(service, specs)
        due = 0
        for game_id in ids.values():
            async with service.sessions() as session:
                row = await repo.game_by_id(session, game_id)
                assert row is not None and row.state is not None
            due += len(get_game(row.kind).pending(get_game(row.kind).load(row.state)))
        results = await run_together(database_url, 2, "--deadlines-only")
        for code, _out, err in results:
            assert code == 0 and "Traceback" not in err, err[-3000:]
        outputs = [parse_output(out) for _code, out, _err in results]
        applied = [sum(counts.values()) for counts in defaults_by_process(outputs)]
        print("defaults applied by each process:", applied)
        assert all(applied), f"both processes must apply deadlines: {applied}"
        async with service.sessions() as session:
            logged = 0
            for game_id in ids.values():
                log = await repo.action_log(session, game_id)
                logged += sum(e.by_default for e in log)
                assert all(e.by_default for e in log)
        # Each default is announced once, by the process that applied it; the rest of a turn
        # whose deadline passed is the computer's, quietly (by default too, not announced), so
        # the log may hold more than was announced, never less. That no default was applied
        # twice is checked per game below (a seat defaults once in a phase).
        assert sum(applied) <= logged, f"{applied} defaults announced, {logged} in the log"
        assert logged >= due, f"{logged} defaults in the log for {due} due deadlines"
        await check_log_against_outputs(service, ids, outputs)
    finally:
        await service.close()


def test_a_default_is_counted_once_per_message_not_per_edit() -> None:
    """A turn's message edited by both processes shows a default line again in each edit: it
    counts once, for the process whose edit added it; a default really said twice counts
    twice (twice in one message, or in two posts)."""
    line = t("lobby.deadline.defaulted", "en", player="P0")

    def said(version: int, *narration: str, edit: bool = True) -> tuple[str, dict[str, Any]]:
        data = {"channel": 7, "slot": [1, "phase", "1"], "version": version, "edit": edit}
        return "SAID", {**data, "lines": ["turn", *narration]}

    first = [said(1, "a", line, edit=False), said(3, "a", line, "b", "c")]
    second = [said(2, "a", line, "b"), said(4, "a", line, "b", "c", line)]
    counts = defaults_by_process([first, second])
    assert [counts[0][7], counts[1][7]] == [1, 1]
    plain = ("DEFAULTED", {"channel": 7})
    counts = defaults_by_process([[plain], [plain, said(1, line, edit=False)]])
    assert [counts[0][7], counts[1][7]] == [1, 2]


def test_deadlocks_and_serialization_failures_are_retried() -> None:
    """PostgreSQL aborts one side of a deadlock (40P01) or a serialization failure (40001);
    the service retries those like a version conflict instead of failing the command."""
    from sqlalchemy.exc import DBAPIError, OperationalError

    from bot.service.runner import _retryable

    class Orig(Exception):
        def __init__(self, sqlstate: str) -> None:
            super().__init__(sqlstate)
            self.sqlstate = sqlstate

    assert _retryable(DBAPIError("INSERT", {}, Orig("40P01")))
    assert _retryable(DBAPIError("UPDATE", {}, Orig("40001")))
    assert not _retryable(DBAPIError("UPDATE", {}, Orig("42P01")))
    assert _retryable(OperationalError("UPDATE", {}, Exception("database is locked")))
    assert not _retryable(OperationalError("UPDATE", {}, Exception("disk I/O error")))
    assert not _retryable(RuntimeError("bug"))


async def test_a_real_deadlock_is_retried_and_the_move_lands(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A real PostgreSQL deadlock: the move's transaction holds its game row and, on its first
    attempt, waits for a row another connection holds, while that connection waits for the game
    row. PostgreSQL aborts the move's side (its deadlock check runs first: the other side waits
    longer before checking), the service retries it from a fresh load, and the move lands."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time: it cannot deadlock")
    from sqlalchemy import text

    from bot.service import Actor, Place
    from bot.store.database import create_engine

    caplog.set_level(logging.INFO, logger="partida.service")
    service = await Service.open(database_url, render=False)
    other = create_engine(database_url)
    here, alice, bob = Place(77, 1), Actor(1, "Alice"), Actor(2, "Bob")
    try:
        await service.new_game(alice, here, "tiny", {})
        await service.join(bob, here)
        await service.start(alice, here)
        await service.language(alice, here, "en")  # a players row to fight over
        async with service.sessions() as session:
            game = await repo.open_game(session, here.channel_id)
            assert game is not None
        waiting = asyncio.Event()
        attempts: list[int] = []
        real_run = repo.run

        async def run_after_the_player_row(session: Any, writes: Any) -> None:
            attempts.append(1)
            if len(attempts) == 1:  # the first attempt only
                waiting.set()
                await session.execute(text("SELECT 1 FROM players WHERE user_id = 1 FOR UPDATE"))
            await real_run(session, writes)

        repo.run = run_after_the_player_row
        async with other.connect() as conn:
            await conn.execute(text("BEGIN"))
            await conn.execute(text("SET LOCAL deadlock_timeout = '10s'"))
            await conn.execute(text("SELECT 1 FROM players WHERE user_id = 1 FOR UPDATE"))
            move = asyncio.create_task(service.act(alice, here, "tiny", "bid", {"amount": 2}))
            await asyncio.wait_for(waiting.wait(), 10)
            # The move holds the game row and waits for the player row; now wait for the game.
            await conn.execute(
                text("SELECT 1 FROM games WHERE id = :id FOR UPDATE"), {"id": game.id}
            )
            await conn.execute(text("COMMIT"))
            reply = await asyncio.wait_for(move, 30)
    finally:
        repo.run = real_run
        await other.dispose()
        await service.close()
    assert reply.ok, reply
    assert len(attempts) == 2, "one aborted attempt, then the one that landed"
    retries = [r.getMessage() for r in caplog.records if "outcome=retry" in r.getMessage()]
    assert retries and "attempt=0" in retries[0], retries
