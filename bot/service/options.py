"""A game's options as a reader sees them: "Avanzado: sí · Jefes: sí".

Only the options that differ from the game's defaults are named (the usual game says so in
one word), and those the game announces whatever their value (``Game.announced_options``: FUSE
live's round timer). Labels are ``<game>.option_label.<name>``, choice values ``<game>.option_value.<name>.<value>``
(the same labels as the slash command's choices), booleans ``core.yes``/``core.no``. A game
without them in the catalogue (the test games) shows ``name=value``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import has, number, t
from rules.core import OptionSpec, get_game

SEPARATOR = " · "


def summary(game: str, options: Mapping[str, Any], lang: str) -> str:
    engine = get_game(game)
    specs = engine.option_specs
    full = {s.name: options.get(s.name, s.default) for s in specs}
    announced = engine.announced_options(full)
    named = [s for s in specs if full[s.name] != s.default or s.name in announced]
    if not named:
        return t("core.options.usual", lang)
    return SEPARATOR.join(_one(game, spec, full[spec.name], lang) for spec in named)


def _one(game: str, spec: OptionSpec, value: Any, lang: str) -> str:
    label_key = f"{game}.option_label.{spec.name}"
    if not has(label_key, lang):
        return f"{spec.name}={value}"
    return f"{t(label_key, lang)}: {value_label(game, spec, value, lang)}"


def value_label(game: str, spec: OptionSpec, value: Any, lang: str) -> str:
    if spec.type == "bool":
        return t("core.yes" if value else "core.no", lang)
    if spec.type == "int":
        return number(int(value), lang)
    key = f"{game}.option_value.{spec.name}.{value}"
    return t(key, lang) if has(key, lang) else str(value)
