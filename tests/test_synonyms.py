"""Input synonyms come from the catalogue only (``[<game>.synonyms.<family>]``, i18n.synonyms,
docs/i18n.md "Input synonyms"): every word a player could type before the aliases left the
engines still reads as the same action, whichever language's catalogue holds it (the words of
every language are merged: «muro» works at an English table, "ice wand" at a Spanish one), and
a word deleted from the catalogue is no longer read, so deleting one fails this test."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import i18n
from bot.console import Console
from i18n import LANGUAGES, synonym_table, synonyms, t
from rules.badbones import GAME as BAD_BONES
from rules.badbones.actions import Buy, Move, Place, Prefer, Retrieve, Weapon
from rules.badbones.board import HERO_DIR_NAMES, SYMBOLS
from rules.badbones.choices import CHOICES
from rules.badbones.state import CHIEF_KINDS
from rules.badbones.traps import COLOURS, ORIENTATIONS, TRAPS
from rules.badbones.weapons import WEAPONS
from rules.core import Action, CommandArgs, RulesError
from rules.zvv import GAME as ZVV
from rules.zvv.notation import position

# family -> language -> word -> the engine's value: every alias the engines held (the Bad Bones
# ``_…_ALIASES`` and ``_…_WORDS`` tables and ZvV's ``SIDE_WORDS``), by the language whose
# catalogue holds it.
WORDS: dict[str, dict[str, dict[str, str]]] = {
    "badbones.direction": {
        "en": {
            **{"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"},
            **{"NORTHEAST": "NE", "NORTHWEST": "NW", "SOUTHEAST": "SE", "SOUTHWEST": "SW"},
        },
        "es": {
            **{"O": "W", "NO": "NW", "SO": "SW"},
            **{"NORTE": "N", "ESTE": "E", "SUR": "S", "OESTE": "W"},
            **{"NORESTE": "NE", "NORDESTE": "NE", "NOROESTE": "NW"},
            **{"SURESTE": "SE", "SUDESTE": "SE", "SUROESTE": "SW", "SUDOESTE": "SW"},
        },
    },
    "badbones.stay": {
        "en": dict.fromkeys(("STAY", "NONE", "HERE", "0", ".", "-"), "stay"),
        "es": dict.fromkeys(("QUEDARSE", "NADA"), "stay"),
    },
    "badbones.square": {
        "en": {
            "TOWER": "tower",
            **dict.fromkeys(("FOREST", "TOP", "LEFT", "RIGHT"), "forest"),
            **dict.fromkeys(("VILLAGE", "HOUSE"), "village"),
        },
        "es": {"TORRE": "tower", "BOSQUE": "forest", **dict.fromkeys(("ALDEA", "CASA"), "village")},
    },
    "badbones.trap": {
        "es": {
            "muro": "wall",
            "pared": "wall",
            "catapulta": "catapult",
            "dragón": "dragon",
            "tesoro": "treasure",
            "barricada": "barricade",
            "bomba": "bomb",
            "carroza": "hearse",
            "carroza fúnebre": "hearse",
            "laberinto": "labyrinth",
            "resorte": "spring",
        }
    },
    "badbones.weapon": {
        "en": {
            "teleportation wand": "teleport",
            "teleport wand": "teleport",
            "two-handed sword": "sword",
        },
        "es": {
            "ballesta": "crossbow",
            "estoque": "rapier",
            "lucero": "morningstar",
            "lucero del alba": "morningstar",
            "hacha": "battleaxe",
            "hacha de batalla": "battleaxe",
            "varita de teletransporte": "teleport",
            "varita de hielo": "icewand",
            "espadón": "sword",
            "espadon": "sword",
            "espadón a dos manos": "sword",
            "espadon a dos manos": "sword",
            "varita de la muerte": "deathwand",
        },
    },
    "badbones.choice": {
        "en": {"top exit": "top"},
        "es": {
            "salida": "top",
            "arriba": "top",
            "salida por arriba": "top",
            "catapulta": "catapult",
            "dragón": "dragon",
            "carroza": "hearse",
            "carroza fúnebre": "hearse",
        },
    },
    "badbones.mode": {
        "en": {"ask": "ask", "auto": "auto"},
        "es": {"preguntar": "ask", "pregunta": "ask", "automático": "auto", "automatico": "auto"},
    },
    "badbones.chief": {
        "es": {
            "artificiero": "artificer",
            "nigromante": "necromancer",
            "amable": "nice",
            "espectral": "spectral",
            "saboteador": "saboteur",
            "emperador": "emperor",
        }
    },
    "badbones.colour": {
        "en": {"WHITE": "white", "BLACK": "black"},
        "es": {"BLANCO": "white", "NEGRO": "black"},
    },
    "badbones.symbol": {
        "es": {
            "rosa": "pink",
            "amarillo": "yellow",
            "rojo": "red",
            "azul": "blue",
            "verde": "green",
        }
    },
    "badbones.orientation": {
        "en": {
            "\\": "\\",
            "/": "/",
            "BACKSLASH": "\\",
            "SLASH": "/",
            "\\\\": "\\",
            "NW-SE": "\\",
            "NE-SW": "/",
        }
    },
    "zvv.side": {
        "en": {
            **dict.fromkeys(("n", "north"), "N"),
            **dict.fromkeys(("e", "east"), "E"),
            **dict.fromkeys(("s", "south"), "S"),
            **dict.fromkeys(("w", "west"), "W"),
        },
        "es": {"norte": "N", "este": "E", "sur": "S", "o": "W", "oeste": "W"},
    },
}

# Weapons' names run together as some players type them (read by squashing the catalogue's),
# and English names that are their value run together (so no synonym: deleting none breaks them).
RUN_TOGETHER = {
    "morning star": "morningstar",
    "ice wand": "icewand",
    "death wand": "deathwand",
    "battle axe": "battleaxe",
    "Ice-Wand": "icewand",
    "ice_wand": "icewand",
    "teleportationwand": "teleport",
    "teleportwand": "teleport",
    "twohandedsword": "sword",
    "varitadehielo": "icewand",
    "varitadelamuerte": "deathwand",
    "varitadeteletransporte": "teleport",
    "espadonadosmanos": "sword",
    "espadónadosmanos": "sword",
    "hachadebatalla": "battleaxe",
    "lucerodelalba": "morningstar",
}

# What each family's values must be: the engine's own.
VALUES: dict[str, tuple[str, ...]] = {
    "badbones.direction": HERO_DIR_NAMES,
    "badbones.stay": ("stay",),
    "badbones.square": ("tower", "forest", "village"),
    "badbones.trap": tuple(TRAPS),
    "badbones.weapon": (*WEAPONS, *TRAPS),
    "badbones.choice": CHOICES,
    "badbones.mode": ("ask", "auto"),
    "badbones.chief": CHIEF_KINDS,
    "badbones.colour": COLOURS,
    "badbones.symbol": SYMBOLS,
    "badbones.orientation": ORIENTATIONS,
    "zvv.side": tuple("NESW"),
}


def _typed(family: str, word: str) -> tuple[str, CommandArgs]:
    """A command that types ``word`` where ``family`` is read."""
    commands: dict[str, tuple[str, CommandArgs]] = {
        "badbones.direction": ("move", {"direction": word}),
        "badbones.stay": ("move", {"direction": word}),
        "badbones.square": ("retrieve", {"square": word}),
        "badbones.trap": ("buy", {"item": word}),
        "badbones.weapon": ("buy", {"item": word}),
        "badbones.choice": ("prefer", {"choice": word, "value": "auto"}),
        "badbones.mode": ("prefer", {"choice": "top", "value": word}),
        "badbones.chief": ("weapon", {"target": "B2", "to": word}),
        "badbones.colour": ("place", {"trap": "labyrinth", "square": "B2", "orientation": word}),
        "badbones.symbol": ("weapon", {"target": word, "to": "B2"}),
        "badbones.orientation": ("place", {"trap": "wall", "square": "B2", "orientation": word}),
        "zvv.side": ("remove", {"wall": f"H3 {word}"}),
    }
    return commands[family]


def _meant(family: str, value: str) -> Action | str:
    """The action (or the refusal's key) a word of ``family`` standing for ``value`` gives."""
    squares: dict[str, Action | str] = {
        "tower": Retrieve("C3"),
        "forest": "badbones.error.square_in_forest",
        "village": "badbones.error.square_in_village",
    }
    meanings: dict[str, Callable[[], Action | str]] = {
        "badbones.direction": lambda: Move(value),
        "badbones.stay": lambda: "badbones.error.hero_must_move",
        "badbones.square": lambda: squares[value],
        "badbones.trap": lambda: Buy(value),
        "badbones.weapon": lambda: Buy(value),
        "badbones.choice": lambda: Prefer(value, "auto"),
        "badbones.mode": lambda: Prefer("top", value),
        "badbones.chief": lambda: Weapon("B2", value),
        "badbones.colour": lambda: Place("labyrinth", "B2", value),
        "badbones.symbol": lambda: Weapon(value, "B2"),
        "badbones.orientation": lambda: Place("wall", "B2", value),
        "zvv.side": lambda: _ZVV_REMOVE[value],
    }
    return meanings[family]()


_WALLS = {side: position(walls=[f"H3 {side}"], face="plusminus") for side in "NESW"}
# The wall on each side of H3 as the engine names it (H3 E is I3 W), read from the letters
# with the whole catalogue (as the test module is imported).
_ZVV_REMOVE = {
    side: ZVV.parse("remove", {"wall": f"H3 {side}"}, _WALLS[side], 0) for side in "NESW"
}


def read(family: str, word: str, value: str) -> Action | str:
    """What the engine reads from ``word`` typed where ``family`` is read (the action, or the
    key of its refusal)."""
    command, args = _typed(family, word)
    try:
        if family == "zvv.side":  # removing the wall on that side of H3, which is there
            return ZVV.parse(command, args, _WALLS[value], 0)
        return BAD_BONES.read(command, args, BAD_BONES.setup(2, {}, 1), 0)
    except RulesError as err:
        return err.key


def cases() -> Iterator[tuple[str, str, str, str]]:
    for family, by_lang in WORDS.items():
        for lang, words in by_lang.items():
            for word, value in words.items():
                yield family, lang, word, value


@pytest.mark.parametrize("family", list(WORDS))
def test_every_word_reads_as_before_in_any_case(family: str) -> None:
    for _, lang, word, value in (c for c in cases() if c[0] == family):
        for typed in dict.fromkeys((word, word.lower(), word.upper(), f" {word.title()} ")):
            assert read(family, typed, value) == _meant(family, value), (lang, typed)


def test_weapons_run_together_read_as_their_names() -> None:
    for word, value in RUN_TOGETHER.items():
        assert read("badbones.weapon", word, value) == Buy(value), word


def test_a_word_no_catalogue_holds_is_refused() -> None:
    assert read("badbones.direction", "oest", "W") == "badbones.error.bad_direction"
    assert read("badbones.trap", "murito", "wall") == "badbones.error.unknown_item"
    assert read("badbones.colour", "gris", "white") == "badbones.error.bad_colour"
    assert read("badbones.orientation", "|", "/") == "badbones.error.bad_orientation"
    assert read("zvv.side", "oest", "W") != _ZVV_REMOVE["W"]


def test_the_catalogue_holds_exactly_these_words_in_these_languages() -> None:
    for family, by_lang in WORDS.items():
        game, kind = family.split(".")
        for lang in LANGUAGES:
            written = {w.lower(): v for w, v in synonym_table(lang, game, kind).items()}
            listed = {w.lower(): v for w, v in by_lang.get(lang, {}).items()}
            assert written == listed, (family, lang)


def test_each_word_means_one_engine_value_in_every_language() -> None:
    for family, values in VALUES.items():
        game, kind = family.split(".")
        seen: dict[str, str] = {}
        for lang in LANGUAGES:
            for word, value in synonym_table(lang, game, kind).items():
                assert value in values, (family, lang, word, value)
                assert seen.setdefault(word.lower(), value) == value, (family, word)
    assert set(VALUES) == set(WORDS)


def test_synonyms_are_no_messages() -> None:
    for lang in LANGUAGES:
        assert not [key for key in i18n.catalogue(lang) if ".synonyms." in key]
    assert synonyms("badbones", "trap")["muro"] == "wall", "keys are read in lower case"
    assert synonyms("pig", "anything") == {}, "a game without synonyms has none"


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``without(family, word)``: the catalogues with that word deleted, in every language."""

    def delete(family: str, word: str) -> None:
        game, kind = family.split(".")
        kept = i18n.synonym_table

        def table(lang: str, game_: str, family_: str) -> dict[str, str]:
            out = kept(lang, game_, family_)
            if (game_, family_) == (game, kind):
                out = {w: v for w, v in out.items() if w.lower() != word.lower()}
            return out

        monkeypatch.setattr(i18n, "synonym_table", table)
        synonyms.cache_clear()

    yield delete
    monkeypatch.undo()
    synonyms.cache_clear()


def test_deleting_any_word_from_the_catalogue_changes_what_it_reads(without: Any) -> None:
    for family, _, word, value in cases():
        without(family, word)
        assert read(family, word, value) != _meant(family, value), (family, word)


async def test_a_table_reads_the_words_of_either_language(
    console: tuple[Console, io.StringIO],
) -> None:
    """At an English table a Spanish word works («quedarse», «pared»), and a player reading
    Spanish may type an English one ("stay"): what they are told is in their own language."""
    con, out = console
    for line in (
        "@ana /game new badbones",
        "@ana /game start",
        "@ana /badbones move direction:quedarse",
        "@ana /badbones move direction:S",
        "@ana /badbones place trap:pared square:B2 orientation:slash",
        "@ana:es /badbones move direction:stay",
    ):
        await con.line(line)
    said = out.getvalue()
    assert said.count(t("badbones.error.hero_must_move", "en")) == 1
    assert "ana places a wall on B2, turned /." in said
    assert said.count(t("badbones.error.hero_must_move", "es")) == 1
