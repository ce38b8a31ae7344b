"""Parameter values in the reader's language (bot/service/shown.py): what the bot shows a
Spanish player can be typed back, in either language, and means the same action."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import Service
from bot.service.shown import _names, canonical, canonical_args, fold, show, show_args
from i18n import LANGUAGES, t
from rules.core import get_game
from rules.core.rng import Rng
from rules.farkle.cards import ITEMS
from tests.conftest import ALICE, CAROL, HERE
from tests.support.registered import generic_games, playing

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


def test_spanish_names_of_directions_dice_and_items() -> None:
    assert show("badbones", "direction", "W", "es") == "O"
    assert show("badbones", "direction", "NW", "es") == "NO"
    assert show("zvv", "wall", "G9 W", "es") == "G9 O"
    assert show("fuse", "die", "Y4", "es") == "Am4" and show("fuse", "die", "B2", "es") == "Az2"
    assert show("farkle", "item", "loaded", "es") == "Dado cargado"
    assert show("farkle", "item", "loaded", "en") == "Loaded Die"
    assert show("badbones", "square", "B2", "es") == "B2", "a value without a name stays"
    assert show("badbones", "answer", "N, E, W, S", "es") == "N, E, O, S", "a list, item by item"
    assert show("badbones", "value", "ask, auto, 1, W", "es") == "preguntar, automático, 1, O"


def test_what_either_language_types_becomes_the_canonical_value() -> None:
    assert canonical("badbones", "direction", "o") == "W"
    assert canonical("badbones", "answer", "NO") == "NW"
    assert canonical("badbones", "answer", "2") == "2", "a seat number is not a direction"
    assert canonical("zvv", "wall", "g9 o") == "g9 W"
    assert canonical("zvv", "wall", "O5 N") == "O5 N", "column O of a big board stays a square"
    assert canonical("fuse", "die", "am4") == "Y4" and canonical("fuse", "die", "b4") == "B4"
    assert canonical("farkle", "item", "poción de VALOR") == "potion"
    assert canonical("farkle", "item", "pocion_de_valor") == "potion"
    assert canonical("farkle", "item", "Loaded Die") == "loaded"
    assert canonical("farkle", "item", "loaded") == "loaded"
    assert canonical("farkle", "item", "no such thing") == "no such thing"


def test_every_item_is_typed_by_its_spanish_name_or_one_word_of_it_with_or_without_accents() -> (
    None
):
    for item in ITEMS:
        spanish = t(f"farkle.item.{item}", "es")
        plain = fold(spanish)  # "Tónico curativo" -> "tonico curativo"
        first = spanish.split()[0]  # "Tónico", "Capa", "Mímico"
        for typed in (spanish, plain, spanish.upper(), first, first.lower(), fold(first)):
            assert canonical("farkle", "item", typed) == item, (item, typed)
        assert canonical("farkle", "item", t(f"farkle.item.{item}", "en")) == item
    assert canonical("farkle", "item", "de") == "de", "a word many names share names none"
    assert canonical("badbones", "trap", "carroza") == "hearse"


@pytest.mark.parametrize("game", generic_games())
def test_no_two_values_share_a_name_in_any_language(game: str) -> None:
    """Typed names are read in every language at once, so they must not collide."""
    with playing(game):
        engine = get_game(game)
        for param in {p.name for c in engine.commands for p in c.params}:
            owner: dict[str, str] = {}
            for value, names in _names(game, param).items():
                for name in {value, *names.values()}:
                    assert owner.setdefault(fold(name), value) == value, (param, name)


@pytest.mark.parametrize("game", generic_games())
def test_every_legal_command_shown_in_each_language_parses_back_to_itself(game: str) -> None:
    """Random play: each legal action's command, as a reader of each language sees it, read
    back and parsed by the engine, is the same action (so buttons, autocomplete and typing agree
    and saved games never see a translated value)."""
    with playing(game):
        engine = get_game(game)
        rng = Rng(7)
        checked = 0
        for seed in range(3):
            state = engine.new_game(engine.min_seats if game == "badbones" else 2, {}, seed)
            now = 1_000_000.0
            for _ in range(150):
                if engine.is_over(state):
                    break
                seat = rng.choice(sorted(engine.pending(state)))
                for action in engine.legal_actions(state, seat):
                    command = engine.to_command(action)
                    if command is None:
                        continue
                    name, args = command
                    for lang in LANGUAGES:
                        typed: dict[str, Any] = canonical_args(game, show_args(game, args, lang))
                        assert engine.parse(name, typed, state, seat) == action, (lang, name, args)
                        checked += 1
                engine.play(state, seat, rng.choice(engine.legal_actions(state, seat)), now)
                now += 1.0
        assert checked > 100


async def test_a_spanish_player_is_offered_and_may_type_an_items_spanish_name(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dragon Farkle, seed 3: Carol (Spanish, seat 2) begins; after her Recruit roll she may
    drink her Potion of Courage. She is offered it by its Spanish name and plays it by that
    name; Alice, who may not act, is offered nothing."""
    from bot.service import lobby

    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: 3)
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    assert (await service.join(CAROL, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(CAROL, HERE, "farkle", "recruit", {})).ok
    offered = await service.suggest(CAROL, HERE, "farkle", "item", "item", {}, "")
    assert offered == ["Poción de valor"]
    assert await service.suggest(CAROL, HERE, "farkle", "item", "item", {}, "poci") == offered
    english = await service.suggest(ALICE, HERE, "farkle", "item", "item", {}, "")
    assert english == [], "Alice is not the one rolling"
    drunk = await service.act(CAROL, HERE, "farkle", "item", {"item": "Poción de valor"})
    assert drunk.ok, drunk.private
