"""FUSE rules, as the rulebook tells them: set up a position, act, check the outcome."""

from __future__ import annotations

import json
from functools import partial

import pytest

from rules.core import Action, RulesError, get_game
from rules.core.policy import play_bots
from rules.fuse import FUSE
from rules.fuse.dice import die_token
from rules.fuse.game import Claim, Draw, FuseState, Pass, Place, Return, Take
from rules.fuse.modes import CLOCK_SECONDS, DECK_SIZE, relaxed_rounds
from tests.fuse.support import all_dice, card, keys, position
from tests.support import refusals
from tests.support.refusals import reason

NOW = 1000.0


def act(
    state: FuseState, seat: int, action: Action, now: float = NOW + 1
) -> tuple[FuseState, list[str]]:
    new, events = FUSE.apply(state, seat, action, now)
    return new, keys(events)


refused = partial(refusals.refused, FUSE, now=NOW + 1)


# ------------------------------------------------------------------ setup


def test_fuse_is_registered() -> None:
    assert get_game("fuse") is FUSE


@pytest.mark.parametrize("difficulty", list(DECK_SIZE))
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5])
def test_the_difficulty_table_sets_the_bomb_deck(difficulty: str, seats: int) -> None:
    state = FUSE.new_game(seats, {"difficulty": difficulty}, seed=seats)
    bombs_left = [c for c in state.deck if not c.startswith("F-")]
    fuses = [c for c in state.deck if c.startswith("F-")]
    assert len(state.centre) == 5 and len(fuses) == 6
    assert len(bombs_left) + len(state.centre) == DECK_SIZE[difficulty][seats - 1]
    assert all(len(h) == (4 if seats == 1 else 2) for h in state.hands)
    assert not any(c.startswith("F-") for c in state.centre)


def test_difficulty_table_values() -> None:
    assert DECK_SIZE["training"] == (16, 17, 18, 19, 20)
    assert DECK_SIZE["standard"][3] == 22 and DECK_SIZE["insane"][4] == 29


def test_dealing_pairs_a_high_first_card_with_a_low_one() -> None:
    for seed in range(60):
        state = FUSE.new_game(5, {"hard": True}, seed=seed)
        for first, second in state.hands:
            if card(first).points >= 3:
                assert card(second).points <= 2


def test_solo_hands_show_three_different_values() -> None:
    for seed in range(60):
        state = FUSE.new_game(1, {}, seed=seed)
        assert len({card(c).points for c in state.hands[0]}) >= 3


def test_a_solo_deal_pairs_a_high_first_card_with_a_low_one_too() -> None:
    # play-test: 23% of solo deals put a 3+ card second after a 3+ first card
    for seed in range(200):
        for hard in (False, True):
            hand = FUSE.new_game(1, {"hard": hard}, seed=seed).hands[0]
            if card(hand[0]).points >= 3:
                assert card(hand[1]).points <= 2, (seed, hand)
            assert len({card(c).points for c in hand}) >= 3


def test_a_solo_deal_pairs_its_second_pair_the_same_way() -> None:
    """D21: the rule applies to each pair dealt, cards 1–2 and cards 3–4."""
    for seed in range(300):
        for hard in (False, True):
            hand = FUSE.new_game(1, {"hard": hard}, seed=seed).hands[0]
            for first, second in (hand[:2], hand[2:]):
                if card(first).points >= 3:
                    assert card(second).points <= 2, (seed, hand)
            assert len({card(c).points for c in hand}) >= 3


def test_hard_cards_only_with_the_option() -> None:
    for seed in range(20):
        plain = FUSE.new_game(5, {"difficulty": "insane"}, seed=seed)
        used = plain.deck + plain.centre + [c for h in plain.hands for c in h]
        assert not any(c.startswith("6-") for c in used)
    found = set()
    for seed in range(20):
        hard = FUSE.new_game(5, {"difficulty": "insane", "hard": True}, seed=seed)
        found |= {c for c in hard.deck + hard.centre if c.startswith("6-")}
    assert found


