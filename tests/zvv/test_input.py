"""What players type: commands, autocomplete, and every kind of bad input (a specific error,
nothing changed)."""

from __future__ import annotations

from functools import partial

import pytest

from i18n import t
from rules.core import CommandArgs, RulesError
from rules.zvv import GAME
from rules.zvv.actions import Build, Move, Pass, Remove, Roll, Stop
from rules.zvv.notation import position
from rules.zvv.state import ZvvState
from tests.support import refusals
from tests.support.refusals import reason

AWAY = ["A6", "A7", "A8", "B6", "B7", "B8", "C6", "C7", "C8"]


refused = partial(refusals.refused_command, GAME)
rejected = partial(refusals.refused, GAME)


# ------------------------------------------------------------------ moves


def test_move_commands_parse_squares_in_any_case() -> None:
    state = position(pawns={0: ["F6"]}, face="4")
    assert GAME.parse("move", {"pawn": "f6", "to": " f8 "}, state, 0) == Move("F6", "F8")


def test_bad_moves() -> None:
    state = position(pawns={0: ["F6"], 1: ["F7"]}, face="2")
    refused(state, 0, "move", {"pawn": "F6", "to": "F10"}, "zvv.error.out_of_reach")
    refused(state, 0, "move", {"pawn": "F6", "to": "H7"}, "zvv.error.out_of_reach")
    refused(state, 0, "move", {"pawn": "F6", "to": "F7"}, "zvv.error.out_of_reach")  # occupied
    refused(state, 0, "move", {"pawn": "F6", "to": "F6"}, "zvv.error.out_of_reach")
    refused(state, 0, "move", {"pawn": "F7", "to": "F9"}, "zvv.error.not_your_pawn")
    refused(state, 0, "move", {"pawn": "E5", "to": "E6"}, "zvv.error.no_pawn")
    refused(state, 0, "move", {"pawn": "Z9", "to": "E6"}, "zvv.error.bad_square")
    refused(state, 0, "move", {"pawn": "F6", "to": "F12"}, "zvv.error.bad_square")
    refused(state, 0, "move", {"pawn": "F6", "to": "hello"}, "zvv.error.bad_square")
    refused(state, 1, "move", {"pawn": "F7", "to": "F8"}, "core.error.not_your_turn")
    rejected(state, 0, Move("F6", "F10"), "zvv.error.out_of_reach")
    rejected(state, 0, Move("F6", "Q1"), "zvv.error.bad_square")
    rejected(state, 0, Move(3, 4), "zvv.error.bad_square")  # type: ignore[arg-type]  # not squares


def test_moving_a_pawn_that_is_home() -> None:
    state = position(pawns={0: ["K11", "F6"], 1: AWAY}, face="2")
    refused(state, 0, "move", {"pawn": "K11", "to": "K10"}, "zvv.error.pawn_home")


def test_moves_out_of_phase() -> None:
    refused(position(), 0, "move", {"pawn": "C3", "to": "D3"}, "zvv.error.roll_first")
    building = position(face="build", wall_len=1)
    refused(building, 0, "move", {"pawn": "C3", "to": "D3"}, "zvv.error.not_a_move")
    refused(position(face="4"), 0, "roll", {}, "zvv.error.already_rolled")
    refused(position(face="4"), 0, "stop", {}, "zvv.error.cannot_stop")
    refused(position(face="4"), 0, "pass", {}, "zvv.error.cannot_pass")
    refused(position(face="4"), 0, "reroll", {}, "zvv.error.no_reroll")
    refused(position(face="4"), 0, "fly", {}, "core.error.unknown_command")


def test_after_the_game_nothing_goes() -> None:
    home = ["I9", "I10", "I11", "J9", "J10", "J11", "K10", "K11"]
    state = position(pawns={0: home + ["K8"], 1: AWAY}, face="2")
    over, _ = GAME.apply(state, 0, Move("K8", "K9"))
    rejected(over, 1, Roll(), "core.error.game_over")
    assert GAME.suggestions(over, 1, "move", "pawn", {}) == []


# ------------------------------------------------------------------ walls


def test_build_parses_any_way_of_pointing_at_the_wall() -> None:
    state = position(face="build", wall_len=3)
    same: list[CommandArgs] = [
        {"square": "D5", "side": "N", "direction": "E"},
        {"square": "F5", "side": "N", "direction": "W"},
        {"square": "d4", "side": "s", "direction": "e"},
        {"square": "F4", "side": "South", "direction": "West"},
        {"square": "F4", "side": "sur", "direction": "oeste"},
    ]
    for args in same:
        assert GAME.parse("build", args, state, 0) == Build("D5-F5 N"), args
    one = position(face="build", wall_len=1)
    assert GAME.parse("build", {"square": "E6", "side": "E"}, one, 0) == Build("F6 W")


