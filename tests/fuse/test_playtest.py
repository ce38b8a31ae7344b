"""Regressions found by play-testing through the console (what a player reads)."""

from __future__ import annotations

import pytest

from i18n import t
from rules.core import CommandArgs, RulesError
from rules.fuse import FUSE
from rules.fuse.game import Claim, Place
from rules.fuse.quota import quota
from tests.fuse.support import position
from tests.support.refusals import reason
from tests.support.spies import keys_read

NOW = 1000.0


def _refusal(card: str, slot: int, die: str) -> RulesError:
    state = position(2, [[card], ["1-01"]], roll=[die, "B2", "G3", "Y5"])
    state, _ = FUSE.apply(state, 0, Claim(die), NOW + 1)
    before = FUSE.dump(state)
    with pytest.raises(RulesError) as err:
        FUSE.apply(state, 0, Place(card, slot), NOW + 2)
    assert FUSE.dump(state) == before
    return err.value


@pytest.mark.parametrize(
    ("card", "slot", "die", "key", "words"),
    [
        ("1-07", 3, "R4", "fuse.error.slot_wants_colour", ("black die", "dado negro")),
        ("3-09", 1, "R4", "fuse.error.slot_wants_number", ("takes a 1,", "pide un 1,")),
        ("4-08", 1, "R6", "fuse.error.slot_wants_both", ("black 6", "negro de 6")),
    ],
)
def test_a_die_that_does_not_match_is_told_what_the_icon_wants_in_words(
    card: str, slot: int, die: str, key: str, words: tuple[str, str]
) -> None:
    err = _refusal(card, slot, die)
    assert err.key == key
    for lang, word in zip(("en", "es"), words, strict=True):
        args = dict(err.args_map)
        if "colour_key" in args:
            args["colour"] = t(args["colour_key"], lang)
        text = t(err.key, lang, **args)
        assert word in text and "[" not in text and die in text


def test_a_split_icon_keeps_its_code_without_brackets() -> None:
    err = _refusal("3-09", 2, "R6")
    assert err.key == "fuse.error.slot_rejects" and err.args_map["icon"] == "3|4"


def test_acting_before_the_first_draw_says_to_draw() -> None:
    state = FUSE.new_game(2, {}, seed=1)
    attempts: tuple[tuple[str, CommandArgs], ...] = (
        ("claim", {"die": "R1"}),
        ("pass", {}),
        ("take", {"card": "1-01"}),
    )
    for command, args in attempts:
        assert reason(FUSE, state, 0, command, args).key == "fuse.error.not_started"


def test_drawing_again_and_claiming_nothing_are_explained() -> None:
    state = position(2, [["1-07"], ["1-01"]], roll=["R4", "B2", "G3", "Y5"])
    assert reason(FUSE, state, 0, "draw", {}).key == "fuse.error.already_drawn"
    assert reason(FUSE, state, 0, "claim", {"die": " "}).key == "fuse.error.no_die_named"
    for lang in ("en", "es"):
        assert "R4" in t("fuse.error.no_die_named", lang)


def test_an_empty_centre_row_is_labelled(monkeypatch: pytest.MonkeyPatch) -> None:
    import render.fuse as rf
    from rules.fuse.game import Claim, Place

    state = position(
        1, [["1-07"]], roll=["B4", "K2", "R3"], placed={"1-07": ["G1", "Y2", None]}, centre=[]
    )
    state.deck = []
    state, _ = FUSE.apply(state, 0, Claim("K2"), NOW + 1)
    state, _ = FUSE.apply(state, 0, Place("1-07", 3), NOW + 2)
    assert FUSE.is_over(state)
    seen = keys_read(monkeypatch, rf)
    png = rf.render_table(FUSE.view(state, None), ["ana"], "es")
    assert png[:4] == b"\x89PNG"
    # once for the player without cards, once for the empty centre row
    assert seen.count("fuse.label.empty") == 2


# ---------------------------------------------------------------- play-test by chat (second)


def test_a_claim_is_told_to_the_whole_team() -> None:
    from rules.fuse.game import Claim
    from tests.fuse.support import position

    # Ana takes the black 4: Bea must see it (the rules: claims are open to the team)
    state = position(2, [["1-07", "2-06"], ["1-09", "2-03"]], roll=["K4", "B2", "K1", "R3"])
    _, events = FUSE.apply(state, 0, Claim("K4"), 1_000.0)
    claimed = [e for e in events if e.key == "fuse.event.claimed"]
    assert claimed and claimed[0].to is None
    for lang in ("en", "es"):
        assert "Ana" in t(claimed[0].key, lang, **{**claimed[0].args, "seat": "Ana"})


