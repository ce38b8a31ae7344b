"""Whole games of every title through the fake Discord while it fails as Discord fails.

Each title is played by two players (random legal moves, clicked where a button makes them,
typed otherwise; tests/fakediscord/table.py) in a thread, and at fixed moves the fake
(tests/fakediscord/faults.py) is made to fail:

- a 5xx burst on the thread's posts (two 503s, which discord.py does not retry, then a 500);
- a 5xx burst on interaction callbacks (two 503s);
- 3.5 s of latency in both directions for two moves (gateway dispatches and every request);
- a gateway drop with RESUME (the next move is made while the bot is away, and replayed late);
- a gateway drop with re-IDENTIFY (close code 4009: the move made meanwhile is lost);
- the thread archived (typed commands are refused until a moderator reopens it);
- for Farkle, the thread deleted mid-game (a player tries a move, then a deadline passes).

Then two games in two channels: one channel's posts get a 60 s shared 429 while the other
channel's game goes on (moves a little over a second apart, and a deadline), timed against the
same before the 429: a move until its answer and table, a deadline until its table reaches the
channel, each after a rest that keeps that channel under its own limit (5 posts in 5 s).

Printed: moves tried; acknowledged moves lost (the player saw "Recorded" or the table's
answer, and the move is not in the game's log); moves applied while their player saw "This
interaction failed" (``Exchange.failed``); table posts never delivered (phases whose phase
message did not reach the channel within a grace period, nor a later phase's post that
replaced it; a post waiting out the shared 429 is judged once the limit is over, and a game
whose thread was deleted once its host resumed it in the channel the thread hung from, which
the scenario does); "try again" answers after a commit; the added delay of the other channel
during the 429; invalid requests (4xx the fake answered by its own rules, not the 429s the
benchmark injects, nor the one 404 per deleted thread that tells the bot it is gone, which
Discord gives no other way to learn: any request after it counts) per 1,000 moves. Targets
(issue 23): 0, 0, 0, 0, under 1 s, fewer than 5.

``python -m bench faults`` (``--quick`` or ``BENCH_FAULTS_QUICK=1``: shorter games, a 20 s
429, a shorter grace).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bot.discord import async_sync_commands
from bot.discord.client import PartidaBot
from bot.service import Service
from bot.service import buttons as button_ids
from bot.service.match import Match
from bot.store import repository as repo
from bot.store.models import ACTIVE, GameRow
from rules.core import get_game
from tests.fakediscord import Exchange, FakeDiscord, FakeUser
from tests.fakediscord.faults import CALLBACK, POST, Fault, Request, invalid
from tests.fakediscord.table import Player, _holding, _typed

QUICK = "--quick" in sys.argv or os.environ.get("BENCH_FAULTS_QUICK") == "1"
GAMES = ("badbones", "farkle", "fuse", "zvv")
# Short games: few rounds, small boards (moves are capped besides).
OPTIONS: dict[str, dict[str, Any]] = {
    "fuse": {"mode": "relaxed", "rounds": 2},
    "zvv": {"size": 9, "round_limit": 6},
}
MAX_MOVES = 18 if QUICK else 30
GRACE = 3.0 if QUICK else 5.0  # how long a player waits for the table before acting anyway
SHARED_429 = 20.0 if QUICK else 60.0
LATENCY = 3.5
PACE = 1.2  # seconds between the other channel's moves during the 429
OWN_WINDOW = 5.0  # a channel's own limit: 5 posts in 5 s (rested before a timed deadline)
DAY = 86_400.0
# The move (attempt) at which each fault begins, per game.
SCHEDULE = {
    1: "posts_5xx",
    3: "callbacks_5xx",
    5: "latency",
    8: "resume",
    10: "reidentify",
    12: "archive",
    15: "delete",  # in DELETED's game only: the others go on
}
DELETED = "farkle"  # the title whose thread is deleted (its games last long enough)
ERROR_MARK = "⚠️"
TRY_AGAIN = "try again"


class Clock:
    """The bot's clock, moved on by hand to make deadlines pass."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Figures:
    moves: int = 0
    acked: int = 0
    failed: int = 0
    refused: int = 0
    lost: int = 0  # acknowledged, not in the log
    behind_failure: int = 0  # in the log, the player saw "This interaction failed"
    try_again: int = 0  # in the log, the player was told to try again
    phases: int = 0
    undelivered: int = 0
    invalid: int = 0
    host_told: int = 0  # direct messages to hosts (a deleted thread should make one)
    other_delay: float = 0.0
    notes: list[str] = field(default_factory=list)
    # The same counts by the fault that was on when they happened ("calm": none).
    by_fault: dict[str, Counter[str]] = field(default_factory=dict)

    def count(self, fault: str, name: str) -> None:
        setattr(self, name, getattr(self, name) + 1)
        self.by_fault.setdefault(fault, Counter())[name] += 1

    def add(self, other: Figures) -> None:
        for name in (
            "moves acked failed refused lost behind_failure try_again phases undelivered "
            "invalid host_told"
        ).split():
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.other_delay = max(self.other_delay, other.other_delay)
        self.notes += other.notes
        for fault, counts in other.by_fault.items():
            self.by_fault.setdefault(fault, Counter()).update(counts)


