"""The advanced game: the Market, the new traps and the weapons (rulebook "Advanced Version"),
each as a position, an action and the outcome; bad input changes nothing."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from i18n import catalogue
from rules.badbones import GAME
from rules.badbones.actions import Buy, Move, Nothing, Pass, Place, Retrieve, Skip, Weapon
from rules.badbones.board import PINK, TOP, model_of, parse_name
from rules.badbones.market import turn_seat
from rules.badbones.state import HERO, MARKET, SKELETONS, TRAP, WEAPON, BadBonesState, Token
from rules.badbones.traps import TRAPS, WEAPONS, Trap, market_stock
from rules.core import RulesError
from tests.badbones.helpers import keys, position, token_counts, trap_phase, where
from tests.support import refusals

ADV = {"advanced": True}
PINK_TOP = model_of(TOP, PINK)  # the model the position notation defaults to


refused = partial(refusals.refused, GAME)
refused_command = partial(refusals.refused_command, GAME)


# ----------------------------------------------------------------------------- the Market


def test_market_setup_stock_by_player_count_and_a_free_treasure_each() -> None:
    state = GAME.new_game(3, ADV, 4)
    assert state.stage == MARKET and state.market is not None
    assert state.market["coins"] == [20, 20, 20]
    stock = state.market["stock"]
    assert stock["catapult"] == 6 and stock["wall"] == 6 and stock["dragon"] == 5
    assert all(stock[k] == 2 for k in ("barricade", "bomb", "hearse", "labyrinth", "portal"))
    assert "treasure" not in stock  # D2: free, never sold
    assert all(stock[w] == 1 for w in WEAPONS)
    assert [b.supply for b in state.boards] == [["treasure"]] * 3
    assert market_stock(1)["dragon"] == 2 and market_stock(6)["wall"] == 12


def market(state: BadBonesState) -> dict[str, Any]:
    """The advanced game's Market (coins, stock, whose turn), as set up with the game."""
    assert state.market is not None
    return state.market


def test_market_turns_go_clockwise_then_back_in_snake_order() -> None:
    """Rulebook: "Starting with this player, then going clockwise, each player can buy one
    equipment … repeat the procedure counterclockwise, starting with the last player." D14:
    clockwise is to the player's left, the previous seat (D4): from seat 2 of 4, 2 1 0 3."""
    state = GAME.new_game(4, ADV, 7)
    market(state)["first"] = 2
    order = [turn_seat(state, k) for k in range(12)]
    clockwise = [2, 1, 0, 3]
    assert order == clockwise + clockwise[::-1] + clockwise
    seen = []
    for _ in range(8):
        seat = next(iter(GAME.pending(state)))
        seen.append(seat)
        state, _ = GAME.apply(state, seat, Buy("wall"))
    assert seen == [2, 1, 0, 3, 3, 0, 1, 2]


def test_legal_actions_are_exactly_the_affordable_available_items() -> None:
    state = GAME.new_game(2, ADV, 1)
    seat = next(iter(GAME.pending(state)))
    market(state)["coins"][seat] = 4
    market(state)["stock"]["barricade"] = 0
    actions = GAME.legal_actions(state, seat)
    assert set(actions) == {
        Buy("wall"),
        Buy("catapult"),
        Buy("spring"),
        Buy("labyrinth"),
        Buy("portal"),
        Buy("crossbow"),
        Buy("rapier"),
        Pass(),
    }
    assert GAME.legal_actions(state, 1 - seat) == []
    assert "spring" in GAME.suggestions(state, seat, "buy", "item", {})


def test_a_purchase_goes_to_the_supply_and_the_channel_sees_the_market() -> None:
    state = GAME.new_game(2, ADV, 1)
    seat = next(iter(GAME.pending(state)))
    state, events = GAME.apply(state, seat, Buy("dragon"))
    assert state.boards[seat].supply == ["treasure", "dragon"]
    assert "badbones.event.bought" in keys(events)
    view = GAME.view(state, None)
    assert view["market"]["coins"][seat] == 15
    assert view["market"]["stock"]["dragon"] == 2
    assert view["market"]["last"] == [seat, "dragon"]
    assert view["market"]["turn"] == [1 - seat]


