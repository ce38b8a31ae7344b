"""The lobby through the real discord.py client and the fake Discord: what users see."""

from __future__ import annotations

from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_new_join_start_cancel(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    bob = fake.add_user(102, "Bob")

    opened = await (await fake.slash(alice, "tiny new", rounds=3)).result()
    assert opened.ephemeral and "You opened a game" in opened.content
    await fake.idle()
    [lobby] = fake.in_channel()
    assert "hosted by Alice" in lobby.content and "rounds=3" in lobby.content
    assert set(lobby.buttons) == {"Join", "Leave", "Start"}

    joined = await (await fake.slash(bob, "game join")).result()
    assert joined.ephemeral and "You joined" in joined.content
    await fake.idle()
    assert len(fake.in_channel()) == 1, "a join edits the lobby message, posts nothing"
    assert "2/4: Alice, Bob" in fake.in_channel()[-1].content

    start = await fake.slash(alice, "game start")
    started = await start.result()
    assert start.deferred, "start may render: it is deferred at once"
    assert started.ephemeral and "started" in started.content
    await fake.idle()
    phase = fake.in_channel()[-1]
    assert phase.kind == "channel"
    assert "<@101>" in phase.content and "<@102>" in phase.content
    assert sorted(phase.allowed_mentions["users"]) == [101, 102]
    assert phase.allowed_mentions["parse"] == []
    assert set(phase.buttons) == {"bid 1", "bid 2", "bid 3"}

    status = await (await fake.slash(bob, "game status")).result()
    assert status.ephemeral and "Alice" in status.content

    cancelled = await (await fake.slash(alice, "game cancel")).result()
    assert cancelled.ephemeral and "cancelled" in cancelled.content
    await fake.idle()
    assert any("cancelled" in s.content for s in fake.in_channel())
    nothing = await (await fake.slash(bob, "game status")).result()
    assert "no game" in nothing.content.lower()


async def test_refusals_are_private_and_polite(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    bob = fake.add_user(102, "Bob")
    assert "no game" in (await (await fake.slash(bob, "game join")).result()).content.lower()
    await (await fake.slash(alice, "tiny new")).result()
    twice = await (await fake.slash(alice, "game join")).result()
    assert twice.ephemeral and "already joined" in twice.content
    not_host = await (await fake.slash(bob, "game start")).result()
    assert not_host.ephemeral and "host" in not_host.content.lower()
    await fake.idle()
    assert len(fake.in_channel()) == 1, "refusals post nothing in the channel"


async def test_kick_rules_settings_history(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    bob = fake.add_user(102, "Bob")
    mod = fake.add_user(103, "Mod", manage=True)
    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "game join")).result()
    kicked = await (await fake.slash(mod, "game kick", player=bob)).result()
    assert "Bob" in kicked.content and "removed" in kicked.content

    rules = await (await fake.slash(bob, "game rules", game="tiny")).result()
    assert rules.ephemeral and rules.content

    settings = await (await fake.slash(alice, "game settings", deadline=30, reminder=5)).result()
    assert settings.ephemeral and "30" in settings.content

    await (await fake.slash(mod, "game cancel")).result()  # Manage Channels may cancel
    history = await (await fake.slash(bob, "game history")).result()
    assert history.ephemeral and history.content


async def test_spanish_user_gets_spanish_replies(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    ana = fake.add_user(201, "Ana", locale="es-ES")
    tom = fake.add_user(202, "Tom", locale="en-GB")
    opened = await (await fake.slash(ana, "tiny new")).result()
    assert "Has abierto una partida" in opened.content
    joined = await (await fake.slash(tom, "game join")).result()
    assert "You joined" in joined.content, "each user in their own language"
    await fake.idle()
    assert "hosted by" in fake.in_channel()[-1].content, "the channel follows the server's locale"
    latam = fake.add_user(203, "Luz", locale="es-419")
    refused = await (await fake.slash(latam, "game start")).result()
    assert "Solo" in refused.content or "solo" in refused.content


async def test_public_messages_follow_the_server_locale(bots: Bots) -> None:
    bots.fake.guild_locale = "es-ES"
    await bots.start()
    tom = bots.fake.add_user(202, "Tom", locale="en-US")
    opened = await (await bots.fake.slash(tom, "tiny new")).result()
    assert "You opened" in opened.content
    await bots.fake.idle()
    assert "organiza Tom" in bots.fake.in_channel()[-1].content


async def test_display_names_cannot_ping_everyone(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    troll = fake.add_user(301, "@everyone")
    await (await fake.slash(troll, "tiny new")).result()
    await fake.idle()
    for sent in fake.messages.values():
        mentions = sent.allowed_mentions
        assert "everyone" not in mentions.get("parse", []) and "roles" not in mentions.get(
            "parse", []
        )


async def test_one_game_per_channel_side_by_side(fake: FakeDiscord, bots: Bots) -> None:
    other = fake.channel_id + 1
    fake.channels[other] = "more-games"
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "tiny new", channel_id=other, rounds=5)).result()
    # (In the first channel the game may have moved to its thread by now, which frees the
    # channel for another: the second, whose lobby stays in its channel, is the one to try.)
    again = await (await fake.slash(alice, "tiny new", channel_id=other)).result()
    assert "already has a game" in again.content
    await fake.idle()
    assert "rounds=5" in fake.in_channel(other)[-1].content
    assert "the usual ones" in fake.in_channel()[-1].content  # (rounds 2 is the default)


async def test_lobby_buttons_join_leave_start(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    ana = fake.add_user(101, "Ana", locale="es-ES")
    bob = fake.add_user(102, "Bob")
    fake.guild_locale = "es-ES"
    await (await fake.slash(ana, "tiny new")).result()
    await fake.idle()
    [lobby] = fake.in_channel()
    assert set(lobby.buttons) == {"Unirme", "Salir", "Empezar"}, "the server's language"
    assert "las de siempre" in lobby.content or "rounds" in lobby.content

    # A click that changes the lobby is answered by the lobby's edit (quiet-turn), the
    # clicker's private line after it.
    join = await fake.click(bob, lobby, "Unirme")
    joined = await join.result()
    assert joined.kind == "edit" and joined.message["id"] == lobby.message["id"]
    await fake.idle()
    [private] = [m for m in join.messages if m.ephemeral]
    assert "joined" in private.content, "Bob reads his own language"
    again = await (await fake.click(bob, lobby, "Unirme")).result()
    assert "already joined" in again.content
    not_host = await (await fake.click(bob, lobby, "Empezar")).result()
    assert "host" in not_host.content.lower()
    await fake.idle()
    assert "2/4: Ana, Bob" in fake.in_channel()[-1].content
    leave = await fake.click(bob, lobby, "Salir")
    left = await leave.result()
    assert left.kind == "edit" and left.message["id"] == lobby.message["id"]
    await fake.idle()
    assert [m for m in leave.messages if m.ephemeral], "Bob is told he left"
    await fake.idle()
    assert "1/4: Ana" in fake.in_channel()[-1].content
    await (await fake.click(bob, lobby, "Unirme")).result()
    await (await fake.click(ana, lobby, "Empezar")).result()
    await fake.idle()
    lobby_now, phase = fake.in_channel()
    assert "Ha empezado" in lobby_now.content and not lobby_now.buttons, "no stale buttons"
    assert phase.buttons
    assert len(fake.posted) == 2, "the lobby and the first phase: edits did the rest"
