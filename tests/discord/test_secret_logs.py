"""No log line carries what a player typed, nor an interaction token, at any level.

End to end: the real discord.py client talks to the fake Discord with the bot's own logging
set-up at DEBUG, so every record of every logger (discord.gateway's event dumps, discord.http's
and discord.webhook's request lines, the service's command lines) lands in the buffer read here.
"""

from __future__ import annotations

import io
import logging

import pytest

from bot.logs import DiscordPayloads
from tests.discord.cards import Cards
from tests.discord.conftest import Bots
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import FOLLOWUP, ORIGINAL, Fault
from tests.reliability.common import production_logging

# A value nobody else would log: if it shows up anywhere, it came from the player's input.
MARKER = "quokka7c1fsecret"


async def play_with_a_secret(fake: FakeDiscord, bots: Bots) -> list[str]:
    """A cards game in which Alice types the marker as an argument and as an autocomplete
    query; returns every interaction token the fake handed out."""
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "cards new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    await fake.autocomplete(alice, "cards pick", "card", typed=MARKER)
    refused = await (await fake.slash(alice, "cards pick", card=MARKER)).result()
    assert refused.ephemeral and "⚠️" in refused.content
    picked = await (await fake.slash(alice, "cards pick", card="queen")).result()
    assert "⚠️" not in picked.content
    await fake.idle()
    return [exchange.token for exchange in fake.exchanges.values()]


def secrets_in(logged: str, tokens: list[str], bot_token: str) -> list[str]:
    found = [
        name
        for name, value in [("the typed argument", MARKER), ("the bot token", bot_token)]
        if value in logged
    ]
    found += [f"interaction token {token}" for token in tokens if token in logged]
    return found


async def test_debug_logs_hold_no_argument_and_no_token(
    fake: FakeDiscord, bots: Bots, cards: Cards, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", fake.token)
    with production_logging("DEBUG") as logs:
        tokens = await play_with_a_secret(fake, bots)
        for bot in list(bots.running):
            await bots.stop(bot)
    logged = logs.getvalue()
    # The payload lines are there, reduced to what happened: the test saw them.
    assert "logger=discord.gateway" in logged and "t=INTERACTION_CREATE" in logged
    assert "/callback" in logged, "discord.py's request lines were logged (token redacted)"
    assert len(tokens) >= 6
    assert secrets_in(logged, tokens, fake.token) == []


@pytest.mark.parametrize("disabled", ["payload filter", "token redaction"])
async def test_without_the_filters_the_same_game_leaks(
    fake: FakeDiscord,
    bots: Bots,
    cards: Cards,
    monkeypatch: pytest.MonkeyPatch,
    disabled: str,
) -> None:
    """The check above can fail: with the payload filter switched off, discord.py's own DEBUG
    lines show the typed argument; without the interaction-token redaction, the tokens."""
    import re

    import bot.logs

    monkeypatch.setenv("DISCORD_TOKEN", fake.token)
    if disabled == "payload filter":
        monkeypatch.setattr(DiscordPayloads, "filter", lambda self, record: True)
    else:
        never = re.compile(r"(?!x)(x)")
        monkeypatch.setattr(bot.logs, "_URL_TOKEN", never)
        monkeypatch.setattr(bot.logs, "_TOKEN_FIELD", never)
    with production_logging("DEBUG") as logs:
        tokens = await play_with_a_secret(fake, bots)
        for running in list(bots.running):
            await bots.stop(running)
    found = secrets_in(logs.getvalue(), tokens, fake.token)
    if disabled == "payload filter":
        assert "the typed argument" in found
    else:
        assert "the typed argument" not in found
        assert any(f.startswith("interaction token") for f in found)


def test_the_filter_keeps_the_event_and_drops_its_payload() -> None:
    """Records shaped like discord.py's: a gateway event dump and a REST request line."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(DiscordPayloads())
    logger = logging.getLogger("discord.gateway")
    event = {
        "op": 0,
        "t": "INTERACTION_CREATE",
        "s": 7,
        "d": {"id": "123", "type": 2, "token": "itoken.abc", "data": {"options": [MARKER]}},
    }
    record = logger.makeRecord(
        logger.name,
        logging.DEBUG,
        __file__,
        1,
        "For Shard ID %s: WebSocket Event: %s",
        (0, event),
        None,
    )
    handler.handle(record)
    http = logging.getLogger("discord.http")
    request = http.makeRecord(
        http.name,
        logging.DEBUG,
        __file__,
        1,
        "%s %s with %s has returned %s",
        (
            "POST",
            "http://x/api/v10/interactions/123/itoken.abc/callback",
            '{"type": 4, "data": {"content": "' + MARKER + '"}}',
            200,
        ),
        None,
    )
    from bot.logs import Redact

    handler.addFilter(Redact())
    handler.handle(request)
    out = stream.getvalue()
    assert "t=INTERACTION_CREATE" in out and "d.id=123" in out and "s=7" in out
    assert "/interactions/123/[token]/callback" in out and "type=4" in out
    assert MARKER not in out and "itoken.abc" not in out


async def test_a_click_whose_answer_fails_logs_its_command_not_the_choice_on_its_button(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A button's id carries the choice it makes (a sealed bid: ``…:bid:amount=3``). When the
    click's answer fails after the move was saved, the log line says which command failed, in
    which game, channel and for whom, never that choice: the others have not seen it yet."""
    monkeypatch.setenv("DISCORD_TOKEN", fake.token)
    with production_logging("DEBUG") as logs:
        await bots.start()
        alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
        phase = await started_tiny(fake, alice, bob)
        secret = phase.buttons["bid 3"].split(":", 3)[3]  # "bid:amount=3"
        # The edit that answers the click fails (Discord lost the interaction), and so does the
        # follow-up with the player's own lines: they are told their bid is saved.
        fake.inject(Fault(method="PATCH", route=ORIGINAL, status=404))
        fake.inject(Fault(method="POST", route=FOLLOWUP, status=400))
        told = await (await fake.click(alice, phase, "bid 3")).result()
        assert "saved" in told.content
        await fake.idle()
        for bot in list(bots.running):
            await bots.stop(bot)
    lines = logs.getvalue().splitlines()
    assert any("failed after its work was saved" in line for line in lines), "it was logged"
    assert [line for line in lines if secret in line or "amount=3" in line] == []
