"""What each piece of a game does, in one line, where players choose it and read about it.

A game lists its pieces by topic (``Game.pieces``: Bad Bones' traps, weapons, chiefs and Market,
Farkle's items and companions, FUSE's card kinds, Zombies vs Vampires' die faces); the catalogue
names each one and says what it does in one line of at most :data:`LIMIT` characters (a Discord
choice name and a select option's description are no longer). The bot shows those lines:

- in autocomplete, as "Name — what it does" (:func:`offered`), for a parameter that declares the
  topic its values come from (``Param.pieces``), the value submitted staying what it was;
- in a select menu option's description (:func:`detail`);
- in ``/game rules game:<g> topic:<topic>`` (:func:`topic_text`); ``/game rules game:<g>``
  ends with the game's topics (:func:`topics_line`).
"""

from __future__ import annotations

from bot.service.errors import Refusal
from bot.service.shown import fold
from bot.service.text import Text, join, lines, phrase
from i18n import LANGUAGES, t
from rules.core import Piece, get_game

LIMIT = 100  # Discord: a choice's name, a select option's description
DASH = " — "


class Offered(str):
    """An autocomplete value (what is submitted, as today) that carries its label: how it is
    offered, "Name — what it does" within :data:`LIMIT` characters."""

    label: str

    def __new__(cls, value: str, label: str | None = None) -> Offered:
        made = super().__new__(cls, value)
        made.label = label if label is not None else value
        return made


def topics(game: str) -> dict[str, tuple[Piece, ...]]:
    """The game's topics, in order, each with its pieces."""
    return get_game(game).pieces()


def topic_name(game: str, topic: str, lang: str) -> str:
    return t(f"{game}.topic.{topic}", lang)


def find_topic(game: str, typed: str) -> str | None:
    """The topic a user meant, typed as its value or its name in any language."""
    wanted = fold(str(typed or ""))
    for topic in topics(game):
        if wanted in {fold(topic), *(fold(topic_name(game, topic, lang)) for lang in LANGUAGES)}:
            return topic
    return None


def param_topic(game: str, command: str, param: str) -> str:
    """The topic whose pieces ``command``'s ``param`` names ("" when it names none)."""
    for spec in get_game(game).commands:
        if spec.name == command:
            for item in spec.params:
                if item.name == param:
                    return item.pieces
    return ""


def piece(game: str, topic: str, value: str) -> Piece | None:
    return next((p for p in topics(game).get(topic, ()) if p.value == value), None)


def name(game: str, item: Piece, lang: str) -> str:
    """A piece's name, with its price where it has one ("barricade, 3 coins")."""
    said = t(item.name, lang)
    if item.cost is None:
        return said
    return t(f"{game}.topic_cost", lang, name=said, cost=item.cost)


def within(text: str, limit: int = LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def offered(game: str, command: str, param: str, value: str, shown: str, lang: str) -> Offered:
    """An autocomplete value: ``shown`` (what it submits) labelled with what its piece does."""
    topic = param_topic(game, command, param)
    item = piece(game, topic, value) if topic else None
    if item is None:
        return Offered(shown)
    return Offered(shown, within(name(game, item, lang) + DASH + t(item.text, lang)))


def detail(game: str, command: str, param: str, value: str, lang: str) -> str:
    """A select option's description: what the piece ``value`` does ("" for no piece)."""
    topic = param_topic(game, command, param)
    item = piece(game, topic, value) if topic else None
    return within(t(item.text, lang)) if item is not None else ""


def topic_text(game: str, typed: str, lang: str) -> tuple[Text, Text]:
    """``/game rules game:<g> topic:<topic>``: the topic's head, and one line per piece (long:
    the adapter may split it). An unknown topic is refused with the game's topics."""
    topic = find_topic(game, typed)
    if topic is None:
        raise Refusal("guide.pieces.unknown", topic=str(typed), topics=_names(game, lang))
    said = [
        phrase("guide.pieces.line", lang, name=name(game, item, lang), text=t(item.text, lang))
        for item in topics(game)[topic]
    ]
    return phrase(f"{game}.topic_head.{topic}", lang), lines(said)


def topics_line(game: str, lang: str) -> Text | None:
    """The line that ends a game's rules: which topics ``topic:`` takes (None: the game has
    none)."""
    if not topics(game):
        return None
    return phrase("guide.pieces.topics", lang, game=game, topics=_names(game, lang))


def _names(game: str, lang: str) -> Text:
    return join(Text.of(f"`{topic_name(game, topic, lang)}`") for topic in topics(game))
