"""Phase 3's questions (D5) as the players read them, and "always decide for me".

Each question names its skeleton (symbol or chief, the square, where it came from) and is
numbered, so a second one of the same kind is not a repeat; the catapult's says what it throws.
"Always decide for me" (the preference ``auto``, a button beside the question) answers that
question and every later one of its kind with the default, says so to the table, survives a
save, and is undone with ``prefer … ask``.
"""

from __future__ import annotations

from rules.badbones import GAME
from rules.badbones.actions import Choose, Prefer
from rules.badbones.state import HERO, SKELETONS, TRAP, BadBonesState
from rules.core import Event
from tests.badbones.helpers import keys, position, trap_phase, where

THREE = ("Ana", "Bob", "Cora")


def _asked(state: BadBonesState, seat: int, lang: str = "en") -> str:
    from bot.service.compose import pending_text
    from bot.service.text import Name

    item = GAME.pending(state)[seat]
    return str(pending_text("badbones", item, [Name(n) for n in THREE], lang))


def _told(events: list[Event], lang: str = "en") -> list[str]:
    from bot.service.narrate import events_text
    from bot.service.text import Name

    said = events_text([e for e in events if e.to is None], [Name(n) for n in THREE], lang)
    return [str(t) for t in said]


def test_a_second_skeleton_leaving_through_the_top_is_a_new_question_not_a_repeat() -> None:
    state = position("A1 N\nB1 N", "", "", stage=TRAP)
    state, _ = trap_phase(state)
    first = _asked(state, 0)
    assert first == (
        "Question 1: the pink skeleton on A1 leaves your board through the top forest: to whose"
        " cemetery? 2, 3 (Bob, Cora; default Bob)"
    )
    state, events = GAME.apply(state, 0, Choose("3"))
    assert state.stage == SKELETONS
    second = _asked(state, 0)
    assert second.startswith("Question 2: the pink skeleton on B1 leaves your board")
    assert "Ana sends the pink skeleton leaving A1 through the top forest to Cora's cemetery." in (
        _told(events)
    )


def test_the_catapult_question_says_what_it_throws() -> None:
    state = position("C4 catapult\nC5 N@emperor", "", "", stage=TRAP, options={"chiefs": True})
    state, _ = trap_phase(state)
    assert _asked(state, 0) == (
        "Question 1: your catapult on C4 throws the pink skeleton emperor coming from C5, and"
        " everything else it throws this phase: at whose cemetery? 2, 3 (Bob, Cora; default Bob)"
    )
    assert _asked(state, 0, "es") == (
        "Pregunta 1: tu catapulta en C4 lanza al emperador esqueleto (de los rosas) que llega"
        " desde C5, y todo lo demás que lance en esta fase: ¿al cementerio de quién? 2, 3 (Bob,"
        " Cora; por defecto Bob)"
    )
    state, events = GAME.apply(state, 0, Choose("3"))
    assert state.stage == HERO
    assert (
        "Ana's catapult on C4 throws the pink skeleton emperor from C5 at Cora's cemetery."
        in _told(events)
    )


def test_always_decide_for_me_is_offered_beside_the_answers() -> None:
    state = position("A1 N", "C2 dragon\nC1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert GAME.buttons(state, 0)[-1] == ("prefer", {"choice": "top", "value": "auto"})
    assert GAME.buttons(state, 1)[-1] == ("prefer", {"choice": "dragon", "value": "auto"})
    assert GAME.buttons(state, 2) == [], "Cora is asked nothing"


def test_always_decide_for_me_answers_that_kind_from_now_on_and_the_table_reads_it() -> None:
    # Ana's three skeletons leave through the top forest; she answers the first herself, then
    # lets the computer decide: the two others go to the leader (Cora, with more floors).
    state = position("A1 N\nB1 N\nD1 N", "floors 3", "", stage=TRAP)
    state, _ = trap_phase(state)
    state, _ = GAME.apply(state, 0, Choose("2"))
    state, events = GAME.apply(state, 0, Prefer("top", "auto"))
    assert state.stage == HERO, "no question left: the phase resolved"
    assert state.boards[0].prefs["top"] == "auto"
    assert events[0].key == "badbones.event.preference_auto" and events[0].to == 0
    said = _told(events)
    assert (
        said.count(
            "🤖 chose Cora for Ana: the pink skeleton leaving B1 through the top forest"
            " goes to their cemetery."
        )
        == 1
    )
    assert any(s.startswith("🤖 chose Cora for Ana: the pink skeleton leaving D1") for s in said)
    assert "Ana sends" not in " ".join(said), "her own answer was told when she gave it"
    assert len(state.boards[1].forest) == 1 + 3 and len(state.boards[2].forest) == 2 + 3
    # Saved with the game: the next round decides again without asking.
    state = GAME.load(GAME.dump(state))
    assert state.boards[0].prefs["top"] == "auto"
    _, events = _next_round_with(state, "E1 N")
    assert "badbones.event.chose_top_computer" in keys(events)


def test_always_decide_for_me_is_undone_with_prefer_ask() -> None:
    state = position("A1 N\nprefs top=auto", "", "", stage=TRAP)
    state, events = GAME.apply(state, 0, Prefer("top", "ask"))
    state, _ = trap_phase(state)
    assert state.stage == SKELETONS and GAME.pending(state)[0].kind == "choose_top"


def test_the_dragon_decided_for_me_is_told_with_its_way() -> None:
    state = position("C2 dragon\nC1 S\nprefs dragon=auto", "", "", stage=TRAP)
    state, events = trap_phase(state)
    assert state.stage == HERO and where(state, 0) == {"C1": ["N"]}
    assert (
        "🤖 chose N for Ana: the pink skeleton from C1 flees the dragon on C2 that way."
        in _told(events)
    )
    assert (
        "🤖 eligió el N por Ana: el esqueleto (de los rosas) que llega desde C1 huye del dragón"
        " de C2 hacia allí." in _told(events, "es")
    )


def _next_round_with(state: BadBonesState, board: str) -> tuple[BadBonesState, list[Event]]:
    """Seat 0's board set to ``board`` at the trap phase of the next round, then played."""
    fresh = position(board, "", "", stage=TRAP)
    fresh.boards[0].prefs = dict(state.boards[0].prefs)
    return trap_phase(fresh)
