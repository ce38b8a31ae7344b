"""After a game with a computer player: the computer is rated by its level (one rating a level,
so the table sees how strong each level is), and the rematch seats it again."""

from __future__ import annotations

from sqlalchemy import select

from bot.service import Service
from bot.service.match import Match
from bot.store import repository as repo
from bot.store.models import ACTIVE, RatingRow
from rules.core.policy import choose
from tests.conftest import ALICE, HERE, Clock
from tests.support.commands import command_for


async def test_a_computer_seat_is_rated_by_its_level_and_the_rematch_seats_it_again(
    service: Service, clock: Clock
) -> None:
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9, "round_limit": 2})).ok
    assert (await service.add_bot(ALICE, HERE, "easy")).ok
    assert (await service.start(ALICE, HERE)).ok
    for _ in range(300):  # Alice plays her own moves (the policy picks them); the computer its
        async with service.sessions() as session:
            row = await repo.open_game(session, HERE.channel_id)
        if row is None:
            break
        match = Match.of(row)
        if 0 in match.engine.pending(match.state) and not match.engine.automatic(match.state, 0):
            action = choose(match.engine, match.state, 0, "easy")
            command, args = command_for(match.engine, action)
            assert (await service.act(ALICE, HERE, "zvv", command, dict(args))).ok
        else:
            clock.now += service.computer_delay
            await service.run_deadlines()
    else:
        raise AssertionError("the game did not end")
    async with service.sessions() as session:
        rated = (await session.execute(select(RatingRow))).scalars().all()
    assert {r.player for r in rated} == {f"u:{ALICE.user_id}", "cpu:easy"}
    assert all(r.games == 1 for r in rated)

    asked = await service.rematch(ALICE, HERE)
    assert asked.ok
    async with service.sessions() as session:
        again = await repo.open_game(session, HERE.channel_id)
    assert again is not None and again.status == ACTIVE, "the only person asked: it starts"
    seats = sorted(again.seats, key=lambda s: s.seat)
    assert [(s.display_name, s.computer) for s in seats] == [("🤖 Easy 1", "easy"), ("Alice", None)]
