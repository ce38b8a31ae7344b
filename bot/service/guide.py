"""Help for newcomers: ``/help``, ``/help game:<game>``, the welcome message and ``/game mine``.

Pure: each function turns what it is given (a game, a user's open games) into a ``Text`` in one
language; the service (``service.py``) loads the rows and the adapters send the result.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.text import Text, join, lines, phrase
from bot.store.models import LOBBY, GameRow
from i18n import has
from rules.core import game_names, get_game


def jump_link(guild_id: int | None, channel_id: int) -> str:
    """Discord's link to a channel (a thread is a channel too); a click opens it."""
    return f"https://discord.com/channels/{guild_id if guild_id else '@me'}/{channel_id}"


def general_help(lang: str, commands: Text) -> Text:
    """``/help``: how a game starts and is played, every lobby command (``commands``: the
    lobby's list declares them, ``lobby_commands.listing``) and the games there are."""
    games = join(phrase(f"{g}.name", lang) for g in game_names() if _has_catalogue(g))
    return lines(
        [
            phrase("guide.help.title", lang),
            phrase("guide.help.start", lang),
            phrase("guide.help.play", lang),
            phrase("guide.help.commands", lang, commands=commands),
            phrase("guide.help.games", lang, games=games),
        ]
    )


def which_rules(lang: str) -> Text:
    """``/game rules`` with no game named: which games there are, and how to ask for one."""
    games = join(
        phrase("guide.rules.game", lang, name=phrase(f"{g}.name", lang), game=g)
        for g in game_names()
        if _has_catalogue(g)
    )
    return phrase("guide.rules.which", lang, games=games)


def game_help(game: str, lang: str) -> Text:
    """``/help game:<game>``: the first commands of one game, then its rules (``/game rules``)."""
    engine = get_game(game)
    commands = join(
        phrase(
            "guide.game.command",
            lang,
            game=game,
            command=phrase(f"{game}.command_name.{c.name}", lang),
            what=phrase(f"{game}.command.{c.name}", lang),
        )
        for c in engine.commands[:6]
    )
    return lines(
        [
            phrase("guide.game.title", lang, game=phrase(f"{game}.name", lang)),
            phrase(
                "guide.game.start",
                lang,
                game=game,
                min=engine.min_seats,
                max=engine.max_seats,
            ),
            phrase("guide.game.commands", lang, commands=commands),
            phrase("guide.game.rules", lang, game=game),
        ]
    )


def welcome(lang: str) -> Text:
    """The few lines the bot posts when it joins a server."""
    return lines([phrase("guide.welcome.hello", lang), phrase("guide.welcome.start", lang)])


def mine(rows: Sequence[GameRow], lang: str) -> Text:
    """``/game mine``: each open game of the user, with a link to its channel."""
    if not rows:
        return phrase("guide.mine.none", lang)
    said: list[Text] = [phrase("guide.mine.title", lang)]
    for row in rows:
        said.append(
            phrase(
                "guide.mine.line",
                lang,
                game=phrase(f"{row.kind}.name", lang),
                state=phrase(
                    "guide.mine.lobby" if row.status == LOBBY else "guide.mine.active", lang
                ),
                link=jump_link(row.guild_id, row.channel_id),
            )
        )
    return lines(said)


def _has_catalogue(game: str) -> bool:
    return has(f"{game}.name", "en")  # the test games have none
