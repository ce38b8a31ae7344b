"""The deadline loop sleeps until its next due deadline: a command wakes it only when it wrote
a sooner one (a pass after every command cost two statements of the command's six)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def _settled(passes: list[float], at_least: int) -> int:
    """The number of passes once the loop has made ``at_least`` and has gone back to sleep."""
    for _ in range(200):
        if len(passes) >= at_least:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    return len(passes)


async def test_a_command_wakes_the_loop_only_for_a_sooner_deadline(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    service = bot.get_service()
    passes: list[float] = []
    run = service.run_deadlines

    async def counted(guild_id: int | None = None) -> Any:
        passes.append(bot.clock())
        return await run(guild_id)

    service.run_deadlines = counted  # type: ignore[method-assign]  # counting, then the real one
    bot.wake_deadlines()
    seen = await _settled(passes, 1)
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "game mine")).result()
    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game settings", deadline=10, reminder=0)).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    assert await _settled(passes, seen) == seen, "no sooner deadline: no pass"
    assert await service.next_deadline() is not None, "the start wrote deadlines, 10 min away"
    # Moves by button, the last resolving the phase: the next phase's deadlines are written,
    # 10 minutes away again, later than the loop's next look: no pass either.
    phase = fake.in_channel()[-1]
    await (await fake.click(alice, phase, "bid 3")).result()
    await (await fake.click(bob, phase, "bid 1")).result()
    await fake.idle()
    assert "The bids are shown." in fake.in_channel()[-1].text, "the phase resolved"
    assert await _settled(passes, seen) == seen, "moves that move no deadline sooner: no pass"

    # A deadline sooner than the loop's next look (30 s of the test's clock away at most):
    # the clock is set back an hour, so the next game's 10-minute deadline falls before it.
    await (await fake.slash(alice, "game cancel")).result()
    await fake.idle()
    seen = await _settled(passes, seen)
    clock.now -= 3600
    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game settings", deadline=10, reminder=0)).result()
    await fake.idle()
    assert await _settled(passes, seen) == seen, "a lobby writes no deadline"
    await (await fake.slash(alice, "game start")).result()
    assert await _settled(passes, seen + 1) == seen + 1, "the sooner deadline woke the loop"
