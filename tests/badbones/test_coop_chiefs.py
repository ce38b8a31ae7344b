"""The cooperative game and the skeleton chiefs, each as a position, an action and the outcome."""

from __future__ import annotations

from functools import partial
from typing import cast

import pytest

from rules.badbones import GAME
from rules.badbones.actions import Choose, Move, Nothing, Place, Retrieve, Weapon
from rules.badbones.board import parse_name
from rules.badbones.phases import new_skeletons
from rules.badbones.state import (
    CHIEF_KINDS,
    HERO,
    OVER,
    SKELETONS,
    TRAP,
    chief_kind,
)
from rules.badbones.traps import Trap
from rules.core import Action, Rng, RulesError
from tests.badbones.helpers import keys, position, trap_phase, where
from tests.support import refusals

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

COOP = {"cooperative": True}
CHIEFS = {"chiefs": True}


refused = partial(refusals.refused, GAME)


# ----------------------------------------------------------------------------- cooperative


def test_cooperative_setup() -> None:
    state = GAME.new_game(3, COOP, 2)
    assert state.capital == 3
    assert sorted(state.pool) == sorted(["wall", "catapult", "dragon"] * 3 + ["treasure"])
    for board in state.boards:
        assert board.floors == 4 and not board.village and board.supply == []
        assert board.hero == parse_name("B2") and len(board.forest) == 4
    view = GAME.view(state, None)
    assert view["towers"] == ["B2", "D2", "B4", "D4"] and view["arrows"] == {}
    assert view["capital"] == 3 and view["pool"]


def test_each_hero_picks_its_starting_tower() -> None:
    from rules.badbones.actions import Start
    from rules.badbones.state import START

    state = GAME.new_game(2, COOP, 2)
    assert state.stage == START and sorted(GAME.pending(state)) == [0, 1]
    assert GAME.pending(state)[0].default == Start("B2")
    assert set(GAME.legal_actions(state, 0)) == {Start(sq) for sq in ("B2", "D2", "B4", "D4")}
    assert refused(state, 0, Start("C3")) == "badbones.error.start_on_tower"
    assert refused(state, 0, Move("N")) == "badbones.error.not_now"
    state, _ = GAME.apply(state, 0, GAME.parse("start", {"square": "d4"}, state, 0))
    assert refused(state, 0, Start("B2")) == "badbones.error.already_started"
    state, events = GAME.apply(state, 1, Start("B4"))
    assert state.stage == HERO and "badbones.event.round" in keys(events)
    assert [b.hero for b in state.boards] == [parse_name("D4"), parse_name("B4")]


def test_cooperative_needs_two_players() -> None:
    with pytest.raises(RulesError) as err:
        GAME.new_game(1, COOP, 1)
    assert err.value.key == "badbones.error.cooperative_solo"


def test_the_top_edge_is_the_capital_and_the_bottom_a_forest() -> None:
    state = position("C1 N\nA5 S", "", stage=TRAP, options=COOP)
    state, events = trap_phase(state)
    assert state.capital == 1  # one of 2 houses burnt
    assert "badbones.event.capital" in keys(events)
    assert len(state.boards[1].forest) == 1 + 3  # through the bottom forest, then 3 new


def test_top_forest_skeletons_enter_from_the_bottom_moving_north() -> None:
    state = position("hero E1\nforest pink.top red.top", "", stage=TRAP, options=COOP)
    state, _ = trap_phase(state)
    assert where(state, 0) == {"A5": ["N"], "C5": ["N"]}


def test_a_tower_stops_one_skeleton_and_leaves_ruins_with_an_arrow_north() -> None:
    state = position("hero E5\nA2 E*2", "", stage=TRAP, options=COOP)
    state, events = trap_phase(state)
    board = state.boards[0]
    assert board.ruins == [parse_name("B2")] and board.floors == 3
    assert where(state, 0)["B2"] == ["N"]  # the second walked into the ruins and turned N
    assert "badbones.event.towers_hit" in keys(events)
    assert GAME.view(state, None)["boards"][0]["ruins"] == ["B2"]


