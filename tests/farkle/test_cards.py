"""The ten companions and the twelve kinds of magic item (house texts), one test each."""

from __future__ import annotations

from rules.farkle import GAME
from rules.farkle.actions import (
    AcceptFarkle,
    Bonus,
    Brawl,
    Draw,
    Enter,
    Fight,
    Keep,
    Recruit,
    Reroll,
    Roll,
    Scare,
    Stop,
    UseCompanion,
    UseItem,
)
from tests.farkle.support import give, new, play, rig, stack

# ---------------------------------------------------------------- companions


def test_skree_scares_once_per_game_even_into_the_keep() -> None:
    s = new(armies=[0, 1000, 0])
    s.players[0].companion = "skree"
    s.players[1].in_keep = True
    assert Scare(1) in GAME.legal_actions(s, 0)
    play(s, 0, Scare(1))
    assert s.players[1].army == 700 and s.players[0].skree_used
    assert Scare(2) not in GAME.legal_actions(s, 0)


def test_dragon_whisperer_halves_what_the_dragon_eats() -> None:
    s = new()
    s.players[0].companion = "whisperer"
    rig(s, ([1, 1, 1, 2, 3, 4], "dragon"))
    play(s, 0, Recruit())
    play(s, 0, Stop())
    assert s.players[0].army == 500


