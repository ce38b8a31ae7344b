"""The slash commands: the lobby's (``/game …``, ``/help``, ``/me``) and one group per game.

Every command is built by :func:`make_command` from a plain description of its options, so the
lobby and the games share one path: the lobby's commands come from its list
(``LOBBY`` in ``bot.service.lobby_commands``), a game's commands straight from its ``commands``
specs (``Command``/``Param`` in ``rules.core.spec``), its ``/<game> new`` options from its
``option_specs``. Names and descriptions are catalogue keys, translated by
:mod:`bot.discord.translator` when the tree is synced.

Handlers only turn Discord values into service arguments (and say which commands only read,
``reads=True``: answered without a defer when quick); the bot's ``run_command`` takes care of
deferring, answering and errors.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.discord.host import CommandHost
from bot.discord.translator import name, text
from bot.service import pieces, shown
from bot.service.lobby_commands import (
    GROUP,
    GROUPED,
    MAX_INTEGER,
    TOP_LEVEL,
    Completion,
    LobbyCommand,
    LobbyParam,
)
from bot.service.me import zone_choices
from bot.service.replies import Actor
from i18n import has, language_for
from rules.core import Command, Game, OptionSpec, Param, game_names, get_game

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction[Any], dict[str, Any]], Awaitable[None]]
Completer = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[Any]]]]

MAX_CHOICES = 25


@dataclass(frozen=True)
class Option:
    """One slash-command option: ``name`` is what Discord and the service see."""

    name: str
    annotation: Any
    description: locale_str
    name_key: str | None = None
    required: bool = True
    choices: tuple[Choice[Any], ...] = ()
    complete: Completer | None = None


def make_command(
    api_name: str,
    name_key: str | None,
    description: locale_str,
    options: Sequence[Option],
    handler: Handler,
) -> app_commands.Command[Any, ..., None]:
    """A command whose options are built at run time.

    discord.py reads options from the callback's signature, so we give a generic callback a
    synthetic one. Python parameters are named ``p0, p1…`` (a game's parameter may be a Python
    keyword, like ``from``) and renamed to the option names (``app_commands.rename``); their
    descriptions, choices and completers go through ``describe``/``choices``/``autocomplete``.
    """
    ordered = sorted(options, key=lambda o: not o.required)  # Discord: required ones first
    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for index, option in enumerate(ordered):
        parameters.append(
            inspect.Parameter(
                f"p{index}",
                inspect.Parameter.KEYWORD_ONLY,
                annotation=option.annotation if option.required else Optional[option.annotation],  # noqa: UP045
                default=inspect.Parameter.empty if option.required else None,
            )
        )

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await handler(
            interaction, {ordered[int(key[1:])].name: value for key, value in values.items()}
        )

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    pairs = list(zip((f"p{i}" for i in range(len(ordered))), ordered, strict=True))
    # discord.py's own decorators, applied to the callback before the command is made (what
    # ``@app_commands.describe(...)`` above a ``def`` does), with the names as keyword
    # arguments since they exist only at run time.
    decorated: Any = app_commands.describe(**{key: o.description for key, o in pairs})(callback)
    decorated = app_commands.rename(**{key: name(o.name, o.name_key) for key, o in pairs})(
        decorated
    )
    decorated = app_commands.choices(**{key: list(o.choices) for key, o in pairs if o.choices})(
        decorated
    )
    decorated = app_commands.autocomplete(**{key: o.complete for key, o in pairs if o.complete})(
        decorated
    )
    return app_commands.Command(
        name=name(api_name, name_key), description=description, callback=decorated
    )


# --------------------------------------------------------------------------- the lobby


def lobby_group(bot: CommandHost) -> app_commands.Group:
    """``/game``: the commands every game shares, one per ``GROUPED`` entry of the lobby's
    list (``bot/service/lobby_commands.py``).

    Its size grows with the number of games only by one choice per game in ``new`` and
    ``rules`` (a game's own options live in ``/<game> new``), so ten games fit in Discord's
    4,000 characters per command (``tests/discord/test_sync.py`` keeps the margin)."""
    group = app_commands.Group(
        name=name(GROUP, f"discord.command_name.{GROUP}"),
        description=text(f"discord.group.{GROUP}"),
        guild_only=True,
    )
    for command in GROUPED:
        group.add_command(lobby_command(bot, command))
    return group


def lobby_command(bot: CommandHost, command: LobbyCommand) -> app_commands.Command[Any, ..., None]:
    """One lobby command as Discord offers it: its options from the list's parameters, its
    answer from the list's service call, given the values in the service's terms."""
    options = tuple(_lobby_option(p) for p in command.params)

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        given = {p.name: _value(interaction, p, values.get(p.name)) for p in command.params}
        await bot.run_command(
            interaction,
            lambda a, p: command.call(bot.get_service(), a, p, given),
            slow=command.slow,
            reads=command.reads,
            what=command.path,
        )

    made = make_command(command.name, command.name_key, text(command.about_key), options, handler)
    return made if command.group is not None else app_commands.guild_only()(made)


_LOBBY_TYPES: dict[str, Any] = {"str": str, "switch": str, "user": discord.User}


def _lobby_option(param: LobbyParam) -> Option:
    annotation = _LOBBY_TYPES.get(param.type)
    if param.type == "int":
        low = -MAX_INTEGER if param.min is None else max(param.min, -MAX_INTEGER)
        high = MAX_INTEGER if param.max is None else min(param.max, MAX_INTEGER)
        annotation = app_commands.Range[int, low, high]
    choices: tuple[Choice[Any], ...] = ()
    if param.choices is not None:
        choices = tuple(
            Choice(name=text(label), value=value)
            for value, label in param.choices.labelled()[:MAX_CHOICES]
        )
    return Option(
        param.name,
        annotation,
        text(param.about_key),
        param.name_key,
        required=param.required,
        choices=choices,
        complete=None if param.complete is None else _COMPLETERS[param.complete],
    )


def _value(interaction: discord.Interaction[Any], param: LobbyParam, value: Any) -> Any:
    """A Discord value as the service takes it (``bot.service.lobby_commands.ParamType``)."""
    if value is None:
        return None
    if param.type == "switch":
        return value == "on"
    if param.type == "user":
        # A member's own locale is not known until they act: the server's, meanwhile.
        locale = str(interaction.guild_locale or interaction.locale)
        return Actor(value.id, value.display_name, locale)
    return value


async def _topics(interaction: discord.Interaction[Any], current: str) -> list[Choice[Any]]:
    """``/game rules topic:``: the chosen game's topics (every game's before one is chosen), in
    the reader's language; the service takes a topic typed in any language too."""
    lang = language_for(str(interaction.locale))
    chosen = getattr(interaction.namespace, "game", None)
    games = [chosen] if chosen in game_names() else game_names()
    typed = str(current or "").strip().lower()
    out: list[Choice[Any]] = []
    for game in games:
        for topic in pieces.topics(game):
            label = pieces.topic_name(game, topic, lang)
            if typed in label.lower() or typed in topic:
                out.append(Choice(name=label[:100], value=topic))
    return out[:MAX_CHOICES]


