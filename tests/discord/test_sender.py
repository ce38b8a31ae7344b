"""The sender: what a committed move owes a channel reaches it, whatever Discord does meanwhile.

Each post is recorded with its move (``deliveries``), sent by its channel's own task, retried
until Discord takes it, also after a restart, never twice (Discord's nonce), and a channel
that waits (a rate limit, an outage) delays no other. A deleted thread pauses its game; an
archived thread is reopened before an edit; no thread is asked for without the permission.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.service import Service
from bot.service.replies import Message, Outgoing, Slot
from bot.service.text import Text
from bot.store import repository as repo
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.discord.test_paused_channel import MINUTE, POSTS, tiny_in_thread, until
from tests.fakediscord import FakeDiscord, faults
from tests.fakediscord import payloads as p
from tests.fakediscord.faults import Fault, Request

THREADS = ("POST", "/channels/{channel}/messages/{message}/threads")
CHANNEL_EDITS = ("PATCH", "/channels/{channel}")


async def owed_now(bots: Bots, clock: Clock) -> tuple[int, float | None]:
    service = await Service.open(bots.database, render=False, clock=clock)
    try:
        return await service.waiting()
    finally:
        await service.close()


async def test_a_post_owed_when_the_bot_stopped_goes_out_after_the_restart(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    await bots.stop(bot)
    # The process commits Bob's default bid (a new round: Alice's turn) and stops before it
    # sends anything: the service alone, as the bot runs it.
    service = await Service.open(bots.database, render=False, clock=clock)
    service.owes = True
    clock.now += 11 * MINUTE
    owed = [o for o in await service.run_deadlines() if not o.edit]
    await service.close()
    assert owed and all(o.delivery for o in owed), "recorded with the move"
    posted = len(fake.posted)

    await bots.start()
    await until(lambda: len(fake.posted) > posted, timeout=30)
    await fake.idle()
    sent = fake.posted[posted:]
    assert [s.channel_id for s in sent] == [thread] * len(sent)
    assert any("<@101>" in s.content for s in sent), "Alice is called to the new round"
    assert await owed_now(bots, clock) == (0, None), "settled once Discord took it"


async def test_a_deleted_thread_pauses_its_game_and_the_host_hears_once_where_to_go_on(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    await fake.delete_channel(thread)  # a moderator deletes the game's thread

    clock.now += 11 * MINUTE  # Bob's default bid: its posts find the thread gone
    bot.wake_deadlines()
    await until(lambda: bool(fake.to(alice)), timeout=30)
    await fake.idle()
    [told] = fake.to(alice)
    assert "was deleted" in told.content and f"<#{fake.channel_id}>" in told.content
    refused = [r for r in fake.requests if r.channel_id == thread and r.status == 404]
    assert len(refused) == 1, "one request finds it gone; nothing more is sent there"
    clock.now += 24 * 60 * MINUTE  # paused: no deadline runs out, nothing more is tried
    calls = len(fake.calls)
    bot.wake_deadlines()
    await fake.idle()
    assert fake.calls[calls:] == [] and len(fake.to(alice)) == 1, "told once"

    # Any game command in the channel the thread hung from brings the table back there.
    await (await fake.slash(bob, "game status")).result()
    await until(lambda: any("goes on here" in s.text for s in fake.in_channel()), timeout=30)
    await fake.idle()
    table = fake.in_channel(fake.channel_id)[-1]
    assert "thread was deleted" in table.text and "<@101>" in table.content
    assert table.buttons, "played on in the channel"


async def test_an_archived_thread_is_reopened_before_an_edit(fake: FakeDiscord, bots: Bots) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    fake.threads[thread]["thread_metadata"]["archived"] = True  # it archived by itself
    calls = len(fake.calls)

    message_id = int(phase.message["id"])
    edit = Outgoing(
        thread, Message(Text.of("✅ Bob is ready.")), Slot(1, "phase", "?"), True, message_id
    )
    bot.outbox.enqueue(edit)
    await until(lambda: "✅ Bob is ready." in fake.messages[message_id].content, timeout=30)
    await fake.idle()
    assert not fake.archived(thread)
    done = fake.calls[calls:]
    assert CHANNEL_EDITS in done and done.index(CHANNEL_EDITS) < len(done) - 1, "reopened first"
    assert done[-1] == ("PATCH", "/channels/{channel}/messages/{message}")


async def test_a_thread_the_gateway_said_archived_is_reopened_without_a_refused_edit(
    fake: FakeDiscord, bots: Bots
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    await fake.archive(thread)  # it archives after its quiet time: THREAD_UPDATE says so
    await until(lambda: bot.get_channel(thread) is None, timeout=30)  # the bot heard it
    requests = len(fake.requests)

    message_id = int(phase.message["id"])
    edit = Outgoing(
        thread, Message(Text.of("✅ Bob is ready.")), Slot(1, "phase", "?"), True, message_id
    )
    bot.outbox.enqueue(edit)
    await until(lambda: "✅ Bob is ready." in fake.messages[message_id].content, timeout=30)
    await fake.idle()
    assert not fake.archived(thread)
    assert faults.invalid(fake.requests[requests:]) == [], "no edit refused for the archive"


async def test_no_thread_is_asked_for_without_create_public_threads(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    await fake.deny(fake.channel_id, p.CREATE_PUBLIC_THREADS)
    alice = fake.add_user(101, "Alice")
    await (await fake.slash(alice, "tiny new")).result()
    await fake.idle()
    lobby, notice = fake.in_channel()
    assert "may not create threads" in notice.content
    assert THREADS not in fake.calls, "no request Discord would refuse"


async def test_the_games_message_bookkeeping_ends_with_the_game(
    fake: FakeDiscord, bots: Bots
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    assert any(channel == thread for channel, _ in bot.outbox.known.values())
    async with bot.get_service().sessions() as session:
        row = await repo.open_game(session, thread)
        assert row is not None
    bot.outbox.enqueue(Outgoing(thread, Message(Text()), archive=True))  # the game ended
    await until(lambda: fake.archived(thread), timeout=30)
    assert not any(channel == thread for channel, _ in bot.outbox.known.values())
    assert POSTS  # (the posts route, shared with the paused-channel tests)


# ---------------------------------------------------------------------- Discord failing


def posts_to(fake: FakeDiscord, channel: int) -> list[Request]:
    return [r for r in fake.requests if r.route == faults.POST and r.channel_id == channel]


async def test_a_post_answered_503_goes_out_later(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    outage = fake.inject(Fault(method="POST", route=faults.POST, channel_id=thread, status=503))
    before = len(fake.in_channel(thread))

    await (await fake.click(bob, phase, "bid 1")).result()  # the round resolves: a new post
    await until(lambda: len(fake.in_channel(thread)) > before, timeout=30)
    await fake.idle()
    assert outage.hits == 1
    assert [r.status for r in posts_to(fake, thread)][-2:] == [503, 200], "tried again"
    [table] = fake.in_channel(thread)[before:]
    assert "<@101>" in table.content, "Alice is called to take"
    assert "The bids are shown." in table.text, "with what happened"


async def test_a_post_answered_500_after_the_librarys_retries_goes_out_later(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    # discord.py tries a 500 five times (sleeping 1, 3, 5, 7 s) before it gives up.
    outage = fake.inject(
        Fault(method="POST", route=faults.POST, channel_id=thread, status=500, times=5)
    )
    before = len(fake.in_channel(thread))

    await (await fake.click(bob, phase, "bid 1")).result()
    await until(lambda: len(fake.in_channel(thread)) > before, timeout=40)
    await fake.idle()
    assert outage.hits == 5
    [table] = fake.in_channel(thread)[before:]
    assert "<@101>" in table.content


async def test_a_post_answered_429_goes_out_after_the_wait(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    # More 429s in a row than discord.py retries by itself (5): the sender takes over.
    limit = fake.inject(
        Fault(route=faults.POST, channel_id=thread, status=429, retry_after=0.2, times=6)
    )
    before = len(fake.in_channel(thread))

    await (await fake.click(bob, phase, "bid 1")).result()
    await until(lambda: len(fake.in_channel(thread)) > before, timeout=40)
    await fake.idle()
    assert limit.hits == 6
    [table] = fake.in_channel(thread)[before:]
    assert "<@101>" in table.content


async def test_tables_owed_during_an_outage_come_as_the_newest_with_the_whole_story(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    outage = fake.inject(
        Fault(method="POST", route=faults.POST, channel_id=thread, status=503, times=None)
    )
    before = len(fake.in_channel(thread))
    await (await fake.click(bob, phase, "bid 1")).result()  # the round: Alice to take
    await until(lambda: outage.hits >= 1, timeout=30)
    await (await fake.slash(alice, "tiny pass", channel_id=thread)).result()  # Bob to take
    fake.clear_faults()

    await until(lambda: len(fake.in_channel(thread)) > before, timeout=40)
    await fake.idle()
    [table] = fake.in_channel(thread)[before:]
    assert "<@102>" in table.content and "<@101>" not in table.content, "the newest table"
    assert "The bids are shown." in table.text, "what happened before it, told first"


async def test_a_crash_between_discords_answer_and_the_record_posts_nothing_twice(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, phase = await tiny_in_thread(fake, alice, bob)
    settle = bot.outbox._settle

    async def crashed(rows: tuple[int, ...]) -> None:
        """The process dies after Discord's 200, before the rows are deleted."""

    bot.outbox._settle = crashed  # type: ignore[method-assign]  # the crash in its place
    before = len(fake.in_channel(thread))
    await (await fake.click(bob, phase, "bid 1")).result()
    await until(lambda: len(fake.in_channel(thread)) > before, timeout=30)
    await fake.idle()
    await bots.stop(bot)
    assert (await owed_now(bots, clock))[0] >= 1, "still owed, as after a crash"
    tried = len(posts_to(fake, thread))

    bot = await bots.start()
    await until(lambda: len(posts_to(fake, thread)) > tried, timeout=30)
    await until(lambda: not bot.outbox.busy, timeout=30)
    await fake.idle()
    assert len(fake.in_channel(thread)) == before + 1, "Discord gave the earlier message back"
    assert await owed_now(bots, clock) == (0, None)
    assert settle is not None


