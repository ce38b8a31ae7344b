"""FUSE live by chat: the one table message edited in place round after round, and the round
timer that plays an absent player's move so the team is never held up for long."""

from __future__ import annotations

from typing import Any

from bot.service import Actor, Service
from bot.service.replies import Outgoing, Reply
from bot.service.table import Table
from bot.store import repository as repo
from rules.core.policy import choose
from rules.fuse import FUSE
from rules.fuse.game import FuseState
from tests.conftest import ALICE, BOB, HERE, Clock


async def _table(service: Service) -> Table | None:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
    return Table.of(row) if row is not None else None


async def _deadlines(service: Service) -> dict[tuple[int, str], float]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        rows = await repo.deadlines_of(session, row.id)
    return {key: d.due_at for key, d in rows.items()}


async def _start(service: Service, options: dict[str, Any] | None = None) -> list[Outgoing]:
    sent: list[Outgoing] = []
    for reply in (
        await service.new_game(ALICE, HERE, "fuse", options or {}),
        await service.join(BOB, HERE),
        await service.start(ALICE, HERE),
    ):
        assert reply.ok
        sent += reply.public
    return sent


async def _play(service: Service, actor: Actor, seat: int) -> Reply:
    """The seat's player plays what the computer would (a person's move, typed)."""
    table = await _table(service)
    assert table is not None
    command, args = FUSE.to_command(choose(FUSE, table.state, seat, "normal"))  # type: ignore[misc]
    reply = await service.act(actor, HERE, "fuse", command, dict(args))
    assert reply.ok, reply.private
    return reply


async def _state(service: Service) -> FuseState:
    table = await _table(service)
    assert table is not None
    state = table.state
    assert isinstance(state, FuseState)
    return state


async def test_an_absent_player_is_played_at_the_round_timer_and_the_round_goes_on(
    service: Service, clock: Clock
) -> None:
    await _start(service)
    await service.act(ALICE, HERE, "fuse", "draw", {})
    started = clock.now
    due = await _deadlines(service)
    assert due[(1, "default")] == started + 20, "Bob's move is due at the round timer"
    while 0 in FUSE.pending(await _state(service)):  # Alice plays her round; Bob is away
        clock.now += 2
        await _play(service, ALICE, 0)
    assert (await _state(service)).round == 1 and 1 in FUSE.pending(await _state(service))
    clock.now = started + 20
    told = await service.run_deadlines()
    assert told, "the computer played Bob's move at the round timer"
    for _ in range(5):  # the rest of Bob's round, a moment apart
        if (await _state(service)).round > 1:
            break
        clock.now += service.computer_delay
        told += await service.run_deadlines()
    assert (await _state(service)).round == 2, "the round went on without Bob"
