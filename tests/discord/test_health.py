"""``/healthz`` and ``/metrics`` on a running bot (the fake Discord, the real service): they
answer, count what the bot did, and turn red when the database or the gateway is gone."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import aiohttp
import pytest

from bot.discord.client import PartidaBot
from bot.store import outage
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord
from tests.support.ports import free_port


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status, await r.text()


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value from Prometheus's text format."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    head = f"{name}{{{wanted}}}" if labels else name
    for line in text.splitlines():
        if line.startswith(head + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no {head} in the metrics")


@pytest.fixture
def port(monkeypatch: pytest.MonkeyPatch) -> int:
    chosen = free_port()
    monkeypatch.setenv("HEALTH_PORT", str(chosen))
    return chosen


async def started(bots: Bots) -> PartidaBot:
    bot = await bots.start()
    assert bot.health is not None and bot.health.port
    return bot


async def test_off_unless_a_port_is_set(bots: Bots, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEALTH_PORT", raising=False)
    bot = await bots.start()
    assert bot.health is None


async def test_healthz_and_metrics_answer_on_localhost(
    bots: Bots, fake: FakeDiscord, port: int
) -> None:
    bot = await started(bots)
    status, body = await get(port, "/healthz")
    assert status == 200, body
    said = json.loads(body)
    assert said["ok"] and said["gateway"]["ok"] and said["database"]["ok"] and said["sender"]["ok"]
    before_status, before = await get(port, "/metrics")
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "game new", game="tiny")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(bob, "game join")).result()  # refused: already joined
    await (await fake.slash(alice, "game mine")).result()  # read-only, outside the loop
    await fake.idle()
    status, text = await get(port, "/metrics")
    assert status == 200 and before_status == 200
    assert sample(text, "partida_gateway_up") == 1 and sample(text, "partida_database_up") == 1

    def grew(name: str, **labels: str) -> float:
        try:
            old = sample(before, name, **labels)
        except AssertionError:
            old = 0.0
        return sample(text, name, **labels) - old

    assert grew("partida_commands_total", command="new", outcome="ok") == 1
    assert grew("partida_commands_total", command="join", outcome="ok") == 1
    assert grew("partida_commands_total", command="join", outcome="refused") == 1
    assert grew("partida_refusals_total", key="lobby.error.already_joined") == 1
    assert grew("partida_commands_total", command="mine", outcome="ok") == 1
    assert grew("partida_answer_seconds_count") == 4
    assert sample(text, "partida_games_open", game="tiny", status="lobby") == 1
    for name in ("partida_posts_waiting", "partida_posts_failed", "partida_render_queue"):
        assert sample(text, name) == 0
    # Only on the loopback address by default.
    bound = bot.health._runner.addresses if bot.health and bot.health._runner else []
    assert bound and all(address[0] == "127.0.0.1" for address in bound), bound


async def test_red_when_the_database_is_gone(
    bots: Bots, fake: FakeDiscord, port: int, tmp_path: Path
) -> None:
    """The SQLite file goes away (as with a disk unmounted) and the pool's connections are
    closed: every new connection fails. Then it comes back."""
    bot = await started(bots)
    assert bot.service is not None
    # The file replaced by a folder, which SQLite cannot open (nothing else runs in between),
    # and the pool's open connections closed.
    (tmp_path / "partida.db").rename(tmp_path / "gone.db")
    (tmp_path / "partida.db").mkdir()
    await bot.service.engine.dispose()
    status, body = await get(port, "/healthz")
    assert status == 503, body
    said = json.loads(body)
    assert not said["ok"] and not said["database"]["ok"] and said["gateway"]["ok"]
    status, text = await get(port, "/metrics")
    assert status == 200 and sample(text, "partida_database_up") == 0
    (tmp_path / "partida.db").rmdir()
    (tmp_path / "gone.db").rename(tmp_path / "partida.db")
    status, body = await get(port, "/healthz")
    assert status == 200, body
    outage.database.worked()


async def test_red_when_the_gateway_is_gone(
    bots: Bots, fake: FakeDiscord, port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord drops the bot's gateway connection and keeps it down: the bot tries to connect
    anew (discord.py does, at once) but no session comes."""
    await started(bots)
    await fake.drop_gateway(resume=False, down=30.0)
    status, body = 200, ""
    for _ in range(100):  # until the bot has noticed the drop
        status, body = await get(port, "/healthz")
        if status == 503:
            break
        await asyncio.sleep(0.05)
    assert status == 503, body
    said = json.loads(body)
    assert not said["gateway"]["ok"] and said["database"]["ok"]
    status, text = await get(port, "/metrics")
    assert sample(text, "partida_gateway_up") == 0


async def test_a_port_in_use_leaves_the_bot_running_without_it(
    bots: Bots, fake: FakeDiscord, port: int, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        bot = await bots.start()
    assert bot.health is None
    assert any("cannot serve /healthz" in r.getMessage() for r in caplog.records)
