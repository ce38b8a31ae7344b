"""The slash commands: the ``/game`` lobby group and one group per registered game.

Every command is built by :func:`make_command` from a plain description of its options, so the
lobby and the games share one path: a game's commands come straight from its ``commands`` specs
(``Command``/``Param`` in ``rules.core.spec``), its ``/game new <game>`` options from its
``option_specs``. Names and descriptions are catalogue keys, translated by
:mod:`bot.discord.translator` when the tree is synced.

Handlers only turn Discord values into service arguments; the bot's ``run_command`` takes care of
deferring, answering and errors.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.discord.host import CommandHost
from bot.discord.translator import name, text
from bot.service.replies import Actor, Place, Reply
from i18n import LANGUAGES
from rules.core import Command, Game, OptionSpec, Param, game_names, get_game

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction[Any], dict[str, Any]], Awaitable[None]]
Completer = Callable[[discord.Interaction[Any], str], Awaitable[list[Choice[Any]]]]
Work = Callable[[Actor, Place], Awaitable[Reply]]

MAX_CHOICES = 25
MAX_MINUTES = 14 * 24 * 60  # the service's longest deadline


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
    keyword, like ``from``) and renamed to the option names.
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
    keys = [f"p{i}" for i in range(len(ordered))]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        key: o.description for key, o in zip(keys, ordered, strict=True)
    }
    callback.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
        key: name(o.name, o.name_key) for key, o in zip(keys, ordered, strict=True)
    }
    callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
        key: list(o.choices) for key, o in zip(keys, ordered, strict=True) if o.choices
    }
    callback.__discord_app_commands_param_autocomplete__ = {  # type: ignore[attr-defined]
        key: o.complete for key, o in zip(keys, ordered, strict=True) if o.complete
    }
    return app_commands.Command(
        name=name(api_name, name_key), description=description, callback=callback
    )


# --------------------------------------------------------------------------- the lobby


def lobby_group(bot: CommandHost) -> app_commands.Group:
    """``/game``: new (one subcommand per game, with its options), join, leave, start, cancel,
    kick, status, board, rules, settings, history."""
    group = app_commands.Group(
        name=name("game", "discord.command_name.game"),
        description=text("discord.group.game"),
        guild_only=True,
    )
    new = app_commands.Group(
        name=name("new", "discord.command_name.new"),
        description=text("discord.group.new"),
        parent=group,
    )
    for game_name in game_names():
        new.add_command(_new_command(bot, get_game(game_name)))

    def simple(
        command: str, call: Callable[[Actor, Place], Awaitable[Reply]], *, slow: bool = False
    ) -> None:
        async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
            await bot.run_command(interaction, call, slow=slow, what=f"game {command}")

        group.add_command(_lobby_command(command, (), handler))

    service = bot.get_service
    simple("join", lambda a, p: service().join(a, p))
    simple("leave", lambda a, p: service().leave(a, p))
    simple("start", lambda a, p: service().start(a, p), slow=True)
    simple("cancel", lambda a, p: service().cancel(a, p))

    async def kick(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        user_id = values["player"].id
        await bot.run_command(
            interaction, lambda a, p: service().kick(a, p, user_id), what="game kick"
        )

    player = Option(
        "player", discord.User, text("discord.param.player"), "discord.param_name.player"
    )
    group.add_command(_lobby_command("kick", (player,), kick))

    simple("status", lambda a, p: service().status(a, p))
    simple("board", lambda a, p: service().board(a, p), slow=True)

    async def rules(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        game = values["game"]
        await bot.run_command(
            interaction, lambda a, p: service().rules(a, p, game), what="game rules"
        )

    games = tuple(Choice(name=text(f"{g}.name"), value=g) for g in game_names()[:MAX_CHOICES])
    game = Option("game", str, text("discord.param.game"), "discord.param_name.game", choices=games)
    group.add_command(_lobby_command("rules", (game,), rules))

    async def settings(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        deadline, reminder = values.get("deadline"), values.get("reminder")
        replay = None if values.get("replay") is None else values["replay"] == "on"
        await bot.run_command(
            interaction,
            lambda a, p: service().settings(a, p, deadline, reminder, replay),
            what="game settings",
        )

    minutes = app_commands.Range[int, 1, MAX_MINUTES]
    reminder_minutes = app_commands.Range[int, 0, MAX_MINUTES]
    group.add_command(
        _lobby_command(
            "settings",
            (
                Option(
                    "deadline",
                    minutes,
                    text("discord.param.deadline"),
                    "discord.param_name.deadline",
                    required=False,
                ),
                Option(
                    "reminder",
                    reminder_minutes,
                    text("discord.param.reminder"),
                    "discord.param_name.reminder",
                    required=False,
                ),
                Option(
                    "replay",
                    str,
                    text("discord.param.replay"),
                    "discord.param_name.replay",
                    required=False,
                    choices=tuple(
                        Choice(name=text(f"discord.choice.{v}"), value=v) for v in ("on", "off")
                    ),
                ),
            ),
            settings,
        )
    )
    simple("history", lambda a, p: service().history(a, p))
    simple("rematch", lambda a, p: service().rematch(a, p), slow=True)

    async def leaderboard(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        chosen = values["game"]
        await bot.run_command(
            interaction,
            lambda a, p: service().leaderboard(a, p, chosen),
            what="game leaderboard",
        )

    group.add_command(_lobby_command("leaderboard", (game,), leaderboard))

    async def stats(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        whom = values.get("player")
        user_id = whom.id if whom is not None else None
        await bot.run_command(
            interaction, lambda a, p: service().stats(a, p, user_id), what="game stats"
        )

    whose = Option(
        "player",
        discord.User,
        text("discord.param.stats_player"),
        "discord.param_name.player",
        required=False,
    )
    group.add_command(_lobby_command("stats", (whose,), stats))

    async def replay(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        game_id = values["game"]
        await bot.run_command(
            interaction,
            lambda a, p: service().replay_game(a, p, game_id),
            slow=True,  # up to 24 tables drawn
            what="game replay",
        )

    numbered = Option(
        "game",
        app_commands.Range[int, 1, 2**53],
        text("discord.param.replay_game"),
        "discord.param_name.game",
    )
    group.add_command(_lobby_command("replay", (numbered,), replay))

    async def language(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        chosen = values["language"]
        await bot.run_command(
            interaction, lambda a, p: service().language(a, p, chosen), what="game language"
        )

    languages = tuple(
        Choice(name=text(f"discord.language.{code}"), value=code) for code in ("auto", *LANGUAGES)
    )
    group.add_command(
        _lobby_command(
            "language",
            (
                Option(
                    "language",
                    str,
                    text("discord.param.language"),
                    "discord.param_name.language",
                    choices=languages,
                ),
            ),
            language,
        )
    )
    return group


def _lobby_command(
    command: str, options: Sequence[Option], handler: Handler
) -> app_commands.Command[Any, ..., None]:
    return make_command(
        command,
        f"discord.command_name.{command}",
        text(f"discord.command.{command}"),
        options,
        handler,
    )


def _new_command(bot: CommandHost, game: Game[Any]) -> app_commands.Command[Any, ..., None]:
    """``/game new <game> [options]``: the game's options as typed, optional options."""
    options = tuple(_option(game.name, spec) for spec in game.option_specs)

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        chosen = {k: v for k, v in values.items() if v is not None}
        await bot.run_command(
            interaction,
            lambda a, p: bot.get_service().new_game(a, p, game.name, chosen),
            what=f"game new {game.name}",
        )

    return make_command(
        game.name,
        None,
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
        low = spec.min if spec.min is not None else -(2**53)
        high = spec.max if spec.max is not None else 2**53
        return Option(
            spec.name, app_commands.Range[int, low, high], description, key, required=False
        )
    choices = tuple(Choice(name=c, value=c) for c in spec.choices[:MAX_CHOICES])
    return Option(spec.name, str, description, key, required=False, choices=choices)


# --------------------------------------------------------------------------- the games


def game_group(bot: CommandHost, game: Game[Any]) -> app_commands.Group:
    """``/<game> <command> …``: one subcommand per ``Command`` of the game."""
    group = app_commands.Group(
        name=game.name,
        description=text("discord.group.commands", game_key=f"{game.name}.name"),
        guild_only=True,
    )
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
            slow=True,
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
            Choice(name=c, value=int(c) if param.type == "int" else c)
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
                out.append(Choice(name=value[:100], value=value[:100]))
        return out

    return complete


def all_groups(bot: CommandHost) -> list[app_commands.Group]:
    """The whole tree: ``/game`` and one group per registered game."""
    return [lobby_group(bot)] + [game_group(bot, get_game(g)) for g in game_names()]
