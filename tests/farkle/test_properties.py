"""Property tests over random legal games: they end, soldiers are never negative, items and
companions are conserved, hidden items never reach the channel, dump/load is lossless, the AFK
default is always legal, and refused actions change nothing."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import partial

import pytest

from rules.core import Action, Event, Rng, RulesError
from rules.core.play import random_game
from rules.farkle import GAME
from rules.farkle.actions import Keep, Recruit
from rules.farkle.cards import COMPANIONS, ITEMS
from rules.farkle.state import FarkleState
from tests.support import checked_play

ITEM_WORD = re.compile(r'"(' + "|".join(sorted(set(ITEMS))) + r')"')
PUBLIC_ITEM_EVENTS = {  # a played item is shown
    "farkle.event.item_used",
    "farkle.event.item_dice",
    "farkle.event.item_face",
    "farkle.event.medic",
}


def check(state: FarkleState) -> None:
    for p in state.players:
        assert p.army >= 0 and p.army % 50 == 0
    held: list[str] = list(state.item_deck) + state.item_discard
    for p in state.players:
        held += p.items
    for run in (state.attack, state.defence):
        if run is not None:
            held += run.gained
    assert Counter(held) == Counter(ITEMS)
    comps = state.companion_deck + state.companion_discard + [p.companion for p in state.players]
    assert Counter(comps) == Counter(COMPANIONS)
    public = json.dumps(GAME.view(state, None))
    assert not ITEM_WORD.search(public), public
    for seat in range(state.seats):
        mine = GAME.view(state, seat)
        assert mine["me"] == seat and mine["my_items"] == state.players[seat].items
    data = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.dump(GAME.load(data)) == GAME.dump(state)
    if GAME.is_over(state):
        result = GAME.result(state)
        assert result is not None and result.winners == (state.winner,)
    else:
        pending = GAME.pending(state)
        for seat in range(state.seats):
            legal = GAME.legal_actions(state, seat)
            assert len(legal) <= 80 and (seat in pending or legal == []), (seat, legal)


def wrong(state: FarkleState, seat: int, legal: list[Action], now: float) -> list[Action]:
    bad = Keep("z9") if state.stage == "roll" else Recruit()
    return [bad] if bad not in legal else []


def a_stranger_is_refused(state: FarkleState, seat: int) -> None:
    pending = GAME.pending(state)
    stranger = next((s for s in range(state.seats) if s not in pending), None)
    if stranger is not None:
        before = GAME.dump(state)
        with pytest.raises(RulesError):
            GAME.apply(state, stranger, Recruit())
        assert GAME.dump(state) == before


def often_the_default(state: FarkleState, seat: int, legal: list[Action], rng: Rng) -> Action:
    return legal[rng.below(len(legal))] if rng.below(4) else GAME.pending(state)[seat].default


def items_stay_hidden(
    before: FarkleState, after: FarkleState, seat: int, events: list[Event]
) -> None:
    assert GAME.phase(after) != GAME.phase(before), "every step moves the phase on"
    for e in events:
        if e.to is None and e.key not in PUBLIC_ITEM_EVENTS:
            assert not any(k.endswith("item_key") for k in e.args), e
            assert not ITEM_WORD.search(json.dumps(e.args)), e


play_checked = partial(
    checked_play.play_checked,
    GAME,
    invariants=check,
    checked=a_stranger_is_refused,
    wrong=wrong,
    every=8,
    choose=often_the_default,
    step=items_stay_hidden,
    now=1_000.0,
)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(seats: int) -> None:
    # Each step is checked whole (every seat's view, every card counted, a JSON round trip):
    # 3 games a seat count pass through every stage of a battle to a winner.
    for seed in range(3):
        play_checked(seats, seed, {})


def test_random_games_with_every_option() -> None:
    for seed in range(2):  # each option value in 2 whole checked games
        play_checked(3, 100 + seed, {"legend": "5", "four_pair": False, "defend_time": 0})
        play_checked(4, 200 + seed, {"legend": "4"})


def test_random_games_through_the_public_api_end_and_replay() -> None:
    for seed in range(10):  # the platform's player ends games, and replays them identically
        final, steps, _ = random_game(GAME, 4, seed)
        again, steps2, _ = random_game(GAME, 4, seed)
        assert GAME.dump(final) == GAME.dump(again) and steps == steps2
        assert GAME.is_over(final)


def test_a_table_of_absent_players_still_finishes() -> None:
    for seats, seed in ((2, 1), (4, 2), (5, 3)):
        state = GAME.new_game(seats, {}, seed)
        for _ in range(20_000):
            if GAME.is_over(state):
                break
            pending = GAME.pending(state)
            seat = min(pending)
            state, _ = GAME.apply(state, seat, pending[seat].default)
        assert GAME.is_over(state)


@pytest.mark.parametrize("seats", [2, 4, 5])
def test_check_accepts_every_legal_action(seats: int) -> None:
    """The service resolves what ``parse`` found among the legal actions without checking
    again: ``check`` must accept every one of them, for every seat, at every step."""
    for seed in range(4):
        rng = Rng(seed)
        state = GAME.new_game(seats, {}, seed)
        while not GAME.is_over(state):
            for seat in range(seats):
                for action in GAME.legal_actions(state, seat):
                    GAME.check(state, seat, action)
            seat = rng.choice(sorted(GAME.pending(state)))
            GAME.play(state, seat, rng.choice(GAME.legal_actions(state, seat)), 0.0)


def test_a_saved_run_reads_its_dice_set_aside_from_the_saved_bitmask() -> None:
    """Saved games write a run's dice set aside as a bitmask (bit i: die i, as they always
    have); the engine keeps one flag per die and writes the same number back."""
    state = GAME.new_game(2, {}, 1)
    data = json.loads(json.dumps(GAME.dump(state)))
    run = {"seat": 0, "dice": 6, "roll": [1, 2, 5, 3, 5, 6], "event": "blank", "kept": 0b10101}
    run |= {"aside": [1, 5, 5], "score": 200, "last": 200, "gained": [], "squire": False}
    data["attack"] = run | {"rolls": 1}  # saved before the eaten flags existed
    data["stage"], data["action"] = "next", "recruit"
    loaded = GAME.load(data)
    assert loaded.attack is not None
    assert loaded.attack.kept == [True, False, True, False, True, False]
    assert loaded.attack.eaten == [False, False, False]
    assert GAME.dump(loaded)["attack"]["kept"] == 0b10101
    assert GAME.view(loaded, None)["attack"]["kept"] == loaded.attack.kept
