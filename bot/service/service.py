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
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from bot.service import buttons as button_ids
from bot.service import (
    compose,
    drawing,
    history,
    lobby,
    moves,
    ratings,
    rematch,
    replays,
    standings,
    timeouts,
)
from bot.service.draft import Draft, RenderJob, ReplayJob
from bot.service.errors import DamagedDatabase, Refusal
from bot.service.replies import Actor, Image, Message, Outgoing, Place, Reply
from bot.service.table import public_locale
from bot.service.text import lines, phrase
from bot.service.transaction import Tx, Work
from bot.service.writer import WriterQueue
from bot.store import repository as repo
from bot.store.database import create_engine, database_url, upgrade
from bot.store.models import LOBBY
from i18n import LANGUAGES, language_for
from rules.core import CommandArgs, RulesError, get_game

log = logging.getLogger("partida.service")

RETRIES = 8
# How long a user's chosen language is trusted before it is read again: the bound on how late a
# choice made through another process shows (one made through this one shows at once).
LANGUAGE_TTL = 60.0


class Service:
    def __init__(
        self, engine: AsyncEngine, *, render: bool = True, clock: Callable[[], float] = time.time
    ) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.render_images = render
        self.clock = clock
        # One lock per channel: commands for one game run one at a time in this process; the
        # version column protects against other processes.
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.writers = WriterQueue(engine)
        # Users' chosen languages (None: follow the Discord client), with when each was read:
        # a command then needs no extra query. The choice made through this process is kept at
        # once; one made through another process shows here within LANGUAGE_TTL seconds.
        self._languages: dict[int, tuple[str | None, float]] = {}

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        render: bool = True,
        clock: Callable[[], float] = time.time,
        migrate: bool = True,
    ) -> Service:
        resolved = database_url(url)
        if migrate:
            await upgrade(resolved)
        return cls(create_engine(resolved), render=render, clock=clock)

    async def close(self) -> None:
        await self.engine.dispose()

    # ================================================================= commands

    async def new_game(
        self, actor: Actor, place: Place, game: str, options: dict[str, Any] | None = None
    ) -> Reply:
        return await self._run(actor, place, lobby.new_game(actor, place, game, options), "new")

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
        replay: bool | None = None,
    ) -> Reply:
        """The game's time limits, and the channel's automatic replay (``replay``)."""
        if replay is not None:
            work = replays.set_automatic(actor, place, bool(replay))
            said = await self._run(actor, place, work, "settings")
            if not said.ok or (deadline_minutes is None and reminder_minutes is None):
                return said
        work = lobby.change_settings(actor, deadline_minutes, reminder_minutes)
        return await self._run(actor, place, work, "settings")

    async def rematch(self, actor: Actor, place: Place, game_id: int | None = None) -> Reply:
        """The same table again (``game_id``: the channel's last finished game if None)."""
        return await self._run(actor, place, rematch.work(actor, place, game_id), "rematch")

    async def replay_game(self, actor: Actor, place: Place, game_id: int | str) -> Reply:
        """``/game replay``: post a game of this server as one animated picture."""
        lang = language_for(place.locale)
        return await self._run(actor, place, replays.command(place, game_id, lang), "replay")

    async def status(self, actor: Actor, place: Place) -> Reply:
        return await self._run(actor, place, lobby.status(), "status")

    async def board(self, actor: Actor, place: Place) -> Reply:
        return await self._run(actor, place, lobby.board(actor), "board")

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
        """A button click or a select submission (the custom_id says what to do)."""
        view = button_ids.parse(custom_id, values)
        if view is not None and view.game_id == button_ids.VIEW_GAME:
            return await self._view(actor, place, view)
        if view is not None and view.command == rematch.COMMAND:
            return await self.rematch(actor, place, view.game_id)
        work = moves.press(actor, place, custom_id, values)
        return await self._run(actor, place, work, "press", write_late=True)

    async def suggest(
        self,
        actor: Actor,
        place: Place,
        game: str,
        command: str,
        param: str,
        args: CommandArgs,
        typed: str = "",
    ) -> list[str]:
        """Autocomplete values (at most 25) from the actor's legal actions. Read-only."""
        async with self.sessions() as session:
            row = await repo.open_game(session, place.channel_id)
        values = moves.suggest(row, actor, game, command, param, args)
        needle = str(typed or "").strip().upper()
        return [v for v in values if needle in v.upper()][:25]

    async def rules(self, actor: Actor, place: Place, game: str) -> Reply:
        lang = language_for(actor.locale)
        try:
            engine = get_game(str(game))
        except RulesError as err:
            return self._refused(err, lang)
        async with self.sessions() as session:
            lang = await self._language(session, actor)
        return Reply(private=Message(phrase(engine.rules_text_key(), lang)))

    async def history(self, actor: Actor, place: Place, page: int = 1) -> Reply:
        """The channel's finished games, a page at a time, each with a replay button."""
        async with self.sessions() as session:
            lang = await self._language(session, actor)
            text, found = await history.page(session, place.channel_id, _page(page), lang)
        return Reply(private=Message(text, buttons=found))

    async def leaderboard(self, actor: Actor, place: Place, game: str, page: int = 1) -> Reply:
        """One page of a game's leaderboard on this server, with buttons to the others."""
        async with self.sessions() as session:
            lang = await self._language(session, actor)
            try:
                text, pages = await standings.leaderboard(
                    session, place.guild_id, game, _page(page), lang
                )
            except Refusal as refusal:
                return self._refused(refusal, lang)
        return Reply(private=Message(text, buttons=pages))

    async def stats(self, actor: Actor, place: Place, user_id: int | None = None) -> Reply:
        """A player's games, wins, best scores and ratings on this server (default: yours)."""
        async with self.sessions() as session:
            lang = await self._language(session, actor)
            player = ratings.player_key(actor.user_id if user_id is None else int(user_id))
            name = actor.display_name if user_id in (None, actor.user_id) else "?"
            text = await standings.stats(session, place.guild_id, player, name, lang)
        return Reply(private=Message(text))

    async def rebuild_ratings(self) -> int:
        """Rate every finished game again, in order (``partida ratings rebuild``)."""
        async with self.sessions() as session, session.begin():
            return await ratings.rebuild(session)

    async def _view(self, actor: Actor, place: Place, view: button_ids.Press) -> Reply:
        """A button of a read-only view (a leaderboard's page)."""
        if view.command == history.HISTORY:
            return await self.history(actor, place, _page(view.args.get("page")))
        if view.command == history.REPLAY:
            return await self.replay_game(actor, place, str(view.args.get("game", "")))
        if view.command == standings.LEADERBOARD:
            return await self.leaderboard(
                actor, place, str(view.args.get("game", "")), _page(view.args.get("page"))
            )
        return self._refused(Refusal("lobby.error.stale_button"), language_for(actor.locale))

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
        self._languages[actor.user_id] = (chosen, self.clock())  # the next reply uses it
        lang = language_for(actor.locale) if choice == "auto" else choice
        return Reply(private=Message(phrase("lobby.language.set", lang)))

    # ================================================================= deadlines

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
            async with self.sessions() as session:
                row = await repo.game_by_id(session, game_id)
                if row is None:
                    continue
                place = Place(row.channel_id, row.guild_id, public_locale(row))
            work = timeouts.work(game_id, seat, kind, due_at, phase)
            reply = await self._run(None, place, work, f"deadline.{kind}")
            out.extend(reply.public)
        return out

    # ================================================================= replay

    async def replay(self, game_id: int) -> dict[str, Any] | None:
        """Rebuild a game's state from its seed and action log (crash checks, audits)."""
        async with self.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            if row is None or row.status == LOBBY:
                return None
            engine = get_game(row.kind)
            state = engine.new_game(len(row.seats), row.options, row.seed)
            for entry in await repo.action_log(session, game_id):
                state, _ = engine.apply(
                    state, entry.seat, engine.action_from_json(entry.action), entry.at
                )
            return engine.dump(state)

    # ================================================================= the loop

    async def _run(
        self,
        actor: Actor | None,
        place: Place,
        work: Work,
        command: str,
        *,
        write_late: bool = False,
    ) -> Reply:
        """Run ``work`` in one transaction under the channel's lock, retrying on conflicts.

        ``write_late``: ``work`` takes SQLite's writer itself, just before its first write
        (``tx.writer.take()``), instead of for the whole transaction. Moves use it: their load,
        engine and replies then run while other games write, which is most of a move's time.
        Anything else writes early and often (lobby) and holds it throughout."""
        lang = language_for(actor.locale if actor else place.locale)
        started = time.perf_counter()
        game_id: int | None = None
        # One structured line per command (never its arguments: a sealed bid is a secret).
        fields = (
            f"command={_log_safe(command)} channel={place.channel_id} guild={place.guild_id} "
            f"user={actor.user_id if actor else '-'}"
        )
        async with self._locks[place.channel_id]:
            for attempt in range(RETRIES):
                writer = self.writers.writer()
                try:
                    async with self.writers.slots, self.sessions() as session, session.begin():
                        if not write_late:
                            await writer.take()
                        if actor is not None:
                            lang = await self._language(session, actor)
                        row = await repo.open_game(session, place.channel_id, lock=True)
                        game_id = row.id if row is not None else None
                        tx = Tx(session, row, lang, self.clock(), writer, self._draws)
                        draft = await work(tx)
                    break
                except (Refusal, RulesError) as refusal:
                    log.info("%s game=%s outcome=refused key=%s", fields, game_id, refusal.key)
                    return self._refused(refusal, lang)
                except Exception as exc:
                    if not _retryable(exc):
                        # A bug must not crash the bot or half-apply a move: the transaction has
                        # rolled back, the user hears that nothing changed, the log the trace.
                        log.exception("%s game=%s outcome=error", fields, game_id)
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
                return self._refused(Refusal("lobby.error.busy"), lang)
        log.info(
            "%s game=%s outcome=ok ms=%.1f", fields, game_id, (time.perf_counter() - started) * 1e3
        )
        return await self._finish(draft)

    async def _language(self, session: AsyncSession, actor: Actor) -> str:
        now = self.clock()
        chosen, read_at = self._languages.get(actor.user_id, (None, -LANGUAGE_TTL))
        if now - read_at >= LANGUAGE_TTL:
            chosen = await repo.player_language(session, actor.user_id)
            self._languages[actor.user_id] = (chosen, now)
        return chosen if chosen in LANGUAGES else language_for(actor.locale)

    def _refused(self, error: Refusal | RulesError, lang: str) -> Reply:
        return Reply(private=Message(compose.refusal(error, lang)), ok=False)

    async def _finish(self, draft: Draft) -> Reply:
        """After commit: draw the images (off the event loop) and build the messages."""
        private_image = await self._draw(draft.private_image)
        reply = Reply(ok=draft.ok)
        if draft.private or private_image or draft.private_buttons:
            reply.private = Message(
                lines(draft.private), image=private_image, buttons=draft.private_buttons
            )
        for post in draft.public:
            message = Message(
                post.text,
                image=await self._animate(post.replay)
                if post.replay
                else await self._draw(post.picture),
                mentions=post.mentions,
                buttons=post.buttons,
                selects=post.selects,
            )
            reply.public.append(Outgoing(post.channel_id, message))
        return reply

    async def _animate(self, job: ReplayJob) -> Image | None:
        if not self._draws(job.kind):
            return None
        try:
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
            data = await drawing.draw(job.kind, job.view, job.names, job.lang, job.private)
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


def _page(value: Any) -> int:
    """A page number from a button or a command; anything else is the first page."""
    try:
        return max(1, min(int(str(value)), 10**6))
    except (TypeError, ValueError):
        return 1


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
