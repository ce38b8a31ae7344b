"""D5: the owner's choices while skeletons move — asked, preset, or defaulted at the deadline."""

from __future__ import annotations

from rules.badbones import GAME
from rules.badbones.actions import Choose, Place, Prefer
from rules.badbones.board import parse_name
from rules.badbones.state import HERO, LANDING, SKELETONS, TRAP, BadBonesState
from tests.badbones.helpers import position, trap_phase, where


def test_afk_owner_gets_the_default_answer() -> None:
    state = position("C2 dragon\nC1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    pending = GAME.pending(state)
    assert list(pending) == [0] and pending[0].kind == "choose_dragon_from"
    assert pending[0].args["square"] == "C2"
    # Default: not back towards the tower (S); W/E would face sideways; N leaves... C1 is empty
    # now, so fleeing north faces away from the village: the best plain square.
    assert pending[0].default == Choose("N")
    state, _ = GAME.apply(state, 0, pending[0].default)
    assert state.stage == HERO and where(state, 0) == {"C1": ["N"]}


def test_default_dragon_prefers_the_forest_or_the_hero() -> None:
    state = position("B2 dragon\nhero B3\nB1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    # A2/C2 sideways, B1 north, B3 the hero (kills it): the hero wins.
    assert GAME.pending(state)[0].default == Choose("S")
    state = position("A2 dragon\nA1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert GAME.pending(state)[0].default == Choose("W"), "into the left forest"


def test_default_dragon_keeps_fleeing_skeletons_off_the_owners_treasure() -> None:
    # Without the treasure the default is north (C1, the best plain square: see above). With
    # the owner's treasure on B1, a skeleton fleeing to C1 (or to B2) lands beside it and turns
    # toward it, and steals it next phase: the default sends it east to D2 instead.
    state = position("C2 dragon\nC1 S\nB1 treasure", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert GAME.pending(state)[0].default == Choose("E")
    state, _ = GAME.apply(state, 0, GAME.pending(state)[0].default)
    assert where(state, 0) == {"D2": ["E"]}
    assert parse_name("B1") in state.boards[0].traps


def test_default_target_is_the_leader() -> None:
    state = position("", "B1 N", "floors 2", "", stage=TRAP)
    state, _ = trap_phase(state)
    q = state.questions[1]
    # Opponents in seat order from the right: 3, 4, 1; seat 3 (index 2) has fewer floors.
    assert q["options"] == ["3", "4", "1"] and q["default"] == "4"


def test_preference_set_during_resolution_applies_from_now_on() -> None:
    # The dragon lands on three skeletons: the first is sent west by hand, then the owner sets
    # "always east": the answer given stands, the two still to flee go east.
    state = position("C2 S*3", "", stage=TRAP)
    state, _ = trap_phase(state, {0: Place("dragon", "C2")})
    state, _ = GAME.apply(state, 0, Choose("W"))
    assert state.stage == LANDING and state.questions[0]["index"] == 1
    state, events = GAME.apply(state, 0, Prefer("dragon", "E"))
    assert state.stage == HERO
    assert where(state, 0) == {"B2": ["W"], "D2": ["E", "E"]}


def test_fixed_preference_that_is_impossible_falls_back_to_the_default() -> None:
    state = position("prefs dragon=S\nC5 dragon\nC4 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.stage == HERO, "S (the village) is never allowed: the default applies"
    assert parse_name("C5") in state.boards[0].traps


def test_several_boards_answer_independently_and_the_phase_waits_for_all() -> None:
    state = position("C5 dragon\nC4 S", "C5 dragon\nC4 S", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.stage == SKELETONS and set(GAME.pending(state)) == {0, 1}
    phase, asked = GAME.phase(state), GAME.pending(state)[0].asked
    state, _ = GAME.apply(state, 1, Choose("W"))
    # The phase (and its message) goes on; seat 1's question, still open, is the same one.
    assert set(GAME.pending(state)) == {0} and GAME.phase(state) == phase
    assert GAME.pending(state)[0].asked == asked
    assert where(state, 1) == {"C4": ["S"]}, "nothing is committed before every board is done"
    state, _ = GAME.apply(state, 0, Choose("E"))
    assert where(state, 0) == {"D5": ["E"]} and where(state, 1) == {"B5": ["W"]}


def test_autocomplete_and_buttons() -> None:
    state = position("B2 S\nD4 wall/", "", stage=TRAP)
    traps = GAME.suggestions(state, 0, "place", "trap", {})
    assert traps == ["wall", "catapult", "dragon", "treasure"]
    squares = GAME.suggestions(state, 0, "place", "square", {"trap": "muro"})
    assert "C3" not in squares and "D4" not in squares and "B2" not in squares and "A1" in squares
    assert "B2" in GAME.suggestions(state, 0, "place", "square", {"trap": "dragon"})
    assert GAME.suggestions(state, 0, "retrieve", "square", {}) == ["D4"]
    assert GAME.buttons(state, 0) == [("nothing", {})]
    assert GAME.suggestions(state, 0, "prefer", "value", {"choice": "dragon"})[:2] == [
        "ask",
        "auto",
    ]
    hero = position("hero A1", "")
    assert [b[1]["direction"] for b in GAME.buttons(hero, 0)] == ["E", "SE", "S"]
    for action in GAME.legal_actions(state, 0):
        command = GAME.to_command(action)
        assert command is not None
        assert GAME.parse(command[0], dict(command[1]), state, 0) == action


def test_a_seat_answer_is_confirmed_with_the_seat_not_a_bare_number() -> None:
    state = position("", "B1 N", "floors 2", "", stage=TRAP)
    state, _ = trap_phase(state)
    state, events = GAME.apply(state, 1, Choose("3"))
    assert events[0].key == "badbones.event.answered_seat"
    assert events[0].args["answer_seat"] == 2 and events[0].to == 1


def _on_board(view: dict[str, object], seat: int = 0) -> list[tuple[str, str]]:
    boards = view["boards"]
    assert isinstance(boards, list)
    return [(s["square"], s["facing"]) for s in boards[seat]["skeletons"]]


def _asked(state: BadBonesState, lang: str) -> str:
    from bot.service.compose import pending_text
    from bot.service.text import Name

    item = GAME.pending(state)[0]
    return str(pending_text("badbones", item, [Name("Ana"), Name("Bob")], lang))


def test_the_dragon_asks_about_a_named_skeleton_and_says_its_default() -> None:
    """Play-test: "Your dragon on C2 repels a skeleton: which way?" — which skeleton? The
    question names it (symbol, where it came from, its facing) and the answer taken if Ana
    says nothing."""
    state = position("C2 dragon\nC1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert _asked(state, "en") == (
        "Question 1: your dragon on C2 repels the pink skeleton coming from C1 (facing S): which"
        " way does it flee? N, E, W, S (default N)"
    )
    assert _asked(state, "es") == (
        "Pregunta 1: tu dragón en C2 repele al esqueleto (de los rosas) que llega desde C1"
        " (mirando al S): ¿hacia dónde huye? N, E, O, S (por defecto N)"  # west is "O" in Spanish
    )


def test_a_landing_dragon_asks_about_each_skeleton_it_lands_on() -> None:
    state = position("C2 S*2", "", stage=TRAP)
    state, _ = trap_phase(state, {0: Place("dragon", "C2")})
    assert _asked(state, "en") == (
        "Question 1: your dragon lands on C2, on the pink skeleton facing S: which way does it"
        " flee? N, E, W, S (default N)"
    )


def test_the_picture_of_a_question_is_the_board_at_that_moment() -> None:
    """Play-test: the picture under the dragon's question showed the board from before the
    skeletons moved, so nobody could see which skeleton was meant. Now: A1's skeleton has
    already moved on to A2, C1's stands on the dragon (C2) facing S, E4's has not moved yet."""
    state = position("C2 dragon\nA1 S\nC1 S\nE4 N", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.stage == SKELETONS and where(state, 0) == {"A1": ["S"], "C1": ["S"], "E4": ["N"]}
    before = GAME.picture_key(state)
    assert sorted(_on_board(GAME.view(state, None))) == [("A2", "S"), ("C2", "S"), ("E4", "N")]
    assert sorted(_on_board(GAME.view(state, 0))) == [("A2", "S"), ("C2", "S"), ("E4", "N")]
    state, _ = GAME.apply(state, 0, Choose("E"))  # no question left: the phase commits
    assert state.stage == HERO and GAME.picture_key(state) != before
    assert where(state, 0) == {"A2": ["S"], "D2": ["E"], "E3": ["N"]}


def test_each_skeleton_fleeing_a_landing_dragon_is_shown_where_it_went() -> None:
    """Three skeletons under a landing dragon: after each answer the next question's picture
    shows the ones that fled where they went, and the channel gets a new picture."""
    state = position("C2 S*3", "", stage=TRAP)
    state, _ = trap_phase(state, {0: Place("dragon", "C2")})
    view = GAME.view(state, None)
    assert _on_board(view) == [("C2", "S")] * 3
    assert view["placing"] == [], "the dragon is down already, not arriving"
    assert {"square": "C2", "trap": "dragon", "side": "damaged"}.items() <= view["boards"][0][
        "traps"
    ][0].items()
    first = GAME.picture_key(state)
    state, _ = GAME.apply(state, 0, Choose("W"))
    assert state.stage == LANDING and GAME.picture_key(state) != first
    assert sorted(_on_board(GAME.view(state, None))) == [("B2", "W"), ("C2", "S"), ("C2", "S")]
