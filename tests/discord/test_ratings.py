"""Ratings through discord.py and the fake Discord: the closing message's changes, the
leaderboard's page buttons, and /game stats of another member."""

from __future__ import annotations

from bot.service import Actor, Place
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_rating_changes_leaderboard_pages_and_stats(fake: FakeDiscord, bots: Bots) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new", rounds=1)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await (await fake.slash(alice, "tiny bid", amount=3)).result()
    await (await fake.slash(bob, "tiny bid", amount=1)).result()
    await (await fake.slash(alice, "tiny pass")).result()
    await (await fake.slash(bob, "tiny pass")).result()
    await fake.idle()
    (thread,) = fake.threads
    closing = fake.in_channel(thread)[-1]
    assert "Winner: Alice" in closing.content, "the winner heads the closing message"
    assert "Ratings:" in closing.text and "(+" in closing.text, "its narration ends with them"

    # Eleven more players, in three more games on the same server (played on the service).
    service = bot.get_service()
    here = Place(fake.channel_id, fake.guild_id)
    people = [Actor(200 + i, f"P{i:02d}") for i in range(12)]
    for four in (people[0:4], people[4:8], people[8:12]):
        assert (await service.new_game(four[0], here, "tiny", {"rounds": 1})).ok
        for p in four[1:]:
            assert (await service.join(p, here)).ok
        assert (await service.start(four[0], here)).ok
        for p, amount in zip(four, (3, 2, 1, 1), strict=True):
            assert (await service.act(p, here, "tiny", "bid", {"amount": amount})).ok
        for p in four:
            assert (await service.act(p, here, "tiny", "pass", {})).ok

    board = await (await fake.slash(bob, "game leaderboard", game="tiny")).result()
    assert board.ephemeral and "page 1)" in board.content
    assert set(board.buttons) == {"Next ▶"}
    nxt = await fake.click(bob, board, "Next ▶")
    page = await nxt.result()
    assert page.ephemeral
    assert "page 2)" in page.content and "14." in page.content
    assert set(page.buttons) == {"◀ Previous"}

    stats = await (await fake.slash(bob, "game stats", player=alice)).result()
    assert stats.ephemeral and "Alice: played 1, won 1" in stats.content
    newcomer = fake.add_user(777, "Nina")
    unrated = await (await fake.slash(bob, "game stats", player=newcomer)).result()
    assert unrated.ephemeral and "Nina" in unrated.content, "named as the server shows them"
    mine = await (await fake.slash(bob, "game stats")).result()
    assert "Bob: played 1, won 0" in mine.content
