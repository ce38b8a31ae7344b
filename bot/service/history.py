"""``/game history``: the channel's finished games (and those played in its threads), newest
first, a page at a time: the page is the command's ``page`` or the ◀ ▶ buttons'. Each game with
its number, result, players and how their ratings moved, its length (moves and time) and a
button to replay it.

A page costs the same whatever the channel's history holds: the buttons carry the page's number
and the game it continues from (``after``: the last one shown, for the older page; ``before``:
the first, for the newer), and the page is read from the index from there. Nothing counts the
whole history: the head says which page this is and ▶ shows when there is an older one (a page
read one game further tells). A page asked for by its number (the command, or a button of an
older version) skips that many index entries; one past the end counts, and is the last page."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import buttons as button_ids
from bot.service.match import seat_names
from bot.service.ratings import Standing
from bot.service.replies import Button
from bot.service.standings import number
from bot.service.text import Text, When, join, lines, phrase
from bot.store import logs
from bot.store import ratings as rated
from bot.store import repository as repo
from bot.store.models import GameRow

# Finished games a page: a page of six-player games with the longest names stays one message
# (the names escape to twice their length on Discord), and five Replay buttons fill one row.
PAGE = 5
HISTORY = "history"  # the page buttons' command
REPLAY = "replay"  # the replay buttons' command


async def page(
    session: AsyncSession,
    channel_id: int,
    wanted: int,
    lang: str,
    *,
    after: int | None = None,
    before: int | None = None,
) -> tuple[Text, Text, tuple[Button, ...]]:
    """One page: its head (the title, and which page it is), its entries, its buttons. The
    page ``wanted``, or the one after game ``after`` or before game ``before`` (numbered
    ``wanted``). A page past the end is the last one."""
    rows, shown, older = await _rows(session, channel_id, wanted, after, before)
    if not rows:
        return phrase("lobby.history.none", lang), Text(), ()
    ids = [r.id for r in rows]
    lengths = await logs.lengths(session, ids)
    changes = await rated.changes_of(session, ids)
    head = phrase("lobby.history.title", lang)
    if shown > 1 or older:
        head = lines([head, phrase("lobby.history.page", lang, page=shown)])
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
        found.append(_page(shown - 1, "lobby.history.previous", lang, before=rows[0].id))
    if older:
        found.append(_page(shown + 1, "lobby.history.next", lang, after=rows[-1].id))
    return head, lines(said), tuple(found)


async def _rows(
    session: AsyncSession, channel_id: int, wanted: int, after: int | None, before: int | None
) -> tuple[list[GameRow], int, bool]:
    """The page's games, its number, and whether an older page follows."""
    if after is not None:
        rows = list(await repo.finished_games(session, channel_id, PAGE + 1, older_than=after))
        if rows:
            return rows[:PAGE], max(2, wanted), len(rows) > PAGE
    elif before is not None:
        rows = list(await repo.finished_games(session, channel_id, PAGE + 1, newer_than=before))
        if len(rows) > PAGE:  # a newer page still before this one
            return rows[1:], max(2, wanted), True
        wanted = 1  # the newest games: the first page, read afresh
    # By number: the command's page, a button of an older version, or a game gone meanwhile.
    shown = max(1, wanted)
    rows = list(await repo.finished_games(session, channel_id, PAGE + 1, offset=(shown - 1) * PAGE))
    if not rows and shown > 1:  # past the end: the last page
        total = await repo.count_finished_games(session, channel_id)
        shown = max(1, -(-total // PAGE))
        rows = list(
            await repo.finished_games(session, channel_id, PAGE + 1, offset=(shown - 1) * PAGE)
        )
    return rows[:PAGE], shown, len(rows) > PAGE


def _page(number_: int, key: str, lang: str, **edge: int) -> Button:
    """A page button: the page's number, and the game it continues from."""
    return Button(str(phrase(key, lang)), button_ids.view_id(HISTORY, {"page": number_, **edge}))


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
