"""`partida sync`: the command tree Discord receives passes every limit, for every game."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from bot.discord import async_sync_commands
from rules import game_names, get_game
from tests.fakediscord import FakeDiscord
from tests.support.registered import kept_games, playing


@pytest.fixture
def test_games_too() -> Iterator[None]:
    """The test games (Pig, Nim) registered too: their commands reach Discord as a shipped
    game's would, and pass its limits (the tree's size budgets stay the shipped games')."""
    with ExitStack() as stack:
        for name in kept_games():
            stack.enter_context(playing(name))
        yield


@pytest.mark.parametrize("scope", ["global", "guild"])
@pytest.mark.usefixtures("test_games_too")
async def test_sync_sends_a_valid_tree_for_every_game(fake: FakeDiscord, scope: str) -> None:
    guild = fake.guild_id if scope == "guild" else None
    registered = await async_sync_commands(fake.token, guild)
    assert not fake.violations, fake.violations  # the fake checked every limit
    [(sent_scope, payload)] = fake.sync_payloads
    assert sent_scope == guild
    by_name = {c["name"]: c for c in payload}
    games = game_names()
    assert set(by_name) == {"game", "help", "me", *games}
    assert len(registered) == len(payload)

    lobby = by_name["game"]
    for command in ("new", "rules"):
        chosen = _option(_option(lobby, command), "game")
        assert {c["value"] for c in chosen["choices"]} == set(games)
    assert {c["value"] for c in _option(by_name["help"], "game")["choices"]} == set(games)
    assert _option(lobby, "mine")["type"] == 1

    for name in games:
        engine = get_game(name)
        group = by_name[name]
        assert group["dm_permission"] is False or group.get("contexts") == [0]
        assert {o["name"] for o in group["options"]} == {"new"} | {c.name for c in engine.commands}
        new = {o["name"] for o in _option(group, "new").get("options", [])}
        assert new == {s.name for s in engine.option_specs}


def _option(command: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in command["options"] if o["name"] == name)


# Discord counts a command's characters per locale: each name, description and choice in that
# locale (its localization, or the default text), summed over the command and all its options.
LOCALES = ("en-US", "es-ES", "es-419")
TEN_GAMES = 10


def _size(obj: dict[str, Any], locale: str, skip: frozenset[str] = frozenset()) -> int:
    def local(field: str) -> int:
        return len((obj.get(f"{field}_localizations") or {}).get(locale, obj.get(field, "")))

    total = local("name") + local("description")
    for choice in obj.get("choices") or []:
        if choice["value"] not in skip:
            total += len((choice.get("name_localizations") or {}).get(locale, choice["name"]))
            total += len(str(choice["value"]))
    return total + sum(_size(o, locale, skip) for o in obj.get("options") or [])


async def test_ten_games_fit_in_every_command_in_every_locale(fake: FakeDiscord) -> None:
    """A top-level command grows with the number of games only by the game choices it lists
    (``/game new``, ``/game rules``, ``/help``): its size without them plus ten times the
    costliest game's choices stays under 4,000 in every locale. A game's own group holds its
    ``new`` options and commands; the largest of today's groups must leave room to grow too."""
    from tests.fakediscord.limits import MAX_CHOICES, MAX_COMMAND_CHARS

    await async_sync_commands(fake.token, fake.guild_id)
    [(_, payload)] = fake.sync_payloads
    games = frozenset(game_names())
    report = {}
    for command in payload:
        for locale in LOCALES:
            size = _size(command, locale)
            base = _size(command, locale, skip=games)
            per_game = max(_size(command, locale, skip=games - {g}) - base for g in games)
            projected = base + TEN_GAMES * per_game
            report[(command["name"], locale)] = (size, projected)
            assert projected <= MAX_COMMAND_CHARS, (command["name"], locale, size, projected)
            if command["name"] in games:
                # A game's group does not grow with other games; keep a quarter free for it.
                assert size <= 0.75 * MAX_COMMAND_CHARS, (command["name"], locale, size)
        lists = [o for o in _walk(command) if games & {c["value"] for c in o.get("choices", [])}]
        assert all(len(o["choices"]) + TEN_GAMES - len(games) <= MAX_CHOICES for o in lists)
    lobby = report[("game", "es-ES")]
    # Room for five more lobby commands (~150 characters each) with ten games.
    assert MAX_COMMAND_CHARS - lobby[1] >= 750, report
    subcommands = next(c for c in payload if c["name"] == "game")["options"]
    assert len(subcommands) <= 25 - 5, "Discord allows 25 subcommands; keep five free"