@dataclass
class Outcome:
    exchange: Exchange
    applied: bool
    seconds: float  # until answered (or failed) and the table, if it changed, delivered


class Table:
    """One game the benchmark plays, and what it saw of it."""

    def __init__(
        self, fake: FakeDiscord, bot: PartidaBot, game: str, users: list[FakeUser], seed: int
    ) -> None:
        self.fake, self.bot, self.game = fake, bot, game
        self.engine = get_game(game)
        service = bot.get_service()
        assert isinstance(service, Service)
        self.service = service
        self.players = {u.id: Player(u) for u in users}
        self.users = users
        self.rng = random.Random(seed)
        self.where = 0
        self.game_id = 0
        self.phases: dict[str, bool] = {}  # phase token → its message reached the channel
        self.phase_fault: dict[str, str] = {}  # phase token → the fault on when it began
        self.fault = "calm"  # the fault on now (set by the scenario)
        # Wait for the whole bot to go quiet after each move; False: only for this table's
        # answer and table (another channel's stalled request must not count here).
        self.wait_idle = True
        self.figures = Figures()

    async def open(self, channel_id: int, options: dict[str, Any]) -> None:
        fake, host = self.fake, self.users[0]
        await (
            await fake.slash(host, f"{self.game} new", channel_id=channel_id, **options)
        ).result()
        await fake.idle(quiet=0.05)
        async with self.service.sessions() as session:
            threaded = await repo.open_games_in_threads(session, channel_id)
        self.where = threaded[-1].channel_id if threaded else channel_id
        for user in self.users[1:]:
            await (await fake.slash(user, "game join", channel_id=self.where)).result()
        await (await fake.slash(host, "game start", channel_id=self.where)).result()
        await fake.idle(quiet=0.05)
        row = await self.row()
        assert row is not None and row.status == ACTIVE, f"{self.game} did not start"
        self.game_id = row.id
        await self.table_seen()

    async def row(self) -> GameRow | None:
        async with self.service.sessions() as session:
            if self.game_id:
                return await repo.game_by_id(session, self.game_id)
            return await repo.open_game(session, self.where)

    async def log(self) -> list[tuple[int, int, bool]]:
        async with self.service.sessions() as session:
            rows = await repo.action_log(session, self.game_id)
        return [(r.seq, r.seat, r.by_default) for r in rows]

    async def active(self) -> bool:
        row = await self.row()
        return row is not None and row.status == ACTIVE

    async def move(self, *, before: Callable[[], Awaitable[None]] | None = None) -> Outcome | None:
        """One move attempt by a pending player; ``before`` runs just before the interaction is
        created (e.g. the gateway drops)."""
        row = await self.row()
        if row is None or row.status != ACTIVE:
            return None
        state = Match.of(row).state
        seat = self.rng.choice(sorted(self.engine.pending(state)))
        action = self.rng.choice(self.engine.legal_actions(state, seat))
        user_id = next(s.user_id for s in row.seats if s.seat == seat)
        player = self.players[user_id]
        command, args = self.engine.to_command(action) or ("", {})
        wanted = button_ids.button_id(row.id, row.phase, command, args)
        holder = _holding(self.fake, player, wanted, self.where)
        logged = len(await self.log())
        if before is not None:
            await before()
        start = time.monotonic()
        if holder is not None and wanted is not None:
            exchange = await self.fake.click(player.user, holder, wanted)
        else:
            exchange = await self.fake.slash(
                player.user, f"{self.game} {command}", channel_id=self.where, **_typed(args)
            )
        answered = await self.settle(exchange)
        applied = any(
            s == seat and not by_default for _, s, by_default in (await self.log())[logged:]
        )
        shown = await self.table_seen()
        # Until the player has their answer and the table is in the channel (its message's,
        # as the players see it: an old one when the move did not change the phase).
        seconds = max(answered, shown if shown is not None else time.monotonic()) - start
        outcome = Outcome(exchange, applied, seconds)
        self.judge(outcome, player)
        return outcome

    async def settle(self, exchange: Exchange) -> float:
        """Until the player knows how it went, and the bot is done with it; returns when the
        player knew (``time.monotonic()``)."""
        end = time.monotonic() + 20 + LATENCY * 2
        gateway = self.fake.gateway
        sessions = gateway.identifies
        while time.monotonic() < end:
            reached = exchange.delivered_at is not None or exchange.refused is not None
            # The bot identified afresh and never got it: it is lost with the old session.
            lost = gateway.identifies > sessions and gateway.live.is_set()
            if exchange.answer is not None or (exchange.failed and (reached or lost)):
                break
            await asyncio.sleep(0.05)
        knew = time.monotonic()
        if self.wait_idle:
            await self.fake.idle(quiet=0.1, timeout=120)
        return knew

    def judge(self, outcome: Outcome, player: Player) -> None:
        exchange = outcome.exchange
        count = partial(self.figures.count, self.fault)
        count("moves")
        texts = [m.text for m in exchange.messages]
        told_error = any(ERROR_MARK in t for t in texts)
        told_retry = any(TRY_AGAIN in t.lower() for t in texts)
        if exchange.refused is not None:
            count("refused")
        if exchange.failed:
            count("failed")
            if outcome.applied:
                count("behind_failure")
        elif exchange.answer is not None and not told_error and not told_retry:
            count("acked")
            player.last = exchange.answer
            if not outcome.applied:
                count("lost")
        if outcome.applied and told_retry:
            count("try_again")

    async def table_seen(self, grace: float = GRACE) -> float | None:
        """When the current phase's message reached the channel (``time.monotonic()``; now for
        a game over), waiting up to ``grace``, as a player waits for the table; ``None``: not
        within it. Notes the phase either way.

        The message is found by the id the bot recorded, but timed by when Discord took it
        (``Sent.at``): discord.py returns from a post that spent its channel's bucket (5 posts
        in 5 s) only after waiting for the bucket's reset, so the bot records the id up to 5 s
        after the players saw the table."""
        end = time.monotonic() + grace
        while True:
            row = await self.row()
            if row is None or row.status != ACTIVE:
                return time.monotonic()
            record = (row.messages or {}).get("phase") or {}
            message = self.fake.messages.get(int(record.get("id") or 0))
            delivered = record.get("phase") == row.phase and message is not None
            if delivered or time.monotonic() >= end:
                self.phases[row.phase] = self.phases.get(row.phase, False) or delivered
                self.phase_fault.setdefault(row.phase, self.fault)
                return message.at if delivered and message is not None else None
            await asyncio.sleep(0.2)

    def close(self) -> Figures:
        """The figures; a phase whose post was still queued when the game's next phase came
        is delivered by the later post that replaced it, narration first (docs/discord.md,
        "The newest table wins"), so it counts when a later phase reached the channel, unless
        the bot dropped a post for good (``Outbox.failed``): then every missing one counts."""
        fig = self.figures
        fig.phases = len(self.phases)
        dropped = getattr(getattr(self.bot, "outbox", None), "failed", 0)
        order = list(self.phases.items())
        for at, (phase, delivered) in enumerate(order):
            replaced = not dropped and any(later for _, later in order[at + 1 :])
            if replaced and not delivered:
                fig.notes.append(f"{self.game}: phase {phase} went out in a later table")
            elif not delivered:
                fig.count(self.phase_fault[phase], "undelivered")
        return fig


