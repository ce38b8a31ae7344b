"""A clean stop and odd interactions: nothing is left as "thinking…" or "This interaction failed".

The stop tests run the production entry point (:func:`bot.discord.run.serve`) against the fake
Discord and send this very process a real SIGTERM while a command is in flight.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.discord import async_sync_commands
from bot.discord import client as client_module
from bot.discord.client import PartidaBot
from bot.discord.run import serve
from i18n import t
from tests.discord.cards import Cards
from tests.discord.conftest import Bots
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord

RESTARTING = t("discord.error.restarting", "en")


@pytest.fixture
async def served(
    fake: FakeDiscord, database: str
) -> AsyncIterator[tuple[PartidaBot, asyncio.Task[None]]]:
    """The bot as ``partida run`` runs it (its own service on the database), until SIGTERM."""
    await async_sync_commands(fake.token, fake.guild_id)
    bot = PartidaBot(database_url=database, guild_ready_timeout=0.05)
    task = asyncio.create_task(serve(bot, fake.token))
    await asyncio.wait_for(bot.wait_until_ready(), 20)
    yield bot, task
    if not task.done():
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def slow(bot: PartidaBot, name: str, seconds: float) -> None:
    """Make one service call take ``seconds`` (a slow database, a long render)."""
    service = bot.get_service()
    real: Callable[..., Awaitable[Any]] = getattr(service, name)

    async def slowly(*args: Any) -> Any:
        await asyncio.sleep(seconds)
        return await real(*args)

    setattr(service, name, slowly)


async def sigterm(bot: PartidaBot) -> None:
    # asyncio's handler replaces the default action (which would end the test run).
    assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
    os.kill(os.getpid(), signal.SIGTERM)
    async with asyncio.timeout(5):
        while not bot.draining:
            await asyncio.sleep(0.01)


async def test_sigterm_finishes_the_command_in_flight_and_refuses_new_ones(
    fake: FakeDiscord, served: tuple[PartidaBot, asyncio.Task[None]]
) -> None:
    bot, task = served
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    slow(bot, "status", 2.0)  # past the answer window: "thinking…" first
    in_flight = await fake.slash(alice, "game status")
    async with asyncio.timeout(5):
        while not in_flight.deferred:
            await asyncio.sleep(0.01)
    service = bot.get_service()
    closed: list[bool] = []
    real_close = service.close

    async def close() -> None:
        closed.append(bool(bot._in_flight))  # was anything still running?
        await real_close()

    service.close = close  # type: ignore[method-assign]  # noting, then the real close
    await sigterm(bot)
    late = await (await fake.slash(bob, "game status")).result()
    assert late.ephemeral and late.content == RESTARTING
    await asyncio.wait_for(task, 15)
    answer = await in_flight.result()
    assert "no game" in answer.content.lower(), "the command in flight got its real answer"
    assert bot.is_closed() and bot.service is None
    assert bot._deadline_task is None, "the deadline loop was stopped"
    assert closed == [False], "the database was closed once, after the last command"


async def test_a_command_longer_than_the_grace_is_answered_on_stop(
    fake: FakeDiscord,
    served: tuple[PartidaBot, asyncio.Task[None]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot, task = served
    monkeypatch.setattr(client_module, "STOP_GRACE", 0.3)
    alice = fake.add_user(101, "Alice", locale="es-ES")
    slow(bot, "status", 60.0)
    in_flight = await fake.slash(alice, "game status")
    async with asyncio.timeout(5):
        while not in_flight.deferred:
            await asyncio.sleep(0.01)
    await sigterm(bot)
    await asyncio.wait_for(task, 10)
    answer = await in_flight.result()
    assert answer.content == t("discord.error.restarting", "es"), "not 'thinking…' forever"


async def test_a_forged_button_id_gets_a_translated_ephemeral_answer(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob", locale="es-ES")
    phase = await started_tiny(fake, alice, bob)
    before = len(fake.in_channel())
    game = phase.buttons["bid 1"].split(":")[1]
    forged = [
        "hello",  # not ours at all
        f"pt:{game}:00000000:bid:amount=3",  # ours in shape, not on the message
        f"pt:{game}:zz:bid:amount=3",
    ]
    for custom_id in forged:
        answer = await (await fake.forge(alice, phase, custom_id)).result()
        assert answer.ephemeral and answer.content.endswith(t("lobby.error.stale_button", "en"))
    spanish = await (await fake.forge(bob, phase, "hello")).result()
    assert spanish.content.endswith(t("lobby.error.stale_button", "es"))
    await fake.idle()
    assert len(fake.in_channel()) == before, "nothing happened in the game"


async def test_autocomplete_of_a_changed_command_is_an_empty_list(
    fake: FakeDiscord, bots: Bots, cards: Cards
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "cards new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    # What Discord still shows after an upgrade, until `partida sync`: a command the bot no
    # longer has, and an option of a command it has that is no longer autocompleted.
    registered = fake.commands[fake.guild_id]
    [current] = [c for c in registered if c["name"] == "cards"]
    old = {**current, "id": "1", "name": "oldcards"}
    changed = {
        **current,
        "id": "2",
        "options": [
            {**sub, "options": [{**o, "name": "colour"} for o in sub.get("options") or []]}
            for sub in current["options"]
        ],
    }
    registered.append(old)
    assert await fake.autocomplete(alice, "oldcards pick", "card", typed="q") == []
    registered.remove(current)
    registered.append(changed)
    assert await fake.autocomplete(alice, "cards pick", "colour", typed="q") == []
    typed = await (await fake.slash(alice, "oldcards pick", card="queen")).result()
    assert typed.ephemeral and typed.content == t("discord.error.outdated", "en")
