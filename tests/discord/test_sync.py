"""`partida sync`: the command tree Discord receives passes every limit, for every game."""

from __future__ import annotations

import pytest

from bot.discord import async_sync_commands
from rules import game_names, get_game
from tests.fakediscord import FakeDiscord


@pytest.mark.parametrize("scope", ["global", "guild"])
async def test_sync_sends_a_valid_tree_for_every_game(fake: FakeDiscord, scope: str) -> None:
    guild = fake.guild_id if scope == "guild" else None
    registered = await async_sync_commands(fake.token, guild)
    assert not fake.violations, fake.violations  # the fake checked every limit
    [(sent_scope, payload)] = fake.sync_payloads
    assert sent_scope == guild
    by_name = {c["name"]: c for c in payload}
    games = game_names()
    assert set(by_name) == {"game", *games}
    assert len(registered) == len(payload)

    lobby = by_name["game"]
    new = next(o for o in lobby["options"] if o["name"] == "new")
    assert {o["name"] for o in new["options"]} == set(games)
    rules_game = next(o for o in lobby["options"] if o["name"] == "rules")["options"][0]
    assert {c["value"] for c in rules_game["choices"]} == set(games)

    for name in games:
        engine = get_game(name)
        group = by_name[name]
        assert group["dm_permission"] is False or group.get("contexts") == [0]
        assert {o["name"] for o in group["options"]} == {c.name for c in engine.commands}
        options = {
            o["name"]: o
            for o in next(o for o in new["options"] if o["name"] == name).get("options", [])
        }
        assert set(options) == {s.name for s in engine.option_specs}


async def test_the_tree_is_localized_for_spanish(fake: FakeDiscord) -> None:
    await async_sync_commands(fake.token, fake.guild_id)
    [(_, payload)] = fake.sync_payloads
    lobby = next(c for c in payload if c["name"] == "game")
    assert lobby["name_localizations"]["es-ES"] == "partida"
    assert lobby["description_localizations"]["es-ES"].startswith("Juega")
    join = next(o for o in lobby["options"] if o["name"] == "join")
    assert join["name_localizations"] == {"es-ES": "unirse", "es-419": "unirse"}
    for game in game_names():
        if f"{game}.name" == (label := _choice_label(lobby, game)):
            continue  # a game without a catalogue yet (the test game)
        assert label


def _choice_label(lobby: dict[str, object], game: str) -> str:
    options = lobby["options"]
    assert isinstance(options, list)
    rules = next(o for o in options if o["name"] == "rules")
    return str(next(c["name"] for c in rules["options"][0]["choices"] if c["value"] == game))


async def test_sync_needs_no_gateway_and_no_service(fake: FakeDiscord) -> None:
    await async_sync_commands(fake.token, None)
    assert not fake.identified.is_set(), "sync only talks REST"


async def test_every_catalogue_command_name_reaches_discord(fake: FakeDiscord) -> None:
    """A localized name that Discord would refuse is dropped by the translator (English stays);
    this test names it so the catalogue gets fixed."""
    from i18n import has, t

    await async_sync_commands(fake.token, None)
    [(_, payload)] = fake.sync_payloads
    dropped = []
    for group in payload:
        game = group["name"]
        for command in group.get("options", []):
            key = f"{game}.command_name.{command['name']}"
            if (
                game != "game"
                and has(key, "es")
                and command["name_localizations"].get("es-ES") != t(key, "es")
            ):
                dropped.append(f"{key} = {t(key, 'es')!r}")
            for param in command.get("options", []):
                key = f"{game}.param_name.{param['name']}"
                if (
                    game != "game"
                    and has(key, "es")
                    and param.get("name_localizations", {}).get("es-ES") != t(key, "es")
                ):
                    dropped.append(f"{key} = {t(key, 'es')!r}")
    assert not dropped, "invalid Spanish names: " + ", ".join(dropped)


async def test_the_blocking_entry_point_used_by_partida_sync(fake: FakeDiscord) -> None:
    import asyncio

    from bot.discord import sync_commands

    # `partida sync` runs its own event loop; the fake answers from this one.
    count = await asyncio.to_thread(sync_commands, fake.token, fake.guild_id)
    assert count == 1 + len(game_names())
    assert fake.registered(fake.guild_id)
