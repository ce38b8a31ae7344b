"""Rematch: the closing message's button (and ``/game rematch``) opens a new lobby where the
game was played (its thread, when it had one) with the same game, options, settings and seats,
the seats turned by one (where the rules draw who begins, Dragon Farkle and Zombies vs
Vampires, a rematch draws again: the rules come first). It starts by itself when every player has
asked for it (``lobby.rematch_complete``: also when the last who had not asked leaves or is
removed); the host (whoever asked first) may start it sooner, and a player who does not want it
leaves its lobby as any other."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import lobby, lobby_posts
from bot.service.draft import Draft
from bot.service.errors import Refusal
from bot.service.replies import Actor, Place, Slot
from bot.service.text import phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import FINISHED, LOBBY, GameRow, SeatRow
from i18n import language_for


async def source(session: AsyncSession, place: Place, game_id: int | None) -> GameRow | None:
    """The finished game to play again: ``game_id`` (a button's), or the last one that ended
    in this channel or its threads. None unless it ended here (a button is only ever under its
    own game's message, in its channel)."""
    if game_id is None:
        rows = await repo.finished_games(session, place.channel_id, limit=1)
        return rows[0] if rows else None
    row = await repo.game_by_id(session, game_id)
    here = row is not None and place.channel_id in (row.channel_id, row.parent_channel_id)
    return row if row is not None and here and row.status == FINISHED else None


def work(actor: Actor, place: Place, game_id: int) -> Work:
    """Ask for a rematch of finished game ``game_id``, in ``place``: where it was played."""

    async def run(tx: Tx) -> Draft:
        finished = await repo.game_by_id(tx.session, game_id)
        if finished is None:
            raise Refusal("rematch.error.none")
        players = [s for s in sorted(finished.seats, key=lambda s: s.seat) if not s.left]
        played = any(s.user_id == actor.user_id for s in players)
        row = tx.row
        first = row is None
        if row is None:
            if not played:
                raise Refusal("rematch.error.not_a_player")
            row = _lobby(finished, players, actor, place, tx.now)
            tx.session.add(row)
        elif row.status != LOBBY or row.settings.get("rematch_of") != finished.id:
            raise Refusal("lobby.error.game_exists", game_key=f"{row.kind}.name")
        elif all(s.user_id != actor.user_id for s in row.seats):
            # A player who left this rematch's lobby joins it again first; someone who joined
            # it (not a player of the game) asks like the others.
            raise Refusal("rematch.error.left" if played else "rematch.error.not_a_player")
        ready = sorted({*row.settings.get("ready", []), actor.user_id})
        row.settings = {**row.settings, "ready": ready}
        row.updated_at = tx.now
        await tx.session.flush()
        if lobby.rematch_complete(row):
            started = replace(tx, row=row)  # (its computer_delay too: the console's is 0)
            draft = await lobby.start_as_host(started, row, place)
            draft.private = [phrase("rematch.private", tx.lang)]
            if first:  # no lobby message was posted to be edited (a game of one)
                draft.public = [p for p in draft.public if p.slot != _lobby_slot(row)]
            return draft
        draft = Draft()
        draft.say(phrase("rematch.private", tx.lang))
        draft.public.append(lobby_posts.lobby_post(row, language_for(place.locale), edit=not first))
        return draft

    return run


def _lobby_slot(row: GameRow) -> Slot:
    return Slot(row.id, "lobby")


# What the finished game went through rather than what its table chose: a hold or a pause it
# ended under (bot/service/pause.py; kept, the new game would start with its deadlines set
# aside a century), the seats said away by number (bot/service/routing.py; the seats turn),
# its own rematch's marks.
_PASSING = ("held_at", "paused_at", "missing", "gone", "away", "away_done", "rematch_of", "ready")


def _chosen(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings a rematch keeps: time limits, autopilot, misses, undo, language."""
    return {k: v for k, v in settings.items() if k not in _PASSING}


def _lobby(
    finished: GameRow, players: list[SeatRow], actor: Actor, place: Place, now: float
) -> GameRow:
    """The new game: the seats turned by one (the second player begins), the asker hosts.
    Where the game was played: its thread (``parent_channel_id`` kept) or its channel."""
    turned = players[1:] + players[:1]
    row = GameRow(
        channel_id=place.channel_id,
        open_channel_id=place.channel_id,
        parent_channel_id=finished.parent_channel_id,
        guild_id=finished.guild_id,
        kind=finished.kind,
        options=dict(finished.options),
        settings={**_chosen(finished.settings), "rematch_of": finished.id, "ready": []},
        status=LOBBY,
        host_id=actor.user_id,
        seed=secrets.randbits(62),
        created_at=now,
        updated_at=now,
    )
    # Seats are copied as they are, computer seats with their level; everyone is in the game
    # again (nobody starts on autopilot).
    row.seats = [
        SeatRow(
            seat=i,
            user_id=s.user_id,
            display_name=s.display_name,
            locale=s.locale,
            computer=s.computer,
        )
        for i, s in enumerate(turned)
    ]
    row.messages = {"lobby": {"channel": place.channel_id, "id": None}}
    return row
