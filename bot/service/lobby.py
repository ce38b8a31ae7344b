"""The lobby: opening a game, taking and leaving seats, starting, cancelling, settings, and
the read-only looks at a game (status, your own board)."""

from __future__ import annotations

import secrets
from typing import Any

from bot.service import compose, computer, deadlines, live, lobby_posts, picks
from bot.service.draft import Draft, Post, RenderJob
from bot.service.errors import Refusal
from bot.service.match import (
    DEFAULT_SETTINGS,
    Match,
    close,
    new_seat,
    require,
    require_host,
    seat_of,
    settings,
    whole_number,
)
from bot.service.narrate import plain_name
from bot.service.replies import Actor, Place
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
        row.messages = {"lobby": {"channel": place.channel_id, "id": None}}
        tx.session.add(row)
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.new.private", tx.lang, game=_game(row, tx.lang)))
        draft.public.append(lobby_posts.lobby_post(row, language_for(place.locale), edit=False))
        return draft

    return work


def _lobby(row: GameRow, place: Place) -> Post:
    """The lobby message again, as an edit: who is seated now, or that the game began."""
    return lobby_posts.lobby_post(row, language_for(place.locale))


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
        draft.public.append(_lobby(row, place))
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
            emptied = not row.seats or computer.only_computers(row)
            if emptied:
                close(row, CANCELLED)
            if rematch_complete(row):
                # The others had all asked for this rematch: it was waiting only for them.
                draft = await start_as_host(tx, row, place)
                draft.private = []
            else:
                draft.public.append(_lobby(row, place))
            if emptied:
                await deadlines.archive_later(tx, row)
        else:
            if seat.left:
                raise Refusal("lobby.error.not_seated")
            # The computer plays the seat until they are back (any command of theirs).
            text = computer.to_autopilot(seat, public_lang, "left")
            await deadlines.schedule(tx, Match.of(row), phase_changed=False)
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


def rematch_complete(row: GameRow) -> bool:
    """Whether a rematch's lobby has every seat it waits for: each person at it asked for it
    (a computer seat never asks), and there are enough of them to play."""
    if row.status != LOBBY or row.settings.get("rematch_of") is None:
        return False
    fewest = get_game(row.kind).seat_range(row.options)[0]
    people = {s.user_id for s in row.seats if s.computer is None}
    return len(row.seats) >= fewest and bool(people) and people <= set(row.settings["ready"])


async def start_as_host(tx: Tx, row: GameRow, place: Place) -> Draft:
    """Start the game as its host would (a complete rematch starts by itself)."""
    host = next(s for s in row.seats if s.user_id == row.host_id)
    starter = Actor(host.user_id, host.display_name, host.locale)
    return await start(starter, place)(tx)


def start(actor: Actor, place: Place) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if row.status != LOBBY:
            raise Refusal("lobby.error.already_started")
        if actor.user_id != row.host_id:
            raise Refusal("lobby.error.host_only")
        engine = get_game(row.kind)
        fewest = engine.seat_range(row.options)[0]
        if len(row.seats) < fewest:
            raise Refusal("lobby.error.too_few", min=fewest, count=len(row.seats))
        if computer.only_computers(row):
            raise Refusal("bots.error.only_computers")
        state = engine.new_game(len(row.seats), row.options, row.seed)
        row.status = ACTIVE
        row.state = engine.dump(state)
        row.phase = engine.phase(state)
        row.phase_started_at = row.updated_at = tx.now
        match = Match(row, engine, state)
        snap = engine.snapshot(state)
        started = Event("lobby.start.public", {"game_key": f"{row.kind}.name"})
        row.messages = compose.phase_record(match, snap, told=[started])
        await deadlines.schedule(tx, match, phase_changed=True)
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("lobby.start.private", tx.lang))
        post = compose.phase_post(
            match, snap, [started], language_for(place.locale), draw=tx.draws(row.kind)
        )
        if live.edits_in_place(match, snap):  # whom it pinged (an edited table's sitting, a turn)
            phase = {**row.messages["phase"], "pinged": sorted(post.mentions)}
            row.messages = {**row.messages, "phase": phase}
        draft.public.append(post)
        draft.public.append(_lobby(row, place))  # the lobby says the game began, buttons gone
        return draft

    return work


def cancel(actor: Actor, place: Place) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        require_host(actor, row)
        was_lobby = row.status == LOBBY
        close(row, CANCELLED)
        row.updated_at = tx.now
        await repo.clear_deadlines(tx.session, row.id)
        await tx.session.flush()
        if not was_lobby:  # a game cancelled once begun keeps its log compacted, as one ended
            await repo.compact_log(tx.session, row.id)
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
        if was_lobby:
            draft.public.append(_lobby(row, place))  # its buttons go
        await deadlines.archive_later(tx, row)
        return draft

    return work


