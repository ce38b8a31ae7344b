"""Every piece described (bot/service/pieces.py): each trap, weapon, chief, Market item, Farkle
item and companion, FUSE card kind and ZvV die face says what it does in one line, in both
languages, where it is chosen (autocomplete, select options) and in ``/game rules topic:``."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import pytest

from bot.console import Console
from bot.discord.layout import _select
from bot.service import Service, pieces
from bot.service.compose import offered_selects
from bot.service.match import Match
from bot.service.pieces import LIMIT, Offered
from bot.service.replies import Select
from i18n import LANGUAGES, catalogue
from rules.badbones.state import CHIEF_KINDS
from rules.badbones.traps import TRAPS, WEAPONS, market_stock
from rules.core import Command, Param, Piece, game_names, get_game
from rules.core import registry as games
from rules.farkle.cards import COMPANIONS, ITEM_COPIES
from rules.fuse.cards import Deck, card_kinds, house_deck, parse_card
from rules.zvv.rolls import FACES
from tests.conftest import ALICE, CAROL, HERE
from tests.discord.cards import Cards
from tests.support.replies import private

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


def test_every_piece_of_every_game_is_described_in_both_languages_within_100() -> None:
    for game in game_names():
        for topic, items in pieces.topics(game).items():
            assert items, f"{game} {topic}: a topic lists pieces"
            for lang in LANGUAGES:
                known = catalogue(lang)
                assert f"{game}.topic.{topic}" in known and f"{game}.topic_head.{topic}" in known
                for item in items:
                    for key in (item.name, item.text):
                        assert key in known, f"{key} missing in {lang}"
                    text = known[item.text]
                    assert 0 < len(text) <= LIMIT, f"{item.text} ({lang}): {len(text)} chars"


def test_the_pieces_are_the_engines_own_lists() -> None:
    """Derived from each engine's data: a new trap, weapon, chief, item, companion, card kind
    or face has no description until the catalogue gives it one (the test above)."""

    def values(game: str, topic: str) -> set[str]:
        return {p.value for p in pieces.topics(game)[topic]}

    assert set(pieces.topics("badbones")) == {"traps", "weapons", "chiefs", "market"}
    assert values("badbones", "traps") == set(TRAPS)
    assert values("badbones", "weapons") == set(WEAPONS)
    assert values("badbones", "chiefs") == set(CHIEF_KINDS)
    for players in range(1, 7):  # whatever the table sells, at any size
        assert set(market_stock(players)) <= values("badbones", "market")
    assert all(p.cost for p in pieces.topics("badbones")["market"]), "the Market shows prices"
    assert values("farkle", "items") == set(ITEM_COPIES)
    assert values("farkle", "companions") == set(COMPANIONS)
    assert values("fuse", "cards") == set(card_kinds(house_deck()))
    assert values("zvv", "faces") == set(FACES)
    for game in game_names():
        assert pieces.topics(game), f"{game} describes its pieces"


def test_a_card_kind_new_to_the_deck_is_asked_a_description() -> None:
    plain = Deck({"x": parse_card("x", 1, 1, "[R] [4]")}, ())
    assert card_kinds(plain) == ("colour", "number", "level1")
    richer = Deck(
        {"x": parse_card("x", 4, 4, "stack: [#] > [#] > [#]"), "y": parse_card("y", 2, 2, "[B4]")},
        ("F-R", "F-6"),
    )
    kinds = card_kinds(richer)
    assert {"number_compared", "colour_number", "gt", "stack", "level2", "level4"} <= set(kinds)
    assert {"fuse_colour", "fuse_number"} <= set(kinds)


def test_an_offered_piece_says_what_it_does_and_submits_its_name() -> None:
    wall = pieces.offered("badbones", "place", "trap", "wall", "wall", "en")
    assert wall == "wall", "the value submitted is unchanged"
    assert wall.label.startswith("wall — A diagonal mirror")
    muro = pieces.offered("badbones", "place", "trap", "wall", "muro", "es")
    assert muro == "muro" and muro.label.startswith("muro — Un espejo en diagonal")
    # The Market: the piece's name in the reader's language, with its price.
    bought = pieces.offered("badbones", "buy", "item", "crossbow", "crossbow", "es")
    assert bought == "crossbow" and bought.label.startswith("ballesta, 4 monedas — Elimina")
    chief = pieces.offered("badbones", "weapon", "to", "necromancer", "necromancer", "en")
    assert chief.label.startswith("chief necromancer — Drawn: draw 3 more")
    square = pieces.offered("badbones", "place", "square", "B2", "B2", "en")
    assert square.label == "B2", "a value that names no piece is offered as it is"
    for game in game_names():  # every label fits a Discord choice name
        for command in get_game(game).commands:
            for param in command.params:
                for item in pieces.topics(game).get(param.pieces, ()):
                    for lang in LANGUAGES:
                        said = pieces.offered(game, command.name, param.name, item.value, "x", lang)
                        assert len(said.label) <= LIMIT


async def test_autocomplete_offers_a_farkle_item_with_what_it_does(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dragon Farkle, seed 3: Carol (Spanish) may drink her Potion of Courage after her roll."""
    from bot.service import lobby

    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 3)
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    assert (await service.join(CAROL, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(CAROL, HERE, "farkle", "recruit", {})).ok
    [potion] = await service.suggest(CAROL, HERE, "farkle", "item", "item", {}, "")
    assert potion == "Poción de valor", "the value a player submits is its name, as before"
    assert isinstance(potion, Offered)
    expected = "Poción de valor — " + catalogue("es")["farkle.item_text.potion"]
    assert potion.label == pieces.within(expected) and len(potion.label) <= LIMIT


class PieceCards(Cards):
    """The test game's dice, declared pieces (with Farkle's item texts) for the select."""

    name = "piececards"
    commands = (
        Command("pick", (Param("card", autocomplete=True),)),
        Command("keep", (Param("dice", autocomplete=True, pieces="dice"),), select="dice"),
    )

    def pieces(self) -> dict[str, tuple[Piece, ...]]:
        return {
            "dice": tuple(
                Piece(d, f"farkle.item.{k}", f"farkle.item_text.{k}")
                for d, k in (("a", "loaded"), ("b", "potion"))
            )
        }


def test_a_select_of_pieces_describes_each_option_and_discord_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = PieceCards()
    monkeypatch.setitem(games._games, engine.name, games.Registration(engine))
    row: Any = SimpleNamespace(id=7, phase="p1", kind=engine.name)
    match = Match(row, engine, engine.setup(1, {}, 1))
    [select] = offered_selects(match, [0], "es")
    assert [v for v, _ in select.options] == ["a", "b", "c"]
    loaded, potion = (catalogue("es")[f"farkle.item_text.{k}"] for k in ("loaded", "potion"))
    assert select.descriptions == (loaded, potion, "")
    menu = _select(select)
    assert [o.description for o in menu.options] == [loaded, potion, None]
    # A select of no pieces (the plain test game's dice) carries no descriptions.
    plain = Cards()
    monkeypatch.setitem(games._games, plain.name, games.Registration(plain))
    row = SimpleNamespace(id=8, phase="p1", kind=plain.name)
    [dice] = offered_selects(Match(row, plain, plain.setup(1, {}, 1)), [0], "en")
    assert dice.descriptions == ()
    assert all(o.description is None for o in _select(dice).options)


def test_a_long_description_is_cut_for_discord() -> None:
    long = "x" * 150
    select = Select("p", "pt:1:p:keep:dice", (("a", "a"),), 1, 1, (long,))
    assert len(_select(select).options[0].description or "") == 100
    assert len(pieces.within(long)) == LIMIT and pieces.within(long).endswith("…")


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_rules_with_a_topic_list_its_pieces_in_the_readers_language(
    service: Service, lang: str
) -> None:
    actor = ALICE if lang == "en" else CAROL
    known = catalogue(lang)
    for game in game_names():
        for topic, items in pieces.topics(game).items():
            for typed in (topic, known[f"{game}.topic.{topic}"]):  # either way of naming it
                reply = await service.rules(actor, HERE, game, typed)
                said = private(reply)
                head = known[f"{game}.topic_head.{topic}"].replace("**", "")
                assert reply.ok and said.startswith(head)
                for item in items:
                    assert known[item.text] in said, (game, topic, item.value, lang)
                    assert known[item.name] in said
    # Without a topic: the rules end with the topics there are.
    whole = private(await service.rules(actor, HERE, "badbones"))
    assert f"`{known['badbones.topic.weapons']}`" in whole.splitlines()[-1], "the last line"
    refused = await service.rules(actor, HERE, "badbones", "spells")
    assert not refused.ok and known["badbones.topic.traps"] in private(refused)


async def test_rules_topic_in_the_console_in_both_languages(
    console: tuple[Console, io.StringIO],
) -> None:
    con, out = console
    await con.line("@alice /game rules game:badbones topic:chiefs")
    assert catalogue("en")["badbones.chief_text.necromancer"] in out.getvalue()
    mark = len(out.getvalue())
    await con.line("@beto:es /partida reglas juego:farkle tema:compañeros")
    assert catalogue("es")["farkle.companion_text.skree"] in out.getvalue()[mark:]
    mark = len(out.getvalue())
    await con.line("@alice /game rules zvv faces")
    assert catalogue("en")["zvv.face_text.plusminus"] in out.getvalue()[mark:]