async def start_bot(fake: FakeDiscord, folder: Path, name: str, clock: Clock) -> PartidaBot:
    await async_sync_commands(fake.token, fake.guild_id)
    service = await Service.open(
        f"sqlite+aiosqlite:///{folder / f'{name}.db'}", render=False, clock=clock
    )
    bot = PartidaBot(service=service, clock=clock, guild_ready_timeout=0.05, edit_delay=0.2)
    bot._owns_service = True
    await fake.run(bot)
    outbox = getattr(bot, "outbox", None)
    fake.busy_checks.append(lambda: bot.busy > 0 or bool(getattr(outbox, "busy", False)))
    return bot


async def faulty_game(game: str, folder: Path) -> Figures:
    """One game of ``game`` with the scheduled faults."""
    clock = Clock()
    async with FakeDiscord() as fake:
        bot = await start_bot(fake, folder, game, clock)
        users = [fake.add_user(700 + i, f"Player{i}") for i in range(2)]
        table = Table(fake, bot, game, users, seed=23)
        try:
            await table.open(fake.channel_id, OPTIONS.get(game, {}))
            latency_left = 0
            ended = f"stopped at {MAX_MOVES} moves"
            started = time.monotonic()
            while table.figures.moves < MAX_MOVES and await table.active():
                fault = SCHEDULE.get(table.figures.moves)
                before: Callable[[], Awaitable[None]] | None = None
                if fault == "posts_5xx":
                    for status, times in ((503, 2), (500, 1)):
                        fake.inject(Fault("POST", POST, table.where, status=status, times=times))
                elif fault == "callbacks_5xx":
                    fake.inject(Fault("POST", CALLBACK, status=503, times=2))
                elif fault == "latency":
                    fake.gateway_delay = LATENCY
                    fake.inject(Fault(status=None, delay=LATENCY, times=None))
                    latency_left = 2
                elif fault == "resume":
                    before = _drop(fake, resume=True, down=2.0)
                elif fault == "reidentify":
                    before = _drop(fake, resume=False, down=0.5)
                elif fault == "archive":
                    await fake.archive(table.where)
                elif fault == "delete" and game == DELETED:
                    await deleted(table, clock)
                    ended = "its thread deleted"
                    break
                if fault is not None:
                    table.fault = fault
                elif not latency_left and all(f.spent for f in fake.faults):
                    table.fault = "calm"
                outcome = await table.move(before=before)
                if outcome is None:
                    break
                if outcome.exchange.refused and table.where in fake.threads:
                    await fake.lock(table.where, locked=False)  # a moderator reopens it
                if fault == "reidentify":
                    await fake.connected(timeout=30)
                if latency_left:
                    latency_left -= 1
                    if not latency_left:
                        fake.clear_faults()
            fake.clear_faults()
            await table.table_seen()  # what is still owed may arrive
            fig = table.close()
            refused = counted(fake)
            fig.invalid = len(refused)
            kinds = Counter(f"{r.method} {r.route} {r.status}" for r in refused)
            if kinds:
                fig.notes.append(
                    f"{game} invalid: " + ", ".join(f"{k} ×{n}" for k, n in kinds.items())
                )
            fig.host_told = len(fake.direct)
            ended = ended if await table.active() else "finished"
            fig.notes.append(
                f"{game}: {fig.moves} moves, {fig.phases} phases, {ended} "
                f"({time.monotonic() - started:.0f} s)"
            )
            return fig
        finally:
            await fake.idle(timeout=120)
            await bot.close()