def test_bad_purchases_are_refused_and_change_nothing() -> None:
    state = GAME.new_game(2, ADV, 1)
    seat = next(iter(GAME.pending(state)))
    other = 1 - seat
    assert refused(state, other, Buy("wall")) == "badbones.error.not_your_market_turn"
    market(state)["coins"][seat] = 5
    assert refused(state, seat, Buy("hearse")) == "badbones.error.cannot_afford"
    market(state)["stock"]["bomb"] = 0
    assert refused(state, seat, Buy("bomb")) == "badbones.error.sold_out"
    assert refused(state, seat, Buy("treasure")) == "badbones.error.not_sold"
    assert (
        refused_command(state, seat, "buy", {"item": "laser"}).key == "badbones.error.unknown_item"
    )
    state.boards[seat].weapon = "rapier"
    assert refused(state, seat, Buy("crossbow")) == "badbones.error.second_weapon"
    assert refused(state, seat, Move("N")) == "badbones.error.not_now"


def test_one_weapon_per_player_and_the_market_closes_when_everyone_passed() -> None:
    state = GAME.new_game(2, ADV, 3)
    seat = next(iter(GAME.pending(state)))
    state, _ = GAME.apply(state, seat, Buy("crossbow"))
    assert state.boards[seat].weapon == "crossbow"
    assert Buy("rapier") not in GAME.legal_actions(state, 1 - seat) or True
    state, _ = GAME.apply(state, 1 - seat, Pass())
    # The other player passed for good: the buyer keeps the turn until done.
    assert list(GAME.pending(state)) == [seat]
    assert Buy("rapier") not in GAME.legal_actions(state, seat)
    state, events = GAME.apply(state, seat, Pass())
    assert state.stage == HERO and state.market is None and state.round == 1
    assert "badbones.event.market_closed" in keys(events)


def test_spanish_item_names_are_understood() -> None:
    state = GAME.new_game(2, ADV, 1)
    seat = next(iter(GAME.pending(state)))
    assert GAME.parse("buy", {"item": "Ballesta"}, state, seat) == Buy("crossbow")
    assert GAME.parse("buy", {"item": "resorte"}, state, seat) == Buy("spring")


# ----------------------------------------------------------------------------- new traps


def test_barricade_holds_skeletons_in_place_then_breaks() -> None:
    state = position("B1 S\nB2 barricade\nsupply", "", stage=TRAP, options=ADV)
    state, events = trap_phase(state)
    assert where(state, 0)["B1"] == ["S"]
    assert state.boards[0].traps[parse_name("B2")] == Trap("barricade", 1, "")
    state, _ = GAME.apply(state, 0, Move("S"))  # hero C3 -> C4, out of the way
    state, _ = GAME.apply(state, 1, Move("N"))
    state, _ = trap_phase(state)
    assert parse_name("B2") not in state.boards[0].traps  # damaged, used again: destroyed
    assert where(state, 0)["B1"] == ["S"]


def test_a_hero_on_the_barricade_does_not_stop_it_triggering() -> None:
    state = position("hero B2\nB1 S*2\nB2 barricade", "", stage=TRAP, options=ADV)
    state, _ = trap_phase(state)
    assert where(state, 0)["B1"] == ["S", "S"]
    assert state.boards[0].traps[parse_name("B2")].side == 1


def test_a_wall_sending_skeletons_into_a_barricade_uses_both() -> None:
    state = position("A2 E\nB2 wall\\\nB3 barricade", "", stage=TRAP, options=ADV)
    state, _ = trap_phase(state)
    assert where(state, 0)["A2"] == ["E"]
    traps = state.boards[0].traps
    assert traps[parse_name("B2")] == Trap("wall", 1, "\\") and traps[parse_name("B3")].side == 1


def test_spring_throws_two_squares_further_over_the_tower() -> None:
    state = position("A3 E\nB3 spring", "", stage=TRAP, options=ADV)
    state, _ = trap_phase(state)
    # Thrown over the tower C3 (untouched) into D3; D3's arrow W is against it: no turn.
    assert where(state, 0)["D3"] == ["E"]
    assert state.boards[0].floors == 4
    assert state.boards[0].traps[parse_name("B3")] == Trap("spring", 1, "")


