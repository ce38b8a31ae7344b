"""``/game history``: the channel's finished games (and those played in its threads), newest
first, a page at a time: the page is the command's ``page`` or the ◀ ▶ buttons' (the page in
their ids). Each game with its number, result, players and how their ratings moved, its length
(moves and time) and a button to replay it."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import buttons as button_ids
from bot.service.ratings import Standing
from bot.service.replies import Button
from bot.service.standings import number
from bot.service.table import seat_names
from bot.service.text import Text, When, join, lines, phrase
from bot.store import logs
from bot.store import ratings as rated
from bot.store import repository as repo
from bot.store.models import GameRow

# Finished games a page: a page of six-player tables with the longest names stays one message
# (the names escape to twice their length on Discord), and five Replay buttons fill one row.
PAGE = 5
HISTORY = "history"  # the page buttons' command
REPLAY = "replay"  # the replay buttons' command


async def page(
    session: AsyncSession, channel_id: int, wanted: int, lang: str
) -> tuple[Text, Text, tuple[Button, ...]]:
    """One page: its head (the title, and which page of how many), its entries, its buttons.
    A page past the end is the last one."""
    total = await repo.count_finished_games(session, channel_id)
    if total == 0:
        return phrase("lobby.history.none", lang), Text(), ()
    pages = -(-total // PAGE)
    shown = min(max(1, wanted), pages)
    rows = await repo.finished_games(session, channel_id, limit=PAGE, offset=(shown - 1) * PAGE)
    ids = [r.id for r in rows]
    lengths = await logs.lengths(session, ids)
    changes = await rated.changes_of(session, ids)
    head = phrase("lobby.history.title", lang)
    if pages > 1:
        head = lines([head, phrase("lobby.history.page", lang, page=shown, pages=pages)])
    said: list[Text] = []
    found: list[Button] = []
    for row in rows:
        said.append(_entry(row, lengths.get(row.id, (0, 0.0, 0.0)), changes.get(row.id), lang))
        found.append(
            Button(
                str(phrase("lobby.history.replay", lang, id=row.id)),
                button_ids.view_id(REPLAY, {"game": row.id}),
            )
        )
    if shown > 1:
        found.append(_page(shown - 1, "lobby.history.previous", lang))
    if shown < pages:
        found.append(_page(shown + 1, "lobby.history.next", lang))
    return head, lines(said), tuple(found)


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
        if moved is None:  # a game that did not count, or a seat rated by its first twin
            players.append(Text.of(name))
            continue
        delta = Standing(*moved["after"]).ordinal - Standing(*moved["before"]).ordinal
        players.append(Text.of(name, f" ({number(delta, lang, signed=True)})"))
    moves, first, last = length
    return phrase(
        "lobby.history.line",
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
    """A game's length from its first move to its last: "3m", "2h 05m", "4d 3h"."""
    minutes = int(seconds // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m"
