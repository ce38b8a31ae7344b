"""When a deadline comes: the reminder before it, or the computer's move for the seat.

A person who misses a deadline gets the computer's move (``rules.core.policy``, at the game's
autopilot level), not "do nothing"; after the channel's ``misses`` deadlines in a row their seat goes on autopilot
until they are back (bot/service/computer.py). A seat the computer plays gets its move when its
short row comes due, quietly.

Safe with several bot processes: each deadline row is claimed by deleting it in the same
transaction that acts on it, so exactly one process reminds or plays the default.
"""

from __future__ import annotations

from bot.service import compose, computer, deadlines, moves
from bot.service.draft import Draft, Post
from bot.service.match import Match, computer_plays, public_locale
from bot.service.reach import PING
from bot.service.replies import Place
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import ACTIVE, DeadlineRow


def work(
    game_id: int,
    seat: int,
    kind: str,
    due_at: float,
    phase: str,
    thought: computer.Thought | None = None,
) -> Work:
    """Claim the deadline and act on it. ``thought``: the computer's move, thought out before
    this transaction (``computer.think``), used when the game has not changed since."""

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
        match = Match.of(row)
        pending = match.engine.pending(match.state)
        if seat not in pending:
            return Draft()
        draft = Draft()
        if kind in ("reminder", PING):
            user = next(s for s in row.seats if s.seat == seat)
            if computer_plays(user):
                return draft  # it went on autopilot since: nobody to remind
            due = await _due(tx, row.id, seat)
            if kind == PING:  # the ping their quiet hours held back (bot/service/routing.py)
                draft.public.append(compose.nudge(match, seat, pending[seat], user.user_id, due))
                return draft
            # No stale reminder: the bot was down past the deadline itself, or past the one
            # the reminder was planned for (a step taken at the last minute moved it on).
            if due is None or tx.now >= min(due, due_at + deadlines.reminder_gap(match)):
                return draft
            draft.public.append(
                compose.reminder(match, seat, pending[seat], user.user_id, due, tx.lang)
            )
            return draft
        place = Place(row.channel_id, row.guild_id, public_locale(row))
        user = next(s for s in row.seats if s.seat == seat)
        switched = None
        # A "computer" row is the computer's own move; a "default" row a person's deadline.
        missed = kind == deadlines.DEFAULT and not computer_plays(user)
        if missed:
            user.misses += 1
            if user.misses >= computer.misses_allowed(row):
                switched = computer.to_autopilot(user, tx.lang, "missed")
        action = match.engine.automatic(match.state, seat)  # a step with no decision in it
        if action is not None and kind == deadlines.COMPUTER:
            # Played for the player, who keeps their turn's deadline for what follows.
            return await moves.resolve(
                tx, match, seat, action, place, by_default=True, timed_out=False
            )
        if action is None:
            level = computer.level_of(row, user)
            if thought is not None and thought.fits(row, seat, level):
                action = thought.action
            else:  # the game moved on since (rare): think again, here
                action = await computer.action_for(match, seat, level)
        draft = await moves.resolve(
            tx, match, seat, action, place, by_default=True, due=due_at, timed_out=missed
        )
        if switched is not None and row.status == ACTIVE:  # (not of a game that move ended)
            draft.public.append(Post(row.channel_id, switched))
        return draft

    return run


async def _due(tx: Tx, game_id: int, seat: int) -> float | None:
    """When the seat's deadline is (None: it has none, e.g. the game's deadlines are held)."""
    found = (await repo.deadlines_of(tx.session, game_id)).get((seat, deadlines.DEFAULT))
    return found.due_at if found is not None else None
