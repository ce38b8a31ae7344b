"""What keeps a service process's games moving outside players' commands: what the adapter
reports of its deliveries (posted, delivered, a channel paused, gone or back, a DM refused),
the deliveries still owed, the deadline loop's due work, the housekeeping of closed games
(pruned, compacted), and the ratings rebuilt from every finished game. Each is a function of
the service's state (:class:`~bot.service.runner.Runner`), and a method of
:class:`~bot.service.service.Service` under the same name."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import computer, deadlines, ratings, timeouts
from bot.service import owed as owing
from bot.service import pause as pausing
from bot.service.draft import Draft
from bot.service.match import public_locale
from bot.service.replies import Message, Outgoing, Place, Posted
from bot.service.runner import RETRIES, Runner, _damage_named, _retryable
from bot.service.text import Text
from bot.store import deliveries, logs
from bot.store import repository as repo
from bot.store.models import DeadlineRow

log = logging.getLogger("partida.service")

PRUNE_BATCH = 100  # closed games deleted a transaction (RETENTION_DAYS)
COMPACT_BATCH = 200  # logs of games closed before compaction existed, compacted a transaction
# A delivery handed out in a reply this long ago and still owed was lost on its way to the
# adapter (its answer failed before it queued its posts): ``owed`` gives it again.
HANDED_FRESH = 120.0


async def moved(service: Runner, game_id: int, channel_id: int, thread_id: int) -> None:
    """The adapter opened thread ``thread_id`` from the game's lobby message in
    ``channel_id``: the game is played there from now on (commands in the thread act on
    it; the parent channel keeps the lobby message and hears the result)."""
    async with service.locks[channel_id]:
        writer = service.writers.writer()
        try:
            async with service.writers.slots, service.sessions() as session, session.begin():
                await writer.take()
                row = await repo.game_by_id(session, game_id)
                if row is None or row.open_channel_id != channel_id:
                    return
                row.parent_channel_id = channel_id
                row.channel_id = row.open_channel_id = thread_id
        finally:
            writer.release()


# ================================================================= upkeep


async def prune(service: Runner, days: int, batch: int = PRUNE_BATCH) -> int:
    """Delete the closed games that ended more than ``days`` days ago (``RETENTION_DAYS``,
    docs/operations.md), ``batch`` games a transaction. Returns how many."""
    before = service.clock() - days * 86400.0

    async def step(session: AsyncSession, cursor: int) -> tuple[int, int, int]:
        pruned = await repo.prune_closed(session, before, batch)
        return pruned, pruned, cursor

    return await _in_batches(service, step, batch)


async def compact_closed(service: Runner, batch: int = COMPACT_BATCH) -> int:
    """Compact the logs of the games closed before compaction existed (migration 0008;
    docs/storage.md), looking at ``batch`` games a transaction. Returns how many."""

    async def step(session: AsyncSession, after: int) -> tuple[int, int, int]:
        return await logs.compact_closed(session, after, batch)

    return await _in_batches(service, step, batch)


async def rebuild_ratings(service: Runner, step: ratings.Step | None = None) -> int:
    """Rate every finished game again, in order (``partida ratings rebuild``), in short
    transactions that let the bot's commands through (``ratings.rebuild``)."""
    return await ratings.rebuild(service.sessions, step=step)


async def _in_batches(
    service: Runner,
    step: Callable[[AsyncSession, int], Awaitable[tuple[int, int, int]]],
    batch: int,
) -> int:
    """Run ``step`` in one short transaction after another, each holding SQLite's writer
    (so commands go through between them), until it looks at less than ``batch`` rows. A
    step takes the cursor its last committed run returned and returns (rows looked at,
    rows done, the next cursor); a conflict with another process doing the same runs it
    again from the same cursor. Returns the rows done."""
    cursor, total = 0, 0
    while True:
        for attempt in range(RETRIES):
            writer = service.writers.writer()
            try:
                async with service.writers.slots, service.sessions() as session, session.begin():
                    await writer.take()
                    looked, done, after = await step(session, cursor)
                break
            except Exception as exc:
                if not _retryable(exc) or attempt == RETRIES - 1:
                    raise
                await asyncio.sleep(0.005 * (attempt + 1))
            finally:
                writer.release()
        cursor, total = after, total + done
        if looked < batch:
            return total
        await asyncio.sleep(0)


# ================================================================= paused games