def test_the_game_waits_for_a_draw_which_starts_the_clock() -> None:
    state = FUSE.new_game(3, {}, seed=3)
    assert FUSE.pending(state)[0].kind == "start" and state.clock_end is None
    state, events = act(state, 1, Draw(), NOW)
    assert state.clock_end == NOW + CLOCK_SECONDS
    assert len(state.drawn) == 3 and len(state.bag) == 22
    assert "fuse.event.round" in events
    assert FUSE.view(state, None)["clock_end"] == NOW + CLOCK_SECONDS
    assert all(p.deadline == NOW + CLOCK_SECONDS for p in FUSE.pending(state).values())


def test_relaxed_mode_has_no_clock() -> None:
    state = FUSE.new_game(2, {"mode": "relaxed"}, seed=3)
    state, _ = act(state, 0, Draw(), NOW)
    assert state.clock_end is None and len(state.drawn) == 4
    assert all(p.deadline is None for p in FUSE.pending(state).values())


# ------------------------------------------------------------------ claiming and placing


def test_first_claim_wins_and_the_second_is_told_at_once() -> None:
    state = position(
        3, [["2-06", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    state, _ = act(state, 0, Claim("R4"))
    assert FUSE.pending(state)[0].kind == "place"
    refused(state, 1, Claim("R4"), "fuse.error.die_taken")
    refused(state, 1, Claim("G3"), "fuse.error.no_such_die")


def test_a_claimed_die_is_placed_on_a_legal_slot_only() -> None:
    state = position(
        3, [["2-06", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    state, _ = act(state, 0, Claim("R4"))
    legal = FUSE.legal_actions(state, 0)
    assert Place("2-06", 1) in legal and Place("2-06", 2) not in legal
    refused(state, 0, Place("2-06", 2), "fuse.error.slot_wants_colour")
    refused(state, 0, Place("1-09", 1), "fuse.error.not_your_card")
    refused(state, 0, Place("2-06", 9), "fuse.error.bad_slot")
    state, events = act(state, 0, Place("2-06", 1))
    assert "fuse.event.placed" in events
    assert die_token(state, state.dice["2-06"][0]) == "R4"
    assert state.done[0]  # one die per player with 3 players


def test_place_without_a_claim_and_acting_when_done() -> None:
    state = position(
        3, [["2-06", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    refused(state, 0, Place("2-06", 1), "fuse.error.no_die")
    state, _ = act(state, 0, Pass())
    refused(state, 0, Claim("B2"), "fuse.error.round_done")


def test_typed_commands_get_the_specific_reason() -> None:
    state = position(
        3, [["4-01", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    state, _ = act(state, 0, Claim("R4"))
    err = reason(FUSE, state, 0, "place", {"card": "4-01", "slot": 2})
    assert err.key == "fuse.error.stack_order"
    with pytest.raises(RulesError) as raised:
        FUSE.parse("place", {"card": "1-09", "slot": 1}, state, 0)
    assert raised.value.key == "fuse.error.not_your_card"
    assert FUSE.parse("place", {"card": "1-07", "slot": "1"}, state, 0) == Place("1-07", 1)
    err = reason(FUSE, state, 1, "claim", {"die": "R4"})
    assert err.key == "fuse.error.die_taken"


def test_a_stack_out_of_order_is_refused() -> None:
    state = position(
        3, [["4-01", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    state, _ = act(state, 0, Claim("R4"))
    refused(state, 0, Place("4-01", 2), "fuse.error.stack_order")
    state, _ = act(state, 0, Place("4-01", 1))
    assert state.dice["4-01"][0] >= 0


def test_a_pyramid_die_needs_its_support() -> None:
    state = position(
        3,
        [["6-02", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]],
        roll=["B4", "R2", "K1"],
        placed={"6-02": ["K1", None, None]},
        options={"hard": True},
    )
    state, _ = act(state, 0, Claim("B4"))
    refused(state, 0, Place("6-02", 4), "fuse.error.pyramid_order")


def test_a_placement_that_makes_the_card_impossible_is_refused() -> None:
    state = position(
        3, [["3-06", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    state, _ = act(state, 0, Claim("R4"))
    refused(state, 0, Place("3-06", 1), "fuse.error.cannot_complete")
    assert Place("3-06", 1) not in FUSE.legal_actions(state, 0)


def test_claiming_a_die_that_fits_nowhere_is_refused() -> None:
    state = position(
        3, [["2-06", "4-04"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["Y4", "B2", "K1"]
    )
    refused(state, 0, Claim("Y4"), "fuse.error.no_place")
    assert Claim("Y4") not in FUSE.legal_actions(state, 0)


def test_two_players_take_two_dice_each() -> None:
    state = position(2, [["1-07", "2-06"], ["1-09", "2-03"]], roll=["R4", "B2", "K1", "Y3"])
    state, _ = act(state, 0, Claim("R4"))
    state, _ = act(state, 0, Place("1-07", 1))
    assert not state.done[0]
    state, _ = act(state, 0, Claim("K1"))
    state, _ = act(state, 0, Place("1-07", 3))
    assert state.done[0]


def test_solo_places_all_three_dice_by_default_and_one_with_the_option() -> None:
    hand = ["1-07", "2-06", "3-11", "1-09"]
    state = position(1, [hand], roll=["R4", "B2", "K1"])
    for token, target in (
        ("R4", Place("1-07", 1)),
        ("B2", Place("1-07", 2)),
        ("K1", Place("1-07", 3)),
    ):
        state, _ = act(state, 0, Claim(token))
        state, events = act(state, 0, target)
    assert "fuse.event.defused" in events
    state = position(1, [hand], roll=["R4", "B2", "K1"], options={"solo_dice": 1})
    state, _ = act(state, 0, Claim("R4"))
    state, _ = act(state, 0, Place("1-07", 1))
    assert state.round == 2  # the round ended after the one die


def test_a_player_who_can_use_no_die_is_done_at_once() -> None:
    state = position(2, [["4-04", "2-06"], ["1-07", "1-09"]], roll=["Y4", "Y5", "K1", "Y3"])
    assert state.done[0] and 0 not in FUSE.pending(state)
    # and one whose last usable die is placed by someone else is done then
    state = position(2, [["4-04", "2-06"], ["1-07", "1-09"]], roll=["Y4", "Y5", "R1", "Y3"])
    state, _ = act(state, 1, Claim("R1"))
    assert not state.done[0]
    state, _ = act(state, 1, Place("1-07", 1))
    assert state.done[0]


# ------------------------------------------------------------------ defusing


def test_a_full_card_is_defused_and_its_owner_takes_a_centre_card() -> None:
    state = position(
        3,
        [["1-07", "2-06"], ["1-09", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "B1", None]},
        centre=["3-01", "3-02", "1-01", "1-02", "1-03"],
        deck=["2-01", "2-02"],
    )
    bag = len(state.bag)
    state, events = act(state, 0, Claim("K4"))
    state, events = act(state, 0, Place("1-07", 3))
    assert "fuse.event.defused" in events and state.defused == ["1-07"]
    assert len(state.bag) == bag + 3 and "1-07" not in state.dice
    assert FUSE.pending(state)[0].kind == "take"
    refused(state, 0, Claim("B2"), "fuse.error.must_take")
    refused(state, 0, Take("2-01"), "fuse.error.not_in_centre")
    state, events = act(state, 0, Take("3-01"))
    assert state.hands[0] == ["2-06", "3-01"] and state.dice["3-01"] == [-1, -1]
    assert state.centre == ["3-02", "1-01", "1-02", "1-03", "2-01"] and state.deck == ["2-02"]


def test_no_second_level_3_or_4_card() -> None:
    state = position(
        3,
        [["1-07", "3-11"], ["1-09", "2-03"], ["1-10", "2-06"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "B1", None]},
        centre=["3-01", "4-02", "1-01", "1-02", "1-03"],
        deck=["2-01"],
    )
    state, _ = act(state, 0, Claim("K4"))
    state, _ = act(state, 0, Place("1-07", 3))
    assert FUSE.legal_actions(state, 0) == [Take("1-01"), Take("1-02"), Take("1-03")]
    refused(state, 0, Take("3-01"), "fuse.error.second_high")


def test_a_fuse_card_is_counted_at_once_and_makes_everyone_return_a_matching_die() -> None:
    state = position(
        3,
        [["1-07", "2-06"], ["1-09", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "B1", None], "1-09": ["R6", None, "B3"], "1-10": ["Y1", None, "G6"]},
        centre=["1-01", "1-02", "1-03", "1-04", "1-05"],
        deck=["F-R", "2-01", "2-02"],
    )
    state, _ = act(state, 0, Claim("K4"))
    state, _ = act(state, 0, Place("1-07", 3))
    state, events = act(state, 0, Take("1-01"))
    assert "fuse.event.fuse_card_colour" in events and state.fuses == ["F-R"]
    assert state.centre[-1] == "2-01" and state.deck == ["2-02"]
    # The others pass; the fuse card resolves: seat 1 loses its red 6 (its only red die).
    state, _ = act(state, 1, Pass())
    after, raw = FUSE.apply(state, 2, Pass(), NOW + 1)
    names = keys(raw)
    fuse_step = raw[
        names.index("fuse.event.fuse_resolves_colour") : names.index("fuse.event.rerolled")
    ]
    returned = [e.args for e in fuse_step if e.key == "fuse.event.returned"]
    assert returned == [
        {"seat": 1, "colour_key": "fuse.colour.R", "number": 6, "card": "1-09"},
    ]  # seat 0's only dice went back with its defused card; seat 2 has no red die
    assert FUSE.score(after) == 1 + 2


def test_unused_dice_are_rolled_again_and_matching_dice_return() -> None:
    state = position(
        3,
        [["1-07", "2-06"], ["1-03", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "B2", "K1"],
        placed={"1-03": ["R1", "B2", "G3", None], "1-07": ["Y5", None, None]},
    )
    for seat in range(3):
        state, _ = act(state, seat, Pass())
    # three dice re-rolled one at a time; seat 1 holds four different colours, so any roll may
    # ask it; whenever a choice is pending it is a Return among matching dice
    for _ in range(10):
        pending = FUSE.pending(state)
        if not pending or state.stage != "return":
            break
        for seat, p in pending.items():
            assert p.kind == "return_die" and isinstance(p.default, Return)
            state, _ = act(state, seat, p.default)
    assert state.stage == "choose" and state.round == 2
    assert all_dice(state) == list(range(25))


def test_returning_a_die_with_a_choice() -> None:
    state = position(
        3,
        [["1-07", "2-06"], ["1-03", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "R2", None]},
    )
    state.queue = ["F-R"]
    state.done = [True, True, False]
    state, events = act(state, 2, Pass())
    assert state.stage == "return" and set(state.owing) == {0}
    pending = FUSE.pending(state)[0]
    assert pending.kind == "return_colour" and pending.args == {"colour_key": "fuse.colour.R"}
    assert sorted(FUSE.legal_actions(state, 0), key=str) == [Return("1-07", 1), Return("1-07", 2)]
    refused(state, 0, Return("1-07", 3), "fuse.error.cannot_return")
    refused(state, 1, Return("1-07", 1), "fuse.error.nothing_to_return")
    state, events = act(state, 0, Return("1-07", 2))
    assert "fuse.event.returned" in events and state.dice["1-07"][:2][0] >= 0


def test_safe_dice_are_never_returned() -> None:
    state = position(
        3,
        [["4-03", "2-06"], ["1-03", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "B2", "K1"],
        placed={"4-03": ["Y1", "R2", None, None]},
    )
    state.queue = ["F-Y"]  # the yellow die is under the red one: safe
    state.done = [True, True, False]
    state, _ = act(state, 2, Pass())
    assert state.dice["4-03"][0] >= 0


# ------------------------------------------------------------------ the end


def test_taking_the_last_centre_card_wins_with_the_time_bonus() -> None:
    state = position(
        3,
        [["1-07", "2-06"], ["1-09", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "B1", None]},
        centre=["1-01"],
        deck=[],
    )
    state, _ = act(state, 0, Claim("K4"))
    state, _ = act(state, 0, Place("1-07", 3))
    state, events = act(state, 0, Take("1-01"), now=NOW + 100)
    assert "fuse.event.won" in events and FUSE.is_over(state)
    result = FUSE.result(state)
    assert result is not None and result.winners == (0, 1, 2)
    # 10 for the win, 500 s left = 50, 1 point for the bomb
    assert result.scores == {0: 61, 1: 61, 2: 61}


def test_insane_also_needs_the_cards_in_front_of_the_players() -> None:
    state = position(
        1,
        [["1-07", "1-09"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "B1", None]},
        centre=["1-01"],
        deck=[],
        options={"difficulty": "insane"},
    )
    state, _ = act(state, 0, Claim("K4"))
    state, _ = act(state, 0, Place("1-07", 3))
    state, events = act(state, 0, Take("1-01"))
    assert not FUSE.is_over(state)


def test_an_action_after_the_clock_ends_the_game_then_every_action_is_refused() -> None:
    state = position(
        3, [["2-06", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    assert state.clock_end is not None  # live mode: the clock runs
    late = state.clock_end + 1
    state, events = act(state, 0, Claim("R4"), now=late)
    assert events == ["fuse.event.lost_clock"] and FUSE.is_over(state)
    assert state.claims == {} and all_dice(state) == list(range(25))
    result = FUSE.result(state)
    assert result is not None and result.winners == ()
    refused(state, 1, Claim("B2"), "fuse.error.time_up", now=late)
    assert FUSE.pending(state) == {}


def test_the_team_loses_when_the_bag_is_empty_at_the_draw() -> None:
    state = position(
        3, [["1-07", "1-09"], ["1-10", "2-03"], ["3-11", "2-06"]], roll=["R4", "B2", "K1"]
    )
    # Everything else sits on cards: the re-rolled dice go back to the bag, so empty it by hand.
    state.bag = []
    state.loose = []
    state.drawn = []
    state.done = [True, True, False]
    state.dice["1-07"] = [-1, -1, -1]
    state, events = act(state, 2, Pass())
    assert "fuse.event.lost_bag" in events


def test_relaxed_games_end_at_the_round_limit() -> None:
    state = FUSE.new_game(1, {"mode": "relaxed", "rounds": 10}, seed=1)
    state, _ = act(state, 0, Draw())
    while not FUSE.is_over(state):
        seat, p = next(iter(FUSE.pending(state).items()))
        state, events = act(state, seat, Pass() if p.kind in ("claim", "place") else p.default)
    assert state.reason in ("rounds", "bag") and state.round <= 10


def test_relaxed_rounds_zero_means_the_limit_set_by_the_deck_not_never() -> None:
    # play-test: `rounds:0` could never end; now 0 (the default) is the deck's limit (D14)
    for seats in (1, 2, 3, 4, 5):
        state = FUSE.new_game(seats, {"mode": "relaxed", "rounds": 0}, seed=seats)
        cards = DECK_SIZE["standard"][seats - 1] + (4 if seats == 1 else 2 * seats)
        assert state.round_limit == relaxed_rounds(seats, DECK_SIZE["standard"][seats - 1])
        assert cards * 1.5 < state.round_limit < cards * 10


def test_the_last_relaxed_round_is_never_followed_by_one_past_the_limit() -> None:
    # play-test: the picture said "Round 61 of 60" as the bomb went off
    state, _ = play_bots(
        FUSE, ("random", "random"), seed=3, options={"mode": "relaxed", "rounds": 5}
    )
    assert state.reason == "rounds" and state.round == 5
    assert FUSE.view(state, None)["round"] <= FUSE.view(state, None)["round_limit"]


def test_dump_and_load_round_trip_through_json() -> None:
    state = position(2, [["1-07", "2-06"], ["1-09", "2-03"]], roll=["R4", "B2", "K1", "Y3"])
    state, _ = act(state, 0, Claim("R4"))
    data = json.loads(json.dumps(FUSE.dump(state)))
    assert FUSE.dump(FUSE.load(data)) == FUSE.dump(state)
    assert FUSE.dump(FUSE.copy(state)) == FUSE.dump(state)


def test_commands_and_buttons_follow_the_legal_actions() -> None:
    state = position(2, [["1-07", "2-06"], ["1-09", "2-03"]], roll=["R4", "B2", "K1", "Y3"])
    assert ("claim", {"die": "R4"}) in FUSE.buttons(state, 0)
    assert FUSE.parse("claim", {"die": "r4"}, state, 0) == Claim("R4")
    state, _ = act(state, 0, Claim("R4"))
    buttons = FUSE.buttons(state, 0)
    assert ("place", {"card": "1-07", "slot": 1}) in buttons and ("pass", {}) in buttons
    assert FUSE.suggestions(state, 0, "place", "card", {}) == ["1-07", "2-06"]
    assert FUSE.suggestions(state, 0, "place", "slot", {"card": "2-06"}) == ["1"]


def test_more_bad_input_is_refused_with_its_reason() -> None:
    state = position(
        3, [["2-06", "1-07"], ["1-09", "2-03"], ["1-10", "3-11"]], roll=["R4", "B2", "K1"]
    )
    refused(state, 0, Draw(), "fuse.error.already_drawn")
    refused(state, 0, Take("1-01"), "fuse.error.nothing_to_take")
    refused(state, 0, Return("2-06", 1), "fuse.error.nothing_to_return")
    refused(state, 7, Pass(), "core.error.not_your_turn")
    # "1": the slot as text (Place's slot is a number), refused with its reason, not a crash.
    refused(state, 0, Place("2-06", "1"), "fuse.error.no_die")  # type: ignore[arg-type]  # "1"
    state, _ = act(state, 0, Claim("R4"))
    refused(state, 0, Claim("R4"), "fuse.error.already_holding")
    refused(state, 0, Place("2-06", "1"), "fuse.error.bad_slot")  # type: ignore[arg-type]  # "1"
    state, _ = act(state, 0, Place("2-06", 1))
    refused(state, 0, Claim("B2"), "fuse.error.round_done")
    assert reason(FUSE, state, 0, "claim", {"die": "B2"}).key == "fuse.error.round_done"
    assert reason(FUSE, state, 1, "return", {"card": "1-09", "slot": 1}).key == (
        "fuse.error.nothing_to_return"
    )
    state, _ = act(state, 1, Claim("B2"))
    state, _ = act(state, 1, Place("1-09", 3))
    state, _ = act(state, 2, Claim("K1"))
    state, _ = act(state, 2, Place("1-10", 2))
    assert state.round == 2  # every die placed: straight to the next round


def test_a_slot_already_filled_is_refused() -> None:
    state = position(
        2,
        [["1-07", "2-06"], ["1-09", "2-03"]],
        roll=["R4", "B2", "K1", "Y3"],
        placed={"1-07": ["G1", None, None]},
    )
    state, _ = act(state, 0, Claim("R4"))
    refused(state, 0, Place("1-07", 1), "fuse.error.slot_full")


@pytest.mark.parametrize("top_up", [False, True])
def test_a_player_who_could_not_take_a_card_tops_up_only_with_the_house_option(
    top_up: bool,
) -> None:
    state = position(
        3,
        [["1-07", "3-11"], ["1-09", "2-03"], ["1-10", "2-06"]],
        roll=["K4", "B2", "K1"],
        placed={"1-07": ["R1", "B1", None]},
        centre=["3-01", "4-02", "4-03", "4-04", "4-05"],
        deck=["1-01", "2-01"],
        options={"top_up": top_up},
    )
    state, _ = act(state, 0, Claim("K4"))
    state, _ = act(state, 0, Place("1-07", 3))
    assert not state.taking[0] and state.hands[0] == ["3-11"]  # only high cards in the centre
    # someone else takes a high card; the refill brings a level 1 card into the centre
    state.hands[1] = ["1-09"]
    del state.dice["2-03"]
    state.taking[1] = True
    state, _ = act(state, 1, Take("3-01"))
    assert "1-01" in state.centre
    for seat in (1, 2):
        if not state.done[seat]:
            state, _ = act(state, seat, Pass())
    while state.stage == "return":
        seat, p = next(iter(FUSE.pending(state).items()))
        state, _ = act(state, seat, p.default)
    assert state.round == 2
    assert state.taking[0] == top_up
    if top_up:
        assert FUSE.legal_actions(state, 0) == [Take("1-01")]
