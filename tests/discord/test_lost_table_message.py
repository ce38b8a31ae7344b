"""A table whose message is lost goes on in a new one, never unseen.

Readiness (and a live FUSE table) is shown by editing one message. When that message was
deleted by someone, or its id never reached the database (the bot stopped between the post and
the record), the edit is posted as a new message of the same slot, which the next edits find."""

from __future__ import annotations

from sqlalchemy.orm.attributes import flag_modified

from bot.store import repository as repo
from tests.discord.conftest import Bots
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord


async def test_a_deleted_phase_message_is_posted_again_and_then_edited(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob, carol = (fake.add_user(101 + i, n) for i, n in enumerate(("Alice", "Bob", "Carol")))
    phase = await started_tiny(fake, alice, bob, carol)
    del fake.messages[int(phase.message["id"])]  # a moderator deletes the table's message
    before = len(fake.in_channel())

    await (await fake.slash(alice, "tiny bid", amount=3)).result()
    await fake.idle()
    [again] = fake.in_channel()[before:]
    assert "✅ Alice is ready." in again.content and "⏳ <@102>" in again.content
    assert {"bid 1", "bid 2", "bid 3"} <= set(again.buttons), "Bob and Carol can click again"
    # Its message is gone, so the players it awaits are called again, in the new one.
    assert again.allowed_mentions.get("users") == [102, 103]

    await (await fake.click(bob, again, "bid 1")).result()
    await fake.idle()
    assert len(fake.in_channel()) == before + 1, "the next readiness edits the new message"
    assert "✅ Bob is ready." in fake.messages[int(again.message["id"])].content


async def test_a_table_message_whose_id_was_never_recorded_is_posted_again(
    fake: FakeDiscord, bots: Bots
) -> None:
    first = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await started_tiny(fake, alice, bob)
    async with first.get_service().sessions() as session, session.begin():
        (row,) = await repo.open_games_in_threads(session, fake.channel_id)
        assert row.messages is not None
        row.messages["phase"]["id"] = None  # the bot stopped before it recorded the post
        flag_modified(row, "messages")
    await bots.stop(first)
    service = (await bots.start()).get_service()
    before = len(fake.in_channel())

    await (await fake.slash(alice, "tiny bid", amount=2)).result()
    await fake.idle()
    [again] = fake.in_channel()[before:]
    assert "✅ Alice is ready." in again.content and "⏳ <@102>" in again.content
    async with service.sessions() as session:
        (row,) = await repo.open_games_in_threads(session, fake.channel_id)
        assert row.messages is not None
        assert row.messages["phase"]["id"] == int(again.message["id"]), "recorded now"