def _drop(fake: FakeDiscord, *, resume: bool, down: float) -> Callable[[], Awaitable[None]]:
    async def drop() -> None:
        await fake.drop_gateway(resume=resume, down=down)

    return drop


async def deleted(table: Table, clock: Clock) -> None:
    """The game's thread is deleted: a player tries a move, then a deadline passes."""
    fake = table.fake
    table.fault = "delete"
    await fake.delete_channel(table.where)
    await table.move()
    clock.now += 3 * DAY
    table.bot.wake_deadlines()
    await asyncio.sleep(1.0)
    await fake.idle(timeout=120)
    # The game paused and its host heard where to go on: a command in the channel the thread
    # hung from resumes it there, and the table owed goes out in that channel.
    await (await fake.slash(table.users[0], "game status", channel_id=fake.channel_id)).result()
    table.where = fake.channel_id
    await fake.idle(timeout=120)


def counted(fake: FakeDiscord) -> list[Request]:
    """The invalid requests held against the bot, less the one per deleted channel that
    tells it the channel is gone (Discord gives no other way to learn it); any request there
    after that one counts."""
    told: set[int] = set()
    held = []
    for request in invalid(fake.requests):
        gone = request.channel_id in fake.deleted and request.status == 404
        if gone and request.channel_id not in told:
            told.add(request.channel_id or 0)
            continue
        held.append(request)
    return held


