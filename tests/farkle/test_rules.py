"""Dragon Farkle rules, each as the rulebook tells it: a position, an action, the outcome."""

from __future__ import annotations

from rules.farkle import GAME
from rules.farkle.actions import (
    AcceptFarkle,
    Brawl,
    Discard,
    Double,
    Draw,
    Enter,
    Fight,
    Keep,
    Recruit,
    Roll,
    Stop,
)
from tests.farkle.support import give, new, play, rig, stack

# ---------------------------------------------------------------- Recruit


def test_recruit_keep_roll_and_stop_banks_the_soldiers() -> None:
    s = new()
    rig(s, ([1, 5, 2, 3, 4, 6], "blank"), ([1, 2, 3, 4], "blank"))
    play(s, 0, Recruit())
    assert s.stage == "roll" and s.attack and s.attack.roll == [1, 5, 2, 3, 4, 6]
    play(s, 0, Keep("a1 b5"))
    assert s.attack.score == 150 and s.stage == "next"
    play(s, 0, Roll())
    assert len(s.attack.roll) == 4
    play(s, 0, Keep("a1"))
    play(s, 0, Stop())
    assert s.players[0].army == 250
    assert s.turn == 1 and s.stage == "choose"
    assert s.last["outcome"] == "banked" and s.last["amount"] == 250


