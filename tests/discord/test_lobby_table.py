"""The lobby's commands are declared once, in ``bot/service/lobby_commands.py``: Discord's tree,
the console and ``/help`` offer exactly the table's commands with the table's parameters, in
both languages, and the tree uploaded is the one uploaded before the table existed."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from bot.console import Console
from bot.discord import async_sync_commands
from bot.service import Actor, Place, Reply, Service
from bot.service.lobby_commands import (
    GAME_OPTIONS,
    GROUP,
    GROUPED,
    LOBBY,
    TOP_LEVEL,
    LobbyCommand,
    LobbyParam,
    listing,
    spelled,
)
from i18n import has, t
from rules import game_names
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

LANGS = ("en", "es")

# Every lobby command of the upload before the table (main at c9c4910), its texts aside: each
# option as name:type (! required), its bounds, its choice values (<games>: one per registered
# game), <autocomplete>, and ~key when its description is not discord.param.<name>. Texts are
# checked against the catalogue keys below, so a renamed key or a changed bound fails here.
BEFORE = """\
game new game:str! <games>
game join
game leave
game start
game cancel
game undo
game kick player:user!
game addbot level:str easy|normal|hard
game replace player:user! ~replaced, with:user!
game status
game board
game rules game:str! <games>, topic:str <autocomplete>
game settings deadline:int 1..20160, reminder:int 0..20160, misses:int 1..20, \
replay:str on|off, hold:str on|off, undo:str on|off, autopilot:str easy|normal|hard
game history page:int 1..1000
game mine
game rematch
game leaderboard game:str! <games>
game stats player:user ~stats_player
game replay game:int! 1..9007199254740991 ~replay_game
game language language:str! auto|en|es
help game:str <games>
me notify:str mention|dm|both, quiet:str, timezone:str <autocomplete>, away:str
"""
TYPES = {3: "str", 4: "int", 5: "bool", 6: "user"}


async def _upload(fake: FakeDiscord) -> list[dict[str, Any]]:
    await async_sync_commands(fake.token, fake.guild_id)
    [(_, payload)] = fake.sync_payloads
    assert not fake.violations, fake.violations
    return list(payload)


def _lobby_nodes(payload: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each lobby command of the upload by its path (``game join``, ``help``)."""
    nodes: dict[str, dict[str, Any]] = {}
    for top in payload:
        if top["name"] == GROUP:
            nodes |= {f"{GROUP} {sub['name']}": sub for sub in top["options"]}
        elif top["name"] not in game_names():
            nodes[top["name"]] = top
    return nodes


def _option_shape(option: dict[str, Any]) -> str:
    said = f"{option['name']}:{TYPES[option['type']]}" + ("!" if option.get("required") else "")
    if "min_value" in option or "max_value" in option:
        said += f" {option.get('min_value')}..{option.get('max_value')}"
    values = [c["value"] for c in option.get("choices") or []]
    if values:
        said += " <games>" if values == game_names()[:25] else " " + "|".join(map(str, values))
    if option.get("autocomplete"):
        said += " <autocomplete>"
    about = _key_of(option["description"])
    return said if about == option["name"] else f"{said} ~{about}"


def _key_of(description: str) -> str:
    """The ``discord.param.<key>`` whose English text a description is."""
    found = [k for k in _PARAM_KEYS if t(f"discord.param.{k}", "en") == description]
    assert len(found) == 1, (description, found)
    return found[0]


_PARAM_KEYS = {p.about or p.name for c in LOBBY for p in c.params} | {
    "replaced",
    "stats_player",
    "replay_game",
}


def _shape(path: str, node: dict[str, Any]) -> str:
    options = ", ".join(_option_shape(o) for o in node.get("options") or [])
    return f"{path} {options}" if options else path


async def test_the_upload_is_what_it_was_before_the_table(fake: FakeDiscord) -> None:
    """Each command uploaded before is uploaded the same (a new one may be added)."""
    nodes = _lobby_nodes(await _upload(fake))
    for line in BEFORE.splitlines():
        path = line.split(":")[0].rsplit(" ", 1)[0] if ":" in line else line
        assert path in nodes, f"/{path} is no longer uploaded"
        assert _shape(path, nodes[path]) == line


def _param_order(command: LobbyCommand) -> list[LobbyParam]:
    return sorted(command.params, key=lambda p: not p.required)  # Discord: required ones first


async def test_discord_offers_exactly_the_tables_commands_in_their_words(
    fake: FakeDiscord,
) -> None:
    payload = await _upload(fake)
    nodes = _lobby_nodes(payload)
    assert list(nodes) == [c.path for c in GROUPED] + [c.path for c in TOP_LEVEL]
    assert [c["name"] for c in payload][: 1 + len(TOP_LEVEL)] == [
        GROUP,
        *(c.name for c in TOP_LEVEL),
    ]
    for command in LOBBY:
        node = nodes[command.path]
        _same_words(node, command.name, command.name_key, command.about_key)
        if command.group is None:
            assert node["contexts"] == [0], f"/{command.name} is played in a server only"
        options = node.get("options") or []
        assert [o["name"] for o in options] == [p.name for p in _param_order(command)]
        for param, option in zip(_param_order(command), options, strict=True):
            _same_words(option, param.name, param.name_key, param.about_key)
            assert bool(option.get("required")) == param.required
            assert bool(option.get("autocomplete")) == (param.complete is not None)
            if param.type == "int":
                assert (option["min_value"], option["max_value"]) == (param.min, param.max)
            labelled = param.choices.labelled()[:25] if param.choices else []
            choices = option.get("choices") or []
            assert [c["value"] for c in choices] == [value for value, _ in labelled]
            for choice, (_, label) in zip(choices, labelled, strict=True):
                assert choice["name"] == t(label, "en")
                if has(label, "es"):
                    assert choice["name_localizations"]["es-ES"] == t(label, "es")


