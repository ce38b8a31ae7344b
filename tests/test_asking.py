"""Questions asked in place (bot/service/asking.py), from positions: what an answer in Bad Bones'
phase 3 does to the phase message, and when a new one is posted instead."""

from __future__ import annotations

from bot.service.compose import move_draft
from bot.service.draft import Draft
from bot.service.match import Match
from bot.store.models import GameRow, SeatRow
from rules.badbones import GAME
from rules.badbones.actions import Choose
from rules.badbones.state import TRAP, BadBonesState
from tests.badbones.helpers import position, trap_phase


def _table(state: BadBonesState) -> Match:
    phase = GAME.phase(state)
    row = GameRow(
        id=7, channel_id=1, kind="badbones", phase=phase, host_id=100, seed=1, settings={}
    )
    row.seats = [
        SeatRow(seat=i, user_id=100 + i, display_name=name, locale="en")
        for i, name in enumerate(("Ana", "Bob", "Cora"))
    ]
    told = [["badbones.event.did_nothing", {"seat": s}] for s in range(3)]
    row.messages = {
        "phase": {"channel": 1, "id": 55, "phase": phase, "awaited": [0, 1], "told": told}
    }
    return Match(row, GAME, state)


def _asked() -> BadBonesState:
    """Ana: two skeletons leave through the top forest; Bob: his dragon repels one."""
    state = position("A1 N\nB1 N", "C2 dragon\nC1 S", "", stage=TRAP)
    state, _ = trap_phase(state)
    assert set(GAME.pending(state)) == {0, 1}
    return state


def _answer(seat: int, answer: str | None, *, by_default: bool = False) -> Draft:
    """The replies to ``seat``'s answer (``None``: its default) to its question of _asked()."""
    state = _asked()
    match = _table(state)
    before = GAME.snapshot(state)
    action = before.pending[seat].default if answer is None else Choose(answer)
    events = GAME.resolve(state, seat, action, 0.0)
    after = GAME.snapshot(state)
    assert after.phase == before.phase
    return move_draft(
        match, before, after, seat, events, "en", "en", by_default=by_default, draws=True
    )


def test_an_answer_edits_the_phase_message_and_pings_nobody() -> None:
    draft = _answer(1, "E")
    (edit,) = draft.public
    assert edit.edit and edit.edit_of == 55 and not edit.phase and edit.mentions == ()
    narration = str(edit.narration)
    assert narration.startswith("Ana does nothing.\nBob does nothing.\nCora does nothing.")
    assert narration.endswith("The pink skeleton from C1 flees Bob's dragon on C2 towards E.")
    assert "⏳ @Ana: Question 1: the pink skeleton on A1" in str(edit.text)
    assert "Bob:" not in " ".join(b.label for b in edit.buttons), "only Ana's question is open"
    assert all("~0:" in b.custom_id for b in edit.buttons), "marked with the question's moment"
    assert edit.picture is not None, "Bob's board is no longer shown at his question"
    assert draft.messages is not None and len(draft.messages["phase"]["told"]) == 4


def test_a_follow_up_question_reaches_its_player_privately_and_in_the_edit() -> None:
    draft = _answer(0, "3")
    (edit,) = draft.public
    assert edit.edit and edit.mentions == ()
    assert "⏳ @Ana: Question 2: the pink skeleton on B1" in str(edit.text)
    assert any("Question 2: the pink skeleton on B1" in str(t) for t in draft.private)
    assert draft.private_buttons and all("~1:" in b.custom_id for b in draft.private_buttons)


def test_an_answer_the_computer_gives_is_told_as_its_choice() -> None:
    draft = _answer(1, None, by_default=True)
    (edit,) = draft.public
    said = str(edit.narration).splitlines()
    assert said[-2:] == [
        "⌛ Bob ran out of time; the computer played for them.",
        "🤖 chose N for Bob: the pink skeleton from C1 flees the dragon on C2 that way.",
    ]


def test_a_player_newly_asked_gets_a_new_message_that_pings_them_alone() -> None:
    state = _asked()
    match = _table(state)
    GAME.resolve(state, 1, Choose("E"), 0.0)  # Bob is done
    before = GAME.snapshot(state)
    # Then something asks Bob again while Ana still answers (no rule does yet: a preference set
    # back to "ask" keeps the decisions taken, but the service must not depend on it).
    state.questions[1] = {**_asked().questions[1], "asked": 9}
    after = GAME.snapshot(state)
    draft = move_draft(match, before, after, 0, [], "en", "en", by_default=False, draws=True)
    (post,) = draft.public
    assert not post.edit and post.mentions == (101,)
    assert "⏳ @Bob: Question 1" in str(post.text) and "⏳ @Ana" in str(post.text)
    assert draft.messages is not None and draft.messages["phase"]["id"] is None
