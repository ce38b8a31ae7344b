"""A refusal as the rulebook states it: the engine refuses, the player reads why in every
language, and nothing changes. Each game's tests bind these to their engine once
(``refused = partial(refusals.refused, GAME)``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service.compose import refusal
from bot.service.narrate import fill_args
from bot.service.text import Name
from i18n import LANGUAGES, catalogue
from rules.core import Action, CommandArgs, Game, RulesError

SEAT_NAMES = tuple(Name(f"Player{n}") for n in range(10))


def refused(
    game: Game[Any], state: Any, seat: int, action: Action, key: str | None = None, now: float = 0.0
) -> str:
    """``apply`` refuses ``action`` (with ``key``, when given) and leaves ``state`` as it was;
    the refusal's key."""
    before = game.dump(state)
    with pytest.raises(RulesError) as err:
        game.apply(state, seat, action, now)
    assert game.dump(state) == before, "a refused action changes nothing"
    assert key is None or err.value.key == key, (action, err.value)
    readable(err.value)
    return err.value.key


def refused_command(
    game: Game[Any],
    state: Any,
    seat: int,
    command: str,
    args: CommandArgs,
    key: str | None = None,
) -> RulesError:
    """The typed command is refused by ``parse`` (with ``key``, when given), for the reason
    ``check`` gives the action it names (the one legality: ``apply`` says the same), and
    ``state`` does not change; the error."""
    before = game.dump(state)
    error = reason(game, state, seat, command, args)
    assert key is None or error.key == key, (command, args, error)
    if command not in {c.name for c in game.commands}:
        assert error.key == "core.error.unknown_command"
        return error
    try:
        action = game.read(command, {k: v for k, v in args.items() if v is not None}, state, seat)
    except RulesError as misread:  # the words name no action at all
        assert misread.key == error.key
    else:
        with pytest.raises(RulesError) as checked:
            game.check(state, seat, action)
        assert checked.value.key == error.key, (action, checked.value, error)
    assert game.dump(state) == before, "a refused command changes nothing"
    readable(error)
    return error


def reason(game: Game[Any], state: Any, seat: int, command: str, args: CommandArgs) -> RulesError:
    """Why ``parse`` refuses the typed command (it must refuse it)."""
    with pytest.raises(RulesError) as err:
        game.parse(command, args, state, seat)
    return err.value


def readable(error: RulesError) -> None:
    """The refusal as a player reads it (its seats named, as the service does), in every
    language: a text of the catalogue with every ``{argument}`` filled."""
    for lang in LANGUAGES:
        assert error.key in catalogue(lang), f"{error.key} has no {lang} text"
        text = said_in(error, lang)
        assert "{" not in text, f"{lang}: {text}"


def said_in(error: RulesError, lang: str) -> str:
    """The refusal as the player reads it in ``lang``, its seats named Player0, Player1…"""
    named = RulesError(error.key, **fill_args(error.args_map, SEAT_NAMES, lang))
    return str(refusal(named, lang))