BAD_WALLS = [  # square, side, direction → error (length 2, a wall D5-F5 N on the board)
    ("B2", "N", "E", "zvv.error.wall_in_zone"),
    ("E4", "E", "S", "zvv.error.wall_cross"),
    ("C5", "N", "E", "zvv.error.wall_overlap"),
    ("K5", "E", "S", "zvv.error.wall_on_edge"),
    ("K5", "N", "E", "zvv.error.wall_runs_off"),
    ("E1", "N", "E", "zvv.error.wall_on_edge"),
    ("M5", "N", "E", "zvv.error.bad_square"),
    ("E7", "X", "E", "zvv.error.bad_side"),
    ("E7", "N", "S", "zvv.error.bad_direction"),
    ("E7", "N", "", "zvv.error.bad_direction"),
]


@pytest.mark.parametrize(("square", "side", "direction", "key"), BAD_WALLS)
def test_bad_walls(square: str, side: str, direction: str, key: str) -> None:
    state = position(walls=["D5-F5 N"], face="build", wall_len=2)
    refused(state, 0, "build", {"square": square, "side": side, "direction": direction}, key)


def test_bad_wall_actions_and_phases() -> None:
    state = position(walls=["D5-F5 N"], face="build", wall_len=2)
    rejected(state, 0, Build("E7-G7 N"), "zvv.error.wall_length")
    rejected(state, 0, Build("nonsense"), "zvv.error.bad_wall")
    rejected(state, 0, Build("E7-F8 N"), "zvv.error.wall_off_board")  # not straight
    rejected(state, 0, Build("D4-E4 S"), "zvv.error.wall_overlap")  # the same wall seen from D4
    wall: CommandArgs = {"square": "E7", "side": "N"}
    refused(position(face="4"), 0, "build", wall, "zvv.error.not_a_build")
    plus = position(face="plusminus", walls=["E5 N"])
    refused(plus, 0, "build", wall, "zvv.error.roll_wall_die")


def test_remove_names_a_wall_or_any_piece_of_it() -> None:
    state = position(walls=["D5-F5 N", "H3 W"], face="plusminus")
    assert GAME.parse("remove", {"wall": "d5-f5 n"}, state, 0) == Remove("D5-F5 N")
    assert GAME.parse("remove", {"wall": "F5-D5 N"}, state, 0) == Remove("D5-F5 N")
    assert GAME.parse("remove", {"wall": "E4 S"}, state, 0) == Remove("D5-F5 N")
    assert GAME.parse("remove", {"wall": "G3 E"}, state, 0) == Remove("H3 W")
    assert GAME.parse("remove", {"wall": "H3 O"}, state, 0) == Remove("H3 W")  # oeste


# "remove wall:c3 o" was refused though the wall was there, remove refused the words
# build took ("oeste", "north"), and "remove G9 E" typed positionally lost its "E".
SIDE_FORMS = [
    ("W", ["W", "w", "O", "o", "west", "West", "OESTE", "oeste"]),
    ("N", ["N", "n", "north", "NORTH", "norte", "Norte"]),
    ("E", ["E", "e", "east", "este", "Este"]),
    ("S", ["S", "s", "south", "sur", "SUR"]),
]


@pytest.mark.parametrize(("side", "forms"), SIDE_FORMS)
def test_build_and_remove_read_the_same_sides(side: str, forms: list[str]) -> None:
    walls = {"W": "C5 W", "N": "E5 N", "E": "G5 E", "S": "H5 S"}
    wall = walls[side]
    square = wall.split()[0]
    for form in forms:
        plus = position(walls=[wall], face="plusminus")
        name = GAME.parse("remove", {"wall": f"{square.lower()} {form}"}, plus, 0)
        assert name == Remove(canonical(plus, wall)), form
        assert GAME.parse("remove", {"wall": square, "side": form}, plus, 0) == name, form
        build = position(face="build", wall_len=1)
        built = GAME.parse("build", {"square": square.lower(), "side": form}, build, 0)
        assert built == Build(name.wall), form


def canonical(state: ZvvState, wall: str) -> str:
    """The canonical name of ``wall`` (C5 W stays C5 W; G5 E is H5 W)."""
    from rules.zvv.board import board

    found = board(state.size).parse_wall(wall)
    assert found is not None
    return board(state.size).wall_name(found)


