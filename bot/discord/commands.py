"""The slash commands: the ``/game`` lobby group and one group per registered game.

Every command is built by :func:`make_command` from a plain description of its options, so the
lobby and the games share one path: a game's commands come straight from its ``commands`` specs
(``Command``/``Param`` in ``rules.core.spec``), its ``/<game> new`` options from its
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
from bot.service.computer import MAX_MISSES
from bot.service.me import zone_choices
from bot.service.reach import NOTIFY
from bot.service.replies import Actor, Place, Reply
from i18n import LANGUAGES, has, language_for
from rules.core import Command, Game, OptionSpec, Param, game_names, get_game
from rules.core.policy import LEVELS

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction[Any], dict[str, Any]], Awaitable[None]]
Completer = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[Any]]]]
Work = Callable[[Actor, Place], Awaitable[Reply]]

MAX_CHOICES = 25
MAX_MINUTES = 14 * 24 * 60  # the service's longest deadline
# Discord's integer options hold at most ±(2**53 - 1) (its schema's Int53Type): one bound beyond
# it and Discord refuses the whole command upload (50035), leaving the server with no commands.
MAX_INTEGER = 2**53 - 1


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
    """``/game``: the commands every game shares (new, join, leave, start, cancel, kick, status,
    board, rules, settings, history, language, mine).

    Its size grows with the number of games only by one choice per game in ``new`` and
    ``rules`` (a game's own options live in ``/<game> new``), so ten games fit in Discord's
    4,000 characters per command (``tests/discord/test_sync.py`` keeps the margin). To add a
    lobby command: write its handler here and ``group.add_command(_lobby_command(name,
    options, handler))``, with ``discord.command_name.<name>``/``discord.command.<name>`` (and
    ``discord.param_name.<p>``/``discord.param.<p>`` for its options) in both catalogues."""
    group = app_commands.Group(
        name=name("game", "discord.command_name.game"),
        description=text("discord.group.game"),
        guild_only=True,
    )
    _add_quick_new(bot, group)

    def simple(
        command: str,
        call: Callable[[Actor, Place], Awaitable[Reply]],
        *,
        slow: bool = False,
        reads: bool = False,
    ) -> None:
        async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
            await bot.run_command(interaction, call, slow=slow, reads=reads, what=f"game {command}")

        group.add_command(_lobby_command(command, (), handler))

    service = bot.get_service
    simple("join", lambda a, p: service().join(a, p))
    simple("leave", lambda a, p: service().leave(a, p))
    simple("start", lambda a, p: service().start(a, p), slow=True)
    simple("cancel", lambda a, p: service().cancel(a, p))
    simple("undo", lambda a, p: service().undo(a, p), slow=True)

    async def kick(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        user_id = values["player"].id
        await bot.run_command(
            interaction, lambda a, p: service().kick(a, p, user_id), what="game kick"
        )

    player = Option(
        "player", discord.User, text("discord.param.player"), "discord.param_name.player"
    )
    group.add_command(_lobby_command("kick", (player,), kick))
    _computer_commands(bot, group)

    simple("status", lambda a, p: service().status(a, p), reads=True)
    simple("board", lambda a, p: service().board(a, p), slow=True, reads=True)

    async def rules(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        game, topic = values["game"], values.get("topic")
        await bot.run_command(
            interaction,
            lambda a, p: service().rules(a, p, game, topic),
            reads=True,
            what="game rules",
        )

    topic = Option(
        "topic",
        str,
        text("discord.param.topic"),
        "discord.param_name.topic",
        required=False,
        complete=_topics,
    )
    group.add_command(_lobby_command("rules", (game_option(), topic), rules))

    async def settings(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        deadline, reminder = values.get("deadline"), values.get("reminder")
        misses, autopilot = values.get("misses"), values.get("autopilot")
        replay = None if values.get("replay") is None else values["replay"] == "on"
        hold = None if values.get("hold") is None else values["hold"] == "on"
        undo = None if values.get("undo") is None else values["undo"] == "on"
        await bot.run_command(
            interaction,
            lambda a, p: service().settings(
                a, p, deadline, reminder, misses, replay, hold, undo, autopilot
            ),
            what="game settings",
        )

    minutes = app_commands.Range[int, 1, MAX_MINUTES]
    on_off = tuple(Choice(name=text(f"discord.choice.{v}"), value=v) for v in ("on", "off"))
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
                    "misses",
                    app_commands.Range[int, 1, MAX_MISSES],
                    text("discord.param.misses"),
                    "discord.param_name.misses",
                    required=False,
                ),
                Option(
                    "replay",
                    str,
                    text("discord.param.replay"),
                    "discord.param_name.replay",
                    required=False,
                    choices=on_off,
                ),
                Option(
                    "hold",
                    str,
                    text("discord.param.hold"),
                    "discord.param_name.hold",
                    required=False,
                    choices=on_off,
                ),
                Option(
                    "undo",
                    str,
                    text("discord.param.undo"),
                    "discord.param_name.undo",
                    required=False,
                    choices=on_off,
                ),
                Option(
                    "autopilot",
                    str,
                    text("discord.param.autopilot"),
                    "discord.param_name.autopilot",
                    required=False,
                    choices=tuple(Choice(name=text(f"bots.level.{lv}"), value=lv) for lv in LEVELS),
                ),
            ),
            settings,
        )
    )

    async def history(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        page = values.get("page") or 1
        await bot.run_command(
            interaction,
            lambda a, p: service().history(a, p, page),
            reads=True,
            what="game history",
        )

    page = Option(
        "page",
        app_commands.Range[int, 1, 1000],
        text("discord.param.page"),
        "discord.param_name.page",
        required=False,
    )
    group.add_command(_lobby_command("history", (page,), history))
    simple("mine", lambda a, p: service().mine(a, p), reads=True)
    simple("rematch", lambda a, p: service().rematch(a, p), slow=True)

    async def leaderboard(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        chosen = values["game"]
        await bot.run_command(
            interaction,
            lambda a, p: service().leaderboard(a, p, chosen),
            reads=True,
            what="game leaderboard",
        )

    group.add_command(_lobby_command("leaderboard", (game_option(),), leaderboard))

    async def stats(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        whom = values.get("player")
        user_id, name = (whom.id, whom.display_name) if whom is not None else (None, None)
        await bot.run_command(
            interaction,
            lambda a, p: service().stats(a, p, user_id, name),
            reads=True,
            what="game stats",
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
            reads=True,
            what="game replay",
        )

    numbered = Option(
        "game",
        app_commands.Range[int, 1, MAX_INTEGER],
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


def _computer_commands(bot: CommandHost, group: app_commands.Group) -> None:
    """``/game addbot [level]`` and ``/game replace player:<user> with:<user>``."""
    service = bot.get_service

    async def addbot(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        level = values.get("level")
        await bot.run_command(
            interaction, lambda a, p: service().add_bot(a, p, level), what="game addbot"
        )

    levels = tuple(Choice(name=text(f"bots.level.{lv}"), value=lv) for lv in LEVELS)
    level = Option(
        "level",
        str,
        text("discord.param.level"),
        "discord.param_name.level",
        required=False,
        choices=levels,
    )
    group.add_command(_lobby_command("addbot", (level,), addbot))

    async def replace(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        old, new = values["player"], values["with"]
        # The new player's own locale is not known until they act: the server's, meanwhile.
        locale = str(interaction.guild_locale or interaction.locale)
        newcomer = Actor(new.id, new.display_name, locale)
        await bot.run_command(
            interaction,
            lambda a, p: service().replace(a, p, old.id, newcomer),
            what="game replace",
        )

    replaced = Option(
        "player", discord.User, text("discord.param.replaced"), "discord.param_name.player"
    )
    newcomer = Option("with", discord.User, text("discord.param.with"), "discord.param_name.with")
    group.add_command(_lobby_command("replace", (replaced, newcomer), replace))


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


def game_option(required: bool = True) -> Option:
    """``game:<choice>``: every registered game, by its display name."""
    games = tuple(Choice(name=text(f"{g}.name"), value=g) for g in game_names()[:MAX_CHOICES])
    return Option(
        "game",
        str,
        text("discord.param.game"),
        "discord.param_name.game",
        required=required,
        choices=games,
    )


def _add_quick_new(bot: CommandHost, group: app_commands.Group) -> None:
    """``/game new game:<choice>``: a game with its default options (``/<game> new`` takes
    them), so a newcomer finds every game in one list."""

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        game = values["game"]
        await bot.run_command(
            interaction,
            lambda a, p: bot.get_service().new_game(a, p, game, {}),
            what=f"game new {game}",
        )

    group.add_command(_lobby_command("new", (game_option(),), handler))


def help_command(bot: CommandHost) -> app_commands.Command[Any, ..., None]:
    """``/help [game:<choice>]``: what a newcomer needs first, privately, in their language."""

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        game = values.get("game")
        await bot.run_command(
            interaction, lambda a, p: bot.get_service().help(a, p, game), reads=True, what="help"
        )

    command = make_command(
        "help",
        "discord.command_name.help",
        text("discord.command.help"),
        (game_option(required=False),),
        handler,
    )
    return app_commands.guild_only()(command)


def me_command(bot: CommandHost) -> app_commands.Command[Any, ..., None]:
    """``/me [notify] [quiet] [timezone] [away]``: how the user is reached, everywhere
    (bot/service/me.py); with no option, their settings are shown. Privately, in their
    language."""

    async def handler(interaction: discord.Interaction[Any], values: dict[str, Any]) -> None:
        await bot.run_command(
            interaction,
            lambda a, p: bot.get_service().me(
                a,
                p,
                notify=values.get("notify"),
                quiet=values.get("quiet"),
                zone=values.get("timezone"),
                away=values.get("away"),
            ),
            what="me",
        )

    async def zones(interaction: discord.Interaction[Any], current: str) -> list[Choice[Any]]:
        return [Choice(name=z, value=z) for z in zone_choices(str(current or ""), MAX_CHOICES)]

    notify = tuple(Choice(name=text(f"me.notify.{n}"), value=n) for n in NOTIFY)
    options = (
        Option(
            "notify",
            str,
            text("discord.param.notify"),
            "discord.param_name.notify",
            required=False,
            choices=notify,
        ),
        Option(
            "quiet", str, text("discord.param.quiet"), "discord.param_name.quiet", required=False
        ),
        Option(
            "timezone",
            str,
            text("discord.param.timezone"),
            "discord.param_name.timezone",
            required=False,
            complete=zones,
        ),
        Option("away", str, text("discord.param.away"), "discord.param_name.away", required=False),
    )
    command = make_command(
        "me", "discord.command_name.me", text("discord.command.me"), options, handler
    )
    return app_commands.guild_only()(command)


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
    """The whole tree: ``/game``, ``/help`` and one group per registered game.

    Each top-level command has its own 4,000-character budget; a new top-level command is one
    more entry here."""
    games: list[TopLevel] = [game_group(bot, get_game(g)) for g in game_names()]
    return [lobby_group(bot), help_command(bot), me_command(bot), *games]
