"""Bad input: each gets a RulesError with a specific key and changes nothing."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18n import catalogue
from rules.badbones import GAME
from rules.badbones.actions import Choose, Move, Place, Prefer, Retrieve
from rules.badbones.state import HERO, TRAP, BadBonesState
from rules.core import RulesError
from tests.badbones.helpers import position, trap_phase
from tests.support import refusals

refused = partial(refusals.refused_command, GAME)
refused_action = partial(refusals.refused, GAME)


@pytest.fixture
def trap_stage() -> BadBonesState:
    return position("hero C3\nB2 S\nD4 wall/", "", stage=TRAP)


@pytest.mark.parametrize(
    ("square", "key"),
    [
        ("Z9", "badbones.error.bad_square"),
        ("", "badbones.error.no_square"),
        ("   ", "badbones.error.no_square"),
        ("A" * 500, "badbones.error.bad_square"),
        ("💀", "badbones.error.bad_square"),
        ("C33", "badbones.error.bad_square"),
        ("A0", "badbones.error.square_in_forest"),
        ("F2", "badbones.error.square_in_forest"),
        ("forest", "badbones.error.square_in_forest"),
        ("C6", "badbones.error.square_in_village"),
    ],
)
def test_malformed_squares(trap_stage: BadBonesState, square: str, key: str) -> None:
    err = refused(trap_stage, 0, "place", {"trap": "catapult", "square": square})
    assert err.key == key
    assert len(str(err.args_map.get("square", ""))) <= 13, "echoed input is cut short"
    assert refused(trap_stage, 0, "retrieve", {"square": square}).key == key


def test_echoed_input_is_safe_ascii(trap_stage: BadBonesState) -> None:
    err = refused(trap_stage, 0, "place", {"trap": "catapult", "square": "💀" * 3})
    assert err.args_map["square"] == "???"


def test_trap_on_the_tower(trap_stage: BadBonesState) -> None:
    assert refused(trap_stage, 0, "place", {"trap": "catapult", "square": "C3"}).key == (
        "badbones.error.trap_on_tower"
    )
    assert refused_action(trap_stage, 0, Place("dragon", "C3")) == "badbones.error.trap_on_tower"


def test_trap_on_a_trap(trap_stage: BadBonesState) -> None:
    err = refused(trap_stage, 0, "place", {"trap": "dragon", "square": "d4"})
    assert err.key == "badbones.error.trap_on_trap" and err.args_map["square"] == "D4"


def test_trap_on_skeletons_except_the_dragon(trap_stage: BadBonesState) -> None:
    err = refused(trap_stage, 0, "place", {"trap": "wall", "square": "B2", "orientation": "/"})
    assert err.key == "badbones.error.trap_on_skeletons"
    assert refused(trap_stage, 0, "place", {"trap": "treasure", "square": "B2"}).key == (
        "badbones.error.trap_on_skeletons"
    )
    assert GAME.parse("place", {"trap": "dragon", "square": "B2"}, trap_stage, 0) == Place(
        "dragon", "B2"
    )


def test_retrieving_a_trap_that_is_not_there(trap_stage: BadBonesState) -> None:
    assert (
        refused(trap_stage, 0, "retrieve", {"square": "A1"}).key == "badbones.error.no_trap_there"
    )
    assert (
        refused(trap_stage, 1, "retrieve", {"square": "D4"}).key == "badbones.error.no_trap_there"
    )


def test_trap_not_in_the_supply() -> None:
    state = position("supply wall", "", stage=TRAP)
    err = refused(state, 0, "place", {"trap": "dragon", "square": "A1"})
    assert err.key == "badbones.error.trap_not_in_supply"
    assert err.args_map["trap_key"] == "badbones.trap.dragon"


def test_unknown_trap(trap_stage: BadBonesState) -> None:
    assert refused(trap_stage, 0, "place", {"trap": "bomb!", "square": "A1"}).key == (
        "badbones.error.unknown_trap"
    )


def test_wall_needs_an_orientation(trap_stage: BadBonesState) -> None:
    assert refused(trap_stage, 0, "place", {"trap": "wall", "square": "A1"}).key == (
        "badbones.error.wall_needs_orientation"
    )
    assert refused(
        trap_stage, 0, "place", {"trap": "wall", "square": "A1", "orientation": "|"}
    ).key == ("badbones.error.bad_orientation")
    assert (
        refused_action(trap_stage, 0, Place("wall", "A1"))
        == "badbones.error.wall_needs_orientation"
    )
    assert GAME.parse(
        "place", {"trap": "muro", "square": "a1", "orientation": "backslash"}, trap_stage, 0
    ) == Place("wall", "A1", "\\")


def test_hero_off_the_board_or_staying() -> None:
    state = position("hero A1", "")
    assert refused(state, 0, "move", {"direction": "N"}).key == "badbones.error.hero_off_board"
    assert refused(state, 0, "move", {"direction": "sw"}).key == "badbones.error.hero_off_board"
    assert refused(state, 0, "move", {"direction": "stay"}).key == "badbones.error.hero_must_move"
    assert refused(state, 0, "move", {"direction": "up"}).key == "badbones.error.bad_direction"
    assert refused(state, 0, "move", {"direction": ""}).key == "badbones.error.bad_direction"
    assert refused_action(state, 0, Move("X")) == "badbones.error.bad_direction"
    assert GAME.parse("move", {"direction": " se "}, state, 0) == Move("SE")
    assert GAME.parse("move", {"direction": "O"}, position("hero B1", ""), 0) == Move("W")


def test_acting_in_the_wrong_phase(trap_stage: BadBonesState) -> None:
    err = refused(trap_stage, 0, "move", {"direction": "N"})
    assert err.key == "badbones.error.not_now"
    assert err.args_map == {"phase_key": "badbones.stage.trap", "needed_key": "badbones.stage.hero"}
    hero = position("", "")
    assert (
        refused(hero, 0, "place", {"trap": "catapult", "square": "A1"}).key
        == "badbones.error.not_now"
    )
    assert refused(hero, 0, "retrieve", {"square": "A1"}).key == "badbones.error.not_now"
    assert refused(hero, 0, "nothing", {}).key == "badbones.error.not_now"
    assert refused(hero, 0, "choose", {"answer": "N"}).key == "badbones.error.no_question"


def test_choose_outside_the_options() -> None:
    state = position("C5 dragon\nC4 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert refused(state, 0, "choose", {"answer": "S"}).key == "badbones.error.bad_answer"
    assert refused(state, 1, "choose", {"answer": "N"}).key == "badbones.error.no_question"
    assert GAME.parse("choose", {"answer": "o"}, state, 0) == Choose("W")


def test_bad_preferences() -> None:
    state = position("", "")
    assert (
        refused(state, 0, "prefer", {"choice": "weather", "value": "auto"}).key
        == "badbones.error.bad_choice"
    )
    assert (
        refused(state, 0, "prefer", {"choice": "top", "value": "7"}).key
        == "badbones.error.bad_preference"
    )
    assert (
        refused(state, 0, "prefer", {"choice": "dragon", "value": "NE"}).key
        == "badbones.error.bad_preference"
    )
    assert GAME.parse("prefer", {"choice": "top", "value": "AUTO"}, state, 0) == Prefer(
        "top", "auto"
    )


def test_unknown_command_and_game_over() -> None:
    state = position("", "")
    assert refused(state, 0, "fly", {}).key == "core.error.unknown_command"
    state = position("C2 S\nfloors 1", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert refused(state, 0, "nothing", {}).key == "core.error.game_over"


def test_malformed_action_json_is_refused() -> None:
    state = position("", "", stage=TRAP)
    for action in (
        Place("wall", "c1", "/"),
        Place("Wall", "C1", "/"),
        Place("dragon", "C1", "/"),
        Retrieve("Z9"),
        Move("n"),
    ):
        refused_action(state, 0, action)


def test_submissions_are_hidden_until_the_phase_resolves_and_can_change() -> None:
    state = position("", "", "", stage=HERO)
    state, events = GAME.apply(state, 0, Move("N"))
    assert all(e.to == 0 for e in events)
    assert GAME.view(state, None)["submitted"] == [0]
    for seat in (None, 1, 2):
        view = GAME.view(state, seat)
        assert "Move" not in repr(view) and view.get("my_submission") is None
        assert '"direction"' not in repr(view) and "'direction'" not in repr(view)
    assert GAME.view(state, 0)["my_submission"] == {"type": "move", "direction": "N"}
    state, _ = GAME.apply(state, 0, Move("S"))
    state, _ = GAME.apply(state, 1, Move("N"))
    state, events = GAME.apply(state, 2, Move("N"))
    assert state.boards[0].hero == 17, "the changed submission counts"
    assert state.stage == TRAP and GAME.view(state, None)["submitted"] == []
    state, events = GAME.apply(state, 1, Place("catapult", "A1"))
    assert all(e.to == 1 for e in events)
    assert "catapult" not in repr(GAME.view(state, None)) or all(
        "A1" != t["square"] for b in GAME.view(state, None)["boards"] for t in b["traps"]
    )


def test_every_catalogue_key_of_the_engine_exists() -> None:
    import re
    from pathlib import Path

    en, es = catalogue("en"), catalogue("es")
    source = "\n".join(p.read_text() for p in Path("rules/badbones").glob("*.py"))
    for key in set(re.findall(r"\"(badbones\.(?:error|event)\.[a-z_]+)\"", source)):
        assert key in en and key in es, key
    for stage in ("hero", "trap", "landing", "skeletons", "over"):
        assert f"badbones.stage.{stage}" in en
    for kind in ("wall", "catapult", "dragon", "treasure"):
        assert f"badbones.trap.{kind}" in en
    for key in [k for k in en if k.startswith("badbones.")]:
        assert key in es, key


# ----------------------------------------------------------------------------- fuzzing


_TEXT = st.one_of(st.text(max_size=40), st.integers(), st.none(), st.booleans())


@settings(max_examples=300, deadline=None)
@given(
    command=st.sampled_from(["move", "place", "retrieve", "nothing", "prefer", "choose", "x"]),
    a=_TEXT,
    b=_TEXT,
    c=_TEXT,
)
def test_any_typed_input_is_an_action_or_a_rules_error(
    command: str, a: Any, b: Any, c: Any
) -> None:
    for stage in (HERO, TRAP):
        state = position("B2 S\nD4 wall/", "", stage=stage)
        before = GAME.dump(state)
        names = {
            "move": ("direction",),
            "place": ("trap", "square", "orientation"),
            "retrieve": ("square",),
            "prefer": ("choice", "value"),
            "choose": ("answer",),
        }.get(command, ("p",))
        args = dict(zip(names, (a, b, c), strict=False))
        try:
            action = GAME.parse(command, args, state, 0)
        except RulesError as err:
            assert err.key in catalogue("en")
            assert GAME.dump(state) == before
        else:
            GAME.apply(state, 0, action)  # whatever parses is legal


def test_catalogue_texts_respect_discord_limits() -> None:
    import re

    limits = {"option": 100, "command": 100, "param": 100, "button": 80}
    for lang in ("en", "es"):
        texts = {k: v for k, v in catalogue(lang).items() if k.startswith("badbones.")}
        assert len(texts["badbones.rules"]) <= 1800
        for key, text in texts.items():
            part = key.split(".")[1]
            if part in limits:
                assert 1 <= len(text) <= limits[part], key
            if part in ("command_name", "param_name"):
                assert re.fullmatch(r"[a-z0-9_-]{1,32}", text), key
        for command in GAME.commands:
            assert f"badbones.command.{command.name}" in texts
            assert f"badbones.button.{command.name}" in texts
            for param in command.params:
                assert f"badbones.param.{param.name}" in texts


def test_spanish_words_for_preferences_and_accented_input_echoed() -> None:
    from i18n import t

    state = GAME.new_game(3, {}, 1)
    assert GAME.parse("prefer", {"choice": "catapulta", "value": "preguntar"}, state, 0) == Prefer(
        "catapult", "ask"
    )
    assert GAME.parse("prefer", {"choice": "salida", "value": "Automático"}, state, 0) == Prefer(
        "top", "auto"
    )
    assert GAME.parse("prefer", {"choice": "dragón", "value": "o"}, state, 0) == Prefer(
        "dragon", "W"
    )
    _, events = GAME.apply(state, 0, Prefer("top", "ask"))
    (said,) = events
    from bot.service.narrate import event_text

    assert said.args["value"] == "ask", "canonical: shown in the reader's language"
    assert str(event_text(said, [], "es")) == "A partir de ahora, salida por arriba: preguntar."
    err = refused(state, 0, "move", {"direction": "quédate"})
    assert err.args_map["direction"] == "quédate"
    assert refused(state, 0, "move", {"direction": "🙂"}).args_map["direction"] == "?"
    assert t("badbones.error.bad_colour", "es", colour="rojo").count("blanco") == 1


def test_the_top_exit_reads_right_in_each_game() -> None:
    from i18n import t

    for lang in ("en", "es"):
        assert "(" not in t("badbones.way.top", lang)
        assert t("badbones.way.top_coop", lang) != t("badbones.way.top", lang)
        assert "pending.choose_top_coop" not in t("badbones.pending.choose_top_coop", lang)


def test_spanish_says_suministro_for_the_supply_everywhere() -> None:
    from i18n import catalogue

    texts = [v for k, v in catalogue("es").items() if k.startswith("badbones.")]
    assert not [v for v in texts if "reserva" in v.lower()]


def test_the_saved_move_reads_in_spanish_compass_letters() -> None:
    from i18n import t

    state = GAME.new_game(2, {}, 1)
    move = GAME.parse("move", {"direction": "NO"}, state, 0)
    _, events = GAME.apply(state, 0, move)
    saved = events[0]
    assert saved.args["direction_key"] == "badbones.dir.NW"
    assert t(saved.args["direction_key"], "es") == "NO"
    assert t(saved.args["direction_key"], "en") == "NW"


def test_spanish_placement_lines_have_their_article() -> None:
    from i18n import t

    line = t("badbones.event.placed", "es", seat="Ana", trap="barricada", square="C4")
    assert line == "Ana coloca la trampa barricada en C4."
    wall = t(
        "badbones.event.placed_wall", "es", seat="Ana", trap="muro", square="A1", orientation="/"
    )
    assert wall.startswith("Ana coloca un muro")
