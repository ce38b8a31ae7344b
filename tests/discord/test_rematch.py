"""Rematch through discord.py and the fake Discord: the closing message's button, in the game's
thread, which stays open while the rematch is played; and the history's entries."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from bot.service.deadlines import ARCHIVE
from bot.store.models import DeadlineRow
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


@pytest.mark.usefixtures("quick_windows")
async def test_the_rematch_button_on_the_closing_message(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new", rounds=1)).result()
    await (await fake.slash(bob, "game join")).result()
    await fake.idle()
    (thread,) = fake.threads
    await (await fake.slash(alice, "game start", channel_id=thread)).result()
    for user, command, args in (
        (alice, "tiny bid", {"amount": 3}),
        (bob, "tiny bid", {"amount": 1}),
        (alice, "tiny pass", {}),
        (bob, "tiny pass", {}),
    ):
        await (await fake.slash(user, command, channel_id=thread, **args)).result()
    await fake.idle()
    closing = fake.in_channel(thread)[-1]
    assert "Winner: Alice" in closing.content and set(closing.buttons) == {"Rematch"}
    asked = await (await fake.click(alice, closing, "Rematch")).result()
    assert asked.ephemeral and "rematch" in asked.content
    await fake.idle()
    lobby = fake.in_channel(thread)[-1]
    assert "Rematch of" in lobby.content and "Waiting for: Bob" in lobby.content
    assert set(lobby.buttons) == {"Rematch", "Leave", "Start"}
    assert list(fake.threads) == [thread], "the rematch is played in the game's thread"
    await (await fake.click(bob, lobby, "Rematch")).result()
    await fake.idle()
    begun = fake.in_channel(thread)[-1]
    assert "begins" in begun.text and set(begun.buttons) == {"bid 1", "bid 2", "bid 3"}
    status = await (await fake.slash(bob, "game status", channel_id=thread)).result()
    assert status.content.index("Bob") < status.content.index("Alice"), "Bob sits first now"

    # The first game's thread was due to be archived an hour after its end: not while its
    # rematch is being played there.
    clock.now += 3601
    bot.wake_deadlines()
    service = bot.get_service()
    for _ in range(100):
        async with service.sessions() as session:
            due = (
                await session.execute(select(DeadlineRow).where(DeadlineRow.kind == ARCHIVE))
            ).all()
        if not due:
            break
        await asyncio.sleep(0.05)
    assert not due and not fake.archived(thread)

    history = await (await fake.slash(bob, "game history")).result()
    assert history.ephemeral and "Finished games in this channel" in history.content
    assert "Bob (−" in history.text, "each player's rating change"
    assert set(history.buttons) == {"Replay #1"}
    pressed = await fake.click(bob, history, "Replay #1")
    answer = await pressed.result()
    assert answer.ephemeral and "replay of game 1" in answer.content
