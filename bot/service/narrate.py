"""Turning engine events and errors into text in a reader's language.

Conventions for event and error arguments (docs/engine.md): ``seat`` / ``*_seat`` hold a seat
number and become the player's :class:`Name`; ``seats`` a list of seat numbers (and
``seats_count`` how many, for plurals); ``dice`` a text of dice (and ``dice_count`` how many);
``*_key`` hold
a catalogue key, translated and inserted under the name without the suffix. An event whose
amount is 0 is worded by ``<key>_no_<arg>`` where the catalogue has one (:func:`zero_key`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from bot.service.shown import show_args
from bot.service.text import Name, Text, join, phrase
from i18n import has, t
from rules.core import Event

# What a name loses: C0 and C1 controls and DEL; marks that are invisible or turn the text
# around (zero-width spaces and joiners, the bidi marks, embeddings, overrides and isolates, the
# Arabic letter mark, the word joiner and invisible operators, the byte-order mark); and the line
# and paragraph separators, which break a line. A C1 control is drawn as a box in a picture.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")

# Characters that are drawn blank though they are not spaces (the Hangul fillers, the braille
# blank): a name made of them shows nothing in a message, and a box in a picture.
_BLANK = "\u115f\u1160\u3164\uffa0\u2800"
_ENDS = re.compile(rf"^[\s{_BLANK}]+|[\s{_BLANK}]+$")


def plain_name(name: str, limit: int = 32) -> str:
    """A display name as typed, less control and bidi characters, blank ends and accents
    before its first letter, bounded length: what a picture shows and what a :class:`Name`
    holds (each adapter escapes it its own way). A name with nothing left to see is "?"."""
    text = _ENDS.sub("", _CONTROL.sub("", str(name)))
    # Combining marks at the start have no letter to sit on: they would land on the character
    # before the name ("#4´" in a picture).
    while text and unicodedata.category(text[0]) in ("Mn", "Me"):
        text = _ENDS.sub("", text[1:])
    return text[:limit] or "?"


def fill_args(args: dict[str, Any], names: Sequence[Name], lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in args.items():
        if key == "seat" or key.endswith("_seat"):
            out[key] = _name(value, names)
        elif key == "seats" and isinstance(value, list | tuple):
            out[key] = join(_name(v, names) for v in value)
            out["seats_count"] = len(value)  # for a plural: "{seats_count:plural:Winner|Winners}"
        elif key == "dice" and isinstance(value, str):
            out[key] = value
            out["dice_count"] = len(value.split())  # "a5 c1": 2, for "{dice_count:plural:…}"
        elif key.endswith("_key") and isinstance(value, str):
            out[key[: -len("_key")]] = t(value, lang)
            out[key] = value
        else:
            out[key] = value
    return out


def _name(seat: Any, names: Sequence[Name]) -> Name | Text | str:
    if isinstance(seat, Name | Text):
        return seat  # named already (a refusal's arguments are filled in before it is worded)
    # Button arguments arrive as text ("2"), engine events as numbers.
    number = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
    if isinstance(number, int) and 0 <= number < len(names):
        return names[number]
    return str(seat)


def event_text(event: Event, names: Sequence[Name], lang: str) -> Text:
    # An event names dice, directions and items by their canonical values: shown as the reader
    # names them (an argument called like a parameter, or its plural: "die", "dice").
    game = event.key.split(".", 1)[0]
    key = zero_key(event.key, event.args)
    return phrase(key, lang, **fill_args(show_args(game, event.args, lang), names, lang))


def zero_key(key: str, args: dict[str, Any]) -> str:
    """``key``'s wording for a zero amount: ``<key>_no_<arg>`` when the catalogue has it and the
    whole-number argument ``arg`` is 0 ("loses the 0 soldiers" read like a bug: "had no soldiers
    to lose"); ``key`` otherwise. The engine's events stay as they are (and so its
    fingerprints)."""
    for name, value in args.items():
        if type(value) is int and value == 0 and not name.endswith("seat"):
            variant = f"{key}_no_{name}"
            if has(variant):
                return variant
    return key


def events_text(events: Iterable[Event], names: Sequence[Name], lang: str) -> list[Text]:
    return [event_text(e, names, lang) for e in events]
