"""Rematch through discord.py and the fake Discord: the closing message's button."""

from __future__ import annotations

from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_the_rematch_button_on_the_closing_message(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "game new tiny", rounds=1)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await (await fake.slash(alice, "tiny bid", amount=3)).result()
    await (await fake.slash(bob, "tiny bid", amount=1)).result()
    await (await fake.slash(alice, "tiny pass")).result()
    await (await fake.slash(bob, "tiny pass")).result()
    await fake.idle()
    closing = fake.in_channel()[-1]
    assert "Winner: Alice" in closing.content and set(closing.buttons) == {"Rematch"}
    asked = await (await fake.click(alice, closing, "Rematch")).result()
    assert asked.ephemeral and "rematch" in asked.content
    await fake.idle()
    notice = fake.in_channel()[-1]
    assert "Alice asks for a rematch" in notice.content and "Waiting for: Bob" in notice.content
    await (await fake.click(bob, notice, "Rematch")).result()
    await fake.idle()
    begun = fake.in_channel()[-1]
    assert "begins" in begun.content and set(begun.buttons) == {"bid 1", "bid 2", "bid 3"}
    status = await (await fake.slash(bob, "game status")).result()
    assert status.content.index("Bob") < status.content.index("Alice"), "Bob sits first now"
    history = await (await fake.slash(bob, "game history")).result()
    assert history.ephemeral and "(page 1 of 1)" in history.content and "Bob (−" in history.content
    assert set(history.buttons) == {"Replay #1"}
    pressed = await fake.click(bob, history, "Replay #1")
    answer = await pressed.result()
    assert pressed.deferred and "replay of game 1" in answer.content
