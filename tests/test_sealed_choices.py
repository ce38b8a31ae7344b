"""A sealed choice (made, not yet revealed) is seen by nobody but the person who made it, also
when the seat changes hands: ``/game replace`` withdraws it and the newcomer chooses afresh
(docs/bots.md, "Taking a seat over"). Leaving and coming back, or the autopilot playing an
absent player's seat, hands the seat to no other person, so the choice stands for them.

Through the service on a real database, with Bad Bones: its phases 1 and 2 and its cooperative
tower picks are hidden submissions (D13). The engine-level property over every game is in
``tests/reliability/test_secrets.py``."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import Actor, Service
from bot.service.match import Match
from bot.store import repository as repo
from rules.core import get_game
from tests.conftest import ALICE, BOB, CAROL, HERE, MOD, Clock
from tests.support.replies import private, said
from tests.support.rows import game_at

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

ERIN = Actor(5, "Erin")


async def seat_view(service: Service, seat: int) -> dict[str, Any]:
    """What the seat's own board (``/game board``: its picture and its buttons) is drawn from."""
    match = Match.of(await game_at(service, HERE))
    return match.engine.view(match.state, seat)


async def submit_any(
    service: Service, actor: Actor, seat: int, skip: int = 0, *, last: bool = False
) -> dict[str, Any]:
    """The seat makes one of its legal hidden submissions (not the first ``skip``); returns
    what its own view then says it saved (``last``: it completes the phase, which reveals it)."""
    match = Match.of(await game_at(service, HERE))
    engine = match.engine
    choices = [
        mapped
        for action in engine.legal_actions(match.state, seat)
        if (mapped := engine.to_command(action)) is not None and mapped[0] != "prefer"
    ]
    command, args = choices[skip % len(choices)]
    reply = await service.act(actor, HERE, "badbones", command, dict(args))
    assert reply.ok, private(reply)
    saved = (await seat_view(service, seat))["my_submission"]
    if last:
        return {}
    assert saved is not None, "the submission is sealed in the seat's own view"
    return dict(saved)


async def three_at_the_table(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "badbones", {})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.join(CAROL, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok


async def replays_to_the_stored_game(service: Service) -> None:
    row = await game_at(service, HERE)
    assert await service.state_from_log(row.id) == row.state, "the log replays to the same game"


async def test_replacing_a_seat_withdraws_its_sealed_hero_move(service: Service) -> None:
    await three_at_the_table(service)
    bob_seat = 1
    await submit_any(service, BOB, bob_seat)
    replaced = await service.replace(ALICE, HERE, BOB.user_id, ERIN)
    assert replaced.ok
    channel = said(replaced.public)
    assert "Erin takes over the seat of Bob" in channel
    assert "it is withdrawn, and Erin chooses afresh" in channel
    view = await seat_view(service, bob_seat)
    assert view["my_submission"] is None, "Erin cannot read Bob's sealed move"
    assert bob_seat in view["awaiting"], "the phase waits for Erin's own choice"
    board = await service.board(ERIN, HERE)
    assert "Saved" not in private(board)
    await replays_to_the_stored_game(service)
    # Erin chooses; putting Bob back does not bring his old choice back either.
    erins = await submit_any(service, ERIN, bob_seat, skip=1)
    again = await service.replace(ALICE, HERE, ERIN.user_id, BOB)
    assert "chooses afresh" in said(again.public)
    assert (await seat_view(service, bob_seat))["my_submission"] is None, erins
    await replays_to_the_stored_game(service)


async def test_the_channel_is_not_told_of_a_reset_when_nothing_was_sealed(
    service: Service,
) -> None:
    await three_at_the_table(service)
    replaced = await service.replace(MOD, HERE, BOB.user_id, ERIN)
    assert replaced.ok
    assert "afresh" not in said(replaced.public)
    row = await game_at(service, HERE)
    async with service.sessions() as session:
        assert not await repo.action_log(session, row.id), "nothing logged"


async def test_a_sealed_trap_is_withdrawn_when_a_seat_that_left_is_taken_over(
    service: Service, clock: Clock
) -> None:
    """Phase 2 (traps). Bob places a trap, then leaves: the computer plays his seat, and his
    choice stands for him (no person sees it). When Erin takes the seat over, it is withdrawn."""
    await three_at_the_table(service)
    for seat, who in enumerate((ALICE, BOB, CAROL)):  # phase 1: every hero moves
        await submit_any(service, who, seat, last=seat == 2)
    for _ in range(20):  # answer phase 3's questions, if any, by their deadlines
        row = await game_at(service, HERE)
        if Match.of(row).state.stage == "trap":
            break
        clock.now += 7 * 24 * 3600
        await service.run_deadlines()
    assert Match.of(await game_at(service, HERE)).state.stage == "trap"
    trap = await submit_any(service, BOB, 1)
    left = await service.leave(BOB, HERE)
    assert left.ok and "afresh" not in said(left.public)
    assert (await seat_view(service, 1))["my_submission"] == trap, "his choice stands for him"
    replaced = await service.replace(ALICE, HERE, BOB.user_id, ERIN)
    assert "Erin chooses afresh" in said(replaced.public)
    view = await seat_view(service, 1)
    assert view["my_submission"] is None
    assert str(trap.get("square")) not in private(await service.board(ERIN, HERE))
    await replays_to_the_stored_game(service)


async def test_cooperative_tower_picks_are_withdrawn_for_the_newcomer(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "badbones", {"cooperative": True})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    engine = get_game("badbones")
    state = Match.of(await game_at(service, HERE)).state
    assert state.stage == "start", "the cooperative game begins with tower picks"
    await submit_any(service, BOB, 1)
    assert engine.sealed(Match.of(await game_at(service, HERE)).state, 1)
    replaced = await service.replace(ALICE, HERE, BOB.user_id, ERIN)
    assert "afresh" in said(replaced.public)
    assert (await seat_view(service, 1))["my_submission"] is None
    await replays_to_the_stored_game(service)


async def test_a_choice_that_completes_the_phase_is_not_called_hidden(service: Service) -> None:
    """Solo, or the last of the table to choose: the move resolves the phase at once, so its
    player is not told "Hidden until everyone has chosen; you can still change it"."""
    assert (await service.new_game(ALICE, HERE, "badbones", {})).ok
    assert (await service.start(ALICE, HERE)).ok
    match = Match.of(await game_at(service, HERE))
    command, args = next(
        mapped
        for action in match.engine.legal_actions(match.state, 0)
        if (mapped := match.engine.to_command(action)) is not None and mapped[0] == "move"
    )
    solo = await service.act(ALICE, HERE, "badbones", command, dict(args))
    assert solo.ok and "Hidden until everyone" not in private(solo)


async def test_a_choice_that_others_still_wait_on_is_said_to_be_hidden(service: Service) -> None:
    await three_at_the_table(service)
    match = Match.of(await game_at(service, HERE))
    command, args = next(
        mapped
        for action in match.engine.legal_actions(match.state, 0)
        if (mapped := match.engine.to_command(action)) is not None and mapped[0] == "move"
    )
    first = await service.act(ALICE, HERE, "badbones", command, dict(args))
    assert "Hidden until everyone has chosen" in private(first)
