"""``/game history``: the channel's finished games, newest first, a page at a time (the page in
the buttons' ids), each with its result, its players and how their ratings moved, its length
(moves and time) and a button to replay it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import buttons as button_ids
from bot.service.ratings import Standing
from bot.service.replies import Button
from bot.service.standings import number
from bot.service.table import seat_names
from bot.service.text import Text, When, join, lines, phrase
from bot.store import ratings as rated
from bot.store.models import FINISHED, ActionRow, GameRow

PAGE = 5
HISTORY = "history"  # the page buttons' command
REPLAY = "replay"  # the replay buttons' command


async def page(
    session: AsyncSession, channel_id: int, wanted: int, lang: str
) -> tuple[Text, tuple[Button, ...]]:
    where = (GameRow.channel_id == channel_id, GameRow.status == FINISHED)
    total = int(
        (await session.execute(select(func.count()).select_from(GameRow).where(*where))).scalar()
        or 0
    )
    if total == 0:
        return phrase("lobby.history.none", lang), ()
    pages = -(-total // PAGE)
    shown = min(max(1, wanted), pages)
    rows = (
        (
            await session.execute(
                select(GameRow)
                .where(*where)
                .order_by(GameRow.updated_at.desc(), GameRow.id.desc())
                .offset((shown - 1) * PAGE)
                .limit(PAGE)
            )
        )
        .unique()
        .scalars()
        .all()
    )
    ids = [r.id for r in rows]
    lengths = {
        game: (count, first, last)
        for game, count, first, last in await session.execute(
            select(ActionRow.game_id, func.count(), func.min(ActionRow.at), func.max(ActionRow.at))
            .where(ActionRow.game_id.in_(ids))
            .group_by(ActionRow.game_id)
        )
    }
    changes = await rated.changes_of(session, ids)
    said: list[Text] = [phrase("history.title", lang, page=shown, pages=pages)]
    found: list[Button] = []
    for row in rows:
        said.append(_entry(row, lengths.get(row.id, (0, 0.0, 0.0)), changes.get(row.id), lang))
        found.append(
            Button(
                str(phrase("history.replay", lang, id=row.id)),
                button_ids.view_id(REPLAY, {"game": row.id}),
            )
        )
    if shown > 1:
        found.append(_page(shown - 1, "ratings.leaderboard.previous", lang))
    if shown < pages:
        found.append(_page(shown + 1, "ratings.leaderboard.next", lang))
    return lines(said), tuple(found)


def _page(number_: int, key: str, lang: str) -> Button:
    return Button(str(phrase(key, lang)), button_ids.view_id(HISTORY, {"page": number_}))


def _entry(
    row: GameRow, length: tuple[int, float, float], changes: dict[str, Any] | None, lang: str
) -> Text:
    names = seat_names(row)
    winners = [names[s] for s in (row.result or {}).get("winners", []) if 0 <= s < len(names)]
    players: list[Text] = []
    for seat, name in enumerate(names):
        moved = (changes or {}).get(str(seat))
        if moved is None:
            players.append(Text.of(name))
            continue
        delta = Standing(*moved["after"]).ordinal - Standing(*moved["before"]).ordinal
        players.append(Text.of(name, f" ({number(delta, lang, signed=True)})"))
    moves, first, last = length
    return phrase(
        "history.line",
        lang,
        id=row.id,
        game=phrase(f"{row.kind}.name", lang),
        when=When(int(row.updated_at), "d"),
        players=join(players),
        winners=join(winners) if winners else phrase("lobby.history.nobody", lang),
        moves=moves,
        duration=_duration(max(0.0, last - first)),
    )


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m"
