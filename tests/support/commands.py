"""What a player types for an action, in tests that play through the service or the fake
Discord: the command and its arguments. An action with no command (an internal one) is a
test's mistake, so it fails here with the action named rather than sending an empty command."""

from __future__ import annotations

from typing import Any

from rules.core import Action, CommandArgs, Game


def command_for(game: Game[Any], action: Action) -> tuple[str, CommandArgs]:
    """The command and arguments a player types for ``action``."""
    mapped = game.to_command(action)
    assert mapped is not None, f"{game.name}: no command plays {action!r}"
    return mapped
