"""The lists read page by page through their indexes (history, rematch's last game, the open
games of a channel's threads, /game mine, the leaderboard, a stats place) give exactly what the
queries they replace gave: the same games and players in the same order, ties included, on
every page, forwards and back, in channels and in threads. The old queries are written out here
as the reference."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import Service, history, standings
from bot.service.buttons import decode
from bot.service.replies import Actor, Place
from bot.store import ratings as rated
from bot.store import repository as repo
from bot.store.models import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    GameRow,
    RatingRow,
    SeatRow,
)
from tests.conftest import ALICE

CHANNEL = 100
THREADS = [5001, 5002, 5003]
OTHER = 200


def _game(game_id: int, channel: int, parent: int | None, status: str, at: float) -> GameRow:
    still_open = status in OPEN_STATUSES
    return GameRow(
        id=game_id,
        channel_id=channel,
        open_channel_id=channel if still_open else None,
        parent_channel_id=parent,
        guild_id=10,
        kind="tiny",
        options={},
        settings={},
        status=status,
        host_id=1,
        seed=game_id,
        created_at=at,
        updated_at=at,
        seats=[SeatRow(seat=0, user_id=1, display_name="Alice")],
    )


async def _grow(service: Service) -> None:
    """Finished, cancelled and open games in a channel, its threads and another channel, with
    many ties in ``updated_at`` (a tie is ordered by id, newest first)."""
    draw = random.Random(7)
    rows = []
    for game_id in range(1, 90):
        where = draw.choice(["channel", "thread", "thread", "other"])
        channel, parent = {
            "channel": (CHANNEL, None),
            "thread": (draw.choice(THREADS), CHANNEL),
            "other": (OTHER, None),
        }[where]
        status = draw.choice([FINISHED, FINISHED, FINISHED, CANCELLED])
        rows.append(_game(game_id, channel, parent, status, float(draw.choice(range(1000, 1030)))))
    # One open game a thread at most (the unique open_channel_id), and one in the channel.
    for offset, thread in enumerate(THREADS[:2]):
        rows.append(_game(100 + offset, thread, CHANNEL, (LOBBY, ACTIVE)[offset], 2000.0))
    rows.append(_game(102, CHANNEL, None, ACTIVE, 1500.0))
    async with service.sessions() as session, session.begin():
        session.add_all(rows)


async def _reference(session: AsyncSession, channel: int) -> list[int]:
    """The history's order as the query it replaced read it: an OR and a sort."""
    result = await session.execute(
        select(GameRow.id)
        .where(
            (GameRow.channel_id == channel) | (GameRow.parent_channel_id == channel),
            GameRow.status == FINISHED,
        )
        .order_by(GameRow.updated_at.desc(), GameRow.id.desc())
    )
    return list(result.scalars())


def _ids(rows: Sequence[GameRow]) -> list[int]:
    return [row.id for row in rows]


async def test_history_pages_forwards_back_and_by_number_are_the_old_order(
    service: Service,
) -> None:
    await _grow(service)
    async with service.sessions() as session:
        for channel in (CHANNEL, THREADS[0], OTHER, 999):
            expected = await _reference(session, channel)
            assert channel == 999 or len(expected) > 7, "enough for several pages"
            walked: list[int] = []
            page = list(await repo.finished_games(session, channel, 4))
            while page:
                walked += _ids(page)
                page = list(await repo.finished_games(session, channel, 4, older_than=page[-1].id))
            assert walked == expected, f"forwards, channel {channel}"
            back: list[int] = []
            page = list(
                await repo.finished_games(session, channel, 4, offset=max(0, len(expected) - 4))
            )
            while page:
                back = _ids(page) + back
                page = list(await repo.finished_games(session, channel, 4, newer_than=page[0].id))
            assert back == expected or len(expected) < 4, f"back, channel {channel}"
            for skip in range(0, len(expected) + 2, 3):
                by_number = await repo.finished_games(session, channel, 3, offset=skip)
                assert _ids(by_number) == expected[skip : skip + 3], f"offset {skip}"
            assert await repo.count_finished_games(session, channel) == len(expected)
        (latest,) = await repo.finished_games(session, CHANNEL, 1)
        assert latest.id == (await _reference(session, CHANNEL))[0], "rematch's last game"
        assert await repo.finished_games(session, CHANNEL, 3, older_than=12345) == []


