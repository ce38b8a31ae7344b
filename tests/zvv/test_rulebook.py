"""Zombies vs Vampires, rule by rule: set up a position, act, check what the rulebook says."""

from __future__ import annotations

import pytest

from i18n import t
from rules.core import Action, RulesError, get_game
from rules.zvv import GAME
from rules.zvv.actions import Build, Move, Pass, Remove, Reroll, Roll, Stop
from rules.zvv.board import board
from rules.zvv.notation import diagram, position
from rules.zvv.state import ZvvState
from rules.zvv.walls import legal_walls
from rules.zvv.winning import is_locked


def dests(state: ZvvState, pawn: str) -> set[str]:
    return {
        m.to
        for m in GAME.legal_actions(state, state.turn)
        if isinstance(m, Move) and m.pawn == pawn
    }


def act(state: ZvvState, action: Action) -> tuple[ZvvState, list[str]]:
    new, events = GAME.apply(state, state.turn, action)
    return new, [e.key.rsplit(".", 1)[1] for e in events]


def roll_until(state: ZvvState, face: str) -> tuple[ZvvState, list[str]]:
    """Roll with successive seeds until the action die shows ``face`` (dice stay honest)."""
    for seed in range(500):
        state.rng = seed
        new, keys = act(state, Roll())
        if new.face == face:
            return new, keys
    raise AssertionError(face)


# Vampires out of the way of the zombies' target zone (and of most tests).
AWAY = ["A6", "A7", "A8", "B6", "B7", "B8", "C6", "C7", "C8"]

# ------------------------------------------------------------------ set-up


def test_registered_and_set_up_like_the_rulebook() -> None:
    assert get_game("zvv") is GAME
    state = GAME.new_game(2, {}, seed=3)
    b = board(11)
    assert state.size == 11 and state.phase == "roll"
    # Zombies start top left and race to bottom right; vampires the other way (D1).
    assert {b.names[s] for s in state.pawns[0]} == {f"{c}{r}" for c in "ABC" for r in (1, 2, 3)}
    assert {b.names[s] for s in state.pawns[1]} == {f"{c}{r}" for c in "IJK" for r in (9, 10, 11)}
    assert state.walls == [] and state.supply == [8, 8, 8]
    four = GAME.new_game(4, {}, seed=3)
    corners = [{b.names[s] for s in four.pawns[seat]} for seat in (2, 3)]
    assert "K1" in corners[0] and "A11" in corners[1]
    firsts = {GAME.new_game(3, {}, seed=s).turn for s in range(30)}
    assert firsts == {0, 1, 2}, "the first player is chosen at random"


def test_board_size_is_an_odd_option_from_9_to_15() -> None:
    assert GAME.new_game(2, {"size": 9}, 1).size == 9
    assert GAME.new_game(2, {"size": 15}, 1).size == 15
    for bad in (10, 7, 17):
        with pytest.raises(RulesError) as err:
            GAME.new_game(2, {"size": bad}, 1)
        assert err.value.key == "core.error.bad_option"
    with pytest.raises(RulesError):
        GAME.new_game(5, {}, 1)


# ------------------------------------------------------------------ movement


def test_a_pawn_moves_up_to_the_roll_orthogonally() -> None:
    state = position(pawns={0: ["F6"]}, face="2")
    assert dests(state, "F6") == {
        "F4", "E5", "F5", "G5", "D6", "E6", "G6", "H6", "E7", "F7", "G7", "F8",
    }  # fmt: skip
    assert "G7" in dests(state, "F6") and "E4" not in dests(state, "F6")  # no diagonal step
    four = position(pawns={0: ["F6"]}, face="4")
    assert len(dests(four, "F6")) == 4 + 8 + 12 + 16  # the diamond of radius 4


def test_stopping_early_is_allowed_and_the_move_is_recorded() -> None:
    state = position(pawns={0: ["F6"]}, face="6")
    new, keys = act(state, Move("F6", "F7"))
    assert keys[0] == "moved_one" and "F7" in GAME.view(new, None)["pawns"][0]
    assert new.last[0]["path"] == ["F6", "F7"] and new.turn == 1 and new.phase == "roll"