async def _zones(interaction: discord.Interaction[Any], current: str) -> list[Choice[Any]]:
    """``/me timezone:``: the time zones that match what is typed."""
    return [Choice(name=z, value=z) for z in zone_choices(str(current or ""), MAX_CHOICES)]


_COMPLETERS: dict[Completion, Completer] = {"topics": _topics, "zones": _zones}


def _new_command(bot: CommandHost, game: Game[Any]) -> app_commands.Command[Any, ..., None]:
    """``/<game> new [options]``: the game's options as typed, optional options."""
    options = tuple(_option(game.name, spec) for spec in game.option_specs)

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        chosen = {k: v for k, v in values.items() if v is not None}
        await bot.run_command(
            interaction,
            lambda a, p: bot.get_service().new_game(a, p, game.name, chosen),
            what=f"game new {game.name}",
        )

    return make_command(
        "new",
        "discord.command_name.new",
        text("discord.command.new_game", game_key=f"{game.name}.name"),
        options,
        handler,
    )


def _option(game: str, spec: OptionSpec) -> Option:
    description = text(f"{game}.option.{spec.name}")
    key = f"{game}.option_name.{spec.name}"
    if spec.type == "bool":
        return Option(spec.name, bool, description, key, required=False)
    if spec.type == "int":
        low = max(spec.min, -MAX_INTEGER) if spec.min is not None else -MAX_INTEGER
        high = min(spec.max, MAX_INTEGER) if spec.max is not None else MAX_INTEGER
        return Option(
            spec.name, app_commands.Range[int, low, high], description, key, required=False
        )
    choices = tuple(
        Choice(name=_label(f"{game}.option_value.{spec.name}.{c}", c), value=c)
        for c in spec.choices[:MAX_CHOICES]
    )
    return Option(spec.name, str, description, key, required=False, choices=choices)


