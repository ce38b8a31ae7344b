"""A move is applied only when its player can be told, and what they are told is true.

Discord takes an interaction's first response only within 3 s of its creation; after that the
player reads "This interaction failed". So a command that can change a game runs only once
Discord has taken its defer (a late gateway, a 5xx or 429 on the callback, a slow link: nothing
changes), no request stands between an interaction and its answer, and a post that fails after
the move was saved is told as "saved; the table follows", never as "try again". Discord's real
window (``fake.window = 3.0``) throughout.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.service import buttons
from bot.store import repository as repo
from tests.discord.conftest import Bots
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.faults import CALLBACK, ORIGINAL, POST, Fault
from tests.fakediscord.server import Exchange

SAVED = "Your move is saved; the table follows"
TRY_AGAIN = "try again"


async def moves(bots: Bots, phase: Sent) -> list[tuple[int, str]]:
    """The game's action log, as (seat, action type)."""
    press = buttons.decode(next(iter(phase.buttons.values())))
    game_id = press.game_id if press is not None else None
    assert game_id is not None
    service = bots.running[-1].get_service()
    async with service.sessions() as session:
        return [(a.seat, a.action["type"]) for a in await repo.action_log(session, game_id)]


async def past_the_window(fake: FakeDiscord, exchange: Exchange) -> None:
    """Wait until Discord's window for ``exchange`` has closed (and the bot is quiet)."""
    await fake.idle()
    left = exchange.sent_at + fake.window - fake.now()
    if left > 0:
        await asyncio.sleep(left + 0.1)
    await fake.idle()


def requests_of(fake: FakeDiscord, exchange: Exchange) -> list[str]:
    """The routes of the requests the bot made with ``exchange``'s token."""
    return [r.route for r in fake.requests if exchange.token in r.path]


@pytest.fixture(autouse=True)
def real_window(fake: FakeDiscord) -> None:
    fake.window = 3.0


async def test_an_interaction_delivered_late_changes_nothing(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)

    # A gateway RESUME replays them 4.5 s after they were made: Discord takes no answer now.
    typed = await fake.slash(alice, "tiny bid", amount=2, age=4.5)
    clicked = await fake.click(bob, phase, "bid 3", age=4.5)
    await fake.idle()
    for late in (typed, clicked):
        assert late.failed, "the player sees that it failed"
        assert requests_of(fake, late) == [], "not even a refused callback"
    assert await moves(bots, phase) == [], "and nothing was applied"

    # The same, fresh, is applied (what the log above would have shown).
    await (await fake.slash(alice, "tiny bid", amount=2)).result()
    assert await moves(bots, phase) == [(0, "bid")]


@pytest.mark.parametrize(
    "refusal",
    [
        # discord.py tries a callback again after a 5xx (1 s, then 3 s later): an outage
        # that outlasts the window, so no try gets through in time.
        {"status": 503, "times": None},
        # It waits a 429 out and tries again: 5 s later, past the window.
        {"status": 429, "retry_after": 5.0},
    ],
    ids=["503", "429"],
)
@pytest.mark.parametrize("how", ["typed", "clicked"])
async def test_a_refused_defer_applies_nothing(
    fake: FakeDiscord, bots: Bots, refusal: dict[str, Any], how: str
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)

    fault = fake.inject(Fault(route=CALLBACK, **refusal))
    if how == "typed":
        exchange = await fake.slash(alice, "tiny bid", amount=2)
    else:
        exchange = await fake.click(alice, phase, "bid 2")
    await past_the_window(fake, exchange)
    fake.clear_faults()
    assert fault.hits >= 1
    assert exchange.failed and exchange.callback is None
    assert await moves(bots, phase) == [], "the player saw a failure: nothing was applied"
    assert [r for r in requests_of(fake, exchange) if r != CALLBACK] == [], "nor answered"

    # Trying again (as the player will) applies it once.
    await (await fake.slash(alice, "tiny bid", amount=2)).result()
    assert await moves(bots, phase) == [(0, "bid")]


@pytest.mark.parametrize("age", [0.0, 1.0])
async def test_a_slow_callback_applies_the_move_only_if_its_defer_got_through(
    fake: FakeDiscord, bots: Bots, age: float
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)

    # 2.5 s of latency on the callback: in time for a fresh interaction (2.5 s < 3 s), too
    # late for one that was already 1 s old when it reached the bot (3.5 s).
    fake.inject(Fault(route=CALLBACK, status=None, delay=2.5))
    exchange = await fake.slash(alice, "tiny bid", amount=2, age=age)
    await past_the_window(fake, exchange)
    if age == 0.0:
        assert not exchange.failed and exchange.deferred
        assert "Alice bids 2." in (await exchange.result()).content
        assert await moves(bots, phase) == [(0, "bid")]
    else:
        assert exchange.failed
        assert await moves(bots, phase) == [], "its defer was refused: nothing was applied"


