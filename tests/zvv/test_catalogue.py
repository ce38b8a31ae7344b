"""Every message Zombies vs Vampires can show exists in English and Spanish, within Discord's
limits, and fills without a missing argument."""

from __future__ import annotations

import re
from pathlib import Path

from i18n import catalogue, t
from rules.zvv import GAME
from rules.zvv.rolls import FACES
from rules.zvv.state import KINDS

NAME = re.compile(r"^[a-z0-9_-]{1,32}$")
ENGINE = Path(__file__).resolve().parents[2] / "rules" / "zvv"
PENDING = ("roll", "move", "split", "split_more", "plusminus", "build", "pass")


def test_commands_params_options_and_buttons_have_texts() -> None:
    for lang in ("en", "es"):
        cat = catalogue(lang)
        assert cat["zvv.name"]
        for command in GAME.commands:
            assert NAME.match(command.name)
            assert 1 <= len(cat[f"zvv.command.{command.name}"]) <= 100
            assert NAME.match(cat[f"zvv.command_name.{command.name}"])
            assert len(cat[f"zvv.button.{command.name}"]) <= 80
            for param in command.params:
                assert NAME.match(param.name)
                assert 1 <= len(cat[f"zvv.param.{param.name}"]) <= 100
                assert NAME.match(cat[f"zvv.param_name.{param.name}"])
        for spec in GAME.option_specs:
            assert 1 <= len(cat[f"zvv.option.{spec.name}"]) <= 100
        for kind in PENDING:
            assert f"zvv.pending.{kind}" in cat
        for face in FACES:
            assert f"zvv.face.{face}" in cat
        for kind in set(KINDS):
            assert f"zvv.kind.{kind}" in cat


def test_rules_help_is_short_and_labels_house_rules() -> None:
    en, es = catalogue("en")["zvv.rules"], catalogue("es")["zvv.rules"]
    assert len(en) <= 1800 and len(es) <= 1800
    assert "House rule" in en and "Regla de la casa" in es


def test_every_key_in_the_engine_has_a_text_with_its_arguments() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(ENGINE.glob("*.py")))
    keys = set(re.findall(r'"(zvv\.(?:error|event)\.\w+)"', source))
    assert len(keys) > 30
    for lang in ("en", "es"):
        cat = catalogue(lang)
        assert keys <= set(cat), keys - set(cat)
        for key in keys:
            fields = set(re.findall(r"{(\w+)}", cat[key]))
            # Every placeholder is one the engine can pass (a name, or a *_key made text).
            assert fields <= {
                "seat", "seats", "owner_seat", "face", "square", "last", "pawn", "steps",
                "wall", "length", "side", "choices", "home", "rounds", "from", "to", "direction",
            }, (key, fields)  # fmt: skip
    assert t("zvv.error.out_of_reach", "es", pawn="C3", square="H8", steps=4) == (
        "El peón de C3 no llega a H8 en 4 pasos."
    )
