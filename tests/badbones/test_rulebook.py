"""The rulebook's examples and rules, each as a position, an action and the outcome."""

from __future__ import annotations

from rules.badbones import GAME
from rules.badbones.actions import Choose, Move, Nothing, Place, Prefer, Retrieve
from rules.badbones.board import BLUE, GREEN, PINK, RED, YELLOW, parse_name
from rules.badbones.position import board_from_text
from rules.badbones.scoring import score
from rules.badbones.state import HERO, LANDING, OVER, SKELETONS, TRAP, Token
from rules.badbones.traps import Trap
from tests.badbones.helpers import keys, position, skeletons_on, token_counts, trap_phase, where

# ----------------------------------------------------------------------------- setup


def test_red_is_never_drawn_at_setup_and_each_player_gets_the_four_other_symbols() -> None:
    for seed in range(40):
        state = GAME.new_game(6, {}, seed)
        for board in state.boards:
            assert sorted(t.symbol for t in board.forest) == sorted([PINK, YELLOW, BLUE, GREEN])
            assert RED not in {t.symbol for t in board.forest}
            assert board.hero == parse_name("C3") and board.floors == 4 and board.houses == 5
            assert sorted(board.supply) == sorted(
                ["wall", "wall", "catapult", "catapult", "dragon", "treasure"]
            )
        assert sum(state.bag) == 180 - 24
        token_counts(state)


def test_round_one_moves_the_setup_skeletons_onto_their_entry_squares() -> None:
    state = position("forest pink.top yellow.left blue.right green.top", "", stage=TRAP)
    state, _ = trap_phase(state)
    # pink.top enters A1 moving S, yellow.left A4 moving E, blue.right E4 moving W, green.top E1
    assert where(state, 0) == {"A1": ["S"], "A4": ["E"], "E1": ["S"], "E4": ["W"]}


# ----------------------------------------------------------------------------- scoring


def test_scoring_example_is_19_points() -> None:
    # 2 floors (8) + damaged dragon (2) + damaged catapult (1) + 2 houses (6) + wall in supply (2)
    board = board_from_text(
        """
        floors 2 houses 2
        B2 dragon~
        D4 catapult~
        supply wall
        """
    )
    assert score(board) == 19


def test_supply_counts_intact_board_counts_as_it_lies() -> None:
    board = board_from_text("B2 wall/~\nsupply wall catapult catapult dragon treasure")
    assert score(board) == 1 + (2 + 2 + 2 + 3 + 4) + 16 + 15


def test_game_ends_after_the_skeleton_phase_of_an_elimination_and_only_survivors_score() -> None:
    state = position(
        "floors 1\nC2 S",  # this skeleton takes the last floor
        "floors 2 houses 1\nB2 wall/",
        "floors 2 houses 2",
        stage=TRAP,
    )
    state, events = trap_phase(state)
    assert state.stage == OVER
    assert "badbones.event.eliminated" in keys(events)
    assert "badbones.event.arrivals" not in keys(events), "phase 4 is skipped"
    assert state.scores[0] is None
    # seat 1: 8 + 3 + wall 2 + supply 2+2+2+3+4 = 26; seat 2: 8 + 6 + 15 = 29
    assert state.scores[1] == 26 and state.scores[2] == 29
    result = GAME.result(state)
    assert result is not None and result.winners == (2,)


def test_tie_for_first_place_goes_to_the_tallest_tower_then_is_shared() -> None:
    state = position(
        "floors 1\nC2 S",
        "floors 3 houses 2\nB1 wall\\~",  # 12 + 6 + supply 13 + damaged wall 1 = 32
        "floors 2 houses 3",  # 8 + 9 + supply 15 = 32
        stage=TRAP,
    )
    assert score(state.boards[1]) == score(state.boards[2]) == 32
    state, _ = trap_phase(state)
    result = GAME.result(state)
    assert result is not None and result.winners == (1,), "the taller tower wins the tie"

    state = position("floors 1\nC2 S", "floors 2", "floors 2", stage=TRAP)
    state, _ = trap_phase(state)
    result = GAME.result(state)
    assert result is not None and result.winners == (1, 2), "still tied: shared victory"


# ----------------------------------------------------------------------------- hero