async def pause(service: Runner, channel_id: int, missing: tuple[str, ...] = ()) -> int | None:
    """The bot cannot post in this channel: set its game's deadlines aside (see
    ``bot.service.pause``). Returns the host's id the first time, for the adapter to tell
    them once what is ``missing``; ``None`` when already paused or there is no game."""
    told: list[int] = []
    work = pausing.pause(missing, told)
    # here_only: a refusal in a channel is about its own game, never one in its threads.
    await service.run(None, Place(channel_id), work, "pause", here_only=True)
    return told[0] if told else None


async def gone(service: Runner, channel_id: int) -> tuple[int | None, int | None]:
    """The channel or thread is gone (Discord: Unknown Channel): its game is paused, and
    moved back to the channel its thread hung from when it can (``bot.service.pause``).
    Returns the host's id the first time (``None`` after), and where the game goes on."""
    told: list[tuple[int, int | None]] = []
    await service.run(None, Place(channel_id), pausing.gone(told), "gone", here_only=True)
    return told[0] if told else (None, None)


async def resume(service: Runner, channel_id: int) -> tuple[int | None, list[Outgoing]]:
    """Posting works again in this channel: its game's deadlines come back, later by as
    long as the pause lasted. Returns the host's id (``None``: nothing was paused) and
    the table to post once."""
    told: list[int] = []
    work = pausing.resume(told)
    reply = await service.run(None, Place(channel_id), work, "resume", here_only=True)
    return (told[0] if told else None), reply.public


async def table_again(service: Runner, game_id: int, role: str) -> list[Outgoing]:
    """The adapter cannot edit the message of a game's slot (``role``): it was deleted, or
    its id never recorded. Returns that message to post anew (see ``bot.service.pause``)."""
    async with service.sessions() as session:
        row = await repo.game_by_id(session, game_id)
    if row is None:
        return []
    reply = await service.run(None, Place(row.channel_id), pausing.again(game_id, role), "again")
    return reply.public


# ================================================================= deliveries


async def owed(
    service: Runner, exclude: Collection[int] = (), stale: float | None = None
) -> list[Outgoing]:
    """The posts still owed to channels (recorded by a command, never settled: the bot
    stopped, the adapter lost them, or Discord kept refusing), oldest first, rebuilt as
    the service planned them (pictures drawn again from their render jobs). Left out:
    ``exclude`` (the adapter has them), and those this process handed out in a reply less
    than ``HANDED_FRESH`` seconds ago (the adapter is about to have them). ``stale``: only
    those no process has tried for that many seconds (another process's retries go on:
    each failed try moves ``next_try_at`` on)."""
    fresh = time.monotonic() - HANDED_FRESH
    skip = set(exclude) | {i for i, at in service._handed.items() if at > fresh}
    async with service.sessions() as session:
        before = service.clock() - stale if stale is not None else None
        wanted = [i for i in await deliveries.owed_ids(session, before) if i not in skip]
        rows = [(r.id, r.nonce, r.body, r.version) for r in await deliveries.owed(session, wanted)]
    out: list[Outgoing] = []
    for row_id, nonce, body, version in rows:
        try:
            post = owing.load(body)
        except (KeyError, TypeError, ValueError):
            log.exception("delivery %s cannot be read; dropped", row_id)
            await delivered(service, [row_id])
            continue
        draft = Draft(public=[post], owing=[(row_id, nonce)], version=version)
        out.extend((await service.finish(draft)).public)
    return out


async def delivered(
    service: Runner, ids: tuple[int, ...] | list[int], posted: Sequence[Posted] = ()
) -> None:
    """Discord took these deliveries (or they are moot): they are owed no more. ``posted``:
    the messages the adapter posted for slots meanwhile, whose ids later edits of the slot
    go to, after a restart too. Both in the one transaction the adapter's settling opens
    anyway: a post's id costs no write of its own. (Until it is written the adapter edits
    by the id it knows; a stop before it leaves the delivery owed too, and its repost, with
    its nonce, is the message already posted, whose id is then written.)"""
    for row_id in ids:
        service._handed.pop(row_id, None)
    if not ids and not posted:
        return

    async def settle(session: AsyncSession) -> None:
        for post in posted:
            slot = post.slot
            await repo.record_message(
                session, slot.game_id, slot.role, slot.phase, post.channel_id, post.message_id
            )
        await deliveries.settle(session, list(ids))

    # A slot's record is written under its channel's lock, as a command's save is: a move
    # in flight there would otherwise save the record it loaded over the id. (Locks taken
    # in channel order: no other holder takes two.)
    async with contextlib.AsyncExitStack() as held:
        for channel_id in sorted({post.channel_id for post in posted}):
            await held.enter_async_context(service.locks[channel_id])
        await _write(service, settle)


