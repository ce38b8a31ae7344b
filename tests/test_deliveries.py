"""What a committed command owes its channels is recorded in its own transaction, survives the
database as data, and is owed until the adapter settles it (``bot.service.owed``, the
``deliveries`` table; the Discord side is tests/discord/test_sender.py)."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, cast

from sqlalchemy import func, select

from bot.discord import send
from bot.discord.channels import BACKOFF_CAP, KNOWN_MAX, backoff
from bot.discord.send import CHANNEL_WINDOW, Job, Outbox
from bot.service import Message, Outgoing, Service
from bot.service.draft import Post, RenderJob, ReplayJob
from bot.service.owed import dump, load
from bot.service.replies import Button, Posted, Select, Slot, ThreadPlan
from bot.service.text import Channel, Mention, Name, Strong, Text, When
from bot.store.models import DeliveryRow
from tests.conftest import ALICE, BOB, CAROL, HERE, Clock


async def owed_rows(service: Service) -> int:
    async with service.sessions() as session:
        count = (await session.execute(select(func.count()).select_from(DeliveryRow))).scalar()
    assert count is not None, "COUNT(*) always has its row"
    return int(count)


def test_a_post_comes_back_from_the_database_as_it_was_planned() -> None:
    text = Text.of("Round 2: ", Mention(102, "Bob"), " ", Name("A*l"), Strong("!"), When(5, "t"))
    post = Post(
        7,
        text,
        narration=Text.of(Channel(8, "thread"), " happened"),
        mentions=(102,),
        buttons=(Button("bid 1", "pt:1:bid:bid:1", "primary"),),
        selects=(Select("pick", "pt:1:bid:take:x", (("a", "A"), ("b", "B")), 1, 2),),
        picture=RenderJob("tiny", {"bids": {"1": 2}, "list": [1, 2]}, ["Alice"], "es", False),
        phase=True,
        slot=Slot(1, "phase", "bid-2"),
        edit=True,
        edit_of=99,
        thread=ThreadPlan("Tiny game", Text.of("no threads here")),
        archive=False,
        replay=ReplayJob(1, "tiny", 2, {"rounds": 2}, 42, [(0, {"bid": 1}, 3.5)], ["A", "B"], "en"),
    )
    assert load(dump(post)) == post
    assert load(dump(Post(7, Text.of("plain")))) == Post(7, Text.of("plain"))


async def test_a_command_records_its_posts_with_the_move_and_they_are_owed_until_settled(
    service: Service, database_url: str, clock: Clock
) -> None:
    service.owes = True
    replies = [
        await service.new_game(ALICE, HERE, "tiny", {"rounds": 2}),
        await service.join(BOB, HERE),
        await service.start(ALICE, HERE),
    ]
    sent = [o for reply in replies for o in reply.public]
    assert sent and all(len(o.delivery) == 1 and o.nonce for o in sent)
    assert len({o.nonce for o in sent}) == len(sent), "each post its own nonce"

    assert await service.owed() == [], "just handed out by this process: not given twice"
    restarted = await Service.open(database_url, render=False, migrate=False)
    try:
        owed = await restarted.owed()
    finally:
        await restarted.close()
    assert [o.delivery for o in owed] == [o.delivery for o in sent], "oldest first"
    assert [o.nonce for o in owed] == [o.nonce for o in sent]
    assert [o.message.whole for o in owed] == [o.message.whole for o in sent]
    assert [o.message.buttons for o in owed] == [o.message.buttons for o in sent]
    assert [(o.slot, o.edit) for o in owed] == [(o.slot, o.edit) for o in sent]

    await service.delivered(sent[0].delivery)
    exclude = [o.delivery[0] for o in sent[1:3]]
    service._handed.clear()  # as if handed out long ago, and lost on the way
    assert [o.delivery for o in await service.owed(exclude)] == [o.delivery for o in sent[3:]]
    await service.attempted(sent[1].delivery, 30.0)
    async with service.sessions() as session:
        row = await session.get(DeliveryRow, sent[1].delivery[0])
        assert row is not None and (row.attempts, row.next_try_at) == (1, clock.now + 30.0)
    clock.now += 320  # its next try is due in 30 s: it is being retried
    service._handed.clear()
    stale = [o.delivery for o in await service.owed(stale=300)]
    assert stale == [o.delivery for o in sent[2:]], "what nobody tried for 5 minutes"
    assert (await service.waiting())[0] == len(sent) - 1


async def test_a_refused_command_owes_nothing(service: Service) -> None:
    service.owes = True
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 2})).ok
    before = await owed_rows(service)
    refused = await service.start(CAROL, HERE)  # not the host
    assert not refused.ok and await owed_rows(service) == before


async def test_without_an_adapter_that_settles_them_nothing_is_recorded(service: Service) -> None:
    reply = await service.new_game(ALICE, HERE, "tiny", {"rounds": 2})
    assert reply.public and not reply.public[0].delivery
    assert await owed_rows(service) == 0


def test_retries_back_off_exponentially_with_jitter_and_honour_retry_after() -> None:
    assert 0.5 <= backoff(1) <= 1.0
    assert 4.0 <= backoff(4) <= 8.0
    assert BACKOFF_CAP / 2 <= backoff(40) <= BACKOFF_CAP
    assert backoff(1, retry_after=60.0) == 60.0
    assert len({backoff(6) for _ in range(20)}) > 1, "jittered"


class Reporter:
    """The service as the outbox sees it, recording what it settles."""

    def __init__(self) -> None:
        self.settled: list[tuple[int, ...]] = []

    async def delivered(self, ids: tuple[int, ...], posted: tuple[Posted, ...] = ()) -> None:
        self.settled.append(tuple(ids))


async def test_an_answers_messages_never_handed_to_a_sender_are_settled_at_its_end() -> None:
    reporter = Reporter()
    outbox = Outbox(cast(Any, None), cast(Any, reporter))
    queued = Outgoing(2, Message(Text.of("queued")), delivery=(6,))
    outbox.queues[2] = deque([Job(queued)])  # handed to channel 2's sender (not started here)
    response = Outgoing(1, Message(Text.of("the response")), delivery=(5,))
    outbox.finish([response, queued, Outgoing(1, Message(Text.of("console")))])
    await asyncio.gather(*outbox.chores)
    assert reporter.settled == [(5,)]
    outbox.finish([response])  # already settled: not again
    assert not outbox.chores


def test_the_outbox_remembers_a_bounded_number_of_messages() -> None:
    outbox = Outbox(cast(Any, None), None)
    for game in range(KNOWN_MAX + 10):
        outbox._know(Slot(game, "phase", "p"), 1, game)
    assert len(outbox.known) == KNOWN_MAX
    assert Slot(0, "phase", "p") not in outbox.known, "the least recently used go first"
    assert Slot(KNOWN_MAX + 9, "phase", "p") in outbox.known


def test_a_channel_quiet_while_its_post_waited_does_not_stop_another_channels_sender(
    monkeypatch: Any,
) -> None:
    """Seen in `bench memory`: channel 1's pacing check dropped its posts older than the window
    and kept it, empty, first in line; channel 2's next post then raised IndexError in its
    sender, which died with that post sent and still queued."""
    now = [100.0]
    monkeypatch.setattr(send.time, "monotonic", lambda: now[0])
    outbox = Outbox(cast(Any, None), None)
    outbox._posted(1)
    now[0] += CHANNEL_WINDOW + 1
    waiting = Job(Outgoing(1, Message(Text.of("a post"))))
    assert outbox._paced(1, waiting) == 0.0, "channel 1 may post: it has been quiet"
    outbox._posted(2)
    assert list(outbox._posts) == [2]
    outbox._posted(1)
    assert list(outbox._posts) == [2, 1], "in the order they last posted"
