"""A thread per game: the lobby in the channel, the game in a thread opened from it, several
games side by side, the result back in the channel, the thread archived an hour later; and the
channel itself when the bot may not open threads."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CHANNEL, Fault


async def a_while_later(
    fake: FakeDiscord, bot: Any, clock: Clock, thread: int, seconds: float = 3601
) -> None:
    """``seconds`` pass (an hour; the deadline loop woken): give the thread's archive a moment
    to go out (retried after a failure)."""
    clock.now += seconds
    bot.wake_deadlines()
    for _ in range(200):
        if fake.archived(thread):
            return
        await asyncio.sleep(0.05)


async def test_each_game_is_played_in_its_own_thread(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob, carol = (fake.add_user(101 + i, n) for i, n in enumerate(("Alice", "Bob", "Cy")))
    await (await fake.slash(alice, "tiny new", rounds=1)).result()
    await fake.idle()
    [lobby] = fake.in_channel()
    assert list(fake.threads) == [int(lobby.message["id"])], "a thread from the lobby message"
    thread = next(iter(fake.threads))
    assert fake.threads[thread]["parent_id"] == str(fake.channel_id)

    await (await fake.click(bob, lobby, "Join")).result()  # the button in the channel
    await (await fake.slash(carol, "tiny new")).result()  # a second game, same channel
    await fake.idle()
    assert len(fake.threads) == 2
    where = await (await fake.slash(bob, "game status")).result()
    assert "2 games here" in where.content and f"<#{thread}>" in where.content

    await (await fake.slash(alice, "game start", channel_id=thread)).result()
    await fake.idle()
    phase = fake.in_channel(thread)[-1]
    assert phase.buttons and "<@102>" in phase.content, "the game goes on in its thread"
    assert "has begun" in fake.in_channel()[0].content, "the lobby message says so"
    for user, label in ((alice, "bid 3"), (bob, "bid 1")):
        await (await fake.click(user, phase, label)).result()
    await fake.idle()
    phase = fake.in_channel(thread)[-1]
    await (await fake.click(alice, phase, "take")).result()
    await fake.idle()
    phase = fake.in_channel(thread)[-1]
    await (await fake.click(bob, phase, "pass")).result()
    await fake.idle()
    assert "Winner: Alice" in fake.in_channel(thread)[-1].content
    result = fake.in_channel()[-1]
    assert "Winner: Alice" in result.content and f"<#{thread}>" in result.content

    assert not fake.archived(thread)
    await a_while_later(fake, bot, clock, thread)
    assert fake.archived(thread), "an hour after the end its thread is archived"


@pytest.mark.usefixtures("quick_windows")
async def test_without_thread_permissions_the_game_stays_in_the_channel(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    fake.threads_allowed = False
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new")).result()
    await fake.idle()
    lobby, notice = fake.in_channel()
    assert "may not create threads" in notice.content
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    assert fake.in_channel()[-1].buttons, "played in the channel"
    await (await fake.slash(alice, "game cancel")).result()
    await (await fake.slash(alice, "tiny new")).result()
    await fake.idle()
    assert sum("may not create threads" in s.content for s in fake.in_channel()) == 1, "once"


async def test_a_cancelled_games_thread_is_archived_a_minute_later(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    """Not only a finished game's: a cancelled one's thread would otherwise stay among the
    server's active threads (and in discord.py's memory) for a week. A cancelled game has no
    last words to wait for: its thread is archived a minute after the cancel (the table's last
    edits and pictures land first), also when Discord fails the archive once (503)."""
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new", rounds=1)).result()
    await (await fake.slash(bob, "game join")).result()
    await fake.idle()
    thread = next(iter(fake.threads))
    await (await fake.slash(alice, "game start", channel_id=thread)).result()
    await (await fake.slash(alice, "game cancel", channel_id=thread)).result()
    await fake.idle()
    assert not fake.archived(thread), "the cancel's words and the table's last edits first"
    outage = fake.inject(Fault(method="PATCH", route=CHANNEL, status=503))
    await a_while_later(fake, bot, clock, thread, seconds=61)
    assert fake.archived(thread), "a minute after the cancel its thread is archived"
    assert outage.hits == 1, "Discord failed the archive first; the sender tried again"
