"""Replays: a whole game as one animated picture (``render.replay.animate``, docs/replays.md),
posted by ``/game replay game:<id>`` or with the closing message when the channel says so
(``/game settings replay:on``). The frames are public views only: the game is played again
from its seed and log, and each frame is what the channel was shown at that point."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service.draft import Draft, Post, ReplayJob
from bot.service.errors import Refusal
from bot.service.match import plain_names, require_host
from bot.service.replies import Actor, Place
from bot.service.text import phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import FINISHED, LOBBY, ChannelRow, GameRow


async def job(
    session: AsyncSession,
    row: GameRow,
    lang: str,
    last: tuple[int, dict[str, Any], float] | None = None,
) -> ReplayJob:
    """What to animate of ``row``: its stored log, and ``last``, a move not yet written (the
    closing move, whose save is still in the transaction's batch)."""
    log = [(a.seat, a.action, a.at) for a in await repo.action_log(session, row.id)]
    if last is not None:
        log.append(last)
    return ReplayJob(
        row.id, row.kind, len(row.seats), dict(row.options), row.seed, log, plain_names(row), lang
    )


async def automatic(session: AsyncSession, game: GameRow) -> bool:
    """Whether the game's channel posts a replay with every closing message (a game played in
    a thread: the setting of the channel the thread hangs from)."""
    row = await session.get(ChannelRow, setting_channel(game.channel_id, game))
    return bool(row and row.replay)


def setting_channel(channel_id: int, game: GameRow | None) -> int:
    """The channel whose settings apply in ``channel_id``: a game's thread takes its parent's."""
    if game is not None and game.parent_channel_id is not None and game.channel_id == channel_id:
        return game.parent_channel_id
    return channel_id


def post(row: GameRow, replay: ReplayJob, lang: str, channel_id: int | None = None) -> Post:
    """The replay's message (in the game's channel unless asked for elsewhere)."""
    # A game still played, or cancelled, has no end to run to.
    key = "replay.posted" if row.status == FINISHED else "replay.posted_unfinished"
    text = phrase(key, lang, game=phrase(f"{row.kind}.name", lang), id=row.id)
    return Post(row.channel_id if channel_id is None else channel_id, text, replay=replay)


def game_number(game_id: Any) -> int | None:
    """The game a user named (``12`` or ``#12``), or None for anything else."""
    try:
        return int(str(game_id).strip().lstrip("#"))
    except ValueError:
        return None


def command(place: Place, game_id: Any, lang: str, ended: list[bool] | None = None) -> Work:
    """``/game replay game:<id>``: a game started (a lobby has no moves) in this channel or one
    of its threads, or in this thread: the games ``/game history`` lists here. A game of another
    channel is not found, as in another server: that channel may be private, and its replay
    would show its table to whoever asks wherever they ask. ``ended`` hears whether the game
    replayed had ended (its replay will not change)."""

    async def work(tx: Tx) -> Draft:
        wanted = game_number(game_id)
        if wanted is None:
            raise Refusal("replay.error.unknown", id=str(game_id)[:20])
        row = await repo.game_by_id(tx.session, wanted) if 0 < wanted < 2**62 else None
        if row is None or not _played_here(row, place):
            raise Refusal("replay.error.unknown", id=wanted)
        if row.status == LOBBY or row.state is None:  # a lobby, open or cancelled: no moves
            raise Refusal("replay.error.not_started", id=wanted)
        if ended is not None:
            ended.append(row.status == FINISHED)
        draft = Draft()
        draft.say(phrase("replay.private", tx.lang, id=wanted))
        draft.public.append(post(row, await job(tx.session, row, lang), lang, place.channel_id))
        return draft

    return work


def _played_here(row: GameRow, place: Place) -> bool:
    """Whether the game was played where ``place`` is: its channel, or the channel its thread
    hangs from (as ``/game history`` and a rematch read "here")."""
    here = place.channel_id in (row.channel_id, row.parent_channel_id)
    return here and row.guild_id == place.guild_id


def set_automatic(actor: Actor, place: Place, on: bool) -> Work:
    """``/game settings replay:on|off``: the host of the channel's game, or Manage Channels."""

    async def work(tx: Tx) -> Draft:
        require_host(actor, tx.row)
        channel = setting_channel(place.channel_id, tx.row)
        row = await tx.session.get(ChannelRow, channel)
        if row is None:
            tx.session.add(ChannelRow(channel_id=channel, replay=on))
        else:
            row.replay = on
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("replay.setting.on" if on else "replay.setting.off", tx.lang))
        return draft

    return work
