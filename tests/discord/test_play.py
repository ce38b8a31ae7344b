"""Playing through Discord: buttons, selects, autocomplete, a restart, refusals, failures."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.discord import client as client_module
from bot.service import Actor, Place, Reply
from tests.discord.cards import Cards
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord, FakeUser, Sent


async def started_tiny(fake: FakeDiscord, *players: FakeUser, rounds: int = 2) -> Sent:
    """Open, fill and start a tiny game; returns the channel message of the first phase."""
    await (await fake.slash(players[0], "tiny new", rounds=rounds)).result()
    for player in players[1:]:
        await (await fake.slash(player, "game join")).result()
    await (await fake.slash(players[0], "game start")).result()
    await fake.idle()
    return fake.in_channel()[-1]


async def test_buttons_resolve_a_phase_with_one_channel_message(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)
    before = len(fake.in_channel())
    edits = len(fake.edits)  # the lobby's, so far

    first = await fake.click(alice, phase, "bid 3")
    ack = await first.result()
    # A click may change the game: deferred (without a message) before it runs, then answered
    # by the edit of the message clicked (an interaction call: not counted by the rate limit).
    assert first.callback is not None and first.callback["type"] == 6
    assert ack.kind == "edit" and ack.message["id"] == phase.message["id"]
    await fake.idle()
    [private] = [m for m in first.messages if m.ephemeral]
    assert "Alice bids 3." in private.content, "her own bid, told to her alone, after it"
    assert len(fake.in_channel()) == before, "readiness is never a new post"
    [edit] = fake.edits[edits:]
    assert edit.message["id"] == phase.message["id"], "it edits the phase message in place"
    assert "✅ Alice is ready." in edit.content and "⏳ <@102>" in edit.content
    assert "3" not in edit.content, "a secret bid stays secret"
    assert not edit.allowed_mentions.get("users"), "an edit pings nobody again"

    await (await fake.click(bob, phase, "bid 1")).result()
    await fake.idle()
    resolved = fake.in_channel()[before:]
    assert len(resolved) == 1, "the phase resolves with exactly one channel message"
    assert "The bids are shown." in resolved[0].text
    assert resolved[0].allowed_mentions["users"] == [101], "only the awaited player is pinged"
    assert set(resolved[0].buttons) == {"take", "pass"}


async def test_typed_game_command(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    await started_tiny(fake, alice)
    bid = await fake.slash(alice, "tiny bid", amount=2)
    # A move: deferred ("thinking…") before it runs; the answer replaces the thinking message.
    assert (await bid.result()).ephemeral and bid.deferred
    await fake.idle()
    assert set(fake.in_channel()[-1].buttons) == {"take", "pass"}


async def test_buttons_still_work_after_a_restart(fake: FakeDiscord, bots: Bots) -> None:
    first = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)
    await (await fake.click(alice, phase, "bid 2")).result()
    await fake.idle()

    await bots.stop(first)  # the process dies; a new one starts on the same database
    await bots.start()
    before = len(fake.in_channel())
    answer = await (await fake.click(bob, phase, "bid 3")).result()
    assert answer.ephemeral and "⚠️" not in answer.content
    await fake.idle()
    resolved = fake.in_channel()[before:]
    assert len(resolved) == 1 and set(resolved[0].buttons) == {"take", "pass"}


async def test_a_user_who_is_not_seated_cannot_act(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    eve = fake.add_user(666, "Eve")
    phase = await started_tiny(fake, alice, bob)
    before = len(fake.in_channel())
    clicked = await (await fake.click(eve, phase, "bid 1")).result()
    assert clicked.ephemeral and "not playing" in clicked.content
    typed = await (await fake.slash(eve, "tiny bid", amount=1)).result()
    assert typed.ephemeral and "not playing" in typed.content
    await fake.idle()
    assert len(fake.in_channel()) == before


async def test_stale_button_is_refused_politely(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    phase = await started_tiny(fake, alice)
    await (await fake.click(alice, phase, "bid 1")).result()  # resolves: the phase moves on
    again = await (await fake.click(alice, phase, "bid 2")).result()
    assert again.ephemeral and "earlier phase" in again.content


async def test_autocomplete_and_select(fake: FakeDiscord, bots: Bots, cards: Cards) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "cards new")).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    phase = fake.in_channel()[-1]

    offered = await fake.autocomplete(alice, "cards pick", "card", typed="")
    assert [c["value"] for c in offered] == ["ace", "king", "queen", "jack", "ten"]
    narrowed = await fake.autocomplete(alice, "cards pick", "card", typed="QU")
    assert [c["value"] for c in narrowed] == ["queen"]
    assert await fake.autocomplete(bob, "cards pick", "card") == [], "not your turn: nothing"

    picked = await (await fake.slash(alice, "cards pick", card="queen")).result()
    assert "⚠️" not in picked.content
    again = await (await fake.slash(bob, "cards pick", card="joker")).result()
    assert again.ephemeral and "⚠️" in again.content, "a typed value is validated again"
    await fake.idle()

    phase = fake.in_channel()[-1]
    [select] = phase.selects
    assert {o["value"] for o in select["options"]} == {"a", "b", "c"}
    chosen = await (await fake.choose(bob, phase, select["custom_id"], ["a", "c"])).result()
    assert chosen.ephemeral and "⚠️" not in chosen.content


async def test_a_crash_in_a_click_gets_a_message_and_a_log_line(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, errors: Callable[[], list[str]]
) -> None:
    bot = await bots.start()
    alice = fake.add_user(101, "Alice", locale="es-ES")
    phase = await started_tiny(fake, alice)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(bot.get_service(), "press", broken)
    answer = await (await fake.click(alice, phase, "bid 1")).result()
    assert answer.ephemeral and "Algo ha fallado" in answer.content
    [logged] = [e for e in errors() if "press" in e]
    game_id = phase.buttons["bid 1"].split(":")[1]
    assert f"game {game_id}" in logged

    monkeypatch.setattr(bot.get_service(), "status", broken)
    status = await (await fake.slash(alice, "game status")).result()
    assert "Algo ha fallado" in status.content


async def test_slow_work_is_deferred_in_time(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await bots.start()
    alice = fake.add_user(101, "Alice")
    monkeypatch.setattr(client_module, "ANSWER_WINDOW", 0.05)
    service = bot.get_service()
    real_status = service.status

    async def slow_status(actor: Actor, place: Place) -> Reply:
        import asyncio

        await asyncio.sleep(0.3)
        return await real_status(actor, place)

    monkeypatch.setattr(service, "status", slow_status)
    exchange = await fake.slash(alice, "game status")
    answer = await exchange.result()
    assert exchange.deferred and "no game" in answer.content.lower()
