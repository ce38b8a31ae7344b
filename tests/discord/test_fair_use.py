"""Fair use through discord.py and the fake Discord: over the budget, the answer is private."""

from __future__ import annotations

from bot.service.fairuse import BUDGETS, LOOK
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_a_user_over_the_budget_is_told_privately_to_wait(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    for _ in range(BUDGETS[LOOK].user.uses):
        page = await (await fake.slash(alice, "game history")).result()
        assert "try again" not in page.content
    refused = await (await fake.slash(alice, "game history")).result()
    assert refused.ephemeral and "try again in 20 s" in refused.content
    assert fake.in_channel() == [], "nothing public"
    other = await (await fake.slash(bob, "game history")).result()
    assert "try again" not in other.content, "another user is not affected"
    clock.now += BUDGETS[LOOK].user.seconds
    again = await (await fake.slash(alice, "game history")).result()
    assert "try again" not in again.content