def test_jump_over_any_pawn_onto_the_empty_square_beyond() -> None:
    state = position(pawns={0: ["F6", "F7"], 1: ["G6"]}, face="2")
    reach = dests(state, "F6")
    assert "F8" in reach, "over its own pawn"
    assert "H6" in reach, "over an opponent's pawn"
    assert "F7" not in reach and "G6" not in reach, "never onto a pawn"
    new, _ = act(state, Move("F6", "H6"))
    assert new.last[0]["path"] == ["F6", "H6"], "a jump is one step"


def test_no_jump_over_two_pawns_or_onto_a_pawn() -> None:
    state = position(pawns={0: ["F6"], 1: ["G6", "H6"]}, face="2")
    assert not {"H6", "I6"} & dests(state, "F6")


def test_jumps_chain_with_steps() -> None:
    state = position(pawns={0: ["F6"], 1: ["G6", "I6"]}, face="2")
    assert "J6" in dests(state, "F6"), "jump to H6, then jump over I6"
    assert "K6" not in dests(state, "F6"), "two jumps and a step are three steps"


def test_walls_block_steps_and_jumps() -> None:
    state = position(pawns={0: ["F6"], 1: ["F7"]}, walls=["G6 W", "F5 S"], face="2")
    reach = dests(state, "F6")
    assert "G6" not in reach, "a wall between F6 and G6"
    assert "F5" not in reach and "F4" not in reach, "a wall between F5 and F6"
    assert "F8" in reach
    beyond = position(pawns={0: ["F6"], 1: ["F7"]}, walls=["F8 N"], face="2")
    assert "F8" not in dests(beyond, "F6"), "no jump over a wall behind the pawn"
    before = position(pawns={0: ["F6"], 1: ["F7"]}, walls=["F7 N"], face="2")
    assert "F8" not in dests(before, "F6"), "no jump over a wall in front of the pawn"


def test_the_moving_pawn_leaves_its_square() -> None:
    # Its own square is empty while it moves: never a destination, never a pawn to jump over
    # (the exact search is checked against plain enumeration in test_properties). Boxed in by
    # walls on E5's and E6's sides, it can only go between E5 and E6 and out by the north.
    state = position(size=9, pawns={0: ["E5"], 1: ["E7"]}, face="4")
    reach = dests(state, "E5")
    assert "E5" not in reach
    assert "E8" in reach  # E6, jump over E7
    walled = position(size=9, pawns={0: ["E5"]}, walls=["E5-E6 W", "E5-E6 E", "E6 S"], face="4")
    assert {"E6"} <= dests(walled, "E5") and "E7" not in dests(walled, "E5")


def test_arrival_stays_in_the_zone_and_home_pawns_never_move() -> None:
    # I9..K11 is the zombies' target (the vampires have left it). A pawn entering may go on
    # inside the zone (D8) …
    state = position(pawns={0: ["H11"], 1: AWAY}, face="4")
    reach = dests(state, "H11")
    assert {"I11", "J11", "K11", "K10", "J10", "I10", "I9", "H8"} <= reach
    assert "K9" not in reach, "5 steps away"
    # … but never out again: walled off from H9 and the G column, the only way to H9 goes
    # through the zone (H10, I10, I9, H9), so it is out of reach; I9 is not.
    walled = position(pawns={0: ["H11"], 1: AWAY}, walls=["H10 N", "G10-G11 E"], face="4")
    assert "H9" not in dests(walled, "H11") and "I9" in dests(walled, "H11")
    new, keys = act(state, Move("H11", "K11"))
    assert keys[:2] == ["moved", "arrived"] and GAME.view(new, None)["home"][0] == 1
    assert new.last[0]["path"] == ["H11", "I11", "J11", "K11"]
    new.turn, new.face, new.phase = 0, "6", "move"
    with pytest.raises(RulesError) as err:
        GAME.apply(new, 0, Move("K11", "K8"))
    assert err.value.key == "zvv.error.pawn_home"


