"""A game's registration is all the service asks: a test game that declares a real-time table
(edited in place, posted anew where it says, a round timer, its own words) and a rating
against the game gets them, with no line of the service naming it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from bot.service import live
from bot.service.draft import Post
from bot.service.match import Match
from bot.service.ratings import opponent
from bot.service.text import Text
from rules.core import Event, Pending, Presentation, Registration, RulesError, registration
from rules.core.policy import has_policy
from tests.support.registered import registered
from tests.support.tiny import Pass, Tiny, TinyState


class Clocked(Tiny):
    """The tiny game under another name, shown as a real-time game would be."""

    name = "clocked"


def _round(state: TinyState) -> int:
    return state.round


def _new_round(state: TinyState, posted_at: int | None) -> bool:
    return state.phase == "bid" and state.round != posted_at


def _timer(options: Mapping[str, Any]) -> float | None:
    return float(options["timer"]) if options.get("timer") else None


def _solo(options: Mapping[str, Any], seats: int) -> str | None:
    return "solo" if seats == 1 else None


SHOWN = Presentation(
    edited=True,
    sitting=_round,
    posts_anew=_new_round,
    narrated=2,
    round_timer=_timer,
    timer_said="clocked.timer",
    deadline_said="clocked.deadline",
)


@pytest.fixture
def clocked() -> Iterator[Clocked]:
    game = Clocked()
    with registered(game, entry=Registration(game, presentation=SHOWN, versus=_solo)):
        yield game


def _table(game: Tiny, messages: dict[str, Any] | None = None, **options: Any) -> Match:
    row: Any = SimpleNamespace(id=1, kind=game.name, options=options, messages=messages)
    return Match(row, game, game.new_game(2, {}, 1))


def test_an_edited_table_goes_on_in_its_message_until_the_game_says_anew(
    clocked: Clocked,
) -> None:
    match = _table(clocked)
    snap = clocked.snapshot(match.state)
    assert live.edits_in_place(match, snap) and not live.by_turns(match, snap)
    first = live.carried(match, snap)
    assert first == {"table": snap.phase, "sitting": match.state.round, "told": [], "pinged": []}
    posted = {"phase": {**first, "channel": 5, "id": 9}}
    # The same round: the message goes on.
    kept = live.carried(_table(clocked, posted), snap)
    assert kept["id"] == 9 and kept["sitting"] == match.state.round
    # A new round (the game's counter moved on): posted anew.
    later = _table(clocked, posted)
    later.state.round += 1
    anew = live.carried(later, clocked.snapshot(later.state))
    assert "id" not in anew and anew["sitting"] == later.state.round


class Patient(Tiny):
    """The tiny game shown as an edited table played over hours: each player pinged once a
    sitting (a round), whatever the round asks them."""

    name = "patient"


def _always(state: TinyState) -> bool:
    return True


@pytest.fixture
def patient() -> Iterator[Patient]:
    game = Patient()
    entry = Registration(game, presentation=replace(SHOWN, pings_once=_always))
    with registered(game, entry=entry):
        yield game


def _seated(game: Tiny, found: dict[str, Any], computer: str | None = None) -> Match:
    """A two-seat table (users 100 and 101, the second a computer seat where ``computer``
    says) whose round has come to its take, the second seat's: its message is ``found``."""
    seats = [
        SimpleNamespace(
            seat=n, user_id=100 + n, display_name=f"P{n}", computer=c, autopilot=False, left=False
        )
        for n, c in ((0, None), (1, computer))
    ]
    row: Any = SimpleNamespace(id=1, kind=game.name, options={}, seats=seats)
    row.messages = {"phase": found}
    match = Match(row, game, game.new_game(2, {}, 1))
    match.state.phase, match.state.turn = "take", 1
    return match


def test_a_sitting_pings_each_player_it_asks_once(patient: Patient) -> None:
    story = [["core.undo.public", {"seat": 1}]]  # (any line the catalogue has)
    found = {"table": "1.bid", "channel": 5, "id": 9, "sitting": 1, "told": story}
    # The round's message pinged both as it asked their bids: the take edits it.
    both = _seated(patient, {**found, "pinged": [100, 101]})
    kept = live.carried(both, patient.snapshot(both.state))
    assert kept["id"] == 9 and kept["pinged"] == [100, 101]
    # It pinged only the first (the second was not asked then): the take is posted anew, in
    # the same sitting, with its story so far.
    first = _seated(patient, {**found, "pinged": [100]})
    anew = live.carried(first, patient.snapshot(first.state))
    assert "id" not in anew and anew["table"] != "1.bid"
    assert anew["sitting"] == 1 and anew["told"] == story and anew["pinged"] == [100]
    # …pinging the second player alone, who is then pinged in the sitting.
    whole = Post(5, Text(), mentions=(100,))  # (the phase's own pings: the newly asked)
    snap = patient.snapshot(first.state)
    post, record = live.posted(first, whole, anew, snap, "en")
    assert post.mentions == (101,) and record["pinged"] == [100, 101]
    assert "P1 took back" in str(post.narration), "the story so far"
    # A seat the computer plays is pinged by nobody: no message anew for it.
    computer = _seated(patient, {**found, "pinged": [100]}, computer="normal")
    assert live.carried(computer, patient.snapshot(computer.state))["id"] == 9


def test_a_sitting_played_over_hours_keeps_its_whole_story(patient: Patient) -> None:
    found = {"table": "p", "told": [["a", {}], ["b", {}], ["c", {}]]}
    messages = live.remember(_table(patient), found, [Event("d", {})])
    assert len(messages["phase"]["told"]) == 4, "not the latest 2 lines of a real-time round"


def test_an_edited_table_keeps_the_narration_the_game_asks_for(clocked: Clocked) -> None:
    found = {"table": "p", "told": [["a", {}]]}
    messages = live.remember(_table(clocked), found, [Event("b", {}), Event("c", {})])
    assert messages["phase"]["told"] == [["b", {}], ["c", {}]]


def test_the_round_timer_and_its_words_are_the_games(clocked: Clocked) -> None:
    timed = _table(clocked, timer=20)
    clock = Pending("bid", Pass(), deadline=1_000.0)
    assert live.round_timer(timed, clock) == 20.0
    assert live.round_timer(timed, replace(clock, deadline=None)) is None, "its clock only"
    assert live.round_timer(_table(clocked), clock) is None, "timer off"
    assert live.timed_out_key(timed, True, "lobby.turn") == "clocked.timer"
    assert live.timed_out_key(timed, False, "lobby.turn") == "clocked.deadline"


def test_a_game_with_no_presentation_posts_each_phase_and_rates_seats(tiny: Tiny) -> None:
    match = _table(tiny)
    snap = tiny.snapshot(match.state)
    assert live.edits_in_place(match, snap) == live.by_turns(match, snap)
    assert live.timed_out_key(match, False, "lobby.turn") == "lobby.turn"
    assert opponent(tiny.name, {}, 1) is None
    assert not has_policy(tiny.name) and not has_policy("no such game")


def test_against_the_game_is_the_registrations_answer(clocked: Clocked) -> None:
    assert opponent(clocked.name, {}, 1) == "game:clocked:solo"
    assert opponent(clocked.name, {}, 2) is None


def test_a_test_game_leaves_the_registry_with_its_test() -> None:
    game = Clocked()
    with registered(game):
        assert registration(game.name).game is game
    with pytest.raises(RulesError):
        registration(game.name)
