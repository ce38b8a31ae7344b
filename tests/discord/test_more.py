"""Deadlines through Discord (also across a restart), images as attachments, the language."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

import render
from bot.service import drawing
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord, FakeUser, Sent
from tests.fakediscord.faults import ORIGINAL, Fault


def png(width: int = 64) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, width), "navy").save(out, "PNG")
    return out.getvalue()


async def wait_for_post(fake: FakeDiscord, count: int, timeout: float = 5.0) -> None:
    async def enough() -> None:
        while len(fake.in_channel()) < count:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(enough(), timeout)
    await fake.idle()


async def start(fake: FakeDiscord, host: FakeUser) -> Sent:
    await (await fake.slash(host, "game start")).result()
    await fake.idle()
    return fake.in_channel()[-1]


async def test_a_missed_deadline_plays_the_default_and_posts(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game settings", deadline=10, reminder=0)).result()
    phase = await start(fake, alice)
    await (await fake.click(alice, phase, "bid 2")).result()
    await fake.idle()
    before = len(fake.in_channel())

    clock.now += 11 * 60
    bot.wake_deadlines()  # it would wake by itself at the deadline; the test's clock is fake
    await wait_for_post(fake, before + 1)
    posted = fake.in_channel()[before:]
    assert any("Bob" in p.text for p in posted), [p.text for p in posted]
    assert set(posted[-1].buttons) == {"take", "pass"}, "the bid phase resolved by default"


async def test_deadlines_resume_after_a_restart(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    first = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game settings", deadline=10, reminder=0)).result()
    await start(fake, alice)
    await bots.stop(first)
    before = len(fake.in_channel())

    clock.now += 11 * 60  # the deadline passes while the bot is down
    await bots.start()
    await wait_for_post(fake, before + 1)
    assert set(fake.in_channel()[-1].buttons) == {"take", "pass"}


async def test_images_are_attached(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render, "render_table", lambda game, view, names, lang: png(96))
    monkeypatch.setattr(render, "render_board", lambda game, view, names, lang: png(48))
    monkeypatch.setattr(drawing, "drawable", lambda kind: True)  # the test game has none
    await bots.start(render=True)
    alice = fake.add_user(101, "Alice")
    phase = await started_tiny(fake, alice)
    assert phase.message["attachments"][0]["filename"] == "tiny.png"
    assert phase.files["tiny.png"].startswith(b"\x89PNG")

    board = await (await fake.slash(alice, "game board")).result()
    assert (
        board.ephemeral and board.files and next(iter(board.files.values())).startswith(b"\x89PNG")
    )


async def test_language_choice_overrides_the_client(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    tom = fake.add_user(202, "Tom", locale="en-US")
    set_es = await (await fake.slash(tom, "game language", language="es")).result()
    assert set_es.ephemeral
    opened = await (await fake.slash(tom, "tiny new")).result()
    assert "Has abierto" in opened.content
    await (await fake.slash(tom, "game language", language="auto")).result()
    status = await (await fake.slash(tom, "game status")).result()
    assert "Alice" not in status.content and "Tom" in status.content


async def test_the_bots_own_words_in_an_answer_follow_the_chosen_language_too(
    fake: FakeDiscord, bots: Bots
) -> None:
    """What the adapter adds to an answer (the table cannot be posted here; the move is saved
    and the table follows) is in the language the player chose, like the rest of the answer,
    not in their client's: one answer, one language."""
    await bots.start()
    tom = fake.add_user(202, "Tom", locale="en-US")
    ana = fake.add_user(203, "Ana", locale="es-ES")
    await (await fake.slash(tom, "game language", language="es")).result()
    await (await fake.slash(ana, "game language", language="en")).result()
    fake.forbidden.add(fake.channel_id)
    opened = await (await fake.slash(tom, "tiny new")).result()
    assert "Has abierto" in opened.content and "No puedo publicar" in opened.content
    assert "I cannot post" not in opened.content, opened.content
    joined = await (await fake.slash(ana, "game join")).result()
    assert "You joined" in joined.content and "I cannot post" in joined.content
    assert "No puedo publicar" not in joined.content, joined.content

    fake.forbidden.clear()
    await (await fake.slash(tom, "game cancel")).result()
    await (await fake.slash(tom, "tiny new")).result()
    await (await fake.slash(ana, "game join")).result()
    await start(fake, tom)
    # Tom's move is saved, then the edit that answers it fails (Discord lost the deferred
    # message): he is told again, in Spanish.
    fault = fake.inject(Fault(method="PATCH", route=ORIGINAL, status=404))
    exchange = await fake.slash(tom, "tiny bid", amount=2)
    await exchange.result()
    await fake.idle()
    assert fault.hits == 1
    said = "\n".join(m.content for m in exchange.messages)
    assert "Tu jugada queda guardada" in said and "Your move is saved" not in said, said


async def test_a_channel_the_bot_cannot_post_in(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    fake.forbidden.add(fake.channel_id)
    alice = fake.add_user(101, "Alice")
    exchange = await fake.slash(alice, "tiny new")
    answer = await exchange.result()
    await fake.idle()
    # The interaction said the bot lacks Send Messages: no post is tried, and the answer
    # itself says so (no follow-up call of its own: the edit of the deferred response).
    assert answer.ephemeral and "You opened" in answer.content
    assert "I need Send Messages here" in answer.content
    assert not fake.refused and not fake.in_channel()
    assert [m.kind for m in exchange.messages] == ["edit"]
    # The game starts all the same, and waits: no deadline runs out while nobody can see it.
    bob = fake.add_user(102, "Bob")
    await (await fake.slash(bob, "game join")).result()
    started = await (await fake.slash(alice, "game start")).result()
    assert "What you did is saved" in started.content
    clock.now += 48 * 3600
    bot.wake_deadlines()
    await fake.idle()
    status = await (await fake.slash(bob, "game status")).result()
    assert "⏳ Alice" in status.content and "⏳ Bob" in status.content, "nobody's default played"
    assert not fake.refused and not fake.in_channel()


async def test_a_command_the_bot_no_longer_has(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    # An old sync left a command that this version of the bot does not know.
    fake.commands[fake.guild_id].append(
        {"id": "1", "name": "oldgame", "description": "gone", "type": 1, "options": []}
    )
    alice = fake.add_user(101, "Alice")
    answer = await (await fake.slash(alice, "oldgame")).result()
    assert answer.ephemeral and "partida sync" in answer.content