def test_spring_onto_a_barricade_kills_on_the_spikes() -> None:
    state = position("A1 S\nA2 spring\nA4 barricade", "", stage=TRAP, options=ADV)
    bag = sum(state.bag)
    state, _ = trap_phase(state)
    assert "A1" not in where(state, 0) and "A4" not in where(state, 0)
    assert sum(state.bag) >= bag + 1 - 6  # phase 4 drew 3 per player afterwards
    assert state.boards[0].traps[parse_name("A4")] == Trap("barricade", 1, "")


def test_bomb_eliminates_and_its_blast_area_stays() -> None:
    state = position("B1 S*2\nB2 bomb", "", stage=TRAP, options=ADV)
    state, events = trap_phase(state)
    assert "B2" not in where(state, 0) and "B1" not in where(state, 0)
    assert state.boards[0].traps[parse_name("B2")] == Trap("bomb", 1, "")
    assert "badbones.event.trap_blasted" in keys(events)
    assert GAME.view(state, None)["boards"][0]["traps"][0]["side"] == "blast"


def test_the_blast_area_is_a_plain_square_that_cannot_be_retrieved_or_built_on() -> None:
    state = position("B1 S\nB2 bomb~\nsupply wall", "", stage=TRAP, options=ADV)
    assert refused(state, 0, Retrieve("B2")) == "badbones.error.blast_area"
    assert refused(state, 0, Place("wall", "B2", "/")) == "badbones.error.trap_on_trap"
    state, _ = trap_phase(state)
    assert where(state, 0)["B2"] == ["S"]


def test_bomb_placed_on_skeletons_goes_off_at_once() -> None:
    state = position("B2 S*3\nsupply bomb", "", stage=TRAP, options=ADV)
    state, _ = trap_phase(state, {0: Place("bomb", "B2")})
    assert "B2" not in where(state, 0)
    assert state.boards[0].traps[parse_name("B2")] == Trap("bomb", 1, "")
    token_counts(state)


def test_hearse_leaves_with_the_skeletons_to_the_chosen_opponent() -> None:
    state = position("B1 S\nB2 hearse\nprefs hearse=3", "", "", stage=TRAP, options=ADV)
    state, events = trap_phase(state)
    assert parse_name("B2") not in state.boards[0].traps
    assert "hearse" in state.boards[2].supply and "hearse" not in state.boards[1].supply
    assert len(state.boards[2].forest) >= 1 + 3  # the skeleton, then phase 4's three
    assert "badbones.event.trap_passed" in keys(events)


def test_hearse_is_indestructible_and_scores_for_its_holder() -> None:
    from rules.badbones.scoring import score
    from rules.badbones.traps import after_trigger

    assert after_trigger(Trap("hearse")) == Trap("hearse")
    state = position("supply hearse", "supply", stage=TRAP, options=ADV)
    assert score(state.boards[0]) == score(state.boards[1]) + TRAPS["hearse"].stars[0]


def test_labyrinth_lets_out_only_skeletons_of_its_colour() -> None:
    # Round 1: skeletons show white before they move.
    state = position("B2 S\nB2 labyrinth:black\nD2 S\nD2 labyrinth:white", "", stage=TRAP)
    state, _ = trap_phase(state)
    found = where(state, 0)
    assert found["B2"] == ["S"]  # lost in the black labyrinth
    assert found["D3"] == ["W"]  # out of the white one, turned by D3's arrow
    assert state.boards[0].traps[parse_name("B2")] == Trap("labyrinth", 0, "black")


def test_labyrinth_needs_a_colour() -> None:
    state = position("supply labyrinth", "", stage=TRAP, options=ADV)
    key = refused_command(state, 0, "place", {"trap": "labyrinth", "square": "B2"}).key
    assert key == "badbones.error.labyrinth_needs_colour"
    key = refused_command(
        state, 0, "place", {"trap": "labyrinth", "square": "B2", "orientation": "red"}
    ).key
    assert key == "badbones.error.bad_colour"
    action = GAME.parse(
        "place", {"trap": "laberinto", "square": "b2", "orientation": "negro"}, state, 0
    )
    assert action == Place("labyrinth", "B2", "black")


