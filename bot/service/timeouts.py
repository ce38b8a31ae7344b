"""When a deadline comes: the reminder before it, or the seat's default move.

Safe with several bot processes: each deadline row is claimed by deleting it in the same
transaction that acts on it, so exactly one process reminds or plays the default.
"""

from __future__ import annotations

from bot.service import compose, deadlines, moves
from bot.service.draft import Draft
from bot.service.replies import Place
from bot.service.table import Table, public_locale
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import ACTIVE, DeadlineRow


def work(game_id: int, seat: int, kind: str, due_at: float, phase: str) -> Work:
    async def run(tx: Tx) -> Draft:
        claimed = await repo.claim_deadline(
            tx.session,
            DeadlineRow(game_id=game_id, seat=seat, kind=kind, due_at=due_at, phase=phase),
        )
        row = tx.row
        if not claimed or row is None or row.id != game_id or row.status != ACTIVE:
            return Draft()
        if row.phase != phase:
            return Draft()
        table = Table.of(row)
        pending = table.engine.pending(table.state)
        if seat not in pending:
            return Draft()
        draft = Draft()
        if kind == "reminder":
            due = due_at + deadlines.reminder_gap(table)
            if tx.now >= due:
                return draft  # the bot was down past the deadline itself: no stale reminder
            user = next(s for s in row.seats if s.seat == seat)
            draft.public.append(
                compose.reminder(table, seat, pending[seat], user.user_id, due, tx.lang)
            )
            return draft
        place = Place(row.channel_id, row.guild_id, public_locale(row))
        default = pending[seat].default
        return await moves.resolve(tx, table, seat, default, place, by_default=True, due=due_at)

    return run
