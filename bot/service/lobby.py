"""The lobby: opening a game, taking and leaving seats, starting, cancelling, settings, and
the read-only looks at a game (status, your own board)."""

from __future__ import annotations

import secrets
from typing import Any

from bot.service import compose, computer, deadlines
from bot.service.draft import Draft, Post, RenderJob
from bot.service.errors import Refusal
from bot.service.narrate import plain_name
from bot.service.replies import Actor, Place
from bot.service.table import (
    DEFAULT_SETTINGS,
    Table,
    close,
    new_seat,
    require,
    seat_of,
    settings,
    whole_number,
)
from bot.service.text import Name, phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import ACTIVE, CANCELLED, LOBBY, GameRow, SeatRow
from i18n import language_for
from rules.core import Event, get_game


def _game(row: GameRow, lang: str) -> Any:
    return phrase(f"{row.kind}.name", lang)


def new_game(actor: Actor, place: Place, game: str, options: dict[str, Any] | None) -> Work:
    async def work(tx: Tx) -> Draft:
        if tx.row is not None:
            raise Refusal("lobby.error.game_exists", game_key=f"{tx.row.kind}.name")
        engine = get_game(str(game))
        checked = engine.check_options(options or {}, engine.max_seats)
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
            created_at=tx.now,
            updated_at=tx.now,
        )
        row.seats = [new_seat(0, actor)]
        tx.session.add(row)
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.new.private", tx.lang, game=_game(row, tx.lang)))
        draft.public.append(_notice(row, place, "lobby.new.public", actor))
        return draft

    return work


def _notice(row: GameRow, place: Place, key: str, actor: Actor) -> Post:
    text = compose.lobby_text(row, language_for(place.locale), key, actor)
    return Post(place.channel_id, text)


def join(actor: Actor, place: Place) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if seat_of(row, actor.user_id) is not None:
            raise Refusal("lobby.error.already_joined")
        if row.status != LOBBY:
            raise Refusal("lobby.error.already_started")
        engine = get_game(row.kind)
        if len(row.seats) >= engine.max_seats:
            raise Refusal("lobby.error.full", max=engine.max_seats)
        row.seats.append(new_seat(len(row.seats), actor))
        row.updated_at = tx.now
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.join.private", tx.lang, game=_game(row, tx.lang)))
        draft.public.append(_notice(row, place, "lobby.join.public", actor))
        return draft

    return work


def leave(actor: Actor, place: Place) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        seat = seat_of(row, actor.user_id)
        if seat is None:
            raise Refusal("lobby.error.not_seated")
        public_lang = language_for(place.locale)
        draft = Draft()
        if row.status == LOBBY:
            await _remove_from_lobby(tx, row, seat)
            if not row.seats or computer.only_computers(row):
                close(row, CANCELLED)
                draft.public.append(
                    Post(place.channel_id, phrase("lobby.cancel.empty", public_lang))
                )
            else:
                draft.public.append(_notice(row, place, "lobby.leave.public", actor))
        else:
            if seat.left:
                raise Refusal("lobby.error.not_seated")
            # The computer plays the seat until they are back (any command of theirs).
            text = computer.to_autopilot(seat, public_lang, "left")
            await deadlines.schedule(tx, Table.of(row), phase_changed=False)
            draft.public.append(Post(place.channel_id, text))
        row.updated_at = tx.now
        await tx.session.flush()
        draft.say(phrase("lobby.leave.private", tx.lang))
        return draft

    return work


async def _remove_from_lobby(tx: Tx, row: GameRow, seat: SeatRow) -> None:
    """Seats stay numbered in join order without gaps."""
    remaining = [s for s in row.seats if s is not seat]
    kept = [(s.user_id, s.display_name, s.locale, s.computer) for s in remaining]
    # Delete the old rows first: the new numbering reuses their keys, and within one flush
    # SQLAlchemy would turn them into updates that collide on (game, user).
    row.seats = []
    await tx.session.flush()
    row.seats = [
        SeatRow(seat=i, user_id=user, display_name=name, locale=locale, computer=level)
        for i, (user, name, locale, level) in enumerate(kept)
    ]
    people = [user for user, _, _, level in kept if level is None]
    if row.host_id == seat.user_id and people:
        row.host_id = people[0]  # never a computer player: it cannot start the game


