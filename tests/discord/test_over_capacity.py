"""A bot over its drawing capacity answers moves at once: the answer and the table's words go
out while the picture is still being drawn, and the picture follows, once, as an edit of the
table message, through the channel's sender (so 5xx, 429s and a restart do not lose it)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

import render
from bot.service import Service, drawing
from bot.service.drawing import BULK, TABLE, RenderQueue
from bot.store import deliveries
from tests.discord.conftest import Bots
from tests.discord.test_more import png
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.faults import EDIT, Fault


class SlowWorker:
    """The render worker of a process over capacity: it draws each picture only when the test
    lets it (``free``), however long the moves wait."""

    def __init__(self) -> None:
        self.free = asyncio.Event()
        self.drawn = 0

    def behind(self) -> None:
        """From now on nothing is drawn until ``free`` is set (``drawn`` counts from here)."""
        self.free.clear()
        self.drawn = 0

    async def __call__(
        self, priority: int, function: Callable[..., bytes], args: tuple[Any, ...]
    ) -> bytes:
        await self.free.wait()
        self.drawn += 1
        return function(*args)


@pytest.fixture
async def worker(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SlowWorker]:
    monkeypatch.setattr(render, "render_table", lambda game, view, names, lang: png(96))
    monkeypatch.setattr(drawing, "drawable", lambda kind: True)  # the test game has none
    slow = SlowWorker()
    queue = RenderQueue({TABLE: "table", BULK: "bulk"}, {"table": 1, "bulk": 1}, slow)
    monkeypatch.setattr(drawing, "_queue", (asyncio.get_running_loop(), queue))
    slow.free.set()  # drawing keeps up while the game is set up
    yield slow
    slow.free.set()  # a failed test leaves nothing waiting for ever


async def bids_resolved(fake: FakeDiscord, worker: SlowWorker) -> tuple[Sent, Sent]:
    """Alice and Bob start a game, the worker falls behind, and both bid: Bob's bid resolves
    the phase. Returns Bob's answer and the new table message, both before any picture."""
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)
    assert phase.files, "under capacity the table's picture goes with its words"
    worker.behind()
    await (await fake.click(alice, phase, "bid 2")).result()
    posts = len(fake.in_channel())
    answer = await (await fake.click(bob, phase, "bid 1")).result()
    table = await next_post(fake, posts)
    return answer, table


async def next_post(fake: FakeDiscord, count: int) -> Sent:
    while len(fake.in_channel()) <= count:
        await asyncio.sleep(0.01)
    return fake.in_channel()[count]


async def owed(service: Service) -> list[tuple[str, int | None]]:
    """What the database says is owed: each delivery's kind and the message it edits."""
    async with service.sessions() as session:
        rows = await deliveries.owed(session, await deliveries.owed_ids(session))
    return [(row.kind, row.body.get("edit_of")) for row in rows]


def pictures_of(fake: FakeDiscord, message_id: int) -> list[Sent]:
    """Every request that put a picture on the message (its post, then its edits)."""
    return [
        s for s in [*fake.posted, *fake.edits] if int(s.message["id"]) == message_id and s.files
    ]


async def test_the_answer_and_the_table_go_out_before_the_picture_which_follows_once(
    fake: FakeDiscord, bots: Bots, worker: SlowWorker
) -> None:
    await bots.start(render=True)
    answer, table = await bids_resolved(fake, worker)
    assert "⚠️" not in answer.content
    assert set(table.buttons) == {"take", "pass"} and not table.files
    assert worker.drawn == 0, "both went out while the picture waited to be drawn"

    posts = len(fake.posted)
    worker.free.set()
    await fake.idle()
    message_id = int(table.message["id"])
    shown = fake.messages[message_id]
    assert shown.message["attachments"][0]["filename"] == "tiny.png"
    assert shown.text == table.text and set(shown.buttons) == {"take", "pass"}, "words kept"
    assert len(pictures_of(fake, message_id)) == 1
    assert len(fake.posted) == posts, "the picture came as an edit, not a second post"


async def test_the_late_picture_survives_5xx_and_429s(
    fake: FakeDiscord, bots: Bots, worker: SlowWorker
) -> None:
    await bots.start(render=True)
    _, table = await bids_resolved(fake, worker)
    channel = table.channel_id
    fake.inject(Fault("PATCH", EDIT, channel, status=429, retry_after=0.2, times=1))
    fake.inject(Fault("PATCH", EDIT, channel, status=503, times=2))
    worker.free.set()
    await fake.idle(timeout=20)
    message_id = int(table.message["id"])
    assert all(f.spent for f in fake.faults), "the edit met every fault"
    assert fake.messages[message_id].files, "the picture reached the table after its retries"
    assert len(pictures_of(fake, message_id)) == 1


async def test_a_restart_before_the_picture_still_adds_it_to_the_table(
    fake: FakeDiscord, bots: Bots, worker: SlowWorker
) -> None:
    first = await bots.start(render=True)
    _, table = await bids_resolved(fake, worker)
    message_id = int(table.message["id"])
    # The table went out; what stays owed is its picture, an edit of that message.
    service = first.get_service()
    assert isinstance(service, Service)
    while await owed(service) != [("edit", message_id)]:
        await asyncio.sleep(0.01)
    await bots.stop(first)
    posts = len(fake.posted)

    worker.free.set()
    await bots.start(render=True)  # picks up what is owed: the picture, drawn again
    await fake.idle()
    assert fake.messages[message_id].files
    assert len(pictures_of(fake, message_id)) == 1
    assert len(fake.posted) == posts, "the table was not posted a second time"
