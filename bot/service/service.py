"""The service: command → lock → load → engine → save → replies.

Every public method takes who (:class:`Actor`) and where (:class:`Place`), returns a
:class:`Reply` and never raises for anything a user did: refusals and rules errors become a
translated private message, and nothing is changed (the transaction rolls back). Replies are
delivered only after the commit, so an acknowledged move is always in the database.

This module is the loop that runs a command's :data:`~bot.service.transaction.Work`; the work
itself lives in the rooms named for it: ``lobby``, ``moves``, ``timeouts`` (with
``deadlines``), and the replies are composed in ``compose``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Collection, Iterator
from typing import Any

from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from bot import metrics
from bot.service import (
    buttons,
    computer,
    deadlines,
    drawing,
    history,
    lobby,
    me,
    moves,
    owed,
    pause,
    rematch,
    replays,
    routing,
    shown,
    standings,
    timeouts,
)
from bot.service import undo as undoing
from bot.service.draft import Draft, Post, RenderJob, ReplayJob
from bot.service.errors import DamagedDatabase, Refusal
from bot.service.fairuse import LOOK, REPLAY, Replaying, Replays
from bot.service.memory import ChannelLocks
from bot.service.reading import Reading, game_number, page_number, player_of
from bot.service.replies import Actor, Image, Message, Outgoing, Place, Reply
from bot.service.table import public_locale
from bot.service.text import Channel, Text, join, lines, phrase
from bot.service.transaction import Tx, Work
from bot.service.writer import WriterQueue
from bot.store import deliveries, logs, outage
from bot.store import repository as repo
from bot.store.database import create_engine, database_url, upgrade
from bot.store.models import DeadlineRow, GameRow
from i18n import LANGUAGES, language_for
from rules.core import CommandArgs, RulesError

log = logging.getLogger("partida.service")

RETRIES = 8
PRUNE_BATCH = 100  # closed games deleted a transaction (RETENTION_DAYS)
COMPACT_BATCH = 200  # logs of games closed before compaction existed, compacted a transaction
# A delivery handed out in a reply this long ago and still owed was lost on its way to the
# adapter (its answer failed before it queued its posts): ``owed`` gives it again.
HANDED_FRESH = 120.0


class Service(Reading):
    """The commands that change a game (each a transaction, run by :meth:`_run`), on top of
    the read-only ones (:class:`~bot.service.reading.Reading`)."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        render: bool = True,
        clock: Callable[[], float] = time.time,
        computer_delay: float = 1.5,
    ) -> None:
        super().__init__(engine, clock)
        # Seconds a computer-played seat waits before its move (the console plays at once).
        self.computer_delay = computer_delay
        self.render_images = render
        # One lock per channel in use: commands for one game run one at a time in this
        # process; the version column protects against other processes.
        self.locks = ChannelLocks()
        self.writers = WriterQueue(engine)
        self.replays_now = Replays(clock)  # one replay drawn at a time per server
        # Record what each command owes its channels in its transaction (the ``deliveries``
        # table), for an adapter that settles them once sent: the Discord bot turns it on
        # (``bot.discord.send.Outbox``); the console prints at once and owes nothing.
        self.owes = False
        # How long a reply waits for its table pictures (seconds): None, until they are drawn
        # (the console, which shows them at once); the Discord bot sets
        # ``drawing.PICTURE_WAIT``, and a picture not drawn by then follows its message
        # (``Outgoing.image_later``), so that a process over its drawing capacity still
        # answers moves at once.
        self.picture_wait: float | None = None
        self._handed: dict[int, float] = {}  # delivery row → when a reply handed it out

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        render: bool = True,
        clock: Callable[[], float] = time.time,
        migrate: bool = True,
        computer_delay: float = 1.5,
    ) -> Service:
        resolved = database_url(url)
        if migrate:
            await upgrade(resolved)
        shown.warm()  # every language's names, read once here rather than in the first move
        return cls(
            create_engine(resolved), render=render, clock=clock, computer_delay=computer_delay
        )

    async def close(self) -> None:
        await self.engine.dispose()

    # ================================================================= commands

    async def new_game(
        self, actor: Actor, place: Place, game: str, options: dict[str, Any] | None = None
    ) -> Reply:
        work = lobby.new_game(actor, place, game, options)
        return await self._run(actor, place, work, "new", here_only=True)

    async def join(self, actor: Actor, place: Place) -> Reply:
        return await self._run(actor, place, lobby.join(actor, place), "join")

    async def leave(self, actor: Actor, place: Place) -> Reply:
        return await self._run(actor, place, lobby.leave(actor, place), "leave")

    async def start(self, actor: Actor, place: Place) -> Reply:
        return await self._run(actor, place, lobby.start(actor, place), "start")

    async def cancel(self, actor: Actor, place: Place) -> Reply:
        return await self._run(actor, place, lobby.cancel(actor, place), "cancel")

    async def kick(self, actor: Actor, place: Place, user_id: int) -> Reply:
        return await self._run(actor, place, lobby.kick(actor, place, user_id), "kick")

    async def settings(
        self,
        actor: Actor,
        place: Place,
        deadline_minutes: int | None = None,
        reminder_minutes: int | None = None,
        misses: int | None = None,
        replay: bool | None = None,
        hold: bool | None = None,
        undo: bool | None = None,
        autopilot: str | None = None,
    ) -> Reply:
        """The game's time limits, the autopilot's missed deadlines and level, the channel's
        automatic replay (``replay``: the channel's own setting, which needs no open game),
        the host's hold on the game's deadlines (``hold``, bot/service/pause.py), and whether
        its players may take back a step (``undo``, bot/service/undo.py)."""
        limits_asked = (deadline_minutes, reminder_minutes, misses, autopilot) != (None,) * 4
        parts: list[Reply] = []
        if replay is not None:
            parts.append(
                await self._run(
                    actor, place, replays.set_automatic(actor, place, replay), "settings"
                )
            )
        if hold is not None and all(p.ok for p in parts):
            parts.append(await self._run(actor, place, pause.hold(actor, hold), "settings"))
        if undo is not None and all(p.ok for p in parts):
            parts.append(await self._run(actor, place, undoing.allow(actor, undo), "settings"))
        if all(p.ok for p in parts) and (limits_asked or not parts):
            work = lobby.change_settings(
                actor, deadline_minutes, reminder_minutes, misses, autopilot
            )
            parts.append(await self._run(actor, place, work, "settings"))
        said = parts[-1]
        if said.ok and len(parts) > 1:
            texts = [p.private.text for p in parts if p.private is not None]
            said.private = Message(lines(texts))
            said.public = [o for p in parts for o in p.public]
        return said

    async def add_bot(self, actor: Actor, place: Place, level: str | None = None) -> Reply:
        """``/game addbot [level]``: a computer player takes the next seat in the lobby."""
        return await self._run(actor, place, computer.add_bot(actor, place, level), "addbot")

    async def replace(self, actor: Actor, place: Place, user_id: int, new: Actor) -> Reply:
        """``/game replace``: ``new`` takes over the seat of ``user_id`` mid-game."""
        work = computer.replace(actor, place, user_id, new)
        return await self._run(actor, place, work, "replace")

    async def rematch(self, actor: Actor, place: Place, game_id: int | None = None) -> Reply:
        """The same table again (``game_id``: the channel's last finished game if None). The
        rematch opens where the game was played: in its thread, when it had one, even when
        asked in the channel the thread hangs from."""
        async with self.sessions() as session:
            source = await rematch.source(session, place, game_id)
            if source is None:
                return self._refused(
                    Refusal("rematch.error.none"), await self._language(session, actor)
                )
        there = Place(source.channel_id, place.guild_id, place.locale)
        work = rematch.work(actor, there, source.id)
        return await self._run(actor, there, work, "rematch", here_only=True)

    async def replay_game(self, actor: Actor, place: Place, game_id: int | str) -> Reply:
        """``/game replay``: post a game of this server as one animated picture. A server
        draws one at a time: a request meanwhile, or for a finished game posted lately, is
        answered with that replay (``fairuse.Replays``)."""
        guild = place.guild_id if place.guild_id is not None else -place.channel_id
        wanted = replays.game_number(game_id)
        if (busy := self._replay_elsewhere(guild, wanted)) is not None:
            async with self.sessions() as session:
                lang = await self._language(session, actor)
            text, replay = busy
            return Reply(
                private=Message(
                    phrase(
                        text,
                        lang,
                        id=replay.game_id,
                        channel=Channel(replay.channel_id, str(replay.channel_id)),
                    )
                ),
                ok=False,
            )
        if refused := await self._over_budget(REPLAY, actor, place, count=False):
            return refused
        lang = language_for(place.locale)
        self.replays_now.start(guild, wanted or 0, place.channel_id)
        posted = False
        ended: list[bool] = []
        try:
            work = replays.command(place, game_id, lang, ended)
            reply = await self._run(actor, place, work, "replay")
            posted = reply.ok
            if posted:
                self.fair_use.use(REPLAY, actor.user_id, place.guild_id)
            return reply
        finally:
            # A finished game's replay never changes: asked again soon, the posted one answers.
            self.replays_now.finish(guild, posted and all(ended))

    def _replay_elsewhere(self, guild: int, wanted: int | None) -> tuple[str, Replaying] | None:
        """The catalogue key and the replay that answers a request for ``wanted`` instead of a
        new drawing: the one this server is drawing, or the same game posted lately."""
        drawing_now = self.replays_now.drawing(guild)
        if drawing_now is not None:
            same = drawing_now.game_id == wanted
            return ("fairuse.replay.drawing" if same else "fairuse.replay.one_at_a_time"), (
                drawing_now
            )
        posted = self.replays_now.posted(guild, wanted) if wanted is not None else None
        if posted is not None:
            return "fairuse.replay.posted", posted
        return None

    async def status(self, actor: Actor, place: Place) -> Reply:
        # Read-only (as is the board): never SQLite's one writer, unless a player back from
        # autopilot is written (``computer.reclaim`` takes it), so a flood of looks does not
        # queue every table's moves behind it.
        return await self._run(actor, place, lobby.status(), "status", write_late=True)

    async def undo(self, actor: Actor, place: Place) -> Reply:
        """``/game undo``: the player's own last step taken back, where the rules allow."""
        return await self._run(actor, place, undoing.undo(actor, place), "undo", write_late=True)

    async def board(self, actor: Actor, place: Place) -> Reply:
        if refused := await self._over_budget(LOOK, actor, place):
            return refused
        return await self._run(actor, place, lobby.board(actor), "board", write_late=True)

    async def act(
        self, actor: Actor, place: Place, game: str | None, command: str, args: CommandArgs
    ) -> Reply:
        work = moves.act(actor, place, game, command, args)
        # The log line names the game, never the command: which command a player sent in a
        # simultaneous phase (place a trap, or retrieve one) is itself a secret.
        return await self._run(actor, place, work, f"{game}.move", write_late=True)

    async def press(
        self, actor: Actor, place: Place, custom_id: str, values: list[str] | None = None
    ) -> Reply:
        """A button click or a select submission (the custom_id says what to do): a move,
        Join, Leave and Start under the lobby message, Rematch under a closing message, or a
        page of a read-only view (history, leaderboard)."""
        clicked = buttons.parse(custom_id, values)
        if clicked is not None and clicked.game_id == buttons.VIEW_GAME:
            return await self._view(actor, place, clicked)
        if clicked is not None and clicked.command == buttons.REMATCH:
            return await self.rematch(actor, place, clicked.game_id)
        if clicked is not None and buttons.is_undo(clicked):
            work = undoing.undo(actor, place, game_id=clicked.game_id)
            return await self._run(actor, place, work, "undo", write_late=True)
        if clicked is not None and buttons.is_lobby(clicked):
            # The lobby message stays in the channel while the game moves to its thread: the
            # click acts where the game is now.
            async with self.sessions() as session:
                row = await repo.game_by_id(session, clicked.game_id)
            if row is not None:
                place = Place(row.channel_id, place.guild_id, place.locale)
            work = lobby.press(actor, place, clicked.game_id, clicked.command)
            return await self._run(actor, place, work, f"lobby.{clicked.command}")
        work = moves.press(actor, place, custom_id, values)
        return await self._run(actor, place, work, "press", write_late=True)

    async def _view(self, actor: Actor, place: Place, view: buttons.Press) -> Reply:
        """A button of a read-only view: a page of the history or of a leaderboard, or a
        history entry's Replay."""
        if view.command == history.HISTORY:
            return await self.history(
                actor,
                place,
                page_number(view.args.get("page")),
                after=game_number(view.args.get("after")),
                before=game_number(view.args.get("before")),
            )
        if view.command == history.REPLAY:
            return await self.replay_game(actor, place, str(view.args.get("game", "")))
        if view.command == standings.LEADERBOARD:
            return await self.leaderboard(
                actor,
                place,
                str(view.args.get("game", "")),
                page_number(view.args.get("page")),
                after=player_of(view.args.get("after")),
                before=player_of(view.args.get("before")),
            )
        return self._refused(Refusal("lobby.error.stale_button"), language_for(actor.locale))

    @metrics.read("language")
    async def language(self, actor: Actor, place: Place, language: str) -> Reply:
        """A user's own language for replies (``auto``: follow their Discord client)."""
        choice = str(language).strip().lower()
        if choice not in (*LANGUAGES, "auto"):
            return self._refused(
                Refusal("lobby.error.language", languages=", ".join(LANGUAGES)),
                language_for(actor.locale),
            )
        chosen = None if choice == "auto" else choice
        async with self.sessions() as session, session.begin():
            await repo.set_player_language(session, actor.user_id, chosen)
        self.languages[actor.user_id] = (chosen, self.clock())  # the next reply uses it
        lang = language_for(actor.locale) if choice == "auto" else choice
        return Reply(private=Message(phrase("lobby.language.set", lang)))

    @metrics.read("me")
    async def me(
        self,
        actor: Actor,
        place: Place,
        notify: str | None = None,
        quiet: str | None = None,
        zone: str | None = None,
        away: str | None = None,
    ) -> Reply:
        """``/me``: how the user is reached, across servers (bot/service/me.py): shown, or
        changed by the options given. Bad input changes nothing."""
        async with self.sessions() as session:
            lang = await self._language(session, actor)
        try:
            async with self.sessions() as session, session.begin():
                reach = await me.change(
                    session,
                    actor.user_id,
                    self.clock(),
                    notify=notify,
                    quiet=quiet,
                    zone=zone,
                    away=away,
                )
        except Refusal as refusal:
            return self._refused(refusal, lang)
        return Reply(private=Message(me.shown(reach, lang, self.clock())))

    async def posted(self, outgoing: Outgoing, message_id: int) -> None:
        """An adapter posted ``outgoing`` (which has a slot) as ``message_id``: later edits of
        the slot go to that message, after a restart too."""
        slot = outgoing.slot
        if slot is None:
            return
        async with self.locks[outgoing.channel_id]:
            writer = self.writers.writer()
            try:
                async with self.writers.slots, self.sessions() as session, session.begin():
                    await writer.take()
                    await repo.record_message(
                        session,
                        slot.game_id,
                        slot.role,
                        slot.phase,
                        outgoing.channel_id,
                        message_id,
                    )
            finally:
                writer.release()

    async def moved(self, game_id: int, channel_id: int, thread_id: int) -> None:
        """The adapter opened thread ``thread_id`` from the game's lobby message in
        ``channel_id``: the game is played there from now on (commands in the thread act on
        it; the parent channel keeps the lobby message and hears the result)."""
        async with self.locks[channel_id]:
            writer = self.writers.writer()
            try:
                async with self.writers.slots, self.sessions() as session, session.begin():
                    await writer.take()
                    row = await repo.game_by_id(session, game_id)
                    if row is None or row.open_channel_id != channel_id:
                        return
                    row.parent_channel_id = channel_id
                    row.channel_id = row.open_channel_id = thread_id
            finally:
                writer.release()

    # ================================================================= upkeep

    async def prune(self, days: int, batch: int = PRUNE_BATCH) -> int:
        """Delete the closed games that ended more than ``days`` days ago (``RETENTION_DAYS``,
        docs/operations.md), ``batch`` games a transaction. Returns how many."""
        before = self.clock() - days * 86400.0

        async def step(session: AsyncSession, cursor: int) -> tuple[int, int, int]:
            pruned = await repo.prune_closed(session, before, batch)
            return pruned, pruned, cursor

        return await self._in_batches(step, batch)

    async def compact_closed(self, batch: int = COMPACT_BATCH) -> int:
        """Compact the logs of the games closed before compaction existed (migration 0008;
        docs/storage.md), looking at ``batch`` games a transaction. Returns how many."""

        async def step(session: AsyncSession, after: int) -> tuple[int, int, int]:
            return await logs.compact_closed(session, after, batch)

        return await self._in_batches(step, batch)

    async def _in_batches(
        self,
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
                writer = self.writers.writer()
                try:
                    async with self.writers.slots, self.sessions() as session, session.begin():
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

    # ================================================================= paused tables

    async def pause(self, channel_id: int, missing: tuple[str, ...] = ()) -> int | None:
        """The bot cannot post in this channel: set its game's deadlines aside (see
        ``bot.service.pause``). Returns the host's id the first time, for the adapter to tell
        them once what is ``missing``; ``None`` when already paused or there is no game."""
        told: list[int] = []
        work = pause.pause(missing, told)
        # here_only: a refusal in a channel is about its own game, never one in its threads.
        await self._run(None, Place(channel_id), work, "pause", here_only=True)
        return told[0] if told else None

    async def gone(self, channel_id: int) -> tuple[int | None, int | None]:
        """The channel or thread is gone (Discord: Unknown Channel): its game is paused, and
        moved back to the channel its thread hung from when it can (``bot.service.pause``).
        Returns the host's id the first time (``None`` after), and where the game goes on."""
        told: list[tuple[int, int | None]] = []
        await self._run(None, Place(channel_id), pause.gone(told), "gone", here_only=True)
        return told[0] if told else (None, None)

    async def resume(self, channel_id: int) -> tuple[int | None, list[Outgoing]]:
        """Posting works again in this channel: its game's deadlines come back, later by as
        long as the pause lasted. Returns the host's id (``None``: nothing was paused) and
        the table to post once."""
        told: list[int] = []
        work = pause.resume(told)
        reply = await self._run(None, Place(channel_id), work, "resume", here_only=True)
        return (told[0] if told else None), reply.public

    async def table_again(self, game_id: int, role: str) -> list[Outgoing]:
        """The adapter cannot edit the message of a game's slot (``role``): it was deleted, or
        its id never recorded. Returns that message to post anew (see ``bot.service.pause``)."""
        async with self.sessions() as session:
            row = await repo.game_by_id(session, game_id)
        if row is None:
            return []
        reply = await self._run(None, Place(row.channel_id), pause.again(game_id, role), "again")
        return reply.public

    # ================================================================= deliveries

    async def owed(
        self, exclude: Collection[int] = (), stale: float | None = None
    ) -> list[Outgoing]:
        """The posts still owed to channels (recorded by a command, never settled: the bot
        stopped, the adapter lost them, or Discord kept refusing), oldest first, rebuilt as
        the service planned them (pictures drawn again from their render jobs). Left out:
        ``exclude`` (the adapter has them), and those this process handed out in a reply less
        than ``HANDED_FRESH`` seconds ago (the adapter is about to have them). ``stale``: only
        those no process has tried for that many seconds (another process's retries go on:
        each failed try moves ``next_try_at`` on)."""
        fresh = time.monotonic() - HANDED_FRESH
        skip = set(exclude) | {i for i, at in self._handed.items() if at > fresh}
        async with self.sessions() as session:
            before = self.clock() - stale if stale is not None else None
            wanted = [i for i in await deliveries.owed_ids(session, before) if i not in skip]
            rows = [
                (r.id, r.nonce, r.body, r.version) for r in await deliveries.owed(session, wanted)
            ]
        out: list[Outgoing] = []
        for row_id, nonce, body, version in rows:
            try:
                post = owed.load(body)
            except (KeyError, TypeError, ValueError):
                log.exception("delivery %s cannot be read; dropped", row_id)
                await self.delivered([row_id])
                continue
            draft = Draft(public=[post], owing=[(row_id, nonce)], version=version)
            out.extend((await self._finish(draft)).public)
        return out

    async def delivered(self, ids: tuple[int, ...] | list[int]) -> None:
        """Discord took these deliveries (or they are moot): they are owed no more."""
        for row_id in ids:
            self._handed.pop(row_id, None)
        if ids:
            await self._write(lambda session: deliveries.settle(session, list(ids)))

    async def unpictured(self, ids: tuple[int, ...] | list[int], message_id: int) -> None:
        """The adapter sent these deliveries without their picture, as ``message_id`` (the
        picture was still being drawn): what stays owed is the picture, an edit of that
        message, so that a restart before it went out still adds it."""
        if ids:
            await self._write(lambda session: deliveries.as_edit(session, list(ids), message_id))

    async def attempted(self, ids: tuple[int, ...] | list[int], delay: float) -> None:
        """A delivery failed and is tried again in ``delay`` seconds."""
        if ids:
            at = self.clock() + delay
            await self._write(lambda session: deliveries.attempted(session, list(ids), at))

    async def dm_closed(self, user_id: int) -> None:
        """Discord refused a direct message to this user: mention them from now on (until they
        choose direct messages again with ``/me``)."""
        await self._write(lambda session: repo.set_player(session, user_id, dm_closed=True))

    async def waiting(self) -> tuple[int, float | None]:
        """How many deliveries are owed, and when the oldest was recorded (health checks)."""
        async with self.sessions() as session:
            return await deliveries.waiting(session)

    async def _write(self, change: Callable[[AsyncSession], Any]) -> None:
        writer = self.writers.writer()
        try:
            async with self.writers.slots, self.sessions() as session, session.begin():
                await writer.take()
                await change(session)
        finally:
            writer.release()

    # ================================================================= deadlines

    def written_deadline(self) -> float | None:
        """The soonest deadline this process's commands wrote since the last call (None: none):
        the deadline loop is woken by a command only when it is sooner than its next look."""
        return repo.take_written_deadline(self.engine)

    async def next_deadline(self) -> float | None:
        with _damage_named():
            async with self.sessions() as session:
                return await repo.earliest_deadline(session)

    async def run_deadlines(self) -> list[Outgoing]:
        """Send due reminders and apply due defaults (safe from several processes: see
        ``bot.service.timeouts``). Raises :class:`DamagedDatabase` when the database cannot be
        read at all, so that callers stop retrying and say what to do."""
        now = self.clock()
        with _damage_named():
            async with self.sessions() as session:
                due = [
                    (d.game_id, d.seat, d.kind, d.due_at, d.phase)
                    for d in await repo.due_deadlines(session, now)
                ]
        out: list[Outgoing] = []
        for game_id, seat, kind, due_at, phase in due:
            if kind == deadlines.ARCHIVE:
                archived = await self._archive(game_id, seat, due_at, phase)
                out.extend(archived)
                continue
            async with self.sessions() as session:
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
            reply = await self._run(None, place, work, f"deadline.{kind}")
            out.extend(reply.public)
        return out

    async def _archive(self, game_id: int, seat: int, due_at: float, phase: str) -> list[Outgoing]:
        """A finished game's thread is due to be archived (claimed like any deadline)."""
        async with self.sessions() as session, session.begin():
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

    # ================================================================= the loop

    async def _run(
        self,
        actor: Actor | None,
        place: Place,
        work: Work,
        command: str,
        *,
        write_late: bool = False,
        here_only: bool = False,
    ) -> Reply:
        """Run ``work`` in one transaction under the channel's lock, retrying on conflicts.

        ``write_late``: ``work`` takes SQLite's writer itself, just before its first write
        (``tx.writer.take()``), instead of for the whole transaction. Moves use it: their load,
        engine and replies then run while other games write, which is most of a move's time.
        Anything else writes early and often (lobby) and holds it throughout.

        ``here_only``: the channel's own game, never one in its threads (``new``: a channel
        whose games are all in threads may open another)."""
        lang = language_for(actor.locale if actor else place.locale)
        started = time.perf_counter()
        game_id: int | None = None
        paused_in: int | None = None
        # One structured line per command (never its arguments: a sealed bid is a secret).
        fields = (
            f"command={_log_safe(command)} channel={place.channel_id} guild={place.guild_id} "
            f"user={actor.user_id if actor else '-'}"
        )
        async with self.locks[place.channel_id]:
            for attempt in range(RETRIES):
                writer = self.writers.writer()
                try:
                    async with self.writers.slots, self.sessions() as session, session.begin():
                        if not write_late:
                            await writer.take()
                        if actor is not None:
                            lang = await self._language(session, actor)
                        row = await repo.open_game(session, place.channel_id, lock=True)
                        if row is None and not here_only:
                            row = await self._game_in_threads(session, place, lang)
                        game_id = row.id if row is not None else None
                        tx = Tx(
                            session,
                            row,
                            lang,
                            self.clock(),
                            writer,
                            self._draws,
                            self.computer_delay,
                        )
                        # A player on autopilot is back with any command but leaving.
                        back: Post | None = None
                        if actor is not None and command != "leave":
                            back = await computer.reclaim(tx, actor, place)
                        draft = await work(tx)
                        if back is not None:
                            draft.public.insert(0, back)
                        await routing.route(tx, draft)  # mentions, DMs, quiet hours, away
                        draft.owing = await self._owe(tx, draft.public)
                        if draft.owing and tx.row is not None:
                            draft.version = tx.row.version
                        # The adapter resumes a paused table once it can post there again.
                        paused_in = row.channel_id if row and pause.paused(row) else None
                    break
                except ElsewhereError as elsewhere:
                    metrics.counted(command, "refused", started, "lobby.thread.several")
                    return Reply(private=Message(elsewhere.text), ok=False)
                except (Refusal, RulesError) as refusal:
                    log.info("%s game=%s outcome=refused key=%s", fields, game_id, refusal.key)
                    metrics.counted(command, "refused", started, refusal.key)
                    # Bad input changes nothing: a return from autopilot rolls back with the rest.
                    return self._refused(refusal, lang)
                except Exception as exc:
                    if outage.lost(exc):
                        # Not a bug: one warning for the whole outage (bot.store.outage).
                        outage.database.failed(exc)
                        log.info("%s game=%s outcome=unavailable", fields, game_id)
                        metrics.counted(command, "unavailable", started)
                        return self._refused(Refusal("lobby.error.database"), lang)
                    if not _retryable(exc):
                        # A bug must not crash the bot or half-apply a move: the transaction has
                        # rolled back, the user hears that nothing changed, the log the trace.
                        log.exception("%s game=%s outcome=error", fields, game_id)
                        metrics.counted(command, "error", started)
                        return self._refused(Refusal("lobby.error.internal"), lang)
                    # Another writer got there first (another process, or a concurrent "new"):
                    # start again from a fresh load; the engine sees the newer state.
                    log.info(
                        "%s game=%s outcome=retry conflict=%s attempt=%d",
                        fields,
                        game_id,
                        type(exc).__name__,
                        attempt,
                    )
                    await asyncio.sleep(0.005 * (attempt + 1))
                finally:
                    writer.release()  # after the commit or the rollback
            else:
                log.warning("%s game=%s outcome=busy", fields, game_id)
                metrics.counted(command, "busy", started)
                return self._refused(Refusal("lobby.error.busy"), lang)
        outage.database.worked()
        log.info(
            "%s game=%s outcome=ok ms=%.1f", fields, game_id, (time.perf_counter() - started) * 1e3
        )
        reply = await self._finish(draft)
        reply.paused = paused_in
        metrics.counted(command, "ok", started)  # after the pictures: the answer is ready
        return reply

    async def _owe(self, tx: Tx, posts: list[Post]) -> list[tuple[int, str]]:
        """Record ``posts`` as owed to their channels, in the command's transaction: a post
        Discord refuses, or that a stop cuts off, is sent later (``docs/discord.md``)."""
        if not self.owes or not posts:
            return []
        await tx.writer.take()
        row = tx.row
        version = None
        if row is not None:
            await tx.session.flush()  # the version this command saves
            version = row.version
        owed_rows = [(p.channel_id, owed.kind_of(p), owed.dump(p)) for p in posts]
        game_id = next((p.slot.game_id for p in posts if p.slot is not None), None)
        if game_id is None and row is not None:
            game_id = row.id
        return await deliveries.owe(tx.session, game_id, version, owed_rows, tx.now)

    async def _game_in_threads(
        self, session: AsyncSession, place: Place, lang: str
    ) -> GameRow | None:
        """A command in a channel whose games are played in its threads: the one game there,
        or (several) a refusal that names their threads."""
        games = await repo.open_games_in_threads(session, place.channel_id)
        if len(games) <= 1:
            return games[0] if games else None
        links = join(Channel(g.channel_id, str(phrase(f"{g.kind}.name", lang))) for g in games)
        raise ElsewhereError(phrase("lobby.thread.several", lang, count=len(games), threads=links))

    async def _finish(self, draft: Draft) -> Reply:
        """After commit: draw the images (off the event loop) and build the messages. A table
        picture not drawn within ``picture_wait`` follows its message (``image_later``)."""
        pictures = {
            index: asyncio.ensure_future(self._draw(post.picture))
            for index, post in enumerate(draft.public)
            if post.picture is not None and post.replay is None and self._draws(post.picture.kind)
        }
        await self._wait(list(pictures.values()))
        private_image = await self._draw(draft.private_image)
        reply = Reply(
            ok=draft.ok,
            ack_by_edit=draft.ack_by_edit,
            wrote=not draft.picked or bool(draft.public),
            in_place=draft.in_place,
        )
        if draft.private or private_image or draft.private_buttons or draft.private_selects:
            reply.private = Message(
                lines(draft.private),
                image=private_image,
                buttons=draft.private_buttons,
                selects=draft.private_selects,
            )
        for index, post in enumerate(draft.public):
            delivery, nonce = draft.owing[index] if draft.owing else (None, None)
            if delivery is not None:
                self._handed[delivery] = time.monotonic()
            drawn = pictures.get(index)
            image = drawn.result() if drawn is not None and drawn.done() else None
            if post.replay:
                image = await self._animate(post.replay)
            message = Message(
                post.text,
                narration=post.narration,
                image=image,
                mentions=post.mentions,
                buttons=post.buttons,
                selects=post.selects,
            )
            reply.public.append(
                Outgoing(
                    post.channel_id,
                    message,
                    post.slot,
                    post.edit,
                    post.edit_of,
                    thread=post.thread,
                    archive=post.archive,
                    delivery=(delivery,) if delivery is not None else (),
                    nonce=nonce,
                    dm=post.dm,
                    fallback=Message(post.fallback, mentions=(post.dm,)) if post.dm else None,
                    image_later=drawn if drawn is not None and not drawn.done() else None,
                    version=draft.version,
                )
            )
        return reply

    async def _wait(self, pictures: list[asyncio.Future[Image | None]]) -> None:
        """Wait for the table pictures of a reply, as long as ``picture_wait`` allows: not at
        all when the render queue says they would come later than that (over capacity)."""
        if not pictures:
            return
        if self.picture_wait is None:
            await asyncio.wait(pictures)
        elif drawing.queue().behind() <= self.picture_wait:
            await asyncio.wait(pictures, timeout=self.picture_wait)

    async def _animate(self, job: ReplayJob) -> Image | None:
        if not self._draws(job.kind):
            return None
        try:
            with metrics.RENDER_QUEUE.track_inprogress():
                data = await drawing.animate(job)
        except Exception:
            # Like a picture: a replay that cannot be drawn must not lose the message.
            log.exception("replay of game %s failed", job.game_id)
            return None
        return Image(f"partida-{job.kind}-{job.game_id}.webp", data)

    def _draws(self, kind: str) -> bool:
        """Whether pictures of ``kind`` are drawn: not with rendering off, nor for a game
        without a renderer (the test game), whose table is never even looked at for one."""
        return self.render_images and drawing.drawable(kind)

    async def _draw(self, job: RenderJob | None) -> Image | None:
        if job is None or not self._draws(job.kind):
            return None
        try:
            # A game's table picture names its game: a newer picture of the same table, asked
            # for while this one waits, is drawn instead (``drawing.draw``).
            with metrics.RENDER_QUEUE.track_inprogress():
                data = await drawing.draw(
                    job.kind, job.view, job.names, job.lang, job.private, table=job.game_id
                )
        except Exception:
            # A drawing bug must never lose the move or the message: send the text alone.
            log.exception("rendering failed for %s", job.kind)
            return None
        return Image(f"{job.kind}.png", data)


@contextlib.contextmanager
def _damage_named() -> Iterator[None]:
    """A database error that is not a passing conflict (busy, locked, a lost connection: the
    ``OperationalError`` family) is a damaged database."""
    try:
        yield
    except DatabaseError as exc:
        if isinstance(exc, OperationalError):
            raise
        raise DamagedDatabase(str(exc.orig or exc)[:200]) from exc


class ElsewhereError(Exception):
    """The command names no game here: the games are in threads (its text says which)."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


def _log_safe(text: str) -> str:
    """A user-typed name made safe for a one-line ``key=value`` log record."""
    return re.sub(r"[^A-Za-z0-9_.-]", "?", str(text))[:48] or "?"


def _retryable(exc: Exception) -> bool:
    """A write conflict worth retrying from a fresh load: another writer saved first (stale
    version, duplicate log entry, a concurrent "new" in the channel), SQLite was busy, or
    PostgreSQL aborted us for a deadlock or a serialization failure."""
    if isinstance(exc, StaleDataError | IntegrityError):
        return True
    if isinstance(exc, OperationalError) and "locked" in str(exc):
        return True
    orig = getattr(exc, "orig", None)
    code = getattr(orig, "sqlstate", None) or getattr(
        getattr(orig, "__cause__", None), "sqlstate", None
    )
    return code in ("40P01", "40001")
