"""D20: a weapon triggered in phase 3 acts at the kill that triggers it, before the board's
remaining skeletons move (rulebook, "Weapon Cards": "triggered as soon as your hero eliminates at
least 3 skeletons at once, whether in the hero movement phase or the skeleton movement phase").

Each weapon as the rulebook would show it: seat 0's hero stands on B2; the three skeletons on B1
walk south onto him (one group: "at once"), and the weapon is asked for there, while the
skeletons on the squares after B1 (D5's order, by square) have not moved yet. C2's skeleton
would walk into the tower (C3) next.
"""

from __future__ import annotations

import pytest

from bot.service.compose import pending_text
from bot.service.text import Name
from i18n import catalogue
from rules.badbones import GAME
from rules.badbones.actions import Choose, Move, Skip, Weapon
from rules.badbones.board import parse_name
from rules.badbones.state import HERO, SKELETONS, TRAP, BadBonesState
from rules.core import RulesError
from tests.badbones.helpers import keys, position, token_counts, trap_phase, where

ADV = {"advanced": True}


def asked(weapon: str, extra: str = "C2 S", *others: str) -> BadBonesState:
    """Phase 3 stops at seat 0's weapon question (B1's three killed on B2)."""
    state = position(f"weapon {weapon}\nhero B2\nB1 S*3\n{extra}", *others or ("",), **_at_trap())
    state, _ = trap_phase(state)
    assert state.stage == SKELETONS and state.questions[0]["choice"] == "weapon"
    return state


def _at_trap() -> dict[str, object]:
    return {"stage": TRAP, "options": ADV}


def floors(state: BadBonesState) -> int:
    return state.boards[0].floors


def test_the_question_names_the_weapon_the_hero_and_the_kills() -> None:
    state = asked("crossbow")
    pending = GAME.pending(state)[0]
    assert pending.kind == "choose_weapon" and pending.default == Skip()
    assert pending.args["weapon_key"] == "badbones.weapon.crossbow"
    assert pending.args["square"] == "B2" and pending.args["count"] == 3
    assert pending.args["targets"] == "C2"  # the skeleton still to move: there now
    assert set(GAME.legal_actions(state, 0)) == {Weapon("C2"), Skip()}
    names = [Name("Ana"), Name("Beto")]
    assert "usa tu ballesta ahora" in str(pending_text("badbones", pending, names, "es"))
    assert "use your crossbow now" in str(pending_text("badbones", pending, names, "en"))
    for lang in ("en", "es"):
        assert "badbones.pending.choose_weapon" in catalogue(lang)
        assert "badbones.event.weapon_chosen" in catalogue(lang)
        assert "badbones.error.answer_with_weapon" in catalogue(lang)


def test_crossbow_shoots_a_skeleton_before_it_walks_into_the_tower() -> None:
    state = asked("crossbow")
    bag = sum(state.bag)
    state, events = GAME.apply(state, 0, Weapon("C2"))
    assert floors(state) == 4 and "C2" not in where(state, 0)
    assert "badbones.event.weapon_used_crossbow" in keys(events)
    assert sum(state.bag) == bag + 4 - 3 * 2  # the shot and the 3 kills back, phase 4's draws
    token_counts(state)


def test_a_weapon_with_a_target_only_before_the_rest_of_the_phase_is_offered() -> None:
    """C2's skeleton is the crossbow's only target, and it is gone into the tower by the end of
    the phase: the weapon is offered at the kill, not after the phase."""
    state = asked("crossbow")
    assert 0 in GAME.pending(state)
    state, _ = GAME.apply(state, 0, Skip())
    assert floors(state) == 3 and state.stage == HERO and not state.weapons


def test_the_default_at_the_deadline_keeps_the_weapon() -> None:
    state = asked("crossbow")
    state, events = GAME.apply(state, 0, GAME.pending(state)[0].default)
    assert "badbones.event.weapon_skipped" in keys(events) and floors(state) == 3
    assert state.boards[0].weapon == "crossbow"