def test_the_shared_supply_cannot_be_placed_twice_nor_what_was_just_retrieved() -> None:
    state = position("B1 wall/", "", stage=TRAP, options={**COOP, "pool": ["treasure"]})
    state, _ = GAME.apply(state, 0, Place("treasure", "E5"))
    assert refused(state, 1, Place("treasure", "E5")) == "badbones.error.trap_taken"
    state, _ = GAME.apply(state, 0, Retrieve("B1"))  # changes its mind: retrieves the wall
    assert refused(state, 1, Place("wall", "E5", "/")) == "badbones.error.trap_not_in_supply"
    state, _ = GAME.apply(state, 1, Place("treasure", "E5"))
    assert state.pool == ["wall"]  # back only after the phase


def test_losing_all_four_towers_loses_the_game() -> None:
    state = position("hero E5\nruins B2 D2 D4\nA4 E", "", stage=TRAP, options=COOP)
    state, events = trap_phase(state)
    assert state.stage == OVER and state.outcome == "lost"
    result = GAME.result(state)
    assert result is not None and result.winners == ()


def test_the_capital_falling_loses_the_game() -> None:
    state = position("C1 N", "", stage=TRAP, options={**COOP, "capital": 1})
    state, events = trap_phase(state)
    assert state.outcome == "lost" and "badbones.event.capital_fallen" in keys(events)


def test_surviving_ten_rounds_wins() -> None:
    state = position("", "", stage=TRAP, round=10, options=COOP)
    state, events = trap_phase(state)
    assert state.stage == OVER and state.outcome == "won"
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 1)
    assert "badbones.event.coop_won" in keys(events)


def test_cooperative_advanced_has_one_team_purse_and_no_turns() -> None:
    state = GAME.new_game(3, {**COOP, "advanced": True}, 5)
    assert state.market is not None and state.market["coins"] == [36]
    assert sorted(GAME.pending(state)) == [0, 1, 2]
    state, _ = GAME.apply(state, 2, _buy("dragon"))
    state, _ = GAME.apply(state, 0, _buy("crossbow"))
    assert state.market is not None and state.market["coins"] == [27]
    assert sorted(state.pool) == ["dragon", "treasure"] and state.boards[0].weapon == "crossbow"


def test_teleportation_wand_in_the_cooperative_game_goes_to_a_standing_tower() -> None:
    state = position(
        "weapon teleport\nhero A1\nA2 S*3\nruins B4", "", options={**COOP, "advanced": True}
    )
    state, _ = GAME.apply(state, 0, Move("S"))
    state, _ = GAME.apply(state, 1, Move("N"))
    targets = {a.target for a in GAME.legal_actions(state, 0) if isinstance(a, Weapon)}
    assert targets == {"B2", "D2", "D4"}


def _buy(item: str) -> Action:
    from rules.badbones.actions import Buy

    return Buy(item)


# ----------------------------------------------------------------------------- chiefs


def test_chiefs_are_in_the_bag_and_conserved() -> None:
    state = GAME.new_game(4, CHIEFS, 3)
    held = [t.chief for b in state.boards for t in b.forest if t.chief]
    assert sorted(state.chiefs + held) == list(range(1, 20))
    assert [chief_kind(c) for c in range(1, 20)].count("emperor") == 1
    assert all([chief_kind(c) for c in range(1, 20)].count(k) == 3 for k in CHIEF_KINDS[:6])


def test_chief_artificer_destroys_two_floors_or_houses() -> None:
    state = position("C2 S@artificer\nA5 S@artificer", "", stage=TRAP, options=CHIEFS)
    state, _ = trap_phase(state)
    assert state.boards[0].floors == 2 and state.boards[0].houses == 3


def test_nice_chief_rebuilds_only_what_was_destroyed() -> None:
    state = position("floors 3\nC2 S@nice\nA5 S@nice", "", stage=TRAP, options=CHIEFS)
    state, events = trap_phase(state)
    assert state.boards[0].floors == 4 and state.boards[0].houses == 5
    assert "badbones.event.floor_rebuilt" in keys(events)
    assert "badbones.event.house_rebuilt" not in keys(events)


