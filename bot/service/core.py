"""The application core: command → lock → load → engine → save → replies.

Every public method takes who (:class:`Actor`) and where (:class:`Place`), returns a
:class:`Reply` and never raises for anything a user did: refusals and rules errors become a
translated private message, and nothing is changed (the transaction rolls back). Replies are
built only after the commit, so an acknowledged move is always in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.pool import QueuePool

from bot.service import buttons as button_ids
from bot.service import drawing
from bot.service.errors import Refusal
from bot.service.narrate import clip, events_text, fill_args, plain_name, safe_name
from bot.service.replies import Actor, Button, Image, Message, Outgoing, Place, Reply, Select
from bot.store import repository as repo
from bot.store.database import create_engine, database_url, upgrade
from bot.store.models import ACTIVE, CANCELLED, FINISHED, LOBBY, DeadlineRow, GameRow, SeatRow
from i18n import LANGUAGES, language_for, t
from rules.core import (
    Action,
    CommandArgs,
    Event,
    Game,
    Pending,
    RulesError,
    get_game,
    public,
)

log = logging.getLogger("partida.service")

T = TypeVar("T")

DEFAULT_SETTINGS: dict[str, int] = {"deadline_minutes": 24 * 60, "reminder_minutes": 120}
MAX_DEADLINE_MINUTES = 14 * 24 * 60
MAX_BUTTONS = 25  # Discord: 5 rows of 5
RETRIES = 8
# How long a user's chosen language is trusted before it is read again: the bound on how late a
# choice made through another process shows (one made through this one shows at once).
LANGUAGE_TTL = 60.0


@dataclass
class _RenderJob:
    kind: str
    view: dict[str, Any]
    names: list[str]
    lang: str
    private: bool


@dataclass(frozen=True)
class _Post:
    channel_id: int
    text: str
    mentions: tuple[int, ...]
    buttons: tuple[Button, ...]
    selects: tuple[Select, ...]
    picture: _RenderJob | None


@dataclass
class _Draft:
    """A reply under construction inside the transaction; images are drawn after commit."""

    private_lines: list[str] = field(default_factory=list)
    private_image: _RenderJob | None = None
    private_buttons: tuple[Button, ...] = ()
    public: list[_Post] = field(default_factory=list)
    ok: bool = True

    def post(
        self,
        channel_id: int,
        text: str,
        *,
        mentions: tuple[int, ...] = (),
        buttons: tuple[Button, ...] = (),
        selects: tuple[Select, ...] = (),
        picture: _RenderJob | None = None,
    ) -> None:
        """Queue a public message for a channel."""
        self.public.append(_Post(channel_id, text, mentions, buttons, selects, picture))


class _Writer:
    """One transaction's hold on SQLite's single writer (``Service._writer``; PostgreSQL has
    none): taken at most once, at the transaction's first write, and released after it ends."""

    KEY = "partida.writer"  # where the transaction's hold lives in ``session.info``

    def __init__(self, lock: asyncio.Lock | None) -> None:
        self._lock = lock
        self._held = False

    @classmethod
    def of(cls, session: AsyncSession) -> _Writer:
        writer: _Writer = session.info[cls.KEY]
        return writer

    async def take(self) -> None:
        if self._lock is not None and not self._held:
            await self._lock.acquire()
            self._held = True

    def release(self) -> None:
        if self._lock is not None and self._held:
            self._held = False
            self._lock.release()


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
        # SQLite has one writer at a time. Queueing write transactions here is much faster than
        # letting them collide in SQLite, whose busy handler sleeps in steps of up to 100 ms.
        # PostgreSQL takes concurrent writers (rows conflict only per game: the version check).
        self._writer: asyncio.Lock | None = (
            asyncio.Lock() if engine.dialect.name == "sqlite" else None
        )
        # Transactions in flight at once; past these, commands queue here, in a cheap FIFO,
        # rather than in the connection pool, whose waiters cost far more CPU with a thousand
        # games playing at once. SQLite: two, so that one move computes while another writes
        # (more only add aiosqlite threads fighting for the GIL); PostgreSQL: the pool's size.
        pool = engine.sync_engine.pool
        self._slots = asyncio.Semaphore(
            2 if self._writer is not None else pool.size() if isinstance(pool, QueuePool) else 10
        )
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

    # ================================================================= the transaction loop

    async def _run(
        self,
        actor: Actor | None,
        place: Place,
        work: Callable[[AsyncSession, GameRow | None, str], Awaitable[_Draft]],
        command: str = "?",
        *,
        write_late: bool = False,
    ) -> Reply:
        """Run ``work`` in one transaction under the channel's lock, retrying on conflicts.

        ``write_late``: ``work`` takes SQLite's writer itself, just before its first write
        (``_Writer.of(session).take()``), instead of for the whole transaction. Moves use it:
        their load, engine and replies then run while other games write, which is most of a
        move's time. Anything else writes early and often (lobby) and holds it throughout."""
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
                writer = _Writer(self._writer)
                try:
                    async with self._slots, self.sessions() as session, session.begin():
                        session.info[_Writer.KEY] = writer
                        if not write_late:
                            await writer.take()
                        if actor is not None:
                            lang = await self._language(session, actor)
                        row = await repo.open_game(session, place.channel_id, lock=True)
                        game_id = row.id if row is not None else None
                        draft = await work(session, row, lang)
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
        # Arguments may echo what the user typed: braces in them must not read as a template.
        echoed = {
            k: v.replace("{", "(").replace("}", ")") if isinstance(v, str) else v
            for k, v in error.args_map.items()
        }
        text = t(error.key, lang, **fill_args(echoed, [], lang))
        return Reply(private=Message("⚠️ " + clip(text)), ok=False)

    async def _finish(self, draft: _Draft) -> Reply:
        """After commit: draw the images (off the event loop) and build the messages."""
        private_image = await self._draw(draft.private_image)
        reply = Reply(ok=draft.ok)
        if draft.private_lines or private_image or draft.private_buttons:
            reply.private = Message(
                clip("\n".join(draft.private_lines)),
                image=private_image,
                buttons=draft.private_buttons,
            )
        for post in draft.public:
            message = Message(
                clip(post.text),
                image=await self._draw(post.picture),
                mentions=post.mentions,
                buttons=post.buttons,
                selects=post.selects,
            )
            reply.public.append(Outgoing(post.channel_id, message))
        return reply

    def _draws(self, kind: str) -> bool:
        """Whether pictures of ``kind`` are drawn: not with rendering off, nor for a game
        without a renderer (the test game), whose table is never even looked at for one."""
        return self.render_images and drawing.drawable(kind)

    async def _draw(self, job: _RenderJob | None) -> Image | None:
        if job is None or not self._draws(job.kind):
            return None
        try:
            data = await drawing.draw(job.kind, job.view, job.names, job.lang, job.private)
        except Exception:
            # A drawing bug must never lose the move or the message: send the text alone.
            log.exception("rendering failed for %s", job.kind)
            return None
        return Image(f"{job.kind}.png", data)

    # ================================================================= lobby

    async def new_game(
        self, actor: Actor, place: Place, game: str, options: dict[str, Any] | None = None
    ) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            if row is not None:
                raise Refusal("lobby.error.game_exists", game_key=f"{row.kind}.name")
            engine = get_game(str(game))
            checked = engine.check_options(options or {}, engine.max_seats)
            now = self.clock()
            row = GameRow(
                channel_id=place.channel_id,
                open_channel_id=place.channel_id,
                guild_id=place.guild_id,
                kind=engine.name,
                options=checked,
                settings={**DEFAULT_SETTINGS, "locale": place.locale},
                status=LOBBY,
                host_id=actor.user_id,
                seed=secrets.randbits(62),
                created_at=now,
                updated_at=now,
            )
            row.seats = [_seat(0, actor)]
            session.add(row)
            await session.flush()
            draft = _Draft()
            draft.private_lines.append(
                t("lobby.new.private", lang, game=t(f"{engine.name}.name", lang))
            )
            draft.post(
                place.channel_id, self._lobby_text(row, place.locale, "lobby.new.public", actor)
            )
            return draft

        return await self._run(actor, place, work, "new")

    def _lobby_text(self, row: GameRow, locale: str, key: str, actor: Actor) -> str:
        lang = language_for(locale)
        engine = get_game(row.kind)
        options = ", ".join(f"{k}={v}" for k, v in sorted(row.options.items())) or "—"
        return t(
            key,
            lang,
            player=safe_name(actor.display_name),
            game=t(f"{row.kind}.name", lang),
            options=options,
            players=", ".join(safe_name(s.display_name) for s in row.seats),
            count=len(row.seats),
            min=engine.min_seats,
            max=engine.max_seats,
        )

    async def join(self, actor: Actor, place: Place) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            if any(s.user_id == actor.user_id for s in row.seats):
                raise Refusal("lobby.error.already_joined")
            if row.status != LOBBY:
                raise Refusal("lobby.error.already_started")
            engine = get_game(row.kind)
            if len(row.seats) >= engine.max_seats:
                raise Refusal("lobby.error.full", max=engine.max_seats)
            row.seats.append(_seat(len(row.seats), actor))
            row.updated_at = self.clock()
            await session.flush()
            draft = _Draft()
            draft.private_lines.append(
                t("lobby.join.private", lang, game=t(f"{row.kind}.name", lang))
            )
            draft.post(
                place.channel_id, self._lobby_text(row, place.locale, "lobby.join.public", actor)
            )
            return draft

        return await self._run(actor, place, work, "join")

    async def leave(self, actor: Actor, place: Place) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            seat = _seat_of(row, actor.user_id)
            if seat is None:
                raise Refusal("lobby.error.not_seated")
            draft = _Draft()
            if row.status == LOBBY:
                await self._remove_from_lobby(session, row, seat)
                if not row.seats:
                    _close(row, CANCELLED)
                    draft.post(
                        place.channel_id, t("lobby.cancel.empty", language_for(place.locale))
                    )
                else:
                    draft.post(
                        place.channel_id,
                        self._lobby_text(row, place.locale, "lobby.leave.public", actor),
                    )
            else:
                if seat.left:
                    raise Refusal("lobby.error.not_seated")
                seat.left = True
                await self._schedule(
                    session, row, get_game(row.kind), None, self.clock(), phase_changed=False
                )
                draft.post(
                    place.channel_id,
                    t(
                        "lobby.leave.active",
                        language_for(place.locale),
                        player=safe_name(actor.display_name),
                    ),
                )
            row.updated_at = self.clock()
            await session.flush()
            draft.private_lines.append(t("lobby.leave.private", lang))
            return draft

        return await self._run(actor, place, work, "leave")

    async def _remove_from_lobby(self, session: AsyncSession, row: GameRow, seat: SeatRow) -> None:
        """Seats stay numbered in join order without gaps."""
        remaining = [s for s in row.seats if s is not seat]
        kept = [(s.user_id, s.display_name, s.locale) for s in remaining]
        # Delete the old rows first: the new numbering reuses their keys, and within one flush
        # SQLAlchemy would turn them into updates that collide on (game, user).
        row.seats = []
        await session.flush()
        row.seats = [
            SeatRow(seat=i, user_id=user, display_name=name, locale=locale)
            for i, (user, name, locale) in enumerate(kept)
        ]
        if row.host_id == seat.user_id and remaining:
            row.host_id = kept[0][0]

    async def start(self, actor: Actor, place: Place) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            if row.status != LOBBY:
                raise Refusal("lobby.error.already_started")
            if actor.user_id != row.host_id:
                raise Refusal("lobby.error.host_only")
            engine = get_game(row.kind)
            if len(row.seats) < engine.min_seats:
                raise Refusal("lobby.error.too_few", min=engine.min_seats, count=len(row.seats))
            now = self.clock()
            state = engine.new_game(len(row.seats), row.options, row.seed)
            row.status = ACTIVE
            row.state = engine.dump(state)
            row.phase = engine.phase(state)
            row.phase_started_at = now
            row.updated_at = now
            await self._schedule(session, row, engine, state, now, phase_changed=True)
            await session.flush()
            draft = _Draft()
            draft.private_lines.append(t("lobby.start.private", lang))
            self._public_phase(
                draft,
                row,
                engine,
                state,
                place,
                [Event("lobby.start.public", {"game_key": f"{row.kind}.name"})],
            )
            return draft

        return await self._run(actor, place, work, "start")

    async def cancel(self, actor: Actor, place: Place) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            if actor.user_id != row.host_id and not actor.can_manage:
                raise Refusal("lobby.error.host_or_manager")
            _close(row, CANCELLED)
            row.updated_at = self.clock()
            await repo.clear_deadlines(session, row.id)
            await session.flush()
            draft = _Draft()
            draft.private_lines.append(t("lobby.cancel.private", lang))
            draft.post(
                place.channel_id,
                t(
                    "lobby.cancel.public",
                    language_for(place.locale),
                    player=safe_name(actor.display_name),
                    game=t(f"{row.kind}.name", language_for(place.locale)),
                ),
            )
            return draft

        return await self._run(actor, place, work, "cancel")

    async def kick(self, actor: Actor, place: Place, user_id: int) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            if actor.user_id != row.host_id and not actor.can_manage:
                raise Refusal("lobby.error.host_or_manager")
            seat = _seat_of(row, _int(user_id))
            if seat is None or seat.left:
                raise Refusal("lobby.error.not_a_player")
            if seat.user_id == actor.user_id:
                raise Refusal("lobby.error.kick_self")
            name = safe_name(seat.display_name)
            if row.status == LOBBY:
                await self._remove_from_lobby(session, row, seat)
            else:
                seat.left = True
                await self._schedule(
                    session, row, get_game(row.kind), None, self.clock(), phase_changed=False
                )
            row.updated_at = self.clock()
            await session.flush()
            draft = _Draft()
            draft.private_lines.append(t("lobby.kick.private", lang, player=name))
            draft.post(
                place.channel_id, t("lobby.kick.public", language_for(place.locale), player=name)
            )
            return draft

        return await self._run(actor, place, work, "kick")

    async def settings(
        self,
        actor: Actor,
        place: Place,
        deadline_minutes: int | None = None,
        reminder_minutes: int | None = None,
    ) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            settings = {**DEFAULT_SETTINGS, **row.settings}
            if deadline_minutes is not None or reminder_minutes is not None:
                if actor.user_id != row.host_id and not actor.can_manage:
                    raise Refusal("lobby.error.host_or_manager")
                deadline = (
                    settings["deadline_minutes"]
                    if deadline_minutes is None
                    else _int(deadline_minutes)
                )
                reminder = (
                    settings["reminder_minutes"]
                    if reminder_minutes is None
                    else _int(reminder_minutes)
                )
                if not 1 <= deadline <= MAX_DEADLINE_MINUTES:
                    raise Refusal("lobby.error.deadline_range", max=MAX_DEADLINE_MINUTES)
                if not 0 <= reminder < deadline:
                    raise Refusal("lobby.error.reminder_range")
                settings = {**settings, "deadline_minutes": deadline, "reminder_minutes": reminder}
                row.settings = settings
                row.updated_at = self.clock()
                if row.status == ACTIVE:
                    engine = get_game(row.kind)
                    await self._schedule(
                        session,
                        row,
                        engine,
                        engine.load(row.state or {}),
                        self.clock(),
                        phase_changed=True,
                    )
                await session.flush()
            draft = _Draft()
            draft.private_lines.append(t("lobby.settings.show", lang, **settings))
            return draft

        return await self._run(actor, place, work, "settings")

    async def status(self, actor: Actor, place: Place) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            draft = _Draft()
            if row is None:
                draft.private_lines.append(t("lobby.status.none", lang))
                return draft
            engine = get_game(row.kind)
            names = _names(row)
            lines = [
                t(
                    f"lobby.status.{row.status}",
                    lang,
                    game=t(f"{row.kind}.name", lang),
                    count=len(row.seats),
                    min=engine.min_seats,
                    max=engine.max_seats,
                )
            ]
            for seat in row.seats:
                marker = " " + t("lobby.status.host", lang) if seat.user_id == row.host_id else ""
                gone = " — " + t("lobby.status.left", lang) if seat.left else ""
                lines.append(f"{seat.seat + 1}. {names[seat.seat]}{marker}{gone}")
            if row.status == ACTIVE and row.state is not None:
                state = engine.load(row.state)
                deadlines = await repo.deadlines_of(session, row.id)
                for seat_no, pending in sorted(engine.pending(state).items()):
                    due = deadlines.get((seat_no, "default"))
                    when = f" <t:{int(due.due_at)}:R>" if due else ""
                    lines.append(
                        t(
                            "lobby.status.awaiting",
                            lang,
                            player=names[seat_no],
                            what=t(
                                f"{row.kind}.pending.{pending.kind}",
                                lang,
                                **fill_args(pending.args, names, lang),
                            ),
                        )
                        + when
                    )
            draft.private_lines.extend(lines)
            return draft

        return await self._run(actor, place, work, "status")

    async def board(self, actor: Actor, place: Place) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row = _require(row)
            if row.status != ACTIVE or row.state is None:
                raise Refusal("lobby.error.not_started")
            engine = get_game(row.kind)
            state = engine.load(row.state)
            seat = _seat_of(row, actor.user_id)
            draft = _Draft()
            if seat is None:
                draft.private_image = _RenderJob(
                    row.kind, engine.view(state, None), _plain_names(row), lang, private=False
                )
                draft.private_lines.append(t("lobby.board.spectator", lang))
            else:
                draft.private_image = _RenderJob(
                    row.kind, engine.view(state, seat.seat), _plain_names(row), lang, private=True
                )
                draft.private_lines.append(t("lobby.board.yours", lang))
                draft.private_buttons = self._buttons(row, engine, state, [seat.seat], lang)
            return draft

        return await self._run(actor, place, work, "board")

    async def rules(self, actor: Actor, place: Place, game: str) -> Reply:
        lang = language_for(actor.locale)
        try:
            engine = get_game(str(game))
        except RulesError as err:
            return self._refused(err, lang)
        async with self.sessions() as session:
            lang = await self._language(session, actor)
        return Reply(private=Message(clip(t(engine.rules_text_key(), lang))))

    async def history(self, actor: Actor, place: Place) -> Reply:
        async with self.sessions() as session:
            lang = await self._language(session, actor)
            rows = await repo.finished_games(session, place.channel_id)
        if not rows:
            return Reply(private=Message(t("lobby.history.none", lang)))
        lines = [t("lobby.history.title", lang)]
        for row in rows:
            names = _names(row)
            winners = [
                names[s] for s in (row.result or {}).get("winners", []) if 0 <= s < len(names)
            ]
            lines.append(
                t(
                    "lobby.history.line",
                    lang,
                    game=t(f"{row.kind}.name", lang),
                    when=f"<t:{int(row.updated_at)}:d>",
                    players=", ".join(names),
                    winners=", ".join(winners) or t("lobby.history.nobody", lang),
                )
            )
        return Reply(private=Message(clip("\n".join(lines))))

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
        return Reply(private=Message(t("lobby.language.set", lang)))

    # ================================================================= playing

    async def act(
        self, actor: Actor, place: Place, game: str | None, command: str, args: CommandArgs
    ) -> Reply:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            row, engine, state, seat = self._seated(row, actor, game)
            with _seat_names(row, lang):
                action = engine.parse(str(command), _command_args(args), state, seat)
                return await self._apply(
                    session, row, engine, state, seat, action, place, lang, by_default=False
                )

        return await self._run(actor, place, work, f"{game}.{command}", write_late=True)

    async def press(
        self, actor: Actor, place: Place, custom_id: str, values: list[str] | None = None
    ) -> Reply:
        """A button click or a select submission (the custom_id says what to do)."""
        press = button_ids.parse(custom_id, values)

        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            if press is None:
                raise Refusal("lobby.error.stale_button")
            if row is None or row.id != press.game_id or row.status != ACTIVE:
                raise Refusal("lobby.error.stale_button")
            row, engine, state, seat = self._seated(row, actor, None)
            if button_ids.phase_hash(row.phase) != press.phase:
                raise Refusal("lobby.error.stale_button")
            with _seat_names(row, lang):
                action = engine.parse(press.command, dict(press.args), state, seat)
                return await self._apply(
                    session, row, engine, state, seat, action, place, lang, by_default=False
                )

        return await self._run(
            actor,
            place,
            work,
            f"press.{press.command}" if press else "press",
            write_late=True,
        )

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
        try:
            row, engine, state, seat = self._seated(row, actor, game)
            values = engine.suggestions(state, seat, str(command), str(param), dict(args))
        except (Refusal, RulesError):
            return []
        needle = str(typed or "").strip().upper()
        return [v for v in values if needle in v.upper()][:25]

    def _seated(
        self, row: GameRow | None, actor: Actor, game: str | None
    ) -> tuple[GameRow, Game[Any], Any, int]:
        row = _require(row)
        if row.status != ACTIVE or row.state is None:
            raise Refusal("lobby.error.not_started")
        if game is not None and game != row.kind:
            raise Refusal("lobby.error.other_game", game_key=f"{row.kind}.name")
        seat = _seat_of(row, actor.user_id)
        if seat is None or seat.left:
            raise Refusal("lobby.error.not_seated")
        engine = get_game(row.kind)
        return row, engine, engine.load(row.state), seat.seat

    async def _apply(
        self,
        session: AsyncSession,
        row: GameRow,
        engine: Game[Any],
        state: Any,
        seat: int,
        action: Action,
        place: Place,
        lang: str,
        *,
        by_default: bool,
    ) -> _Draft:
        now = self.clock()
        before = engine.pending(state)
        was_pending = set(before)
        old_picture = engine.picture_key(state)
        # ``state`` is this command's own load: play in place (``apply`` would copy it first).
        events = engine.resolve(state, seat, action, now)
        # Who owes what now: asked once, used by the replies and by the deadlines.
        pending_now = engine.pending(state)
        over = engine.is_over(state)
        # The row's version grows with every save, so it numbers the log without a MAX() query.
        seen = row.version
        phase = engine.phase(state)
        changed = phase != row.phase or over
        saved: dict[str, Any] = {"state": engine.dump(state), "updated_at": now}
        if changed:
            saved.update(phase=phase, phase_started_at=now)
        if over:
            result = engine.result(state)
            saved.update(
                _closing(FINISHED),
                result={
                    "winners": list(result.winners) if result else [],
                    "scores": {str(k): v for k, v in (result.scores if result else {}).items()},
                },
            )
        repo.show(row, saved)  # the replies below read the new phase; save_game writes it
        draft = self._move_draft(
            row,
            engine,
            state,
            seat,
            events,
            place,
            lang,
            changed=changed,
            picture=over or engine.picture_key(state) != old_picture,
            before=before,
            pending=pending_now,
            by_default=by_default,
        )

        # The writes come last: on SQLite, other games' moves run while this one only computes.
        # All of them together: on SQLite, one crossing to the connection's thread.
        await _Writer.of(session).take()
        writes = repo.Writes().save_game(row, seen, saved)
        writes.append_action(row.id, seen, seat, action.to_json(), now, by_default)
        if over:
            writes.clear_deadlines(row.id)
        else:
            await self._plan_deadlines(
                session,
                writes,
                row,
                engine,
                state,
                now,
                phase_changed=changed,
                was_pending=was_pending,
                pending=pending_now,
            )
        await repo.run(session, writes)
        return draft

    def _move_draft(
        self,
        row: GameRow,
        engine: Game[Any],
        state: Any,
        seat: int,
        events: list[Event],
        place: Place,
        lang: str,
        *,
        changed: bool,
        picture: bool,
        before: dict[int, Pending],
        pending: dict[int, Pending],
        by_default: bool,
    ) -> _Draft:
        """The replies to a move: the mover's private lines and buttons, and the channel's
        message (the whole phase message with its picture when the phase changed)."""
        draft = _Draft()
        names = _names(row)
        mine = [e for e in events if e.to == seat]
        if not by_default:
            draft.private_lines.append(t("lobby.act.recorded", lang))
            draft.private_lines.extend(events_text(mine, names, lang))
        # Private news for anyone but the actor (an item drawn at the start of a turn) cannot
        # go in the actor's reply: the channel is told *that* there is news, never what it is,
        # and /game board shows it to its owner.
        others = sorted({e.to for e in events if e.to is not None and (by_default or e.to != seat)})
        told = public(events) + (
            [Event("lobby.act.private_news", {"seats": others})] if others else []
        )
        timeout_key = "lobby.deadline.defaulted"
        if changed:
            self._public_phase(
                draft,
                row,
                engine,
                state,
                place,
                told,
                timed_out=(seat, timeout_key) if by_default else None,
                picture=picture,
                pending=pending,
                before=before,
            )
        else:
            still = set(pending)
            public_lang = language_for(place.locale)
            lines = []
            if by_default:
                lines.append(t(timeout_key, public_lang, player=names[seat]))
            lines.extend(events_text(told, names, public_lang))
            if seat in before and seat not in still and still:
                lines.append(
                    t(
                        "lobby.act.ready",
                        public_lang,
                        player=names[seat],
                        waiting=", ".join(names[s] for s in sorted(still)),
                    )
                )
            if lines:
                draft.post(row.channel_id, "\n".join(lines))
            if not by_default and seat in still:
                draft.private_buttons = self._buttons(row, engine, state, [seat], lang)
        return draft

    def _public_phase(
        self,
        draft: _Draft,
        row: GameRow,
        engine: Game[Any],
        state: Any,
        place: Place,
        events: list[Event],
        timed_out: tuple[int, str] | None = None,
        picture: bool = True,
        pending: dict[int, Pending] | None = None,
        before: dict[int, Pending] | None = None,
    ) -> None:
        """The one public message of a resolved phase: events, who is awaited, buttons, and
        the image of the table (when the game's ``picture_key`` says the table deserves a new
        picture).

        A player is mentioned (pinged) when they start being awaited or are asked something
        new; ``before`` is who was awaited, and for what, before the move. Players still
        awaited for the same thing are named but not pinged again: every purchase at the
        team's Market (Bad Bones) moves the phase on while the whole team shops. The player who
        has just moved is pinged too when asked something new: in a slow game they may have
        left right after their move, and a missed ping stalls the table until the reminder."""
        lang = language_for(place.locale)
        names = _names(row)
        lines: list[str] = []
        if timed_out is not None:
            lines.append(t(timed_out[1], lang, player=names[timed_out[0]]))
        lines.extend(events_text(events, names, lang))
        mentions: list[int] = []
        selects: tuple[Select, ...] = ()
        buttons: tuple[Button, ...] = ()
        if engine.is_over(state):
            result = engine.result(state)
            if result is not None and result.summary is not None:
                lines.extend(events_text([result.summary], names, lang))
            winners = ", ".join(names[s] for s in (result.winners if result else ()))
            lines.append(
                t("lobby.over.winners", lang, winners=winners)
                if winners
                else t("lobby.over.nobody", lang)
            )
        else:
            if pending is None:
                pending = engine.pending(state)
            by_seat = {s.seat: s for s in row.seats}
            for seat_no, item in sorted(pending.items()):
                user = by_seat[seat_no]
                earlier = before.get(seat_no) if before is not None else None
                if not user.left and (earlier is None or earlier.kind != item.kind):
                    mentions.append(user.user_id)
                what = t(
                    f"{row.kind}.pending.{item.kind}", lang, **fill_args(item.args, names, lang)
                )
                who = f"<@{user.user_id}>" if not user.left else names[seat_no]
                lines.append(t("lobby.act.awaiting", lang, player=who, what=what))
            if pending and next(iter(pending.values())).deadline is not None:
                end = min(p.deadline for p in pending.values() if p.deadline is not None)
                lines.append(t("lobby.act.clock", lang, when=f"<t:{int(end)}:R>"))
            buttons = self._buttons(row, engine, state, sorted(pending), lang, pending)
            selects = self._selects(row, engine, state, sorted(pending), lang)
            if selects:
                buttons = buttons[:20]  # a select takes one of the five rows
        job = (
            _RenderJob(row.kind, engine.view(state, None), _plain_names(row), lang, private=False)
            if picture and self._draws(row.kind)
            else None
        )
        draft.post(
            row.channel_id,
            "\n".join(lines),
            mentions=tuple(mentions),
            buttons=buttons,
            selects=selects,
            picture=job,
        )

    def _buttons(
        self,
        row: GameRow,
        engine: Game[Any],
        state: Any,
        seats: list[int],
        lang: str,
        pending: dict[int, Pending] | None = None,
    ) -> tuple[Button, ...]:
        seen: list[tuple[str, CommandArgs]] = []
        owners: list[list[int]] = []  # the seats offered each button of ``seen``
        for seat in seats:
            for item in engine.buttons(state, seat):
                if item in seen:
                    owners[seen.index(item)].append(seat)
                else:
                    seen.append(item)
                    owners.append([seat])
        # Several seats' buttons in the game's own command order (claims before "pass").
        order = {c.name: i for i, c in enumerate(engine.commands)}
        ranked = sorted(
            zip(seen, owners, strict=True), key=lambda pair: order.get(pair[0][0], len(order))
        )
        # Players asked different things at once (Bad Bones: one picks a cemetery, another a
        # direction) share one row of buttons: a button only one of them can use says whose it
        # is. Players asked the same thing (everyone claims a die) need no names.
        asked_apart = pending is not None and len({p.kind for p in pending.values()}) > 1
        plain = _plain_names(row)  # (a label is plain text, not markdown)
        out: list[Button] = []
        for (command, args), offered in ranked[:MAX_BUTTONS]:
            custom_id = button_ids.button_id(row.id, row.phase, command, args)
            if custom_id is None:
                continue
            key = f"{row.kind}.button.{command}"
            label = (
                t(key, lang, **fill_args(args, plain, lang))
                if key in _catalogue_keys(lang)
                else " ".join([command, *map(str, args.values())])
            )
            if asked_apart and len(offered) == 1:
                label = t("lobby.act.owned_button", lang, player=plain[offered[0]], label=label)
            out.append(Button(label[:80], custom_id))
        return tuple(out)

    def _selects(
        self, row: GameRow, engine: Game[Any], state: Any, seats: list[int], lang: str
    ) -> tuple[Select, ...]:
        out: list[Select] = []
        for command in engine.commands:
            if command.select is None:
                continue
            tokens: dict[str, None] = {}
            for seat in seats:
                for value in engine.suggestions(state, seat, command.name, command.select, {}):
                    for token in value.split():
                        tokens.setdefault(token, None)
            if not tokens:
                continue
            options = tuple((tok, tok) for tok in list(tokens)[:25])
            placeholder = t(f"{row.kind}.command.{command.name}", lang)[:150]
            out.append(
                Select(
                    placeholder,
                    button_ids.select_id(row.id, row.phase, command.name, command.select),
                    options,
                    1,
                    len(options),
                )
            )
        return tuple(out[:1])

    # ================================================================= deadlines

    async def _schedule(
        self,
        session: AsyncSession,
        row: GameRow,
        engine: Game[Any],
        state: Any | None,
        now: float,
        *,
        phase_changed: bool,
    ) -> None:
        """Keep the deadline rows in step with who is pending, now (lobby commands; a move
        plans them into its own writes: ``_plan_deadlines``)."""
        writes = repo.Writes()
        await self._plan_deadlines(
            session, writes, row, engine, state, now, phase_changed=phase_changed
        )
        await repo.run(session, writes)

    async def _plan_deadlines(
        self,
        session: AsyncSession,
        writes: repo.Writes,
        row: GameRow,
        engine: Game[Any],
        state: Any | None,
        now: float,
        *,
        phase_changed: bool,
        was_pending: set[int] | None = None,
        pending: dict[int, Pending] | None = None,
    ) -> None:
        """Add to ``writes`` what keeps the deadline rows in step with who is pending.

        On a new phase every pending seat gets a reminder and a default deadline from the
        channel's settings (or the game's own clock). Within a phase, seats that answered lose
        their rows, and seats that left get theirs moved to now. Reminders already sent are not
        sent again, because rows are only created when the phase begins. (Rows of seats that
        left are read and changed through the session: rare.)
        """
        if state is None:
            state = engine.load(row.state or {})
        settings = {**DEFAULT_SETTINGS, **row.settings}
        if pending is None:
            pending = engine.pending(state)
        left = {s.seat for s in row.seats if s.left}
        if phase_changed:
            writes.clear_deadlines(row.id)
            existing = {}
        elif was_pending is not None and set(pending) <= was_pending and not left & set(pending):
            # The common case, a submission inside a phase: only drop the rows of the seats
            # that are no longer pending (usually the mover's), without reading the table.
            writes.clear_deadlines(row.id, seats=was_pending - set(pending))
            return
        else:
            existing = await repo.deadlines_of(session, row.id)
        for (seat, kind), dl in list(existing.items()):
            if seat not in pending:
                await session.delete(dl)
                del existing[(seat, kind)]
        new: list[dict[str, Any]] = []
        for seat, item in pending.items():
            # The channel's deadline, or the game's own clock if that runs out sooner (FUSE
            # live): an absent player must not hold a real-time round up until the bomb blows.
            due = row.phase_started_at + settings["deadline_minutes"] * 60
            if item.deadline is not None:
                due = min(due, item.deadline)
            if seat in left:
                due = min(due, now)
            current = existing.get((seat, "default"))
            if current is None:
                new.append(
                    {
                        "game_id": row.id,
                        "seat": seat,
                        "kind": "default",
                        "due_at": due,
                        "phase": row.phase,
                    }
                )
            elif current.due_at != due and seat in left:
                current.due_at = due
            reminder = due - settings["reminder_minutes"] * 60
            if (
                phase_changed
                and settings["reminder_minutes"] > 0
                and reminder > now
                and seat not in left
            ):
                new.append(
                    {
                        "game_id": row.id,
                        "seat": seat,
                        "kind": "reminder",
                        "due_at": reminder,
                        "phase": row.phase,
                    }
                )
        writes.add_deadlines(new)

    async def next_deadline(self) -> float | None:
        async with self.sessions() as session:
            return await repo.earliest_deadline(session)

    async def run_deadlines(self) -> list[Outgoing]:
        """Send due reminders and apply due defaults. Safe to call from several processes:
        each deadline is claimed by deleting its row in the same transaction that acts on it."""
        now = self.clock()
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
                place = Place(row.channel_id, row.guild_id, _public_locale(row))
            reply = await self._run(
                None,
                place,
                self._deadline_work(game_id, seat, kind, due_at, phase),
                f"deadline.{kind}",
            )
            out.extend(reply.public)
        return out

    def _deadline_work(
        self, game_id: int, seat: int, kind: str, due_at: float, phase: str
    ) -> Callable[[AsyncSession, GameRow | None, str], Awaitable[_Draft]]:
        async def work(session: AsyncSession, row: GameRow | None, lang: str) -> _Draft:
            draft = _Draft()
            claimed = await repo.claim_deadline(
                session,
                DeadlineRow(game_id=game_id, seat=seat, kind=kind, due_at=due_at, phase=phase),
            )
            if (
                not claimed
                or row is None
                or row.id != game_id
                or row.status != ACTIVE
                or row.phase != phase
            ):
                return draft
            engine = get_game(row.kind)
            state = engine.load(row.state or {})
            pending = engine.pending(state)
            if seat not in pending:
                return draft
            place = Place(row.channel_id, row.guild_id, _public_locale(row))
            names = _names(row)
            user = next(s for s in row.seats if s.seat == seat)
            if kind == "reminder":
                if self.clock() >= due_at + _reminder_gap(row):
                    return draft  # the bot was down past the deadline itself: no stale reminder
                text = t(
                    "lobby.deadline.reminder",
                    lang,
                    player=f"<@{user.user_id}>",
                    what=t(
                        f"{row.kind}.pending.{pending[seat].kind}",
                        lang,
                        **fill_args(pending[seat].args, names, lang),
                    ),
                    when=f"<t:{int(due_at + _reminder_gap(row))}:R>",
                )
                draft.post(row.channel_id, text, mentions=(user.user_id,))
                return draft
            return await self._apply(
                session,
                row,
                engine,
                state,
                seat,
                pending[seat].default,
                place,
                lang,
                by_default=True,
            )

        return work

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