def test_bodyguard_defends_with_six_dice() -> None:
    s = new(armies=[0, 100, 0])
    s.players[1].companion = "bodyguard"
    rig(s, ([2, 3, 4, 6, 6, 2], "blank"), ([5, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Brawl(1))
    play(s, 1, Fight())
    play(s, 0, AcceptFarkle())
    assert s.defence and s.defence.dice == 6 and len(s.defence.roll) == 6


def test_pickpocket_takes_the_losers_item_instead_of_the_bonus() -> None:
    s = new(armies=[0, 1000, 0])
    s.players[0].companion = "pickpocket"
    give(s, 1, "horn")
    rig(s, ([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3, 4, 6], "blank"), 0)
    play(s, 0, Brawl(1))
    play(s, 1, Fight())
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())
    assert s.stage == "pickpocket" and set(GAME.legal_actions(s, 0)) == {UseCompanion(), Bonus()}
    events = play(s, 0, UseCompanion())
    assert s.players[0].items == ["horn"] and s.players[0].army == 950
    assert all("item_key" not in e.args for e in events if e.to is None)


def test_lucky_squire_rerolls_one_die_once_per_turn() -> None:
    s = new()
    s.players[0].companion = "squire"
    rig(s, ([2, 3, 4, 6, 6, 2], "blank"), 1)
    play(s, 0, Recruit())
    assert s.stage == "farkle"
    play(s, 0, Reroll("a2"))
    assert s.attack and s.attack.roll[0] == 1 and s.stage == "roll"
    assert not any(isinstance(a, Reroll) for a in GAME.legal_actions(s, 0))


def test_berserker_gains_250_on_hot_dice_while_recruiting() -> None:
    s = new()
    s.players[0].companion = "berserker"
    rig(s, ([1, 1, 1, 5, 5, 5], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1 b1 c1 d5 e5 f5"))
    play(s, 0, Stop())
    assert s.players[0].army == 1500 + 250


def test_quartermaster_adds_100_to_a_recruit_of_1000() -> None:
    s = new()
    s.players[0].companion = "quartermaster"
    rig(s, ([1, 1, 1, 2, 3, 4], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    assert s.players[0].army == 1100


def test_treasure_hunter_draws_at_the_start_of_the_turn_when_empty_handed() -> None:
    s = new()
    s.players[1].companion = "hunter"
    stack(s, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Stop())
    assert s.turn == 1 and s.players[1].items == ["horn"]


def test_siege_engineer_rerolls_the_event_die_in_the_keep() -> None:
    s = new(armies=[5000, 0, 0])
    s.players[0].companion = "engineer"
    rig(s, ([2, 3, 4, 6, 2, 3], "blank"), 1)
    play(s, 0, Enter())
    assert s.stage == "review" and s.damage == 0
    play(s, 0, UseCompanion())
    assert s.damage == 2 and s.stage == "battle" and s.engineer_used


def test_field_medic_discards_an_item_to_keep_the_soldiers() -> None:
    s = new()
    s.players[0].companion = "medic"
    give(s, 0, "horn")
    rig(s, ([1, 1, 1, 2, 3, 4], "blank"), ([2, 3, 4], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Roll())
    play(s, 0, UseCompanion())
    assert s.players[0].army == 1000 and s.players[0].items == []


# ---------------------------------------------------------------- items


def _recruit_with(
    item: str, roll: list[int], event: str = "blank", *more: tuple[list[int], str | None] | int
):
    s = new(armies=[1000, 1000, 0])
    give(s, 0, item)
    rig(s, (roll, event), *more)
    play(s, 0, Recruit())
    return s


def test_potion_of_courage_rerolls_the_whole_roll() -> None:
    s = _recruit_with("potion", [2, 3, 4, 6, 6, 2], "blank", ([1, 1, 1, 2, 3, 4], None))
    assert s.stage == "farkle"
    play(s, 0, UseItem("potion"))
    assert s.attack and s.attack.roll == [1, 1, 1, 2, 3, 4] and s.stage == "roll"
    assert "potion" in s.item_discard and s.players[0].items == []


def test_dragon_repellent_ignores_the_dragon() -> None:
    s = _recruit_with("repellent", [1, 1, 1, 2, 3, 4], "dragon")
    play(s, 0, UseItem("repellent"))
    assert s.stage == "roll" and s.attack and s.attack.event == "blank"


def test_war_horn_makes_a_rally() -> None:
    s = _recruit_with("horn", [1, 2, 3, 4, 6, 6], "blank")
    play(s, 0, UseItem("horn"))
    play(s, 0, Keep("a1"))
    assert s.stage == "rally"


def test_loaded_die_turns_a_die_into_a_five() -> None:
    s = _recruit_with("loaded", [2, 3, 4, 6, 6, 2], "blank")
    play(s, 0, UseItem("loaded", "c4"))
    assert s.attack and s.attack.roll[2] == 5 and s.stage == "roll"


def test_tower_shield_halves_a_defenders_loss() -> None:
    s = new(armies=[0, 2000, 0])
    give(s, 1, "shield")
    rig(s, ([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3, 4, 6], "blank"))
    play(s, 0, Brawl(1))
    play(s, 1, Fight())
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    play(s, 1, Keep("a5"))
    play(s, 1, Stop())
    assert s.players[1].army == 2000 - 450  # half of 950, down to 50
    assert s.players[0].army == 450 + 500 and "shield" in s.item_discard


def test_recruiting_poster_adds_500_to_a_recruit() -> None:
    s = _recruit_with("poster", [1, 2, 3, 4, 6, 6])
    play(s, 0, Keep("a1"))
    play(s, 0, Stop())
    assert s.players[0].army == 1000 + 100 + 500


def test_dragonbane_arrow_deals_one_more_damage() -> None:
    s = new(armies=[5000, 0, 0])
    give(s, 0, "arrow")
    rig(s, ([2, 3, 4, 6, 2, 3], "rally"))
    play(s, 0, Enter())
    assert s.damage == 2
    play(s, 0, UseItem("arrow"))
    assert s.winner == 0


def test_cloak_of_invisibility_cancels_a_brawl() -> None:
    s = new(armies=[0, 1000, 0])
    give(s, 1, "cloak")
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Brawl(1))
    assert UseItem("cloak") in GAME.legal_actions(s, 1)
    play(s, 1, UseItem("cloak"))
    assert s.action == "recruit" and s.stage == "roll" and s.defender == -1


def test_healing_draught_keeps_half_after_a_farkle() -> None:
    s = _recruit_with("draught", [1, 1, 1, 5, 2, 3], "blank", ([2, 3, 4, 6, 2], "blank"))
    play(s, 0, Keep("a1 b1 c1 d5"))
    s.attack.aside = s.attack.aside[:1]  # five dice left to roll
    s.attack.score = 1050
    play(s, 0, Roll())
    assert s.stage == "farkle"
    play(s, 0, UseItem("draught"))
    assert s.players[0].army == 1000 + 500


def test_bag_of_holding_cannot_be_played() -> None:
    s = _recruit_with("bag", [1, 2, 3, 4, 6, 6])
    assert not any(isinstance(a, UseItem) for a in GAME.legal_actions(s, 0))


def test_draw_puts_the_item_face_down_until_the_turn_ends() -> None:
    s = new()
    stack(s, "potion")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    events = play(s, 0, Draw())
    assert s.players[0].items == [] and s.attack and s.attack.gained == ["potion"]
    private = [e for e in events if e.to == 0]
    assert private and private[0].args["item_key"] == "farkle.item.potion"
    assert GAME.view(s, None)["attack"]["gained"] == 1
    assert GAME.view(s, 0)["my_gained"] == ["potion"]
    assert not any(isinstance(a, UseItem) for a in GAME.legal_actions(s, 0))
    play(s, 0, Roll())
    assert s.stage == "farkle"
    play(s, 0, AcceptFarkle())


# ---------------------------------------------------------------- what a Farkle offers


def _farkle_prompt(s, lang: str = "en") -> str:
    from bot.service.compose import pending_text
    from bot.service.text import Name

    assert s.stage == "farkle"
    [(seat, item)] = GAME.pending(s).items()
    names = [Name(n) for n in ("Ana", "Bo", "Cy")]
    return str(pending_text("farkle", item, names, lang))


def test_a_farkle_nothing_can_rescue_offers_only_to_accept_it() -> None:
    s = new()
    s.players[0].companion = "skree"  # Skree cannot rescue a Farkle
    rig(s, ([2, 3, 4, 6, 6, 2], "blank"))
    play(s, 0, Recruit())
    assert _farkle_prompt(s) == "Farkle! Accept it"
    assert _farkle_prompt(s, "es") == "¡Farkle! Acéptalo"


def test_a_farkle_offers_the_field_medic_and_the_item_that_can_rescue_it() -> None:
    s = new()
    s.players[0].companion = "medic"
    give(s, 0, "potion")
    rig(s, ([2, 3, 4, 6, 6, 2], "blank"))
    play(s, 0, Recruit())
    assert "rescue it with your companion or a magic item: /farkle item" in _farkle_prompt(s)
    s = _recruit_with("potion", [2, 3, 4, 6, 6, 2], "blank")
    s.players[0].companion = "skree"
    assert _farkle_prompt(s).endswith("(or rescue it with a magic item: /farkle item)")