def kick(actor: Actor, place: Place, user_id: int) -> Work:
    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        require_host(actor, row)
        seat = seat_of(row, whole_number(user_id))
        if seat is None or seat.left:
            raise Refusal("lobby.error.not_a_player")
        if seat.user_id == actor.user_id:
            raise Refusal("lobby.error.kick_self")
        name = Name(plain_name(seat.display_name))
        in_lobby = row.status == LOBBY
        if in_lobby:
            await _remove_from_lobby(tx, row, seat)
        else:
            seat.left = True
            await deadlines.schedule(tx, Match.of(row), phase_changed=False)
        row.updated_at = tx.now
        await tx.session.flush()
        draft = Draft()
        if rematch_complete(row):
            draft = await start_as_host(tx, row, place)  # the rematch waited only for them
            draft.private = []
        elif in_lobby:
            draft.public.append(_lobby(row, place))
        draft.say(phrase("lobby.kick.private", tx.lang, player=name))
        text = phrase("lobby.kick.public", language_for(place.locale), player=name)
        draft.public.append(Post(place.channel_id, text))
        return draft

    return work


def clicked(actor: Actor, place: Place, game_id: int, command: str) -> Work:
    """Join, Leave or Start pressed under the lobby message of game ``game_id``."""
    chosen = {"join": join, "leave": leave, "start": start}[command](actor, place)

    async def work(tx: Tx) -> Draft:
        if tx.row is None or tx.row.id != game_id:
            raise Refusal("lobby.error.stale_button")
        if command == "leave" and tx.row.status != LOBBY:
            # Pressed as the host started it: the press meant "not in this lobby", and leaving
            # the game itself would hand the seat to the computer (/game leave does that).
            raise Refusal("lobby.error.leave_started")
        return await chosen(tx)

    return work


def change_settings(
    actor: Actor,
    deadline_minutes: int | None,
    reminder_minutes: int | None,
    misses: int | None = None,
    autopilot: str | None = None,
) -> Work:
    """``/game settings``: show the game's settings, or change them (the host or a channel
    manager). ``autopilot``: the level the computer plays an absent person's seat at."""

    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        chosen = {
            "misses": computer.DEFAULT_MISSES,
            "autopilot": computer.AUTOPILOT_LEVEL,
            **settings(row),
        }
        adjusted: tuple[int, int] | None = None  # (old, new) reminder, when the deadline moved it
        asked = (deadline_minutes, reminder_minutes, misses, autopilot)
        if asked != (None,) * 4:
            require_host(actor, row)
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
            if reminder_minutes is None and reminder >= deadline:
                # Only the deadline was given: the old reminder must not refuse it. Half the
                # deadline keeps a nudge (a 1-minute deadline has none), and the host is told.
                adjusted = reminder, deadline // 2
                reminder = adjusted[1]
            if not 0 <= reminder < deadline:
                raise Refusal("lobby.error.reminder_range")
            allowed = chosen["misses"] if misses is None else whole_number(misses)
            if not 1 <= allowed <= computer.MAX_MISSES:
                raise Refusal("bots.error.misses_range", max=computer.MAX_MISSES)
            level = chosen["autopilot"] if autopilot is None else computer.level_named(autopilot)
            chosen = {
                **chosen,
                "deadline_minutes": deadline,
                "reminder_minutes": reminder,
                "misses": allowed,
                "autopilot": level,
            }
            row.settings = chosen
            row.updated_at = tx.now
            if row.status == ACTIVE:
                await deadlines.schedule(tx, Match.of(row), phase_changed=True)
            await tx.session.flush()
        draft = Draft()
        if adjusted is not None:
            key = "lobby.settings.reminder_moved" if adjusted[1] else "lobby.settings.reminder_off"
            draft.say(phrase(key, tx.lang, old=adjusted[0], new=adjusted[1]))
        draft.say(phrase("lobby.settings.show", tx.lang, **chosen))
        draft.say(phrase("bots.settings.misses", tx.lang, misses=chosen["misses"]))
        level = phrase(f"bots.level.{chosen['autopilot']}", tx.lang)
        draft.say(phrase("bots.settings.autopilot", tx.lang, level=level))
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
        match = Match.of(row)
        seat = seat_of(row, actor.user_id)
        draft = Draft()
        if seat is None:
            draft.private_image = compose.picture(match, tx.lang)
            draft.say(phrase("lobby.board.spectator", tx.lang))
        else:
            view = match.engine.view(match.state, seat.seat)
            draft.private_image = RenderJob(row.kind, view, match.plain_names(), tx.lang, True)
            draft.say(phrase("lobby.board.yours", tx.lang))
            # The moves chosen from menus too, the player's own (a trap, then its square; the
            # items of a Farkle hand, which no public message may offer).
            opened, menus = picks.controls(match, [seat.seat], tx.lang, private=True)
            room = (compose.MAX_ROWS - len(menus)) * 5
            buttons = (*opened, *compose.offered_buttons(match, [seat.seat], tx.lang))
            draft.private_buttons, draft.private_selects = buttons[:room], menus
        return draft

    return work
