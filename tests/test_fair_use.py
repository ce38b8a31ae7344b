"""Fair use: budgets per user and per server for the costly commands (boards, history and
leaderboard pages, replays), and one replay drawn at a time per server. The clock is the
test's: a window passes when the test moves it, never by sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.service import Actor, Place, Service, drawing
from bot.service.fairuse import LOOK, REPLAY, Budget, FairUse, Limit, Window
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, CAROL, HERE, Clock
from tests.support.replies import private
from tests.support.tiny import Tiny
from tests.test_replays import short_zvv

ELSEWHERE = Place(200, 20)  # another server
SMALL = {
    LOOK: Budget(user=Limit(3, 20.0), server=Limit(5, 20.0)),
    REPLAY: Budget(user=Limit(1, 60.0), server=Limit(2, 60.0)),
}


@pytest.fixture
async def limited(database_url: str, clock: Clock, tiny: Tiny) -> AsyncIterator[Service]:
    svc = await Service.open(database_url, clock=clock, render=True)
    svc.fair_use = FairUse(clock, SMALL)
    yield svc
    await svc.close()


async def test_a_user_over_the_budget_is_refused_in_their_language_until_the_window_passes(
    limited: Service, clock: Clock
) -> None:
    for _ in range(3):
        assert (await limited.history(ALICE, HERE)).ok
    refused = await limited.history(ALICE, HERE)
    assert not refused.ok and refused.public == []
    assert "try again in 20 s" in private(refused)
    # The budget is shared by the costly looks: a leaderboard page or a board is refused too.
    assert "try again in" in private(await limited.leaderboard(ALICE, HERE, "zvv"))
    assert "try again in" in private(await limited.board(ALICE, HERE))
    # Another user, and the same user on another server's budget... the user's is theirs.
    assert (await limited.history(BOB, HERE)).ok, "another user is not affected"
    clock.now += 5
    spanish = await limited.history(Actor(1, "Alice", locale="es-ES"), HERE)
    assert "vuelve a intentarlo en 15 s" in private(spanish), "the wait left, in Spanish"
    clock.now += 15
    assert (await limited.history(ALICE, HERE)).ok, "the window passed"


async def test_a_refused_board_changes_nothing(limited: Service, clock: Clock) -> None:
    await limited.new_game(ALICE, HERE, "zvv", {})
    await limited.join(BOB, HERE)
    await limited.start(ALICE, HERE)
    async with limited.sessions() as session:
        before = await repo.open_game(session, HERE.channel_id)
        assert before is not None
        version, state = before.version, before.state
    for _ in range(3):
        assert (await limited.board(ALICE, HERE)).ok
    refused = await limited.board(ALICE, HERE)
    assert not refused.ok and refused.public == [] and refused.private is not None
    assert refused.private.image is None, "nothing drawn"
    async with limited.sessions() as session:
        after = await repo.open_game(session, HERE.channel_id)
        assert after is not None and after.version == version and after.state == state


async def test_a_busy_server_is_refused_and_another_server_is_not(
    limited: Service, clock: Clock
) -> None:
    users = [Actor(100 + n, f"U{n}") for n in range(6)]
    for user in users[:5]:
        assert (await limited.history(user, HERE)).ok
    refused = await limited.history(users[5], HERE)
    assert not refused.ok and "try again in 20 s" in private(refused), "the server's budget"
    assert (await limited.history(users[5], ELSEWHERE)).ok, "another server is not affected"


class Held:
    """``drawing.animate`` held until the test lets it finish: a replay being drawn."""

    def __init__(self) -> None:
        self.go = asyncio.Event()
        self.started = asyncio.Event()
        self.drawn: list[int] = []

    async def __call__(self, job: object) -> bytes:
        self.started.set()
        await self.go.wait()
        self.drawn.append(int(getattr(job, "game_id", 0)))
        return b"RIFF....WEBP"


async def test_one_replay_at_a_time_per_server_and_a_repeat_gets_the_posted_one(
    limited: Service, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    limited.fair_use = FairUse(clock)  # the default budgets: this test is about one at a time
    game_id, _, _ = await short_zvv(limited, clock)
    held = Held()
    monkeypatch.setattr(drawing, "animate", held)
    first = asyncio.create_task(limited.replay_game(ALICE, HERE, game_id))
    await asyncio.wait_for(held.started.wait(), 10)
    same = await limited.replay_game(BOB, HERE, f"#{game_id}")
    assert not same.ok and same.public == []
    assert f"replay of game {game_id} is being drawn" in private(same)
    other = await limited.replay_game(CAROL, HERE, game_id + 5)
    assert not other.ok and "otra repetición" in private(other), "one at a time, in Spanish"
    held.go.set()
    posted = await first
    assert posted.ok and len(posted.public) == 1
    assert held.drawn == [game_id], "drawn once"
    again = await limited.replay_game(BOB, HERE, game_id)
    assert not again.ok and again.public == []
    assert f"game {game_id} was posted in" in private(again)
    assert held.drawn == [game_id]
    clock.now += 601
    assert (await limited.replay_game(BOB, HERE, game_id)).ok, "long after, drawn again"


async def test_a_replay_counts_once_drawn_and_the_user_waits_for_the_next(
    limited: Service, clock: Clock
) -> None:
    game_id, _, _ = await short_zvv(limited, clock)
    mistyped = await limited.replay_game(ALICE, HERE, "abc")
    assert not mistyped.ok and "no game" in private(mistyped)
    assert (await limited.replay_game(ALICE, HERE, game_id)).ok, "a mistake costs nothing"
    repeat = await limited.replay_game(ALICE, HERE, game_id)
    assert not repeat.ok and "was posted in" in private(repeat), "the posted one, first"
    refused = await limited.replay_game(ALICE, HERE, game_id + 1)
    assert not refused.ok and refused.public == [] and "try again in 60 s" in private(refused)
    assert "no game" in private(await limited.replay_game(BOB, HERE, game_id + 1)), "only Alice"
    clock.now += 60
    assert "no game" in private(await limited.replay_game(ALICE, HERE, game_id + 1))


def test_forgotten_users_do_not_stay_in_memory() -> None:
    window = Window(Limit(2, 10.0))
    for user in range(1000):
        window.use(user, 0.0)
    assert len(window) == 1000
    window.sweep(10.0)
    assert len(window) == 0
    window.use(1, 11.0)
    assert window.wait(1, 12.0) == 0 and len(window) == 1


async def test_a_game_in_progress_is_drawn_again_when_asked_again(
    limited: Service, clock: Clock
) -> None:
    """Only a finished game's replay is final: one in progress has moved on since."""
    limited.fair_use = FairUse(clock)
    await limited.new_game(ALICE, HERE, "zvv", {})
    await limited.join(BOB, HERE)
    await limited.start(ALICE, HERE)
    async with limited.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
    first = await limited.replay_game(BOB, HERE, row.id)
    again = await limited.replay_game(BOB, HERE, row.id)
    assert first.ok and again.ok and len(again.public) == 1
