"""Rematch: the closing message's button (and ``/game rematch``) opens a new lobby in the same
channel with the same game, options, settings and seats, the seats turned by one so that
someone else begins. It starts by itself when every player has asked for it (the host may
start it sooner with ``/game start``)."""

from __future__ import annotations

import secrets
from dataclasses import replace

from bot.service import buttons as button_ids
from bot.service import lobby
from bot.service.draft import Draft, Post
from bot.service.errors import Refusal
from bot.service.narrate import plain_name
from bot.service.replies import Actor, Button, Place
from bot.service.table import seat_names
from bot.service.text import Name, join, lines, phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import FINISHED, LOBBY, GameRow, SeatRow
from i18n import language_for

COMMAND = "rematch"


def button(game_id: int, lang: str) -> Button:
    custom_id = button_ids.button_id(game_id, "", COMMAND, {})
    assert custom_id is not None
    return Button(str(phrase("rematch.button", lang)), custom_id, style="primary")


def offer(draft: Draft, game_id: int, lang: str) -> None:
    """The closing message carries the Rematch button."""
    for index, post in enumerate(draft.public):
        if post.phase:
            draft.public[index] = replace(post, buttons=(*post.buttons, button(game_id, lang)))


def work(actor: Actor, place: Place, game_id: int | None) -> Work:
    """Ask for a rematch of ``game_id`` (None: the channel's last finished game)."""

    async def run(tx: Tx) -> Draft:
        source = await _source(tx, place, game_id)
        players = [s for s in sorted(source.seats, key=lambda s: s.seat) if not s.left]
        if all(s.user_id != actor.user_id for s in players):
            raise Refusal("rematch.error.not_a_player")
        public_lang = language_for(place.locale)
        row = tx.row
        if row is None:
            row = _lobby(source, players, actor, place, tx.now)
            tx.session.add(row)
        elif row.status != LOBBY or row.settings.get("rematch_of") != source.id:
            raise Refusal("lobby.error.game_exists", game_key=f"{row.kind}.name")
        ready = sorted({*row.settings.get("ready", []), actor.user_id})
        row.settings = {**row.settings, "ready": ready}
        row.updated_at = tx.now
        await tx.session.flush()
        humans = [s.user_id for s in row.seats]
        if set(humans) <= set(ready):
            # Everyone asked: start it as its host would.
            host = next(s for s in row.seats if s.user_id == row.host_id)
            starter = Actor(host.user_id, host.display_name, host.locale)
            started = Tx(tx.session, row, tx.lang, tx.now, tx.writer, tx.draws)
            draft = await lobby.start(starter, place)(started)
            draft.private = [phrase("rematch.private", tx.lang)]
            return draft
        waiting = [
            n
            for s, n in zip(sorted(row.seats, key=lambda s: s.seat), seat_names(row), strict=True)
            if s.user_id not in ready
        ]
        draft = Draft()
        draft.say(phrase("rematch.private", tx.lang))
        text = phrase(
            "rematch.public",
            public_lang,
            player=Name(plain_name(actor.display_name)),
            game=phrase(f"{row.kind}.name", public_lang),
            players=join(seat_names(row)),
            waiting=join(waiting),
        )
        draft.public.append(
            Post(place.channel_id, lines([text]), buttons=(button(source.id, public_lang),))
        )
        return draft

    return run


async def _source(tx: Tx, place: Place, game_id: int | None) -> GameRow:
    if game_id is None:
        rows = await repo.finished_games(tx.session, place.channel_id, limit=1)
        if not rows:
            raise Refusal("rematch.error.none")
        return rows[0]
    row = await repo.game_by_id(tx.session, game_id)
    if row is None or row.channel_id != place.channel_id or row.status != FINISHED:
        raise Refusal("rematch.error.none")
    return row


def _lobby(
    source: GameRow, players: list[SeatRow], actor: Actor, place: Place, now: float
) -> GameRow:
    """The new table: the seats turned by one (the second player begins), the asker hosts."""
    turned = players[1:] + players[:1]
    row = GameRow(
        channel_id=place.channel_id,
        open_channel_id=place.channel_id,
        guild_id=place.guild_id,
        kind=source.kind,
        options=dict(source.options),
        settings={**source.settings, "rematch_of": source.id, "ready": []},
        status=LOBBY,
        host_id=actor.user_id,
        seed=secrets.randbits(62),
        created_at=now,
        updated_at=now,
    )
    row.seats = [
        SeatRow(seat=i, user_id=s.user_id, display_name=s.display_name, locale=s.locale)
        for i, s in enumerate(turned)
    ]
    return row
