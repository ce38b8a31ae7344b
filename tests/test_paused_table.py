"""A table the bot cannot post to waits: its deadlines are set aside while paused, and come
back later by as long as the pause lasted, so nobody's seat plays its default meanwhile."""

from __future__ import annotations

from bot.service import Service
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, Clock
from tests.test_service import HERE, started

HOUR = 3600


async def _due(service: Service) -> dict[tuple[int, str], float]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        return {key: d.due_at for key, d in (await repo.deadlines_of(session, row.id)).items()}


async def test_a_paused_table_plays_no_default_and_loses_no_time(
    service: Service, clock: Clock
) -> None:
    await started(service, ALICE, BOB)
    await service.settings(ALICE, HERE, deadline_minutes=60, reminder_minutes=0)
    before = await _due(service)
    assert await service.pause(HERE.channel_id, ("send_messages",)) == ALICE.user_id
    assert await service.pause(HERE.channel_id, ("send_messages",)) is None, "the host hears once"
    clock.now += 3 * HOUR  # far past every deadline
    assert await service.run_deadlines() == [], "no default, no reminder while paused"
    await service.resume(HERE.channel_id)
    after = await _due(service)
    assert after == {key: due + 3 * HOUR for key, due in before.items()}
    clock.now = max(after.values()) + 1
    out = await service.run_deadlines()
    assert any("ran out of time" in o.message.whole for o in out), "and then the game goes on"


async def test_a_move_made_while_paused_plans_its_deadlines_aside(
    service: Service, clock: Clock
) -> None:
    await started(service, ALICE, BOB)
    await service.settings(ALICE, HERE, deadline_minutes=60, reminder_minutes=0)
    await service.pause(HERE.channel_id)
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})).ok
    assert (await service.act(BOB, HERE, "tiny", "bid", {"amount": 1})).ok  # a new phase
    clock.now += 2 * HOUR
    assert await service.run_deadlines() == []
    await service.resume(HERE.channel_id)
    # planned at the move for an hour on, then later by the two hours of the pause
    assert set((await _due(service)).values()) == {clock.now + HOUR}


async def test_resuming_gives_the_table_as_it_stands_once(service: Service, clock: Clock) -> None:
    await started(service, ALICE, BOB)
    await service.pause(HERE.channel_id, ("send_messages",))
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})).ok
    host, table = await service.resume(HERE.channel_id)
    assert host == ALICE.user_id
    [post] = table
    assert "I can post here again" in post.message.whole
    assert "Alice is ready" in post.message.text, "who has moved already shows"
    assert post.message.mentions == (BOB.user_id,) and post.message.buttons, "Bob is asked"
    assert post.slot is not None and post.slot.role == "phase", "readiness edits go to it"
    assert await service.resume(HERE.channel_id) == (None, []), "only once"