def test_portal_sends_skeletons_back_to_their_forest() -> None:
    state = position("B1 S\nB2 portal", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert "B1" not in where(state, 0) and "B2" not in where(state, 0)
    assert Token(PINK_TOP) in state.boards[0].forest, "it waits in its forest"
    assert state.boards[0].traps[parse_name("B2")] == Trap("portal", 1, "")


# ----------------------------------------------------------------------------- weapons


def armed(weapon: str, extra: str = "") -> BadBonesState:
    """Seat 0's hero (C3) steps NW onto three skeletons on B2: the weapon triggers."""
    state = position(f"weapon {weapon}\nB2 S*3\n{extra}", "", options=ADV)
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, events = GAME.apply(state, 1, Move("N"))
    assert state.stage == WEAPON and "badbones.event.weapon_ready" in keys(events)
    assert list(GAME.pending(state)) == [0] and GAME.pending(state)[0].default == Skip()
    return state


def test_no_weapon_no_trigger_and_fewer_than_three_no_trigger() -> None:
    state = position("B2 S*3", "", options=ADV)
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, _ = GAME.apply(state, 1, Move("N"))
    assert state.stage == TRAP
    state = position("weapon crossbow\nB2 S*2", "", options=ADV)
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, _ = GAME.apply(state, 1, Move("N"))
    assert state.stage == TRAP


def test_skip_keeps_the_weapon() -> None:
    state = armed("crossbow", "E5 N")
    state, _ = GAME.apply(state, 0, Skip())
    assert state.stage == TRAP and state.boards[0].weapon == "crossbow"


def test_crossbow_eliminates_one_skeleton() -> None:
    state = armed("crossbow", "E5 N*2")
    bag = sum(state.bag)
    state, _ = GAME.apply(state, 0, Weapon("E5"))
    assert where(state, 0) == {"E5": ["N"]} and sum(state.bag) == bag + 1
    assert state.stage == TRAP


def test_crossbow_with_no_chief_named_shoots_a_plain_skeleton_even_a_frozen_one() -> None:
    state = position("weapon crossbow\nB2 S*3\nE5 S^ N@nice", "", options={**ADV, "chiefs": True})
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, _ = GAME.apply(state, 1, Move("N"))
    state, _ = GAME.apply(state, 0, Weapon("E5"))
    assert [s.token.kind for s in state.boards[0].on(parse_name("E5"))] == ["nice"]


def test_ice_wand_freezes_a_square_for_one_skeleton_phase() -> None:
    state = armed("icewand", "D4 yellow.right:N")
    state, _ = GAME.apply(state, 0, Weapon("D4"))
    yellow_right = 11

    def yellow(state: BadBonesState) -> list[tuple[int, int]]:
        return [
            (s.square, s.facing) for s in state.boards[0].skeletons if s.token.model == yellow_right
        ]

    state, _ = trap_phase(state)
    assert yellow(state) == [(parse_name("D4"), 0)]  # frozen: did not move
    state, _ = GAME.apply(state, 0, Move("N"))
    state, _ = GAME.apply(state, 1, Move("S"))
    state, _ = trap_phase(state)
    assert yellow(state) == [(parse_name("D3"), 3)]  # thawed: moved N, turned W by D3's arrow


def test_death_wand_sends_the_kills_to_an_opponent() -> None:
    state = armed("deathwand")
    bag = sum(state.bag)
    assert {a for a in GAME.legal_actions(state, 0)} == {Weapon("2"), Skip()}
    state, _ = GAME.apply(state, 0, Weapon("2"))
    assert sum(state.bag) == bag - 3 and state.boards[1].cemetery == [Token(PINK_TOP)] * 3
    token_counts(state)


def test_teleportation_wand_returns_the_hero_to_the_tower() -> None:
    state = armed("teleport")
    state, _ = GAME.apply(state, 0, Weapon("C3"))
    assert state.boards[0].hero == parse_name("C3")


def test_two_handed_sword_moves_again_without_chaining() -> None:
    state = armed("sword", "A2 E*3")
    state, events = GAME.apply(state, 0, Weapon("W"))
    assert state.boards[0].hero == parse_name("A2") and "A2" not in where(state, 0)
    assert state.stage == TRAP and not state.weapons  # 3 more kills: no new trigger


def test_battleaxe_kills_one_symbol_around_the_hero() -> None:
    state = armed("battleaxe", "A2 E\nB1 red.top:S\nB3 pink.left:N")
    assert {a.target for a in GAME.legal_actions(state, 0) if isinstance(a, Weapon)} == {
        "pink",
        "red",
    }
    state, _ = GAME.apply(state, 0, Weapon("pink"))
    assert where(state, 0) == {"B1": ["S"]}


def test_morning_star_moves_a_square_next_to_the_hero() -> None:
    state = armed("morningstar", "A1 S*2\nC1 wall/")
    # A1 is a good target; C1 (a trap) a bad destination: the message says which.
    assert refused(state, 0, Weapon("A1", "C1")) == "badbones.error.bad_weapon_to"
    assert refused(state, 0, Weapon("E5", "A3")) == "badbones.error.bad_weapon_target"
    state, _ = GAME.apply(state, 0, Weapon("A1", "A3"))
    assert where(state, 0) == {"A3": ["S", "S"]}


def test_rapier_turns_a_square_next_to_the_hero() -> None:
    state = armed("rapier", "A1 S*2")
    state, _ = GAME.apply(state, 0, Weapon("A1", "E"))
    assert where(state, 0) == {"A1": ["E", "E"]}


def test_weapon_bad_input() -> None:
    state = armed("crossbow", "E5 N")
    assert refused(state, 0, Weapon("A1")) == "badbones.error.bad_weapon_target"
    assert refused(state, 1, Weapon("E5")) == "badbones.error.no_weapon_now"
    assert refused(state, 1, Skip()) == "badbones.error.no_weapon_now"
    assert refused(state, 0, Nothing()) == "badbones.error.not_now"
    state, _ = GAME.apply(state, 0, Weapon("E5"))
    assert refused(state, 0, Weapon("E5")) == "badbones.error.not_now"


def test_weapon_triggers_in_the_skeleton_phase_too() -> None:
    # A1 moves first (D5's order, by square) to A2; then B1's three walk onto the hero.
    state = position("weapon rapier\nhero B2\nB1 S*3\nA1 S", "", stage=TRAP, options=ADV)
    state, _ = trap_phase(state)
    assert state.stage == SKELETONS and state.questions[0]["choice"] == "weapon"
    state, _ = GAME.apply(state, 0, Weapon("A2", "E"))
    assert state.stage == HERO and state.round == 2
    assert where(state, 0) == {"A2": ["E"]}


def test_weapon_commands_parse_with_autocomplete() -> None:
    state = armed("rapier", "A1 S")
    assert GAME.suggestions(state, 0, "weapon", "target", {}) == ["A1"]
    assert GAME.parse("weapon", {"target": "a1", "to": "o"}, state, 0) == Weapon("A1", "W")


def test_a_weapon_with_nothing_to_act_on_does_not_ask() -> None:
    state = position("weapon crossbow\nB2 S*3", "", options=ADV)
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, _ = GAME.apply(state, 1, Move("N"))
    assert state.stage == TRAP  # the board is empty now: nothing to shoot
    solo = position("weapon deathwand\nB2 S*3", options=ADV)
    solo, _ = GAME.apply(solo, 0, Move("NW"))
    assert solo.stage == TRAP  # no opponent to send them to


# ----------------------------------------------------------------------------- fuzzing

_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["dragon", "Ballesta", "A1", "e5", "W", "pink", "2", "white", "crossbow"]),
    st.integers(),
    st.none(),
)
_PARAMS = {
    "buy": ("item",),
    "weapon": ("target", "to"),
    "start": ("square",),
    "place": ("trap", "square", "orientation"),
}