def test_the_last_pawn_home_wins_at_once() -> None:
    home = ["I9", "I10", "I11", "J9", "J10", "J11", "K10", "K11"]
    state = position(pawns={0: home + ["K8"], 1: AWAY}, face="2")
    new, keys = act(state, Move("K8", "K9"))
    assert keys[-1] == "won" and GAME.is_over(new)
    result = GAME.result(new)
    assert result is not None and result.winners == (0,) and result.scores[0] == 9
    assert GAME.pending(new) == {} and GAME.legal_actions(new, 1) == []


# ------------------------------------------------------------------ the 2* face


def test_two_star_splits_two_steps_between_two_pawns() -> None:
    state = position(pawns={0: ["F6", "D5"]}, face="split")
    assert state.phase == "split" and "F8" in dests(state, "F6")
    one, _ = act(state, Move("F6", "F7"))
    assert one.phase == "split_more" and one.turn == 0
    assert "F7" not in {m.pawn for m in GAME.legal_actions(one, 0) if isinstance(m, Move)}
    assert dests(one, "D5") == {"D4", "C5", "E5", "D6"}, "one step left"
    with pytest.raises(RulesError) as err:
        GAME.apply(one, 0, Move("F7", "F8"))
    assert err.value.key == "zvv.error.same_pawn"
    with pytest.raises(RulesError) as err:
        GAME.apply(one, 0, Move("D5", "D7"))
    assert err.value.key == "zvv.error.out_of_reach"
    two, _ = act(one, Move("D5", "D6"))
    assert two.turn == 1 and two.phase == "roll"
    assert [e["path"] for e in two.last] == [["F6", "F7"], ["D5", "D6"]]
    stopped, keys = act(one, Stop())
    assert keys[0] == "stopped" and stopped.turn == 1


def test_two_steps_with_one_pawn_end_the_2star_turn() -> None:
    state = position(pawns={0: ["F6"]}, face="split")
    new, _ = act(state, Move("F6", "F8"))
    assert new.turn == 1


def test_two_star_plain_option_is_a_simple_two() -> None:
    state = position(pawns={0: ["F6"]}, options={"two_star": "plain"})
    new, _ = roll_until(state, "split")
    assert new.phase == "move" and "F8" in dests(new, "F6")
    after, _ = act(new, Move("F6", "F7"))
    assert after.turn == 1


# ------------------------------------------------------------------ walls


def test_build_rolls_the_wall_die_at_once() -> None:
    state = position()
    new, keys = roll_until(state, "build")
    assert keys[:2] == ["rolled", "wall_die"] and new.phase == "build"
    assert new.wall_len in (1, 2, 3)
    wall = legal_walls(new)[0]
    name = board(11).wall_name(wall)
    after, keys = act(new, Build(name))
    assert keys[0] == "built" and after.supply[new.wall_len - 1] == 7


def test_walls_may_run_along_a_zone_border_but_not_inside() -> None:
    state = position(face="build", wall_len=3)
    for ok in ["A4-C4 N", "D1-D3 W", "D2-D4 W", "I4-K4 N"]:
        GAME.apply(state, 0, Build(ok))
    for bad in ["B3-B5 E", "A3-C3 N", "J9-J11 W"]:
        with pytest.raises(RulesError) as err:
            GAME.apply(state, 0, Build(bad))
        assert err.value.key == "zvv.error.wall_in_zone", bad


def test_walls_may_not_overlap_or_cross_but_may_touch() -> None:
    state = position(walls=["D5-F5 N"], face="build", wall_len=2)
    for bad, key in [
        ("E4-E5 W", "zvv.error.wall_cross"),
        ("F5-G5 N", "zvv.error.wall_overlap"),
        ("E4 S-F4 S", "zvv.error.bad_wall"),
    ]:
        with pytest.raises(RulesError) as err:
            GAME.apply(state, 0, Build(bad))
        assert err.value.key == key, bad
    GAME.apply(state, 0, Build("E5-E6 W"))  # a T against the middle of the wall
    GAME.apply(state, 0, Build("G5-H5 N"))  # end to end
    GAME.apply(state, 0, Build("D4-D5 W"))  # a corner at the end


