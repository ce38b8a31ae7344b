"""Deadlines: the rows that say when a pending seat is reminded and when it gets its default.

On a new turn every pending seat gets a reminder and a default deadline from the channel's
settings (or the game's own clock, when that runs out sooner); a seat the computer plays (a
computer seat, a person on autopilot, a removed player) gets only a short delay before its move
(``Tx.computer_delay``) and no reminder. The steps of one turn (roll →
move → second step: the engine's ``turn_key``) share the deadline the turn started with: a
seat asked again within its turn keeps its rows, moved on to the new phase. Within a phase,
seats that answered lose their rows, and seats the computer now plays get theirs moved to a
moment from now. In a real-time game a seat's deadline is also at most the round's own short
timer (the game's ``Presentation.round_timer``, ``live.round_timer``). Reminders already sent
are not sent again, because rows are only created when the phase begins. What happens when a
row comes due is in ``bot.service.timeouts``.
"""

from __future__ import annotations

from typing import Any

from bot.service.live import round_timer
from bot.service.match import (
    Match,
    automatic_steps,
    computer_plays,
    seat_of_number,
    set_aside,
    set_aside_for,
    settings,
)
from bot.service.reach import reaches
from bot.service.transaction import Tx
from bot.store import repository as repo
from bot.store.models import GameRow
from rules.core import Pending

# Row kinds: a person's deadline (then the computer plays for them), the reminder before it,
# and the computer's own move a moment after a seat it plays is asked.
DEFAULT = "default"
COMPUTER = "computer"
MAX_DEADLINE_MINUTES = 14 * 24 * 60
# A player who takes a step of their turn just before its deadline still gets this long for the
# next step (never more than the channel's whole deadline).
STEP_GRACE = 5 * 60


async def plan(
    tx: Tx,
    writes: repo.Writes,
    match: Match,
    pending: dict[int, Pending],
    *,
    phase_changed: bool,
    was_pending: set[int] | None = None,
    same_turn: bool = False,
    mover: int | None = None,
    turn_due: dict[int, float] | None = None,
) -> None:
    """Add to ``writes`` what keeps the deadline rows in step with who is ``pending``.
    ``same_turn``: the phase changed, but within one turn; ``mover``: the seat that just moved
    itself (not by default), which gets at least ``STEP_GRACE`` for its turn's next step;
    ``turn_due``: the deadlines of seats whose row this very move used up (a move played at
    its deadline): the computer plays the rest of that turn (a ``computer`` row), so that one
    missed deadline counts once. (Rows read here are changed through the session: seats the
    computer plays, and the later steps of a turn.)"""
    row, now = match.row, tx.now
    chosen = settings(row)
    computer = {s.seat for s in row.seats if computer_plays(s)}
    carried: set[int] = set()
    if phase_changed and same_turn and was_pending:
        existing = await repo.deadlines_of(tx.session, row.id)
        carried = {seat for seat, kind in existing if kind in (DEFAULT, COMPUTER)} & was_pending
        for (seat, _), deadline in existing.items():
            if seat in carried:
                deadline.phase = row.phase  # the same deadline, for the turn's next step
    elif phase_changed:
        writes.clear_deadlines(row.id)
        existing = {}
    elif (
        was_pending is not None
        and not (turn_due and set(turn_due) & set(pending))  # the computer plays on for them
        and set(pending) <= was_pending
        and not computer & set(pending)
        and not automatic_steps(match, pending)
    ):
        # The common case, a submission inside a phase: only drop the rows of the seats that
        # are no longer pending (usually the mover's), without reading the match.
        writes.clear_deadlines(row.id, seats=was_pending - set(pending))
        return
    else:
        existing = await repo.deadlines_of(tx.session, row.id)
    for (seat, kind), deadline in list(existing.items()):
        if seat not in pending:
            await tx.session.delete(deadline)
            del existing[(seat, kind)]
    new: list[dict[str, Any]] = []
    dues: dict[int, float] = {}  # the deadlines of the seats reminded
    aside = set_aside(row)  # (see bot.service.pause)
    for seat, item in pending.items():
        automatic = match.engine.automatic(match.state, seat) is not None
        if automatic and (seat, COMPUTER) not in existing:
            # A step with no decision (ZvV's roll, option autoroll) is played at once for them;
            # a person's turn keeps its deadline for the steps after it.
            due = now + set_aside_for(row, seat_of_number(row, seat))
            new.append(deadline_row(row.id, seat, COMPUTER, due, row.phase))
        if seat in computer or (same_turn and turn_due and seat in turn_due):
            # Each step a little after it is asked, so that the players see the computer play;
            # a person's rows go (they are not waited for, nor reminded).
            for kind in (DEFAULT, "reminder"):
                gone = existing.pop((seat, kind), None)
                if gone is not None:
                    await tx.session.delete(gone)
            if (seat, COMPUTER) not in existing and not automatic:
                due = now + tx.computer_delay + set_aside_for(row, seat_of_number(row, seat))
                new.append(deadline_row(row.id, seat, COMPUTER, due, row.phase))
            continue
        gone = None if automatic else existing.pop((seat, COMPUTER), None)
        if gone is not None:  # the seat is a person's again
            await tx.session.delete(gone)
        # The channel's deadline, or the game's own clock if that runs out sooner (real time):
        # an absent player must not hold a real-time round up until the bomb blows.
        due = row.phase_started_at + chosen["deadline_minutes"] * 60
        if item.deadline is not None:
            due = min(due, item.deadline)
        timer = round_timer(match, item)
        if timer is not None:  # a real-time round does not wait long for anyone
            due = min(due, row.phase_started_at + timer)
        current = existing.get((seat, DEFAULT))
        if current is None:
            new.append(deadline_row(row.id, seat, DEFAULT, due + aside, row.phase))
        elif seat in carried and seat == mover:
            grace = min(STEP_GRACE, chosen["deadline_minutes"] * 60, timer or STEP_GRACE)
            current.due_at = max(current.due_at, now + grace)
        reminder = due - chosen["reminder_minutes"] * 60
        fresh = phase_changed and seat not in carried  # (a carried reminder stays as it was)
        if fresh and chosen["reminder_minutes"] > 0 and reminder > now:
            new.append(deadline_row(row.id, seat, "reminder", reminder + aside, row.phase))
            dues[seat] = due + aside
    writes.add_deadlines(await _out_of_quiet(tx, match, new, dues))