def test_remove_c3_o_takes_the_wall_west_of_c3() -> None:
    state = position(walls=["C5-C7 W"], face="plusminus")
    after, events = GAME.apply(state, 0, GAME.parse("remove", {"wall": "c6 o"}, state, 0))
    assert after.walls == [] and events[0].key == "zvv.event.removed"


def test_remove_typed_as_square_then_side_keeps_the_side() -> None:
    # The console hands positional words to the parameters in order: wall, then side.
    state = position(walls=["G9-G7 E"], face="plusminus")
    params = [p.name for p in next(c for c in GAME.commands if c.name == "remove").params]
    assert params == ["wall", "side"]
    assert GAME.parse("remove", dict(zip(params, ["G9", "E"], strict=True)), state, 0) == Remove(
        "H7-H9 W"
    )


def test_remove_refuses_a_word_that_is_no_side() -> None:
    state = position(walls=["C5 W"], face="plusminus")
    refused(state, 0, "remove", {"wall": "C5 nonsense"}, "zvv.error.bad_side")
    refused(state, 0, "remove", {"wall": "C5", "side": "up"}, "zvv.error.bad_side")
    build = position(face="build", wall_len=1)
    refused(build, 0, "build", {"square": "C5", "side": "nonsense"}, "zvv.error.bad_side")


def test_removing_a_wall_that_is_not_there() -> None:
    state = position(walls=["D5-F5 N"], face="plusminus")
    refused(state, 0, "remove", {"wall": "G5 N"}, "zvv.error.no_wall")
    refused(state, 0, "remove", {"wall": "D5-E5 N"}, "zvv.error.no_wall")
    # Not a wall name at all: say how to write one (as build does), not "no such wall".
    refused(state, 0, "remove", {"wall": "junk"}, "zvv.error.bad_wall")
    rejected(state, 0, Remove("G5 N"), "zvv.error.no_wall")
    moving = position(walls=["D5-F5 N"], face="4")
    refused(moving, 0, "remove", {"wall": "D5-F5 N"}, "zvv.error.not_a_remove")


# ------------------------------------------------------------------ autocomplete and buttons


def test_move_suggestions_are_the_movable_pawns_then_their_reach() -> None:
    state = position(pawns={0: ["F6"]}, walls=["A4-C4 N", "D1-D3 W"], face="2")
    pawns = GAME.suggestions(state, 0, "move", "pawn", {})
    assert pawns[0] == "F6" and "A1" not in pawns  # A1 is boxed in by its neighbours
    assert set(pawns) == {m.pawn for m in GAME.legal_actions(state, 0) if isinstance(m, Move)}
    to = GAME.suggestions(state, 0, "move", "to", {"pawn": "f6"})
    assert set(to) == {
        m.to for m in GAME.legal_actions(state, 0) if isinstance(m, Move) and m.pawn == "F6"
    }
    assert to[:4] == sorted(to[:4], key=lambda s: (s[1:], s)) or len(to) == 12
    assert GAME.suggestions(state, 0, "move", "to", {"pawn": "A1"}) == []
    assert GAME.suggestions(state, 1, "move", "pawn", {}) == []


def test_build_suggestions_follow_the_rolled_length() -> None:
    state = position(walls=["D5-F5 N"], face="build", wall_len=3)
    squares = GAME.suggestions(state, 0, "build", "square", {})
    assert "B2" not in squares and "E5" in squares
    sides = GAME.suggestions(state, 0, "build", "side", {"square": "E5"})
    assert "N" not in sides and {"E", "W", "S"} <= set(sides)
    dirs = GAME.suggestions(state, 0, "build", "direction", {"square": "E6", "side": "N"})
    assert dirs == ["E", "W"] or set(dirs) == {"E", "W"} or dirs in (["E"], ["W"])
    for square in squares[:10]:
        for side in GAME.suggestions(state, 0, "build", "side", {"square": square}):
            for d in GAME.suggestions(
                state, 0, "build", "direction", {"square": square, "side": side}
            ):
                GAME.parse("build", {"square": square, "side": side, "direction": d}, state, 0)


def test_every_legal_action_round_trips_through_its_command() -> None:
    for state in [
        position(face="6"),
        position(face="build", wall_len=2),
        position(walls=["D5-F5 N"], face="plusminus"),
        position(walls=["A4-C4 N", "D1-D3 W"], face="4"),
    ]:
        for action in GAME.legal_actions(state, 0):
            mapped = GAME.to_command(action)
            assert mapped is not None
            assert GAME.parse(mapped[0], mapped[1], state, 0) == action


