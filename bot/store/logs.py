"""A closed game's log, compacted: one row per game (``game_logs``) instead of one per move.

While a game is played its log is one ``actions`` row per move, appended by each move's save
(``repo.Writes.append_action``). When the game ends (finished, or cancelled after it began)
the transaction that ends it reads those rows, writes them as one ``game_logs`` row and deletes
them (``compact``): a crash leaves either the rows or the compacted log, never both nor
neither. Games closed before the compaction existed are compacted by the bot in the background,
a batch a transaction (``compact_closed``). ``read`` gives back the same entries either way, so replays, the history, the ratings
and their rebuild read a compacted game exactly as before.

The entries are JSON, ``[seq, seat, action, at, by_default]`` each, compressed with zlib
(level 9): a game's moves repeat the same keys and values, and the standard library's zlib
brought a finished game to about a tenth of its log's size (``python -m bench storage``).
Times are kept as the floats they were (JSON writes a float's shortest exact form), so a
replay of a compacted game is the replay before compaction to the last bit.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import CANCELLED, FINISHED, ActionRow, GameLogRow, GameRow

TABLE = cast(Table, GameLogRow.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_ADD = TABLE.insert()
_DROP_MOVES = _ACTIONS.delete().where(_ACTIONS.c.game_id == bindparam("_game"))
LEVEL = 9


def pack(entries: Iterable[Mapping[str, Any]]) -> bytes:
    """The compressed form of log entries (each with ``seq``, ``seat``, ``action``, ``at``,
    ``by_default``), in ``seq`` order."""
    rows = [
        [e["seq"], e["seat"], e["action"], e["at"], 1 if e["by_default"] else 0]
        for e in sorted(entries, key=lambda e: e["seq"])
    ]
    return zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), LEVEL)


def packed(game_id: int, entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``game_logs`` row of a game whose log is ``entries``."""
    times = [float(e["at"]) for e in entries]
    return {
        "game_id": game_id,
        "moves": len(entries),
        "first_at": min(times, default=0.0),
        "last_at": max(times, default=0.0),
        "data": pack(entries),
    }


def unpack(game_id: int, data: bytes) -> list[ActionRow]:
    """The entries of a compacted log, as the ``actions`` rows they were (not in a session)."""
    return [
        ActionRow(game_id=game_id, seq=seq, seat=seat, action=action, at=at, by_default=bool(d))
        for seq, seat, action, at, d in json.loads(zlib.decompress(data))
    ]


def entry(row: ActionRow) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "seat": row.seat,
        "action": row.action,
        "at": row.at,
        "by_default": row.by_default,
    }


async def moves(session: AsyncSession, game_id: int) -> list[ActionRow]:
    """A game's ``actions`` rows in order (none once its log is compacted)."""
    rows = await session.execute(
        select(ActionRow).where(ActionRow.game_id == game_id).order_by(ActionRow.seq)
    )
    return list(rows.scalars())


async def read(session: AsyncSession, game_id: int) -> list[ActionRow]:
    """A game's log in order, wherever it is kept: its ``actions`` rows while it is played,
    its ``game_logs`` row once it is closed."""
    found = await moves(session, game_id)
    if found:
        return found
    data = (
        await session.execute(select(GameLogRow.data).where(GameLogRow.game_id == game_id))
    ).scalar()
    return unpack(game_id, data) if data is not None else []


def compact(writes: Any, game_id: int, entries: Sequence[Mapping[str, Any]]) -> None:
    """Add to ``writes`` (a ``repo.Writes``, run in the closing transaction) the compacted log
    of a game whose whole log is ``entries``, and the deletion of its ``actions`` rows."""
    if not entries:
        return
    writes.steps.append((_ADD, [packed(game_id, entries)], None))
    writes.steps.append((_DROP_MOVES, [{"_game": game_id}], None))


async def lengths(
    session: AsyncSession, game_ids: Sequence[int]
) -> dict[int, tuple[int, float, float]]:
    """Each game's moves and its first and last move's time (the history's length), from its
    compacted log or, for one not compacted, its rows."""
    if not game_ids:
        return {}
    out: dict[int, tuple[int, float, float]] = {
        game: (count, first, last)
        for game, count, first, last in await session.execute(
            select(ActionRow.game_id, func.count(), func.min(ActionRow.at), func.max(ActionRow.at))
            .where(ActionRow.game_id.in_(game_ids))
            .group_by(ActionRow.game_id)
        )
    }
    for game, count, first, last in await session.execute(
        select(GameLogRow.game_id, GameLogRow.moves, GameLogRow.first_at, GameLogRow.last_at).where(
            GameLogRow.game_id.in_(game_ids)
        )
    ):
        out.setdefault(game, (count, first, last))
    return out


async def compact_closed(session: AsyncSession, after: int, limit: int) -> tuple[int, int, int]:
    """Look at the next ``limit`` closed games (finished or cancelled) of ids above ``after``,
    in id order, and compact the logs of those still kept as rows (the games closed before
    compaction existed). Returns (games looked at, logs compacted, the last id looked at: the
    next batch's ``after``). Through the primary key, so a whole run reads each game once."""
    ids = list(
        (
            await session.execute(
                select(GameRow.id)
                .where(GameRow.id > after, GameRow.status.in_((FINISHED, CANCELLED)))
                .order_by(GameRow.id)
                .limit(limit)
            )
        ).scalars()
    )
    if not ids:
        return 0, 0, after
    found: dict[int, list[dict[str, Any]]] = {}
    columns = (_ACTIONS.c.seq, _ACTIONS.c.seat, _ACTIONS.c.action, _ACTIONS.c.at)
    for game, seq, seat, action, at, by_default in await session.execute(
        select(_ACTIONS.c.game_id, *columns, _ACTIONS.c.by_default)
        .where(_ACTIONS.c.game_id.in_(ids))
        .order_by(_ACTIONS.c.game_id, _ACTIONS.c.seq)
    ):
        found.setdefault(game, []).append(
            {"seq": seq, "seat": seat, "action": action, "at": at, "by_default": by_default}
        )
    if found:
        await session.execute(_ADD, [packed(game, entries) for game, entries in found.items()])
        await session.execute(_ACTIONS.delete().where(_ACTIONS.c.game_id.in_(list(found))))
    return len(ids), len(found), ids[-1]
