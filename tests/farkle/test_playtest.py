"""Regressions found by play-testing through the console (what a player reads)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from i18n import t
from rules.core import CommandArgs, RulesError
from rules.farkle.actions import (
    AcceptFarkle,
    Brawl,
    Discard,
    Draw,
    Enter,
    Fight,
    Keep,
    Recruit,
    Roll,
    Stop,
)
from tests.farkle.support import give, new, play, rig, stack
from tests.support.refusals import reason
from tests.support.spies import keys_read


def test_a_farkle_without_items_does_not_mention_zero_items() -> None:
    s = new()
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"), ([2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Roll())
    events = play(s, 0, AcceptFarkle())
    farkle = [e for e in events if e.key.startswith("farkle.event.farkle")]
    assert [e.key for e in farkle] == ["farkle.event.farkle"]
    for lang in ("en", "es"):
        text = t(farkle[0].key, lang, **{**farkle[0].args, "seat": "ana"})
        assert "item" not in text and "objeto" not in text and "100" in text


def test_a_farkle_that_loses_drawn_items_names_them() -> None:
    s = new()
    stack(s, "potion")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    play(s, 0, Roll())
    events = play(s, 0, AcceptFarkle())
    farkle = [e for e in events if e.key.startswith("farkle.event.farkle")]
    assert [e.key for e in farkle] == ["farkle.event.farkle_items"]
    assert farkle[0].args["items"] == 1


def test_damage_past_the_target_is_reported_as_the_target() -> None:
    # A rally on the last blow deals 2 with 1 missing: "(3/3)", never "(4/3)".
    s = new(armies=[5000, 0, 0])
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"), ([2, 3, 4, 6, 2], "rally"))
    play(s, 0, Enter())
    assert s.damage == 2
    events = play(s, 0, Roll())
    damage = [e for e in events if e.key == "farkle.event.damage"]
    assert damage and damage[-1].args["damage"] == 3 and damage[-1].args["target"] == 3
    assert s.winner == 0


def test_hot_dice_and_berserker_are_told_after_the_set_aside() -> None:
    s = new()
    s.players[0].companion = "berserker"
    rig(s, ([1, 5, 2, 2, 2, 3], "blank"), ([5], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1 b5 c2 d2 e2"))
    play(s, 0, Roll())
    events = play(s, 0, Keep("a5"))
    keys = [e.key for e in events]
    assert keys == ["farkle.event.kept", "farkle.event.hot_dice", "farkle.event.berserker"]
    # the kept line's total is before the bonus that the next line announces
    assert events[0].args["total"] == 350 + 50
    assert s.attack is not None and s.attack.score == 350 + 50 + 250


def test_treasure_hunter_is_told_once_after_the_turn_starts() -> None:
    s = new()
    s.players[1].companion = "hunter"
    stack(s, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    keys = [e.key for e in play(s, 0, Stop()) if e.to is None]
    start = keys.index("farkle.event.turn")
    assert keys[start:] == ["farkle.event.turn", "farkle.event.hunter", "farkle.event.drew_item"]
    for lang in ("en", "es"):  # the hunter line says why; the draw line says what happened
        assert t("farkle.event.hunter", lang, seat="ana") != t(
            "farkle.event.drew_item", lang, seat="ana"
        )


def test_the_dragon_eating_everything_does_not_say_keeps_zero() -> None:
    s = new()
    rig(s, ([1, 5, 2, 3, 4, 6], "dragon"))
    play(s, 0, Recruit())
    events = play(s, 0, Stop())
    eaten = [e for e in events if e.key.startswith("farkle.event.eaten")]
    assert [e.key for e in eaten] == ["farkle.event.eaten"]
    assert "keeps" not in t("farkle.event.eaten", "en", **{**eaten[0].args, "seat": "ana"})


def test_the_dragon_whisperer_says_what_is_kept() -> None:
    s = new()
    s.players[0].companion = "whisperer"
    rig(s, ([1, 5, 2, 3, 4, 6], "dragon"))
    play(s, 0, Recruit())
    events = play(s, 0, Stop())
    eaten = [e for e in events if e.key.startswith("farkle.event.eaten")]
    assert [e.key for e in eaten] == ["farkle.event.eaten_kept"] and eaten[0].args["value"] > 0


def test_a_mimic_with_nothing_to_take_says_so() -> None:
    s = new()
    stack(s, "mimic")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    events = play(s, 0, Draw())
    assert "farkle.event.mimic_none" in [e.key for e in events]
    assert "farkle.event.mimic" not in [e.key for e in events]


def test_a_command_at_the_wrong_moment_says_what_the_moment_asks() -> None:
    from rules.farkle import GAME

    s = new()
    err = reason(GAME, s, 0, "keep", {"dice": "a"})
    assert err.key == "farkle.error.not_now" and err.args_map["now_key"] == "farkle.now.choose"
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"))
    play(s, 0, Recruit())
    assert reason(GAME, s, 0, "roll", {}).key == "farkle.error.keep_first"  # already specific
    assert reason(GAME, s, 0, "double", {}).args_map["now_key"] == "farkle.now.roll"
    for lang in ("en", "es"):
        text = t("farkle.error.not_now", lang, now=t("farkle.now.roll", lang))
        assert "{" not in text and "farkle." not in text


def test_a_brawl_target_that_is_not_a_number_is_named() -> None:
    from rules.farkle import GAME

    s = new()
    assert reason(GAME, s, 0, "brawl", {"target": "x"}).key == "farkle.error.bad_target"
    assert reason(GAME, s, 0, "brawl", {}).key == "farkle.error.no_target"
    assert reason(GAME, s, 0, "scare", {"target": " "}).key == "farkle.error.no_target"


def test_items_that_change_the_roll_say_what_it_became() -> None:
    from rules.farkle.actions import UseItem
    from tests.farkle.support import give

    s = new(armies=[1000, 1000, 0])
    give(s, 0, "potion")
    rig(s, ([2, 3, 4, 6, 6, 2], "blank"), ([1, 1, 1, 2, 3, 4], None))
    play(s, 0, Recruit())
    events = play(s, 0, UseItem("potion"))
    used = [e for e in events if e.key.startswith("farkle.event.item")]
    assert [e.key for e in used] == ["farkle.event.item_dice"]
    text = t(used[0].key, "es", **{**used[0].args, "seat": "ana", "item": "Poción"})
    assert "a1 b1 c1 d2 e3 f4" in text

    s = new(armies=[1000, 1000, 0])
    give(s, 0, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    events = play(s, 0, UseItem("horn"))
    used = [e for e in events if e.key.startswith("farkle.event.item")]
    assert [e.key for e in used] == ["farkle.event.item_face"]
    assert used[0].args["face_key"] == "farkle.face.rally"


def test_a_brawl_won_against_an_empty_army_does_not_say_takes_0() -> None:
    from rules.farkle.actions import Brawl, Fight

    s = new(armies=[0, 0, 0])
    rig(s, ([1, 1, 1, 2, 3, 4], "blank"), ([5, 2, 3, 4, 6], "blank"))
    play(s, 0, Brawl(1))
    play(s, 1, Fight())
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    play(s, 1, Keep("a5"))
    keys = [e.key for e in play(s, 1, Stop())]
    assert "farkle.event.brawl_won_empty" in keys and "farkle.event.brawl_won" not in keys
    assert s.players[0].army == 500


def test_the_dice_menu_lists_the_dice_in_letter_order() -> None:
    from rules.farkle import GAME

    s = new()
    rig(s, ([2, 2, 4, 5, 2, 4], "blank"))
    play(s, 0, Recruit())
    found = GAME.suggestions(s, 0, "keep", "dice", {})
    assert found[0] == "a2 b2 d5 e2"
    tokens: dict[str, None] = {}
    for value in found:  # how the service builds the multi-select
        for token in value.split():
            tokens.setdefault(token, None)
    assert list(tokens) == ["a2", "b2", "d5", "e2"]


def test_stopping_with_nothing_says_no_soldiers() -> None:
    s = new()
    rig(s, ([1, 2, 3, 4, 6, 6], "dragon"))
    play(s, 0, Recruit())
    keys = [e.key for e in play(s, 0, Stop())]
    assert "farkle.event.banked_none" in keys and "farkle.event.banked" not in keys


def test_the_picture_of_a_turn_that_recruited_nothing_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from PIL import Image

    import render.farkle as rf
    from render.common import Draw
    from rules.farkle import GAME

    s = new()
    rig(s, ([1, 2, 3, 4, 6, 6], "dragon"))
    play(s, 0, Recruit())
    play(s, 0, Stop())
    seen = keys_read(monkeypatch, rf)
    draw = Draw(Image.new("RGB", (1200, 200)))
    rf._last_line(draw, GAME.view(s, None), ["ana", "bea", "cid"], "es", 0)
    assert "farkle.label.last_banked_none" in seen


def test_the_picture_rings_the_dice_the_dragon_will_eat() -> None:
    from render.farkle import render_table
    from rules.farkle import GAME

    s = new()
    rig(s, ([1, 3, 1, 5, 5, 2], "dragon"))
    play(s, 0, Recruit())
    view = GAME.view(s, None)
    assert view["stage"] == "dragon"
    ringed = render_table(view, ["ana", "bea", "cid"], "en")
    plain = render_table({**view, "stage": "roll"}, ["ana", "bea", "cid"], "en")
    assert ringed != plain  # the only difference: the red rings


# ---------------------------------------------------------------- play-test by chat (second)


def test_the_dragon_whisperer_warning_names_what_the_dragon_really_eats() -> None:
    # Ana recruits with the Dragon Whisperer; her roll scores 1 + 5 and brings the dragon.
    s = new()
    s.players[0].companion = "whisperer"
    rig(s, ([1, 5, 2, 2, 3, 4], "dragon"))
    warned = [e for e in play(s, 0, Recruit()) if e.key == "farkle.event.dragon_comes"]
    eaten = [e for e in play(s, 0, Stop()) if e.key.startswith("farkle.event.eaten")]
    # 150 at stake: the warning said 100 and the dragon ate 50
    assert warned[0].args["value"] == eaten[0].args["eaten"] == 50
    for lang in ("en", "es"):
        assert "(50" in t(warned[0].key, lang, **{**warned[0].args, "seat": "Ana"})


def test_a_brawl_won_against_an_empty_army_tells_the_500_bonus() -> None:
    from render.farkle import last_line_text
    from rules.farkle import GAME
    from rules.farkle.actions import Brawl, Fight

    # Ana brawls Bea, who has no soldiers; Ana scores 300, Bea Farkles.
    s = new(armies=[0, 0, 0])
    rig(s, ([1, 1, 1, 2, 3, 4], "blank"), ([2, 3, 4, 6, 6], "blank"))
    play(s, 0, Brawl(1))
    play(s, 1, Fight())
    play(s, 0, Keep("a1 b1 c1"))
    play(s, 0, Stop())
    play(s, 1, AcceptFarkle())
    assert s.players[0].army == 500
    for lang in ("en", "es"):
        line = last_line_text(GAME.view(s, None), ["Ana", "Bea", "Cai"], lang)
        assert "500" in line and " 0 " not in line, line


def test_the_marker_moves_to_the_defender_who_must_answer_a_brawl() -> None:
    from rules.farkle import GAME
    from rules.farkle.actions import Brawl

    s = new(armies=[0, 300, 0])
    play(s, 0, Brawl(1))
    # the picture's ▶ follows the view's pending: Bea must fight or flee, not Ana
    assert GAME.view(s, None)["pending"] == [1]


def test_dice_the_dragon_ate_stay_marked_after_rolling_on() -> None:
    from rules.farkle import GAME

    # Ana's roll brings the dragon (1 + 5 eaten); she rolls on with four dice: 1 and three more.
    s = new()
    rig(s, ([1, 5, 2, 2, 3, 4], "dragon"), ([1, 2, 3, 4], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Roll())
    run = GAME.view(s, None)["attack"]
    assert run["aside"] == [1, 5] and run["eaten"] == [True, True]
    play(s, 0, Keep("a1"))
    run = GAME.view(s, None)["attack"]
    assert run["aside"] == [1, 5, 1] and run["eaten"] == [True, True, False]


def test_a_five_minute_deadline_reads_five_minutes_in_the_console() -> None:
    from bot.console import relative

    assert relative(299.6) == "(+5m)"  # read a moment after it was set
    assert relative(300) == "(+5m)"
    assert relative(125 * 60) == "(+2h05m)"
    assert relative(40) == "(+40s)"
    assert relative(-90) == "(−2m)"


def test_an_item_drawn_this_turn_is_refused_for_being_drawn_not_for_being_absent() -> None:
    # Rally: draw an item ("You drew: War Horn."), roll on, then /farkle item item:horn: the
    # board shows "War Horn (drawn this turn)", so "You do not hold War Horn" read as a bug.
    from rules.farkle import GAME

    s = new()
    stack(s, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"), ([5, 2, 3, 4, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Draw())
    play(s, 0, Roll())
    assert s.attack is not None and s.attack.gained == ["horn"] and s.players[0].items == []
    with pytest.raises(RulesError) as refusal:
        GAME.parse("item", {"item": "horn"}, s, 0)
    assert refusal.value.key == "farkle.error.item_drawn"
    en = t(refusal.value.key, "en", item=t("farkle.item.horn", "en"))
    es = t(refusal.value.key, "es", item=t("farkle.item.horn", "es"))
    assert en.startswith("War Horn was drawn this turn") and "cannot be played" in en
    assert es.startswith("Cuerno de guerra se robó en este turno") and "no se puede jugar" in es
    # An item never drawn is still one you do not hold.
    with pytest.raises(RulesError) as refusal:
        GAME.parse("item", {"item": "potion"}, s, 0)
    assert refusal.value.key == "farkle.error.no_item"


def test_the_attacker_is_told_the_defender_must_answer_the_brawl_first() -> None:
    # ana (#1) brawls beto (#2), then types /farkle tirar before beto has answered: "No es tu
    # turno" during her own brawl; the refusal names who she waits for and what they must do.
    from rules.farkle import GAME

    s = new()
    play(s, 0, Brawl(1))
    with pytest.raises(RulesError) as refusal:
        GAME.parse("roll", {}, s, 0)
    assert refusal.value.key == "farkle.error.defender_first"
    assert refusal.value.args_map["defender_seat"] == 1
    en = t(refusal.value.key, "en", defender_seat="beto")
    es = t(refusal.value.key, "es", defender_seat="beto")
    assert en.startswith("beto must answer the brawl first") and "Fight!" in en
    assert es.startswith("beto debe responder primero a la pelea") and "¡A pelear!" in es
    # A seat with no part in the brawl is simply not the one to move.
    with pytest.raises(RulesError) as refusal:
        GAME.parse("roll", {}, s, 2)
    assert refusal.value.key == "core.error.not_your_turn"


def test_in_a_brawl_each_side_is_told_whose_roll_it_is() -> None:
    from rules.farkle import GAME

    s = new()
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"), ([1, 2, 3, 4, 6], "blank"))
    play(s, 0, Brawl(1))
    play(s, 1, Fight())
    with pytest.raises(RulesError) as refusal:  # the defender while ana rolls the attack
        GAME.parse("keep", {"dice": "a"}, s, 1)
    assert refusal.value.key == "farkle.error.attacker_rolling"
    assert refusal.value.args_map["attacker_seat"] == 0
    play(s, 0, Keep("a1"))
    play(s, 0, Stop())
    assert s.defence is not None and s.defence.seat == 1
    with pytest.raises(RulesError) as refusal:  # ana while beto rolls his defence
        GAME.parse("roll", {}, s, 0)
    assert refusal.value.key == "farkle.error.defender_rolling"
    for key in ("attacker_rolling", "defender_rolling"):
        for lang in ("en", "es"):
            text = t(f"farkle.error.{key}", lang, attacker_seat="ana", defender_seat="beto")
            assert "{" not in text and ("ana" in text or "beto" in text)


@pytest.mark.parametrize(
    "typed", ["capa", "Capa", "capa de invisibilidad", "invisibilidad", "cloak"]
)
def test_the_brawl_defender_plays_the_cloak_by_its_spanish_name(typed: str) -> None:
    # ana brawls beto (Spanish), who answers /farkle objeto objeto:capa: it was "No tienes ese
    # objeto." while objeto:cloak worked. The service reads the typed name as the item first.
    from bot.service.shown import canonical_args
    from rules.farkle import GAME
    from rules.farkle.actions import UseItem
    from tests.farkle.support import give

    s = new()
    give(s, 1, "cloak")
    play(s, 0, Brawl(1))
    action = GAME.parse("item", canonical_args("farkle", {"item": typed}), s, 1)
    assert action == UseItem("cloak")
    play(s, 1, action)
    assert s.action == "recruit" and s.defender == -1 and s.players[1].items == []


def test_the_console_keeps_every_die_typed_after_dice() -> None:
    # @alice /farkle keep dice:d e kept both dice (farkle.md said the console turns it into d).
    from bot.console_spelling import split
    from bot.console_spelling import words as typed_words
    from rules.farkle import GAME

    s = new()
    rig(s, ([2, 3, 4, 1, 5, 6], "blank"))
    play(s, 0, Recruit())
    words = typed_words("keep dice:d e")
    args, rest = split(words[1:])
    assert words[0] == "keep" and args == {"dice": "d e"} and rest == []
    action = GAME.parse("keep", args, s, 0)
    assert action == Keep("d1 e5")
    play(s, 0, action)
    assert s.attack is not None and s.attack.aside == [1, 5] and s.attack.score == 150


def _told(events: Iterable[object], key: str, lang: str) -> str:
    """The channel's line for the event ``key`` among ``events``, as a reader of ``lang`` reads it
    (ana, beto and cata at seats 0, 1 and 2)."""
    from bot.service.narrate import event_text
    from bot.service.text import Name
    from rules.core import Event

    names = [Name("ana"), Name("beto"), Name("cata")]
    found = [e for e in events if isinstance(e, Event) and e.key == key]
    assert found, key
    return event_text(found[0], names, lang).plain()


def test_one_die_scoring_against_you_in_the_final_battle_takes_a_singular_verb() -> None:
    # "a5 puntúan contra ana": one die, plural verb. Two dice keep the plural.
    s = new(armies=[5000, 0, 0])
    rig(s, ([5, 2, 3, 4, 6, 2], "blank"), ([1, 5, 3, 4, 6], "blank"))
    events = play(s, 0, Enter())
    assert _told(events, "farkle.event.keep_loss", "es").startswith("a5 puntúa contra ana:")
    assert _told(events, "farkle.event.keep_loss", "en").startswith("a5 scores against ana:")
    events = play(s, 0, Roll())
    assert _told(events, "farkle.event.keep_loss", "es").startswith("a1 b5 puntúan contra ana:")
    assert _told(events, "farkle.event.keep_loss", "en").startswith("a1 b5 score against ana:")


def test_a_farkle_on_the_first_roll_does_not_lose_the_0_soldiers() -> None:
    # ana Farkles her first Recruit roll: "pierde los 0 soldados" / "loses the 0 soldiers".
    s = new()
    rig(s, ([2, 3, 4, 6, 6, 2], "blank"))
    play(s, 0, Recruit())
    events = play(s, 0, AcceptFarkle())
    es = _told(events, "farkle.event.farkle", "es")
    en = _told(events, "farkle.event.farkle", "en")
    assert es == "¡Farkle! ana aún no tenía soldados en esta ronda de tiradas que perder."
    assert en == "Farkle! ana had no soldiers yet in this run to lose."
    # With soldiers at stake the amount is told as before.
    s = new()
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"), ([2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    play(s, 0, Roll())
    events = play(s, 0, AcceptFarkle())
    assert "pierde los 100 soldados" in _told(events, "farkle.event.farkle", "es")


def test_zero_amounts_have_their_own_wording_in_both_languages() -> None:
    # Every "<event>_no_<amount>" wording exists in both languages, names no number and fills
    # every argument its event carries.
    from i18n import catalogue

    zeros = [k for k in catalogue("en") if k.startswith("farkle.event.") and "_no_" in k]
    assert {k.rsplit(".", 1)[1] for k in zeros} >= {"farkle_no_lost", "amulet_no_lost"}
    for key in zeros:
        for lang in ("en", "es"):
            assert key in catalogue(lang)
            text = t(key, lang, seat="ana", target_seat="beto", item="X")
            assert "{" not in text and "0" not in text, (key, lang, text)


def test_the_defender_at_the_wrong_moment_is_told_to_answer_the_brawl() -> None:
    # beto, asked to answer ana's brawl, typed /farkle pelea: "Ahora no: primero el defensor
    # responde a la pelea" spoke of him as someone else. Only the defender is told this.
    from rules.farkle import GAME

    s = new()
    play(s, 0, Brawl(1))
    err = reason(GAME, s, 1, "brawl", {"target": "1"})
    assert err.key == "farkle.error.not_now" and err.args_map["now_key"] == "farkle.now.respond"
    en = t("farkle.error.not_now", "en", now=t("farkle.now.respond", "en"))
    es = t("farkle.error.not_now", "es", now=t("farkle.now.respond", "es"))
    assert (
        en
        == "Not now: first answer the brawl declared against you (Fight! or a Cloak of Invisibility)."
    )
    assert es.startswith("Ahora no: primero responde a la pelea declarada contra ti")


def test_a_missing_target_is_asked_for_with_a_rival_as_the_example() -> None:
    """Wannabe #2 who forgets the target is not told "e.g. target:2" (themself)."""
    from rules.farkle import GAME

    s = new()
    err = reason(GAME, s, 1, "brawl", {})
    assert err.key == "farkle.error.no_target" and err.args_map["example"] != 2
    assert "target:1." in t(err.key, "en", **err.args_map)
    assert reason(GAME, s, 0, "scare", {}).args_map["example"] == 2


def test_discard_without_an_item_names_the_items_that_may_go() -> None:
    """`/farkle discard` with no item (or one not held) lists what the player may discard, by
    name, in their language, instead of "You do not hold that item"."""
    from bot.service.compose import refusal
    from rules.farkle import GAME

    s = new()
    give(s, 1, "repellent")
    give(s, 1, "potion")
    s.stage = "discard"
    assert [type(a).__name__ for a in GAME.legal_actions(s, 1)] == ["Discard", "Discard"]
    typed_args: tuple[CommandArgs, ...] = ({}, {"item": "zzz"})
    for typed in typed_args:
        err = reason(GAME, s, 1, "discard", typed)
        assert err.key == "farkle.error.name_item_discard"
        said = str(refusal(err, "en"))
        assert "Name the item to discard" in said and "Potion of Courage" in said, said
    es = str(refusal(reason(GAME, s, 1, "discard", {}), "es"))
    assert "Nombra el objeto que descartas" in es and "Poción de valor" in es, es
    assert GAME.parse("discard", {"item": "potion"}, s, 1) == Discard("potion")  # held: no list