async def test_history_buttons_walk_every_page_and_old_buttons_still_work(
    service: Service,
) -> None:
    await _grow(service)
    async with service.sessions() as session:
        expected = await _reference(session, CHANNEL)
        shown: list[int] = []
        head, said, buttons = await history.page(session, CHANNEL, 1, "en")
        pages = [buttons]
        while True:
            shown += [int(b.custom_id.split("game=")[1]) for b in buttons if "game=" in b.custom_id]
            nxt = [b for b in buttons if b.label.startswith("Older")]
            if not nxt:
                break
            args = decode(nxt[0].custom_id)
            assert args is not None
            page = int(args.args["page"])
            head, said, buttons = await history.page(
                session, CHANNEL, page, "en", after=int(args.args["after"])
            )
            assert f"Page {page} " in str(head)
            pages.append(buttons)
        assert shown == expected, "every game once, in the old order"
        # ◀ from the last page gives the page before it, as it was shown.
        newer = [b for b in pages[-1] if b.label.startswith("◀")]
        args = decode(newer[0].custom_id)
        assert args is not None
        _, _, back = await history.page(
            session, CHANNEL, int(args.args["page"]), "en", before=int(args.args["before"])
        )
        assert [b.custom_id for b in back if "game=" in b.custom_id] == [
            b.custom_id for b in pages[-2] if "game=" in b.custom_id
        ]
        # A button of an older version names only its page: the same page as by number.
        _, old_said, _ = await history.page(session, CHANNEL, 3, "en")
        assert str(old_said).count("• ") == history.PAGE
        assert f"#{expected[2 * history.PAGE]} " in str(old_said)


async def test_open_games_in_threads_and_mine_are_the_open_games_only(service: Service) -> None:
    await _grow(service)
    async with service.sessions() as session:
        threaded = await repo.open_games_in_threads(session, CHANNEL)
        assert _ids(threaded) == [100, 101], "oldest first, finished and cancelled left out"
        mine = await repo.open_games_of(session, ALICE.user_id, 10)
        assert _ids(mine) == [100, 101, 102] or _ids(mine) == [101, 100, 102]
        assert [r.updated_at for r in mine] == sorted((r.updated_at for r in mine), reverse=True)
        assert await repo.open_games_of(session, 2, 10) == [], "no seat, no game"
        assert await repo.open_games_of(session, ALICE.user_id, 11) == [], "another server"


async def _rate(service: Service, players: int) -> None:
    draw = random.Random(3)
    rows = [
        RatingRow(
            guild_id=10,
            kind="tiny",
            player=f"u:{n}",
            name=f"P{n}",
            # Ties: equal (mu, sigma) pairs, hence equal shown ratings.
            mu=float(draw.choice(range(20, 30))),
            sigma=float(draw.choice((1.0, 2.0))),
            games=1,
            wins=0,
            updated_at=0.0,
        )
        for n in range(players)
    ]
    rows.append(
        RatingRow(
            guild_id=10,
            kind="tiny",
            player="game:tiny:",
            name="",
            mu=99.0,
            sigma=1.0,
            games=1,
            wins=0,
            updated_at=0.0,
        )
    )
    async with service.sessions() as session, session.begin():
        session.add_all(rows)