def test_hero_moves_one_step_and_destroys_every_skeleton_on_the_square_entered() -> None:
    state = position("hero C3\nD2 S*2 red.left:W", "")
    before = sum(state.bag)
    state, _ = GAME.apply(state, 0, Move("NE"))
    assert state.stage == HERO, "the phase waits for every player"
    state, events = GAME.apply(state, 1, Move("N"))
    assert state.stage == TRAP
    assert state.boards[0].hero == parse_name("D2") and where(state, 0) == {}
    assert sum(state.bag) == before + 3
    assert {"seat": 0, "square": "D2", "killed": 3} in [e.args for e in events]


def test_an_absent_hero_takes_the_step_that_kills_the_most_skeletons() -> None:
    # Three NW of the hero, two N, one E: the default (what an absent player gets) is NW.
    state = position("hero C3\nB2 S*3\nC2 E*2\nD3 W", "")
    default = GAME.pending(state)[0].default
    assert default == Move("NW")
    before = sum(state.bag)
    state, _ = GAME.apply(state, 0, default)
    state, events = GAME.apply(state, 1, Move("N"))
    assert state.boards[0].hero == parse_name("B2")
    assert where(state, 0) == {"C2": ["E", "E"], "D3": ["W"]}
    assert sum(state.bag) == before + 3
    assert {"seat": 0, "square": "B2", "killed": 3} in [e.args for e in events]


def test_an_absent_hero_counts_frozen_and_chief_skeletons_on_their_own_square() -> None:
    # Frozen and chief skeletons are skeletons like the others for the hero's sword.
    state = position("hero C3\nD4 S*2^ N@nice\nC2 S*2", "", options={"chiefs": True})
    assert GAME.pending(state)[0].default == Move("SE")


def test_skeleton_walking_into_the_hero_dies_without_triggering_the_trap_under_him() -> None:
    state = position("hero B2\nB2 catapult\nB1 S", "", stage=TRAP)
    state, events = trap_phase(state)
    assert where(state, 0) == {}
    assert state.boards[0].traps[parse_name("B2")] == Trap("catapult", 0, ""), "not triggered"
    assert "badbones.event.hero_killed" in keys(events)


