"""Every message the game can show exists in English and Spanish, within Discord's limits."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from i18n import catalogue
from rules.core.play import random_game
from rules.farkle import GAME
from rules.farkle.cards import COMPANIONS, ITEMS
from rules.farkle.state import STAGES, FarkleState

NAME = re.compile(r"^[a-z0-9_-]{1,32}$")
SOURCE = Path(__file__).resolve().parents[2] / "rules" / "farkle" / "game.py"


def test_commands_params_and_buttons_have_texts() -> None:
    for lang in ("en", "es"):
        cat = catalogue(lang)
        for command in GAME.commands:
            assert NAME.match(command.name)
            assert 1 <= len(cat[f"farkle.command.{command.name}"]) <= 100
            assert re.match(r"^[\w-]{1,32}$", cat[f"farkle.command_name.{command.name}"])
            assert (
                cat[f"farkle.command_name.{command.name}"]
                == cat[f"farkle.command_name.{command.name}"].lower()
            )
            assert len(cat[f"farkle.button.{command.name}"]) <= 80
            for param in command.params:
                assert NAME.match(param.name)
                assert len(cat[f"farkle.param.{param.name}"]) <= 100
                assert re.match(r"^[\w-]{1,32}$", cat[f"farkle.param_name.{param.name}"])
        for spec in GAME.option_specs:
            assert len(cat[f"farkle.option.{spec.name}"]) <= 100
        for stage in STAGES:
            assert f"farkle.pending.{stage}" in cat and f"farkle.now.{stage}" in cat
        for key in COMPANIONS:
            assert f"farkle.companion.{key}" in cat and f"farkle.companion_text.{key}" in cat
        for key in set(ITEMS):
            assert f"farkle.item.{key}" in cat and f"farkle.item_text.{key}" in cat
        for face in ("dragon", "rally", "blank"):
            assert f"farkle.face.{face}" in cat


def test_rules_help_is_short_and_labels_house_rules() -> None:
    assert len(catalogue("en")["farkle.rules"]) <= 1800
    assert len(catalogue("es")["farkle.rules"]) <= 1800
    assert "House rules" in catalogue("en")["farkle.rules"]
    assert "Reglas de la casa" in catalogue("es")["farkle.rules"]


def test_every_error_key_in_the_engine_has_a_text() -> None:
    keys = set(re.findall(r'"(farkle\.error\.\w+)"', SOURCE.read_text(encoding="utf-8")))
    assert keys
    for lang in ("en", "es"):
        assert keys <= set(catalogue(lang)), keys - set(catalogue(lang))


def test_every_event_of_random_games_has_a_text() -> None:
    seen: set[str] = set()
    for seed in range(15):
        final, _, events = random_game(GAME, 4, seed)
        seen |= {e.key for e in events}
        assert isinstance(final, FarkleState)
        result = GAME.result(final)
        assert result is not None and result.summary is not None
        seen.add(result.summary.key)
    for lang in ("en", "es"):
        assert seen <= set(catalogue(lang)), seen - set(catalogue(lang))
    keys = set(re.findall(r'"(farkle\.event\.\w+)"', SOURCE.read_text(encoding="utf-8")))
    for lang in ("en", "es"):
        assert keys <= set(catalogue(lang)), keys - set(catalogue(lang))


def test_pending_prompts_fill_every_argument() -> None:
    from i18n import t
    from rules.core import Rng

    for seed in range(5):
        rng = Rng(seed)
        state = GAME.new_game(3, {}, seed)
        while not GAME.is_over(state):
            pending = GAME.pending(state)
            for item in pending.values():
                for lang in ("en", "es"):
                    args: dict[str, Any] = {
                        k: 0 if k.endswith("_seat") else v for k, v in item.args.items()
                    }
                    # an argument named *_key is a catalogue key, worded in the reader's language
                    args |= {k[:-4]: t(v, lang) for k, v in args.items() if k.endswith("_key")}
                    text = t(f"farkle.pending.{item.kind}", lang, **args)
                    assert "{" not in text, text
            seat = rng.choice(sorted(pending))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
