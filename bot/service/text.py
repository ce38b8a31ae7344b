"""What a message says, as structure: text with mentions, names, times and emphasis as data.

The service never writes Discord markup. A :class:`Text` is a sequence of parts: plain strings
(catalogue text, squares, numbers), a player's :class:`Name` as typed, a :class:`Mention` of a
user, a point in time (:class:`When`) and :class:`Strong` emphasis. Each adapter renders the
parts its own way: Discord as markdown with ``<@id>`` and ``<t:…:R>`` (``bot.discord.markup``),
the console as plain words and "(+2h05m)".

``phrase(key, lang, **args)`` fills a catalogue template whose arguments may be parts: they
stand in the translated text as placeholders, so a name is never re-parsed out of a string.
Emphasis is written ``**like this**`` in the catalogue (the one convention the catalogue has),
and becomes :class:`Strong` here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Union

from i18n import t


@dataclass(frozen=True)
class Name:
    """A player's display name as typed (control characters removed, length bounded)."""

    text: str


@dataclass(frozen=True)
class Mention:
    """A user named so that they are notified (on Discord only if the message's ``mentions``
    list has them: see ``Message``)."""

    user_id: int
    name: str


@dataclass(frozen=True)
class When:
    """A point in time; ``style`` as Discord's timestamps: ``R`` relative ("in 2 hours"),
    ``d`` a date, ``t`` a time."""

    at: int
    style: str = "R"


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Channel:
    """A channel or thread named so that a reader can jump to it (Discord: ``<#id>``)."""

    channel_id: int
    name: str


Part = Union[str, Name, Mention, When, Strong, Channel]  # noqa: UP007 (a runtime alias)
_RICH = (Name, Mention, When, Strong, Channel)


@dataclass(frozen=True)
class Text:
    """Parts in reading order. ``str(text)`` is a plain rendering (logs, tests)."""

    parts: tuple[Part, ...] = ()

    @classmethod
    def of(cls, *items: Part | Text) -> Text:
        parts: list[Part] = []
        for item in items:
            parts.extend(item.parts if isinstance(item, Text) else (item,))
        return cls(tuple(p for p in parts if p != ""))

    def __add__(self, other: Part | Text) -> Text:
        return Text.of(self, other)

    def __radd__(self, other: Part) -> Text:
        return Text.of(other, self)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def __str__(self) -> str:
        return self.plain()

    def plain(self, when: Callable[[When], str] | None = None) -> str:
        """Names as typed, mentions as @name, and times as ``when`` writes them (default: a
        UTC date and time)."""
        return "".join(plain_part(p, when or _utc) for p in self.parts)

    def __contains__(self, needle: str) -> bool:
        return needle in str(self)

    def __len__(self) -> int:
        return len(str(self))

    def mentions(self) -> Iterator[Mention]:
        return (p for p in self.parts if isinstance(p, Mention))


def join(items: Iterable[Part | Text], separator: str = ", ") -> Text:
    """``separator.join`` for parts and texts."""
    out: list[Part | Text] = []
    for index, item in enumerate(items):
        if index:
            out.append(separator)
        out.append(item)
    return Text.of(*out)


def lines(items: Iterable[Part | Text]) -> Text:
    return join(items, "\n")


def plain_part(part: Part, when: Callable[[When], str]) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Name | Strong):
        return part.text
    if isinstance(part, Mention):
        return "@" + part.name
    if isinstance(part, Channel):
        return "#" + part.name
    return when(part)


def _utc(moment: When) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment.at))


_HOLE = "\x1a"  # never in a name or a catalogue text: control characters are stripped from both
_PIECES = re.compile(rf"({_HOLE}\d+{_HOLE}|\*\*)")


def phrase(key: str, lang: str, /, **args: Any) -> Text:
    """The catalogue text of ``key`` in ``lang``, with parts (and texts) among its arguments."""
    holes: list[Part | Text] = []

    def hole(value: Any) -> Any:
        if isinstance(value, Text):
            holes.append(value)
        elif isinstance(value, _RICH):
            holes.append(value)
        elif isinstance(value, str):
            return value.replace(_HOLE, "")
        else:
            return value
        return f"{_HOLE}{len(holes) - 1}{_HOLE}"

    filled = t(key, lang, **{name: hole(value) for name, value in args.items()})
    parts: list[Part | Text] = []
    strong = False
    for piece in _PIECES.split(filled):
        if piece == "**":
            strong = not strong
        elif piece.startswith(_HOLE) and piece.endswith(_HOLE) and len(piece) > 2:
            parts.append(holes[int(piece[1:-1])])
        elif piece:
            parts.append(Strong(piece) if strong else piece)
    return Text.of(*parts)
