"""The lobby's commands, declared once: ``/game new``, ``/game join`` … ``/help`` and ``/me``.

``LOBBY`` lists every command a player types that is not a game's own: its name, its
parameters (type, fixed choices, bounds, autocomplete), whether it only reads, whether it is
slow, and the ``Service`` call that answers it. Everything else is derived from it: the
Discord tree (``bot/discord/commands.py``), the console's parser (``bot/console.py``) and the
list of commands in ``/help`` (``listing``). A game's own commands are derived the same way,
from its ``Command`` specs (``rules/core/spec.py``).

Adding a lobby command is one ``LobbyCommand`` here, one ``Service`` method, and its texts in
both catalogues (``i18n/en``, ``i18n/es``), under keys that follow from the names:

- ``discord.command_name.<command>`` (its Spanish name: ``unirse``) and
  ``discord.command.<command>`` (what it does);
- for each parameter, ``discord.param_name.<param>`` and ``discord.param.<about>`` (``about``
  is the parameter's name unless one name means two things: ``/game stats player`` is whose
  statistics, ``/game kick player`` the player removed);
- each choice's label, ``Choices.label`` filled with the value.

``tests/discord/test_lobby_table.py`` checks that Discord, the console and ``/help`` offer
exactly these commands and parameters, and that their texts exist in both languages.

How a command is answered: its ``Reply.private`` message is only ever shown to the user who
typed it (Discord: an ephemeral response); its ``public`` posts go to the channel. ``reads``
says it changes no game, so Discord may answer it without a defer when it is quick
(``bot.discord.client.run_command``); ``slow`` (it draws) always defers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bot.service.computer import MAX_MISSES
from bot.service.deadlines import MAX_DEADLINE_MINUTES
from bot.service.reach import NOTIFY
from bot.service.replies import Actor, Place, Reply
from bot.service.text import Text, join
from i18n import LANGUAGES, t
from rules.core import game_names
from rules.core.policy import LEVELS

if TYPE_CHECKING:  # the calls are typed against the service itself, which imports the world
    from bot.service.service import Service

# What a parameter holds, as the service is given it: ``str`` and ``int`` as typed (Discord
# sends a bounded int, the console the text typed, which the service parses and refuses in
# words); ``user`` a member, as an ``Actor`` (``display_name`` "" when only their id is known);
# ``switch`` on/off, as a bool. A parameter not given is ``None``.
ParamType = Literal["str", "int", "user", "switch"]
# Autocompletes the Discord adapter provides by name (the console has none).
Completion = Literal["topics", "zones"]
Values = dict[str, Any]
Call = Callable[["Service", Actor, Place, Values], Awaitable[Reply]]

GROUP = "game"  # the lobby's group: ``/game`` (``/partida``)
BARE = "status"  # what ``/game`` alone does in the console (Discord has no bare group)
GAME_OPTIONS = "options"  # the console's ``/game new <game> option:value…`` (``game_options``)

# Discord's integer options hold at most ±(2**53 - 1) (its schema's Int53Type): one bound beyond
# it and Discord refuses the whole command upload (50035), leaving the server with no commands.
MAX_INTEGER = 2**53 - 1
MAX_PAGE = 1000


@dataclass(frozen=True)
class Choices:
    """A fixed list of values; each is shown by the catalogue entry ``label`` names, with
    ``{}`` standing for the value (``bots.level.{}``)."""

    values: Callable[[], Sequence[str]]
    label: str

    def labelled(self) -> list[tuple[str, str]]:
        """Each value with its label's catalogue key."""
        return [(value, self.label.format(value)) for value in self.values()]


@dataclass(frozen=True)
class LobbyParam:
    """One parameter of a lobby command; see the module's docstring for its texts."""

    name: str
    type: ParamType = "str"
    required: bool = False
    choices: Choices | None = None
    min: int | None = None
    max: int | None = None
    complete: Completion | None = None
    about: str | None = None

    @property
    def name_key(self) -> str:
        return f"discord.param_name.{self.name}"

    @property
    def about_key(self) -> str:
        return f"discord.param.{self.about or self.name}"


@dataclass(frozen=True)
class LobbyCommand:
    """One lobby command: ``/game <name>``, or a top-level ``/<name>`` (``group`` None)."""

    name: str
    call: Call
    params: tuple[LobbyParam, ...] = ()
    group: str | None = GROUP
    reads: bool = False
    slow: bool = False
    # The console also takes the chosen game's own options after ``/game new <game>``;
    # Discord has ``/<game> new`` for them (its options depend on the game).
    game_options: bool = False

    @property
    def name_key(self) -> str:
        return f"discord.command_name.{self.name}"

    @property
    def about_key(self) -> str:
        return f"discord.command.{self.name}"

    @property
    def path(self) -> str:
        """``game join``, ``help``: how logs name it."""
        return self.name if self.group is None else f"{self.group} {self.name}"


ON_OFF = Choices(lambda: ("on", "off"), "discord.choice.{}")
GAMES = Choices(game_names, "{}.name")
COMPUTER_LEVELS = Choices(lambda: LEVELS, "bots.level.{}")


def _game(required: bool = True) -> LobbyParam:
    """``game:<choice>``: every registered game, by its display name."""
    return LobbyParam("game", required=required, choices=GAMES)


def _stats(service: Service, actor: Actor, place: Place, values: Values) -> Awaitable[Reply]:
    whom: Actor | None = values["player"]
    if whom is None:
        return service.stats(actor, place)
    return service.stats(actor, place, whom.user_id, whom.display_name or None)


