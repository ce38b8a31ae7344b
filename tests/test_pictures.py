"""One picture per turn: text alone for the steps inside a turn (the game's picture_key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import Service
from rules.core import get_game
from tests.conftest import ALICE, BOB, HERE, Clock


async def test_zvv_posts_text_for_the_roll_and_a_picture_after_the_move(
    tmp_path: Path, clock: Clock
) -> None:
    try:
        zvv = get_game("zvv")
    except Exception:
        pytest.skip("zvv not registered")
    service = await Service.open(
        f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", clock=clock, render=True
    )
    await service.new_game(ALICE, HERE, "zvv", {})
    await service.join(BOB, HERE)
    start = await service.start(ALICE, HERE)
    assert start.public[0].message.image is not None, "the opening table is drawn"
    async with service.sessions() as session:
        from bot.store import repository as repo

        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state is not None
        first = next(iter(zvv.pending(zvv.load(row.state))))
    player = (ALICE, BOB)[first]
    rolled = await service.act(player, HERE, "zvv", "roll", {})
    assert rolled.ok
    (after_roll,) = rolled.public
    assert after_roll.message.image is None, "a roll inside a turn is narrated, not drawn"
    # Finish the turn with the default action of whatever the roll asks for.
    outgoing = []
    clock.now += 2 * 86400
    outgoing = await service.run_deadlines()
    assert any(o.message.image is not None for o in outgoing), "the end of the turn is drawn"
    await service.close()