async def test_a_post_that_fails_after_the_move_is_told_as_saved_not_try_again(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)
    await (await fake.click(alice, phase, "bid 2")).result()
    await fake.idle()

    # Bob's bid resolves the phase; the post of the next phase fails (503: discord.py does not
    # retry it). Bob hears his move is recorded, never "try again", and the table follows: the
    # channel's sender posts it again until Discord takes it.
    posted = len(fake.in_channel())
    fault = fake.inject(Fault(method="POST", route=POST, status=503))
    exchange = await fake.slash(bob, "tiny bid", amount=1)
    await exchange.result()
    await fake.idle()
    assert fault.hits == 1
    said = "\n".join(m.content for m in exchange.messages)
    assert TRY_AGAIN not in said.lower() and "Recorded" in said, said
    for _ in range(300):  # the sender's first retry comes a second or two later
        if len(fake.in_channel()) > posted:
            break
        await asyncio.sleep(0.05)
    assert len(fake.in_channel()) > posted, "the next phase's table followed"
    assert await moves(bots, phase) == [(0, "bid"), (1, "bid")]

    # He does it again anyway: refused (the phase moved on), never applied twice.
    again = await (await fake.slash(bob, "tiny bid", amount=1)).result()
    assert "⚠️" in again.content
    assert await moves(bots, phase) == [(0, "bid"), (1, "bid")]


async def test_a_failed_answer_after_the_move_is_told_as_saved(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)

    # The move is saved, then the edit that answers it fails (Discord lost the deferred
    # message): the player still reads the truth when it is told again.
    fault = fake.inject(Fault(method="PATCH", route=ORIGINAL, status=404))
    exchange = await fake.slash(alice, "tiny bid", amount=2)
    await exchange.result()
    await fake.idle()
    assert fault.hits == 1
    said = "\n".join(m.content for m in exchange.messages)
    assert SAVED in said and TRY_AGAIN not in said.lower(), said
    assert await moves(bots, phase) == [(0, "bid")]


def _answered_first(fake: FakeDiscord, since: int, exchange: Exchange) -> list[str]:
    """The requests the bot made after ``since`` up to ``exchange``'s answer, other than the
    interaction's own (its callback, and the edit or follow-up that answers it)."""
    answer = {CALLBACK, ORIGINAL, "/webhooks/{webhook_id}/{webhook_token}"}
    before: list[str] = []
    for request in fake.requests[since:]:
        if exchange.token in request.path:
            if request.route == CALLBACK and exchange.callback is not None:
                if exchange.callback.get("type") == 4:
                    return before  # answered by the callback itself
                continue
            assert request.route in answer
            return before
        before.append(f"{request.method} {request.route}")
    raise AssertionError("the interaction was never answered")


async def test_pausing_and_resuming_a_table_answer_before_any_other_request(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await started_tiny(fake, alice, bob)
    thread = next(iter(fake.threads))

    # The bot loses Send Messages there (the interaction says so; the gateway has not): Bob's
    # move pauses the table, and Alice, the host, hears it by direct message, after his answer.
    fake.forbidden.add(thread)
    since = len(fake.requests)
    paused = await fake.slash(bob, "tiny bid", amount=1, channel_id=thread)
    answer = await paused.result()
    await fake.idle()
    assert _answered_first(fake, since, paused) == []
    assert "What you did is saved" in answer.content
    assert len(fake.to(alice)) == 1, "the host was told, after the answer"

    # Back: a status there resumes it (answered at once, then the table and the host's DM).
    fake.forbidden.discard(thread)
    since = len(fake.requests)
    started = time.monotonic()
    resumed = await fake.slash(bob, "game status", channel_id=thread)
    await resumed.result()
    await fake.idle()
    assert _answered_first(fake, since, resumed) == []
    assert resumed.callback is not None and resumed.callback["type"] == 4, "read-only: one call"
    assert "goes on" in fake.to(alice)[-1].content
    assert any(r.route == POST and r.time >= started for r in fake.requests[since:])


async def test_a_late_read_only_command_is_deferred_then_answered(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    late = await fake.slash(alice, "game status", age=2.0)
    answer = await late.result()
    assert late.deferred and not late.failed and "no game" in answer.content.lower()
    fresh = await fake.slash(alice, "game status")
    await fresh.result()
    assert not fresh.deferred, "fresh and read-only: answered in one call"