async def schedule(tx: Tx, match: Match, *, phase_changed: bool) -> None:
    """Bring the rows in step now (lobby commands; a move plans them into its own writes)."""
    writes = repo.Writes()
    await plan(tx, writes, match, match.engine.pending(match.state), phase_changed=phase_changed)
    await repo.run(tx.session, writes)


async def restart(tx: Tx, match: Match, seat: int) -> None:
    """A seat changes hands (a person back from autopilot, a replacement): its rows start
    again from now, as if its turn had just begun."""
    row, now = match.row, tx.now
    await repo.clear_deadlines(tx.session, row.id, seats=[seat])
    item = match.engine.pending(match.state).get(seat)
    if item is None:
        return
    chosen = settings(row)
    due = now + chosen["deadline_minutes"] * 60
    if item.deadline is not None:
        due = min(due, item.deadline)
    timer = round_timer(match, item)
    if timer is not None:
        due = min(due, now + timer)
    aside = set_aside(row)  # (see bot.service.pause)
    seated = seat_of_number(row, seat)
    if computer_plays(seated):
        due = now + tx.computer_delay + set_aside_for(row, seated)
        await repo.run(
            tx.session,
            repo.Writes().add_deadlines([deadline_row(row.id, seat, COMPUTER, due, row.phase)]),
        )
        return
    rows = [deadline_row(row.id, seat, DEFAULT, due + aside, row.phase)]
    reminder = due - chosen["reminder_minutes"] * 60
    if chosen["reminder_minutes"] > 0 and reminder > now:
        rows.append(deadline_row(row.id, seat, "reminder", reminder + aside, row.phase))
    rows = await _out_of_quiet(tx, match, rows, {seat: due + aside})
    await repo.run(tx.session, repo.Writes().add_deadlines(rows))


async def _out_of_quiet(
    tx: Tx, match: Match, rows: list[dict[str, Any]], dues: dict[int, float]
) -> list[dict[str, Any]]:
    """``rows`` with each reminder moved out of its player's quiet hours (bot/service/reach.py):
    to when they end if the deadline is later, else to just before they began if that is still
    to come; a reminder with no such moment is not sent (the deadline itself stays)."""
    reminded = {r["seat"]: r for r in rows if r["kind"] == "reminder"}
    if not reminded:
        return rows
    users = {s.seat: s.user_id for s in match.row.seats if s.seat in reminded}
    found = await reaches(tx.session, users.values())
    if not found:
        return rows
    kept: list[dict[str, Any]] = []
    for r in rows:
        reach = found.get(users.get(r["seat"], 0)) if r["kind"] == "reminder" else None
        if reach is None:
            kept.append(r)
            continue
        moved = reach.outside_quiet(r["due_at"], tx.now, dues[r["seat"]])
        if moved is not None:
            kept.append({**r, "due_at": moved})
    return kept


def reminder_gap(match: Match) -> float:
    """How long before the default a reminder is planned (quiet hours may move it)."""
    return float(settings(match.row)["reminder_minutes"]) * 60


def deadline_row(game_id: int, seat: int, kind: str, due: float, phase: str) -> dict[str, Any]:
    return {"game_id": game_id, "seat": seat, "kind": kind, "due_at": due, "phase": phase}


# A finished game's thread is archived this long after the end (a seat of -1: the game's own).
ARCHIVE_AFTER = 3600.0
ARCHIVE = "archive"


# A cancelled game's thread is archived this long after the cancel: it has no last words to
# wait for, but the table's last edits and pictures still on their way land first (an edit
# of a message in an archived thread would reopen it).
CANCELLED_ARCHIVE_AFTER = 60.0


async def archive_later(tx: Tx, row: GameRow) -> None:
    """A game that closes without a result (cancelled) archives its thread a minute on: an
    open thread would stay in the server's (and discord.py's) list of active threads for a
    week. Anyone who writes in it reopens it. Nothing for a game played in its channel."""
    if row.parent_channel_id is not None:
        due = archive_row(row.id, tx.now, row.phase, CANCELLED_ARCHIVE_AFTER)
        await repo.run(tx.session, repo.Writes().add_deadlines([due]))


def archive_row(
    game_id: int, now: float, phase: str, after: float = ARCHIVE_AFTER
) -> dict[str, Any]:
    return {"game_id": game_id, "seat": -1, "kind": ARCHIVE, "due_at": now + after, "phase": phase}