def start(actor: Actor, place: Place) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if row.status != LOBBY:
            raise Refusal("lobby.error.already_started")
        if actor.user_id != row.host_id:
            raise Refusal("lobby.error.host_only")
        engine = get_game(row.kind)
        if len(row.seats) < engine.min_seats:
            raise Refusal("lobby.error.too_few", min=engine.min_seats, count=len(row.seats))
        if computer.only_computers(row):
            raise Refusal("bots.error.only_computers")
        state = engine.new_game(len(row.seats), row.options, row.seed)
        row.status = ACTIVE
        row.state = engine.dump(state)
        row.phase = engine.phase(state)
        row.phase_started_at = row.updated_at = tx.now
        table = Table(row, engine, state)
        await deadlines.schedule(tx, table, phase_changed=True)
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.start.private", tx.lang))
        started = Event("lobby.start.public", {"game_key": f"{row.kind}.name"})
        snap = engine.snapshot(state)
        post = compose.phase_post(
            table, snap, [started], language_for(place.locale), draw=tx.draws(row.kind)
        )
        draft.public.append(post)
        return draft

    return work


def cancel(actor: Actor, place: Place) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if actor.user_id != row.host_id and not actor.can_manage:
            raise Refusal("lobby.error.host_or_manager")
        close(row, CANCELLED)
        row.updated_at = tx.now
        await repo.clear_deadlines(tx.session, row.id)
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.cancel.private", tx.lang))
        public_lang = language_for(place.locale)
        text = phrase(
            "lobby.cancel.public",
            public_lang,
            player=Name(plain_name(actor.display_name)),
            game=_game(row, public_lang),
        )
        draft.public.append(Post(place.channel_id, text))
        return draft

    return work


def kick(actor: Actor, place: Place, user_id: int) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if actor.user_id != row.host_id and not actor.can_manage:
            raise Refusal("lobby.error.host_or_manager")
        seat = seat_of(row, whole_number(user_id))
        if seat is None or seat.left:
            raise Refusal("lobby.error.not_a_player")
        if seat.user_id == actor.user_id:
            raise Refusal("lobby.error.kick_self")
        name = Name(plain_name(seat.display_name))
        if row.status == LOBBY:
            await _remove_from_lobby(tx, row, seat)
        else:
            seat.left = True
            await deadlines.schedule(tx, Table.of(row), phase_changed=False)
        row.updated_at = tx.now
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.kick.private", tx.lang, player=name))
        text = phrase("lobby.kick.public", language_for(place.locale), player=name)
        draft.public.append(Post(place.channel_id, text))
        return draft

    return work


def change_settings(
    actor: Actor,
    deadline_minutes: int | None,
    reminder_minutes: int | None,
    misses: int | None = None,
) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        chosen = {"misses": computer.DEFAULT_MISSES, **settings(row)}
        if deadline_minutes is not None or reminder_minutes is not None or misses is not None:
            if actor.user_id != row.host_id and not actor.can_manage:
                raise Refusal("lobby.error.host_or_manager")
            deadline = (
                chosen["deadline_minutes"]
                if deadline_minutes is None
                else whole_number(deadline_minutes)
            )
            reminder = (
                chosen["reminder_minutes"]
                if reminder_minutes is None
                else whole_number(reminder_minutes)
            )
            if not 1 <= deadline <= deadlines.MAX_DEADLINE_MINUTES:
                raise Refusal("lobby.error.deadline_range", max=deadlines.MAX_DEADLINE_MINUTES)
            if not 0 <= reminder < deadline:
                raise Refusal("lobby.error.reminder_range")
            allowed = chosen["misses"] if misses is None else whole_number(misses)
            if not 1 <= allowed <= computer.MAX_MISSES:
                raise Refusal("bots.error.misses_range", max=computer.MAX_MISSES)
            chosen = {
                **chosen,
                "deadline_minutes": deadline,
                "reminder_minutes": reminder,
                "misses": allowed,
            }
            row.settings = chosen
            row.updated_at = tx.now
            if row.status == ACTIVE:
                await deadlines.schedule(tx, Table.of(row), phase_changed=True)
            await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.settings.show", tx.lang, **chosen))
        draft.say(phrase("bots.settings.misses", tx.lang, misses=chosen["misses"]))
        return draft

    return work


def status() -> Work:
    async def work(tx: Tx) -> Draft:
        draft = Draft()
        if tx.row is None:
            draft.say(phrase("lobby.status.none", tx.lang))
            return draft
        due = await repo.deadlines_of(tx.session, tx.row.id) if tx.row.status == ACTIVE else {}
        draft.private.extend(compose.status_lines(tx.row, due, tx.lang))
        return draft

    return work


def board(actor: Actor) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if row.status != ACTIVE or row.state is None:
            raise Refusal("lobby.error.not_started")
        table = Table.of(row)
        seat = seat_of(row, actor.user_id)
        draft = Draft()
        if seat is None:
            draft.private_image = compose.picture(table, tx.lang)
            draft.say(phrase("lobby.board.spectator", tx.lang))
        else:
            view = table.engine.view(table.state, seat.seat)
            draft.private_image = RenderJob(row.kind, view, table.plain_names(), tx.lang, True)
            draft.say(phrase("lobby.board.yours", tx.lang))
            draft.private_buttons = compose.offered_buttons(table, [seat.seat], tx.lang)
        return draft

    return work