def _walk(obj: dict[str, Any]) -> list[dict[str, Any]]:
    out = [obj]
    for option in obj.get("options") or []:
        out += _walk(option)
    return out


async def test_the_tree_is_localized_for_spanish(fake: FakeDiscord) -> None:
    await async_sync_commands(fake.token, fake.guild_id)
    [(_, payload)] = fake.sync_payloads
    lobby = next(c for c in payload if c["name"] == "game")
    assert lobby["name_localizations"]["es-ES"] == "partida"
    assert lobby["description_localizations"]["es-ES"].startswith("Juega")
    join = _option(lobby, "join")
    assert join["name_localizations"] == {"es-ES": "unirse", "es-419": "unirse"}
    for game in game_names():
        if f"{game}.name" == (label := _choice_label(lobby, game)):
            continue  # a game without a catalogue yet (the test game)
        assert label


def _choice_label(lobby: dict[str, Any], game: str) -> str:
    rules = _option(lobby, "rules")
    return str(next(c["name"] for c in rules["options"][0]["choices"] if c["value"] == game))


async def test_sync_needs_no_gateway_and_no_service(fake: FakeDiscord) -> None:
    await async_sync_commands(fake.token, None)
    assert not fake.identified.is_set(), "sync only talks REST"


@pytest.mark.usefixtures("test_games_too")
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
    assert count == 3 + len(game_names())  # /game, /help, /me and one group per game
    assert fake.registered(fake.guild_id)


async def test_a_spanish_reader_sees_no_english_in_the_tree(fake: FakeDiscord) -> None:
    """Every name, description and choice of the real games and the lobby has a Spanish text
    (the games' group names are their titles, the same in both languages)."""
    await async_sync_commands(fake.token, fake.guild_id)
    [(_, payload)] = fake.sync_payloads
    missing = []
    for command in payload:
        if command["name"] == "tiny":
            continue  # the test game has no catalogue
        for obj in _walk(command):
            where = f"/{command['name']} {obj.get('name', '')}"
            fields = ["description"] + (
                ["name"] if obj is not command or obj["name"] in ("game", "help", "me") else []
            )
            for field in fields:
                if "es-ES" not in (obj.get(f"{field}_localizations") or {}):
                    missing.append(f"{where} {field}")
            for choice in obj.get("choices") or []:
                wordless = not any(c.isalpha() for c in choice["name"])  # a wall's "\\" or "/"
                if choice["value"] == "tiny" or wordless:
                    continue
                if "es-ES" not in (choice.get("name_localizations") or {}):
                    missing.append(f"{where} choice {choice['value']}")
    assert not missing, missing


async def test_leave_says_that_the_computer_plays_a_started_game_on(fake: FakeDiscord) -> None:
    """``/game leave`` works mid-game too (the computer plays the seat): its description must
    not say "before it starts", in any language."""
    await async_sync_commands(fake.token, fake.guild_id)
    [(_, payload)] = fake.sync_payloads
    leave = _option(next(c for c in payload if c["name"] == "game"), "leave")
    assert "computer plays your seat" in leave["description"]
    assert "before it starts" not in leave["description"]
    for locale in ("es-ES", "es-419"):
        assert "la computadora juega tu puesto" in leave["description_localizations"][locale]
