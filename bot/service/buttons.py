"""Button and select ``custom_id``s: ``pt:<game id>:<phase>[~<asked>]:<command>:<args>``.

They survive a restart because everything needed to act is in the id itself: the game, the
phase the button was made for (a short hash of the engine's phase token, so a click on a button
of an earlier phase is recognised as stale), where the phase asks questions that stay open while
others are answered (Bad Bones phase 3) the newest question the message asked (``asked``, see
``rules.core.Pending``: a seat's question asked after it is not this button's), the command and
its arguments
(``key=value&key=value``, percent-encoded). A select has ``@<param>`` in place of the arguments:
the picked values are joined with spaces into that parameter. Discord caps ids at 100 chars.

A command chosen step by step from menus (``Command.steps``: a pawn, then where it goes) writes
the steps already made before the ``@<param>`` of the next, and a menu of a private answer says
which of its menus it is: ``pt:42:1a2b3c4d:move:pawn=C3&@to#0``; a button that opens the first
step ends with ``?`` (``pt:42:1a2b3c4d:place:?``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from rules.core import CommandArgs

MAX_CUSTOM_ID = 100
PATTERN = re.compile(
    r"^pt:(?P<game>\d{1,12}):(?P<phase>[0-9a-f]{0,8})(?:~(?P<asked>\d{1,9}))?:(?P<command>[a-z0-9_-]{1,32}):(?P<rest>.*)$"
)


# Any id that claims to be ours, well-formed or not: adapters route every such click to the
# service, which answers a malformed or outdated one in words ("this button is out of date").
OURS = re.compile(r"pt:(?P<game>\d{1,12}):(?P<rest>.*)")


def phase_hash(phase: str) -> str:
    return hashlib.blake2s(phase.encode(), digest_size=4).hexdigest()


@dataclass(frozen=True)
class Press:
    """A button click or a select submission, decoded once where it arrives (the adapter:
    :func:`decode`) and passed down as it is: nothing below reads the id again."""

    game_id: int
    phase: str
    command: str
    args: CommandArgs
    select_param: str | None = None
    # A step of a command chosen from menus (``Command.steps``): an opener (``?``), or a menu
    # of a private answer (``#n``), which the next answer replaces.
    step: bool = False
    asked: int | None = None  # the newest question of the message it was on (see above)


def button_id(
    game_id: int, phase: str, command: str, args: CommandArgs, asked: int | None = None
) -> str | None:
    """The custom_id of a button, or None if it would not fit Discord's limit."""
    mark = "" if asked is None else f"~{asked}"
    custom_id = f"pt:{game_id}:{phase_hash(phase)}{mark}:{command}:{_encoded(args)}"
    return custom_id if len(custom_id) <= MAX_CUSTOM_ID else None


# Lobby buttons (on the lobby message): the same format with an empty phase, as a lobby has
# none yet: ``pt:<game id>::join:``.
LOBBY_COMMANDS = ("join", "leave", "start")


def lobby_id(game_id: int, command: str) -> str:
    return f"pt:{game_id}::{command}:"


def is_lobby(press: Press) -> bool:
    return press.phase == "" and press.command in LOBBY_COMMANDS and not press.args


# Rematch (under a finished game's closing message): ``pt:<finished game id>:<hash of "">:rematch:``.
REMATCH = "rematch"
UNDO = "undo"  # ↩ on a player's own confirmation (bot/service/undo.py): no phase either


def is_undo(press: Press) -> bool:
    return press.command == UNDO and press.phase == phase_hash("") and not press.args


def select_id(game_id: int, phase: str, command: str, param: str) -> str:
    return f"pt:{game_id}:{phase_hash(phase)}:{command}:@{param}"


OPEN = "?"


def _encoded(args: CommandArgs) -> str:
    return "&".join(
        f"{quote(k, safe='')}={quote(str(v), safe='')}" for k, v in sorted(args.items())
    )


def step_id(
    game_id: int,
    phase: str,
    command: str,
    args: CommandArgs,
    param: str | None,
    number: int | None = None,
) -> str | None:
    """The custom_id of a step of a command chosen from menus: the menu of ``param`` with the
    steps ``args`` already made, or with ``param`` None the button that opens the first step.
    ``number``: a menu of a private answer (its place among that answer's menus), which a pick
    replaces; None: the first step's menu under a message that stays. None: it would not fit."""
    last = OPEN if param is None else f"@{param}" + ("" if number is None else f"#{number}")
    made = _encoded(args)
    custom_id = f"pt:{game_id}:{phase_hash(phase)}:{command}:" + "&".join(
        part for part in (made, last) if part
    )
    return custom_id if len(custom_id) <= MAX_CUSTOM_ID else None


def decode(custom_id: str, values: list[str] | None = None) -> Press | None:
    """The press a click on ``custom_id`` makes, with a select's picked ``values`` (None if
    the id is not one of ours or is malformed: the service answers that it is out of date)."""
    match = PATTERN.match(custom_id or "")
    if match is None:
        return None
    rest = match["rest"]
    args: CommandArgs = {}
    select_param: str | None = None
    step = False
    parts = rest.split("&") if rest else []
    if parts and parts[-1] == OPEN:
        parts, step = parts[:-1], True
    elif parts and parts[-1].startswith("@"):
        select_param, mark, _ = parts[-1][1:].partition("#")
        step = bool(mark)  # a menu of a private step ("#n"), which its answer replaces
        parts = parts[:-1]
    for pair in parts:
        key, sep, value = pair.partition("=")
        if not sep:
            return None
        args[unquote(key)] = unquote(value)
    if select_param is not None:
        args[select_param] = " ".join(str(v) for v in (values or []))
    asked = int(match["asked"]) if match["asked"] else None
    return Press(
        int(match["game"]), match["phase"], match["command"], args, select_param, step, asked
    )


# Buttons that belong to no game (the pages of a leaderboard or of the history, a history
# entry's Replay, "Your board" under a table message): game id 0, no phase. The service answers
# them as read-only views, whatever game the channel has open.
VIEW_GAME = 0
BOARD = "board"  # "🎒 Your board": /game board in one click, for the player who presses it


def view_id(command: str, args: CommandArgs) -> str:
    custom_id = button_id(VIEW_GAME, "", command, args)
    assert custom_id is not None, "a view button's arguments are short"
    return custom_id
