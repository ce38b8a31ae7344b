"""Messages in English and Spanish, from one catalogue per language.

A catalogue is the folder ``i18n/<lang>/``: one TOML file per part of the product
(``core.toml``, ``lobby.toml``, ``badbones.toml`` …), merged into one flat map of dotted keys.
Texts are ``str.format`` templates: ``"{player} lost a house"``. Engines raise errors and emit
events as keys; adapters and the renderer translate them here.

The catalogue is a top-level package of its own: the bot and the renderer both read it, and the
engines never do (they speak in message keys, see ``rules.core.errors``).
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent


def language_for(locale: str | None) -> str:
    """Map a Discord locale (``es-ES``, ``es-419``, ``en-US``…) to a catalogue language."""
    if locale:
        short = str(locale).split("-")[0].lower()
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = str(value)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message of one language, by dotted key."""
    out: dict[str, str] = {}
    # A path next to this file rather than importlib.resources: it works the same from a
    # checkout, an editable install and a wheel, whatever the current directory.
    folder = LOCALE_DIR / lang
    for entry in sorted(folder.glob("*.toml")):
        _flatten("", tomllib.loads(entry.read_text(encoding="utf-8")), out)
    return out


def number(n: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """A whole number as the language writes it: 12,500 in English, 12.500 in Spanish."""
    text = f"{n:,}"
    return text.replace(",", ".") if language_for(lang) == "es" else text


class _Formatter(string.Formatter):
    """``str.format`` whose whole numbers are written the language's way (``number``): a
    message's scores and armies read like the table picture's.

    Plurals: ``{count:plural:skeleton|skeletons}`` is the word for that many (the first form
    for exactly one, the second otherwise), so a template reads "{count} {count:plural:…}".
    English and Spanish need no more than these two forms."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec.startswith("plural:"):
            one, _, other = format_spec[len("plural:") :].partition("|")
            return one if _is_one(value) else other or one
        if type(value) is int and not format_spec:  # (not a bool: True is an int too)
            return number(value, self.lang)
        return super().format_field(value, format_spec)


def _is_one(value: Any) -> bool:
    try:
        return int(value) == 1
    except (TypeError, ValueError):
        return False


class _Lenient(dict[str, Any]):
    """Missing template arguments show as ``{name}`` instead of crashing a reply."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: str = DEFAULT_LANGUAGE) -> bool:
    return key in catalogue(lang)


def t(key: str, lang: str = DEFAULT_LANGUAGE, /, **args: Any) -> str:
    """Translate ``key`` into ``lang`` (falling back to English, then to the key itself).

    Arguments that are themselves message keys can be passed pre-translated by the caller;
    values are inserted as text, whole numbers with the language's thousands separator.
    """
    template = catalogue(language_for(lang)).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        return key
    return _Formatter(lang).vformat(template, (), _Lenient(args))