def _settings(service: Service, actor: Actor, place: Place, values: Values) -> Awaitable[Reply]:
    return service.settings(
        actor,
        place,
        values["deadline"],
        values["reminder"],
        values["misses"],
        values["replay"],
        values["hold"],
        values["undo"],
        values["autopilot"],
    )


def _lobby() -> tuple[LobbyCommand, ...]:
    # A function rather than a literal only for the type checker: the service imports this
    # module (``/help`` lists it), and mypy checks each call against ``Service`` in a body.
    return (
        LobbyCommand(
            "new",
            lambda s, a, p, v: s.new_game(a, p, v["game"], v.get(GAME_OPTIONS) or {}),
            (_game(),),
            game_options=True,
        ),
        LobbyCommand("join", lambda s, a, p, v: s.join(a, p)),
        LobbyCommand("leave", lambda s, a, p, v: s.leave(a, p)),
        LobbyCommand("start", lambda s, a, p, v: s.start(a, p), slow=True),
        LobbyCommand("cancel", lambda s, a, p, v: s.cancel(a, p)),
        LobbyCommand("undo", lambda s, a, p, v: s.undo(a, p), slow=True),
        LobbyCommand(
            "kick",
            lambda s, a, p, v: s.kick(a, p, v["player"].user_id),
            (LobbyParam("player", "user", required=True),),
        ),
        LobbyCommand(
            "addbot",
            lambda s, a, p, v: s.add_bot(a, p, v["level"]),
            (LobbyParam("level", choices=COMPUTER_LEVELS),),
        ),
        LobbyCommand(
            "replace",
            lambda s, a, p, v: s.replace(a, p, v["player"].user_id, v["with"]),
            (
                LobbyParam("player", "user", required=True, about="replaced"),
                LobbyParam("with", "user", required=True),
            ),
        ),
        LobbyCommand("status", lambda s, a, p, v: s.status(a, p), reads=True),
        LobbyCommand("board", lambda s, a, p, v: s.board(a, p), reads=True, slow=True),
        LobbyCommand(
            "rules",
            lambda s, a, p, v: s.rules(a, p, v["game"], v["topic"]),
            (_game(), LobbyParam("topic", complete="topics")),
            reads=True,
        ),
        LobbyCommand(
            "settings",
            _settings,
            (
                LobbyParam("deadline", "int", min=1, max=MAX_DEADLINE_MINUTES),
                LobbyParam("reminder", "int", min=0, max=MAX_DEADLINE_MINUTES),
                LobbyParam("misses", "int", min=1, max=MAX_MISSES),
                LobbyParam("replay", "switch", choices=ON_OFF),
                LobbyParam("hold", "switch", choices=ON_OFF),
                LobbyParam("undo", "switch", choices=ON_OFF),
                LobbyParam("autopilot", choices=COMPUTER_LEVELS),
            ),
        ),
        LobbyCommand(
            "history",
            lambda s, a, p, v: s.history(a, p, v["page"] or 1),
            (LobbyParam("page", "int", min=1, max=MAX_PAGE),),
            reads=True,
        ),
        LobbyCommand("mine", lambda s, a, p, v: s.mine(a, p), reads=True),
        LobbyCommand("rematch", lambda s, a, p, v: s.rematch(a, p), slow=True),
        LobbyCommand(
            "leaderboard",
            lambda s, a, p, v: s.leaderboard(a, p, v["game"]),
            (_game(),),
            reads=True,
        ),
        LobbyCommand(
            "stats", _stats, (LobbyParam("player", "user", about="stats_player"),), reads=True
        ),
        LobbyCommand(
            "replay",
            lambda s, a, p, v: s.replay_game(a, p, v["game"]),
            (
                LobbyParam(
                    "game", "int", required=True, min=1, max=MAX_INTEGER, about="replay_game"
                ),
            ),
            reads=True,
            slow=True,  # up to 24 tables drawn
        ),
        LobbyCommand(
            "language",
            lambda s, a, p, v: s.language(a, p, v["language"]),
            (
                LobbyParam(
                    "language",
                    required=True,
                    choices=Choices(lambda: ("auto", *LANGUAGES), "discord.language.{}"),
                ),
            ),
        ),
        LobbyCommand(
            "help",
            lambda s, a, p, v: s.help(a, p, v["game"], listing),
            (_game(required=False),),
            group=None,
            reads=True,
        ),
        LobbyCommand(
            "me",
            lambda s, a, p, v: s.me(
                a, p, notify=v["notify"], quiet=v["quiet"], zone=v["timezone"], away=v["away"]
            ),
            (
                LobbyParam("notify", choices=Choices(lambda: NOTIFY, "me.notify.{}")),
                LobbyParam("quiet"),
                LobbyParam("timezone", complete="zones"),
                LobbyParam("away"),
            ),
            group=None,
        ),
    )


LOBBY: tuple[LobbyCommand, ...] = _lobby()

GROUPED = tuple(c for c in LOBBY if c.group == GROUP)  # ``/game …``
TOP_LEVEL = tuple(c for c in LOBBY if c.group is None)  # ``/help``, ``/me``


def spelled(command: LobbyCommand, lang: str) -> str:
    """``/game join`` as a reader of ``lang`` types it (``/partida unirse``)."""
    group = [] if command.group is None else [t(f"discord.command_name.{command.group}", lang)]
    return "/" + " ".join([*group, t(command.name_key, lang)])


def listing(lang: str) -> Text:
    """Every lobby command, as ``/help`` lists them in ``lang``: `/game new`, `/game join`…"""
    return join(f"`{spelled(command, lang)}`" for command in LOBBY)