async def test_one_channels_rate_limit_does_not_delay_another_channel(
    fake: FakeDiscord, bots: Bots
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    carol, dave = fake.add_user(103, "Carol"), fake.add_user(104, "Dave")
    first, first_phase = await tiny_in_thread(fake, alice, bob)
    await (await fake.slash(carol, "tiny new", rounds=3)).result()
    await fake.idle()  # its thread is open
    second = next(t for t in fake.threads if t != first)
    await (await fake.slash(dave, "game join", channel_id=second)).result()
    await (await fake.slash(carol, "game start", channel_id=second)).result()
    await fake.idle()
    second_phase = fake.in_channel(second)[-1]
    await (await fake.click(carol, second_phase, "bid 2")).result()
    await fake.idle()
    # Discord limits the first thread for a minute (a shared resource: discord.py sleeps it
    # out inside the request, in that thread's sender).
    limit = fake.inject(
        Fault(route=faults.POST, channel_id=first, status=429, retry_after=60, scope="shared")
    )
    first_before, second_before = len(fake.in_channel(first)), len(fake.in_channel(second))

    await (await fake.click(bob, first_phase, "bid 1")).result()
    await until(lambda: limit.hits == 1, timeout=30)
    await (await fake.click(dave, second_phase, "bid 1")).result()
    await until(lambda: len(fake.in_channel(second)) > second_before, timeout=30)
    # (Its sender records the post's id before it is done with it: on a loaded machine that
    # takes a moment.)
    await until(lambda: bot.outbox.stats().channels == 1, timeout=30)
    assert len(fake.in_channel(first)) == first_before, "the first thread still waits"
    assert bot.outbox.stats().waiting >= 1 and bot.outbox.stats().channels == 1
    await bots.stop(bot)  # (its post stays owed; not waited for here)


async def test_nothing_stays_owed_once_the_tables_went_out(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    _, phase = await tiny_in_thread(fake, alice, bob)  # posts, edits, a thread, a click
    await (await fake.click(bob, phase, "bid 1")).result()
    await fake.idle()
    assert await owed_now(bots, clock) == (0, None)


async def test_a_game_thread_stays_open_through_a_two_day_deadline(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob, deadline=2 * 24 * 60)
    fake.advance(2 * 24 * 3600 - 60)  # Bob thinks it over for almost two days
    assert not fake.archived(thread), "his slash commands still work there"
    answer = await (await fake.slash(bob, "game status", channel_id=thread)).result()
    assert "Bob" in answer.content


async def test_an_edit_that_comes_before_its_post_waits_for_it(
    fake: FakeDiscord, bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """Seen in bench memory under load: a command's posts reach the sender only once its answer
    went out, so the next command's edit of the same message (the first roll's, of the start's
    table) came first, found no message, and posted the table anew; the start's older table
    then followed it. The edit now waits for its post (``POST_GRACE``): one message, pinging as
    the post does, then edited to the newer table."""
    bot = await bots.start()
    where = fake.channel_id
    slot = Slot(7, "phase", "0.roll.0")
    caplog.set_level(logging.WARNING, logger="bot.discord.edits")
    before = len(fake.in_channel(where))
    bot.outbox.enqueue(Outgoing(where, Message(Text.of("after the roll")), slot=slot, edit=True))
    await asyncio.sleep(0.5)
    bot.outbox.enqueue(Outgoing(where, Message(Text.of("the start: <@101>")), slot=slot))
    await until(lambda: bool(fake.edits) and fake.edits[-1].text == "after the roll", timeout=15)
    await fake.idle()
    [table] = fake.in_channel(where)[before:]
    assert table.text == "after the roll", "the post, edited to the newer table"
    assert [s.content for s in fake.posted if s.channel_id == where][-1] == "the start: <@101>"
    assert not [r for r in caplog.records if "no message to edit" in r.message]


async def test_an_edit_whose_post_never_comes_posts_the_table_anew(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped between a post and its record: after ``POST_GRACE`` the table goes on in
    a new message rather than stall unseen."""
    monkeypatch.setattr("bot.discord.send.POST_GRACE", 0.5)
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread, _ = await tiny_in_thread(fake, alice, bob)
    async with bot.get_service().sessions() as session:
        row = await repo.open_game(session, thread)
    assert row is not None
    before = len(fake.in_channel(thread))
    unknown = Slot(row.id, "phase", "a phase whose post this process never saw")
    bot.outbox.enqueue(Outgoing(thread, Message(Text.of("an edit")), slot=unknown, edit=True))
    await until(lambda: len(fake.in_channel(thread)) > before, timeout=15)
    await fake.idle()
    [table] = fake.in_channel(thread)[before:]
    assert "here it is again" in table.text and "⏳ <@102>" in table.text, "the table anew"
