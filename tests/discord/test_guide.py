"""Help for newcomers through the real client: /help, the welcome on joining a server, and
/game mine with links to the games' channels."""

from __future__ import annotations

from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord
from tests.fakediscord.payloads import SEND_MESSAGES


async def test_help_is_private_and_in_the_readers_language(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    ana = fake.add_user(101, "Ana", "es-ES")
    tom = fake.add_user(102, "Tom")

    general = await (await fake.slash(ana, "help")).result()
    assert general.ephemeral
    assert "`/partida nueva`" in general.content and "/partida unirse" in general.content
    assert "Dragon Farkle" in general.content and "/game" not in general.content

    farkle = await (await fake.slash(ana, "help", game="farkle")).result()
    assert farkle.ephemeral and "/farkle nueva" in farkle.content
    assert "/partida reglas juego:farkle" in farkle.content

    english = await (await fake.slash(tom, "help", game="badbones")).result()
    assert "`/badbones move` (Move your hero one square (phase 1))" in english.content
    assert "1–6 players" in english.content
    assert fake.in_channel() == [], "help is never posted in the channel"


async def test_the_bot_greets_a_new_server_where_it_may_post(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    guild = fake.guild_id + 100
    rules, lounge = guild + 1, guild + 2
    await fake.join_guild(
        guild, {rules: "rules", lounge: "lounge"}, "es-ES", denied={rules: SEND_MESSAGES}
    )
    await fake.idle()
    assert fake.in_channel(rules) == []
    [hello] = fake.in_channel(lounge)
    assert "¡Hola! Soy **Partida**" in hello.content and "`/ayuda`" in hello.content
    assert hello.allowed_mentions["parse"] == []


async def test_the_welcome_goes_to_the_system_channel(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    guild = fake.guild_id + 200
    first, system = guild + 1, guild + 2
    await fake.join_guild(guild, {first: "general", system: "welcome"}, system_channel=system)
    await fake.idle()
    assert fake.in_channel(first) == []
    [hello] = fake.in_channel(system)
    assert "Type `/help` to begin" in hello.content


async def test_mine_lists_open_games_with_jump_links(fake: FakeDiscord, bots: Bots) -> None:
    other = fake.channel_id + 1
    fake.channels[other] = "more-games"
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    nothing = await (await fake.slash(alice, "game mine")).result()
    assert nothing.ephemeral and "no open game" in nothing.content

    await (await fake.slash(alice, "tiny new")).result()
    await (await fake.slash(bob, "game new", channel_id=other, game="tiny")).result()
    await (await fake.slash(alice, "game join", channel_id=other)).result()
    await (await fake.slash(bob, "game start", channel_id=other)).result()

    mine = await (await fake.slash(alice, "game mine")).result()
    assert mine.ephemeral
    base = f"https://discord.com/channels/{fake.guild_id}"
    # each game is played in a thread of its channel: the links go to the threads
    assert f"(waiting for players): {base}/" in mine.content
    assert f"(in play): {base}/" in mine.content
    bobs = await (await fake.slash(bob, "game mine")).result()
    assert bobs.content.count(f"{base}/") == 1, "bob sits at one game only"


async def test_a_spanish_table_reads_its_options_in_spanish(bots: Bots) -> None:
    fake = bots.fake
    fake.guild_locale = "es-ES"
    await bots.start()
    ana = fake.add_user(101, "Ana", "es-ES")
    await (await fake.slash(ana, "badbones new", advanced=True, chiefs=True)).result()
    await fake.idle()
    announce = fake.in_channel()[-1].content
    assert "Avanzado: sí · Jefes: sí" in announce
    assert "advanced" not in announce and "True" not in announce
