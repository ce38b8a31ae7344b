"""FUSE play-tests through the service (console reports, session 6): what the channel reads."""

from __future__ import annotations

import pytest

from bot.service import Service
from bot.service.buttons import decode
from bot.service.replies import Button, Reply
from rules.core import Event, Snapshot
from rules.fuse.game import FuseState
from tests.conftest import ALICE, BOB, CAROL, HERE, Clock
from tests.support.replies import private, said

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


async def _relaxed_game(service: Service) -> Reply:
    """A relaxed game of two, Alice and Bob, its first round drawn: the draw's reply."""
    assert (await service.new_game(ALICE, HERE, "fuse", {"mode": "relaxed"})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    drawn = await service.act(ALICE, HERE, "fuse", "draw", {})
    assert drawn.ok
    return drawn


async def test_players_on_autopilot_are_not_told_of_private_news_fuse_has_none(
    service: Service, clock: Clock
) -> None:
    """Play-test: a relaxed game, both players away (`/wait 25h` twice). The computer played
    their seats, passing when it had nothing to place, and the channel read "🔒 alice: something
    only you may see happened" several times: FUSE hides nothing, and /game board showed
    nothing new (the line was the echo of the pass the computer chose)."""
    await _relaxed_game(service)
    text = ""
    for _ in range(2):
        clock.now += 25 * 3600
        text += said(await service.run_deadlines())
        for _ in range(40):  # the computer's moves, a moment apart
            clock.now += 2
            text += said(await service.run_deadlines())
    assert "Round 3" in text, "the computer played several rounds for the absent players"
    assert "🔒" not in text and "only you may see" not in text


def _closing(state: FuseState, before: Snapshot, seat: int, events: list[Event], lang: str) -> str:
    """What the channel reads after ``seat``'s move ended the game: the closing message."""
    from bot.service.compose import move_draft
    from bot.service.match import Match
    from rules.fuse import FUSE
    from tests.test_phase_message import _fuse_row

    after = FUSE.snapshot(state)
    match = Match(_fuse_row("Ana", "Bea"), FUSE, state)
    draft = move_draft(match, before, after, seat, events, lang, lang, by_default=False, draws=True)
    return " ".join(f"{post.text} {post.narration}" for post in draft.public)


def test_the_win_says_the_deck_and_centre_are_empty_and_the_score_adds_up() -> None:
    """Play-test: "All bombs defused! The team wins with 78 points." and "Team score: 78
    (bombs defused: 22; fuse cards: 6)" while the picture still showed cards 4-11 and 4-12 in
    front of the players. By the rules (§5) the win is an empty deck and centre row; the bombs
    in front score nothing. Here Ana defuses 1-07 (1 point) and takes the last centre card:
    the team has defused 2-01 (2 points) before and met one fuse card; Ana keeps 2-06 and the
    card she took, Bea her two cards, in front of them."""
    from rules.fuse import FUSE
    from rules.fuse.game import Claim, Place, Take
    from tests.fuse.support import position

    state = position(
        2,
        [["1-07", "2-06"], ["1-09", "2-03"]],
        roll=["K4", "B2", "K1", "G3"],
        placed={"1-07": ["R1", "B1", None]},
        centre=["1-01"],
        deck=[],
        options={"mode": "relaxed"},
    )
    state.defused.append("2-01")
    state.fuses.append("F-R")
    for action in (Claim("K4"), Place("1-07", 3)):
        state, _ = FUSE.apply(state, 0, action, 1_001.0)
    before = FUSE.snapshot(state)
    events = FUSE.resolve(state, 0, Take("1-01"), 1_002.0)
    result = FUSE.result(state)
    assert result is not None and result.winners == (0, 1)
    assert result.scores[0] == 10 + 1 + 2 + 2  # the win, 1-07, 2-01, the fuse card
    said = _closing(state, before, 0, events, "en")
    assert "All bombs defused" not in said
    assert "The deck and the centre row are empty: the team wins with 15 points." in said
    assert (
        "Team score: 15 = 10 for the win + 3 for 2 bombs defused + 2 for 1 fuse card (2 each)."
        " 4 bombs still in front of the players score nothing." in said
    )
    dicho = _closing(state, before, 0, events, "es")
    assert "El mazo y la fila central están vacíos: ¡el equipo gana con 15 puntos!" in dicho
    assert (
        "Puntuación del equipo: 15 = 10 por la victoria + 3 por 2 bombas desactivadas"
        " + 2 por 1 carta detonadora (2 cada una). Quedan 4 bombas delante de los jugadores,"
        " que no suman nada." in dicho
    )


def test_a_loss_shows_the_points_it_keeps_and_none_for_the_win() -> None:
    """The bag runs dry or the rounds run out: the score line still adds up, without the 10."""
    from rules.fuse import FUSE

    state = FUSE.new_game(2, {"mode": "relaxed"}, seed=1)
    state.defused += ["2-01", "1-07"]
    state.fuses += ["F-R", "F-3"]
    state.stage, state.outcome, state.reason = "over", "lost", "rounds"
    result = FUSE.result(state)
    assert result is not None and result.summary is not None
    assert result.summary.key == "fuse.event.final_score_lost"
    assert result.summary.args == {
        "score": 7,
        "bombs": 2,
        "bomb_points": 3,
        "fuses": 2,
        "fuse_points": 4,
    }


async def test_the_rules_name_the_dice_as_the_game_shows_them_in_each_language(
    service: Service,
) -> None:
    """Play-test: `/partida reglas juego:fuse` said "R4 es un 4 rojo (R rojo, B azul, G verde,
    Y amarillo, K negro)" while the Spanish game shows dice as "R1 N4 Am5 Az2 V5"."""
    from i18n import catalogue

    for actor, lang in ((ALICE, "en"), (CAROL, "es")):
        reply = await service.rules(actor, HERE, "fuse")
        assert reply.private is not None
        rules = str(reply.private.text)
        words = catalogue(lang)
        codes = [f"{words[f'fuse.die.{c}1'][:-1]} {words[f'fuse.colour.{c}']}" for c in "RBGYK"]
        assert f"({', '.join(codes)})" in rules, (lang, codes)
    assert "(R rojo, Az azul, V verde, Am amarillo, N negro)" in rules


def _buttons(reply: object) -> list[Button]:
    return [b for o in getattr(reply, "public", ()) for b in o.message.buttons]


async def _both_hold_a_die(service: Service) -> list[Button]:
    """A relaxed game of two: Alice claims a die she can use, then Bob; the table's buttons."""
    shown = _buttons(await _relaxed_game(service))
    for actor in (ALICE, BOB):
        for button in [b for b in shown if "🎲" in b.label]:
            reply = await service.press(actor, HERE, decode(button.custom_id))
            if reply.ok:
                shown = _buttons(reply)
                break
        else:
            raise AssertionError(f"{actor} could claim no die")
    return shown


async def test_with_both_players_holding_a_die_each_placement_says_whose_it_is(
    service: Service,
) -> None:
    """Play-test: in relaxed mode with 2 players, once both held a die, the placement buttons
    of both came together with no names ("1-01 · slot 2 … 3-10 · slot 1"); live mode marks
    each holder's placements with their name, and so does relaxed mode now."""
    shown = await _both_hold_a_die(service)
    places = [b.label for b in shown if "· slot" in b.label]
    assert any(label.startswith("Alice: ") for label in places)
    assert any(label.startswith("Bob: ") for label in places)
    assert all(label.startswith(("Alice: ", "Bob: ")) for label in places), places


async def test_a_player_pressing_the_other_players_button_is_told_it_is_theirs(
    service: Service,
) -> None:
    """Play-test: Alice pressed one of Bob's placements and read "“N” is not an answer to this
    question"; the button is Bob's, and she is told so (nothing changes)."""
    shown = await _both_hold_a_die(service)
    bobs = next(b for b in shown if b.label.startswith("Bob: ") and "· slot" in b.label)
    reply = await service.press(ALICE, HERE, decode(bobs.custom_id))
    assert not reply.ok and reply.private is not None and not reply.public
    assert str(reply.private.text) == "⚠️ That button is Bob's."
    carol_reply = await service.press(CAROL, HERE, decode(bobs.custom_id))  # not seated: as before
    assert not carol_reply.ok


def test_the_other_players_button_is_named_in_spanish_too() -> None:
    from bot.service.text import Name, phrase

    said = phrase("lobby.error.others_button", "es", seats=Name("Beto"))
    assert str(said) == "Ese botón es de Beto."


def test_bad_bones_answers_asked_apart_are_the_asked_players_own() -> None:
    """The same press in Bad Bones, where the report's words came from: Ana's dragon asks
    which way a skeleton flees, Bob's skeleton which cemetery it goes to. Bob's button pressed
    by Ana is Bob's ("That button is Bob's."), not "“3” is not an answer to this question"."""
    from bot.service import buttons as button_ids
    from bot.service.compose import offered_buttons
    from bot.service.match import Match
    from bot.service.moves import _owners
    from rules.badbones import GAME
    from rules.badbones.state import TRAP
    from tests.badbones.helpers import position, trap_phase
    from tests.test_phase_message import _row

    state = position("C5 dragon\nC4 S", "B1 N", "floors 2", "", stage=TRAP)
    state, _ = trap_phase(state)
    pending = GAME.pending(state)
    match = Match(_row("Ana", "Bob", "Chen", "Dora"), GAME, state)
    offered = offered_buttons(match, sorted(pending), "en", pending)
    bobs = next(b for b in offered if b.label == "Bob: 3")
    anas = next(b for b in offered if b.label == "Ana: W")

    def pressed(custom_id: str) -> button_ids.Press:
        press = button_ids.decode(custom_id)
        assert press is not None
        return press

    assert _owners(match, 0, pressed(bobs.custom_id)) == [1]
    assert _owners(match, 1, pressed(anas.custom_id)) == [0]
    # (A button of another phase never gets this far: ``moves.clicked`` refuses it as stale.)


async def test_a_refusal_names_the_command_as_a_spanish_client_shows_it(service: Service) -> None:
    """Play-test: "Ahora no puedes hacer «claim» así" named the English command to a Spanish
    player, whose client shows `/fuse tomar-dado`."""
    await _relaxed_game(service)
    await service.language(BOB, HERE, "es")
    refused = await service.act(BOB, HERE, "fuse", "claim", {})
    assert private(refused) == "⚠️ Ahora no puedes hacer «tomar-dado» así."
    refused = await service.act(ALICE, HERE, "fuse", "claim", {})
    assert private(refused) == "⚠️ You cannot do “claim” like that now."