async def unpictured(service: Runner, ids: tuple[int, ...] | list[int], message_id: int) -> None:
    """The adapter sent these deliveries without their picture, as ``message_id`` (the
    picture was still being drawn): what stays owed is the picture, an edit of that
    message, so that a restart before it went out still adds it."""
    if ids:
        await _write(service, lambda session: deliveries.as_edit(session, list(ids), message_id))


async def attempted(service: Runner, ids: tuple[int, ...] | list[int], delay: float) -> None:
    """A delivery failed and is tried again in ``delay`` seconds."""
    if ids:
        at = service.clock() + delay
        await _write(service, lambda session: deliveries.attempted(session, list(ids), at))


async def dm_closed(service: Runner, user_id: int) -> None:
    """Discord refused a direct message to this user: mention them from now on (until they
    choose direct messages again with ``/me``)."""
    await _write(service, lambda session: repo.set_player(session, user_id, dm_closed=True))


async def waiting(service: Runner) -> tuple[int, float | None]:
    """How many deliveries are owed, and when the oldest was recorded (health checks)."""
    async with service.sessions() as session:
        return await deliveries.waiting(session)


async def _write(service: Runner, change: Callable[[AsyncSession], Any]) -> None:
    writer = service.writers.writer()
    try:
        async with service.writers.slots, service.sessions() as session, session.begin():
            await writer.take()
            await change(session)
    finally:
        writer.release()


# ================================================================= deadlines


def written_deadline(service: Runner) -> float | None:
    """The soonest deadline this process's commands wrote since the last call (None: none):
    the deadline loop is woken by a command only when it is sooner than its next look."""
    return repo.take_written_deadline(service.engine)


async def next_deadline(service: Runner, guild_id: int | None = None) -> float | None:
    with _damage_named():
        async with service.sessions() as session:
            return await repo.earliest_deadline(session, guild_id)


async def run_deadlines(service: Runner, guild_id: int | None = None) -> list[Outgoing]:
    """Send due reminders and apply due defaults (safe from several processes: see
    ``bot.service.timeouts``). Raises :class:`DamagedDatabase` when the database cannot be
    read at all, so that callers stop retrying and say what to do. ``guild_id``: that
    server's games only (the console's, whose clock is its own, in a database it may share
    with the bot)."""
    now = service.clock()
    with _damage_named():
        async with service.sessions() as session:
            due = [
                (d.game_id, d.seat, d.kind, d.due_at, d.phase)
                for d in await repo.due_deadlines(session, now, guild_id=guild_id)
            ]
    out: list[Outgoing] = []
    for game_id, seat, kind, due_at, phase in due:
        if kind == deadlines.ARCHIVE:
            archived = await _archive(service, game_id, seat, due_at, phase)
            out.extend(archived)
            continue
        async with service.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            if row is None:
                continue
            place = Place(row.channel_id, row.guild_id, public_locale(row))
        thought = None
        if kind in (deadlines.DEFAULT, deadlines.COMPUTER):
            # Thought out here, holding no lock nor connection: a search takes up to a
            # second (the row and its seats are loaded and stay readable).
            thought = await computer.think(row, seat, phase)
        work = timeouts.work(game_id, seat, kind, due_at, phase, thought)
        reply = await service.run(None, place, work, f"deadline.{kind}")
        out.extend(reply.public)
    return out


async def _archive(
    service: Runner, game_id: int, seat: int, due_at: float, phase: str
) -> list[Outgoing]:
    """A finished game's thread is due to be archived (claimed like any deadline)."""
    async with service.sessions() as session, session.begin():
        claimed = await repo.claim_deadline(
            session,
            DeadlineRow(
                game_id=game_id, seat=seat, kind=deadlines.ARCHIVE, due_at=due_at, phase=phase
            ),
        )
        row = await repo.game_by_id(session, game_id) if claimed else None
        # A rematch being played in the thread keeps it open (its own end archives it).
        again = row is not None and await repo.open_game(session, row.channel_id) is not None
    if row is None or row.parent_channel_id is None or again:
        return []
    return [Outgoing(row.channel_id, Message(Text()), archive=True)]