def test_chief_necromancer_makes_its_drawer_draw_three_more() -> None:
    for seed in range(30):
        state = position("", options=CHIEFS)
        state.bag = [0] * 15
        state.bag[0] = 20
        state.chiefs = [4, 5, 6]  # the three necromancers
        state.rng = Rng(seed).state
        new_skeletons(state)
        forest = state.boards[0].forest
        necromancers = sum(1 for t in forest if t.kind == "necromancer")
        assert len(forest) == 3 + 3 * necromancers
        if necromancers:
            return
    raise AssertionError("no necromancer drawn in 30 seeds")


def test_chief_instructor_leads_its_square_as_one_unit() -> None:
    state = position("B1 E@instructor S*2", "", stage=TRAP, options=CHIEFS)
    state, _ = trap_phase(state)
    # All three move E with it into C1, whose arrow turns them S.
    assert where(state, 0)["C1"] == ["S", "S", "S"]


def test_two_instructors_on_a_square_ask_which_leads() -> None:
    state = position("B2 E@instructor N@instructor S", "", stage=TRAP, options=CHIEFS)
    state, _ = GAME.apply(state, 0, Nothing())
    state, _ = GAME.apply(state, 1, Nothing())
    assert state.stage == SKELETONS and state.questions[0]["choice"] == "instructor"
    assert GAME.pending(state)[0].kind == "choose_instructor"
    state, _ = GAME.apply(state, 0, Choose("N"))
    assert where(state, 0)["B1"] == ["N", "N", "N"]


def test_spectral_chief_comes_back_through_the_cemetery() -> None:
    state = position("C2 S@spectral", "", stage=TRAP, options=CHIEFS)
    state, _ = trap_phase(state)
    assert state.boards[0].floors == 3
    assert any(t.kind == "spectral" for t in state.boards[0].forest)
    state = position("B2 S@spectral", "", options=CHIEFS)
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, _ = GAME.apply(state, 1, Move("N"))
    assert any(t.kind == "spectral" for t in state.boards[0].cemetery)


def test_chief_saboteur_destroys_the_traps_it_triggers_even_indestructible_ones() -> None:
    state = position(
        "A1 E@saboteur\nB1 wall\\\nD1 S@saboteur\nD2 labyrinth:white",
        "",
        stage=TRAP,
        options=CHIEFS,
    )
    # The first saboteur bounces off B1's wall into B2; the second walks into the labyrinth.
    state, events = trap_phase(state)
    traps = state.boards[0].traps
    assert parse_name("B1") not in traps and parse_name("D2") not in traps
    assert keys(events).count("badbones.event.trap_sabotaged") == 2
    assert not any(s.token.kind == "saboteur" for s in state.boards[0].skeletons)
    assert {16, 17} <= set(state.chiefs)  # both saboteurs went back to the bag


def test_chief_saboteur_leaves_the_blast_area() -> None:
    state = position("B1 S@saboteur\nB2 bomb", "", stage=TRAP, options=CHIEFS)
    state, _ = trap_phase(state)
    assert state.boards[0].traps[parse_name("B2")] == Trap("bomb", 1, "")


def test_skeleton_emperor_on_the_tower_eliminates_its_player() -> None:
    state = position("C2 S@emperor", "", stage=TRAP, options=CHIEFS)
    state, events = trap_phase(state)
    assert state.stage == OVER and state.boards[0].lost
    assert state.scores[0] is None and "badbones.event.emperor" in keys(events)


def test_killing_the_emperor_removes_the_hero_too() -> None:
    state = position("B2 S@emperor", "", options=CHIEFS)
    state, _ = GAME.apply(state, 0, Move("NW"))
    state, events = GAME.apply(state, 1, Move("N"))
    assert state.boards[0].hero == -1 and len(state.removed) == 1
    assert "badbones.event.hero_died" in keys(events)
    state, _ = trap_phase(state)
    assert state.stage == HERO and list(GAME.pending(state)) == [1]
    assert refused(state, 0, Move("N")) == "badbones.error.no_hero"
    assert GAME.view(state, None)["boards"][0]["hero"] == ""