@settings(max_examples=200, deadline=None)
@given(
    command=st.sampled_from(["buy", "pass", "weapon", "skip", "start", "place"]),
    a=_TEXT,
    b=_TEXT,
    c=_TEXT,
)
def test_any_typed_variant_input_is_an_action_or_a_rules_error(
    command: str, a: Any, b: Any, c: Any
) -> None:
    market = GAME.new_game(2, ADV, 1)
    states = [
        market,
        armed("rapier", "A1 S"),
        GAME.new_game(2, {"cooperative": True}, 1),
        position("supply labyrinth bomb\nB2 S", "", stage=TRAP, options=ADV),
    ]
    names = _PARAMS.get(command, ())
    args = dict(zip(names, (a, b, c), strict=False))
    for state in states:
        for seat in (0, 1):
            before = GAME.dump(state)
            try:
                action = GAME.parse(command, args, state, seat)
            except RulesError as err:
                assert err.key in catalogue("en")
                assert GAME.dump(state) == before
                refusals.refused_command(GAME, state, seat, command, args, err.key)
            else:
                assert action in GAME.legal_actions(state, seat)
                GAME.apply(state, seat, action)


def test_weapon_names_are_understood_however_they_are_written() -> None:
    state = GAME.new_game(2, {"advanced": True}, 3)
    seat = next(iter(GAME.pending(state)))
    typings = (
        "ice_wand",
        "Ice-Wand",
        "ice wand",
        "icewand",
        "varita_de_hielo",
        "VARITA DE HIELO",
    )
    for typed in typings:
        assert GAME.parse("buy", {"item": typed}, state, seat) == Buy("icewand")
    for typed, item in (
        ("morning_star", "morningstar"),
        ("two_handed_sword", "sword"),
        ("teleportation_wand", "teleport"),
        ("death_wand", "deathwand"),
        ("battle_axe", "battleaxe"),
        ("hacha_de_batalla", "battleaxe"),
    ):
        assert GAME.parse("buy", {"item": typed}, state, seat) == Buy(item)
    assert (
        refused_command(state, seat, "buy", {"item": "ice_cream"}).key
        == "badbones.error.unknown_item"
    )


