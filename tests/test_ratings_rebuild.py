"""``partida ratings rebuild`` streams: it reads the finished games a page at a time and writes
in short transactions, gives exactly the ratings of the one-transaction rebuild it replaced
(and of the games as they ended), and the bot's commands are answered while it runs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import delete, select

from bot.service import Place, Service, ratings
from bot.store import repository as repo
from bot.store.models import FINISHED, GameRow, RatedGameRow, RatingRow
from tests.conftest import ALICE, BOB, CAROL, HERE, Clock
from tests.test_ratings import DAVE, ELSEWHERE, GAMES, play

THERE = Place(HERE.channel_id + 7, HERE.guild_id)


async def everything(service: Service) -> tuple[dict[Any, Any], dict[int, Any]]:
    """Every rating row, whole, and every game's mark."""
    async with service.sessions() as session:
        rows = (await session.execute(select(RatingRow))).scalars().all()
        marks = (await session.execute(select(RatedGameRow))).scalars().all()
        return (
            {
                (r.guild_id, r.kind, r.player): (
                    r.name,
                    r.mu,
                    r.sigma,
                    r.games,
                    r.wins,
                    r.best_score,
                    r.updated_at,
                )
                for r in rows
            },
            {m.game_id: (m.changes, m.rated_at) for m in marks},
        )


async def todays_rebuild(service: Service) -> int:
    """The rebuild as it was: forget every rating, then rate every finished game in one
    transaction, in the order they ended, through the code a game's end runs."""
    rated = 0
    async with service.sessions() as session, session.begin():
        await session.execute(delete(RatedGameRow))
        await session.execute(delete(RatingRow))
        games = (
            (
                await session.execute(
                    select(GameRow)
                    .where(GameRow.status == FINISHED, GameRow.result.is_not(None))
                    .order_by(GameRow.updated_at, GameRow.id)
                )
            )
            .unique()
            .scalars()
            .all()
        )
        for row in games:
            writes = repo.Writes()
            if await ratings.record(session, writes, row, row.result or {}, row.updated_at):
                rated += 1
            await repo.run(session, writes)
    return rated


async def several_games(service: Service, clock: Clock) -> int:
    """Games on two servers, a tie and a draw, a game for one (not rated), and a cancelled
    one. Returns how many count."""
    for players, bids, takes in GAMES:
        await play(service, players, bids, takes)
        clock.now += 60
    await play(service, (CAROL, DAVE), (2, 1), (True, False), place=ELSEWHERE)
    await play(service, (ALICE, CAROL, BOB), (1, 2, 3), (True, True, False), place=THERE)
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})).ok
    assert (await service.act(ALICE, HERE, "tiny", "take", {})).ok
    assert (await service.new_game(BOB, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.cancel(BOB, HERE)).ok
    return len(GAMES) + 2


async def test_the_streaming_rebuild_gives_the_ratings_of_the_rebuild_it_replaced(
    service: Service, clock: Clock
) -> None:
    """Rated live, rebuilt as before, rebuilt streaming in pages of two games and batches of
    three rows: the same rows to the last bit, and the same marks. A rating no game gives
    and a wrong one are repaired."""
    counted = await several_games(service, clock)
    live = await everything(service)
    assert await todays_rebuild(service) == counted
    assert await everything(service) == live
    async with service.sessions() as session, session.begin():
        session.add(
            RatingRow(
                guild_id=HERE.guild_id,
                kind="tiny",
                player="u:999",
                name="Ghost",
                mu=40.0,
                sigma=1.0,
                games=9,
                wins=9,
                best_score=None,
                updated_at=0.0,
            )
        )
        alice = await session.get(RatingRow, (HERE.guild_id, "tiny", "u:1"))
        assert alice is not None
        alice.mu += 5
    assert await ratings.rebuild(service.sessions, page=2, batch=3) == counted
    assert await everything(service) == live
    assert await service.rebuild_ratings() == counted, "again: the same, not twice over"
    assert await everything(service) == live


async def test_a_game_ending_during_the_rebuild_counts_once_in_order(
    service: Service, clock: Clock
) -> None:
    """Games end while the rebuild reads the games and while it writes the ratings: each is
    rated once, after the others, as a rebuild run afterwards rates it."""
    await several_games(service, clock)
    ended: list[str] = []

    async def step(name: str) -> None:
        if name not in ended:  # the first step of each kind
            ended.append(name)
            clock.now += 60
            await play(service, (BOB, ALICE), (3, 2), (True, False), place=THERE)

    await ratings.rebuild(service.sessions, page=2, batch=3, step=step)
    assert ended == ["games", "ratings"]
    rebuilt = await everything(service)
    await todays_rebuild(service)
    assert rebuilt == await everything(service)
    assert len(rebuilt[1]) == len(GAMES) + 4


@pytest.mark.parametrize("pause_at", ["games", "ratings"])
async def test_a_command_sent_during_the_rebuild_is_answered_while_it_runs(
    service: Service, clock: Clock, pause_at: str
) -> None:
    """The rebuild stops between two of its transactions until a new game's command has been
    answered: the answer comes while the rebuild has not finished (the rebuild it replaced
    held SQLite's writer from its first write to its end)."""
    await several_games(service, clock)
    paused, go = asyncio.Event(), asyncio.Event()

    async def step(name: str) -> None:
        if name == pause_at and not paused.is_set():
            paused.set()
            await go.wait()

    rebuild = asyncio.create_task(ratings.rebuild(service.sessions, page=2, batch=3, step=step))
    await asyncio.wait_for(paused.wait(), 60)
    reply = await asyncio.wait_for(service.new_game(CAROL, Place(999, 10), "tiny", {}), 60)
    assert reply.ok, "answered"
    assert (await service.join(BOB, Place(999, 10))).ok
    assert not rebuild.done(), "while the rebuild is still running"
    go.set()
    await rebuild
    before = await everything(service)
    await todays_rebuild(service)
    assert await everything(service) == before