# ===================================================================== helpers


def _seat(number: int, actor: Actor) -> SeatRow:
    return SeatRow(
        seat=number,
        user_id=actor.user_id,
        display_name=str(actor.display_name)[:100],
        locale=language_for(actor.locale),
    )


def _require(row: GameRow | None) -> GameRow:
    if row is None:
        raise Refusal("lobby.error.no_game")
    return row


def _seat_of(row: GameRow, user_id: int) -> SeatRow | None:
    return next((s for s in row.seats if s.user_id == user_id), None)


def _names(row: GameRow) -> list[str]:
    return [safe_name(s.display_name) for s in sorted(row.seats, key=lambda s: s.seat)]


@contextlib.contextmanager
def _seat_names(row: GameRow, lang: str) -> Iterator[None]:
    """A rules error that names a seat ("the pawn on G1 belongs to {seat}") names the player:
    the refusal is worded after the transaction, when the seats are no longer at hand."""
    try:
        yield
    except RulesError as error:
        raise RulesError(error.key, **fill_args(error.args_map, _names(row), lang)) from error


def _plain_names(row: GameRow) -> list[str]:
    """Names for pictures: as typed (an image needs no markdown escaping)."""
    return [plain_name(s.display_name) for s in sorted(row.seats, key=lambda s: s.seat)]