async def paced(table: Table) -> Outcome | None:
    """A move, after a pause that keeps the channel under its own rate limit (5 posts in 5 s):
    what is timed is the other channel's stall, not this one's pace."""
    await asyncio.sleep(PACE)
    return await table.move()


async def first_due(table: Table) -> float:
    """When the table's earliest deadline falls due (on the bot's clock)."""
    async with table.service.sessions() as session:
        deadlines = await repo.deadlines_of(session, table.game_id)
    return min((d.due_at for d in deadlines.values()), default=float("inf"))


async def deadline_passes(table: Table, clock: Clock) -> float:
    """Seconds from a deadline passing to the table's next phase message reaching the channel
    (``Table.table_seen``), after a rest of the channel's own rate-limit window, so that what
    is timed is not this channel's own pace (as ``paced`` does for moves)."""
    await asyncio.sleep(OWN_WINDOW)
    row = await table.row()
    phase = row.phase if row is not None else ""
    clock.now += 3 * DAY
    table.bot.wake_deadlines()
    start = time.monotonic()
    while time.monotonic() - start < SHARED_429:
        row = await table.row()
        if row is None or row.status != ACTIVE or row.phase != phase:
            break
        await asyncio.sleep(0.05)
    shown = await table.table_seen(grace=SHARED_429)
    return (shown if shown is not None else time.monotonic()) - start