def test_the_first_selection_need_not_be_the_best() -> None:
    s = new()
    rig(s, ([1, 1, 1, 5, 2, 3], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("d5"))
    assert s.attack and s.attack.score == 50 and len(s.attack.aside) == 1


def test_farkle_loses_the_turns_soldiers_and_items() -> None:
    s = new()
    stack(s, "potion")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    assert s.attack and s.attack.gained == ["potion"]
    play(s, 0, Roll())
    assert s.stage == "farkle"
    play(s, 0, AcceptFarkle())
    assert s.players[0].army == 0 and s.players[0].items == []
    assert "potion" in s.item_discard
    assert s.last["outcome"] == "farkle" and s.turn == 1


def test_hot_dice_roll_all_six_again() -> None:
    s = new()
    rig(s, ([1, 1, 1, 5, 5, 5], "blank"), ([2, 3, 4, 6, 6, 1], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1 b1 c1 d5 e5 f5"))
    assert s.attack and s.attack.score == 1500
    play(s, 0, Roll())
    assert len(s.attack.roll) == 6


def test_dragon_eats_every_scoring_die_of_the_roll() -> None:
    s = new()
    rig(s, ([1, 5, 2, 3, 4, 6], "blank"), ([1, 1, 1, 2, 3], "dragon"), ([3, 5], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Roll())
    assert s.stage == "dragon"
    play(s, 0, Roll())  # the three 1s are eaten; the 2 and the 3 are rolled again
    assert s.attack and s.attack.score == 100
    assert len(s.attack.roll) == 2


def test_dragon_on_a_farkle_lets_you_ignore_it_or_stop_banking() -> None:
    s = new()
    rig(s, ([1, 5, 2, 3, 4, 6], "blank"), ([2, 3, 4, 6], "dragon"), ([2, 3, 4, 1], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1 b5"))
    play(s, 0, Roll())
    assert s.stage == "dodge"
    play(s, 0, Roll())  # D5: the same four dice again
    assert s.attack and len(s.attack.roll) == 4 and s.stage == "roll"
    s2 = new()
    rig(s2, ([1, 5, 2, 3, 4, 6], "blank"), ([2, 3, 4, 6], "dragon"))
    play(s2, 0, Recruit())
    play(s2, 0, Keep("a1 b5"))
    play(s2, 0, Roll())
    play(s2, 0, Stop())
    assert s2.players[0].army == 150


def test_rally_doubles_the_dice_set_aside_from_that_roll() -> None:
    s = new()
    rig(s, ([1, 5, 2, 3, 4, 6], "blank"), ([1, 1, 1, 2, 3], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Roll())
    play(s, 0, Keep("a1 b1 c1"))
    assert s.stage == "rally"
    play(s, 0, Double())
    assert s.attack and s.attack.score == 100 + 2000
    play(s, 0, Stop())
    assert s.players[0].army == 2100


def test_rally_item_is_kept_when_the_turn_ends_well() -> None:
    s = new()
    stack(s, "potion")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    play(s, 0, Stop())
    assert s.players[0].items == ["potion"] and s.players[0].army == 100


# ---------------------------------------------------------------- Brawl


def _brawl(s, attack: list[tuple[list[int], str]], defence: list[tuple[list[int], str]]) -> None:
    rig(s, *attack, *defence)
    play(s, 0, Brawl(1))
    assert s.stage == "respond" and GAME.pending(s).keys() == {1}
    play(s, 1, Fight())


def test_brawl_winner_takes_the_difference_and_500() -> None:
    s = new(armies=[0, 2000, 0])
    _brawl(s, [([1, 1, 1, 2, 3, 4], "blank")], [([5, 2, 3, 4, 6], "blank")])
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    assert s.defence is not None and s.defence.dice == 5 and len(s.defence.roll) == 5
    assert set(GAME.pending(s)) == {1}
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())
    assert s.players[0].army == 950 + 500 and s.players[1].army == 2000 - 950
    assert s.turn == 1


def test_brawl_winner_takes_only_what_the_loser_has() -> None:
    s = new(armies=[0, 300, 0])
    _brawl(s, [([1, 1, 1, 2, 3, 4], "blank")], [([5, 2, 3, 4, 6], "blank")])
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())
    assert s.players[0].army == 300 + 500 and s.players[1].army == 0


def test_brawl_defender_can_win_and_attacker_farkle_scores_zero() -> None:
    s = new(armies=[1000, 0, 0])
    _brawl(s, [([2, 3, 4, 6, 6, 2], "blank")], [([5, 2, 3, 4, 6], "blank")])
    play(s, 0, AcceptFarkle())
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())
    assert s.players[1].army == 50 + 500 and s.players[0].army == 950


def test_brawl_tie_moves_nobody() -> None:
    s = new(armies=[1000, 1000, 0])
    _brawl(s, [([5, 2, 3, 4, 6, 6], "blank")], [([5, 2, 3, 4, 6], "blank")])
    play(s, 0, Keep("a5"))
    play(s, 0, Stop())
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())
    assert [p.army for p in s.players] == [1000, 1000, 0]
    assert s.last["outcome"] == "tie"


def test_brawl_loser_keeps_no_item_the_winner_keeps_one() -> None:
    s = new(armies=[0, 1000, 0])
    stack(s, "potion", "horn", "loaded")
    _brawl(s, [([1, 1, 1, 2, 3, 4], "rally"), ([1, 2, 3], "rally")], [([5, 2, 3, 4, 6], "rally")])
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Draw())
    play(s, 0, Roll())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    play(s, 0, Stop())
    play(s, 1, Keep("a5"))
    play(s, 1, Draw())
    play(s, 1, Stop())
    assert s.players[1].items == [] and "loaded" in s.item_discard
    assert s.stage == "discard" and set(GAME.pending(s)) == {0}
    assert sorted(GAME.legal_actions(s, 0), key=repr) == [Discard("horn"), Discard("potion")]


def test_defender_is_pending_with_a_deadline_and_a_default() -> None:
    s = new(armies=[0, 1000, 0], defend_time=60)
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"), ([5, 5, 2, 3, 4], "blank"))
    s2 = GAME.apply(s, 0, Brawl(1), now=500.0)[0]
    pend = GAME.pending(s2)[1]
    assert pend.kind == "respond" and pend.deadline == 560.0 and pend.default == Fight()


def test_defender_default_rolls_on_while_behind() -> None:
    s = new(armies=[0, 1000, 0])
    _brawl(s, [([1, 1, 1, 2, 3, 4], "blank")], [([5, 2, 3, 4, 6], "blank")])
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    default = GAME.pending(s)[1].default
    assert default == Keep("a5")
    play(s, 1, default)
    assert GAME.pending(s)[1].default == Roll()  # 50 against 1,000: roll on


# ---------------------------------------------------------------- the Dragon's Keep


def test_final_battle_damage_and_soldier_losses() -> None:
    s = new(armies=[5000, 0, 0])
    rig(s, ([1, 2, 3, 4, 6, 6], "dragon"), ([2, 3, 4, 6, 2], "rally"))
    play(s, 0, Enter())
    assert s.players[0].in_keep and s.damage == 1 and s.players[0].army == 4900
    assert s.stage == "battle"
    play(s, 0, Roll())
    assert s.damage == 3 and s.stage == "over" and s.winner == 0
    result = GAME.result(s)
    assert result is not None and result.winners == (0,)


def test_final_battle_farkle_ends_the_turn_inside_and_the_dragon_heals() -> None:
    s = new(armies=[5000, 0, 0])
    rig(s, ([1, 2, 3, 4, 6, 6], "dragon"), ([2, 3, 4, 6, 2], "blank"))
    play(s, 0, Enter())
    play(s, 0, Roll())
    assert s.turn == 1 and s.players[0].in_keep and s.damage == 0
    assert s.last["damage"] == 1
    s.players[0].army = 100
    s.turn, s.stage = 0, "choose"
    assert Enter() in GAME.legal_actions(s, 0)  # inside, under 5,000 is enough


def test_recruiting_leaves_the_keep() -> None:
    s = new(armies=[100, 0, 0])
    s.players[0].in_keep = True
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    assert not s.players[0].in_keep


def test_army_wiped_out_in_the_keep_is_reborn_with_a_new_companion() -> None:
    s = new(armies=[5000, 0, 0])
    s.players[0].companion = "berserker"
    s.companion_deck = ["medic"]
    s.players[0].items = ["potion"]
    s.item_deck.remove("potion")
    rig(
        s,
        ([1, 1, 1, 1, 1, 1], "blank"),
        ([1, 1, 1, 1, 1, 1], "blank"),
        ([1, 1, 1, 1, 1, 1], "blank"),
    )
    play(s, 0, Enter())
    play(s, 0, Roll())
    assert s.players[0].army == 0 and s.turn == 1 and s.last["outcome"] == "wiped"
    s.turn, s.stage = 2, "choose"
    play(s, 2, Recruit())  # seat 2 recruits; when seat 0's turn comes it is reborn
    s.stage = "next"
    rig(s)
    play(s, 2, Stop())
    assert s.turn == 0 and not s.players[0].in_keep
    assert s.players[0].companion == "medic" and "berserker" in s.companion_discard
    assert s.players[0].items == ["potion"]


def test_dragon_of_legend_needs_more_damage() -> None:
    s = new(armies=[5000, 0, 0], legend="4")
    rig(
        s,
        ([2, 3, 4, 6, 2, 3], "rally"),
        ([2, 3, 4, 6, 2, 3], "dragon"),
        ([2, 3, 4, 6, 2, 3], "dragon"),
    )
    play(s, 0, Enter())
    play(s, 0, Roll())
    assert s.damage == 3 and s.stage == "battle"
    play(s, 0, Roll())
    assert s.winner == 0


def test_keep_rolls_all_six_when_every_die_has_scored() -> None:
    s = new(armies=[9000, 0, 0])
    rig(s, ([1, 5, 1, 5, 1, 5], "dragon"), ([2, 3, 4, 6, 2, 3], "dragon"))
    play(s, 0, Enter())
    play(s, 0, Roll())
    assert s.attack and len(s.attack.roll) == 6


# ---------------------------------------------------------------- one item (D10)


def test_one_item_at_the_end_of_a_turn_and_the_bag_of_holding() -> None:
    s = new()
    give(s, 0, "potion")
    stack(s, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    play(s, 0, Stop())
    assert s.stage == "discard"
    assert GAME.pending(s)[0].kind == "discard"
    from rules.farkle.actions import Discard

    play(s, 0, Discard("potion"))
    assert s.players[0].items == ["horn"] and s.turn == 1

    s = new()
    give(s, 0, "bag", "potion")
    stack(s, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    play(s, 0, Stop())
    assert s.turn == 1 and sorted(s.players[0].items) == ["bag", "horn", "potion"]


def test_cursed_items_take_effect_when_drawn() -> None:
    s = new(armies=[1000, 0, 0])
    give(s, 0, "potion")
    stack(s, "amulet", "mimic")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 1, 6], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    assert s.players[0].army == 750 and "amulet" in s.item_discard
    play(s, 0, Roll())
    play(s, 0, Keep("d1"))
    play(s, 0, Draw())
    assert s.players[0].items == [] and "potion" in s.item_discard and "mimic" in s.item_discard


def test_brawl_tie_each_side_keeps_one_item_it_drew() -> None:
    s = new(armies=[1000, 1000, 0])
    stack(s, "potion", "horn", "loaded")
    _brawl(
        s,
        [([5, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 1], "rally")],
        [([1, 2, 3, 4, 6], "rally"), ([5, 2, 3, 4], "blank")],
    )
    play(s, 0, Keep("a5"))
    play(s, 0, Draw())
    play(s, 0, Roll())
    play(s, 0, Keep("e1"))
    play(s, 0, Draw())
    play(s, 0, Stop())  # attack 150, two items drawn
    play(s, 1, Keep("a1"))
    play(s, 1, Draw())
    play(s, 1, Roll())
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())  # defence 150: a tie (D6)
    assert s.last["outcome"] == "tie" and [p.army for p in s.players] == [1000, 1000, 0]
    assert s.players[1].items == ["loaded"]
    assert s.stage == "discard" and set(GAME.pending(s)) == {0}
    from rules.farkle.actions import Discard

    play(s, 0, Discard("horn"))
    assert s.players[0].items == ["potion"] and s.turn == 1


def test_defender_default_stops_when_ahead() -> None:
    s = new(armies=[0, 1000, 0])
    _brawl(s, [([5, 2, 3, 4, 6, 6], "blank")], [([1, 2, 3, 4, 6], "blank")])
    play(s, 0, Keep("a5"))
    play(s, 0, Stop())
    play(s, 1, Keep("a1"))
    assert GAME.pending(s)[1].default == Stop()  # 100 against 50


def test_absent_wannabe_with_5000_enters_the_keep() -> None:
    s = new(armies=[5000, 0, 0])
    assert GAME.pending(s)[0].default == Enter()
    s2 = new(armies=[4950, 0, 0])
    assert GAME.pending(s2)[0].default == Recruit()