def _closing(status: str) -> dict[str, Any]:
    """The columns of a game that ends: its status, and its channel freed for a new game (the
    unique ``open_channel_id``, see GameRow)."""
    return {"status": status, "open_channel_id": None}


def _close(row: GameRow, status: str) -> None:
    for key, value in _closing(status).items():
        setattr(row, key, value)


def _int(value: Any) -> int:
    """A whole number a database column can hold (user ids, minutes); anything else is refused."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise Refusal("lobby.error.number", value=str(value)[:30]) from None
    if not -(2**63) < number < 2**63:
        raise Refusal("lobby.error.number", value=str(value)[:30])
    return number


def _command_args(args: CommandArgs) -> CommandArgs:
    """Arguments as adapters should send them: text, whole numbers and booleans (``None``:
    not given). Anything else (a float, a list…) becomes its text, which the engine then
    refuses in words, rather than reaching an engine's ``int()`` as ``inf``."""
    return {
        str(k): v if v is None or isinstance(v, str | int | bool) else str(v)
        for k, v in dict(args).items()
    }


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


def _public_locale(row: GameRow) -> str:
    return str(row.settings.get("locale", "en"))


def _reminder_gap(row: GameRow) -> float:
    return float({**DEFAULT_SETTINGS, **row.settings}["reminder_minutes"]) * 60


def _catalogue_keys(lang: str) -> dict[str, str]:
    from i18n import catalogue

    return catalogue(language_for(lang))
