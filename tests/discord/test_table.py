"""A quiet, clear table: whole games through the fake Discord, counting what the chat sees.

One post per resolved phase (plus the lobby and the end); readiness only by edits of the phase
message; every awaited player mentioned in every phase message, and nothing cut, even at the
largest table with the longest, most markdown-laden names."""

from __future__ import annotations

import re

import pytest

from tests.discord.conftest import PATIENT_EDIT_DELAY, Bots
from tests.fakediscord import FakeDiscord
from tests.fakediscord.table import play

# 32 characters (Discord's longest display name) of markdown: each escapes to two.
LOUD = "*_~|>" * 6 + "*_"


@pytest.mark.usefixtures("quick_windows")
async def test_six_player_bad_bones_posts_once_per_phase(fake: FakeDiscord, bots: Bots) -> None:
    bot = await bots.start(edit_delay=PATIENT_EDIT_DELAY)
    users = [fake.add_user(300 + i, f"P{i}") for i in range(6)]
    counts = await play(fake, bot, "badbones", users, seed=3)
    assert counts.phases > 5
    # Each resolved phase posts once (the last one is the end); before them, the lobby message
    # and the first phase's message, which /game start posts; after, the result in the channel.
    assert counts.where in fake.threads, "played in the thread opened from the lobby"
    assert counts.posts == counts.phases + 3, counts.line()
    assert counts.edits > 0, "readiness showed, by edits"
    channel = fake.in_channel(fake.channel_id) + fake.in_channel(counts.where)
    assert not any("is ready" in s.text for s in fake.posted), "readiness is never a post"
    assert all(e.message["id"] in {s.message["id"] for s in channel} for e in fake.edits)
    # Patient players (each waits out the edit delay): every command and click is deferred
    # before it runs (so it is applied only if it can be answered) and then answered (the
    # deferred message's edit, or a click's follow-up, or the edit of the message clicked
    # and the player's private lines after it): interaction calls, which Discord's global
    # rate limit does not count. The channel's calls, counted, are a post per phase and an
    # edit per readiness change a click did not show: at most one a move.
    callbacks = counts.calls["POST /interactions/{id}/{token}/callback"]
    assert callbacks - 7 == counts.moves, "new, 5 joins and start: one defer each"
    answers = (
        counts.calls["PATCH /webhooks/{app}/{token}/messages/{message}"]
        + counts.calls["POST /webhooks/{app}/{token}"]
    )
    assert callbacks <= answers <= 2 * callbacks, "an answer per defer, its private lines after"
    assert counts.counted <= counts.moves, counts.line()


@pytest.mark.usefixtures("quick_windows")
@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_largest_table_mentions_every_awaited_player_and_cuts_nothing(
    fake: FakeDiscord, bots: Bots, locale: str
) -> None:
    bot = await bots.start(edit_delay=PATIENT_EDIT_DELAY)
    fake.guild_locale = locale
    users = [fake.add_user(400 + i, f"{LOUD[:30]}{i:02d}", locale=locale) for i in range(6)]
    counts = await play(fake, bot, "badbones", users, seed=5)
    assert counts.phases > 5
    by_id = {u.id for u in users}
    phase_posts = [s for s in fake.in_channel(counts.where) if "⏳" in s.content]
    assert phase_posts
    for sent in phase_posts:
        awaited = {int(m) for m in re.findall(r"⏳ <@(\d+)>", sent.content)}
        assert awaited and awaited <= by_id
        assert set(sent.allowed_mentions.get("users") or []) <= awaited
        assert "…" not in sent.content[-2:], "nothing is cut"
    final = fake.in_channel(counts.where)[-1]
    assert "🏆" in final.content or "Nadie" in final.content or "Nobody" in final.content
    fake.check()  # the fake refused nothing over Discord's limits (content, embeds)
