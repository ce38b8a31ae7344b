"""The whole command tree the bot uploads (``partida sync``, guild and global) is what Discord's
own schema accepts, and so is the tree each reader sees in every language the bot speaks."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord import async_sync_commands
from bot.discord.translator import LOCALES
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.discord.test_threads import a_while_later
from tests.fakediscord import FakeDiscord, limits
from tests.fakediscord.schema import schemas

# The bot's default texts are English; Discord shows them to en-US readers and to any locale
# without a localization. The translated locales are the translator's.
DEFAULT = "en-US"
TRANSLATED = sorted(locale.value for locale in LOCALES)


def _upload_problems(scope: int | None, body: list[dict[str, Any]]) -> list[str]:
    path = (
        "/applications/1/commands" if scope is None else f"/applications/1/guilds/{scope}/commands"
    )
    operation = schemas().find("PUT", path)
    assert operation is not None
    return [str(problem) for problem in schemas().check_request(operation, body)]


def _as_seen_in(node: Any, locale: str) -> Any:
    """The tree as a reader in ``locale`` sees it: each name and description in that locale
    (its localization, or the default text), without the localization maps."""
    if isinstance(node, list):
        return [_as_seen_in(item, locale) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key.endswith("_localizations"):
            continue
        localized = (node.get(f"{key}_localizations") or {}).get(locale)
        out[key] = localized if localized is not None else _as_seen_in(value, locale)
    return out


@pytest.mark.parametrize("scope", ["global", "guild"])
async def test_the_whole_upload_is_schema_valid_in_every_locale(
    fake: FakeDiscord, scope: str
) -> None:
    guild = fake.guild_id if scope == "guild" else None
    await async_sync_commands(fake.token, guild)  # refused by the fake if the schema says no
    [(sent_scope, body)] = fake.sync_payloads
    assert sent_scope == guild
    assert fake.registered(guild), "Discord took the upload"
    assert _upload_problems(guild, body) == []

    assert TRANSLATED, "the bot translates the tree"
    lobby = next(command for command in body if command["name"] == "game")
    for locale in TRANSLATED:
        assert locale in lobby["name_localizations"], f"/game is not translated for {locale}"
    for locale in [DEFAULT, *TRANSLATED]:
        seen = _as_seen_in(body, locale)
        assert _upload_problems(guild, seen) == [], locale
        assert limits.check_commands(seen) == [], locale


async def test_a_bound_past_discords_integers_is_refused_with_the_whole_upload(
    fake: FakeDiscord,
) -> None:
    """What happened before: ``/game replay game`` declared max_value 2**53 and Discord would
    have refused every command of the upload."""
    await async_sync_commands(fake.token, fake.guild_id)
    [(_, body)] = fake.sync_payloads
    replay = next(
        option
        for command in body
        if command["name"] == "game"
        for option in command["options"]
        if option["name"] == "replay"
    )
    assert replay["options"][0]["max_value"] == 2**53 - 1
    replay["options"][0]["max_value"] = 2**53
    [problem] = _upload_problems(fake.guild_id, body)
    assert ".max_value: int value should be less than or equal to 9007199254740991." in problem


async def test_the_fakes_answers_to_a_game_are_as_discords_schemas_say(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    """A game in its thread, from the lobby to the archive, touches most routes: each answer of
    the fake is checked against Discord's response schema (a thread is answered 201)."""
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new", rounds=1)).result()
    await fake.idle()
    [lobby] = fake.in_channel()
    thread = next(iter(fake.threads))
    await (await fake.click(bob, lobby, "Join")).result()
    await (await fake.slash(alice, "game start", channel_id=thread)).result()
    await fake.idle()
    for user, label in ((alice, "bid 3"), (bob, "bid 1")):
        await (await fake.click(user, fake.in_channel(thread)[-1], label)).result()
    await fake.idle()
    await (await fake.click(alice, fake.in_channel(thread)[-1], "take")).result()
    await fake.idle()
    await (await fake.click(bob, fake.in_channel(thread)[-1], "pass")).result()
    await fake.idle()
    await a_while_later(fake, bot, clock, thread)
    assert fake.archived(thread)

    assert fake.unlike_discord == []
    assert fake.schema_checked >= {
        ("GET", "/gateway/bot", 200),
        ("GET", "/oauth2/applications/@me", 200),
        ("GET", "/users/@me", 200),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", 200),
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 200),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", 200),
        ("POST", "/channels/{channel_id}/messages", 200),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", 200),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", 201),
        ("PATCH", "/channels/{channel_id}", 200),
    }
