"""Localized command names and descriptions, from the message catalogue.

Every name and description in the command tree is a :class:`discord.app_commands.locale_str`
whose message is the English text and whose ``key`` extra names the catalogue entry (``args``
holds template arguments). Discord then shows Spanish users (locales ``es-ES`` and ``es-419``)
the Spanish entry of the same key.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from i18n import has, t

# Discord locale -> catalogue language. English is the default text of every string, so it needs
# no entry here.
LOCALES: dict[discord.Locale, str] = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
}


def text(key: str, **args: Any) -> locale_str:
    """A translatable string: the English text now, the other languages at sync time.

    As in the service, an argument ending in ``_key`` is itself a catalogue key, translated into
    the same language and inserted under the name without the suffix (``game_key`` → ``{game}``).
    """
    return locale_str(translate(key, "en", args), key=key, args=args)


def translate(key: str, lang: str, args: dict[str, Any]) -> str:
    filled = {
        (name[:-4] if name.endswith("_key") else name): (
            t(value, lang) if name.endswith("_key") else value
        )
        for name, value in args.items()
    }
    return t(key, lang, **filled)


def name(api_name: str, key: str | None) -> locale_str | str:
    """A translatable command, group or parameter name (English: ``api_name`` itself)."""
    return locale_str(api_name, key=key) if key else api_name


class CatalogueTranslator(app_commands.Translator):
    """Translates every string that carries a catalogue ``key``; leaves the rest alone."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or not key or not has(key, lang):
            return None
        translated = translate(key, lang, string.extras.get("args", {}))
        if context.location in _NAMES:
            # A bad catalogue entry must not break the whole sync: fall back to English.
            translated = translated.strip()
            if not _valid_name(translated):
                return None
        return translated


_NAMES = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}


def _valid_name(value: str) -> bool:
    return (
        0 < len(value) <= 32
        and value == value.lower()
        and all(ch.isalnum() or ch in "-_" for ch in value)
    )
