"""The loop that runs every command of the service: a :data:`~bot.service.transaction.Work`
under the channel's lock, in one transaction retried on conflicts, then the replies finished
(pictures drawn, deliveries owed). :class:`Runner` also holds the state a service process
keeps (sessions, clock, locks, the users' languages, what it handed out): it is the one base
of :class:`~bot.service.Service`, and what the functions of ``reading`` and ``upkeep`` are
given. Nothing here imports them: the service stands on one floor, not a stack of classes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterator

from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from bot import metrics
from bot.service import (
    compose,
    computer,
    drawing,
    owed,
    routing,
)
from bot.service.draft import Draft, Post, RenderJob, ReplayJob
from bot.service.errors import DamagedDatabase, Refusal
from bot.service.fairuse import FairUse, Replays
from bot.service.match import paused
from bot.service.memory import LANGUAGE_TTL, ChannelLocks, RecentLanguages
from bot.service.replies import Actor, Image, Message, Outgoing, Place, Reply
from bot.service.text import Channel, Text, join, lines, phrase
from bot.service.transaction import Tx, Work
from bot.service.writer import WriterQueue
from bot.store import deliveries, outage
from bot.store import repository as repo
from bot.store.models import GameRow
from i18n import LANGUAGES, language_for
from rules.core import RulesError

log = logging.getLogger("partida.service")

RETRIES = 8


class Runner:
    """The state a service process keeps (sessions, clock, locks, the writer queue, the users'
    languages, what it handed out) and the loop of a command (:meth:`run`)."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        render: bool = True,
        clock: Callable[[], float] = time.time,
        computer_delay: float = 1.5,
    ) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.clock = clock
        # Users' chosen languages (None: follow the Discord client), with when each was read:
        # a command then needs no extra query. The choice made through this process is kept at
        # once; one made through another process shows here within LANGUAGE_TTL seconds. The
        # users read in that time only (bot/service/memory.py).
        self.languages = RecentLanguages()
        # How often each user and server may ask for what costs the most (bot.service.fairuse).
        self.fair_use = FairUse(clock)
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

    async def language_of(self, session: AsyncSession, actor: Actor) -> str:
        now = self.clock()
        chosen, read_at = self.languages.get(actor.user_id) or (None, -LANGUAGE_TTL)
        if now - read_at >= LANGUAGE_TTL:
            chosen = await repo.player_language(session, actor.user_id)
            self.languages[actor.user_id] = (chosen, now)
        return chosen if chosen in LANGUAGES else language_for(actor.locale)

    def refusal(self, error: Refusal | RulesError, lang: str) -> Reply:
        return Reply(private=Message(compose.refusal(error, lang)), ok=False, lang=lang)

    async def over_budget(
        self, kind: str, actor: Actor, place: Place, count: bool = True
    ) -> Reply | None:
        """The refusal of a costly command (``fairuse.REPLAY``, ``fairuse.LOOK``) when the user
        or the server has used its budget, with the seconds to wait; None when it may run (and
        then, with ``count``, the use is counted). Checked first, so a refused command reads
        and changes nothing."""
        if count:
            wait = self.fair_use.take(kind, actor.user_id, place.guild_id)
        else:
            wait = self.fair_use.wait(kind, actor.user_id, place.guild_id)
        if not wait:
            return None
        log.info(
            "command=%s channel=%s guild=%s user=%s outcome=limited wait=%d",
            kind,
            place.channel_id,
            place.guild_id,
            actor.user_id,
            wait,
        )
        async with self.sessions() as session:
            lang = await self.language_of(session, actor)
        return self.refusal(Refusal("fairuse.wait", seconds=wait), lang)

    async def run(
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
                            lang = await self.language_of(session, actor)
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
                        # The adapter resumes a paused game once it can post there again.
                        paused_in = row.channel_id if row and paused(row) else None
                    break
                except ElsewhereError as elsewhere:
                    metrics.counted(command, "refused", started, "lobby.thread.several")
                    return Reply(private=Message(elsewhere.text), ok=False, lang=lang)
                except (Refusal, RulesError) as refusal:
                    log.info("%s game=%s outcome=refused key=%s", fields, game_id, refusal.key)
                    metrics.counted(command, "refused", started, refusal.key)
                    # Bad input changes nothing: a return from autopilot rolls back with the rest.
                    return self.refusal(refusal, lang)
                except Exception as exc:
                    if outage.lost(exc):
                        # Not a bug: one warning for the whole outage (bot.store.outage).
                        outage.database.failed(exc)
                        log.info("%s game=%s outcome=unavailable", fields, game_id)
                        metrics.counted(command, "unavailable", started)
                        return self.refusal(Refusal("lobby.error.database"), lang)
                    if not _retryable(exc):
                        # A bug must not crash the bot or half-apply a move: the transaction has
                        # rolled back, the user hears that nothing changed, the log the trace.
                        log.exception("%s game=%s outcome=error", fields, game_id)
                        metrics.counted(command, "error", started)
                        return self.refusal(Refusal("lobby.error.internal"), lang)
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
                return self.refusal(Refusal("lobby.error.busy"), lang)
        outage.database.worked()
        log.info(
            "%s game=%s outcome=ok ms=%.1f", fields, game_id, (time.perf_counter() - started) * 1e3
        )
        reply = await self.finish(draft)
        reply.paused = paused_in
        reply.lang = lang
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

    async def finish(self, draft: Draft) -> Reply:
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