def test_ice_wand_holds_a_skeleton_still_to_move_for_this_phase() -> None:
    state = asked("icewand")
    state, _ = GAME.apply(state, 0, Weapon("C2"))
    assert floors(state) == 4 and where(state, 0) == {"C2": ["S"]}
    assert not state.boards[0].skeletons[0].frozen  # its round of rest is this one


def test_ice_wand_holds_a_skeleton_that_has_moved_through_the_next_phase() -> None:
    # A1 moves first, to A2; the wand freezes it there: it skips the next skeleton phase.
    state = asked("icewand", "A1 S")
    state, _ = GAME.apply(state, 0, Weapon("A2"))
    assert where(state, 0) == {"A2": ["S"]} and state.boards[0].skeletons[0].frozen
    state, _ = GAME.apply(state, 0, Move("E"))  # away from it
    state, _ = GAME.apply(state, 1, GAME.pending(state)[1].default)
    state, _ = trap_phase(state)
    assert "A2" in where(state, 0) and not state.boards[0].on(parse_name("A2"))[0].frozen


def test_death_wand_sends_the_kills_to_the_chosen_opponent_during_the_phase() -> None:
    state = asked("deathwand", "", "", "")
    assert set(GAME.legal_actions(state, 0)) == {Weapon("2"), Weapon("3"), Skip()}
    state, events = GAME.apply(state, 0, Weapon("3"))
    assert "badbones.event.weapon_used_deathwand" in keys(events)
    # Phase 4: the three go from seat 2's cemetery to its forests, with its 3 new ones.
    assert [len(b.forest) for b in state.boards] == [3, 3, 6]
    token_counts(state)


def test_teleportation_wand_takes_the_hero_away_before_the_next_skeleton_arrives() -> None:
    state = asked("teleport", "A2 E")
    state, _ = GAME.apply(state, 0, Weapon("C3"))
    assert state.boards[0].hero == parse_name("C3") and where(state, 0) == {"B2": ["E"]}


def test_two_handed_sword_strikes_skeletons_still_to_move_and_never_chains() -> None:
    state = asked("sword", "C2 S*3")
    state, events = GAME.apply(state, 0, Weapon("E"))
    assert state.boards[0].hero == parse_name("C2") and floors(state) == 4
    assert where(state, 0) == {} and state.stage == HERO  # 3 more kills: no new question
    assert "badbones.event.weapon_used_sword" in keys(events)


def test_battleaxe_sweeps_one_symbol_still_to_move() -> None:
    state = asked("battleaxe", "C2 S\nA2 yellow.top:N")
    assert {a.target for a in GAME.legal_actions(state, 0) if isinstance(a, Weapon)} == {
        "pink",
        "yellow",
    }
    state, _ = GAME.apply(state, 0, Weapon("pink"))
    assert floors(state) == 4 and where(state, 0) == {"A1": ["N"]}


def test_morning_star_moves_a_skeleton_still_to_move_and_it_still_moves() -> None:
    state = asked("morningstar")
    state, _ = GAME.apply(state, 0, Weapon("C2", "A1"))
    # Not flipped: it moves this phase from A1, south to A2.
    assert floors(state) == 4 and where(state, 0) == {"A2": ["S"]}


def test_rapier_turns_a_skeleton_still_to_move() -> None:
    state = asked("rapier")
    state, _ = GAME.apply(state, 0, Weapon("C2", "E"))
    assert floors(state) == 4 and where(state, 0) == {"D2": ["E"]}


def test_a_choose_answer_is_refused_and_says_to_use_the_weapon() -> None:
    state = asked("crossbow")
    before = GAME.dump(state)
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, Choose("C2"))
    assert err.value.key == "badbones.error.answer_with_weapon" and GAME.dump(state) == before
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, Weapon("A1"))
    assert err.value.key == "badbones.error.bad_weapon_target" and GAME.dump(state) == before
    with pytest.raises(RulesError):
        GAME.apply(state, 1, Skip())  # seat 1 has no weapon question
    assert GAME.parse("weapon", {"target": "c2"}, state, 0) == Weapon("C2")
    assert GAME.suggestions(state, 0, "weapon", "target", {}) == ["C2"]