def _same_words(node: dict[str, Any], name: str, name_key: str, about_key: str) -> None:
    """A name and a description as the table's catalogue keys give them, in both languages."""
    assert node["name"] == name
    assert node["name_localizations"]["es-ES"] == t(name_key, "es"), name_key
    assert node["description"] == t(about_key, "en"), about_key
    assert node["description_localizations"]["es-ES"] == t(about_key, "es"), about_key


def test_every_text_of_the_table_is_in_both_catalogues() -> None:
    keys = [f"discord.command_name.{GROUP}", f"discord.group.{GROUP}"]
    for command in LOBBY:
        keys += [command.name_key, command.about_key]
        for param in command.params:
            keys += [param.name_key, param.about_key]
            keys += [label for _, label in param.choices.labelled()] if param.choices else []
    missing = [
        f"{lang}: {key}"
        for key in keys
        for lang in LANGS
        if not has(key, lang) and not key.startswith("tiny.")  # the test game has no texts
    ]
    assert not missing, missing


class Recorder:
    """A service that records which of its methods a command called, and how."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, method: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Reply:
            self.calls.append((method, args[2:], kwargs))
            return Reply()

        return call


def _typed(param: LobbyParam, lang: str) -> tuple[str, Any]:
    """A value for ``param`` as a user types it, and as the service should receive it."""
    if param.type == "user":
        return "@dora", "dora"
    if param.type == "switch":
        return t("discord.choice.on", lang), True
    if param.choices is not None:
        value = param.choices.values()[0]
        return value, value
    if param.type == "int":
        return str(param.min or 1), str(param.min or 1)
    return "x", "x"


async def test_the_console_reads_exactly_the_tables_commands(
    console: tuple[Console, Any],
) -> None:
    """Each command of the table, typed in English and in Spanish with every parameter by its
    name (or in order, without names), reaches its service call with every value; a
    subcommand not in the table is refused with the table's list."""
    real, out = console
    recorder = Recorder()
    typing = Console(cast(Service, recorder), real.clock, real.images, out)  # stands in
    ana = typing.actor("ana", "es")
    for command in LOBBY:
        for lang in LANGS:
            group = [] if command.group is None else [t(f"discord.command_name.{GROUP}", lang)]
            words = [*group, t(command.name_key, lang)]
            named, ordered, wanted = [], [], {}
            for param in command.params:
                typed, received = _typed(param, lang)
                named.append(f"{t(param.name_key, lang)}:{typed}")
                ordered.append(typed)
                wanted[param.name] = received
            for given in (named, ordered):
                values = typing.values(command, given, lang)
                assert values is not None, (command.name, lang, given)
                shown = {
                    k: (v.display_name if isinstance(v, Actor) else v)
                    for k, v in values.items()
                    if k != GAME_OPTIONS
                }
                assert shown == wanted, (command.name, lang, given)
                before = len(recorder.calls)
                reply = await typing.dispatch(ana, words[0], [*words[1:], *given])
                assert reply is not None and len(recorder.calls) == before + 1, words
    await typing.dispatch(typing.actor("tom", None), GROUP, ["dance"])
    listed = out.getvalue().rsplit("Try: ", 1)[1].split()
    assert listed == [c.name for c in GROUPED]


async def test_a_member_left_out_is_asked_for_in_the_console(
    console: tuple[Console, Any],
) -> None:
    real, out = console
    await real.line("@ana:es /partida relevar jugador:@bob")
    await real.line("@tom /game kick")
    said = out.getvalue()
    assert "? Escribe: /partida relevar jugador:<nombre> con:<nombre>" in said
    assert "? Write: /game kick player:<name>" in said


async def test_help_lists_exactly_the_tables_commands(service: Service) -> None:
    """``/help`` names every command of the table in the reader's language, and no lobby
    command the table does not have (a command renamed or dropped in the prose fails)."""
    for lang, locale in (("en", "en-US"), ("es", "es-ES")):
        reply = await service.help(Actor(1, "Ana", locale), Place(1, 10), None, listing)
        assert reply.private is not None
        quoted = set(re.findall(r"`(/[^`]*?)`", str(reply.private.text)))
        table = {spelled(c, lang) for c in LOBBY}
        assert table <= quoted, table - quoted
        group = t(f"discord.command_name.{GROUP}", lang)
        lobby = {q.split(" ")[0] if not q.startswith(f"/{group} ") else q for q in quoted}
        lobby = {q for q in lobby if "<" not in q}  # /<game> new: a game's own
        assert lobby <= table, lobby - table


async def test_every_lobby_command_is_answered_on_discord(fake: FakeDiscord, bots: Bots) -> None:
    """Each command of the table, sent by Discord with its required options, reaches the service
    and is answered (here, in a channel with no game, mostly with a refusal in words)."""
    await bots.start()
    ana, bob = fake.add_user(101, "Ana", "es-ES"), fake.add_user(102, "Bob")
    samples: dict[str, Any] = {"user": bob, "int": 1, "str": "tiny", "switch": "on"}
    for command in LOBBY:
        options: dict[str, Any] = {
            p.name: (p.choices.values()[0] if p.choices else samples[p.type])
            for p in command.params
            if p.required
        }
        answer = await (await fake.slash(ana, command.path, **options)).result()
        assert answer.ephemeral, command.path
        assert t("discord.error.internal", "es") not in answer.content, command.path
        assert answer.content.strip(), command.path