def test_walls_off_the_board_and_of_the_wrong_length() -> None:
    state = position(face="build", wall_len=1)
    for bad in ["E1 N", "K6 E", "A6 W", "E11 S", "L3 N", "E12 N"]:
        with pytest.raises(RulesError) as err:
            GAME.apply(state, 0, Build(bad))
        assert err.value.key == "zvv.error.wall_off_board", bad
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, Build("E5-F5 N"))
    assert err.value.key == "zvv.error.wall_length"


def test_trapping_a_pawn_is_allowed() -> None:
    state = position(pawns={1: ["F6"]}, walls=["F6 N", "F6 E", "F6 W"], face="build", wall_len=1)
    trapped, _ = act(state, Build("F7 N"))  # the south side of F6
    trapped.turn, trapped.face, trapped.phase = 1, "6", "move"
    assert dests(trapped, "F6") == set()


def test_an_empty_supply_means_no_wall_and_says_so() -> None:
    # with the supply empty the bot said "no legal place for a wall", on a board
    # with room everywhere; the reason is the supply, and the pass is still to be pressed.
    state = position(options={"walls": 0})
    new, keys = roll_until(state, "build")
    assert keys[-1] == "no_supply" and new.phase == "pass"
    text = t("zvv.event.no_supply", "en", seat="alice", length=new.wall_len)
    assert "supply" in text and "must pass" in text
    assert GAME.legal_actions(new, 0) == [Pass()]
    after, keys = act(new, Pass())
    assert keys[0] == "passed" and after.turn == 1 and after.walls == []


def test_the_supply_is_shared_by_length() -> None:
    state = position(options={"walls": 1}, walls=["E5 N"], face="build", wall_len=1)
    assert state.supply == [0, 1, 1]
    assert legal_walls(state) == []
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, Build("G5 N"))
    assert err.value.key == "zvv.error.no_supply"


def test_plus_minus_removes_a_wall_or_builds() -> None:
    state = position(walls=["D5-F5 N", "H3 W"], face="plusminus")
    legal = GAME.legal_actions(state, 0)
    assert Remove("D5-F5 N") in legal and Remove("H3 W") in legal and Roll() in legal
    removed, keys = act(state, Remove("D5-F5 N"))
    assert keys[0] == "removed" and removed.walls == [("v", 7, 2, 1)] and removed.supply[2] == 8
    built, keys = act(state, Roll())
    assert keys[0] == "wall_die" and built.phase == "build"


def test_plus_minus_with_no_wall_on_the_board_builds() -> None:
    new, keys = roll_until(position(), "plusminus")
    assert keys[:2] == ["rolled", "wall_die"] and new.phase == "build"


# ------------------------------------------------------------------ passing (D4)


def test_a_player_with_no_possible_move_passes() -> None:
    # Every zombie boxed in its corner: a wall all along the zone's border.
    state = position(walls=["A4-C4 N", "D1-D3 W"])
    new, keys = roll_until(state, "4")
    assert keys[-1] == "no_move" and GAME.legal_actions(new, 0) == [Pass()]
    assert GAME.pending(new)[0].default == Pass()
    with pytest.raises(RulesError) as err:
        GAME.apply(position(face="4"), 0, Pass())
    assert err.value.key == "zvv.error.cannot_pass"


# ------------------------------------------------------------------ endings (D7, round limit)


def test_a_target_square_shut_in_by_home_pawns_locks_the_seat() -> None:
    # K11 is behind J11 and K10 (home) and I11 / K9 (home): no step or jump can land on it.
    home = ["I11", "J11", "K10", "K9", "J10"]
    state = position(pawns={0: home + ["H5", "H6", "H7", "H8"], 1: AWAY})
    assert is_locked(state, 0)
    assert not is_locked(position(pawns={0: ["I11", "J11", "K10", "H5"], 1: AWAY}), 0)


