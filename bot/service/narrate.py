"""Turning engine events and errors into text in a reader's language.

Conventions for event and error arguments (docs/engine.md): ``seat`` / ``*_seat`` hold a seat
number and become the player's name; ``seats`` a list of seat numbers; ``*_key`` hold a
catalogue key, translated and inserted under the name without the suffix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from i18n import t
from rules.core import Event

MAX_CONTENT = 2000
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()-])")


def plain_name(name: str, limit: int = 32) -> str:
    """A display name as a picture shows it: as typed, less control and bidi characters,
    bounded length (an image cannot ping anyone or render markdown)."""
    return _CONTROL.sub("", str(name)).strip()[:limit] or "?"


def safe_name(name: str, limit: int = 32) -> str:
    """A display name made safe to put in a message: no control or bidi characters, no
    markdown, no way to form a mention (``@everyone``, ``<@123>``), bounded length."""
    text = plain_name(name, limit)
    text = _MARKDOWN.sub(r"\\\1", text)
    return text.replace("@", "@\u200b").replace("<", "‹").replace(">", "›")


def fill_args(args: dict[str, Any], names: Sequence[str], lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in args.items():
        if key == "seat" or key.endswith("_seat"):
            out[key] = _name(value, names)
        elif key == "seats" and isinstance(value, list | tuple):
            out[key] = ", ".join(_name(v, names) for v in value)
        elif key.endswith("_key") and isinstance(value, str):
            out[key[: -len("_key")]] = t(value, lang)
            out[key] = value
        else:
            out[key] = value
    return out


def _name(seat: Any, names: Sequence[str]) -> str:
    # Button arguments arrive as text ("2"), engine events as numbers.
    number = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
    if isinstance(number, int) and 0 <= number < len(names):
        return names[number]
    return str(seat)


def event_text(event: Event, names: Sequence[str], lang: str) -> str:
    return t(event.key, lang, **fill_args(event.args, names, lang))


def events_text(events: Iterable[Event], names: Sequence[str], lang: str) -> list[str]:
    return [event_text(e, names, lang) for e in events]


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Discord refuses content over 2,000 characters: cut at a line break, mark the cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 2)
    return text[: cut if cut > 0 else limit - 2] + "\n…"
