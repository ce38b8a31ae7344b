"""``RETENTION_DAYS`` (off by default): the games closed more than that many days ago are
deleted, a few at a time, with their seats, logs and marks; open games and the ratings stay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bot import cli
from bot.service import Place, Service
from bot.store.models import (
    ActionRow,
    GameLogRow,
    GameRow,
    RatedGameRow,
    RatingRow,
    SeatRow,
)
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.test_ratings import play

DAY = 86400.0


async def counts(service: Service) -> dict[str, int]:
    async with service.sessions() as session:
        return {
            table.__tablename__: int(
                (await session.execute(select(func.count()).select_from(table))).scalar() or 0
            )
            for table in (GameRow, SeatRow, ActionRow, GameLogRow, RatedGameRow, RatingRow)
        }


async def test_games_closed_before_the_retention_are_deleted(
    service: Service, clock: Clock
) -> None:
    """Five finished games and a cancelled one, then a recent game and an old open one: only
    the old closed games go, in batches of two, with everything that hangs from them."""
    for n in range(5):
        await play(service, (ALICE, BOB), (3, 1), (False, False), place=Place(100 + n, 10))
    assert (await service.new_game(ALICE, Place(200, 10), "tiny", {})).ok
    assert (await service.start(ALICE, Place(200, 10))).ok
    assert (await service.act(ALICE, Place(200, 10), "tiny", "bid", {"amount": 1})).ok
    assert (await service.cancel(ALICE, Place(200, 10))).ok
    assert (await service.new_game(BOB, Place(300, 10), "tiny", {})).ok  # open, and stays
    clock.now += 31 * DAY
    await play(service, (ALICE, BOB), (1, 3), (False, False), place=HERE)  # recent
    ratings = await counts(service)
    assert ratings["games"] == 8 and ratings["game_logs"] == 7

    assert await service.prune(30, batch=2) == 6
    left = await counts(service)
    assert left == {
        "games": 2,
        "seats": 3,
        "actions": 0,
        "game_logs": 1,
        "rated_games": 1,
        "ratings": ratings["ratings"],
    }
    async with service.sessions() as session:
        kept = (await session.execute(select(GameRow.channel_id))).scalars().all()
    assert sorted(kept) == [HERE.channel_id, 300]
    assert await service.prune(30) == 0, "nothing more to delete"


def test_the_prune_command_needs_a_number_of_days(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'p.db'}")
    monkeypatch.delenv("RETENTION_DAYS", raising=False)
    assert cli.main(["prune"]) == cli.USAGE
    assert "--days" in capsys.readouterr().err
    assert cli.main(["prune", "--days", "30"]) == 0
    assert "deleted 0 games" in capsys.readouterr().out
    assert os.path.exists(tmp_path / "p.db")