def test_chiefs_show_in_the_view() -> None:
    state = position("B2 S@emperor\nforest red.top", "", options=CHIEFS)
    view = GAME.view(state, None)
    assert view["boards"][0]["skeletons"][0]["chief"] == "emperor"
    assert view["boards"][0]["forest"][0]["chief"] == ""


def test_a_chief_waiting_in_the_forest_shows_its_own_symbol_and_forest() -> None:
    # The picture puts a waiting skeleton at its symbol's entry: a chief's must be its model's.
    state = position(
        "forest blue.left@saboteur red.right@necromancer green.top", "", options=CHIEFS
    )
    forest = GAME.view(state, None)["boards"][0]["forest"]
    shown = sorted((t["symbol"], t["forest"], t["chief"]) for t in forest)
    assert shown == [
        ("blue", "left", "saboteur"),
        ("green", "top", ""),
        ("red", "right", "necromancer"),
    ]


def test_emperor_reaching_the_capital_loses_the_cooperative_game() -> None:
    state = position("C1 N@emperor", "", stage=TRAP, options={**COOP, **CHIEFS})
    state, _ = trap_phase(state)
    assert state.outcome == "lost"
    assert state.stage == OVER and TRAP != state.stage


def test_the_shared_market_does_not_tell_everyone_it_is_their_turn() -> None:
    from i18n import t

    state = GAME.new_game(3, {"cooperative": True, "advanced": True}, 4)
    pending = GAME.pending(state)
    assert sorted(pending) == [0, 1, 2]
    assert {p.kind for p in pending.values()} == {"market_shared"}
    for lang in ("en", "es"):
        text = t("badbones.pending.market_shared", lang, **pending[0].args)
        assert "36" in text and "{" not in text
    solo_market = GAME.pending(GAME.new_game(2, {"advanced": True}, 4))
    assert {p.kind for p in solo_market.values()} == {"market"}


def test_a_rebuild_is_told_before_the_loss_whose_count_includes_it() -> None:
    from types import SimpleNamespace

    from rules.badbones.phases import board_events
    from rules.badbones.skeletons import Resolver

    board = SimpleNamespace(floors=1, houses=4)
    r = SimpleNamespace(
        landed=0,
        killed=0,
        weapon_events=[],
        decided=[],
        hero_died=False,
        sent={},
        lost=0,
        blown=0,
        floors_lost=2,
        floors_rebuilt=1,
        houses_lost=1,
        houses_rebuilt=1,
        emperor=False,
        changes=[],
        coop=False,
        board=board,
    )
    # r stands in for a Resolver: the counts board_events reads, nothing else.
    names = [e.key.split(".")[-1] for e in board_events(0, cast(Resolver, r))]
    assert names == ["floor_rebuilt", "tower_hit", "house_rebuilt", "houses_burnt"]


async def test_the_cooperative_lobby_asks_for_two_to_six_players(service: object) -> None:
    """Play-test: the cooperative lobby said "1–6 players", then refused to start alone. The
    lobby, the status and the start refusal follow the options: a team needs 2."""
    from bot.service import Service
    from tests.conftest import ALICE, BOB, HERE

    assert isinstance(service, Service)
    opened = await service.new_game(ALICE, HERE, "badbones", {"cooperative": True})
    assert "(2–6 players)" in str(opened.public[0].message.text)
    status = await service.status(ALICE, HERE)
    assert status.private is not None
    assert "waiting for players (1/6, at least 2)" in str(status.private.text)
    alone = await service.start(ALICE, HERE)
    assert not alone.ok and alone.private is not None
    assert "At least 2 players are needed to start (there are 1)." in str(alone.private.text)
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    competitive = GAME.seat_range(GAME.check_options({}, 6))
    assert competitive == (1, 6), "the ordinary game may still be played solo"
