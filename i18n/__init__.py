"""Messages in English and Spanish, from one catalogue per language.

A catalogue is the folder ``i18n/<lang>/``: one TOML file per part of the product
(``core.toml``, ``lobby.toml``, ``badbones.toml`` …), merged into one flat map of dotted keys.
Texts are ``str.format`` templates: ``"{player} lost a house"``. Engines raise errors and emit
events as keys; adapters and the renderer translate them here.

The catalogue is a top-level package of its own: the bot and the renderer both read it. The
engines speak in message keys (see ``rules.core.errors``) and read one thing only: the words a
player may type for a canonical value (:func:`synonyms`), so input aliases live in the catalogue
beside the names the bot shows.
"""

from __future__ import annotations

import logging
import re
import string
import threading
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "es")
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent

log = logging.getLogger(__name__)


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


# A game's input words: the table ``[<game>.synonyms.<family>]`` of a catalogue file, read by
# :func:`synonyms` and kept out of the messages.
SYNONYMS = "synonyms"


@cache
def _files(lang: str) -> tuple[dict[str, Any], ...]:
    # A path next to this file rather than importlib.resources: it works the same from a
    # checkout, an editable install and a wheel, whatever the current directory.
    folder = LOCALE_DIR / lang
    return tuple(
        tomllib.loads(entry.read_text(encoding="utf-8")) for entry in sorted(folder.glob("*.toml"))
    )


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message of one language, by dotted key (input synonyms are not messages)."""
    out: dict[str, str] = {}
    for data in _files(lang):
        for part, table in data.items():
            if isinstance(table, dict):
                table = {k: v for k, v in table.items() if k != SYNONYMS}
            _flatten("", {part: table}, out)
    return out


@cache
def synonyms(game: str, family: str) -> Mapping[str, str]:
    """The words a player may type for the canonical values of one ``family`` of ``game``'s
    input (``synonyms("badbones", "trap")["muro"] == "wall"``), from the table
    ``[<game>.synonyms.<family>]`` of every language's catalogue merged, so a Spanish word
    works in an English channel too. Keys are in lower case: look a typed word up lowered.
    A word two languages give different values is a catalogue bug (``tests/test_synonyms.py``).
    """
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        for word, value in synonym_table(lang, game, family).items():
            out.setdefault(word.lower(), value)
    return out


def synonym_table(lang: str, game: str, family: str) -> dict[str, str]:
    """One language's ``[<game>.synonyms.<family>]`` as written (empty when it has none)."""
    out: dict[str, str] = {}
    for data in _files(lang):
        table = data.get(game, {}).get(SYNONYMS, {}).get(family, {})
        out.update({str(word): str(value) for word, value in table.items()})
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
    """Translate ``key`` into ``lang``.

    A key the language lacks is a bug in the catalogue (:func:`missing`): it is reported, and
    the reader gets the English text, or else a readable word from the key, never the key.
    Arguments that are themselves message keys can be passed pre-translated by the caller;
    values are inserted as text, whole numbers with the language's thousands separator.
    """
    lang = language_for(lang)
    template = catalogue(lang).get(key)
    if template is None:
        missing(key, lang)
        template = catalogue(DEFAULT_LANGUAGE).get(key)
        if template is None:
            return fallback(key)
    return _Formatter(lang).vformat(template, (), _Lenient(args))


# --- Missing keys -------------------------------------------------------------------------
#
# A key is "reached" when ``t`` is asked for it. A reached key that a language lacks is logged
# once per process (a bounded set, so a flood of distinct bad keys cannot grow memory), and
# handed to every watcher: the generic test (tests/test_texts.py) watches while it plays every
# registered game in every language, and fails on any miss.

_LOGGED_AT_MOST = 1000
_logged: set[tuple[str, str]] = set()
_watchers: list[Callable[[str, str], None]] = []
_lock = threading.Lock()  # pictures are drawn in threads, which translate too


def missing(key: str, lang: str) -> None:
    """Report that ``key`` was reached in ``lang`` but the catalogue lacks it."""
    with _lock:
        first = (key, lang) not in _logged and len(_logged) < _LOGGED_AT_MOST
        if first:
            _logged.add((key, lang))
        watchers = list(_watchers)
    if first:
        log.warning("message %r is missing from the %s catalogue", key, lang)
    for watcher in watchers:
        watcher(key, lang)


@contextmanager
def watching() -> Iterator[set[tuple[str, str]]]:
    """Inside the block, collect every ``(key, language)`` reached but missing, from any
    thread (a test's probe: ``with watching() as misses: …; assert not misses``)."""
    found: set[tuple[str, str]] = set()

    def add(key: str, lang: str) -> None:
        found.add((key, lang))

    with _lock:
        _watchers.append(add)
    try:
        yield found
    finally:
        with _lock:
            _watchers.remove(add)


_WORDS = re.compile(r"[^\W_]+")


def fallback(key: str) -> str:
    """A readable stand-in for a key no catalogue has: its last part as words
    (``pig.pending.turn`` -> "Turn", ``x.event.brawl_won`` -> "Brawl won"), or what it is the
    name of (``pig.name`` -> "Pig")."""
    parts = key.split(".")
    named = parts[-2] if parts[-1] == "name" and len(parts) > 1 else parts[-1]
    words = " ".join(_WORDS.findall(named)) or "…"
    return words[:1].upper() + words[1:]