def test_fewer_than_three_at_once_do_not_trigger() -> None:
    state = position("weapon crossbow\nhero B2\nB1 S*2\nA2 E\nC2 S", "", **_at_trap())
    state, _ = trap_phase(state)  # 3 kills, but from two groups
    assert state.stage == HERO and floors(state) == 3


def test_the_answer_replays_exactly_and_survives_a_save() -> None:
    """Another board's question is still open when seat 0 answers: the phase is replayed from
    its start with the answers given, from a saved game too, to the same end."""
    # Seat 1's skeleton leaves through the top forest: to whose cemetery?
    state = position("weapon crossbow\nhero B2\nB1 S*3\nC2 S", "B1 N", "", stage=TRAP, options=ADV)
    state, _ = trap_phase(state)
    assert set(GAME.pending(state)) == {0, 1}
    state, _ = GAME.apply(state, 0, Weapon("C2"))
    saved = GAME.load(GAME.dump(state))
    assert saved.answers[0] == ["weapon=C2"] and set(GAME.pending(saved)) == {1}
    ends = []
    for s in (state, saved):
        s, _ = GAME.apply(s, 1, Choose("3"))
        ends.append(GAME.dump(s))
    assert ends[0] == ends[1] and floors(GAME.load(ends[0])) == 4


def test_your_own_board_says_the_weapon_question_in_your_language() -> None:
    from render.badbones import _note_lines, render_board

    state = asked("crossbow")
    view = GAME.view(state, 0)
    said = " ".join(_note_lines(view, {}, ["Ana", "Beto"], "es"))
    assert "usa tu ballesta ahora" in said and "C2" in said
    assert render_board(view, ["Ana", "Beto"], "en")[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "weapon",
    ["crossbow", "icewand", "deathwand", "teleport", "sword", "battleaxe", "morningstar", "rapier"],
)
def test_every_use_offered_at_the_question_keeps_every_token_and_ends_the_phase(
    weapon: str,
) -> None:
    extra = "C2 S*2\nA1 S\nA3 E\nC1 red.top:S\nD2 W"
    start = position(f"weapon {weapon}\nhero B2\nB1 S*3\n{extra}", "", "", **_at_trap())
    start, _ = trap_phase(start)
    assert start.questions[0]["choice"] == "weapon"
    uses = [a for a in GAME.legal_actions(start, 0) if isinstance(a, Weapon)]
    assert uses
    for use in [*uses, Skip()]:
        state, _ = GAME.apply(start, 0, use)
        while state.stage == SKELETONS:  # a use may raise another question (a top exit)
            seat, pending = min(GAME.pending(state).items())
            assert seat == 0 and pending.kind != "choose_weapon", use  # no other 3+ group
            state, _ = GAME.apply(state, seat, pending.default)
        assert state.stage == HERO, use
        token_counts(state)


def test_newcomers_entering_at_one_entry_trigger_it_before_the_next_newcomer() -> None:
    """Three pink top-forest newcomers enter at A1, onto the hero: one group. E5's skeleton
    has moved to E4 by then; the green left-forest one, entering A1 the other way, comes after
    the answer (and falls to the hero too: a kill of another group)."""
    board = "weapon crossbow\nhero A1\nE5 N\nforest pink.top pink.top pink.top green.left"
    state = position(board, "", **_at_trap())
    state, _ = trap_phase(state)
    question = state.questions[0]
    assert question["choice"] == "weapon" and question["kills"] == 3
    assert question["options"] == ["E4", "skip"]
    state, events = GAME.apply(state, 0, Weapon("E4"))
    killed = next(e for e in events if e.key == "badbones.event.hero_killed")
    assert killed.args["count"] == 4 and where(state, 0) == {}


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_computer_seat_answers_the_weapon_question_legally(level: str) -> None:
    from rules.core.policy import choose

    state = asked("crossbow")
    action = choose(GAME, state, 0, level)
    assert action in GAME.legal_actions(state, 0)
    if level == "normal":  # it plays the phase out: the shot saves a floor
        assert action == Weapon("C2")
    state, _ = GAME.apply(state, 0, action)
    assert state.stage == HERO
