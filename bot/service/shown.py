"""A command parameter's values as a reader sees and types them, in every language.

Engines speak in canonical values (``W``, ``loaded``, ``B4``); the catalogue names them per
language in the parameter's section (``Param.names``, by default ``<game>.choice.<param>``):
``badbones.dir.W = "O"``, ``farkle.item.loaded = "Dado cargado"``. The service
shows those names in buttons and autocomplete (:func:`show`) and turns whatever a user typed, in
any language, back into the canonical value before the engine parses it (:func:`canonical`), so
actions, logs and saved games never change with the language.

A value is matched whole first (``Loaded Die``), then as a list (``N, E, W, S`` is shown
``N, E, O, S``), then word by word (a ZvV wall ``G9 W`` is shown ``G9 O``): a word without a
name is kept as it is. A single word of a name that names one value only is read as that
value (``capa`` = ``Capa de invisibilidad`` = ``cloak``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import cache
from typing import Any

from i18n import LANGUAGES, catalogue
from rules.core import get_game


def show(game: str, param: str, value: Any, lang: str) -> Any:
    """``value`` as ``lang`` names it (unchanged when the catalogue does not name it)."""
    names = _names(game, param)
    if not names or not isinstance(value, str):
        return value
    if value in names:
        return names[value].get(lang, value)
    if ", " in value:  # a list of values ("N, E, W, S"), each shown as it is named
        return ", ".join(str(show(game, param, v, lang)) for v in value.split(", "))
    words = value.split(" ")
    if len(words) > 1 and any(w in names for w in words):
        return " ".join(names[w].get(lang, w) if w in names else w for w in words)
    return value


def canonical(game: str, param: str, typed: Any) -> Any:
    """The canonical value a user meant, whichever language they typed it in."""
    values = _reverse(game, param)
    if not values or not isinstance(typed, str):
        return typed
    whole = values.get(fold(typed))
    if whole is not None:
        return whole
    words = typed.split()
    if len(words) > 1:
        return " ".join(values.get(fold(w), w) for w in words)
    return typed


def show_args(game: str, args: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Each argument shown as its parameter's values are; an event's plural argument ("dice",
    several values in one string) like its singular parameter ("die"), and an argument named
    for its part in the event like the parameter whose value it is (``_PARAMETER``)."""
    out = {}
    for key, value in args.items():
        param = key
        if not _names(game, key):
            param = _PARAMETER.get(key, key[:-1] if key.endswith("s") else key)
        out[key] = show(game, param, value, lang)
    return out


# FUSE's swap: the die put "back" is a die (V5 in Spanish, as the one taken).
_PARAMETER = {"dice": "die", "back": "die"}


def canonical_args(game: str, args: Mapping[str, Any]) -> dict[str, Any]:
    return {k: canonical(game, k, v) for k, v in args.items()}


def section(game: str, param: str) -> str:
    """The catalogue section that names ``param``'s values."""
    try:
        engine = get_game(game)
    except Exception:
        return f"{game}.choice.{param}"
    declared = {p.name: p.names for c in engine.commands for p in c.params if p.names}
    return declared.get(param) or f"{game}.choice.{param}"


@cache
def _names(game: str, param: str) -> dict[str, dict[str, str]]:
    """value -> language -> name, for the values the catalogue names."""
    return _sections().get(section(game, param), {})


def warm() -> None:
    """Read every language's catalogue and index its sections (at start-up)."""
    _sections()


@cache
def _sections() -> dict[str, dict[str, dict[str, str]]]:
    """Every catalogue section -> its last key part -> language -> text, in one pass (the first
    move of a process must not scan the catalogue once per parameter)."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            prefix, _, last = key.rpartition(".")
            out.setdefault(prefix, {}).setdefault(last, {})[lang] = text
    return out


@cache
def _reverse(game: str, param: str) -> dict[str, str]:
    """Every folded form a user may type (the value, each language's name, and a word of a name
    that no other value's names share) -> the value."""
    out: dict[str, str] = {}
    owners: dict[str, set[str]] = {}
    for value, names in _names(game, param).items():
        out.setdefault(fold(value), value)
        for name in names.values():
            out.setdefault(fold(name), value)
            for word in fold(name).split():
                owners.setdefault(word, set()).add(value)
    # One word of a name is enough when it names one value only: "capa" for "Capa de
    # invisibilidad", "cuerno" for "Cuerno de guerra" (the English words are the values).
    for word, values in owners.items():
        if len(values) == 1 and len(word) >= _WORD_MIN:
            out.setdefault(word, next(iter(values)))
    return out


_WORD_MIN = 3  # shorter words ("de", "of") never name a value by themselves


def fold(text: str) -> str:
    """Case, accents, underscores and spacing do not matter: "poción_de valor" = "Poción de Valor"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.replace("_", " ").casefold().split())