def test_buttons_roll_stop_and_pass() -> None:
    assert GAME.buttons(position(), 0) == [("roll", {})]
    one, _ = GAME.apply(position(pawns={0: ["F6", "D5"]}, face="split"), 0, Move("F6", "F7"))
    assert ("stop", {}) in GAME.buttons(one, 0)
    assert Stop() in GAME.legal_actions(one, 0)
    assert Pass() not in GAME.legal_actions(one, 0)


def test_turn_and_phase_errors_come_before_argument_errors() -> None:
    refused(position(face="4"), 1, "move", {"pawn": "Z9", "to": "E6"}, "core.error.not_your_turn")
    plus = position(face="plusminus", walls=["E5 N"])
    refused(plus, 1, "remove", {"wall": "junk"}, "core.error.not_your_turn")
    refused(position(), 0, "remove", {"wall": "junk"}, "zvv.error.roll_first")
    refused(position(face="2"), 0, "build", {"square": "Q1", "side": "N"}, "zvv.error.not_a_build")


def test_a_refused_wall_typed_from_its_other_side_is_recognisable() -> None:
    # "/zvv build square:B2 side:E" was refused as "The wall C2 W would lie inside a
    # corner zone", naming a wall the player never typed.
    from rules.zvv.notation import position

    state = position(face="build", wall_len=1)
    with pytest.raises(RulesError) as err:
        GAME.parse("build", {"square": "B2", "side": "E"}, state, state.turn)
    assert err.value.key == "zvv.error.wall_in_zone"
    assert err.value.args_map["wall"] == "C2 W (= B2 E)"


# ------------------------------------------------------------------ what the bot says


def test_stop_says_the_second_step_is_given_up_not_kept() -> None:
    # "alice keeps the second step" read as if she still had it; stop gives it up.
    one, _ = GAME.apply(position(pawns={0: ["F6", "D5"]}, face="split"), 0, Move("F6", "F7"))
    after, events = GAME.apply(one, 0, Stop())
    assert events[0].key == "zvv.event.stopped" and after.turn == 1
    assert "unused" in t("zvv.event.stopped", "en", seat="alice")
    assert "keeps" not in t("zvv.event.stopped", "en", seat="alice")
    assert "se pierde" in t("zvv.event.stopped", "es", seat="alice")


def test_a_forced_pass_is_announced_as_still_to_press() -> None:
    # "… alice passes." came before alice had pressed Pass (then "alice passes." again).
    for key in ("no_move", "no_place", "no_supply"):
        for lang, must in (("en", "must pass"), ("es", "debe pasar")):
            assert must in t(f"zvv.event.{key}", lang, seat="alice", length=2), (key, lang)


def test_building_on_a_build_roll_with_no_place_says_why_not_that_build_does_not_build() -> None:
    # "Your roll is Build: it does not build a wall" (the supply was empty).
    state = position(options={"walls": 0}, face="build", wall_len=2)
    state.phase = "pass"
    refused(
        state,
        0,
        "build",
        {"square": "E5", "side": "N", "direction": "E"},
        "zvv.error.pass_no_supply",
    )
    state = position(face="build", wall_len=2)
    state.phase = "pass"  # as if every length-2 place were taken
    refused(
        state,
        0,
        "build",
        {"square": "E5", "side": "N", "direction": "E"},
        "zvv.error.pass_no_place",
    )
    stuck = position(face="4")
    stuck.phase = "pass"
    refused(stuck, 0, "move", {"pawn": "C3", "to": "C4"}, "zvv.error.pass_no_move")
    for key in ("pass_no_supply", "pass_no_place", "pass_no_move"):
        text = t(f"zvv.error.{key}", "en", length=2, face="Build")
        assert "does not" not in text and text.endswith("pass."), text


def test_removing_after_choosing_to_build_on_plus_minus_says_build_now() -> None:
    # "Only a ± roll removes a wall (your roll: ±)" after rolling the wall die on ±.
    plus = position(walls=["E5 N"], face="plusminus")
    built, _ = GAME.apply(plus, 0, Roll())
    assert built.phase == "build"
    refused(built, 0, "remove", {"wall": "E5 N"}, "zvv.error.chose_build")
    empty = position(face="plusminus")
    empty.phase, empty.wall_len = "build", 1  # ± on an empty board builds at once
    refused(empty, 0, "remove", {"wall": "E5 N"}, "zvv.error.nothing_to_remove")


