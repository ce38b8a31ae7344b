"""The async repository: every query the service makes, in one place.

All functions take an open ``AsyncSession``; the caller owns the transaction (the service's
``lock → load → engine → save`` loop commits once per command).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, insert, select, tuple_, union_all, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from bot.store import logs
from bot.store.models import (
    CANCELLED,
    FINISHED,
    OPEN_STATUSES,
    ActionRow,
    DeadlineRow,
    GameRow,
    PlayerRow,
    SeatRow,
)

# The statements of every move, built once: building a statement (and its cache key) costs
# more than running it on SQLite. They take their values as bound parameters.
_OPEN_GAME = select(GameRow).where(GameRow.open_channel_id == bindparam("channel_id"))
_OPEN_GAME_LOCKED = _OPEN_GAME.with_for_update(of=GameRow)
# Deadlines are deleted with Core statements on the table: the ORM would look for the rows in
# the session to keep it in step, which cost more than the DELETE (a move holds none of them).
_DEADLINES = cast(Table, DeadlineRow.__table__)
_CLEAR_DEADLINES = _DEADLINES.delete().where(_DEADLINES.c.game_id == bindparam("_game"))
_CLEAR_SEAT_DEADLINES = _CLEAR_DEADLINES.where(_DEADLINES.c.seat == bindparam("_seat"))


async def open_game(
    session: AsyncSession, channel_id: int, *, lock: bool = False
) -> GameRow | None:
    """The channel's unfinished game (lobby or active), with its seats.

    ``lock``: on PostgreSQL, lock the game row (``SELECT … FOR UPDATE OF games``) so that every
    write transaction of a game takes its locks in the same order, game row first. Without it
    two processes can deadlock (one holds a deadline row and waits for the action log, the other
    the reverse) and PostgreSQL only breaks that after a second. SQLite ignores it (it has one
    writer at a time anyway)."""
    query = _OPEN_GAME_LOCKED if lock else _OPEN_GAME
    result = await session.execute(query, {"channel_id": channel_id})
    return result.unique().scalar_one_or_none()


async def game_by_id(session: AsyncSession, game_id: int) -> GameRow | None:
    return await session.get(GameRow, game_id)


async def finished_games(
    session: AsyncSession,
    channel_id: int,
    limit: int = 10,
    *,
    older_than: int | None = None,
    newer_than: int | None = None,
    offset: int = 0,
) -> Sequence[GameRow]:
    """Finished games of a channel (or of the games played in its threads), newest first.

    ``older_than``: those listed after that game, the next page; ``newer_than``: those listed
    just before it, the previous page (still newest first); neither when that game is gone.
    ``offset``: skip that many (a page asked for by its number).

    Read from the end of two indexes, the channel's games and its threads', each as far as the
    page needs, and merged: no sort of the channel's games, whatever their number (``offset``
    steps over index entries only)."""
    newer = newer_than is not None and older_than is None
    bound: tuple[float, int] | None = None
    if older_than is not None or newer_than is not None:
        game = newer_than if newer else older_than
        at = (await session.execute(select(GameRow.updated_at).where(GameRow.id == game))).scalar()
        if at is None:
            return []
        bound = (float(at), int(cast(int, game)))
    ids = await _finished_ids(session, channel_id, limit, bound, newer, offset)
    if not ids:
        return []
    result = await session.execute(select(GameRow).where(GameRow.id.in_(ids)))
    rows = {row.id: row for row in result.unique().scalars()}
    return [rows[game] for game in ids if game in rows]


async def _finished_ids(
    session: AsyncSession,
    channel_id: int,
    limit: int,
    bound: tuple[float, int] | None,
    newer: bool,
    offset: int,
) -> list[int]:
    # A game is played in the channel itself (channel_id) or in one of its threads
    # (parent_channel_id), never both: the two branches never list one game twice. Each
    # branch is read from its index in page order and cut to what the page can need; the two
    # are merged as a whole (SQLite's MERGE, PostgreSQL's Merge Append), so nothing sorts more
    # than a page's worth, however long the channel's history.
    key = tuple_(GameRow.updated_at, GameRow.id)
    order = (GameRow.updated_at, GameRow.id)
    arms = []
    for column in (GameRow.channel_id, GameRow.parent_channel_id):
        branch = select(GameRow.id, GameRow.updated_at).where(
            column == channel_id, GameRow.status == FINISHED
        )
        if bound is not None:
            branch = branch.where(key > tuple_(*bound) if newer else key < tuple_(*bound))
        cut = (
            branch.order_by(*(order if newer else (c.desc() for c in order)))
            .limit(offset + limit)
            .subquery()
        )
        arms.append(select(cut.c.id, cut.c.updated_at))
    merged = union_all(*arms)
    both = (merged.selected_columns.updated_at, merged.selected_columns.id)
    query = (
        merged.order_by(*(both if newer else (c.desc() for c in both))).offset(offset).limit(limit)
    )
    ids = [int(game) for game, _at in (await session.execute(query))]
    return ids[::-1] if newer else ids


async def count_finished_games(session: AsyncSession, channel_id: int) -> int:
    """How many finished games the channel's history holds: a count over its index entries,
    which grows with the history (the history counts only when asked for a page past the end)."""
    result = await session.execute(
        select(func.count(GameRow.id)).where(_in_channel(channel_id), GameRow.status == FINISHED)
    )
    return int(result.scalar() or 0)


def _in_channel(channel_id: int) -> Any:
    return (GameRow.channel_id == channel_id) | (GameRow.parent_channel_id == channel_id)


# A move's save is Core statements on the tables, not the ORM's unit of work: the unit of work
# cost more CPU than everything else in a move (see docs/service.md, "A move's save").
_GAMES = cast(Table, GameRow.__table__)
_SAVE_GAME = _GAMES.update().where(
    _GAMES.c.id == bindparam("_id"), _GAMES.c.version == bindparam("_seen")
)
_LOG = insert(cast(Table, ActionRow.__table__))
_ADD_DEADLINES = insert(_DEADLINES)


def as_saved(row: GameRow, values: dict[str, Any]) -> None:
    """Set loaded attributes of ``row`` without marking them changed, for values that a Core
    statement saves (``save_game``): the ORM would otherwise save them a second time."""
    for key, value in values.items():
        set_committed_value(row, key, value)


class Writes:
    """A transaction's writes, gathered as they are planned (a move's save, its log entry, its
    deadlines) and run by ``run``, in the order they were added."""

    def __init__(self) -> None:
        # (statement, rows of parameters, "must change exactly one row": the error if not)
        self.steps: list[tuple[Any, list[dict[str, Any]], str | None]] = []

    def save_game(
        self, row: GameRow, seen: int, values: dict[str, Any], entries: int = 1
    ) -> Writes:
        """Save ``values`` of a game loaded at version ``seen``, if no other writer saved it
        since: ``UPDATE … WHERE version = seen``; ``run`` raises ``StaleDataError``, which the
        service retries from a fresh load, when another writer got there first. ``row`` shows
        the new version (a failed save rolls back, and the retry loads the row again). The
        version grows by the number of log ``entries`` the save adds, which it numbers."""
        params = {**values, "version": seen + entries, "_id": row.id, "_seen": seen}
        stale = f"game {row.id} was saved by another writer since version {seen}"
        self.steps.append((_SAVE_GAME, [params], stale))
        as_saved(row, {"version": seen + entries})
        return self

    def append_action(
        self,
        game_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        at: float,
        by_default: bool,
    ) -> Writes:
        """Add an entry to the log. ``seq`` must grow with each entry of the game (the service
        uses the game row's version, which is unique per save)."""
        entry = {
            "game_id": game_id,
            "seq": seq,
            "seat": seat,
            "action": action,
            "at": at,
            "by_default": by_default,
        }
        self.steps.append((_LOG, [entry], None))
        return self

    def clear_deadlines(self, game_id: int, seats: Iterable[int] | None = None) -> Writes:
        """Delete a game's deadlines: all of them, or those of ``seats`` (none: nothing)."""
        if seats is None:
            self.steps.append((_CLEAR_DEADLINES, [{"_game": game_id}], None))
        else:
            rows = [{"_game": game_id, "_seat": seat} for seat in sorted(seats)]
            if rows:
                self.steps.append((_CLEAR_SEAT_DEADLINES, rows, None))
        return self

    def add_deadlines(self, rows: list[dict[str, Any]]) -> Writes:
        """Insert deadline rows (``game_id``, ``seat``, ``kind``, ``due_at``, ``phase``)."""
        if rows:
            self.steps.append((_ADD_DEADLINES, rows, None))
        return self


# The soonest deadline written through each engine since it was last asked
# (``take_written_deadline``): the bot's deadline loop sleeps until its next due deadline and
# is woken by a command only when that command wrote a sooner one. Noted when the rows are
# written, before the commit: a write rolled back wakes the loop for nothing, never the reverse.
_WRITTEN: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def _note_deadline(session: AsyncSession, due: float) -> None:
    if session.bind is not None:
        engine = session.bind.sync_engine
        _WRITTEN[engine] = min(due, _WRITTEN.get(engine, math.inf))


def take_written_deadline(engine: AsyncEngine) -> float | None:
    """The soonest deadline written through ``engine`` since the last call, if any."""
    return _WRITTEN.pop(engine.sync_engine, None)


async def run(session: AsyncSession, writes: Writes) -> None:
    """Run ``writes`` now, in the session's transaction, statement by statement; a save over a
    version another writer replaced raises ``StaleDataError`` here, on every database."""
    if not writes.steps:
        return
    connection = await session.connection()
    for statement, rows, check in writes.steps:
        if statement is _ADD_DEADLINES:
            _note_deadline(session, min(float(row["due_at"]) for row in rows))
        result = await connection.execute(statement, rows if len(rows) > 1 else rows[0])
        if check is not None and result.rowcount != 1:
            raise StaleDataError(check)


async def save_game(session: AsyncSession, row: GameRow, seen: int, values: dict[str, Any]) -> None:
    """``Writes.save_game`` run at once."""
    await run(session, Writes().save_game(row, seen, values))


async def clear_deadlines(
    session: AsyncSession, game_id: int, seats: Iterable[int] | None = None
) -> None:
    """``Writes.clear_deadlines`` run at once."""
    await run(session, Writes().clear_deadlines(game_id, seats))


async def shift_deadlines(session: AsyncSession, game_id: int, by: float) -> None:
    """Move every deadline of a game ``by`` seconds (a paused table's are set aside)."""
    if by < 0:  # sooner: one may be due now
        _note_deadline(session, -math.inf)
    await session.execute(
        update(DeadlineRow)
        .where(DeadlineRow.game_id == game_id)
        .values(due_at=DeadlineRow.due_at + by)
    )


async def action_log(session: AsyncSession, game_id: int) -> Sequence[ActionRow]:
    """A game's log in order, from its rows or, once it is closed, its compacted row."""
    return await logs.read(session, game_id)


async def compact_log(session: AsyncSession, game_id: int) -> None:
    """Compact a closed game's log now, in the caller's transaction (``logs.compact``)."""
    entries = [logs.entry(e) for e in await logs.moves(session, game_id)]
    writes = Writes()
    logs.compact(writes, game_id, entries)
    await run(session, writes)


async def prune_closed(session: AsyncSession, before: float, limit: int) -> int:
    """Delete up to ``limit`` closed games (finished or cancelled) that ended before
    ``before``, oldest first, with everything that hangs from them (seats, log, marks:
    ``ON DELETE CASCADE``); returns how many. The ratings they moved stay as they are."""
    ids = (
        (
            await session.execute(
                select(GameRow.id)
                .where(GameRow.status.in_((FINISHED, CANCELLED)), GameRow.updated_at < before)
                .order_by(GameRow.updated_at, GameRow.id)
                .limit(limit)
            )
        )
        .scalars()
        .all()
    )
    if ids:
        await session.execute(delete(GameRow).where(GameRow.id.in_(ids)))
    return len(ids)


async def deadlines_of(session: AsyncSession, game_id: int) -> dict[tuple[int, str], DeadlineRow]:
    result = await session.execute(select(DeadlineRow).where(DeadlineRow.game_id == game_id))
    return {(row.seat, row.kind): row for row in result.scalars()}


async def replace_deadline(session: AsyncSession, row: dict[str, Any]) -> None:
    """Set one deadline row (``game_id``, ``seat``, ``kind``, ``due_at``, ``phase``), replacing
    the seat's row of that kind if it has one."""
    await session.execute(
        delete(DeadlineRow).where(
            DeadlineRow.game_id == row["game_id"],
            DeadlineRow.seat == row["seat"],
            DeadlineRow.kind == row["kind"],
        )
    )
    await run(session, Writes().add_deadlines([row]))


async def due_deadlines(
    session: AsyncSession, now: float, limit: int = 100, guild_id: int | None = None
) -> Sequence[DeadlineRow]:
    """The deadlines due at ``now``, soonest first; with ``guild_id``, that server's only."""
    query = select(DeadlineRow).where(DeadlineRow.due_at <= now)
    result = await session.execute(
        _in_guild(query, guild_id).order_by(DeadlineRow.due_at).limit(limit)
    )
    return result.unique().scalars().all()


def _in_guild(query: Any, guild_id: int | None) -> Any:
    """``query`` of deadlines, narrowed to the games of ``guild_id`` (None: every game)."""
    if guild_id is None:
        return query
    return query.join(GameRow, GameRow.id == DeadlineRow.game_id).where(
        GameRow.guild_id == guild_id
    )


async def claim_deadline(session: AsyncSession, row: DeadlineRow) -> bool:
    """Delete a due deadline, returning whether *this* transaction got it: when two bot
    processes see the same due deadline, only the one whose delete hits a row applies it. The
    phase must match too: a row carried on to its turn's next step since it was listed is
    claimed in its new phase, by the next round, not voided in the old one."""
    result = await session.execute(
        delete(DeadlineRow).where(
            DeadlineRow.game_id == row.game_id,
            DeadlineRow.seat == row.seat,
            DeadlineRow.kind == row.kind,
            DeadlineRow.due_at == row.due_at,
            DeadlineRow.phase == row.phase,
        )
    )
    return (result.rowcount or 0) == 1  # type: ignore[attr-defined]


async def earliest_deadline(session: AsyncSession, guild_id: int | None = None) -> float | None:
    result = await session.execute(_in_guild(select(func.min(DeadlineRow.due_at)), guild_id))
    value = result.scalar()
    return float(value) if value is not None else None


async def open_games_in_threads(session: AsyncSession, channel_id: int) -> Sequence[GameRow]:
    """Unfinished games played in threads of ``channel_id``, oldest first. Through the
    partial index of open games (``ix_games_open_parent``): it runs on every command and
    autocomplete in such a channel, and must not look through the games that ended."""
    result = await session.execute(
        select(GameRow)
        .where(
            GameRow.parent_channel_id == channel_id,
            GameRow.open_channel_id.is_not(None),  # the partial index's condition
            GameRow.status.in_(OPEN_STATUSES),
        )
        .order_by(GameRow.id)
    )
    return result.unique().scalars().all()


async def open_games_of(
    session: AsyncSession, user_id: int, guild_id: int | None, limit: int = 25
) -> Sequence[GameRow]:
    """The unfinished games in which ``user_id`` holds a seat (and has not left), in one
    server, most recently active first (``/game mine``).

    Read from the server's open games (the partial index ``ix_games_open_guild``, newest
    first), each seat looked up by (game, user) (``uq_seat_user``): the cost follows the tables
    open now, not the seats anyone ever took."""
    seated = (
        select(SeatRow.game_id)
        .where(
            SeatRow.game_id == GameRow.id,
            SeatRow.user_id == user_id,
            SeatRow.left.is_(False),
        )
        .exists()
    )
    result = await session.execute(
        select(GameRow)
        .where(
            GameRow.guild_id == guild_id,
            GameRow.open_channel_id.is_not(None),  # the partial index's condition
            GameRow.status.in_(OPEN_STATUSES),
            seated,
        )
        .order_by(GameRow.updated_at.desc())
        .limit(limit)
    )
    return result.unique().scalars().all()


async def open_games(session: AsyncSession) -> Sequence[GameRow]:
    result = await session.execute(select(GameRow).where(GameRow.status.in_(OPEN_STATUSES)))
    return result.unique().scalars().all()


async def player_language(session: AsyncSession, user_id: int) -> str | None:
    row = await session.get(PlayerRow, user_id)
    return row.language if row else None


async def set_player_language(session: AsyncSession, user_id: int, language: str | None) -> None:
    await set_player(session, user_id, language=language)


async def players(session: AsyncSession, user_ids: Iterable[int]) -> dict[int, PlayerRow]:
    """The settings rows of those of ``user_ids`` who have one (most users have none)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    found = await session.execute(select(PlayerRow).where(PlayerRow.user_id.in_(wanted)))
    return {row.user_id: row for row in found.scalars()}


async def set_player(session: AsyncSession, user_id: int, **fields: Any) -> None:
    """Set some of a user's own settings (``PlayerRow`` columns) in one upsert (``INSERT … ON
    CONFLICT (user_id) DO UPDATE``): two commands of one user at once both succeed, the later
    one's choice kept, where "read, then insert if absent" let both insert and one fail on the
    primary key."""
    connection = await session.connection()
    dialect = connection.dialect.name
    upsert: Any
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as upsert
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        raise NotImplementedError(dialect)
    statement = upsert(PlayerRow).values(user_id=user_id, **fields)
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[PlayerRow.user_id],
            set_={name: statement.excluded[name] for name in fields},
        )
    )
    # A PlayerRow of this user already in the session would show the old choice.
    row = session.identity_map.get(session.identity_key(PlayerRow, user_id))
    if row is not None:
        for name, value in fields.items():
            set_committed_value(row, name, value)


async def record_message(
    session: AsyncSession, game_id: int, role: str, phase: str, channel_id: int, message_id: int
) -> bool:
    """Note the id of a game's message of ``role`` (``GameRow.messages``) once it is posted.

    A phase message is noted only while the game is still in that phase, or, for a table
    message edited in place (a turn's, a live FUSE table's: ``bot.service.live``), while the
    record's ``table`` is still the phase it was posted in: a message reported late, after
    the next one began, must not become the one later edits go to. A Core statement that
    leaves ``version`` alone, so no move in flight has to retry for it."""
    found = await session.execute(
        select(_GAMES.c.messages, _GAMES.c.phase).where(_GAMES.c.id == game_id)
    )
    current = found.one_or_none()
    if current is None:
        return False
    messages = dict(current.messages or {})
    record = dict(messages.get(role) or {})
    in_place = role == "phase" and record.get("table") == phase
    if (
        role == "phase"
        and not in_place
        and (current.phase != phase or record.get("phase") != phase)
    ):
        return False
    record.update(channel=channel_id, id=message_id)
    messages[role] = record
    update = _GAMES.update().where(_GAMES.c.id == game_id)
    if role == "phase":
        # (No move changed the row meanwhile: its messages are the ones read here.)
        update = update.where(_GAMES.c.phase == current.phase)
    result = await session.execute(update.values(messages=messages))
    return (result.rowcount or 0) == 1  # type: ignore[attr-defined]