def _label(key: str, value: str) -> locale_str | str:
    """A choice's label: the catalogue's (translated at sync) if it has one, else the value."""
    return text(key) if has(key, "en") else value


# --------------------------------------------------------------------------- the games


def game_group(bot: CommandHost, game: Game[Any]) -> app_commands.Group:
    """``/<game> new [options]`` and one subcommand per ``Command`` of the game."""
    group = app_commands.Group(
        name=game.name,
        description=text("discord.group.commands", game_key=f"{game.name}.name"),
        guild_only=True,
    )
    group.add_command(_new_command(bot, game))
    for command in game.commands:
        group.add_command(_game_command(bot, game.name, command))
    return group


def _game_command(
    bot: CommandHost, game: str, command: Command
) -> app_commands.Command[Any, ..., None]:
    options = tuple(_param(bot, game, command, p) for p in command.params)

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        args = {k: v for k, v in values.items() if v is not None}
        await bot.run_command(
            interaction,
            lambda a, p: bot.get_service().act(a, p, game, command.name, args),
            # A move: deferred before it runs, so it is applied only if it can be answered.
            what=f"{game} {command.name}",
        )

    return make_command(
        command.name,
        f"{game}.command_name.{command.name}",
        text(f"{game}.command.{command.name}"),
        options,
        handler,
    )


_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool}


def _param(bot: CommandHost, game: str, command: Command, param: Param) -> Option:
    annotation = _TYPES[param.type]
    choices: tuple[Choice[Any], ...] = ()
    if param.choices and param.type != "bool":
        choices = tuple(
            Choice(
                name=_label(f"{shown.section(game, param.name)}.{c}", c),
                value=int(c) if param.type == "int" else c,
            )
            for c in param.choices[:MAX_CHOICES]
        )
    complete = None
    if param.autocomplete and not choices and param.type != "bool":
        complete = _completer(bot, game, command, param)
    return Option(
        param.name,
        annotation,
        text(f"{game}.param.{param.name}"),
        f"{game}.param_name.{param.name}",
        required=param.required,
        choices=choices,
        complete=complete,
    )


def _completer(bot: CommandHost, game: str, command: Command, param: Param) -> Completer:
    """Autocomplete from the game state (``service.suggest``); a submitted value is validated
    again by the service, so a stale suggestion is refused politely."""
    others = [p.name for p in command.params if p.name != param.name]

    async def complete(interaction: discord.Interaction[Any], current: str) -> list[Choice[Any]]:
        namespace = interaction.namespace
        args = {n: getattr(namespace, n) for n in others if getattr(namespace, n, None) is not None}
        values = await bot.suggest(interaction, game, command.name, param.name, args, current)
        out: list[Choice[Any]] = []
        for value in values[:MAX_CHOICES]:
            if param.type == "int":
                try:
                    out.append(Choice(name=value[:100], value=int(value)))
                except ValueError:
                    continue
            else:
                # A piece is offered as "Name — what it does"; its value stays the name.
                label = getattr(value, "label", value)
                out.append(Choice(name=label[:100], value=value[:100]))
        return out

    return complete


TopLevel = app_commands.Group | app_commands.Command[Any, ..., None]


def all_groups(bot: CommandHost) -> list[TopLevel]:
    """The whole tree: ``/game``, the lobby's top-level commands (``/help``, ``/me``) and one
    group per registered game.

    Each top-level command has its own 4,000-character budget; a new top-level command is one
    more entry here."""
    games: list[TopLevel] = [game_group(bot, get_game(g)) for g in game_names()]
    top: list[TopLevel] = [lobby_command(bot, c) for c in TOP_LEVEL]  # /help, /me
    return [lobby_group(bot), *top, *games]
