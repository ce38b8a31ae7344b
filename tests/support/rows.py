"""Reading what the service stored, in tests."""

from __future__ import annotations

from bot.service import Place, Service
from bot.store import repository as repo
from bot.store.models import GameRow


async def game_at(service: Service, place: Place) -> GameRow:
    """The game of ``place``'s channel: the open one, else the last one finished."""
    async with service.sessions() as session:
        row = await repo.open_game(session, place.channel_id)
        if row is None:
            (row,) = await repo.finished_games(session, place.channel_id, limit=1)
        return row


async def game_by_id(service: Service, game_id: int) -> GameRow:
    """The game ``game_id`` as stored now."""
    async with service.sessions() as session:
        row = await repo.game_by_id(session, game_id)
    assert row is not None, f"no game {game_id}"
    return row
