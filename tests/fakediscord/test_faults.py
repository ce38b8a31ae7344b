"""The fake behaves as Discord does under load and failure, and its faults hit what they name.

A bare discord.py client (no Partida) talks to the fake here, so that what is tested is the
fake and discord.py's reaction to it: the headers it learns from, the 429s it waits out, the
close codes it resumes after.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import discord.http
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CALLBACK, POST, Fault, invalid

if TYPE_CHECKING:
    from discord.types.threads import ThreadArchiveDuration


class Probe(discord.Client):
    """A client that answers every interaction at once (unless told to stay silent)."""

    def __init__(self) -> None:
        super().__init__(
            intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none()
        )
        self.seen: list[discord.Interaction] = []
        self.answer = True
        self.resumed = 0

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)
        if self.answer:
            await interaction.response.send_message("ok")

    async def on_resumed(self) -> None:
        self.resumed += 1

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before each IDENTIFY after the first (Discord allows one per
        5 s per bot); the fake does not count them, and the wait proves nothing here."""


PING_COMMAND = {"id": "1", "name": "ping", "type": 1, "description": "Ping", "options": []}


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        server.commands[server.guild_id] = [PING_COMMAND]
        yield server


@pytest.fixture
async def probe(fake: FakeDiscord) -> AsyncIterator[Probe]:
    client = Probe()
    await fake.run(client)
    yield client
    await client.close()


async def post(client: Probe, channel_id: int, text: str = "hi") -> discord.Message:
    return await client.get_partial_messageable(channel_id).send(text)