def test_every_purchase_gets_a_new_market_picture() -> None:
    state = GAME.new_game(3, {"advanced": True}, 3)
    before = GAME.picture_key(state)
    seat = next(iter(GAME.pending(state)))
    state, _ = GAME.apply(state, seat, Buy("wall"))
    after = GAME.picture_key(state)
    assert after != before
    state, _ = GAME.apply(state, next(iter(GAME.pending(state))), Pass())
    assert GAME.picture_key(state) != after


def test_weapon_messages_say_what_the_weapon_wants_and_read_well() -> None:
    from i18n import t

    names = ["Ana", "Bob"]

    def text_of(key: str, args: dict[str, Any], lang: str) -> str:
        # As the service fills them: seats become names, ``*_key`` args are translated.
        filled: dict[str, Any] = {}
        for name, value in args.items():
            if name == "seat" or name.endswith("_seat"):
                filled[name] = names[value]
            elif name.endswith("_key"):
                filled[name[:-4]] = t(value, lang)
            else:
                filled[name] = value
        return t(key, lang, **filled)

    for weapon, good, bad in (
        ("crossbow", Weapon("A1"), Weapon("Z9")),
        ("deathwand", Weapon("2"), Weapon("1")),
        ("morningstar", Weapon("A1", "A3"), Weapon("A1", "E5")),
        ("rapier", Weapon("A1", "E"), Weapon("E5", "N")),
        ("sword", Weapon("N"), Weapon("X")),
    ):
        state = armed(weapon, "A1 S*2")
        with pytest.raises(RulesError) as err:
            GAME.apply(state, 0, bad)
        for lang in ("en", "es"):
            text = text_of(err.value.key, err.value.args_map, lang)
            assert "{" not in text and "weapon_hint" not in text and ": " in text, text
        _, events = GAME.apply(state, 0, good)
        used = events[0]
        assert used.key.startswith("badbones.event.weapon_used")
        for lang in ("en", "es"):
            text = text_of(used.key, dict(used.args), lang)
            assert " ." not in text and "{" not in text, text
            if weapon == "deathwand":
                assert "Bob" in text


def test_every_weapon_has_its_used_line_and_hint_in_both_languages() -> None:
    from rules.badbones.board import SYMBOLS

    for lang in ("en", "es"):
        cat = catalogue(lang)
        for weapon in WEAPONS:
            assert f"badbones.event.weapon_used_{weapon}" in cat
            assert f"badbones.weapon_hint.{weapon}" in cat
        for symbol in SYMBOLS:
            assert f"badbones.symbol.{symbol}" in cat


def test_weapon_errors_echo_what_was_typed_and_spanish_chief_names_work() -> None:
    state = armed("battleaxe", "A2 S")
    with pytest.raises(RulesError) as err:
        GAME.parse("weapon", {"target": "azul"}, state, 0)
    assert err.value.args_map["target"] == "azul"
    assert GAME._weapon_action(state, {"target": "a1", "to": "Nigromante"}) == Weapon(
        "A1", "necromancer"
    )