def test_taking_another_die_tells_the_team_the_held_one_went_back() -> None:
    from bot.service.narrate import event_text
    from bot.service.text import Name
    from rules.fuse.game import Claim
    from tests.fuse.support import position

    # Ana holds the green 5, then takes the yellow 2 instead: the team read "Ana takes the G5.
    # Ana takes the Y2." and, when Bea took the G5, wondered how it could be taken twice.
    state = position(2, [["1-07", "2-06"], ["1-09", "2-03"]], roll=["G5", "Y2", "K1", "R3"])
    state, _ = FUSE.apply(state, 0, Claim("G5"), 1_000.0)
    state, events = FUSE.apply(state, 0, Claim("Y2"), 1_001.0)
    names = [Name("Ana"), Name("Bea")]
    said = [str(event_text(e, names, "en")) for e in events]
    assert "Ana puts the G5 back and takes the Y2." in said
    dicho = [str(event_text(e, names, "es")) for e in events]
    assert "Ana devuelve el V5 y toma el Am2." in dicho, (
        "both dice named as Spanish players type them"
    )
    FUSE.apply(state, 1, Claim("G5"), 1_002.0)  # and it is back: Bea may take it


def test_a_fuse_card_nobody_matches_does_not_tell_everyone_to_return_a_die() -> None:
    from rules.fuse.game import Claim, Pass, Place, Take
    from tests.fuse.support import position

    # Ana defuses and refills the centre: a blue fuse card comes up, but nobody holds a blue die
    state = position(
        3,
        [["1-07", "2-06"], ["1-09", "2-03"], ["1-10", "3-11"]],
        roll=["K4", "Y2", "K1"],
        placed={"1-07": ["R1", "R2", None], "1-09": ["R6", None, None], "1-10": ["Y1", None, None]},
        centre=["1-01", "1-02", "1-03", "1-04", "1-05"],
        deck=["F-B", "2-01", "2-02"],
    )
    now = 1_000.0
    for seat, action in ((0, Claim("K4")), (0, Place("1-07", 3)), (0, Take("1-01")), (1, Pass())):
        state, _ = FUSE.apply(state, seat, action, now)
    _, events = FUSE.apply(state, 2, Pass(), now)
    told = [e.key for e in events if e.key.startswith("fuse.event.fuse_resolves")]
    assert told == ["fuse.event.fuse_resolves_colour_none"]
    text = t(told[0], "en", colour="blue")
    assert "everyone" not in text and "nobody" in text


def test_two_identical_dice_on_one_card_are_no_choice_to_return() -> None:
    from rules.fuse.game import Claim, Pass, Place, Take
    from tests.fuse.support import position

    # Ana holds two red 3s on "[?] [?] [K]"; her defuse of 1-10 reveals a red fuse card
    state = position(
        2,
        [["1-07", "1-10"], ["1-09", "2-03"]],
        roll=["K6", "Y2", "B5", "G4"],
        placed={"1-07": ["R3", "R3", None], "1-10": ["Y1", "G2", None]},
        centre=["1-01", "1-02", "1-03", "1-04", "1-05"],
        deck=["F-R", "2-01", "2-02"],
    )
    now = 1_000.0
    for seat, action in ((0, Claim("K6")), (0, Place("1-10", 3)), (0, Take("1-01"))):
        state, _ = FUSE.apply(state, seat, action, now)
    state, _ = FUSE.apply(state, 0, Pass(), now)
    state, events = FUSE.apply(state, 1, Pass(), now)
    # one red 3 goes back by itself: nobody is asked to choose between the two
    returned = [e.args for e in events if e.key == "fuse.event.returned"]
    assert returned[0] == {"seat": 0, "colour_key": "fuse.colour.R", "number": 3, "card": "1-07"}
    assert state.stage != "return" or 0 not in state.owing


def test_insane_end_the_last_bomb_gets_the_round_to_itself() -> None:
    from rules.fuse.game import Pass
    from tests.fuse.support import position

    # Insane, 4 players: deck and centre are empty, Ana, Bea and Cai have defused all their
    # cards; only Dora's "[?] [?] [K]" is left. Before, the round still drew 4 dice, Dora could
    # place 1, and the 3 left over, rolled again, knocked dice off the last card.
    state = position(
        4,
        [[], [], [], ["1-07"]],
        roll=["R4", "B2", "G1", "Y5"],
        placed={"1-07": ["Y3", None, None]},
        centre=[],
        deck=[],
        options={"difficulty": "insane"},
    )
    assert quota(state) == 3  # Dora plays on as a solo player (D16, D1)
    state, _ = FUSE.apply(state, 3, Pass(), 1_000.0)
    while state.stage == "return":  # the unused dice may ask Dora for a die first
        state, _ = FUSE.apply(state, 3, FUSE.pending(state)[3].default, 1_000.0)
    assert state.stage == "choose" and len(state.drawn) == 3  # a solo round's 3 dice
