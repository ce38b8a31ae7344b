"""A table the bot cannot post to: its deadlines wait until it can again.

When Discord refuses the bot's posts in a game's channel (no Send Messages, a locked or
archived thread), every move, reminder and default would be another refused request, and
Discord bans a bot's address after 10,000 of them in 10 minutes. So the adapter pauses the
table: its deadline rows are set aside (moved ``SET_ASIDE`` seconds on, where the deadline
loop never looks), and new rows planned meanwhile are set aside too. When a post there works
again the adapter resumes it: the rows come back, later by as long as the pause lasted, so
no player loses time to the bot's trouble.
"""

from __future__ import annotations

from bot.service.draft import Draft
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import ACTIVE, GameRow

SET_ASIDE = 100 * 365 * 24 * 3600.0  # a century: no deadline of a paused table comes due


def paused(row: GameRow) -> bool:
    return row.settings.get("paused_at") is not None


def pause(missing: tuple[str, ...], told: list[int]) -> Work:
    """Pause the channel's game; ``told`` receives its host's id the first time (the adapter
    tells the host, once, what the bot is missing)."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        if row is None or row.status != ACTIVE or paused(row):
            return Draft()
        await repo.shift_deadlines(tx.session, row.id, SET_ASIDE)
        row.settings = {**row.settings, "paused_at": tx.now, "missing": list(missing)}
        told.append(row.host_id)
        return Draft()

    return work


def resume() -> Work:
    async def work(tx: Tx) -> Draft:
        row = tx.row
        if row is None or not paused(row):
            return Draft()
        lasted = tx.now - float(row.settings["paused_at"])
        await repo.shift_deadlines(tx.session, row.id, lasted - SET_ASIDE)
        row.settings = {k: v for k, v in row.settings.items() if k not in ("paused_at", "missing")}
        return Draft()

    return work