async def test_leaderboard_pages_and_places_are_the_old_order(service: Service) -> None:
    await _rate(service, 47)
    async with service.sessions() as session:
        ordinal = RatingRow.mu - 3 * RatingRow.sigma
        everyone = (
            await session.execute(
                select(RatingRow.player, ordinal)
                .where(RatingRow.guild_id == 10, ~RatingRow.player.startswith("game:"))
                .order_by(ordinal.desc(), RatingRow.player)
            )
        ).all()
        expected = [player for player, _ in everyone]
        walked: list[str] = []
        page = list(await rated.leaderboard(session, 10, "tiny", 6))
        while page:
            walked += [r.player for r in page]
            page = list(await rated.leaderboard(session, 10, "tiny", 6, after=page[-1].player))
        assert walked == expected, "forwards through the ties"
        back: list[str] = []
        page = list(await rated.leaderboard(session, 10, "tiny", 6, offset=len(expected) - 6))
        while page:
            back = [r.player for r in page] + back
            page = list(await rated.leaderboard(session, 10, "tiny", 6, before=page[0].player))
        assert back == expected, "back through the ties"
        assert await rated.count_listed(session, 10, "tiny") == len(expected)
        for player, value in everyone:
            above = (
                await session.execute(
                    select(func.count())
                    .select_from(RatingRow)
                    .where(
                        RatingRow.guild_id == 10,
                        ~RatingRow.player.startswith("game:"),
                        ordinal > value,
                    )
                )
            ).scalar()
            assert await rated.place_of(session, 10, "tiny", value) == int(above or 0) + 1, player


async def test_a_place_beyond_the_counted_ones_is_said_as_such(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _rate(service, 30)
    monkeypatch.setattr(rated, "PLACES", 5)
    async with service.sessions() as session:
        assert await rated.place_of(session, 10, "tiny", 1000.0) == 1
        assert await rated.place_of(session, 10, "tiny", -1000.0) is None
        best, worst = (await rated.leaderboard(session, 10, "tiny", 30))[:: 30 - 1]
        top = await standings.stats(session, 10, best.player, best.name, "en")
        low = await standings.stats(session, 10, worst.player, worst.name, "es")
    assert "#1 here" in str(top)
    assert "n.º 5+ aquí" in str(low), "beyond the places counted, in the reader's language"


async def _walk_leaderboard(service: Service) -> list[tuple[int, str]]:
    """Every line of the leaderboard, (place, name), page after page by its Next button."""
    shown: list[tuple[int, str]] = []
    reply = await service.leaderboard(Actor(1, "A"), Place(1, 10), "tiny")
    while True:
        assert reply.private is not None
        for line in str(reply.private.text).split("\n"):
            if ". P" in line:
                place, rest = line.split(". ", 1)
                shown.append((int(place), rest.split(" —")[0]))
        nxt = [b for b in reply.private.buttons if b.label.startswith("Next")]
        if not nxt:
            return shown
        reply = await service.press(Actor(1, "A"), Place(1, 10), decode(nxt[0].custom_id))


async def test_leaderboard_buttons_walk_every_page(service: Service) -> None:
    await _rate(service, 34)
    shown = [name for _, name in await _walk_leaderboard(service)]
    async with service.sessions() as session:
        ordinal = RatingRow.mu - 3 * RatingRow.sigma
        expected = (
            await session.execute(
                select(RatingRow.name)
                .where(RatingRow.guild_id == 10, ~RatingRow.player.startswith("game:"))
                .order_by(ordinal.desc(), RatingRow.player)
            )
        ).scalars()
        assert shown == list(expected)


async def test_leaderboard_places_are_the_stats_places_ties_sharing_one(service: Service) -> None:
    """Equal ratings share a place on every page, as ``/game stats`` says it (1 + the players
    rated above), also where a tie runs across two pages."""
    await _rate(service, 34)  # 10 ratings for 34 players: ties across page edges
    shown = await _walk_leaderboard(service)
    async with service.sessions() as session:
        ordinal = RatingRow.mu - 3 * RatingRow.sigma
        rows = (
            await session.execute(
                select(RatingRow.name, ordinal).where(
                    RatingRow.guild_id == 10, ~RatingRow.player.startswith("game:")
                )
            )
        ).all()
    values = {name: value for name, value in rows}
    expected = [(1 + sum(v > values[name] for v in values.values()), name) for _, name in shown]
    assert shown == expected
    assert len({name for _, name in shown}) == 34
    places = [place for place, _ in shown]
    assert len(set(places)) < len(places), "the ratings drawn tie"
    edges = [places[i * 10 - 1] == places[i * 10] for i in (1, 2, 3)]
    assert any(edges), "a tie runs across a page's edge"
