"""How the console reads what a user types: command, parameter, option and choice names in
English or Spanish (as Discord offers them), ``key:value`` words, switches, and the usage line
said back when a command cannot be sent as typed. The console (``bot/console.py``) plays the
commands; this module only reads them."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

from bot.service.lobby_commands import LobbyCommand, spelled
from bot.service.shown import fold
from i18n import has, t
from rules.core import OptionSpec, get_game

KEY = re.compile(r"[a-z0-9_\-áéíóúüñ]{1,32}")  # an option or parameter name, Spanish ones too


def names(name: str, key: str) -> tuple[str, str]:
    """A name as typed in English or in Spanish (``unirse``, ``jugador``), as Discord offers
    it: the catalogue's Spanish entry of ``key``."""
    return name, t(key, "es")


def lobby_command(typed: str, commands: Sequence[LobbyCommand]) -> LobbyCommand | None:
    return next((c for c in commands if typed in names(c.name, c.name_key)), None)


def usage(command: LobbyCommand, lang: str) -> str:
    """``/game replace player:<name> with:<name>``: a command with its parameters, the
    optional ones in brackets (``[page:<…>]``)."""
    who = t("lobby.console.user", lang)
    words = [spelled(command, lang)]
    for param in command.params:
        shape = {"user": who, "switch": "on|off"}.get(param.type, "…")
        typed = f"{t(param.name_key, lang)}:<{shape}>"
        words.append(typed if param.required else f"[{typed}]")
    return " ".join(words)


ON = ("on", "yes", "true", "sí", "si")
OFF = ("off", "no", "false")


def choice_named(param: Any, typed: str | None) -> str | None:
    """A choice typed by its label in either language (``game:Bad Bones``, ``level:Difícil``),
    as Discord offers the labels and sends the value; anything else as typed."""
    if typed is None or param.choices is None:
        return typed
    for value, key in param.choices.labelled():
        if fold(typed) in {fold(value), *(fold(t(key, lang)) for lang in ("en", "es"))}:
            return str(value)
    return typed


def switch(typed: str) -> bool | None:
    """``replay:on`` (or in Spanish, ``sí``) is on, ``off`` (``no``) off; None: neither (a
    typo is not taken for off)."""
    word = typed.lower()
    on = (*ON, t("discord.choice.on", "es"))
    off = (*OFF, t("discord.choice.off", "es"))
    return True if word in on else False if word in off else None


def options_named(game: str, named: dict[str, Any]) -> dict[str, Any]:
    """``/game new`` options by their names or Spanish names."""
    try:
        specs = get_game(game).option_specs
    except Exception:  # an unknown game: the service refuses it in words
        return named
    out: dict[str, Any] = {}
    for key, value in named.items():
        spec = next(
            (s for s in specs if key in (s.name, t(f"{game}.option_name.{s.name}", "es"))), None
        )
        if spec is None:
            out[key] = value
            continue
        out[spec.name] = option_value(game, spec, value)
    return out


def option_value(game: str, spec: OptionSpec, typed: Any) -> Any:
    """A choice typed by its label in either language (``dificultad:insano``), as Discord
    offers the labels and sends the value; anything else as typed (the service checks it)."""
    if not spec.choices or not isinstance(typed, str):
        return typed
    wanted = fold(typed)
    for value in spec.choices:
        key = f"{game}.option_value.{spec.name}.{value}"
        labels = [value] + ([t(key, lang) for lang in ("en", "es")] if has(key, "en") else [])
        # A label's note in brackets need not be typed: "Relajado (sin reloj)" is relajado.
        labels += [label.split(" (", 1)[0] for label in labels]
        if wanted in {fold(label) for label in labels}:
            return value
    return typed


def command_named(game: str, commands: Any, typed: str) -> str:
    """A game command by its name or its Spanish name (``/fuse sacar``), as on Discord."""
    for command in commands:
        if typed in (command.name, t(f"{game}.command_name.{command.name}", "es")):
            return str(command.name)
    return typed


def param_named(game: str, params: Any, typed: str) -> str:
    for param in params:
        if typed in (param.name, t(f"{game}.param_name.{param.name}", "es")):
            return str(param.name)
    return typed


def wrongly_typed(
    game: str, command: Any, named: dict[str, Any], positional: list[str], lang: str
) -> str | None:
    """Why a game command cannot be sent as typed, as Discord would never send it: an option
    it does not have (``dirección:`` for ``direccion:``), more values than it takes, or a
    required one left out; said with the command as it is written. None: it can be sent."""
    names = {param.name for param in command.params}
    usage = game_usage(game, command, lang)
    unknown = next((key for key in named if key not in names), None)
    if unknown is not None:
        return t("lobby.console.no_option", lang, option=unknown, usage=usage)
    if len(positional) > len(command.params):
        return t("lobby.console.too_many", lang, usage=usage)
    if any(param.required and not named.get(param.name) for param in command.params):
        return t("lobby.console.write", lang, usage=usage)
    return None


def game_usage(game: str, command: Any, lang: str) -> str:
    """``/badbones place trap:<…> square:<…> [orientation:<…>]``: a game command with its
    parameters in ``lang``, the optional ones in brackets."""
    words = [f"/{game}", t(f"{game}.command_name.{command.name}", lang)]
    for param in command.params:
        typed = f"{t(f'{game}.param_name.{param.name}', lang)}:<…>"
        words.append(typed if param.required else f"[{typed}]")
    return " ".join(words)


def words(text: str) -> list[str]:
    """Split like a shell (quotes group words) but keep backslashes as typed: a wall's
    orientation is ``\\``."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.escape = ""
    return list(lexer)


def split(words: list[str]) -> tuple[dict[str, Any], list[str]]:
    """``key:value`` (or ``key=value``) words and positional words. Words after a
    ``key:value`` belong to its value until the next key (``dice:a c d``), as Discord reads
    one option's text."""
    named: dict[str, Any] = {}
    positional: list[str] = []
    last: str | None = None
    for word in words:
        key, sep, value = word.partition(":")
        # Option names are lower case, Spanish ones with accents and ñ (``tamaño:9``).
        if not (sep and key and KEY.fullmatch(key)):
            key, sep, value = word.partition("=")
        if sep and key and KEY.fullmatch(key):
            named[key] = value
            last = key
        elif last is not None:
            named[last] = f"{named[last]} {word}"
        else:
            positional.append(word)
    return named, positional
