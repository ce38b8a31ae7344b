"""What one command's work sees: its transaction, the channel's open game, the time.

Every room of the service (lobby, moves, timeouts) writes its commands as :data:`Work`, an
async function of a :class:`Tx` that returns the reply's :class:`~bot.service.draft.Draft`; the
service's loop runs it in one transaction under the channel's lock and retries it on conflicts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service.draft import Draft
from bot.service.writer import Writer
from bot.store.models import GameRow


@dataclass
class Tx:
    session: AsyncSession
    row: GameRow | None  # the channel's open game, locked for this transaction
    lang: str  # the actor's language (the channel's for deadlines)
    now: float
    writer: Writer  # take it just before the first write (SQLite: see bot.service.writer)
    draws: Callable[[str], bool]  # whether pictures of a game kind are drawn
    # Seconds between a computer-played seat becoming pending and its move (bot/service/computer)
    computer_delay: float = 1.5


Work = Callable[[Tx], Awaitable[Draft]]