def test_a_pawn_walled_in_by_home_pawns_locks_both_seats() -> None:
    # A vampire left behind on K11, shut in by four zombies home around it: it can never move
    # (so the vampires can never finish), and it holds a square the zombies need.
    zombies = ["J11", "K10", "I11", "K9", "E5", "E6", "E7", "E8", "E9"]
    vampires = ["K11", "A6", "A7", "A8", "B6", "B7", "B8", "C6", "C7"]
    state = position(pawns={0: zombies, 1: vampires})
    assert is_locked(state, 0) and is_locked(state, 1)
    free = position(pawns={0: zombies[1:], 1: vampires})  # J11 still open: it can leave
    assert not is_locked(free, 1)


def test_the_game_ends_when_every_seat_is_locked() -> None:
    # The vampires shut A1 in already; the zombies shut K11 in with this very move.
    zombies = ["J11", "K10", "K9", "H11", "H5", "H6", "H7", "H8", "E9"]
    vampires = ["A2", "B1", "C1", "A3", "B2", "E5", "E6", "E7", "E8"]
    state = position(pawns={0: zombies, 1: vampires}, face="2")
    assert is_locked(state, 1) and not is_locked(state, 0)
    state.locked = [1]
    new, keys = act(state, Move("H11", "I11"))
    assert "locked" in keys and GAME.is_over(new) and new.ended_by == "locked"
    result = GAME.result(new)
    assert result is not None and result.winners == (1,), "5 pawns home against 4"


def test_the_round_limit_ends_the_game_on_pawns_home() -> None:
    state = position(pawns={1: ["A1", "E5"]}, options={"round_limit": 1}, face="6")
    state, _ = act(state, Move("C3", "D3"))
    state, _ = roll_until(state, "4") if state.phase == "roll" else (state, [])
    legal = GAME.legal_actions(state, 1)
    state, keys = act(state, legal[0])
    assert GAME.is_over(state) and keys[-1] == "round_limit"
    assert state.last, "the last turn stays for the final picture"
    result = GAME.result(state)
    assert result is not None and result.winners == (1,)


# ------------------------------------------------------------------ the house rule (D5)


def test_house_reroll_once_a_turn_after_a_pawn_is_home() -> None:
    opts = {"extra_roll": "reroll"}
    assert Reroll() not in GAME.legal_actions(position(options=opts, face="4"), 0)
    state = position(pawns={0: ["K11"]}, options=opts, face="4")
    assert Reroll() in GAME.legal_actions(state, 0)
    again, keys = act(state, Reroll())
    assert keys[0] == "rerolled" and Reroll() not in GAME.legal_actions(again, 0)
    off = position(pawns={0: ["K11"]}, face="4")
    assert Reroll() not in GAME.legal_actions(off, 0), "off by default"


def test_house_bonus_roll_after_the_action() -> None:
    state = position(pawns={0: ["K11", "F6"]}, options={"extra_roll": "bonus"}, face="2")
    new, keys = act(state, Move("F6", "F7"))
    assert keys[-1] == "bonus" and new.turn == 0 and new.phase == "roll"
    new.face, new.phase = "2", "move"
    done, _ = act(new, Move("F7", "F8"))
    assert done.turn == 1


def test_diagram_shows_pawns_and_walls() -> None:
    text = diagram(position(size=9, pawns={0: ["E5"]}, walls=["E5 W", "E5 S"]))
    assert "|Z" in text and "_" in text


def test_the_end_is_narrated_once() -> None:
    # "dave has all nine pawns home and wins!" appeared twice in the channel, once
    # from the last move's events and once from the result's summary printed after them.
    home = ["I9", "I10", "I11", "J9", "J10", "J11", "K10", "K11"]
    state = position(pawns={0: home + ["K8"], 1: AWAY}, face="2")
    new, keys = act(state, Move("K8", "K9"))
    assert keys.count("won") == 1
    result = GAME.result(new)
    assert result is not None and result.summary is None


def test_messages_read_well_for_one_step_and_the_2_star_face() -> None:
    # "(1 steps)" / "(1 pasos)", and "**2***" which Discord's markdown garbles.

    for lang in ("en", "es"):
        one = t("zvv.event.moved_one", lang, seat="Ana", **{"from": "A1", "to": "A2"})
        assert "1 step)" in one or "1 paso)" in one
        rolled = t("zvv.event.rolled", lang, seat="Ana", face="2*")
        assert "**" not in rolled