async def raw(
    fake: FakeDiscord, method: str, path: str, body: dict[str, Any] | None = None
) -> tuple[int, dict[str, str], Any]:
    """One request by hand (no discord.py bucket logic in the way)."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, discord.http.Route.BASE + path, json=body, headers=headers) as r,
    ):
        return r.status, dict(r.headers), await r.json(content_type=None)


def statuses(fake: FakeDiscord, route: str) -> list[int]:
    return [r.status for r in fake.requests if r.route == route]


MESSAGE = {"content": "hi", "allowed_mentions": {"parse": []}}


# ---------------------------------------------------------------------- injected faults


async def test_a_503_answers_the_matching_post_once(fake: FakeDiscord, probe: Probe) -> None:
    fault = fake.inject(Fault(method="POST", route=POST, status=503))
    with pytest.raises(discord.DiscordServerError):
        await post(probe, fake.channel_id)  # discord.py does not retry a 503
    await post(probe, fake.channel_id)
    assert fault.hits == 1
    assert statuses(fake, POST) == [503, 200]
    assert [m.text for m in fake.posted] == ["hi"]


async def test_after_and_channel_choose_the_requests_hit(fake: FakeDiscord, probe: Probe) -> None:
    other = 920_000_000_000_000_077
    fake.channels[other] = "other"
    fault = fake.inject(Fault(channel_id=other, status=503, after=1))
    await post(probe, fake.channel_id)  # another channel: not even counted
    await post(probe, other)  # the first one is let through
    with pytest.raises(discord.DiscordServerError):
        await post(probe, other)
    assert (fault.seen, fault.hits) == (2, 1)


async def test_a_500_is_retried_by_discord_py(fake: FakeDiscord, probe: Probe) -> None:
    fake.inject(Fault(route=POST, status=500))
    await post(probe, fake.channel_id)
    assert statuses(fake, POST) == [500, 200]


async def test_an_injected_429_is_discords_and_discord_py_waits_it_out(
    fake: FakeDiscord, probe: Probe
) -> None:
    fake.inject(Fault(route=POST, status=429, retry_after=0.3, scope="shared"))
    start = time.monotonic()
    await post(probe, fake.channel_id)
    assert time.monotonic() - start >= 0.3
    assert statuses(fake, POST) == [429, 200]
    assert invalid(fake.requests) == [], "a deliberate 429 is not the bot's fault"
    fake.inject(Fault(route=POST, status=429, retry_after=2.0, scope="shared"))
    status, headers, body = await raw(fake, "POST", f"/channels/{fake.channel_id}/messages", {})
    assert status == 429
    assert headers["Via"] == "1.1 google", "without it discord.py takes a 429 for a ban"
    assert headers["X-RateLimit-Scope"] == "shared"
    assert body["retry_after"] == 2.0 and body["global"] is False


async def test_a_delay_holds_the_request_then_serves_it(fake: FakeDiscord, probe: Probe) -> None:
    fault = fake.inject(Fault(route=POST, status=None, delay=0.4, times=None))
    start = time.monotonic()
    await post(probe, fake.channel_id)
    await post(probe, fake.channel_id)
    assert time.monotonic() - start >= 0.8
    assert fault.hits == 2 and statuses(fake, POST) == [200, 200]
    fake.clear_faults()
    start = time.monotonic()
    await post(probe, fake.channel_id)
    assert time.monotonic() - start < 0.4


async def test_requests_are_named_by_discord_pys_routes(fake: FakeDiscord, probe: Probe) -> None:
    message = await post(probe, fake.channel_id)
    await message.edit(content="edited")
    routes = [(r.method, r.route) for r in fake.requests]
    assert ("POST", "/channels/{channel_id}/messages") in routes
    assert ("PATCH", "/channels/{channel_id}/messages/{message_id}") in routes
    assert ("GET", "/users/@me") in routes


# ---------------------------------------------------------------------- rate limits


async def test_the_sixth_post_in_five_seconds_is_429_with_the_buckets_headers(
    fake: FakeDiscord,
) -> None:
    path = f"/channels/{fake.channel_id}/messages"
    answers = [await raw(fake, "POST", path, MESSAGE) for _ in range(6)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    _, first, _ = answers[0]
    assert first["X-RateLimit-Limit"] == "5" and first["X-RateLimit-Remaining"] == "4"
    assert 4.5 < float(first["X-RateLimit-Reset-After"]) <= 5.0
    assert float(first["X-RateLimit-Reset"]) > time.time()
    _, last, body = answers[5]
    assert last["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
    assert last["X-RateLimit-Scope"] == "user" and last["Via"] == "1.1 google"
    assert 0 < body["retry_after"] <= 5.0 and body["global"] is False
    other = await raw(fake, "POST", "/channels/920000000000000002/messages", MESSAGE)
    assert other[0] == 404, "another channel has its own bucket (here: no such channel)"


async def test_discord_py_learns_the_bucket_and_waits_instead_of_429(
    fake: FakeDiscord, probe: Probe
) -> None:
    start = time.monotonic()
    await asyncio.gather(*(post(probe, fake.channel_id, str(i)) for i in range(6)))
    assert time.monotonic() - start >= 4.5, "the sixth post waited for the window"
    assert statuses(fake, POST) == [200] * 6, "no 429: the headers told discord.py to wait"


async def test_the_global_limit_spares_interaction_endpoints(fake: FakeDiscord) -> None:
    answers = [await raw(fake, "GET", f"/channels/{fake.channel_id}") for _ in range(51)]
    status, headers, body = answers[-1]
    assert [s for s, _, _ in answers[:50]] == [200] * 50
    assert status == 429 and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    # The callback route is not bound by it: an unknown interaction, not a 429.
    status, _, body = await raw(fake, "POST", "/interactions/1/x/callback", {"type": 4})
    assert status == 404 and body["code"] == 10062


# ---------------------------------------------------------------------- interactions


async def test_an_answer_after_the_window_is_unknown_interaction(
    fake: FakeDiscord, probe: Probe
) -> None:
    fresh = await fake.slash(fake.add_user(1, "Ann"), "ping")
    await asyncio.wait_for(fresh.done.wait(), 5)
    assert not fresh.failed
    late = await fake.slash(fake.users[1], "ping", age=3.5)
    await fake.idle()
    assert late.failed and late.callback is None
    assert late.excused, "check() leaves an aged interaction to the test"
    assert [r.status for r in fake.requests if r.route == CALLBACK] == [200, 404]
    assert probe.seen[-1].created_at.timestamp() < time.time() - 3.4, "its id carries its age"
    fake.window = 30.0
    ok = await fake.slash(fake.users[1], "ping", age=3.5)
    await asyncio.wait_for(ok.done.wait(), 5)
    assert not ok.failed


async def test_an_unanswered_interaction_fails_once_the_window_is_over(
    fake: FakeDiscord, probe: Probe
) -> None:
    probe.answer = False
    fake.window = 0.3
    exchange = await fake.slash(fake.add_user(1, "Ann"), "ping")
    assert not exchange.failed
    await asyncio.sleep(0.4)
    assert exchange.failed


async def test_follow_ups_end_with_the_token_after_fifteen_minutes(
    fake: FakeDiscord, probe: Probe
) -> None:
    exchange = await fake.slash(fake.add_user(1, "Ann"), "ping")
    await asyncio.wait_for(exchange.done.wait(), 5)
    interaction = probe.seen[-1]
    await interaction.followup.send("still here")
    fake.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as refused:
        await interaction.followup.send("too late")
    assert (refused.value.status, refused.value.code) == (401, 50027)


# ---------------------------------------------------------------------- threads


async def open_thread(fake: FakeDiscord, probe: Probe, minutes: ThreadArchiveDuration = 60) -> int:
    channel = probe.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("table")
    thread = await message.create_thread(name="game", auto_archive_duration=minutes)
    return thread.id


async def test_a_quiet_thread_archives_after_its_duration_and_refuses_commands(
    fake: FakeDiscord, probe: Probe
) -> None:
    thread_id = await open_thread(fake, probe, minutes=60)
    fake.advance(59 * 60)
    assert not fake.archived(thread_id)
    await post(probe, thread_id)  # activity: the hour starts again
    fake.advance(59 * 60)
    assert not fake.archived(thread_id)
    fake.advance(61)
    assert fake.archived(thread_id)
    exchange = await fake.slash(fake.add_user(1, "Ann"), "ping", channel_id=thread_id)
    assert exchange.refused and exchange.failed
    assert len(probe.seen) == 0, "the bot never heard of the command"
    thread = probe.get_channel(thread_id) or await probe.fetch_channel(thread_id)
    assert isinstance(thread, discord.Thread)
    await thread.edit(archived=False)
    assert not fake.archived(thread_id)
    reopened = await fake.slash(fake.users[1], "ping", channel_id=thread_id)
    await asyncio.wait_for(reopened.done.wait(), 5)
    assert not reopened.failed


async def test_a_post_opens_an_archived_thread_again(fake: FakeDiscord, probe: Probe) -> None:
    thread_id = await open_thread(fake, probe)
    await fake.archive(thread_id)
    assert fake.archived(thread_id)
    await post(probe, thread_id)
    assert not fake.archived(thread_id)


async def test_a_deleted_channel_answers_unknown_channel(fake: FakeDiscord, probe: Probe) -> None:
    thread_id = await open_thread(fake, probe)
    await fake.delete_channel(thread_id)
    with pytest.raises(discord.NotFound) as gone:
        await post(probe, thread_id)
    assert gone.value.code == 10003
    exchange = await fake.slash(fake.add_user(1, "Ann"), "ping", channel_id=thread_id)
    assert exchange.refused and exchange.failed


# ---------------------------------------------------------------------- nonce


async def test_a_repeated_enforced_nonce_returns_the_first_message(fake: FakeDiscord) -> None:
    path = f"/channels/{fake.channel_id}/messages"
    body = {**MESSAGE, "nonce": "game-7-turn-3", "enforce_nonce": True}
    first = await raw(fake, "POST", path, body)
    again = await raw(fake, "POST", path, body)
    assert first[2]["id"] == again[2]["id"]
    assert len(fake.posted) == 1
    loose = await raw(fake, "POST", path, {**MESSAGE, "nonce": "game-7-turn-3"})
    assert loose[2]["id"] != first[2]["id"], "without enforce_nonce a nonce posts again"


# ---------------------------------------------------------------------- gateway


async def test_a_resumed_session_gets_what_it_missed(fake: FakeDiscord, probe: Probe) -> None:
    ann = fake.add_user(1, "Ann")
    await fake.drop_gateway(resume=True, down=0.5)
    exchange = await fake.slash(ann, "ping")  # made while the bot is away
    await fake.connected()
    await asyncio.wait_for(exchange.done.wait(), 5)
    assert (fake.gateway.identifies, fake.gateway.resumes) == (1, 1)
    assert probe.resumed == 1
    assert exchange.delivered_at is not None
    assert exchange.delivered_at - exchange.sent_at >= 0.4


async def test_a_timed_out_session_identifies_again_and_loses_the_gap(
    fake: FakeDiscord, probe: Probe
) -> None:
    ann = fake.add_user(1, "Ann")
    await fake.drop_gateway(resume=False, down=0.3)
    lost = await fake.slash(ann, "ping")
    await fake.connected()
    assert (fake.gateway.identifies, fake.gateway.invalidated) == (2, 1)
    assert lost.delivered_at is None
    fresh = await fake.slash(ann, "ping")
    await asyncio.wait_for(fresh.done.wait(), 5)
    fake.advance(fake.window)  # the lost one's window closes unanswered
    assert lost.failed and not fresh.failed


async def test_gateway_delay_holds_every_dispatch(fake: FakeDiscord, probe: Probe) -> None:
    fake.gateway_delay = 0.5
    exchange = await fake.slash(fake.add_user(1, "Ann"), "ping")
    await asyncio.wait_for(exchange.done.wait(), 5)
    assert exchange.delivered_at is not None
    assert exchange.delivered_at - exchange.sent_at >= 0.5
    assert exchange.callback_at is not None and exchange.callback_at - exchange.sent_at >= 0.5


async def test_requests_unpack_as_the_contract_says(fake: FakeDiscord, probe: Probe) -> None:
    await post(probe, fake.channel_id)
    method, route, path, status, _ = fake.requests[-1]
    assert (method, route, status) == ("POST", POST, 200)
    assert path == f"/api/v10/channels/{fake.channel_id}/messages"