def test_treasure_under_the_hero_is_not_stolen() -> None:
    state = position("hero B2\nB2 treasure\nB1 S\nC2 W", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.boards[0].traps[parse_name("B2")].kind == "treasure"


def test_hero_on_the_tower_does_not_protect_it() -> None:
    state = position("hero C3\nC2 S\nC4 N", "", stage=TRAP)
    state, events = trap_phase(state)
    assert state.boards[0].floors == 2
    assert "badbones.event.tower_hit" in keys(events)


# ----------------------------------------------------------------------------- arrows


def test_arrows_turn_only_skeletons_entering_across_them() -> None:
    state = position("B1 E\nC2 N\nB4 E\nD4 W", "", stage=TRAP)
    state, _ = trap_phase(state)
    # B1→C1 moving E: the arrow (S) turns it; C2→C1 moving N: against the arrow, unaffected.
    # B4→C4 and D4→C4 moving across the N arrow: both turn N.
    assert skeletons_on(state, 0, "C1") == ["N", "S"]
    assert skeletons_on(state, 0, "C4") == ["N", "N"]


def test_skeleton_moving_with_an_arrow_keeps_going() -> None:
    state = position("C1 S\nA3 E", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert skeletons_on(state, 0, "C2") == ["S"]
    assert skeletons_on(state, 0, "B3") == ["E"]


# ----------------------------------------------------------------------------- wall


def test_wall_ricochet_two_skeletons_bounce_and_move_one_more_square() -> None:
    state = position("D2 wall\\\nD1 S\nE2 W", "", stage=TRAP)
    state, events = trap_phase(state)
    # \ : S→E (to E2), W→N (to D1)
    assert skeletons_on(state, 0, "E2") == ["E"]
    assert skeletons_on(state, 0, "D1") == ["N"]
    assert state.boards[0].traps[parse_name("D2")] == Trap("wall", 1, "\\"), "damaged, same way"
    assert "badbones.event.trap_damaged" in keys(events)


def test_slash_wall_and_the_effects_of_the_square_after_it() -> None:
    # / : S→W. From B2 moving W into A2, no arrow; a second skeleton from C3's side is blocked
    state = position("B2 wall/\nB1 S\nC2 W", "", stage=TRAP)
    state, _ = trap_phase(state)
    # B1 S → B2 / → W → A2; C2 W → B2 / → S → B3 (arrow E, entering moving S: turns E)
    assert skeletons_on(state, 0, "A2") == ["W"]
    assert skeletons_on(state, 0, "B3") == ["E"]


def test_damaged_wall_is_destroyed_when_triggered_again() -> None:
    state = position("D2 wall\\~\nD1 S", "", stage=TRAP)
    state, events = trap_phase(state)
    assert parse_name("D2") not in state.boards[0].traps
    assert "badbones.event.trap_destroyed" in keys(events)


def test_chain_of_walls_and_lost_in_the_maze() -> None:
    # The dragon (preference N) sends a skeleton round three walls back into itself: lost (D6).
    state = position(
        "prefs dragon=N\nB2 dragon\nB1 wall/\nC1 wall\\\nC2 wall/\nA2 E", "", stage=TRAP
    )
    bag = sum(state.bag)
    state, events = trap_phase(state)
    assert where(state, 0) == {}
    assert "badbones.event.lost_in_maze" in keys(events)
    assert sum(state.bag) >= bag + 1 - 6  # phase 4 drew 3 per player afterwards
    token_counts(state)


# ----------------------------------------------------------------------------- catapult


def test_catapult_sends_everything_it_throws_to_one_chosen_opponent() -> None:
    state = position("D2 catapult\nD1 S\nE2 W", "", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.stage == SKELETONS
    question = state.questions[0]
    assert question["choice"] == "catapult" and question["options"] == ["2", "3"]
    state, events = GAME.apply(state, 0, Choose("3"))
    sent = [e.args for e in events if e.key == "badbones.event.sent"]
    assert sent == [{"seat": 0, "to_seat": 2, "count": 2, "way_key": "badbones.way.catapult"}], (
        "one question, both skeletons to the same opponent (D10)"
    )
    assert state.boards[0].traps[parse_name("D2")] == Trap("catapult", 1, "")


def test_catapult_with_two_players_needs_no_question() -> None:
    state = position("D2 catapult\nD1 S", "", stage=TRAP)
    state, events = trap_phase(state)
    assert state.stage == HERO
    assert {"seat": 0, "to_seat": 1, "count": 1, "way_key": "badbones.way.catapult"} in [
        e.args for e in events
    ]


# ----------------------------------------------------------------------------- dragon


def test_dragon_lands_on_three_skeletons_about_to_attack_the_tower() -> None:
    state = position("C2 S*3", "", stage=TRAP)
    state, events = trap_phase(state, {0: Place("dragon", "C2")})
    assert state.stage == LANDING and state.questions[0]["choice"] == "dragon"
    assert state.questions[0]["options"] == ["N", "E", "W", "S"]
    for answer in ("W", "E", "N"):
        state, events = GAME.apply(state, 0, Choose(answer))
    # They fled one square each, facing away, and do not move again this round.
    assert where(state, 0) == {"B2": ["W"], "C1": ["N"], "D2": ["E"]}
    assert state.boards[0].floors == 4
    assert state.boards[0].traps[parse_name("C2")] == Trap("dragon", 1, ""), "damaged at once"
    assert state.stage == HERO


def test_dragon_used_twice_in_a_round_is_destroyed() -> None:
    state = position("prefs dragon=auto\nC2 S*2\nC1 S", "", stage=TRAP)
    state, events = trap_phase(state, {0: Place("dragon", "C2")})
    # Landing: both flee (auto). Phase 3: the skeleton from C1 enters the damaged dragon, flees.
    assert parse_name("C2") not in state.boards[0].traps
    assert "badbones.event.dragon_landed" in keys(events)
    assert "badbones.event.trap_destroyed" in keys(events)
    assert state.boards[0].floors == 4
    token_counts(state)


def test_dragon_can_repel_into_the_forest_but_never_into_the_village() -> None:
    state = position("C5 dragon\nC4 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.questions[0]["options"] == ["N", "E", "W"]
    state, events = GAME.apply(state, 0, Choose("E"))
    assert skeletons_on(state, 0, "D5") == ["E"]
    state = position("A1 dragon\nB1 W", "", stage=TRAP)
    state, events = trap_phase(state)
    state, events = GAME.apply(state, 0, Choose("N"))
    assert {"seat": 0, "to_seat": 1, "count": 1, "way_key": "badbones.way.top"} in [
        e.args for e in events
    ]


# ----------------------------------------------------------------------------- treasure


def test_treasure_sacrifice_turns_adjacent_skeletons_and_is_stolen() -> None:
    state = position("C2 S*3", "", stage=TRAP)
    state, events = trap_phase(state, {0: Place("treasure", "B2")})
    # Turned toward the treasure at once, they walked onto it; it is removed, they stay put.
    assert where(state, 0) == {"B2": ["W", "W", "W"]}
    assert parse_name("B2") not in state.boards[0].traps
    assert "treasure" not in state.boards[0].supply
    assert state.boards[0].floors == 4
    assert "badbones.event.trap_stolen" in keys(events)


def test_treasure_attracts_skeletons_ending_next_to_it_over_arrows() -> None:
    # B1→C1 moving E: the arrow turns it S, unless a treasure next to C1 pulls it.
    state = position("B3 treasure\nB1 E", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert skeletons_on(state, 0, "C1") == ["S"], "no treasure next to C1: the arrow"
    state = position("D1 treasure\nB1 E", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert skeletons_on(state, 0, "C1") == ["E"], "the treasure outweighs the arrow"
    state = position("B2 wall\\\nC2 treasure\nB1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    # B1 S → wall \ → E → C2 is the treasure itself: it stands on it (and steals it).
    assert skeletons_on(state, 0, "C2") == ["E"]


def test_thieves_stay_unturned_on_an_arrow_square() -> None:
    state = position("C4 treasure\nB4 E", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert skeletons_on(state, 0, "C4") == ["E"]
    assert parse_name("C4") not in state.boards[0].traps


# ----------------------------------------------------------------------------- exits


def test_forest_exits_go_to_left_right_and_chosen_top_neighbours() -> None:
    state = position("", "A2 W\nE2 E\nB1 N", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert state.questions[1] == {
        "choice": "top",
        "index": 0,
        "options": ["3", "1"],
        "default": "3",
        "square": "B1",  # the square it leaves from: the question names the skeleton
        "model": "pink.top",
        "chief": "",
        "seats": [2, 0],
        "count": 1,
        "asked": 0,
    }
    state, events = GAME.apply(state, 1, Choose("1"))
    sent = sorted((e.args["to_seat"], e.args["way_key"]) for e in events if e.key.endswith("sent"))
    assert sent == [(0, "badbones.way.left"), (0, "badbones.way.top"), (2, "badbones.way.right")]
    assert len(state.boards[0].forest) == 3 + 2 and len(state.boards[2].forest) == 3 + 1


def test_standing_preference_answers_in_advance() -> None:
    state = position("", "B1 N", "", stage=TRAP)
    state, events = GAME.apply(state, 1, Prefer("top", "1"))
    assert events[0].to == 1
    state, events = trap_phase(state)
    assert state.stage == HERO
    assert {"seat": 1, "to_seat": 0, "count": 1, "way_key": "badbones.way.top"} in [
        e.args for e in events
    ]


def test_village_burns_one_house_per_skeleton() -> None:
    state = position("A5 S*2\nE5 S", "", stage=TRAP)
    state, events = trap_phase(state)
    assert state.boards[0].houses == 2
    token_counts(state)


# ----------------------------------------------------------------------------- phase 2


def test_retrieved_trap_returns_intact_to_the_supply() -> None:
    state = position("B2 wall/~\nsupply", "", stage=TRAP)
    state, _ = trap_phase(state, {0: Retrieve("B2")})
    assert state.boards[0].supply == ["wall"] and not state.boards[0].traps


def test_trap_can_go_under_the_hero() -> None:
    state = position("hero B2", "", stage=TRAP)
    state, _ = trap_phase(state, {0: Place("wall", "B2", "/")})
    assert state.boards[0].traps[parse_name("B2")] == Trap("wall", 0, "/")


# ----------------------------------------------------------------------------- phase 4


def test_new_skeletons_three_drawn_plus_the_cemetery() -> None:
    state = position("cemetery red.top blue.left", "", stage=TRAP)
    state, events = trap_phase(state)
    assert len(state.boards[0].forest) == 5 and len(state.boards[1].forest) == 3
    assert not state.boards[0].cemetery
    assert state.round == 2 and state.stage == HERO


def test_when_the_bag_runs_out_players_draw_in_seat_order() -> None:
    state = position("", "", "", stage=TRAP)
    state.bag = [0] * 15
    state.bag[0] = 4
    state.boards[0].forest = [Token(0)] * 8  # keep the 180 tokens somewhere
    state, events = trap_phase(state)
    # 8 forest skeletons enter and stay on the board; 4 tokens: seats 0,1,2 then seat 0 again
    assert [len(b.forest) for b in state.boards] == [2, 1, 1]
    assert "badbones.event.bag_empty" in keys(events)


# ----------------------------------------------------------------------------- solo


def test_solo_exits_go_to_your_own_cemetery() -> None:
    state = position("A2 W\nE2 E\nB1 N\nD2 catapult\nD1 S", stage=TRAP)
    state, events = trap_phase(state)
    sent = [e.args for e in events if e.key.endswith("sent")]
    assert all(a["to_seat"] == 0 for a in sent) and sum(a["count"] for a in sent) == 4
    assert len(state.boards[0].forest) == 4 + 3


def test_solo_one_floor_one_house_lost_when_the_tower_falls() -> None:
    state = GAME.new_game(1, {}, 3)
    assert state.boards[0].floors == 1 and state.boards[0].houses == 1
    state = position("C2 S", stage=TRAP)
    state, events = trap_phase(state)
    assert state.stage == OVER and state.outcome == "lost"
    result = GAME.result(state)
    assert result is not None and result.winners == ()


def test_solo_win_after_the_set_number_of_rounds() -> None:
    state = position("", stage=TRAP, round=3, options={"solo_rounds": 3})
    state, events = trap_phase(state)
    assert state.stage == OVER and state.outcome == "won"
    assert "badbones.event.solo_won" in keys(events)
    result = GAME.result(state)
    assert result is not None and result.winners == (0,)


def test_solo_heroic_ending_continues_without_new_skeletons_until_all_are_gone() -> None:
    options = {"solo_rounds": 3, "heroic": True}
    state = position("B1 N", stage=TRAP, round=3, options=options)
    state, events = trap_phase(state)
    # The skeleton left through the top into the cemetery: not finished, no new skeletons.
    assert state.stage == HERO and state.round == 4
    assert len(state.boards[0].forest) == 1
    state = position("", stage=TRAP, round=4, options=options)
    state, events = trap_phase(state)
    assert state.outcome == "heroic" and "badbones.event.solo_heroic" in keys(events)


def test_nothing_is_the_default_of_phase_two_and_pending_defaults_are_legal() -> None:
    state = GAME.new_game(3, {}, 5)
    for seat, pending in GAME.pending(state).items():
        assert pending.default in GAME.legal_actions(state, seat)
    state, _ = GAME.apply(state, 0, Move("N"))
    state, _ = GAME.apply(state, 1, Move("N"))
    state, _ = GAME.apply(state, 2, Move("N"))
    assert all(p.default == Nothing() for p in GAME.pending(state).values())


def test_the_end_is_narrated_once_with_everyone_s_score() -> None:
    from i18n import t
    from rules.core.play import random_game

    for seats, options in ((3, {}), (1, {}), (2, {"cooperative": True})):
        state, _, events = random_game(GAME, seats, 5, options)
        result = GAME.result(state)
        assert result is not None and result.summary is None
        ends = [
            e
            for e in events
            if e.key.split(".")[-1]
            in (
                "game_over",
                "solo_won",
                "solo_lost",
                "solo_heroic",
                "solo_scored",
                "coop_won",
                "coop_lost",
            )
        ]
        assert len(ends) == 1
        if seats == 3:
            scored = [e for e in events if e.key == "badbones.event.final_score"]
            alive = [s for s, v in state.scores.items() if v is not None]
            assert [e.args["seat"] for e in scored] == alive
            for e in scored:
                assert e.args["points"] == state.scores[e.args["seat"]]
                for lang in ("en", "es"):
                    assert "{" not in t(e.key, lang, **{**e.args, "seat": "Ana"})


def test_when_everyone_falls_together_nobody_wins_and_it_reads_so() -> None:
    from i18n import t
    from rules.badbones import phases

    state = GAME.new_game(3, {}, 1)
    for board in state.boards:
        board.floors = 0
    events = phases.finish(state, "scored")
    assert [e.key for e in events] == ["badbones.event.game_over_none"]
    for lang in ("en", "es"):
        assert "{" not in t(events[0].key, lang)
    result = GAME.result(state)
    assert result is not None and result.winners == ()


def test_falling_during_the_heroic_ending_reads_as_the_normal_victory() -> None:
    options = {"solo_rounds": 3, "heroic": True}
    state = position("C2 S", stage=TRAP, round=4, options=options)
    state, events = trap_phase(state)
    assert state.outcome == "won"
    assert "badbones.event.eliminated" not in keys(events)
    assert "badbones.event.solo_heroic_failed" in keys(events)
    (won,) = [e for e in events if e.key == "badbones.event.solo_won"]
    assert won.args["round"] == 3
