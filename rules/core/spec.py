"""What a game tells the outside world about itself: options, pending inputs, results, and the
commands players type.

These are plain data so that every adapter (Discord, console, tests) is generic: the Discord
slash commands, their autocomplete and the buttons are all derived from a game's
``commands``, ``legal_actions`` and ``to_command``; no adapter knows a game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rules.core.actions import Action
from rules.core.events import Event

OptionType = Literal["bool", "int", "choice"]
ParamType = Literal["str", "int", "bool"]


@dataclass(frozen=True)
class OptionSpec:
    """One game option for ``/game new`` (e.g. ``advanced: bool``, ``difficulty: choice``).

    The description is the catalogue key ``<game>.option.<name>``.
    """

    name: str
    type: OptionType
    default: Any
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None


@dataclass(slots=True)  # not frozen, for speed, like Event: never changed once made
class Pending:
    """What one seat owes now.

    ``kind`` names the input (``hero_move``, ``choose_target``…); the catalogue key
    ``<game>.pending.<kind>`` tells the player what is asked. ``default`` is applied for the seat
    when its deadline passes (AFK), so a game never stalls. ``deadline`` is an absolute time
    (seconds since the epoch) that the *game* imposes (a real-time clock); ``None`` leaves the
    deadline to the channel's settings.
    """

    kind: str
    default: Action
    deadline: float | None = None
    args: dict[str, Any] = field(default_factory=dict)
    # A question asked while the phase goes on (Bad Bones phase 3): a number that grows with
    # each new question, which its buttons carry, so they stay valid until it is answered
    # whatever the others answer meanwhile. ``None``: the buttons belong to the phase.
    asked: int | None = None


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``winners`` is empty when nobody won (a cooperative loss). ``scores`` maps seat → points
    where the game keeps points. ``summary`` is an event narrating the end.
    """

    winners: tuple[int, ...]
    scores: dict[int, int] = field(default_factory=dict)
    summary: Event | None = None


@dataclass(frozen=True)
class Turn:
    """The unit the table's messages follow (``Game.turn``): one message per unit, which the
    unit's steps edit in place.

    ``key`` changes when a new unit begins (a turn number; the phase token in a simultaneous
    game, whose unit stays the phase). ``player`` is whose turn it is (``None``: nobody's
    alone, a simultaneous phase). ``asked`` are the other players who must look now, within
    the turn (a brawl's defender): one newly asked gets a message of their own, which pings
    them."""

    key: str
    player: int | None = None
    asked: frozenset[int] = frozenset()

    @property
    def by_turns(self) -> bool:
        """Whether this is one player's turn (its steps edit one message)."""
        return self.player is not None


@dataclass(frozen=True)
class Snapshot:
    """The table after a move, as the rest of the move sees it (``Game.snapshot``): who is
    awaited and for what, the phase token, picture and turn keys, and whether and how it ended."""

    phase: str
    picture_key: str
    turn: str
    pending: dict[int, Pending]
    over: bool
    result: Result | None
    unit: Turn | None = None  # the unit of posting (``Game.turn``); ``None``: the phase


@dataclass(frozen=True)
class Param:
    """One argument of a game command. Its description is ``<game>.param.<name>``.

    ``choices``: a fixed list (Discord shows them as choices). ``autocomplete``: the values come
    from the state (the adapter derives them from ``legal_actions`` through ``to_command``).
    ``names``: the catalogue section whose entries name the values in each language (default
    ``<game>.choice.<name>``): the bot shows them and accepts them as typed, while actions and
    saved games keep the canonical values. ``pieces``: the topic of ``Game.pieces`` its values
    are pieces of (Bad Bones' ``trap``: ``traps``), so the bot says what each one does where it
    is chosen.
    """

    name: str
    type: ParamType = "str"
    required: bool = True
    choices: tuple[str, ...] = ()
    autocomplete: bool = False
    names: str = ""
    pieces: str = ""


@dataclass(frozen=True)
class Piece:
    """A piece of a game that players choose or meet (a trap, an item, a die face), for the
    bot to describe: ``value`` as commands take it, and the catalogue keys of its name and its
    one-line description. ``cost``: a price to show with it (Bad Bones' Market)."""

    value: str
    name: str
    text: str
    cost: int | None = None


@dataclass(frozen=True)
class Command:
    """A game command such as ``/badbones move direction:N``.

    Its description is ``<game>.command.<name>``. ``button`` makes every legal action of this
    command a button under the phase message (for the common, argument-light actions).
    ``select`` names a parameter whose value is a space-separated set of tokens (Farkle's dice to
    set aside: ``"a c d"``); the Discord adapter offers it as a multi-select whose options are the
    tokens found in the legal actions' values, and joins the picks with spaces.
    ``owned``: its buttons act on one seat's own things (FUSE's return: a die on your card), so
    when several seats are asked at once, each such button says whose it is.
    ``steps``: parameters chosen one after another from menus, each offering only the values
    that still lead to a legal action (Zombies vs Vampires' pawn, then where it goes); a step
    with no value to offer (a wall of length 1 has no direction) is skipped. The bot asks the
    first under the phase message and each next one privately. ``hidden``: whether its player
    may use it now is theirs alone to know (Farkle's items, from a hidden hand), so its menus
    open only from the player's private board, never under a public message.
    """

    name: str
    params: tuple[Param, ...] = ()
    button: bool = False
    select: str | None = None
    owned: bool = False
    steps: tuple[str, ...] = ()
    hidden: bool = False


CommandArgs = dict[str, str | int | bool]
"""The arguments of one command invocation, by parameter name."""


def command_key(command: str, args: CommandArgs) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A hashable, order-free identity of a command invocation (arguments compared as text,
    case-insensitively, because users type them)."""
    return command, tuple(sorted((k, str(v).strip().upper()) for k, v in args.items()))


__all__ = [
    "Action",
    "Command",
    "CommandArgs",
    "OptionSpec",
    "Param",
    "Pending",
    "Result",
    "command_key",
]
