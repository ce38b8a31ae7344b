"""A table where the bot may not post waits, and costs Discord no request meanwhile.

Discord bans a bot's address after 10,000 refused requests in 10 minutes, so a channel that
refuses the bot (no Send Messages, a locked thread) must not get a post per move, deadline and
reminder. Here a game's thread loses the bot's permission in each way Discord can tell it: one
refused post (the cache did not know), the interaction's ``app_permissions``, the gateway's
cache (a channel overwrite, a locked thread). Each time: at most one refused request, the host
told once, no deadline runs out, the moves are saved, and the table comes back, once, with its
deadlines later by as long as it waited.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.discord.channels import Blocked
from bot.discord.client import PartidaBot
from bot.service import Service
from bot.store import repository as repo
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord, FakeUser, Sent
from tests.fakediscord import payloads as p

MINUTE = 60.0
POSTS = ("POST", "/channels/{channel}/messages")
EDITS = ("PATCH", "/channels/{channel}/messages/{message}")


async def tiny_in_thread(
    fake: FakeDiscord, alice: FakeUser, bob: FakeUser, *, deadline: int = 10
) -> tuple[int, Sent]:
    """A started two-player tiny game in its thread, ``deadline`` minutes a move: the thread's
    id and the first phase's message (the host, Alice, has bid already)."""
    await (await fake.slash(alice, "tiny new", rounds=3)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game settings", deadline=deadline, reminder=0)).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    thread = next(iter(fake.threads))
    phase = fake.in_channel(thread)[-1]
    await (await fake.click(alice, phase, "bid 2")).result()
    await fake.idle()
    return thread, phase


async def due_times(bot: PartidaBot, channel: int) -> list[float]:
    """When the deadlines of the game in ``channel`` fall due."""
    service = bot.get_service()
    assert isinstance(service, Service)
    async with service.sessions() as session:
        row = await repo.open_game(session, channel)
        assert row is not None
        return sorted(d.due_at for d in (await repo.deadlines_of(session, row.id)).values())


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


async def test_a_refused_post_pauses_the_table_until_the_bot_may_post_again(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    # Someone takes Send Messages from the bot in the thread; the gateway has not said so.
    fake.forbidden.add(thread)

    clock.now += 11 * MINUTE  # Bob's deadline: his default bid is played, the post refused
    bot.wake_deadlines()
    await until(lambda: bool(fake.refused))
    await fake.idle()
    assert fake.refused == [(thread, 50013)], "one refused request"
    [told] = fake.to(alice)
    assert f"<#{thread}>" in told.content and "Send Messages" in told.content
    paused_at = clock.now

    # Play goes on by commands (the channel saw no phase message to click): each move is
    # saved and answered privately, with no request to the thread.
    calls = len(fake.calls)
    posted = len(fake.posted)
    for user, command in ((alice, "tiny take"), (bob, "tiny take"), (alice, "tiny bid")):
        options = {"amount": 1} if command.endswith("bid") else {}
        answer = await (await fake.slash(user, command, channel_id=thread, **options)).result()
        assert answer.ephemeral and "Recorded" in answer.content, answer.content
        assert "What you did is saved" in answer.content
    clock.now += 3 * 60 * MINUTE  # far past every deadline: none runs out while it waits
    bot.wake_deadlines()
    await fake.idle()
    assert fake.refused == [(thread, 50013)], "still that one refused request"
    assert len(fake.posted) == posted and EDITS not in fake.calls[calls:]
    # Only the interactions' own calls: their defers and answers.
    assert all(
        call[1]
        in ("/interactions/{id}/{token}/callback", "/webhooks/{app}/{token}/messages/{message}")
        for call in fake.calls[calls:]
    )
    assert len(fake.to(alice)) == 1, "the host was told once"

    fake.forbidden.discard(thread)  # the permission is back
    status = await fake.slash(bob, "game status", channel_id=thread)
    await status.result()
    await fake.idle()
    [table] = fake.posted[posted:]
    assert table.channel_id == thread and "I can post here again" in table.text
    assert "<@102>" in table.content and table.buttons, "Bob is awaited, with his buttons"
    assert "Alice is ready" in table.content, "who has bid already shows"
    resumed = fake.to(alice)[-1]
    assert "goes on" in resumed.content and len(fake.to(alice)) == 2
    # Bob's bid, asked for by the last move (at the pause's start on this clock), was due ten
    # minutes later; it comes due later by as long as the table waited.
    [bob_due] = await due_times(bot, thread)
    assert bob_due == paused_at + 10 * MINUTE + (clock.now - paused_at)

    clock.now = bob_due + 1  # and then deadlines run again
    bot.wake_deadlines()
    await until(lambda: len(fake.posted) > posted + 1)
    assert "ran out of time" in fake.posted[-1].text


async def test_app_permissions_keep_the_table_from_posting_and_the_cache_brings_it_back(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    # An admin denies the bot Send Messages in Threads in the channel (the gateway says so).
    await fake.deny(fake.channel_id, p.SEND_MESSAGES_IN_THREADS)
    await fake.idle()
    calls, posted = len(fake.calls), len(fake.posted)

    answer = await (await fake.click(bob, phase, "bid 1")).result()  # the phase resolves
    await fake.idle()
    assert answer.ephemeral and "Recorded" in answer.content
    assert (
        "Send Messages in Threads" in answer.content and "What you did is saved" in answer.content
    )
    assert len(fake.posted) == posted and not fake.refused, "no post, not even a refused one"
    [told] = fake.to(alice)  # the host, by direct message, once
    assert "Send Messages in Threads" in told.content
    answer = await (await fake.slash(alice, "tiny take", channel_id=thread)).result()
    assert "What you did is saved" in answer.content
    clock.now += 60 * MINUTE
    bot.wake_deadlines()
    await fake.idle()
    assert len(fake.posted) == posted and not fake.refused and len(fake.to(alice)) == 1
    assert EDITS not in fake.calls[calls:], "not even the readiness edit"
    # The only posts: the DM to the host (opening the DM channel, then the message).
    assert fake.calls[calls:].count(POSTS) == 1

    await fake.allow(fake.channel_id)  # the gateway tells the bot; nobody needs to type
    await until(lambda: len(fake.posted) > posted)
    await fake.idle()
    [table] = fake.posted[posted:]
    assert table.channel_id == thread and "<@102>" in table.content
    assert "goes on" in fake.to(alice)[-1].content


async def test_a_locked_thread_waits_for_a_moderator_to_reopen_it(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    fake.dms_closed.add(alice.id)  # and the host takes no direct messages
    await fake.lock(thread)
    await fake.idle()
    posted = len(fake.posted)

    clock.now += 11 * MINUTE  # Bob's default is played; its post is refused
    bot.wake_deadlines()
    await until(lambda: len(fake.refused) == 2)
    await fake.idle()
    # discord.py keeps no archived thread in its cache: one post finds out, then the DM
    # to the host is refused too, and nothing more is tried.
    assert fake.refused[0] == (thread, 50083) and fake.refused[1][1] == 50007
    assert len(fake.posted) == posted
    # Discord delivers no application command from an archived thread (issue 23): Bob's
    # /game status there never reaches the bot.
    assert (await fake.slash(bob, "game status", channel_id=thread)).refused
    clock.now += 60 * MINUTE
    bot.wake_deadlines()
    await fake.idle()
    assert len(fake.refused) == 2, "nothing is tried again"

    await fake.lock(thread, locked=False)
    await until(lambda: len(fake.posted) > posted)
    await fake.idle()
    assert "I can post here again" in fake.posted[-1].text


async def test_a_spanish_server_hears_it_in_spanish(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    fake.guild_locale = "es-ES"
    await bots.start()
    ana, beto = fake.add_user(101, "Ana", "es-ES"), fake.add_user(102, "Beto", "es-ES")
    thread, phase = await tiny_in_thread(fake, ana, beto)
    await fake.deny(fake.channel_id, p.SEND_MESSAGES_IN_THREADS | p.ATTACH_FILES)
    answer = await (await fake.click(beto, phase, "bid 1")).result()
    await fake.idle()
    assert "Enviar mensajes en hilos, Adjuntar archivos" in answer.content
    assert "queda guardado" in answer.content
    [told] = fake.to(ana)
    assert "está en pausa" in told.content and f"<#{thread}>" in told.content


async def test_a_table_resumed_by_another_process_posts_its_deadlines_here(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    # This process blocked the thread once; the process of the guild's shard has since seen
    # a command there and resumed the table (the service plans its deadlines again).
    bot.outbox.blocked[thread] = Blocked(("send_messages_in_threads",), foreseen=False)
    posted = len(fake.posted)

    clock.now += 11 * MINUTE
    bot.wake_deadlines()
    await until(lambda: len(fake.posted) > posted)
    assert "ran out of time" in fake.posted[-1].text and thread not in bot.outbox.blocked
