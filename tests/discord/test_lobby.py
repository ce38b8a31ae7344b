"""The lobby through the real discord.py client and the fake Discord."""

from __future__ import annotations

from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_new_join_start_cancel(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    bob = fake.add_user(102, "Bob")

    opened = await (await fake.slash(alice, "game new tiny", rounds=3)).result()
    await fake.idle()
    for s in fake.messages.values():
        print(s.kind, s.ephemeral, s.content, s.buttons)
    joined = await (await fake.slash(bob, "game join")).result()
    started = await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    for s in fake.messages.values():
        print(s.kind, s.ephemeral, s.content, s.buttons, s.allowed_mentions)