async def shared_429(folder: Path) -> Figures:
    """Two games in two channels; one channel's requests hit a long shared 429."""
    clock = Clock()
    second = FakeDiscord.channel_id + 1
    async with FakeDiscord() as fake:
        fake.channels[second] = "games-2"
        bot = await start_bot(fake, folder, "shared429", clock)
        users = [fake.add_user(800 + i, f"Player{i}") for i in range(4)]
        stalled = Table(fake, bot, "farkle", users[:2], seed=5)
        other = Table(fake, bot, "farkle", users[2:], seed=6)
        try:
            await stalled.open(fake.channel_id, {})
            await other.open(second, {})
            # Like is compared with like: a move with the moves before the 429, a deadline's
            # pass with a deadline's pass before it (a pass does more than a move: it wakes the
            # loop, plays the default and draws).
            baseline = [o.seconds for o in [await paced(other) for _ in range(4)] if o]
            pass_before = await deadline_passes(other, clock)
            # Every post in that channel is refused for SHARED_429 seconds (each 429 saying
            # retry after the whole of it), then the limit is lifted.
            fault = fake.inject(
                Fault(
                    "POST",
                    POST,
                    stalled.where,
                    status=429,
                    retry_after=SHARED_429,
                    scope="shared",
                    times=None,
                )
            )
            stalled.fault, other.fault = "shared_429", "other_channel"
            stalled.wait_idle = other.wait_idle = False
            for _ in range(6):  # until one of its requests meets the 429
                if fault.hits:
                    break
                await stalled.move()
            began = time.monotonic()
            lift = asyncio.get_running_loop().call_later(SHARED_429, fake.faults.remove, fault)
            during: list[float] = []
            pass_during: float | None = None
            while time.monotonic() - began < SHARED_429 - 5 and await other.active():
                outcome = await paced(other)
                if outcome is not None:
                    during.append(outcome.seconds)
                if len(during) == 3:
                    # The stalled channel's deadline falls due and its post meets the 429
                    # (this channel's falls due in the same round: both were set at the same
                    # time on the bot's clock). Then a deadline of this channel is timed, in a
                    # round that passes the stalled channel's next one too.
                    clock.now = max(clock.now, await first_due(stalled) + 1)
                    bot.wake_deadlines()
                    await asyncio.sleep(1.0)
                    pass_during = await deadline_passes(other, clock)
                    # The pass posted this channel's table on top of its paced moves: let the
                    # channel's own limit pass, so that the next move times the other
                    # channel's stall, not this channel's pace (as ``paced`` does).
                    await asyncio.sleep(OWN_WINDOW)
            # The stalled channel's table is judged once its 429 is over (a post waiting out
            # a rate limit is late, not lost), allowing the wait the last 429 asked for (the
            # fake's say the whole SHARED_429): by then it must have gone out.
            await asyncio.sleep(max(0.0, began + SHARED_429 - time.monotonic()))
            lift.cancel()
            fake.clear_faults()
            await stalled.table_seen(grace=SHARED_429 + GRACE)
            fig = other.close()
            fig.add(stalled.close())
            base = statistics.median(baseline) if baseline else 0.0
            added = [d - base for d in during]
            if pass_during is not None:
                added.append(pass_during - pass_before)
            fig.other_delay = max(added, default=0.0)
            fig.notes.append(
                f"other channel: {base:.2f} s a move before the 429, "
                f"{max(during, default=0.0):.2f} s at worst during it ({len(during)} moves); "
                f"a deadline's pass {pass_before:.2f} s before it, "
                f"{pass_during if pass_during is not None else float('nan'):.2f} s during it"
            )
            return fig
        finally:
            # The stalled channel's requests may still be waiting out their 429: no need.
            with contextlib.suppress(TimeoutError):
                await fake.idle(timeout=5)
            await bot.close()


async def run() -> None:
    logging.disable(logging.CRITICAL)
    total = Figures()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            total.add(await faulty_game(game, Path(tmp)))
        total.add(await shared_429(Path(tmp)))
    per_1000 = 1000 * total.invalid / max(1, total.moves)
    for note in total.notes:
        print(f"  {note}")
    names = "moves failed refused behind_failure try_again lost undelivered".split()
    for fault, counts in total.by_fault.items():
        print(f"  {fault:14s}" + ", ".join(f"{n} {counts[n]}" for n in names if counts[n]))
    print(
        f"moves tried {total.moves} (acknowledged {total.acked}, failed {total.failed}, "
        f"refused by Discord {total.refused}); phases {total.phases}"
    )
    print(f"acknowledged moves lost           {total.lost:6d}    target 0")
    print(f"moves applied behind a failure    {total.behind_failure:6d}    target 0")
    print(f"table posts never delivered       {total.undelivered:6d}    target 0")
    print(f"'try again' after a commit        {total.try_again:6d}    target 0")
    print(f"added delay of another channel    {total.other_delay:6.1f} s  target < 1 s")
    print(f"invalid requests per 1,000 moves  {per_1000:6.1f}    target < 5")
    print(f"direct messages to hosts          {total.host_told:6d}")
    print(f"({time.monotonic() - started:.0f} s)")


def main(argv: list[str] | None = None) -> None:
    """``argv``: the options ``python -m bench`` hands over; ``--quick`` is read from the
    command line when the module loads (``QUICK``), as the sizes above follow from it."""
    asyncio.run(run())