def test_plus_minus_offers_remove_buttons_for_the_newest_walls() -> None:
    walls = ["B5 W", "D5 N", "E7 N", "G6 W", "H8 N", "F9 W"]
    state = position(walls=walls, face="plusminus")
    buttons = GAME.buttons(state, 0)
    assert buttons[0] == ("roll", {})
    removes = [args["wall"] for command, args in buttons if command == "remove"]
    assert removes == ["F9 W", "H8 N", "G6 W", "E7 N"]  # newest first, one row with Roll
    for command, args in buttons:
        GAME.parse(command, args, state, 0)  # each button is a command the engine accepts
    assert t("zvv.button.remove", "es", wall="F9 W") == "Quitar F9 W"
    assert [c for c, _ in GAME.buttons(position(face="4"), 0)] == []


def test_far_destinations_come_first_in_autocomplete() -> None:
    # with a 6 the 25 nearest squares were offered and the far, useful ones hidden.
    state = position(pawns={0: ["E5"]}, face="6")
    to = GAME.suggestions(state, 0, "move", "to", {"pawn": "E5"})
    legal = {m.to for m in GAME.legal_actions(state, 0) if isinstance(m, Move) and m.pawn == "E5"}
    assert set(to) == legal and len(to) > 25  # the whole set, for typed text to filter
    assert {"H8", "I7", "G9"} & set(to[:3])  # six steps towards the far corner (K11) first
    assert to.index("E6") > 25 and to.index("E4") > 25


def said(state: ZvvState, command: str, args: CommandArgs, lang: str) -> str:
    """What the player who typed the command reads (the refusal, in their language)."""
    err = reason(GAME, state, state.turn, command, args)
    text_args = {k: str(v) for k, v in err.args_map.items()}
    text_args.update(
        {k[:-4]: t(str(v), lang) for k, v in err.args_map.items() if k.endswith("_key")}
    )
    return t(err.key, lang, **text_args)


def test_a_move_without_its_destination_asks_for_it() -> None:
    # Beto (Spanish) rolled a 4 and typed `/zvv mover peon:G7` with no destino.
    state = position(pawns={0: ["G7"]}, face="4")
    text = said(state, "move", {"pawn": "G7"}, "es")
    assert "destino:" in text and "G7" in text and "«»" not in text
    assert "to:" in said(state, "move", {"pawn": "G7"}, "en")
    assert "pawn:" in said(state, "move", {"to": "G5"}, "en")
    refused(state, 0, "move", {"pawn": "G7"}, "zvv.error.no_destination")
    refused(state, 0, "move", {"to": "G5"}, "zvv.error.no_pawn_given")
    refused(state, 0, "move", {"pawn": "Z1", "to": "G5"}, "zvv.error.bad_square")


def test_a_wall_along_the_board_edge_is_refused_as_on_the_edge() -> None:
    # Length 3 rolled; `build square:A1 side:N direction:E` would run along the top edge.
    state = position(face="build", wall_len=3)
    args: CommandArgs = {"square": "A1", "side": "N", "direction": "E"}
    refused(state, 0, "build", args, "zvv.error.wall_on_edge")
    text = said(state, "build", args, "en")
    assert "edge" in text and "A1" in text and "A1 N" not in text  # no length-1 wall named
    assert "borde" in said(state, "build", args, "es")
    west = said(state, "build", {"square": "A5", "side": "W", "direction": "S"}, "es")
    assert "lado O de A5" in west  # the Spanish side letter


def test_a_wall_running_past_the_last_square_is_refused_as_running_off() -> None:
    # On a 9×9 board I is the last column: a wall of 3 from I5 north side eastward runs off.
    state = position(size=9, face="build", wall_len=3)
    args: CommandArgs = {"square": "I5", "side": "N", "direction": "E"}
    refused(state, 0, "build", args, "zvv.error.wall_runs_off")
    text = said(state, "build", args, "en")
    assert "goes off the board" in text and "length 3" in text and "I5" in text
    assert "se sale del tablero" in said(state, "build", args, "es")
    # Run the other way it fits.
    assert GAME.parse("build", {**args, "direction": "W"}, state, 0) == Build("G5-I5 N")


def test_a_wall_on_a_square_not_on_the_board_names_the_square() -> None:
    state = position(face="build", wall_len=1)
    args: CommandArgs = {"square": "Z9", "side": "N"}
    refused(state, 0, "build", args, "zvv.error.bad_square")
    assert said(state, "build", args, "en") == "“Z9” is not a square of this board (A1 to K11)."
    assert (
        said(state, "build", args, "es") == "«Z9» no es una casilla de este tablero (de A1 a K11)."
    )
    refused(state, 0, "build", {"side": "N"}, "zvv.error.no_wall_square")
    assert "casilla:" in said(state, "build", {"side": "N"}, "es")
